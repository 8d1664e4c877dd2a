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
        .map(|a| a.iter().map(|x| x["title"].as_str().unwrap().to_string()).collect())
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
        json!(["pointee.findInput", "pointee.writeWitnessTest", "pointee.showWitness"])
    );
    c.replies.insert("window/showDocument".into(), json!({"success": true}));
    c.replies
        .insert("window/showMessageRequest".into(), json!({"title": "Write the test"}));
    c.replies
        .insert("workspace/applyEdit".into(), json!({"applied": true}));
    c.open("faults.c", &text).await;
    let diags = c
        .diagnostics("faults.c", |d| d.iter().any(|x| x["code"] == "use-after-free"))
        .await;
    let null = with_code(&diags, "null-deref").clone();
    let uaf = with_code(&diags, "use-after-free").clone();
    assert_eq!(null["range"]["start"], json!({"line": m["null"].0, "character": m["null"].1}));

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
    assert_eq!(actions[0]["diagnostics"], json!([null]));

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
    assert!(report.starts_with("# Witness input: `n` in `get`, [faults.c:4]("), "{report}");
    assert!(
        report.contains("faults (NULL dereference) with the input:\n\n```c\nn = NULL\n```\n"),
        "{report}"
    );
    assert!(report.contains("**Confirmed**"), "{report}");

    // Published again: the NULL dereference confirmed, the other not.
    let diags = c
        .diagnostics("faults.c", |d| {
            d.iter().any(|x| x["message"].as_str().unwrap().contains("(confirmed"))
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
    assert_eq!(offer["params"]["actions"], json!([{"title": "Write the test"}]));
    let edit = c.server_request("workspace/applyEdit").await;
    let changes = &edit["params"]["edit"]["documentChanges"];
    let test_uri = c.uri("faults_witness_4.c");
    assert_eq!(
        changes[0],
        json!({"kind": "create", "uri": test_uri, "options": {"overwrite": true}})
    );
    let program = changes[1]["edits"][0]["newText"].as_str().unwrap();
    assert!(program.contains("#include \"faults.c\""), "{program}");
    assert!(program.contains("get(NULL)") || program.contains("get("), "{program}");

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

    // "Show the witness" of the use after free: its related locations.
    let shown = c.run_command(&actions[2 - 2 + 2]).await;
    assert_eq!(shown["outcome"], "shown", "{shown}");
    let uaf_actions = c.code_actions("faults.c", &[&uaf]).await;
    let shown = c.run_command(&uaf_actions[1]).await;
    let report = std::fs::read_to_string(path_of(&shown["report"])).unwrap();
    assert!(report.starts_with("# `use-after-free` at [faults.c:8]("), "{report}");
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
            d.iter().any(|x| x["code"] == "null-deref" && x["range"]["start"]["line"] == 4)
        })
        .await;
    assert!(with_code(&diags, "null-deref").get("data").is_none(), "{diags:?}");
}
