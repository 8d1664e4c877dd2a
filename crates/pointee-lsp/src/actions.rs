//! Code actions on the checkers' warnings and the commands behind them
//! (`docs/lsp.md`, "Code actions"): "Find an input that triggers this"
//! (`pointee.findInput`) asks pointee-ide for a witness input of the
//! dereference, "Write the test that triggers this" creates the C test of
//! a found input, "Show the witness" (`pointee.showWitness`) lists a
//! diagnostic's related locations. This module is the LSP side only: which
//! diagnostic gets which action, the arguments, the witnesses found so far
//! (to mark warnings confirmed), the edit that creates a test file, and
//! where reports are written. The searches run in the server's handlers,
//! off the request loop, on pointee-ide.

use crate::convert;
use pointee_ide::Fault;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tower_lsp_server::ls_types as lsp;

pub const FIND_INPUT: &str = "pointee.findInput";
pub const WRITE_TEST: &str = "pointee.writeWitnessTest";
pub const SHOW_WITNESS: &str = "pointee.showWitness";
/// The commands the server executes (`executeCommandProvider`).
pub const COMMANDS: [&str; 3] = [FIND_INPUT, WRITE_TEST, SHOW_WITNESS];

/// Whether a witness's fault confirms a warning of the checkers' `code`.
fn confirms(code: &str, fault: Fault) -> bool {
    matches!(
        (code, fault),
        ("null-deref", Fault::Null)
            | ("use-after-free", Fault::UseAfterFree)
            | ("dangling-stack", Fault::Dangling)
    )
}

/// The checkers' codes "Find an input that triggers this" is offered on.
const SEARCHED: [&str; 3] = ["null-deref", "use-after-free", "dangling-stack"];

/// A C test program and where it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestFile {
    pub path: String,
    pub text: String,
}

/// A witness input found for a dereference. It holds while its file keeps
/// the text it was found on.
#[derive(Clone, Debug)]
pub struct Found {
    pub file: String,
    pub text: Arc<str>,
    /// The dereferencing statement.
    pub stmt: lsp::Range,
    pub fault: Fault,
    /// A run of the input surely takes the path (no branch assumed).
    pub confirmed: bool,
    /// The report shown to the user.
    pub report: Option<lsp::Uri>,
    pub test: TestFile,
}

/// The witness inputs the commands found, by file and statement.
#[derive(Default)]
pub struct Witnesses(Mutex<Vec<Found>>);

impl Witnesses {
    fn list(&self) -> std::sync::MutexGuard<'_, Vec<Found>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn insert(&self, f: Found) {
        let mut list = self.list();
        list.retain(|g| !(g.file == f.file && g.stmt == f.stmt));
        list.push(f);
    }

    /// The witness that confirms a diagnostic of `file` (whose text is now
    /// `text`): its fault matches the code and its statement holds the
    /// diagnostic's range.
    pub fn for_diagnostic(
        &self,
        file: &str,
        text: &Arc<str>,
        d: &lsp::Diagnostic,
    ) -> Option<Found> {
        let code = code_of(d)?;
        self.list()
            .iter()
            .find(|f| {
                f.file == file
                    && Arc::ptr_eq(&f.text, text)
                    && inside(d.range, f.stmt)
                    && confirms(code, f.fault)
            })
            .cloned()
    }

    /// The witness found for the statement around `pos` of `file`.
    pub fn at(&self, file: &str, text: &Arc<str>, pos: lsp::Position) -> Option<Found> {
        self.list()
            .iter()
            .find(|f| {
                f.file == file
                    && Arc::ptr_eq(&f.text, text)
                    && f.stmt.start <= pos
                    && pos <= f.stmt.end
            })
            .cloned()
    }

    /// Drops the witnesses whose file changed (`current` says a file's
    /// text now).
    pub fn retain_current(&self, current: impl Fn(&str) -> Option<Arc<str>>) {
        self.list()
            .retain(|f| current(&f.file).is_some_and(|t| Arc::ptr_eq(&t, &f.text)));
    }
}

fn inside(r: lsp::Range, outer: lsp::Range) -> bool {
    outer.start <= r.start && r.end <= outer.end
}

fn code_of(d: &lsp::Diagnostic) -> Option<&str> {
    if d.source.as_deref() != Some("pointee") {
        return None;
    }
    match &d.code {
        Some(lsp::NumberOrString::String(c)) => Some(c),
        _ => None,
    }
}

/// Marks a published diagnostic that a witness input confirms: its
/// message says so, `data.witness` is `confirmed` (or `unconfirmed` when
/// the path assumed branches pointee does not model), and the report is
/// one more related location.
pub fn mark(d: &mut lsp::Diagnostic, f: &Found) {
    let (what, tag) = if f.confirmed {
        ("confirmed: input found", "confirmed")
    } else {
        ("input found, not confirmed", "unconfirmed")
    };
    d.message = format!("{} ({what})", d.message);
    d.data = Some(json!({
        "witness": tag,
        "report": f.report.as_ref().map(|u| u.as_str()),
        "test": f.test.path,
    }));
    if let Some(uri) = &f.report {
        d.related_information.get_or_insert_with(Vec::new).push(
            lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(uri.clone(), lsp::Range::default()),
                message: format!("{what}: the input that triggers it"),
            },
        );
    }
}

/// The code actions on the diagnostics the client sends: "Find an input
/// that triggers this" on a NULL dereference, use after free or dangling
/// stack pointer, "Write
/// the test that triggers this" once an input was found (`found`), "Show
/// the witness" on any diagnostic with related locations. The test is
/// created by a workspace edit when the client can create files
/// (`create`), else by the command.
pub fn code_actions(
    uri: &lsp::Uri,
    diagnostics: &[lsp::Diagnostic],
    found: impl Fn(&lsp::Diagnostic) -> Option<Found>,
    create: bool,
) -> Vec<lsp::CodeActionOrCommand> {
    let mut out = Vec::new();
    let action = |d: &lsp::Diagnostic, title: String, command: &str, arg: Value| {
        lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title: title.clone(),
            kind: Some(lsp::CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d.clone()]),
            command: Some(lsp::Command {
                title,
                command: command.into(),
                arguments: Some(vec![arg]),
            }),
            ..Default::default()
        })
    };
    for d in diagnostics {
        let Some(code) = code_of(d) else { continue };
        let at = json!({"uri": uri.as_str(), "position": d.range.start});
        if SEARCHED.contains(&code) {
            out.push(action(
                d,
                "Find an input that triggers this".into(),
                FIND_INPUT,
                at.clone(),
            ));
            if let Some(f) = found(d) {
                let title = format!(
                    "Write the test that triggers this ({})",
                    file_name(&f.test.path)
                );
                match create_edit(&f.test).filter(|_| create) {
                    Some(edit) => out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                        title,
                        kind: Some(lsp::CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![d.clone()]),
                        edit: Some(edit),
                        ..Default::default()
                    })),
                    None => out.push(action(d, title, WRITE_TEST, at)),
                }
            }
        }
        let related = d.related_information.as_ref().map_or(0, Vec::len);
        if related > 0 {
            out.push(action(
                d,
                format!(
                    "Show the witness ({related} location{})",
                    if related == 1 { "" } else { "s" }
                ),
                SHOW_WITNESS,
                json!({"uri": uri.as_str(), "range": d.range, "code": code}),
            ));
        }
    }
    out
}

/// The edit that creates (or overwrites) a test file with its text.
pub fn create_edit(test: &TestFile) -> Option<lsp::WorkspaceEdit> {
    let uri = convert::name_to_uri(&test.path)?;
    Some(lsp::WorkspaceEdit {
        document_changes: Some(lsp::DocumentChanges::Operations(vec![
            lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Create(lsp::CreateFile {
                uri: uri.clone(),
                options: Some(lsp::CreateFileOptions {
                    overwrite: Some(true),
                    ignore_if_exists: None,
                }),
                annotation_id: None,
            })),
            lsp::DocumentChangeOperation::Edit(lsp::TextDocumentEdit {
                text_document: lsp::OptionalVersionedTextDocumentIdentifier { uri, version: None },
                edits: vec![lsp::OneOf::Left(lsp::TextEdit {
                    range: lsp::Range::default(),
                    new_text: test.text.clone(),
                })],
            }),
        ])),
        ..Default::default()
    })
}

/// Whether a client's capabilities let a workspace edit create a file.
pub fn can_create_files(caps: &lsp::ClientCapabilities) -> bool {
    caps.workspace
        .as_ref()
        .and_then(|w| w.workspace_edit.as_ref())
        .is_some_and(|e| {
            e.document_changes == Some(true)
                && e.resource_operations
                    .as_ref()
                    .is_some_and(|ops| ops.contains(&lsp::ResourceOperationKind::Create))
        })
}

/// `{uri, position}`, the argument of `pointee.findInput` and
/// `pointee.writeWitnessTest`: the document's name and the position.
pub fn position_arg(args: &[Value]) -> Option<(String, lsp::Position)> {
    let a = args.first()?;
    let uri: lsp::Uri = a.get("uri")?.as_str()?.parse().ok()?;
    let pos = serde_json::from_value(a.get("position")?.clone()).ok()?;
    Some((convert::uri_to_name(&uri), pos))
}

/// `{uri, range, code}`, the argument of `pointee.showWitness`.
pub fn diagnostic_arg(args: &[Value]) -> Option<(String, lsp::Range, String)> {
    let a = args.first()?;
    let uri: lsp::Uri = a.get("uri")?.as_str()?.parse().ok()?;
    let range = serde_json::from_value(a.get("range")?.clone()).ok()?;
    Some((
        convert::uri_to_name(&uri),
        range,
        a.get("code")?.as_str()?.into(),
    ))
}

/// The last part of a path: what an emitted test includes its source by
/// (the test sits beside it).
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Where the test of a witness for line `line` of `source` goes: beside
/// it, `list_witness_34.c`, so that it includes the source by its name;
/// for Java the class `ListWitness34` in `ListWitness34.java`, compiled
/// with the source.
pub fn test_path(source: &str, line: u32) -> String {
    let p = Path::new(source);
    let name = match p.extension() {
        Some(e) if e == "java" => format!("{}.java", test_class(source, line)),
        _ => {
            let stem = p.file_stem().map_or("test".into(), |s| s.to_string_lossy());
            format!("{stem}_witness_{line}.c")
        }
    };
    p.with_file_name(name).to_string_lossy().into_owned()
}

/// The Java test class for a witness at line `line` of `source`.
pub fn test_class(source: &str, line: u32) -> String {
    let stem = Path::new(source)
        .file_stem()
        .map_or("Test".into(), |s| s.to_string_lossy());
    let stem: String = stem
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    format!("{stem}Witness{line}")
}

/// "Find an input that makes this throw" at a position of a Java document
/// whose line reads through a reference (`x.f`, `x.m()`), when no
/// warning's action there searches already: Java dereferences are
/// searched with or without a warning. Decided from the text alone, so
/// the lightbulb stays quick; a position with no dereference gets the
/// command's "no dereference here".
pub fn java_dereference_action(
    uri: &lsp::Uri,
    text: &str,
    pos: lsp::Position,
    offered: &[lsp::CodeActionOrCommand],
) -> Option<lsp::CodeActionOrCommand> {
    if !uri.as_str().ends_with(".java") {
        return None;
    }
    let searched = offered.iter().any(|a| match a {
        lsp::CodeActionOrCommand::CodeAction(a) => {
            a.command.as_ref().is_some_and(|c| c.command == FIND_INPUT)
        }
        lsp::CodeActionOrCommand::Command(c) => c.command == FIND_INPUT,
    });
    let line = text.lines().nth(pos.line as usize)?;
    let code = line.split("//").next().unwrap_or(line);
    let reads = code
        .as_bytes()
        .windows(2)
        .any(|w| (w[0].is_ascii_alphanumeric() || w[0] == b'_' || w[0] == b')') && w[1] == b'.');
    if searched || !reads {
        return None;
    }
    let title = "Find an input that makes a dereference here throw".to_string();
    Some(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
        title: title.clone(),
        kind: Some(lsp::CodeActionKind::QUICKFIX),
        command: Some(lsp::Command {
            title,
            command: FIND_INPUT.into(),
            arguments: Some(vec![json!({"uri": uri.as_str(), "position": pos})]),
        }),
        ..Default::default()
    }))
}

/// Where a report about line `line` of `source` is written: the system's
/// temporary folder, one folder per server process, never the workspace.
pub fn report_path(source: &str, line: u32, what: &str) -> PathBuf {
    let stem = Path::new(source)
        .file_stem()
        .map_or("file".into(), |s| s.to_string_lossy());
    report_dir().join(format!("{stem}-{line}-{what}.md"))
}

/// The folder of this server's reports.
pub fn report_dir() -> PathBuf {
    std::env::temp_dir().join(format!("pointee-{}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostic(code: &str, related: usize) -> lsp::Diagnostic {
        let at = lsp::Location::new("file:///w/a.c".parse().unwrap(), lsp::Range::default());
        lsp::Diagnostic {
            code: Some(lsp::NumberOrString::String(code.into())),
            source: Some("pointee".into()),
            related_information: (related > 0).then(|| {
                vec![
                    lsp::DiagnosticRelatedInformation {
                        location: at,
                        message: "why".into(),
                    };
                    related
                ]
            }),
            ..Default::default()
        }
    }

    /// Searches are offered on the warnings a witness can confirm, "Show
    /// the witness" on any diagnostic with related locations.
    #[test]
    fn which_diagnostics_get_which_actions() {
        let uri: lsp::Uri = "file:///w/a.c".parse().unwrap();
        let titles = |d: lsp::Diagnostic| -> Vec<String> {
            code_actions(&uri, &[d], |_| None, true)
                .into_iter()
                .map(|a| match a {
                    lsp::CodeActionOrCommand::CodeAction(a) => a.title,
                    lsp::CodeActionOrCommand::Command(c) => c.title,
                })
                .collect()
        };
        for code in ["null-deref", "use-after-free", "dangling-stack"] {
            assert_eq!(
                titles(diagnostic(code, 0)),
                ["Find an input that triggers this"]
            );
        }
        assert_eq!(
            titles(diagnostic("double-free", 2)),
            ["Show the witness (2 locations)"]
        );
        assert!(titles(diagnostic("alias-check", 0)).is_empty());
        let mut other = diagnostic("null-deref", 1);
        other.source = Some("clangd".into());
        assert!(titles(other).is_empty());
        assert!(confirms("dangling-stack", Fault::Dangling));
        assert!(!confirms("null-deref", Fault::UseAfterFree));
    }

    #[test]
    fn test_and_report_paths_sit_beside_the_source_and_in_the_temporary_folder() {
        assert_eq!(test_path("/w/src/list.c", 34), "/w/src/list_witness_34.c");
        // Java: a class named after the source, beside it.
        assert_eq!(
            test_path("/w/src/List.java", 34),
            "/w/src/ListWitness34.java"
        );
        assert_eq!(test_class("/w/src/my-list.java", 7), "mylistWitness7");
        assert_eq!(file_name("/w/src/list.c"), "list.c");
        let r = report_path("/w/src/list.c", 34, "input");
        assert!(r.starts_with(std::env::temp_dir()), "{}", r.display());
        assert!(r.ends_with("list-34-input.md"), "{}", r.display());
    }
}
