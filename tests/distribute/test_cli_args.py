"""`edgelite train --workers/--sweep/--address`: argument errors are reported before any Ray cluster starts."""
from __future__ import annotations

import pytest

pytest.importorskip("ray", reason="Ray (the `distributed` extra) has no wheel for this Python/platform")

from edgelite.cli.main import main  # noqa: E402
from edgelite.cli.train_distributed import parse_sweep  # noqa: E402


def test_parse_sweep_reads_json_values_and_keeps_text():
    assert parse_sweep(["lr=0.1,0.01", "alpha=0.5", "mode=a,b"]) == {"lr": [0.1, 0.01], "alpha": [0.5],
                                                                       "mode": ["a", "b"]}


@pytest.mark.parametrize("flags, message", [
    (["--sweep", "lr"], "--sweep expects KEY=V1,V2"),
    (["--sweep", "depth=1,2"], "recipe mlp has no parameter(s) ['depth']"),
    (["--sweep", "lr=0.1", "--set", "lr=0.2"], "recipe mlp has no parameter(s) ['lr']"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--address", "127.0.0.1:6379"], "--address needs --workers N or --sweep"),
])
def test_argument_errors(tmp_path, capsys, flags, message):
    assert main(["train", "mlp", "--out", str(tmp_path), *flags]) == 1
    assert message in capsys.readouterr().err
