//! The one place that converts between LSP types and pointee's plain data:
//! URIs and file names, UTF-16 positions and byte offsets (through
//! `pointee_ir::LineIndex`), and pointee-ide's answers (file ids and byte
//! ranges) into LSP results.

use crate::docs::{Doc, Snapshot};
use pointee_ide::{
    Analysis, CallItem, CallLink, Diagnostic, FileId, FilePosition, FileRange, Graph, GraphKind,
    Highlight, HighlightKind, Hover, InlayHint, Lang, NavTarget, Outcome, Reference, Severity,
    Target, WitnessAnswer,
};
use pointee_ir::LineIndex;
use tower_lsp_server::ls_types as lsp;

// ------------------------------------------------------------- names, URIs

/// The file name pointee uses for a URI: the file system path for `file:`
/// URIs, the URI itself otherwise.
pub fn uri_to_name(uri: &lsp::Uri) -> String {
    if uri.scheme().as_str() == "file" {
        if let Some(p) = uri.to_file_path() {
            return p.to_string_lossy().into_owned();
        }
    }
    uri.as_str().to_string()
}

pub fn name_to_uri(name: &str) -> Option<lsp::Uri> {
    if name.starts_with('/') {
        lsp::Uri::from_file_path(name)
    } else {
        name.parse().ok()
    }
}

// ------------------------------------------------------------- positions

/// The byte offset of an LSP position. Per the LSP rules, a character past
/// the end of its line means the end of the line, and a line past the end of
/// the text means the end of the text.
pub fn offset(lines: &LineIndex, text: &str, pos: lsp::Position) -> u32 {
    let line = pos.line as usize;
    if line >= lines.line_count() {
        return text.len() as u32;
    }
    let start = lines.offset_utf16(line, 0).unwrap_or(text.len() as u32);
    let line_text = &text[start as usize..];
    let line_text = &line_text[..line_text.find('\n').unwrap_or(line_text.len())];
    let line_text = line_text.strip_suffix('\r').unwrap_or(line_text);
    let mut units = 0usize;
    for (byte, ch) in line_text.char_indices() {
        if units >= pos.character as usize {
            return start + byte as u32;
        }
        units += ch.len_utf16();
    }
    start + line_text.len() as u32
}

pub fn position(lines: &LineIndex, offset: u32) -> lsp::Position {
    let (line, col) = lines.line_col_utf16(offset);
    lsp::Position::new(line as u32, col as u32)
}

pub fn range(lines: &LineIndex, r: pointee_ir::Range) -> lsp::Range {
    lsp::Range::new(position(lines, r.start), position(lines, r.end))
}

/// A tree-sitter point (row, byte column) of a byte offset.
pub fn ts_point(lines: &LineIndex, offset: u32) -> tree_sitter::Point {
    let row = lines.line_of(offset);
    let start = lines.offset_chars(row, 0).unwrap_or(0);
    tree_sitter::Point {
        row,
        column: (offset - start) as usize,
    }
}

/// The documents of one snapshot and the analysis of their files: resolves
/// file ids to URIs and line indexes.
pub struct Files<'a> {
    pub analysis: &'a Analysis,
    pub snap: &'a Snapshot,
}

impl Files<'_> {
    pub fn doc(&self, file: FileId) -> Option<&Doc> {
        self.snap.doc(self.analysis.file_path(file))
    }

    pub fn uri(&self, file: FileId) -> Option<lsp::Uri> {
        name_to_uri(self.analysis.file_path(file))
    }

    /// The file and byte offset of an LSP position in the document `name`.
    pub fn position(&self, name: &str, pos: lsp::Position) -> Option<FilePosition> {
        let doc = self.snap.doc(name)?;
        Some(FilePosition {
            file: self.analysis.file_id(name)?,
            offset: offset(&doc.lines, &doc.text, pos),
        })
    }

    /// The file and byte range of an LSP range in the document `name`.
    pub fn range(&self, name: &str, r: lsp::Range) -> Option<FileRange> {
        let doc = self.snap.doc(name)?;
        Some(FileRange {
            file: self.analysis.file_id(name)?,
            range: pointee_ir::Range {
                start: offset(&doc.lines, &doc.text, r.start),
                end: offset(&doc.lines, &doc.text, r.end),
            },
        })
    }

    pub fn lsp_range(&self, r: FileRange) -> Option<lsp::Range> {
        Some(range(&self.doc(r.file)?.lines, r.range))
    }

    pub fn location(&self, r: FileRange) -> Option<lsp::Location> {
        Some(lsp::Location::new(self.uri(r.file)?, self.lsp_range(r)?))
    }

    /// A link to where a range starts: `file:///a.c#L12,5` (1-based line
    /// and character column).
    fn link(&self, r: FileRange) -> Option<String> {
        let (line, col) = self.doc(r.file)?.lines.line_col_chars(r.range.start);
        Some(format!(
            "{}#L{},{}",
            self.uri(r.file)?.as_str(),
            line + 1,
            col + 1
        ))
    }
}

// ------------------------------------------------------------- answers

fn target_md(files: &Files, t: &Target) -> String {
    let mut s = match t.decl.and_then(|d| files.link(d)) {
        Some(url) => format!("[`{}`]({url})", t.name),
        None => format!("`{}`", t.name),
    };
    s.push_str(&format!(" *{}*", t.kind.as_str()));
    if let Some(h) = &t.heap_context {
        s.push_str(&format!(" in `{h}`"));
    }
    // A symbolic name in the user's terms: `1_p` *symbolic* (what callers
    // of `f` pass as `p`).
    if let Some(m) = &t.meaning {
        s.push_str(&format!(" ({m})"));
    }
    s
}

fn targets_line(files: &Files, ts: &[Target]) -> String {
    if ts.is_empty() {
        return "nothing".into();
    }
    ts.iter()
        .map(|t| {
            let mut s = target_md(files, t);
            if t.definite {
                s.push_str(" (definite)");
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn list(files: &Files, ts: &[&Target]) -> String {
    ts.iter()
        .map(|t| target_md(files, t))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A hover in Markdown: definite and possible targets apart (each a link to
/// its declaration or allocation site), the functions a function pointer may
/// call, and the breakdown per context when contexts disagree.
pub fn hover(files: &Files, h: &Hover) -> lsp::Hover {
    let java = files.analysis.lang(h.range.file) == Some(Lang::Java);
    let mut md = format!("**`{}`**", h.expr);
    if !h.reachable && h.partial {
        md.push_str(" is not analysed: the analysis stopped at its budget first.\n");
    } else if !h.reachable {
        md.push_str(" is not reached by any analysed call of its function.\n");
    } else {
        md.push_str(" points to:\n\n");
        let definite: Vec<&Target> = h.targets.iter().filter(|t| t.definite).collect();
        let possible: Vec<&Target> = h.targets.iter().filter(|t| !t.definite).collect();
        if !definite.is_empty() {
            md.push_str(&format!("- definitely: {}\n", list(files, &definite)));
        }
        if !possible.is_empty() {
            let label = if java { "objects" } else { "possibly" };
            md.push_str(&format!("- {label}: {}\n", list(files, &possible)));
        }
        if h.targets.is_empty() {
            md.push_str("- nothing\n");
        }
        if !h.may_call.is_empty() {
            let fns: Vec<String> = h
                .may_call
                .iter()
                .map(|c| match c.decl.and_then(|d| files.link(d)) {
                    Some(url) => format!("[`{}`]({url})", c.name),
                    None => format!("`{}`", c.name),
                })
                .collect();
            md.push_str(&format!("\nMay call: {}\n", fns.join(", ")));
        }
        let disagree = h.contexts.windows(2).any(|w| w[0].targets != w[1].targets);
        if disagree {
            md.push_str("\nPer calling context:\n\n");
            for c in &h.contexts {
                md.push_str(&format!(
                    "- `{}`: {}\n",
                    c.chain.join(" > "),
                    targets_line(files, &c.targets)
                ));
            }
        }
        if h.merged {
            md.push_str("\n*Contexts were merged by the context bound.*\n");
        }
        if h.merged_in_cycle {
            md.push_str("\n*Inputs were merged inside a large recursive cycle.*\n");
        }
        if h.partial {
            md.push_str(
                "\n*Partial: the analysis stopped at its budget (`pointee.c.budgetMs`, ...); this answer may say less.*\n",
            );
        }
        if h.extra_entry {
            md.push_str(
                "\n*Reached only from an extra entry (not from `main`): inputs unknown.*\n",
            );
        }
    }
    lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: md,
        }),
        range: files.lsp_range(h.range),
    }
}

/// Where to go; `None` when there is nowhere.
pub fn locations(files: &Files, targets: &[NavTarget]) -> Option<lsp::GotoDefinitionResponse> {
    let locs: Vec<lsp::Location> = targets
        .iter()
        .filter_map(|t| {
            files.location(FileRange {
                file: t.file,
                range: t.range,
            })
        })
        .collect();
    (!locs.is_empty()).then_some(lsp::GotoDefinitionResponse::Array(locs))
}

/// A diagnostic, its witness as related information (`location` finds
/// where a range of any file is).
pub fn diagnostic(
    doc: &Doc,
    d: &Diagnostic,
    location: &dyn Fn(FileRange) -> Option<lsp::Location>,
) -> lsp::Diagnostic {
    let severity = match d.severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        Severity::Hint => lsp::DiagnosticSeverity::HINT,
    };
    lsp::Diagnostic {
        range: range(&doc.lines, d.range.range),
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.code.clone())),
        source: Some("pointee".into()),
        message: d.message.clone(),
        related_information: (!d.related.is_empty()).then(|| {
            d.related
                .iter()
                .filter_map(|r| {
                    Some(lsp::DiagnosticRelatedInformation {
                        location: location(r.range)?,
                        message: r.message.clone(),
                    })
                })
                .collect()
        }),
        tags: d
            .is_unnecessary()
            .then(|| vec![lsp::DiagnosticTag::UNNECESSARY]),
        ..Default::default()
    }
}

pub fn call_item(files: &Files, item: &CallItem) -> Option<lsp::CallHierarchyItem> {
    let doc = files.doc(item.file)?;
    let path = files.analysis.file_path(item.file);
    Some(lsp::CallHierarchyItem {
        name: item.name.clone(),
        kind: lsp::SymbolKind::FUNCTION,
        tags: None,
        detail: Some(path.rsplit('/').next().unwrap_or(path).to_string()),
        uri: files.uri(item.file)?,
        range: range(&doc.lines, item.range),
        selection_range: range(&doc.lines, item.name_range),
        data: Some(serde_json::json!({
            "lang": match item.lang { Lang::C => "c", Lang::Java => "java" },
            "function": item.name,
        })),
    })
}

/// The file and function an item stands for (the function's program name
/// is kept in `data`; otherwise it is the item's name).
pub fn call_item_function(item: &lsp::CallHierarchyItem) -> (String, String) {
    let name = item
        .data
        .as_ref()
        .and_then(|d| d.get("function"))
        .and_then(|f| f.as_str())
        .map(str::to_string)
        .unwrap_or_else(|| item.name.clone());
    (uri_to_name(&item.uri), name)
}

fn call_ranges(files: &Files, link: &CallLink) -> Vec<lsp::Range> {
    link.calls
        .iter()
        .filter_map(|&c| files.lsp_range(c))
        .collect()
}

pub fn incoming(files: &Files, links: &[CallLink]) -> Vec<lsp::CallHierarchyIncomingCall> {
    links
        .iter()
        .filter_map(|l| {
            Some(lsp::CallHierarchyIncomingCall {
                from: call_item(files, &l.item)?,
                from_ranges: call_ranges(files, l),
            })
        })
        .collect()
}

pub fn outgoing(files: &Files, links: &[CallLink]) -> Vec<lsp::CallHierarchyOutgoingCall> {
    links
        .iter()
        .filter_map(|l| {
            Some(lsp::CallHierarchyOutgoingCall {
                to: call_item(files, &l.item)?,
                from_ranges: call_ranges(files, l),
            })
        })
        .collect()
}

/// References as locations, in the answer's order (must-aliases first),
/// each place once.
pub fn references(files: &Files, refs: &[Reference]) -> Vec<lsp::Location> {
    let mut seen = std::collections::HashSet::new();
    refs.iter()
        .filter(|r| seen.insert(r.range))
        .filter_map(|r| files.location(r.range))
        .collect()
}

pub fn highlights(doc: &Doc, hs: &[Highlight]) -> Vec<lsp::DocumentHighlight> {
    hs.iter()
        .map(|h| lsp::DocumentHighlight {
            range: range(&doc.lines, h.range),
            kind: Some(match h.kind {
                HighlightKind::Read => lsp::DocumentHighlightKind::READ,
                HighlightKind::Write => lsp::DocumentHighlightKind::WRITE,
                HighlightKind::Text => lsp::DocumentHighlightKind::TEXT,
            }),
        })
        .collect()
}

pub fn inlay_hints(doc: &Doc, hs: &[InlayHint]) -> Vec<lsp::InlayHint> {
    hs.iter()
        .map(|h| lsp::InlayHint {
            position: position(&doc.lines, h.offset),
            label: lsp::InlayHintLabel::String(h.label.clone()),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        })
        .collect()
}

// ------------------------------------------------------------- pointee/graph

/// Where a `pointee/graph` request starts.
pub enum GraphStart {
    /// The function (or Java variables) at a position.
    At(lsp::Position),
    /// A node id from an earlier answer.
    Node(String),
    /// Neither: the file's own functions.
    File,
}

/// A `pointee/graph` request (docs/lsp.md): the document, the graph kind,
/// where it starts, the depth (1 when not given) and the node limit (200).
pub struct GraphParams {
    pub name: String,
    pub kind: GraphKind,
    pub start: GraphStart,
    pub depth: u32,
    pub max_nodes: usize,
}

pub fn graph_request(v: &serde_json::Value) -> Option<GraphParams> {
    let uri: lsp::Uri = v.get("textDocument")?.get("uri")?.as_str()?.parse().ok()?;
    let kind = match v.get("kind")?.as_str()? {
        "call" => GraphKind::Calls,
        "invocation" => GraphKind::Invocations,
        "pointerFlow" => GraphKind::PointerFlow,
        _ => return None,
    };
    let start = match (v.get("root").and_then(|r| r.as_str()), v.get("position")) {
        (Some(root), _) => GraphStart::Node(root.to_string()),
        (None, None | Some(serde_json::Value::Null)) => GraphStart::File,
        (None, Some(p)) => GraphStart::At(serde_json::from_value(p.clone()).ok()?),
    };
    let number = |key: &str, default: u64| match v.get(key) {
        None | Some(serde_json::Value::Null) => Some(default),
        Some(n) => n.as_u64(),
    };
    Some(GraphParams {
        name: uri_to_name(&uri),
        kind,
        start,
        depth: number("depth", 1)?.min(u32::MAX as u64) as u32,
        max_nodes: number("maxNodes", 200)? as usize,
    })
}

/// A graph as the answer of `pointee/graph`: the kind, the roots' ids,
/// nodes (`id`, `label`, `kind`, `flags`, `more`, `location` to open) and
/// one edge per (from, to, kind, call site), with the site's `location`.
pub fn graph(files: &Files, kind: GraphKind, g: &Graph) -> serde_json::Value {
    let kind = match kind {
        GraphKind::Calls => "call",
        GraphKind::Invocations => "invocation",
        GraphKind::PointerFlow => "pointerFlow",
    };
    let nodes: Vec<serde_json::Value> = g
        .nodes
        .iter()
        .map(|n| {
            let mut node = serde_json::json!({
                "id": n.id,
                "label": n.label,
                "kind": format!("{:?}", n.kind).to_lowercase(),
                "flags": n.tags,
                "more": n.more,
            });
            if let Some(location) = n.at.and_then(|r| files.location(r)) {
                node["location"] = serde_json::json!(location);
            }
            node
        })
        .collect();
    let mut edges: Vec<serde_json::Value> = Vec::new();
    for e in &g.edges {
        let (from, to) = (&g.nodes[e.from].id, &g.nodes[e.to].id);
        let kind = format!("{:?}", e.kind).to_lowercase();
        let locations: Vec<lsp::Location> =
            e.at.iter().filter_map(|&r| files.location(r)).collect();
        if locations.is_empty() {
            edges.push(serde_json::json!({ "from": from, "to": to, "kind": kind }));
        }
        for location in locations {
            edges.push(
                serde_json::json!({ "from": from, "to": to, "kind": kind, "location": location }),
            );
        }
    }
    let roots: Vec<&str> = g.roots.iter().map(|&r| g.nodes[r].id.as_str()).collect();
    serde_json::json!({ "kind": kind, "roots": roots, "nodes": nodes, "edges": edges })
}

// ------------------------------------------------------------- witness inputs

/// The 1-based line a range starts on.
pub fn line_of(files: &Files, r: FileRange) -> Option<u32> {
    Some(files.doc(r.file)?.lines.line_col_chars(r.range.start).0 as u32 + 1)
}

/// `file.c:34`, linked to where the range starts.
fn line_md(files: &Files, r: FileRange) -> String {
    let path = files.analysis.file_path(r.file);
    let short = path.rsplit('/').next().unwrap_or(path);
    let line = line_of(files, r).unwrap_or(0);
    match files.link(r) {
        Some(url) => format!("[{short}:{line}]({url})"),
        None => format!("{short}:{line}"),
    }
}

/// A witness search's answer as a Markdown document: the input (arguments
/// and objects), the path, whether a run surely takes it, the figures.
pub fn witness_report(files: &Files, a: &WitnessAnswer) -> String {
    let mut md = format!(
        "# Witness input: `{}` in `{}`, {}\n\nThe dereference of `{}` {}",
        a.pointer,
        a.function,
        line_md(files, a.stmt),
        a.pointer,
        a.verdict()
    );
    match &a.outcome {
        Outcome::Found(w, _) => {
            md.push_str(if a.java.is_some() {
                ":\n\n```text\n"
            } else {
                ":\n\n```c\n"
            });
            for line in w.input_lines() {
                md.push_str(&line);
                md.push('\n');
            }
            md.push_str("```\n");
            if !a.path.is_empty() {
                md.push_str("\nThe path:\n\n");
            }
            for step in &a.path {
                let at = match step.after {
                    Some(r) => format!("after {}", line_md(files, r)),
                    None => format!("at the start of `{}`", step.function),
                };
                md.push_str(&format!("- {at}: {}\n", step.decision.describe()));
            }
            match w.unconfirmed_note() {
                Some(why) => md.push_str(&format!(
                    "\n**Not confirmed**: {why}; a run of the input may take another path.\n"
                )),
                None => md.push_str(
                    "\n**Confirmed**: a run of this input faults there. The code action \
                     \"Write the test that triggers this\" writes a C program that builds it.\n",
                ),
            }
        }
        _ => md.push_str(".\n"),
    }
    if let Some(s) = a.stats() {
        md.push_str(&format!("\nExplored: {}.\n", s.describe()));
    }
    md
}

/// A diagnostic's witness (its related locations, in order) as a Markdown
/// document.
pub fn related_report(files: &Files, d: &Diagnostic) -> String {
    let mut md = format!(
        "# `{}` at {}\n\n{}\n\nThe witness:\n\n",
        d.code,
        line_md(files, d.range),
        d.message
    );
    for (i, r) in d.related.iter().enumerate() {
        md.push_str(&format!(
            "{}. {}: {}\n",
            i + 1,
            line_md(files, r.range),
            r.message
        ));
    }
    if d.related.is_empty() {
        md.push_str("(none: the diagnostic carries no related location)\n");
    }
    md
}
