"""The environment for a child Python that must import the same edgelite as the test, installed or not."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, Optional

import edgelite
import edgelite_runtime


def child_env(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """This process's environment, with the directories the packages were imported from first on PYTHONPATH
    (so a child started in another directory finds the same edgelite, installed or from the source tree)."""
    env = {**os.environ, **(extra or {})}
    roots = [str(Path(m.__file__).resolve().parents[1]) for m in (edgelite, edgelite_runtime)]
    rest = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(roots + [str(Path(p).resolve()) for p in rest]))
    return env
