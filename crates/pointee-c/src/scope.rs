//! Lowering a file in two steps so that an editor can re-lower one function:
//! the *outline* reads the file scope (every top-level declaration, record and
//! global, but no function body) and the span of each function definition;
//! each body is then lowered on its own against that scope. A body edit
//! leaves the scope equal, so only that function is lowered again.

use crate::lower::{Lowerer, Mode, Sym};
use crate::syntax::{self, named_children};
use crate::CFile;
use pointee_ir::fxhash::{FxHashMap, FxHashSet};
use pointee_ir::{Name, Range, TypeTable};
use tree_sitter::{Node, Tree};

/// What a function body may name from the file: ordinary identifiers and
/// record layouts. Compared by value (it holds no source position).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileScope {
    pub(crate) names: FxHashMap<String, Sym>,
    pub(crate) types: TypeTable,
    /// Globals only declared (`extern`, as headers do): made where a body
    /// uses them.
    pub(crate) declared_only: FxHashSet<Name>,
}

/// One function definition: its name and its byte range in the file (which
/// may cover several syntax items, for a K&R definition).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSyntax {
    pub name: Name,
    pub range: Range,
}

/// The outline of a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    pub scope: FileScope,
    /// Globals, records and prototypes (no functions), with their source map.
    pub file: CFile,
    pub functions: Vec<FunctionSyntax>,
}

/// The outline of a text parsed as `trees` (one, or the pieces of
/// `pieces::parse_unit`, in text order).
pub(crate) fn outline(name: &str, text: &str, trees: &[Tree]) -> Outline {
    let empty = FileScope::default();
    let mut l = Lowerer::new(name, text, &empty, Mode::Outline);
    l.outline_items(&top_level_items(trees));
    let functions = std::mem::take(&mut l.outlined);
    let names = std::mem::take(&mut l.scopes[0]);
    let declared_only = std::mem::take(&mut l.declared_only);
    let file = l.finish();
    let scope = FileScope {
        names,
        types: file.program.types.clone(),
        declared_only,
    };
    Outline {
        scope,
        file,
        functions,
    }
}

/// Lowers one function definition given as its own text (positions in the
/// result are relative to the start of `text`), from `tree`, its parse.
pub(crate) fn lower_function(scope: &FileScope, file: &str, text: &str, tree: &Tree) -> CFile {
    lower_items(scope, file, text, &named_children(tree.root_node()))
}

fn lower_items(scope: &FileScope, file: &str, text: &str, items: &[Node]) -> CFile {
    let mut l = Lowerer::new(file, text, scope, Mode::Full);
    l.function_items(items);
    l.finish()
}

/// The top-level items of a text parsed as `trees`, in order.
fn top_level_items(trees: &[Tree]) -> Vec<Node<'_>> {
    trees
        .iter()
        .flat_map(|t| named_children(t.root_node()))
        .collect()
}

/// Lowers a whole file: the outline, then each function against its scope.
pub(crate) fn lower_tree(name: &str, text: &str, trees: &[Tree]) -> CFile {
    let outline = outline(name, text, trees);
    let spans: Vec<Range> = outline.functions.iter().map(|f| f.range).collect();
    let parts = items_per_span(trees, &spans)
        .into_iter()
        .map(|items| lower_items(&outline.scope, name, text, &items));
    merge_parts(outline.file, parts)
}

/// For each span (sorted, disjoint), the outermost syntax nodes inside it,
/// descending through nodes that only overlap a span (an ERROR node or a
/// `#if` around a definition). One walk for all spans.
fn items_per_span<'t>(trees: &'t [Tree], spans: &[Range]) -> Vec<Vec<Node<'t>>> {
    let mut out = vec![Vec::new(); spans.len()];
    let mut stack: Vec<Node> = trees.iter().map(|t| t.root_node()).collect();
    while let Some(n) = stack.pop() {
        for c in named_children(n) {
            let r = syntax::range(c);
            let containing = spans.partition_point(|s| s.start <= r.start);
            if containing > 0 && r.end <= spans[containing - 1].end {
                out[containing - 1].push(c);
                continue;
            }
            let first_after = spans.partition_point(|s| s.end <= r.start);
            if first_after < spans.len() && spans[first_after].start < r.end {
                stack.push(c);
            }
        }
    }
    for items in &mut out {
        items.sort_by_key(|n| n.start_byte());
    }
    out
}

/// Puts a file back together from its outline and its lowered functions
/// (in file order), each with how far to move its positions (0 when they
/// are absolute already). Copies the outline and each part once, moving
/// positions as it copies.
pub(crate) fn assemble<'a>(
    file: &CFile,
    parts: impl IntoIterator<Item = (&'a CFile, u32)>,
) -> CFile {
    merge_parts(
        file.clone(),
        parts.into_iter().map(|(part, delta)| {
            let mut part = part.clone();
            if delta != 0 {
                part.source.shift(delta);
            }
            part
        }),
    )
}

/// `assemble` of parts owned already (and positioned).
fn merge_parts(mut file: CFile, parts: impl Iterator<Item = CFile>) -> CFile {
    let mut defined: FxHashMap<Name, usize> = FxHashMap::default();
    let (low, _) = parts.size_hint();
    file.program.functions.reserve(low);
    file.source.functions.reserve(low);
    for part in parts {
        let CFile {
            program, source, ..
        } = part;
        for (f, fs) in program.functions.into_iter().zip(source.functions) {
            match defined.get(&f.name) {
                // A second definition of a name replaces the first (as a
                // compiler would reject; the later one is what the user sees).
                Some(&i) => {
                    file.program.functions[i] = f;
                    file.source.functions[i] = fs;
                }
                None => {
                    defined.insert(f.name.clone(), file.program.functions.len());
                    file.program.functions.push(f);
                    file.source.functions.push(fs);
                }
            }
        }
        for g in program.globals {
            match file.program.globals.iter_mut().find(|x| x.name == g.name) {
                // A block-scope `extern` must not undo the file's definition.
                Some(x) => crate::link::merge_declaration(x, g),
                None => file.program.globals.push(g),
            }
        }
        for g in source.globals {
            file.source.globals.retain(|x| x.name != g.name);
            file.source.globals.push(g);
        }
        for (k, r) in program.types.records {
            file.program.types.records.entry(k).or_insert(r);
        }
        file.source.records.extend(source.records);
        file.program.externs.extend(program.externs);
        file.source.notes.extend(source.notes);
    }
    let mut seen = std::collections::HashSet::new();
    file.program
        .externs
        .retain(|e| !defined.contains_key(&e.name) && seen.insert(e.name.clone()));
    file.source.notes.sort_by_key(|n| (n.range.start, n.kind));
    file
}
