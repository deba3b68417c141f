"""Write names.json: the public names TensorFlow 2.21's tf.compat.v1 exposes, per module.

Run by hand with the TensorFlow interpreter, from the repository root:
    /work/tfvenv/bin/python tests/compat_names/generate_names.py
"""
from __future__ import annotations

import json
import os
import types
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

# The modules TF1 scripts reach into; "" is the top level of tf.compat.v1.
MODULES = [
    "", "app", "bitwise", "compat", "data", "debugging", "dtypes", "errors", "feature_column", "flags", "gfile",
    "graph_util", "image", "initializers", "io", "io.gfile", "layers", "linalg", "lite", "logging", "losses",
    "math", "metrics", "nest", "nn", "nn.rnn_cell", "python_io", "random", "saved_model", "sets", "signal",
    "sparse", "strings", "summary", "sysconfig", "test", "train", "train.experimental", "user_ops", "version",
    "keras", "keras.activations", "keras.backend", "keras.callbacks", "keras.initializers", "keras.layers",
    "keras.losses", "keras.metrics", "keras.models", "keras.optimizers", "keras.regularizers", "keras.utils",
]


def public_names(module: types.ModuleType) -> list[str]:
    """The module's public attributes, as `dir` lists them for a user."""
    return sorted(name for name in dir(module) if not name.startswith("_"))


def main() -> None:
    import tensorflow as tf

    root = tf.compat.v1
    table = {}
    for dotted in MODULES:
        module = root
        for part in filter(None, dotted.split(".")):
            module = getattr(module, part)
        table[dotted or "tf"] = public_names(module)
    out = Path(__file__).resolve().parent / "names.json"
    out.write_text(json.dumps({"tensorflow": tf.__version__, "modules": table}, indent=0, sort_keys=True) + "\n")
    for name, names in table.items():
        print(f"{name:22s} {len(names)}")


if __name__ == "__main__":
    main()
