"""Runs a ragged case (a fetch, or a (fetch, feed_dict) pair) in a fresh graph and records its static
description, its value or its error, for both the TensorFlow fixture generator and the edgelite tests."""
from __future__ import annotations

import re

from . import result_codec


def describe(tf, x):
    """Static facts of a fetch: shape, dtype and, for a RaggedTensor, ragged_rank and the row_splits dtype."""
    if isinstance(x, dict):
        return {k: describe(tf, v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [describe(tf, v) for v in x]
    shape = x.shape.as_list() if x.shape.ndims is not None else None
    composite = isinstance(x, (tf.RaggedTensor, tf.SparseTensor))
    out = {"shape": shape, "dtype": x.dtype.name, "kind": type(x).__name__ if composite else "Tensor"}
    if isinstance(x, tf.RaggedTensor):
        out.update(ragged_rank=x.ragged_rank, splits=x.row_splits.dtype.name)
    return out


def run(tf, fn) -> dict:
    """{"static", "value"} or {"static", "error", "message"} or {"build_error", "message"}."""
    g = tf.Graph()
    with g.as_default():
        try:
            out = fn(tf)
        except Exception as e:  # noqa: BLE001 - the build-time error is the recorded result
            return {"build_error": type(e).__name__, "message": str(e)}
        fetch, feed = out if isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], dict) else (out, None)
        static = describe(tf, fetch)
        with tf.Session(graph=g) as sess:
            try:
                return {"static": static, "value": result_codec.encode(sess.run(fetch, feed))}
            except tf.errors.OpError as e:
                return {"static": static, "error": type(e).__name__, "message": result_codec.error_core(e.message)}


def mask_names(message: str) -> str:
    """A message without what depends on each library's graph internals: tensor names in assertions (scopes
    nest differently), the node detail TensorFlow's shape inference appends, module paths of classes and TF's
    graph-tensor class name."""
    message = re.sub(r"\(([\w./-]+:\d+)\)", "(<tensor>)", message)
    message = re.sub(r" for '\{\{node .*", "", message, flags=re.S)
    message = re.sub(r"<class '[\w.]+\.(\w+)'>", r"<class '\1'>", message)
    return message.replace("SymbolicTensor", "Tensor")
