"""End-to-end test of the witness code actions (docs/lsp.md, "Code
actions"): an editor with VS Code's capabilities asks for the quick fixes
of an unchecked allocation's NULL warning, runs "Find an input that
triggers this", opens the report, writes the offered test through the
workspace edit, and the test, built with AddressSanitizer, faults at the
warned line."""

import ast
import asyncio
import pathlib
import shutil
import subprocess
import urllib.parse

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from conftest import BIN, position_of

TIMEOUT = 60

SOURCE = """#include <stdlib.h>
struct node { struct node *next; int v; };
struct node *push(struct node *list)
{
    struct node *n = malloc(sizeof *n);
    n->next = list;
    return n;
}
int main(void) { return push(NULL) == NULL; }
"""


def path_of(uri):
    return pathlib.Path(urllib.parse.unquote(urllib.parse.urlparse(uri).path))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "lsp"]))
async def client(lsp_client: LanguageClient, tmp_path):
    lsp_client.offers = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params):
        return None

    @lsp_client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def show_message_request(params: types.ShowMessageRequestParams):
        lsp_client.offers.append(params.message)
        return params.actions[0]

    @lsp_client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams):
        # As an editor does: create the file, then insert its text.
        create, edit = params.edit.document_changes
        path = path_of(create.uri)
        path.write_text(edit.edits[0].new_text)
        return types.ApplyWorkspaceEditResult(applied=True)

    (tmp_path / "push.c").write_text(SOURCE)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=tmp_path.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")],
        )
    )
    lsp_client.workspace_dir = tmp_path
    yield
    await lsp_client.shutdown_session()


def command_of(action):
    """The command of a code action. lsprotocol reads the `CodeAction |
    Command` union as a `Command` first, turning the action's `command`
    object into its Python text, so read that text back."""
    if isinstance(action, types.CodeAction):
        return action.command
    inner = ast.literal_eval(action.command)
    return types.Command(
        title=inner["title"], command=inner["command"], arguments=inner["arguments"]
    )


async def wait_until(check):
    async def poll():
        while True:
            found = check()
            if found:
                return found
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(poll(), TIMEOUT)


async def test_find_an_input_then_write_the_test_that_faults_there(client: LanguageClient):
    uri = (client.workspace_dir / "push.c").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="c", version=1, text=SOURCE)
        )
    )
    line, col = position_of(SOURCE, "n->next = list")

    def warning():
        for d in client.diagnostics.get(uri, []):
            if d.code == "null-deref" and d.range.start.line == line:
                return d

    null = await wait_until(warning)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=null.range,
            context=types.CodeActionContext(diagnostics=[null]),
        )
    )
    # The witness: where `malloc` may return NULL, and the calling context.
    assert [a.title for a in actions] == [
        "Find an input that triggers this",
        "Show the witness (2 locations)",
    ]
    command = command_of(actions[0])
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
    )
    assert answer["outcome"] == "found" and answer["fault"] == "null", answer
    assert answer["confirmed"] is True
    # The report opened as a document: the failing allocation is the input.
    # (pytest-lsp's client records `window/showDocument` and says success.)
    assert client.shown_documents[0].uri == answer["report"]
    report = path_of(answer["report"]).read_text()
    assert "malloc/calloc call 1 = NULL" in report, report

    # The warning is marked confirmed.
    def confirmed():
        for d in client.diagnostics.get(uri, []):
            if d.code == "null-deref" and d.message.endswith("(confirmed: input found)"):
                return d

    await wait_until(confirmed)

    # The test was offered, written through the workspace edit, and faults
    # on the warned line under AddressSanitizer.
    test = pathlib.Path(answer["test"])
    await wait_until(lambda: test.exists())
    assert client.offers and "Write a test that builds it (push_witness_6.c)" in client.offers[0]
    if shutil.which("gcc") is None:
        pytest.skip("gcc is missing: the test is not built")
    exe = client.workspace_dir / "witness_test"
    subprocess.run(["gcc", "-g", "-fsanitize=address", "-o", str(exe), str(test)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode != 0
    assert f"push.c:{line + 1}" in run.stderr, run.stderr
