"""Helpers for the command-line tests: run `python -m edgelite` in a subprocess, or main() in-process."""
from __future__ import annotations

import signal
import subprocess
import sys
from typing import List

import pytest

from edgelite.cli.main import main
from support.child_env import child_env


def edgelite_command(*args: str) -> List[str]:
    """The argv of `python -m edgelite ARGS` with this interpreter (and its PYTHONPATH / EDGELITE_LIBRARY)."""
    return [sys.executable, "-m", "edgelite", *args]


def restore_sigint() -> None:
    """Children inherit an ignored SIGINT from some CI shells; Python only maps SIGINT to Ctrl-C if not ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_edgelite(*args: str, cwd=None, env=None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run `python -m edgelite ARGS` to completion, capturing text output."""
    return subprocess.run(edgelite_command(*args), cwd=cwd, env=child_env(env), text=True, capture_output=True,
                          timeout=timeout, preexec_fn=restore_sigint)


@pytest.fixture
def cli(capsys):
    """Call main() in-process: returns (exit status, stdout, stderr)."""
    def call(*args: str):
        status = main(list(args))
        out, err = capsys.readouterr()
        return status, out, err
    return call
