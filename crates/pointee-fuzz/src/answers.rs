//! Every answer of a workspace, written out so two analyses can be compared:
//! hover, callees and go-to-definition at every token that may start an
//! expression, highlights and the call hierarchy at every name, inlay
//! hints, diagnostics of every file, alias checks, program errors, the dump
//! (facts after every statement) and the graphs. File ids are replaced by
//! paths, so answers of two hosts compare.

use pointee_ide::{
    Analysis, Cancelled, FileId, FilePosition, FileRange, GraphKind, GraphRequest, Lang,
};
use pointee_ide::{DiagnosticsConfig, DumpConfig, Range};
use std::collections::BTreeMap;

/// The answers of a workspace, one line each, grouped by question.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Answers {
    pub lines: Vec<String>,
}

impl Answers {
    /// The first line where `self` and `other` differ, with both sides.
    pub fn first_difference(&self, other: &Answers) -> Option<String> {
        let n = self.lines.len().max(other.lines.len());
        (0..n).find_map(|i| {
            let (a, b) = (self.lines.get(i), other.lines.get(i));
            (a != b).then(|| format!("line {i}:\n  incremental: {a:?}\n  fresh:       {b:?}"))
        })
    }
}

/// How many positions of a file are asked (all, or every k-th: a long
/// run's dial between breadth and speed).
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// Ask at every `stride`-th candidate position.
    pub stride: usize,
}

impl Default for Probe {
    fn default() -> Self {
        Probe { stride: 1 }
    }
}

/// Positions where an expression, a call or a name may start: identifier
/// starts and the operators `*`, `&`, `(`.
fn candidate_offsets(text: &str) -> Vec<u32> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut prev_word = false;
    for (i, &c) in b.iter().enumerate() {
        let word = c.is_ascii_alphanumeric() || c == b'_';
        if (word && !prev_word && !c.is_ascii_digit()) || matches!(c, b'*' | b'&' | b'(') {
            out.push(i as u32);
        }
        prev_word = word;
    }
    out
}

/// Every answer of the analysis `a` (a snapshot nobody writes to while it
/// answers).
pub fn answers(a: &Analysis, probe: Probe) -> Result<Answers, Cancelled> {
    let paths: BTreeMap<String, String> = a
        .files()
        .map(|(p, f)| (format!("{f:?}"), p.to_string()))
        .collect();
    // Longest first, so `Id(1)` never replaces inside `Id(12)`.
    let mut keys: Vec<(&String, &String)> = paths.iter().collect();
    keys.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    let norm = |s: String| -> String {
        let mut s = s;
        for (k, p) in &keys {
            if s.contains(k.as_str()) {
                s = s.replace(k.as_str(), p);
            }
        }
        s
    };
    let mut lines = Vec::new();
    let mut put = |what: &str, s: String| lines.push(format!("{what}: {}", norm(s)));
    let files: Vec<(String, FileId)> = a.files().map(|(p, f)| (p.to_string(), f)).collect();
    let langs: Vec<Lang> = [Lang::C, Lang::Java]
        .into_iter()
        .filter(|l| files.iter().any(|(_, f)| a.lang(*f) == Some(*l)))
        .collect();
    for &lang in &langs {
        put(
            "program error",
            format!("{lang:?} {:?}", a.program_error(lang)?),
        );
        put(
            "check",
            format!("{lang:?} {:?}", without_locations(a.check(lang)?)),
        );
        put(
            "dump",
            format!("{lang:?} {:?}", a.dump(lang, &DumpConfig::default())?),
        );
    }
    for (path, file) in &files {
        let text = a.file_text(*file);
        put(
            "diagnostics",
            format!(
                "{path} {:?}",
                a.diagnostics(*file, &DiagnosticsConfig::default())?
            ),
        );
        let whole = FileRange {
            file: *file,
            range: Range::new(0, text.len()),
        };
        put("inlay hints", format!("{path} {:?}", a.inlay_hints(whole)?));
        for kind in [
            GraphKind::Calls,
            GraphKind::Invocations,
            GraphKind::PointerFlow,
        ] {
            let g = a.graph(&GraphRequest::program(*file, kind))?;
            put("graph", format!("{path} {kind:?} {g:?}"));
        }
        for (k, offset) in candidate_offsets(&text).into_iter().enumerate() {
            if k % probe.stride != 0 {
                continue;
            }
            let pos = FilePosition {
                file: *file,
                offset,
            };
            let at = format!("{path}@{offset}");
            put("hover", format!("{at} {:?}", a.hover(pos)?));
            put("callees", format!("{at} {:?}", a.callees(pos)?));
            put("definition", format!("{at} {:?}", a.goto_definition(pos)?));
            if text.as_bytes()[offset as usize].is_ascii_alphabetic() {
                put("highlights", format!("{at} {:?}", a.highlights(pos)?));
                for item in a.call_hierarchy(pos)? {
                    put(
                        "incoming",
                        format!("{at} {:?}", a.incoming_calls(item.file, &item.name)?),
                    );
                    put(
                        "outgoing",
                        format!("{at} {:?}", a.outgoing_calls(item.file, &item.name)?),
                    );
                    put("call item", format!("{at} {item:?}"));
                }
            }
        }
    }
    Ok(Answers { lines })
}

/// The figures without the count of abstract locations the engine holds
/// (a run that reuses the previous one's units may hold more; nothing
/// users see depends on it).
fn without_locations(mut r: pointee_ide::CheckReport) -> pointee_ide::CheckReport {
    r.stats.retain(|(name, _)| name != "locations");
    r
}
