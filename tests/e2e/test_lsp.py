"""End-to-end tests of `pointee lsp` with pytest-lsp: the release binary
over stdio, driven as an editor would (open, incremental edits, hover,
definition on an indirect call, call hierarchy, diagnostics after an edit),
and bad protocol input."""

import asyncio
import json
import subprocess

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import BIN, EXAMPLE, initialize_in, position_of

TIMEOUT = 60


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "lsp"]))
async def client(lsp_client: LanguageClient, workspace):
    await initialize_in(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


def uri_of(client, name):
    return (client.workspace_dir / name).as_uri()


def open_doc(client, name, text, version=1):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri_of(client, name), language_id="c", version=version, text=text
            )
        )
    )


def pos(client, name, line, col):
    return dict(
        text_document=types.TextDocumentIdentifier(uri=uri_of(client, name)),
        position=types.Position(line=line, character=col),
    )


async def diagnostics_where(client, name, pred):
    """Waits until the diagnostics published for `name` satisfy `pred`."""
    uri = uri_of(client, name)

    async def wait():
        while True:
            d = client.diagnostics.get(uri)
            if d is not None and pred(d):
                return d
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(wait(), TIMEOUT)


async def test_hover_definition_hierarchy_and_diagnostics_after_edit(client: LanguageClient):
    text = EXAMPLE
    open_doc(client, "ops.c", text)

    # Hover on `d` in `d->ops->open(d->file)`: per-context breakdown.
    line, col = position_of(text, "return d->ops->open", offset=len("return "))
    hover = await client.text_document_hover_async(types.HoverParams(**pos(client, "ops.c", line, col)))
    assert hover is not None
    md = hover.contents.value
    assert "heap@28" in md and "Per calling context" in md, md
    assert "possibly" in md, md

    # Definition on the callee of the indirect call: both open functions.
    line, col = position_of(text, "open(d->file)")
    defs = await client.text_document_definition_async(
        types.DefinitionParams(**pos(client, "ops.c", line, col))
    )
    got = sorted(d.range.start.line for d in defs)
    want = sorted(
        [position_of(text, "int disk_open")[0], position_of(text, "int tty_open")[0]]
    )
    assert got == want, defs

    # Call hierarchy on `start`: called by main, calls both open functions
    # through the function pointer.
    line, col = position_of(text, "int start", offset=4)
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(**pos(client, "ops.c", line, col))
    )
    assert items and items[0].name == "start", items
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(item=items[0])
    )
    assert [c.from_.name for c in incoming] == ["main"], incoming
    assert len(incoming[0].from_ranges) == 3
    outgoing = await client.call_hierarchy_outgoing_calls_async(
        types.CallHierarchyOutgoingCallsParams(item=items[0])
    )
    assert sorted(c.to.name for c in outgoing) == ["disk_open", "tty_open"], outgoing

    # Diagnostics: both alias checks of the example hold (hints).
    await diagnostics_where(
        client, "ops.c", lambda d: sum(1 for x in d if x.code == "alias-check") == 2
    )

    # An incremental edit turns the MUSTALIAS into a NOALIAS, which fails.
    line, col = position_of(text, "MUSTALIAS(disk.file")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri_of(client, "ops.c"), version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=line, character=col),
                        end=types.Position(line=line, character=col + len("MUSTALIAS")),
                    ),
                    text="NOALIAS",
                )
            ],
        )
    )
    diags = await diagnostics_where(
        client,
        "ops.c",
        lambda d: any(x.severity == types.DiagnosticSeverity.Warning for x in d),
    )
    warning = [x for x in diags if x.severity == types.DiagnosticSeverity.Warning][0]
    assert warning.range.start.line == line and "NOALIAS" in warning.message, warning


async def test_incremental_edits_with_utf16_columns(client: LanguageClient):
    text = "int g;\nint use_it(void) {\n    int *p = &g;\n    return *p;\n}\n"
    open_doc(client, "u.c", text)
    # Two edits in one notification, one with characters outside the BMP.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri_of(client, "u.c"), version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=2, character=4), end=types.Position(line=2, character=4)),
                    text="/* 😀é */ ",
                ),
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
                    text="// 𝄞\n",
                ),
            ],
        )
    )
    col = len("    /* 😀é */ int *".encode("utf-16-le")) // 2
    hover = await client.text_document_hover_async(types.HoverParams(**pos(client, "u.c", 3, col)))
    assert hover is not None and "`g`" in hover.contents.value, hover
    assert hover.range.start == types.Position(line=3, character=col)


async def test_bad_requests_get_errors_or_nothing(client: LanguageClient):
    open_doc(client, "ops.c", EXAMPLE)
    # Unknown method: an error response, and the server keeps serving.
    with pytest.raises(Exception) as e:
        await client.protocol.send_request_async("pointee/noSuchMethod", {})
    assert "not found" in str(e.value).lower() or "-32601" in str(e.value), e.value
    # Past the end of a line and of the file.
    await client.text_document_hover_async(types.HoverParams(**pos(client, "ops.c", 3, 999)))
    await client.text_document_definition_async(types.DefinitionParams(**pos(client, "ops.c", 9999, 1)))
    # A file that was never opened (nor is in the workspace).
    r = await client.text_document_hover_async(types.HoverParams(**pos(client, "missing.c", 0, 0)))
    assert r is None
    line, col = position_of(EXAMPLE, "return d->ops->open", offset=len("return "))
    hover = await client.text_document_hover_async(types.HoverParams(**pos(client, "ops.c", line, col)))
    assert hover is not None


def frame(obj) -> bytes:
    body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_messages(data: bytes):
    out = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        n = int(head.split(b":")[1])
        out.append(json.loads(rest[:n]))
        data = rest[n:]
    return out


def test_malformed_json_gets_an_error_and_the_server_goes_on(tmp_path):
    """Raw bytes: malformed JSON, a body that is not JSON-RPC, garbage
    headers; each is answered per JSON-RPC and the server still answers."""
    proc = subprocess.Popen([BIN, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    proc.stdin.write(frame(init))
    proc.stdin.flush()
    # Wait for the initialize answer before going on, as clients do.
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        head += proc.stdout.read(1)
    body = proc.stdout.read(int(head.split(b":")[1]))
    assert json.loads(body)["id"] == 1
    msgs = frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    msgs += frame(b"{this is not json")
    msgs += frame(b'{"jsonrpc": "2.0", "id": 77}')
    msgs += frame(b"\xff\xfe not utf-8")
    msgs += b"Garbage-Header: 1\r\n\r\n"
    msgs += frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                   "params": {"textDocument": {"uri": (tmp_path / "x.c").as_uri()},
                              "position": {"line": 0, "character": 0}}})
    msgs += frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    proc.stdin.write(msgs)
    proc.stdin.flush()
    import time
    time.sleep(1.5)
    proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    proc.stdin.close()
    out = proc.stdout.read()
    proc.wait(timeout=TIMEOUT)
    replies = read_messages(out)
    by_id = {json.dumps(m.get("id")): m for m in replies if "method" not in m}
    errors = [m for m in replies if "error" in m]
    assert any(m["error"]["code"] == -32700 for m in errors), replies
    assert by_id["77"]["error"]["code"] == -32600, replies
    assert "result" in by_id["2"] and by_id["2"]["result"] is None, replies
    assert "result" in by_id["3"], replies


JAVA = """\
class A { Object m() { return new Object(); } }
class B extends A { Object m() { return new Object(); } }
public class Main {
    public static void main(String[] args) {
        A a = new A();
        if (args.length > 0) a = new B();
        Object o = a.m();
    }
}
"""


async def test_java_hover_and_definition_on_a_virtual_call(client: LanguageClient):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri_of(client, "Main.java"), language_id="java", version=1, text=JAVA
            )
        )
    )
    line, col = position_of(JAVA, "A a = new A()", offset=2)
    hover = await client.text_document_hover_async(types.HoverParams(**pos(client, "Main.java", line, col)))
    assert hover is not None and "new A" in hover.contents.value, hover
    line, col = position_of(JAVA, "a.m()", offset=2)
    defs = await client.text_document_definition_async(
        types.DefinitionParams(**pos(client, "Main.java", line, col))
    )
    assert sorted(d.range.start.line for d in defs) == [0, 1], defs
