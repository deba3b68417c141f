"""Run the complete TF1 programs of this directory under edgelite or TensorFlow and read their RESULT line.

Shared by test_programs.py (CI, edgelite side) and record_tf_results.py (run by hand under TensorFlow).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

PROGRAMS_DIR = Path(__file__).resolve().parent
RESULTS_DIR = PROGRAMS_DIR / "tf_results"
EDGELITE_IMPORT = "import edgelite as tf"
TF_IMPORT = "import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()"
# TensorFlow 2.16+ ships no tf.estimator: programs using it get tensorflow-estimator 2.15 attached by the loader of
# tests/sdk_estimator/fixtures (see there how to install it).
ESTIMATOR_DIR = PROGRAMS_DIR.parent / "sdk_estimator" / "fixtures"
TF_ESTIMATOR = "; import tf_estimator_loader; tf.estimator = tf_estimator_loader.estimator_module()"
TOLERANCE_PREFIX = "# tolerance:"
RESULT_PREFIX = "RESULT "
# A guard against hangs, not a speed check: a program takes seconds alone but shares a loaded machine in CI.
TIMEOUT_S = 300


def discover() -> list[Path]:
    """Every program file: a .py here that is not part of the harness (test_*, record_*, _*)."""
    return sorted(p for p in PROGRAMS_DIR.glob("*.py")
                  if not p.name.startswith(("test_", "record_", "_", "conftest")))


def read_tolerance(path: Path) -> dict:
    """The absolute tolerance per metric stated in the program's `# tolerance: {...}` header line."""
    for line in path.read_text().splitlines():
        if line.startswith(TOLERANCE_PREFIX):
            return json.loads(line[len(TOLERANCE_PREFIX):])
    raise ValueError(f"{path.name}: no '{TOLERANCE_PREFIX} {{...}}' header line")


def tensorflow_source(text: str, name: str = "program") -> str:
    """The program with its single `import edgelite as tf` line swapped for TensorFlow's compat.v1 import."""
    lines = text.splitlines()
    hits = [i for i, line in enumerate(lines) if line.strip() == EDGELITE_IMPORT]
    if len(hits) != 1:
        raise ValueError(f"{name}: expected exactly one line '{EDGELITE_IMPORT}', found {len(hits)}")
    indent = lines[hits[0]][: len(lines[hits[0]]) - len(lines[hits[0]].lstrip())]
    lines[hits[0]] = indent + TF_IMPORT + (TF_ESTIMATOR if "tf.estimator." in text else "")
    return "\n".join(lines) + "\n"


def _package_roots() -> list[str]:
    """The directories holding the edgelite packages this process imports, so a child imports the same ones
    whether they come from an installed wheel or from the source tree (PYTHONPATH=bindings:sdk)."""
    roots: list[str] = []
    for module_name in ("edgelite", "edgelite_runtime"):
        try:
            module = __import__(module_name)
        except ImportError:
            continue
        root = str(Path(module.__file__).resolve().parent.parent)
        if root not in roots:
            roots.append(root)
    return roots


def child_env(extra_paths: Optional[list[str]] = None) -> dict:
    """The environment for a program run: this process's, plus PYTHONPATH entries for the packages in use."""
    env = dict(os.environ)
    paths = list(extra_paths or []) + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    env["TF_USE_LEGACY_KERAS"] = "1"
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    env.setdefault("CUDA_VISIBLE_DEVICES", "")
    return env


def run_source(source: str, name: str, python: str = sys.executable, env: Optional[dict] = None,
               timeout: float = TIMEOUT_S) -> dict:
    """Run one program text in a fresh temporary working directory; return the dict of its last RESULT line."""
    with tempfile.TemporaryDirectory(prefix=f"program-{name}-") as cwd:
        script = Path(cwd) / f"{name}.py"
        script.write_text(source)
        proc = subprocess.run([python, script.name], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=timeout)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines or not lines[-1].startswith(RESULT_PREFIX):
        raise RuntimeError(f"{name} exited with {proc.returncode}; last stdout line "
                           f"{lines[-1] if lines else '<none>'!r}\nstderr tail:\n{proc.stderr[-3000:]}")
    return json.loads(lines[-1][len(RESULT_PREFIX):])


def run_edgelite(path: Path) -> dict:
    """The program's RESULT under edgelite, importing the same edgelite as this process."""
    return run_source(path.read_text(), path.stem, env=child_env(_package_roots()))


def run_tensorflow(path: Path, python: str = sys.executable) -> dict:
    """The program's RESULT under TensorFlow's tf.compat.v1 (the interpreter given must have TensorFlow)."""
    return run_source(tensorflow_source(path.read_text(), path.stem), path.stem, python=python,
                      env=child_env([str(ESTIMATOR_DIR)]))


def mismatches(got: dict, expected: dict, tolerance: dict) -> list[str]:
    """Each metric of `expected` that `got` lacks or misses by more than its absolute tolerance (0 if unstated)."""
    problems = []
    for key, want in expected.items():
        if key not in got:
            problems.append(f"{key}: missing (expected {want!r})")
            continue
        have = got[key]
        if isinstance(want, (int, float)) and not isinstance(want, bool):
            tol = float(tolerance.get(key, 0.0))
            if not abs(float(have) - float(want)) <= tol:
                problems.append(f"{key}: {have!r} vs TensorFlow {want!r} (tolerance {tol})")
        elif have != want:
            problems.append(f"{key}: {have!r} vs TensorFlow {want!r}")
    return problems
