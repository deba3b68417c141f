"""Turns Session.run results (arrays, bytes, SparseTensorValues, nested dicts/lists) into JSON-able data."""
from __future__ import annotations

import re

import numpy as np


def encode(value):
    """JSON-able form of a fetched value; bytes are kept as latin-1 text so nothing is lost."""
    if isinstance(value, dict):
        return {"dict": {str(k): encode(v) for k, v in sorted(value.items())}}
    if hasattr(value, "nested_row_splits") and hasattr(value, "flat_values"):
        return {"ragged": [encode(value.flat_values), [encode(s) for s in value.nested_row_splits]]}
    if hasattr(value, "indices") and hasattr(value, "dense_shape") and hasattr(value, "values"):
        return {"sparse": [encode(value.indices), encode(value.values), encode(value.dense_shape)]}
    if isinstance(value, (list, tuple)):
        return {"list": [encode(v) for v in value]}
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind == "S":
        flat = [v.decode("latin-1") if isinstance(v, bytes) else str(v) for v in arr.ravel().tolist()]
        return {"dtype": "string", "shape": list(arr.shape), "values": flat}
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "values": arr.ravel().tolist()}


def error_core(message: str) -> str:
    """The kernel's own text out of a TensorFlow run-time error message (without node and trace decoration)."""
    m = re.search(r"\nNode: '[^']*'\n(.*?)\n\t \[\[", message, re.S)
    if m:
        return m.group(1)
    text = message.split("\n\t [[")[0]
    return text[len("Graph execution error:\n\n"):] if text.startswith("Graph execution error:\n\n") else text


def run_steps(tf, fn) -> list:
    """Run each step of a queue case in one session: a fetch, or a (fetch, feed_dict) pair; record results."""
    out = []
    g = tf.Graph()
    with g.as_default():
        steps = fn(tf)
        with tf.Session(graph=g) as sess:
            for step in steps:
                fetch, feed = step if isinstance(step, tuple) else (step, None)
                try:
                    value = sess.run(fetch, feed)
                    out.append({"value": None if value is None else encode(value)})
                except tf.errors.OpError as e:
                    out.append({"error": type(e).__name__, "message": error_core(e.message)})
    return out


def run_pipeline(tf, fn, limit: int = 100) -> dict:
    """Run a queue-fed fetch until OutOfRangeError (with queue runners and a coordinator); record every result."""
    g = tf.Graph()
    with g.as_default():
        fetch = fn(tf)
        results = []
        with tf.Session(graph=g) as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            end = None
            try:
                for _ in range(limit):
                    results.append(encode(sess.run(fetch)))
            except tf.errors.OutOfRangeError as e:
                end = type(e).__name__
            coord.request_stop()
            coord.join(threads)
    return {"results": results, "end": end}


def run_dataset(tf, fn, limit: int = 100) -> dict:
    """Static types/shapes of a dataset and every element of one pass through a one-shot iterator."""
    g = tf.Graph()
    with g.as_default():
        ds = fn(tf)
        info = {"types": repr(tf.nest.flatten(ds.output_types)) if hasattr(tf, "nest") else None,
                "shapes": [str(s) for s in _flat_shapes(ds.output_shapes)]}
        nxt = tf.data.make_one_shot_iterator(ds).get_next()
        results = []
        with tf.Session(graph=g) as sess:
            try:
                for _ in range(limit):
                    results.append(encode(sess.run(nxt)))
                info["end"] = None
            except tf.errors.OutOfRangeError as e:
                info["end"] = [type(e).__name__, error_core(e.message)]
            except tf.errors.OpError as e:
                info["end"] = [type(e).__name__, error_core(e.message)]
    info["results"] = results
    return info


def _flat_shapes(shapes) -> list:
    if isinstance(shapes, dict):
        return [s for k in sorted(shapes) for s in _flat_shapes(shapes[k])]
    if isinstance(shapes, tuple):
        return [s for x in shapes for s in _flat_shapes(x)]
    return [shapes.as_list() if shapes.ndims is not None else None]
