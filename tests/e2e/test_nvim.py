"""Neovim headless, its built-in LSP client, against the release binary:
open a C file, edit it, hover, jump to a possible callee."""

import os
import pathlib
import shutil
import subprocess

import pytest

from conftest import BIN

HERE = pathlib.Path(__file__).resolve().parent


@pytest.mark.skipif(shutil.which("nvim") is None and not os.environ.get("CI"),
                    reason="nvim is not installed (.ci/run installs it)")
def test_neovim_opens_edits_hovers_and_jumps(workspace):
    env = dict(os.environ)
    env.update(POINTEE_BIN=BIN, POINTEE_ROOT=str(workspace), POINTEE_FILE=str(workspace / "ops.c"))
    p = subprocess.run(
        ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
         "-c", f"luafile {HERE / 'nvim_e2e.lua'}"],
        env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert "nvim e2e: ok" in out, out
