"""Record each program's RESULT under real TensorFlow into tf_results/<name>.json.

Run by hand with the TensorFlow interpreter, from the repository root:
    /work/tfvenv/bin/python tests/programs/record_tf_results.py [name ...]   # no names: every program
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness  # noqa: E402


def main(names: list[str]) -> None:
    import tensorflow as tf

    paths = _harness.discover()
    if names:
        known = {p.stem: p for p in paths}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SystemExit(f"unknown programs: {unknown}")
        paths = [known[n] for n in names]
    _harness.RESULTS_DIR.mkdir(exist_ok=True)
    for path in paths:
        result = _harness.run_tensorflow(path)
        record = {"tensorflow": tf.__version__, "result": result}
        (_harness.RESULTS_DIR / f"{path.stem}.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        print(f"{path.stem}: {result}")


if __name__ == "__main__":
    main(sys.argv[1:])
