"""Bad workspace input through the real server (issue 14): binary and
non-UTF-8 files, a file too large to read from the disk, links to nothing,
symbolic-link loops, a malformed compile_commands.json, files deleted or
made unreadable while open, a 10 MB line in an open buffer, a workspace of
5,000 files. The server reports each problem once (window/showMessage,
naming the file) and keeps serving the rest of the program."""

import asyncio
import os

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import BIN, EXAMPLE, initialize_in, position_of

TIMEOUT = 120

# Not valid UTF-8 from the first byte (a fixed pattern: the same every run).
BINARY = bytes([0xFF]) + bytes((i * 151 + 7) % 256 for i in range(4095))
BIG = 5 << 20  # over the 4 MiB the server reads from the disk
EXTRA = "int extra_g;\nint *extra(void) { int *p = &extra_g; return p; }\n"


def build_bad_workspace(root):
    (root / "ops.c").write_text(EXAMPLE)
    (root / "extra.c").write_text(EXTRA)
    (root / "junk.c").write_bytes(BINARY)
    (root / "sub").mkdir()
    (root / "sub" / "latin1.h").write_bytes(b"/* caf\xe9 */\nint x;\n")
    (root / "blob.o").write_bytes(BINARY)
    (root / "big.c").write_text("/*" + "x" * BIG + "*/ int big;\n")
    os.symlink(root / "nothing.c", root / "gone.c")
    os.symlink(".", root / "self")
    os.symlink("..", root / "sub" / "up")
    (root / "compile_commands.json").write_text('[{"file": "ops.c"')


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "lsp"]))
async def client(lsp_client: LanguageClient, tmp_path):
    build_bad_workspace(tmp_path)
    await initialize_in(lsp_client, tmp_path)
    yield
    await lsp_client.shutdown_session()


def uri_of(client, name):
    return (client.workspace_dir / name).as_uri()


def doc_pos(client, name, line, col):
    return types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri_of(client, name)),
        position=types.Position(line=line, character=col),
    )


async def hover_text(client, name, line, col):
    h = await asyncio.wait_for(client.text_document_hover_async(doc_pos(client, name, line, col)), TIMEOUT)
    return None if h is None else h.contents.value


async def until(pred, what):
    async def wait():
        while not pred():
            await asyncio.sleep(0.05)

    try:
        await asyncio.wait_for(wait(), TIMEOUT)
    except asyncio.TimeoutError:
        raise AssertionError(f"timed out waiting for {what}")


def shown(client):
    return [m.message for m in client.messages]


def watched(client, name, typ):
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=uri_of(client, name), type=typ)])
    )


def open_doc(client, name, text, version=1):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri_of(client, name), language_id="c", version=version, text=text)
        )
    )


def close_doc(client, name):
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri_of(client, name)))
    )


async def test_each_problem_is_reported_once_and_the_rest_is_served(client: LanguageClient):
    ws = client.workspace_dir
    # One message per problem, each naming its file, reported while the
    # server starts (the first requests already see the rest).
    expected = {
        str(ws / "junk.c"): "invalid UTF-8 at byte 0; left out of the program",
        str(ws / "sub" / "latin1.h"): "invalid UTF-8 at byte 6; left out of the program",
        str(ws / "big.c"): "more than the 4 MiB the server reads from the disk; left out of the program",
        str(ws / "gone.c"): "no such file or directory; left out of the program",
        str(ws / "compile_commands.json"): "compile_commands.json:1:",
    }
    await until(lambda: len(client.messages) >= len(expected), "the problems")
    messages = shown(client)
    assert len(messages) == len(expected), messages
    for path, reason in expected.items():
        hits = [m for m in messages if m.startswith(f"pointee: {path}") and reason in m]
        assert len(hits) == 1, (path, reason, messages)
    # The rest is served: hover and diagnostics on the program's good files
    # (the malformed database leaves every .c file as the program).
    line, col = position_of(EXAMPLE, "return d->ops->open", offset=len("return "))
    text = await hover_text(client, "ops.c", line, col)
    assert text is not None and "heap@28" in text, text
    await until(lambda: uri_of(client, "ops.c") in client.diagnostics, "diagnostics of ops.c")
    assert await hover_text(client, "extra.c", *position_of(EXTRA, "return p", offset=7)) is not None
    # Reloads of the same broken model and rescans say nothing new.
    watched(client, "compile_commands.json", types.FileChangeType.Changed)
    watched(client, "junk.c", types.FileChangeType.Changed)
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[types.WorkspaceFolder(uri=ws.as_uri(), name="again")], removed=[]
            )
        )
    )
    assert await hover_text(client, "ops.c", line, col) is not None
    await asyncio.sleep(1.0)
    assert shown(client) == messages, shown(client)
    # Fixed, then broken anew: reported again, once.
    (ws / "compile_commands.json").write_text('[{"directory": ".", "file": "ops.c", "arguments": ["cc", "-c", "ops.c"]}]')
    watched(client, "compile_commands.json", types.FileChangeType.Changed)
    assert await hover_text(client, "ops.c", line, col) is not None
    (ws / "compile_commands.json").write_text("{")
    watched(client, "compile_commands.json", types.FileChangeType.Changed)
    await until(lambda: len(client.messages) > len(messages), "the model's new problem")
    await asyncio.sleep(0.5)
    assert len(shown(client)) == len(messages) + 1, shown(client)
    assert "compile_commands.json:1:" in shown(client)[-1]
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error], client.log_messages


async def test_files_deleted_or_made_unreadable_while_open(client: LanguageClient):
    ws = client.workspace_dir
    await until(lambda: len(client.messages) >= 5, "the start-up problems")
    before = len(client.messages)
    text = (ws / "extra.c").read_text()
    open_doc(client, "extra.c", text)
    # Deleted on disk while open: the buffer wins, answers go on.
    (ws / "extra.c").unlink()
    watched(client, "extra.c", types.FileChangeType.Deleted)
    assert await hover_text(client, "extra.c", *position_of(EXTRA, "return p", offset=7)) is not None
    # Closed: out of the program (a deleted file is no problem to report).
    close_doc(client, "extra.c")
    assert await hover_text(client, "extra.c", *position_of(EXTRA, "return p", offset=7)) is None
    # Made unreadable while open (its bytes no longer UTF-8; permissions
    # too when not running as root, who reads anything).
    (ws / "ops2.c").write_text(EXAMPLE)
    watched(client, "ops2.c", types.FileChangeType.Created)
    open_doc(client, "ops2.c", EXAMPLE)
    (ws / "ops2.c").write_bytes(BINARY)
    if os.geteuid() != 0:
        os.chmod(ws / "ops2.c", 0)
    watched(client, "ops2.c", types.FileChangeType.Changed)
    line, col = position_of(EXAMPLE, "return d->ops->open", offset=len("return "))
    assert await hover_text(client, "ops2.c", line, col) is not None  # the buffer
    close_doc(client, "ops2.c")
    await until(lambda: len(client.messages) > before, "the unreadable file's problem")
    await asyncio.sleep(0.5)
    new = shown(client)[before:]
    reason = "invalid UTF-8 at byte 0" if os.geteuid() == 0 else "permission denied"
    assert new == [f"pointee: {ws / 'ops2.c'}: {reason}; left out of the program"], new
    assert await hover_text(client, "ops2.c", line, col) is None
    # The rest goes on.
    assert await hover_text(client, "ops.c", line, col) is not None
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error], client.log_messages


async def test_a_ten_megabyte_line_in_an_open_buffer(client: LanguageClient):
    comment = "/*" + "x" * (10 << 20) + "*/"
    code = " int g; int main(void) { int *p = &g; return *p; }\n"
    open_doc(client, "long.c", comment + code)
    col = len(comment) + code.index("p = &g")
    text = await hover_text(client, "long.c", 0, col)
    assert text is not None and "g" in text, text
    # A position past the line's end: no answer, no error.
    assert await hover_text(client, "long.c", 0, len(comment) + len(code) + 10) is None
    # An edit at its far end, then the answer again.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri_of(client, "long.c"), version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=0, character=len(comment) + len(code) - 1),
                        end=types.Position(line=0, character=len(comment) + len(code) - 1),
                    ),
                    text=" int h;",
                )
            ],
        )
    )
    assert await hover_text(client, "long.c", 0, col) is not None


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "lsp"]))
async def many(lsp_client: LanguageClient, tmp_path):
    # 5,000 files: the example among headers, notes and build output.
    (tmp_path / "ops.c").write_text(EXAMPLE)
    for i in range(4999):
        sub = tmp_path / f"part{i // 250:02}"
        sub.mkdir(exist_ok=True)
        if i % 3 == 0:
            (sub / f"h{i}.h").write_text(f"#define H{i} {i}\n")
        elif i % 3 == 1:
            (sub / f"note{i}.txt").write_text("notes\n")
        else:
            (sub / f"obj{i}.o").write_bytes(BINARY[:256])
    assert sum(len(files) for _, _, files in os.walk(tmp_path)) == 5000
    await initialize_in(lsp_client, tmp_path)
    yield
    await lsp_client.shutdown_session()


async def test_a_workspace_of_five_thousand_files(many: LanguageClient):
    line, col = position_of(EXAMPLE, "return d->ops->open", offset=len("return "))
    text = await hover_text(many, "ops.c", line, col)
    assert text is not None and "heap@28" in text, text
    await until(lambda: uri_of(many, "ops.c") in many.diagnostics, "diagnostics of ops.c")
    assert shown(many) == []
