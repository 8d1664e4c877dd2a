//! The code actions on the checkers' warnings and their commands, through
//! the protocol: "Find an input that triggers this" (the report shown, the
//! warning marked confirmed, the test offered and written), "Show the
//! witness", and a search that a cancelled request or an edit stops.

use super::*;

const FAULTS: &str = r#"#include <stdlib.h>
struct node { struct node *next; int v; };
int get(struct node *n) {
    return $null$n->v;
}
int after(struct node *p) {
    free(p);
    return $uaf$p->v;
}
int main(void) {
    struct node a;
    a.v = 1;
    get(&a);
    get(NULL);
    struct node *h = malloc(sizeof *h);
    if (h) after(h);
    return 0;
}
"#;

/// The client capabilities VS Code has for these requests.
fn vscode_like() -> Value {
    json!({
        "window": {"showDocument": {"support": true}},
        "workspace": {"workspaceEdit": {"documentChanges": true, "resourceOperations": ["create", "rename", "delete"]}},
    })
}

fn titles(actions: &Value) -> Vec<String> {
    actions
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| x["title"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn with_code<'a>(diags: &'a [Value], code: &str) -> &'a Value {
    diags
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {diags:?}"))
}

fn path_of(uri: &Value) -> std::path::PathBuf {
    uri.as_str()
        .unwrap()
        .strip_prefix("file://")
        .expect("a file URI")
        .into()
}

impl Client {
    /// The answer to request `id`, sent by hand.
    async fn response(&mut self, id: i64) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let v = tokio::time::timeout_at(deadline, self.pump())
                .await
                .expect("an answer in time");
            if v["id"] == json!(id) && v.get("method").is_none() {
                return v;
            }
        }
    }

    async fn code_actions(&mut self, name: &str, diagnostics: &[&Value]) -> Value {
        let uri = self.uri(name);
        self.result(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": diagnostics[0]["range"],
                "context": {"diagnostics": diagnostics},
            }),
        )
        .await
    }

    async fn run_command(&mut self, action: &Value) -> Value {
        let cmd = &action["command"];
        self.result(
            "workspace/executeCommand",
            json!({"command": cmd["command"], "arguments": cmd["arguments"]}),
        )
        .await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn find_an_input_shows_it_marks_the_warning_confirmed_and_writes_the_test() {
    let (text, m) = markers(FAULTS);
    let mut c = Client::start_with(&[], json!({}), vscode_like()).await;
    assert_eq!(
        c.server_capabilities["codeActionProvider"],
        json!({"codeActionKinds": ["quickfix"]})
    );
    assert_eq!(
        c.server_capabilities["executeCommandProvider"]["commands"],
        json!([
            "pointee.findInput",
            "pointee.writeWitnessTest",
            "pointee.showWitness"
        ])
    );
    c.replies
        .insert("window/showDocument".into(), json!({"success": true}));
    c.replies.insert(
        "window/showMessageRequest".into(),
        json!({"title": "Write the test"}),
    );
    c.replies
        .insert("workspace/applyEdit".into(), json!({"applied": true}));
    c.open("faults.c", &text).await;
    let diags = c
        .diagnostics("faults.c", |d| {
            d.iter().any(|x| x["code"] == "use-after-free")
        })
        .await;
    let null = with_code(&diags, "null-deref").clone();
    let uaf = with_code(&diags, "use-after-free").clone();
    assert_eq!(
        null["range"]["start"],
        json!({"line": m["null"].0, "character": m["null"].1})
    );

    let actions = c.code_actions("faults.c", &[&null, &uaf]).await;
    assert_eq!(
        titles(&actions),
        [
            "Find an input that triggers this",
            "Show the witness (1 location)",
            "Find an input that triggers this",
            "Show the witness (2 locations)",
        ]
    );
    assert_eq!(actions[0]["kind"], "quickfix");
    assert_eq!(actions[0]["diagnostics"][0], null);

    // The search: `n` is NULL (main passes it), and nothing is assumed.
    let found = c.run_command(&actions[0]).await;
    let test_path = c.dir.join("faults_witness_4.c");
    assert_eq!(found["outcome"], "found", "{found}");
    assert_eq!(found["fault"], "null");
    assert_eq!(found["confirmed"], true);
    assert_eq!(found["test"], json!(test_path.to_string_lossy()));
    // The report was shown as a document.
    let shown = c.server_request("window/showDocument").await;
    assert_eq!(shown["params"]["uri"], found["report"]);
    let report = std::fs::read_to_string(path_of(&found["report"])).unwrap();
    assert!(
        report.starts_with("# Witness input: `n` in `get`, [faults.c:4]("),
        "{report}"
    );
    assert!(
        report.contains("faults (NULL dereference) with the input:\n\n```c\nn = NULL\n```\n"),
        "{report}"
    );
    assert!(report.contains("**Confirmed**"), "{report}");

    // Published again: the NULL dereference confirmed, the other not.
    let diags = c
        .diagnostics("faults.c", |d| {
            d.iter()
                .any(|x| x["message"].as_str().unwrap().contains("(confirmed"))
        })
        .await;
    let confirmed = with_code(&diags, "null-deref").clone();
    assert!(
        confirmed["message"]
            .as_str()
            .unwrap()
            .ends_with(" (confirmed: input found)"),
        "{confirmed}"
    );
    assert_eq!(confirmed["data"]["witness"], "confirmed");
    assert_eq!(confirmed["data"]["report"], found["report"]);
    let related = confirmed["relatedInformation"].as_array().unwrap();
    assert_eq!(related.last().unwrap()["location"]["uri"], found["report"]);
    assert!(with_code(&diags, "use-after-free").get("data").is_none());

    // The test was offered; the client chose to write it: a workspace
    // edit creates the file with the C program.
    let offer = c.server_request("window/showMessageRequest").await;
    assert_eq!(
        offer["params"]["actions"],
        json!([{"title": "Write the test"}])
    );
    let edit = c.server_request("workspace/applyEdit").await;
    let changes = &edit["params"]["edit"]["documentChanges"];
    let test_uri = c.uri("faults_witness_4.c");
    assert_eq!(
        changes[0],
        json!({"kind": "create", "uri": test_uri, "options": {"overwrite": true}})
    );
    let program = changes[1]["edits"][0]["newText"].as_str().unwrap();
    assert!(program.contains("#include \"faults.c\""), "{program}");
    assert!(
        program.contains("#include \"faults.c\"") && program.contains("    get(NULL);\n"),
        "{program}"
    );

    // Now the action list also writes the test, by the same edit.
    let actions = c.code_actions("faults.c", &[&confirmed]).await;
    assert_eq!(
        titles(&actions),
        [
            "Find an input that triggers this",
            "Write the test that triggers this (faults_witness_4.c)",
            "Show the witness (2 locations)",
        ]
    );
    assert_eq!(actions[1]["edit"]["documentChanges"], *changes);

    // "Show the witness": the related locations of the diagnostic.
    let shown = c.run_command(&actions[2]).await;
    assert_eq!(shown["outcome"], "shown", "{shown}");
    let uaf_actions = c.code_actions("faults.c", &[&uaf]).await;
    let shown = c.run_command(&uaf_actions[1]).await;
    let report = std::fs::read_to_string(path_of(&shown["report"])).unwrap();
    assert!(
        report.starts_with("# `use-after-free` at [faults.c:8]("),
        "{report}"
    );
    assert!(
        report.contains("1. [faults.c:7](") && report.contains("2. [faults.c:16]("),
        "{report}"
    );

    // An edit of the file drops the confirmation.
    c.change(
        "faults.c",
        2,
        json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "\n"}]),
    )
    .await;
    let diags = c
        .diagnostics("faults.c", |d| {
            d.iter()
                .any(|x| x["code"] == "null-deref" && x["range"]["start"]["line"] == 4)
        })
        .await;
    assert!(
        with_code(&diags, "null-deref").get("data").is_none(),
        "{diags:?}"
    );
}

/// A client like Neovim 0.7: no `window/showDocument`, no workspace edits
/// that create files. The report comes as a message, and the command
/// writes the test on the disk; built with AddressSanitizer, it faults at
/// the warned line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_show_document_the_report_is_a_message_and_the_test_is_written_to_disk() {
    let (text, _) = markers(FAULTS);
    let mut c = Client::start_with(&[("faults.c", &text)], json!({}), json!({})).await;
    c.open("faults.c", &text).await;
    let diags = c
        .diagnostics("faults.c", |d| d.iter().any(|x| x["code"] == "null-deref"))
        .await;
    let null = with_code(&diags, "null-deref").clone();
    let actions = c.code_actions("faults.c", &[&null]).await;
    let found = c.run_command(&actions[0]).await;
    assert_eq!(found["outcome"], "found", "{found}");
    // (A notification may come after the command's answer.)
    let message = c.notification("window/showMessage").await;
    let report = message["params"]["message"].as_str().unwrap();
    assert!(report.contains("```c\nn = NULL\n```"), "{report}");
    // Declined (the client answers the offer with null): nothing written.
    c.server_request("window/showMessageRequest").await;
    let test = c.dir.join("faults_witness_4.c");
    assert!(!test.exists());
    // Once confirmed, the action writes the test through the command.
    let confirmed = c
        .diagnostics("faults.c", |d| d.iter().any(|x| x.get("data").is_some()))
        .await;
    let actions = c
        .code_actions("faults.c", &[with_code(&confirmed, "null-deref")])
        .await;
    assert_eq!(actions[1]["command"]["command"], "pointee.writeWitnessTest");
    let written = c.run_command(&actions[1]).await;
    assert_eq!(
        written,
        json!({"outcome": "written", "test": test.to_string_lossy()})
    );
    let program = std::fs::read_to_string(&test).unwrap();
    assert!(program.contains("    get(NULL);\n"), "{program}");
    let gcc = std::process::Command::new("gcc").arg("--version").output();
    if gcc.is_err() {
        eprintln!("gcc is missing: the written test is not built (CI has it)");
        return;
    }
    let exe = c.dir.join("witness_test");
    let built = std::process::Command::new("gcc")
        .args(["-g", "-fsanitize=address", "-o"])
        .arg(&exe)
        .arg(&test)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = std::process::Command::new(&exe).output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "{stderr}");
    assert!(
        stderr.contains("SEGV") && stderr.contains("faults.c:4"),
        "{stderr}"
    );
}

const LIST_JAVA: &str = "class Node {
    Node next;
}

class List {
    static Node removeSecond(Node list) {
        if (list == null) {
            return null;
        }
        Node second = list.next;
        list.next = $deref$second.next;
        return second;
    }
}
";

/// On a Java dereference (no warning needed): the action searches the
/// input, the report shows it, and the test offered is a Java class beside
/// the source that javac compiles with it and that throws at the line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_java_dereference_gets_an_input_and_a_java_test() {
    let (text, m) = markers(LIST_JAVA);
    let mut c = Client::start_with(&[("List.java", &text)], json!({}), json!({})).await;
    c.open("List.java", &text).await;
    let uri = c.uri("List.java");
    let at = json!({"line": m["deref"].0, "character": m["deref"].1});
    let actions = c
        .result(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": {"start": at, "end": at},
                "context": {"diagnostics": []},
            }),
        )
        .await;
    assert_eq!(
        titles(&actions),
        ["Find an input that makes a dereference here throw"]
    );
    // A line that reads through no reference gets no action.
    let none = c
        .result(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 4}},
                "context": {"diagnostics": []},
            }),
        )
        .await;
    assert_eq!(none, Value::Null);
    let found = c.run_command(&actions[0]).await;
    assert_eq!(found["outcome"], "found", "{found}");
    assert_eq!(found["fault"], "null");
    assert_eq!(found["confirmed"], true);
    let test = c.dir.join("ListWitness11.java");
    assert_eq!(found["test"], json!(test.to_string_lossy()));
    let message = c.notification("window/showMessage").await;
    let report = message["params"]["message"].as_str().unwrap();
    assert!(
        report.contains(
            "throws NullPointerException with the input:\n\n```text\nlist = o1\no1: Node { next = NULL }\n```"
        ),
        "{report}"
    );
    // Declined, then written through the command at the statement.
    c.server_request("window/showMessageRequest").await;
    let write = json!({"command": {"command": "pointee.writeWitnessTest", "arguments": [{"uri": uri, "position": at}]}});
    let written = c.run_command(&write).await;
    assert_eq!(
        written,
        json!({"outcome": "written", "test": test.to_string_lossy()})
    );
    let class = std::fs::read_to_string(&test).unwrap();
    assert!(class.contains("public class ListWitness11 {"), "{class}");
    if std::process::Command::new("javac")
        .arg("-version")
        .output()
        .is_err()
    {
        eprintln!("javac is missing: the written test is not compiled (CI has it)");
        return;
    }
    let built = std::process::Command::new("javac")
        .arg("-d")
        .arg(&c.dir)
        .arg(c.dir.join("List.java"))
        .arg(&test)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = std::process::Command::new("java")
        .arg("-cp")
        .arg(&c.dir)
        .arg("ListWitness11")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("java.lang.NullPointerException")
            && stderr.contains("at List.removeSecond(List.java:11)"),
        "{stderr}"
    );
}

/// `spin` never leaves its loop: with the `witness` bounds below, a search
/// there only ends when something stops it.
const SPIN: &str = "struct node { struct node *next; int v; };
int spin(struct node *p) {
    struct node local;
    struct node *q = &local;
    for (;;) { $q$q = p; q = &local; }
    return $deref$q->v;
}
int main(void) { struct node n; return spin(&n); }
";

/// The request loop goes on during a search (a hover is answered), an
/// edit stops the search (`ContentModified`) and is analysed, and
/// `$/cancelRequest` stops another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_search_never_blocks_the_server_and_stops_on_an_edit_or_a_cancel() {
    let (text, m) = markers(SPIN);
    let endless =
        json!({"witness": {"loops": 4_000_000_000u64, "paths": 4_000_000_000u64, "ms": 3_600_000}});
    let mut c = Client::start(&[], endless).await;
    c.open("spin.c", &text).await;
    c.diagnostics("spin.c", |_| true).await;
    let search = |id: i64, c: &Client| {
        json!({"jsonrpc": "2.0", "id": id, "method": "workspace/executeCommand", "params": {
            "command": "pointee.findInput",
            "arguments": [{"uri": c.uri("spin.c"), "position": {"line": m["deref"].0, "character": m["deref"].1}}],
        }})
    };
    c.send(&search(900, &c)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let h = c
        .result("textDocument/hover", c.pos("spin.c", m["q"]))
        .await;
    assert!(
        h["contents"]["value"].as_str().unwrap().contains("`q`"),
        "{h}"
    );
    c.change(
        "spin.c",
        2,
        json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "\n"}]),
    )
    .await;
    let stopped = c.response(900).await;
    assert_eq!(stopped["error"]["code"], -32801, "{stopped}");
    c.diagnostics("spin.c", |_| true).await;

    // The same search cancelled by the client.
    let mut moved = m.clone();
    moved.get_mut("deref").unwrap().0 += 1;
    let (line, character) = moved["deref"];
    let mut request = search(901, &c);
    request["params"]["arguments"][0]["position"] = json!({"line": line, "character": character});
    c.send(&request).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    c.notify("$/cancelRequest", json!({"id": 901})).await;
    let cancelled = c.response(901).await;
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");
    // The server goes on: an edit after it is analysed (its analysis would
    // wait for a search that went on).
    c.change(
        "spin.c",
        3,
        json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "\n"}]),
    )
    .await;
    let h = c
        .result(
            "textDocument/hover",
            c.pos("spin.c", (m["q"].0 + 2, m["q"].1)),
        )
        .await;
    assert!(
        h["contents"]["value"].as_str().unwrap().contains("`q`"),
        "{h}"
    );
}
