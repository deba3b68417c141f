"""Measure how much of TensorFlow's tf.compat.v1 name table edgelite exposes, module by module."""
from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import edgelite

HERE = Path(__file__).resolve().parent
TABLE = json.loads((HERE / "names.json").read_text())["modules"]
EXCLUSIONS = json.loads((HERE / "exclusions.json").read_text())
FLOORS = json.loads((HERE / "floors.json").read_text())


def edgelite_module(dotted: str) -> Optional[object]:
    """edgelite's counterpart of tf.compat.v1.<dotted> ("tf" is the top level), or None if it has none."""
    module: object = edgelite
    if dotted == "tf":
        return module
    for part in dotted.split("."):
        module = getattr(module, part, None)
        if module is None:
            return None
    return module


@dataclass
class Coverage:
    module: str
    present: list
    missing: list
    excluded: list

    @property
    def ratio(self) -> float:
        """Implemented names over the names not excluded."""
        counted = len(self.present) + len(self.missing)
        return len(self.present) / counted if counted else 1.0


def measure(dotted: str) -> Coverage:
    """Which of the module's TensorFlow names edgelite has, lacks, or excludes for a stated reason."""
    module = edgelite_module(dotted)
    excluded = EXCLUSIONS.get(dotted, {})
    present, missing, skipped = [], [], []
    for name in TABLE[dotted]:
        if module is not None and hasattr(module, name):
            present.append(name)
        elif name in excluded:
            skipped.append(name)
        else:
            missing.append(name)
    return Coverage(dotted, present, missing, skipped)



def raised_floors() -> dict:
    """Each module's floor lifted to its current coverage (rounded down to 0.001); never lowered."""
    return {m: max(FLOORS.get(m, 0.0), math.floor(measure(m).ratio * 1000) / 1000) for m in sorted(TABLE)}


if __name__ == "__main__":
    # python tests/compat_names/coverage.py [--raise-floors]: print the table; optionally ratchet floors.json
    for dotted in sorted(TABLE):
        result = measure(dotted)
        print(f"{dotted:20s} {len(result.present):4d}/{len(result.present) + len(result.missing):<4d} "
              f"{result.ratio:6.1%}  floor {FLOORS.get(dotted, 0):.3f}  missing: {' '.join(result.missing)}")
    if "--raise-floors" in sys.argv[1:]:
        (HERE / "floors.json").write_text(json.dumps(raised_floors(), indent=1, sort_keys=True) + "\n")
