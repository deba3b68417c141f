"""Without Ray installed, every distributed entry point raises one error naming the `distributed` extra."""
from __future__ import annotations

import sys

import pytest

from edgelite import distribute
from edgelite.cli.main import main
from edgelite.distribute import MISSING_RAY, recipe_training, sweep


@pytest.fixture
def no_ray(monkeypatch):
    # A None entry makes `import ray` raise ImportError, as on a Python without a Ray wheel.
    monkeypatch.setitem(sys.modules, "ray", None)


def test_message_names_the_extra():
    assert 'pip install "edgelite[distributed]"' in MISSING_RAY


@pytest.mark.parametrize("call", [
    lambda: distribute.run(lambda task: task, 2),
    lambda: distribute.train_recipe(recipe_training.RecipeRun("mlp", {}, "unused", 2, 1)),
    lambda: sweep.sweep("mlp", {"lr": [0.1]}, "unused"),
    lambda: distribute.require_ray(),
])
def test_entry_points_raise_import_error_naming_the_extra(no_ray, call):
    with pytest.raises(ImportError) as info:
        call()
    assert str(info.value) == MISSING_RAY


@pytest.mark.parametrize("flags", [["--workers", "2"], ["--sweep", "lr=0.1,0.01"]])
def test_cli_reports_the_extra(no_ray, tmp_path, capsys, flags):
    assert main(["train", "mlp", "--out", str(tmp_path), *flags]) != 0
    assert MISSING_RAY in capsys.readouterr().err
