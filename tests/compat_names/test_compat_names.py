"""edgelite's coverage of TensorFlow 2.21's tf.compat.v1 names, module by module, never falls below its floor.

floors.json is a ratchet: whoever adds names raises their module's floor, e.g. with
`PYTHONPATH=bindings:sdk python tests/compat_names/coverage.py --raise-floors`.
"""
from __future__ import annotations

import json
import math
import warnings

import pytest

from . import coverage

# The goal: at least this share of the names of these modules.
TARGET = 0.90
TARGET_MODULES = ["tf", "nn", "train", "math", "metrics", "summary", "sparse", "strings", "logging", "flags", "test"]


def _report(result: coverage.Coverage) -> str:
    return (f"{result.module}: {len(result.present)}/{len(result.present) + len(result.missing)} "
            f"({result.ratio:.1%}), {len(result.excluded)} excluded; missing: {', '.join(result.missing) or '-'}")


def test_exclusions_are_reasoned_table_names_that_edgelite_lacks():
    for module, entries in coverage.EXCLUSIONS.items():
        assert module in coverage.TABLE, f"exclusions.json: unknown module {module!r}"
        target = coverage.edgelite_module(module)
        for name, reason in entries.items():
            assert name in coverage.TABLE[module], f"exclusions.json: {module}.{name} is not a TensorFlow name"
            assert isinstance(reason, str) and reason.strip() and "\n" not in reason, \
                f"exclusions.json: {module}.{name} needs a one-line reason"
            assert target is None or not hasattr(target, name), \
                f"exclusions.json: {module}.{name} is implemented now; remove its exclusion"


def test_every_module_has_a_floor():
    assert sorted(coverage.FLOORS) == sorted(coverage.TABLE)


@pytest.mark.parametrize("module", sorted(coverage.TABLE))
def test_coverage_at_least_floor(module):
    result = coverage.measure(module)
    floor = coverage.FLOORS[module]
    print(_report(result))
    assert result.ratio + 1e-9 >= floor, (
        f"coverage of {module} fell to {result.ratio:.3f} below its floor {floor}: " + _report(result))
    if math.floor(result.ratio * 1000) / 1000 > floor:
        warnings.warn(f"run tests/compat_names/coverage.py --raise-floors: raise the floor of {module!r} from {floor} to "
                      f"{math.floor(result.ratio * 1000) / 1000} (coverage rose)", stacklevel=1)


def test_print_target_modules():
    lines = []
    for module in TARGET_MODULES:
        result = coverage.measure(module)
        mark = "ok" if result.ratio >= TARGET else f"below {TARGET:.0%}"
        lines.append(f"{mark:10s} {_report(result)}")
    print("\n".join(lines))
