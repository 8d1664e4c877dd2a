//! The one place that converts between LSP types and pointee's plain data:
//! URIs and file names, UTF-16 positions and byte offsets (through
//! `pointee_ir::LineIndex`), and pointee-ide's answers into LSP results.

use crate::analysis::{Alias, CallItem, CallLink, Diag, DiagKind, Highlight, Hint, PlainLoc};
use crate::docs::{Doc, Snapshot};
use pointee_db::Lang;
use pointee_ide::{Hover as IdeHover, Target, TargetKind};
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

/// The byte offset of pointee-ide's 1-based (line, character column).
fn ide_offset(doc: &Doc, line: u32, column: u32) -> Option<u32> {
    doc.lines.offset_chars(
        line.saturating_sub(1) as usize,
        column.saturating_sub(1) as usize,
    )
}

/// pointee-ide's 1-based (line, character column) of an LSP position.
pub fn ide_position(doc: &Doc, pos: lsp::Position) -> (u32, u32) {
    let off = offset(&doc.lines, &doc.text, pos);
    let (l, c) = doc.lines.line_col_chars(off);
    (l as u32 + 1, c as u32 + 1)
}

pub fn ide_location(snap: &Snapshot, l: &pointee_ide::Location) -> Option<lsp::Location> {
    let doc = snap.doc(&l.file)?;
    let off = ide_offset(doc, l.line, l.column)?;
    Some(lsp::Location::new(
        name_to_uri(&l.file)?,
        lsp::Range::new(position(&doc.lines, off), position(&doc.lines, off)),
    ))
}

pub fn ide_span(doc: &Doc, s: &pointee_ide::Span) -> Option<lsp::Range> {
    let a = ide_offset(doc, s.line, s.column)?;
    let b = ide_offset(doc, s.end_line, s.end_column)?;
    Some(lsp::Range::new(
        position(&doc.lines, a),
        position(&doc.lines, b),
    ))
}

pub fn plain_location(snap: &Snapshot, l: &PlainLoc) -> Option<lsp::Location> {
    let doc = snap.doc(&l.file)?;
    Some(lsp::Location::new(
        name_to_uri(&l.file)?,
        range(&doc.lines, l.range),
    ))
}

// ------------------------------------------------------------- answers

fn link(snap: &Snapshot, l: &pointee_ide::Location) -> Option<String> {
    let _ = snap.doc(&l.file)?;
    let uri = name_to_uri(&l.file)?;
    Some(format!("{}#L{},{}", uri.as_str(), l.line, l.column))
}

fn target_md(snap: &Snapshot, t: &Target) -> String {
    let mut s = match t.decl.as_ref().and_then(|d| link(snap, d)) {
        Some(url) => format!("[`{}`]({url})", t.name),
        None => format!("`{}`", t.name),
    };
    s.push_str(&format!(" *{}*", t.kind.as_str()));
    if let Some(h) = &t.heap_context {
        s.push_str(&format!(" in `{h}`"));
    }
    s
}

fn targets_line(snap: &Snapshot, ts: &[Target]) -> String {
    if ts.is_empty() {
        return "nothing".into();
    }
    ts.iter()
        .map(|t| {
            let mut s = target_md(snap, t);
            if t.definite {
                s.push_str(" (definite)");
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A hover in Markdown: definite and possible targets apart (each a link to
/// its declaration or allocation site), the functions a function pointer may
/// call, and the breakdown per context when contexts disagree.
pub fn hover(snap: &Snapshot, h: &IdeHover, java: bool) -> lsp::Hover {
    let mut md = format!("**`{}`**", h.expr);
    if !h.reachable {
        md.push_str(" is not reached by any analysed call of its function.\n");
    } else {
        md.push_str(" points to:\n\n");
        let definite: Vec<&Target> = h.targets.iter().filter(|t| t.definite).collect();
        let possible: Vec<&Target> = h.targets.iter().filter(|t| !t.definite).collect();
        if !definite.is_empty() {
            md.push_str("- definitely: ");
            md.push_str(
                &definite
                    .iter()
                    .map(|t| target_md(snap, t))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            md.push('\n');
        }
        if !possible.is_empty() {
            md.push_str(if java { "- objects: " } else { "- possibly: " });
            md.push_str(
                &possible
                    .iter()
                    .map(|t| target_md(snap, t))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            md.push('\n');
        }
        if h.targets.is_empty() {
            md.push_str("- nothing\n");
        }
        let fns: Vec<&Target> = h
            .targets
            .iter()
            .filter(|t| t.kind == TargetKind::Function)
            .collect();
        if !fns.is_empty() {
            md.push_str("\nMay call: ");
            md.push_str(
                &fns.iter()
                    .map(|t| target_md(snap, t))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            md.push('\n');
        }
        let disagree = h.contexts.windows(2).any(|w| w[0].targets != w[1].targets);
        if disagree {
            md.push_str("\nPer calling context:\n\n");
            for c in &h.contexts {
                md.push_str(&format!(
                    "- `{}`: {}\n",
                    c.chain.join(" > "),
                    targets_line(snap, &c.targets)
                ));
            }
        }
        if h.merged {
            md.push_str("\n*Contexts were merged by the context bound.*\n");
        }
        if h.extra_entry {
            md.push_str(
                "\n*Reached only from an extra entry (not from `main`): inputs unknown.*\n",
            );
        }
    }
    let doc = snap.doc(&h.span.file);
    lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: md,
        }),
        range: doc.and_then(|d| ide_span(d, &h.span)),
    }
}

pub fn callees(snap: &Snapshot, cs: &[pointee_ide::Callee]) -> Vec<lsp::Location> {
    cs.iter()
        .filter_map(|c| c.decl.as_ref())
        .filter_map(|d| ide_location(snap, d))
        .collect()
}

pub fn diagnostic(doc: &Doc, d: &Diag) -> lsp::Diagnostic {
    let severity = match d.kind {
        DiagKind::Error => lsp::DiagnosticSeverity::ERROR,
        DiagKind::Warning => lsp::DiagnosticSeverity::WARNING,
        DiagKind::Info => lsp::DiagnosticSeverity::INFORMATION,
        DiagKind::Hint => lsp::DiagnosticSeverity::HINT,
    };
    lsp::Diagnostic {
        range: range(&doc.lines, d.range),
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.code.clone())),
        source: Some("pointee".into()),
        message: d.message.clone(),
        ..Default::default()
    }
}

pub fn ide_diagnostic(doc: &Doc, d: &pointee_ide::Diagnostic) -> Option<lsp::Diagnostic> {
    let severity = match d.severity {
        pointee_ide::Severity::Error => lsp::DiagnosticSeverity::ERROR,
        pointee_ide::Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        pointee_ide::Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        pointee_ide::Severity::Hint => lsp::DiagnosticSeverity::HINT,
    };
    Some(lsp::Diagnostic {
        range: ide_span(doc, &d.span)?,
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.code.clone())),
        source: Some("pointee".into()),
        message: d.message.clone(),
        ..Default::default()
    })
}

pub fn call_item(snap: &Snapshot, item: &CallItem) -> Option<lsp::CallHierarchyItem> {
    let doc = snap.doc(&item.file)?;
    Some(lsp::CallHierarchyItem {
        name: item.name.clone(),
        kind: lsp::SymbolKind::FUNCTION,
        tags: None,
        detail: Some(
            item.file
                .rsplit('/')
                .next()
                .unwrap_or(&item.file)
                .to_string(),
        ),
        uri: name_to_uri(&item.file)?,
        range: range(&doc.lines, item.range),
        selection_range: range(&doc.lines, item.name_range),
        data: Some(serde_json::json!({
            "lang": match item.lang { Lang::C => "c", Lang::Java => "java" },
            "function": item.name,
        })),
    })
}

/// The language and function an item stands for (kept in `data`; otherwise
/// its name, in the language of its file).
pub fn call_item_function(item: &lsp::CallHierarchyItem) -> Option<(Lang, String)> {
    let data = item.data.as_ref();
    let lang = match data.and_then(|d| d.get("lang")).and_then(|l| l.as_str()) {
        Some("c") => Lang::C,
        Some("java") => Lang::Java,
        _ => Lang::of_path(&uri_to_name(&item.uri))?,
    };
    let name = data
        .and_then(|d| d.get("function"))
        .and_then(|f| f.as_str())
        .map(str::to_string)
        .unwrap_or_else(|| item.name.clone());
    Some((lang, name))
}

pub fn incoming(snap: &Snapshot, links: &[CallLink]) -> Vec<lsp::CallHierarchyIncomingCall> {
    links
        .iter()
        .filter_map(|l| {
            let doc = snap.doc(&l.item.file)?;
            Some(lsp::CallHierarchyIncomingCall {
                from: call_item(snap, &l.item)?,
                from_ranges: l.ranges.iter().map(|r| range(&doc.lines, *r)).collect(),
            })
        })
        .collect()
}

/// Outgoing calls: the ranges are in the caller's file.
pub fn outgoing(
    snap: &Snapshot,
    caller_file: &str,
    links: &[CallLink],
) -> Vec<lsp::CallHierarchyOutgoingCall> {
    let Some(doc) = snap.doc(caller_file) else {
        return Vec::new();
    };
    links
        .iter()
        .filter_map(|l| {
            Some(lsp::CallHierarchyOutgoingCall {
                to: call_item(snap, &l.item)?,
                from_ranges: l.ranges.iter().map(|r| range(&doc.lines, *r)).collect(),
            })
        })
        .collect()
}

pub fn highlights(doc: &Doc, hs: &[Highlight]) -> Vec<lsp::DocumentHighlight> {
    hs.iter()
        .map(|h| lsp::DocumentHighlight {
            range: range(&doc.lines, h.range),
            kind: Some(match h.alias {
                Alias::MustRead => lsp::DocumentHighlightKind::READ,
                Alias::MustWrite => lsp::DocumentHighlightKind::WRITE,
                Alias::May => lsp::DocumentHighlightKind::TEXT,
            }),
        })
        .collect()
}

pub fn inlay_hints(doc: &Doc, hs: &[Hint]) -> Vec<lsp::InlayHint> {
    hs.iter()
        .map(|h| lsp::InlayHint {
            position: position(&doc.lines, h.at),
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
