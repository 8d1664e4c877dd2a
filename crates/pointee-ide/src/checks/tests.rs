//! The checkers' cache, proved from salsa's own execution events: after
//! each edit, which functions' findings were computed again; and the
//! answers after edits equal a fresh host's on the same text.

use super::cache::CheckedFunction;
use crate::{AnalysisHost, Change, Config, Diagnostic, DiagnosticsConfig, Severity};
use pointee_db::salsa::plumbing::AsId;
use pointee_db::salsa::{Database as _, DatabaseKeyIndex, EventKind};
use pointee_db::Database;
use std::sync::{Arc, Mutex};

const PROGRAM: &str = "\
#include <stdlib.h>
int *make(void) {
    return malloc(sizeof(int));
}
void bad(void) {
    int *p = 0;
    *p = 1;
}
int other(int x) {
    return x + 1;
}
int main(void) {
    int *q = make();
    *q = 2;
    bad();
    return other(1);
}
";

const FUNCTIONS: &[&str] = &["bad", "main", "make", "other"];

struct Harness {
    host: AnalysisHost,
    log: Arc<Mutex<Vec<DatabaseKeyIndex>>>,
    text: String,
}

impl Harness {
    fn new() -> Harness {
        let log: Arc<Mutex<Vec<DatabaseKeyIndex>>> = Arc::default();
        let sink = log.clone();
        let db = Database::with_events(move |e| {
            if let EventKind::WillExecute { database_key } = e.kind {
                sink.lock().unwrap().push(database_key);
            }
        });
        let mut host = AnalysisHost::new(db);
        host.apply_change(Change::of_files([("m.c", PROGRAM)], Config::default()));
        Harness {
            host,
            log,
            text: PROGRAM.to_string(),
        }
    }

    fn edit(&mut self, from: &str, to: &str) {
        let text = self.text.replacen(from, to, 1);
        assert_ne!(text, self.text, "the edit `{from}` -> `{to}` applies");
        self.text = text;
        let mut change = Change::new();
        change.set_file("m.c", self.text.as_str());
        self.host.apply_change(change);
    }

    /// The file's diagnostics, and the functions whose findings were
    /// computed for them (sorted).
    fn diagnostics(&mut self, config: &DiagnosticsConfig) -> (Vec<Diagnostic>, Vec<String>) {
        self.log.lock().unwrap().clear();
        let a = self.host.analysis();
        let file = a.file_id("m.c").unwrap();
        let d = a.diagnostics(file, config).unwrap();
        drop(a);
        let db = self.host.raw_database();
        let keys: Vec<(pointee_db::salsa::Id, &str)> = FUNCTIONS
            .iter()
            .map(|&n| {
                let key = CheckedFunction::new(db, self.host.main, pointee_ir::Name::from(n));
                (key.as_id(), n)
            })
            .collect();
        let mut ran: Vec<String> = self
            .log
            .lock()
            .unwrap()
            .iter()
            .filter(|k| db.ingredient_debug_name(k.ingredient_index()) == "function_findings")
            .map(|k| {
                let name = keys.iter().find(|(id, _)| *id == k.key_index());
                name.map_or("?", |(_, n)| n).to_string()
            })
            .collect();
        ran.sort();
        (d, ran)
    }

    /// The checkers' diagnostics (code, severity, line) and the same from a
    /// fresh host on the current text, which they must equal.
    fn checked(&mut self) -> (Vec<(String, Severity, usize)>, Vec<String>) {
        let (d, ran) = self.diagnostics(&DiagnosticsConfig::default());
        let fresh = AnalysisHost::with_files([("m.c", self.text.as_str())], Config::default());
        let a = fresh.analysis();
        let expected = a
            .diagnostics(a.file_id("m.c").unwrap(), &DiagnosticsConfig::default())
            .unwrap();
        assert_eq!(d, expected, "an edited host answers as a fresh one");
        let lines = pointee_ir::LineIndex::new(&self.text);
        let found = d
            .iter()
            .filter(|x| super::RULES.iter().any(|(c, _)| *c == x.code))
            .map(|x| {
                let line = lines.line_col_chars(x.range.range.start).0 + 1;
                (x.code.clone(), x.severity, line)
            })
            .collect();
        (found, ran)
    }
}

fn diag(code: &str, severity: Severity, line: usize) -> (String, Severity, usize) {
    (code.to_string(), severity, line)
}

#[test]
fn findings_are_computed_again_only_where_an_edit_changed_the_facts() {
    let mut h = Harness::new();
    let (found, ran) = h.checked();
    assert_eq!(
        found,
        [
            diag("null-deref", Severity::Error, 7),
            diag("null-deref", Severity::Warning, 14),
        ]
    );
    assert_eq!(ran, FUNCTIONS, "the first time, every function is checked");

    // Nothing changed: nothing is checked again.
    let (_, ran) = h.checked();
    assert!(ran.is_empty(), "{ran:?}");

    // A body edit that changes no other function's facts: only that
    // function is checked again.
    h.edit("return x + 1;", "int *r = &x; return *r + 1;");
    let (found2, ran) = h.checked();
    assert_eq!(found2, found);
    assert_eq!(ran, ["other"]);

    // A comment (the engine sees nothing): nothing is checked again, and
    // the diagnostics move with their lines.
    h.edit("void bad(void) {", "/* a\n comment */\nvoid bad(void) {");
    let (found, ran) = h.checked();
    assert_eq!(
        found,
        [
            diag("null-deref", Severity::Error, 9),
            diag("null-deref", Severity::Warning, 16),
        ]
    );
    assert!(ran.is_empty(), "{ran:?}");

    // A callee's result changes (`make` now always returns NULL): its
    // caller is checked again and its warning becomes an error.
    h.edit("return malloc(sizeof(int));", "return 0;");
    let (found, ran) = h.checked();
    assert_eq!(
        found,
        [
            diag("null-deref", Severity::Error, 9),
            diag("null-deref", Severity::Error, 16),
        ]
    );
    assert_eq!(ran, ["main", "make"]);
}

#[test]
fn checkers_whose_codes_are_all_off_do_not_run() {
    let mut h = Harness::new();
    let off = DiagnosticsConfig {
        disabled: super::RULES.iter().map(|(c, _)| c.to_string()).collect(),
        ..Default::default()
    };
    let (d, ran) = h.diagnostics(&off);
    assert!(ran.is_empty(), "{ran:?}");
    assert!(d.iter().all(|x| x.code != "null-deref"), "{d:?}");
    // One code off: the others are still reported.
    let no_null = DiagnosticsConfig {
        disabled: ["null-deref".to_string()].into(),
        ..Default::default()
    };
    let (d, ran) = h.diagnostics(&no_null);
    assert_eq!(ran, FUNCTIONS);
    assert!(d.iter().all(|x| x.code != "null-deref"), "{d:?}");
    let (d, ran) = h.diagnostics(&DiagnosticsConfig::default());
    assert!(ran.is_empty(), "cached: {ran:?}");
    assert_eq!(d.iter().filter(|x| x.code == "null-deref").count(), 2);
}
