"""Write names.json: the public names TensorFlow 2.21's tf.compat.v1 exposes, per module.

Run by hand with the TensorFlow interpreter, from the repository root (TF_ESTIMATOR_SITE: see
tests/sdk_estimator/fixtures/tf_estimator_loader.py):
    TF_ESTIMATOR_SITE=DIR /work/tfvenv/bin/python tests/compat_names/generate_names.py
"""
from __future__ import annotations

import json
import os
import types
from pathlib import Path
from typing import Optional

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


# tf.compat.v1.estimator left TensorFlow in 2.16; its names come from tensorflow-estimator 2.15 (the last release),
# attached by tests/sdk_estimator/fixtures/tf_estimator_loader.py when TF_ESTIMATOR_SITE is set.
ESTIMATOR_MODULES = ["estimator", "estimator.export", "estimator.inputs"]


def estimator_root() -> Optional[types.ModuleType]:
    """tensorflow-estimator's v1 API module (its TPU submodule, which TF 2.21 cannot import, left empty)."""
    if not os.environ.get("TF_ESTIMATOR_SITE"):
        return None
    import importlib
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sdk_estimator" / "fixtures"))
    import tf_estimator_loader

    tf_estimator_loader.load()
    for name in ("tensorflow_estimator._api.v1.estimator.tpu",
                 "tensorflow_estimator._api.v1.estimator.tpu.experimental"):
        sys.modules[name] = types.ModuleType(name)
    return importlib.import_module("tensorflow_estimator._api.v1.estimator")


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
    estimator = estimator_root()
    if estimator is None:
        print("TF_ESTIMATOR_SITE not set: the estimator modules are left out")
    for dotted in ESTIMATOR_MODULES if estimator is not None else []:
        module = estimator
        for part in dotted.split(".")[1:]:
            module = getattr(module, part)
        table[dotted] = public_names(module)
    out = Path(__file__).resolve().parent / "names.json"
    out.write_text(json.dumps({"tensorflow": tf.__version__, "modules": table}, indent=0, sort_keys=True) + "\n")
    for name, names in table.items():
        print(f"{name:22s} {len(names)}")


if __name__ == "__main__":
    main()
