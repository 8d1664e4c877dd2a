"""Shared set-up of the end-to-end tests: the release binary, a workspace
folder with the bundled example, and helpers."""

import os
import pathlib
import shutil

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("POINTEE_BIN", str(ROOT / "target" / "release" / "pointee"))
EXAMPLE = (ROOT / "examples" / "ops.c").read_text()


@pytest.fixture
def workspace(tmp_path):
    """A workspace folder holding ops.c (the bundled example)."""
    (tmp_path / "ops.c").write_text(EXAMPLE)
    return tmp_path


def position_of(text: str, needle: str, occurrence: int = 0, offset: int = 0):
    """0-based (line, UTF-16 column) of the start of `needle` (+ offset)."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    start += offset
    before = text[:start]
    line = before.count("\n")
    col_text = before[before.rfind("\n") + 1 :]
    return line, len(col_text.encode("utf-16-le")) // 2


def have_binary():
    return os.path.exists(BIN) or shutil.which(BIN) is not None


async def initialize_in(client, root, **options):
    """Starts a session of `client` on the workspace folder `root` as VS
    Code would (the server may register file watchers)."""

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params):
        return None

    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")],
            initialization_options=options or None,
        )
    )
    client.workspace_dir = root
