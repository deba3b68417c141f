"""TF1 constructs found broken by running public TF1 example scripts, as cases shared by the TensorFlow fixture
generator (fixtures/generate_surface_fixtures.py, run by hand under TensorFlow) and the edgelite test.

Each case is fn(tf) -> dict of name -> numpy value (run results, static shapes as lists with -1 for unknown
dimensions, or "<unknown>" for an unknown rank). Error cases return {"error": "<Type>: <message>"}.
"""
from __future__ import annotations

import numpy as np


def _static(t) -> object:
    """A tensor's static shape as a list with -1 for unknown dimensions, or the string '<unknown>'."""
    if t.shape.ndims is None:
        return "<unknown>"
    return [-1 if d is None else int(d) for d in t.shape.as_list()]


def _run(tf, fetches, feed):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _data(seed: int, *shape: int) -> np.ndarray:
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape).astype(np.float32)


def tensordot_dynamic_batch(tf):
    """A dense-layer style contraction over the last axis of [batch, time, features] with unknown batch/time."""
    a = tf.placeholder(tf.float32, [None, None, 5])
    b = tf.placeholder(tf.float32, [5, 3])
    out = tf.tensordot(a, b, [[2], [0]])
    ga, gb = tf.gradients(tf.reduce_sum(out * out), [a, b])
    av, bv = _data(1, 4, 2, 5), _data(2, 5, 3)
    vals = _run(tf, [out, ga, gb], {a: av, b: bv})
    return {"out": vals[0], "grad_a": vals[1], "grad_b": vals[2], "static": _static(out)}


def tensordot_unknown_rank_int_axes(tf):
    """Integer axes against an operand of unknown rank: contracted dims read at run time."""
    a = tf.placeholder(tf.float32)
    b = tf.placeholder(tf.float32, [4, 2])
    out = tf.tensordot(a, b, 1)
    return {"out": _run(tf, out, {a: _data(3, 3, 4), b: _data(4, 4, 2)}), "static": _static(out)}


def tensordot_multi_axes_partial(tf):
    """Two contracted axes, out of order, against a partly known shape: free dims keep their static sizes."""
    a = tf.placeholder(tf.float32, [None, 3, 4])
    b = tf.placeholder(tf.float32, [4, 2, 3])
    out = tf.tensordot(a, b, [[2, 1], [0, 2]])
    return {"out": _run(tf, out, {a: _data(5, 2, 3, 4), b: _data(6, 4, 2, 3)}), "static": _static(out)}


def tensordot_static_int_axes(tf):
    """Fully known shapes with integer axes (the factorization-machine pattern uses [[1], [0]])."""
    a = tf.constant(_data(7, 2, 3, 4))
    b = tf.constant(_data(8, 3, 4, 5))
    out2, out0 = tf.tensordot(a, b, 2), tf.tensordot(a, b, 0)
    v = _run(tf, [out2, out0], None)
    return {"out2": v[0], "out0": v[1], "static2": _static(out2), "static0": _static(out0)}


def _error(fn) -> dict:
    try:
        fn()
    except (ValueError, TypeError, IndexError) as e:
        return {"error": f"{type(e).__name__}: {e}"}
    return {"error": "none"}


def tensordot_negative_axes_error(tf):
    return _error(lambda: tf.tensordot(tf.zeros([2, 3]), tf.zeros([3, 4]), -1))


def tensordot_too_many_axes_error(tf):
    return _error(lambda: tf.tensordot(tf.zeros([2, 3]), tf.zeros([3, 4]), 3))


def tensordot_axes_count_error(tf):
    return _error(lambda: tf.tensordot(tf.zeros([2, 3]), tf.zeros([3, 4]), [[0, 1], [0]]))


def xent_axis_moved(tf):
    """softmax_cross_entropy_with_logits_v2 along a middle axis of a rank-4 tensor: the class axis is moved to
    the end, so the result keeps the other axes in order."""
    lg, lb = _data(9, 2, 3, 4, 5), np.abs(_data(10, 2, 3, 4, 5))
    out = {}
    for axis in (1, 2):
        t = tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.constant(lb), logits=tf.constant(lg), axis=axis)
        out[f"axis{axis}"] = _run(tf, t, None)
        out[f"static{axis}"] = _static(t)
    return out


def xent_unknown_rank(tf):
    """Placeholders without a shape (tf.placeholder(tf.float32)) as logits and labels, default and middle axis."""
    a, b = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
    last = tf.nn.softmax_cross_entropy_with_logits_v2(labels=b, logits=a)
    mid = tf.nn.softmax_cross_entropy_with_logits_v2(labels=b, logits=a, axis=1)
    v1 = tf.nn.softmax_cross_entropy_with_logits(labels=b, logits=a)
    lg, lb = _data(11, 2, 3, 4), np.abs(_data(12, 2, 3, 4))
    vals = _run(tf, [last, mid, v1], {a: lg, b: lb})
    return {"last": vals[0], "mid": vals[1], "v1": vals[2], "static": _static(last)}


def _error_reason(fn) -> str:
    """The error's type and reason, without the node description (whose format differs between TF versions)."""
    try:
        fn()
    except (ValueError, TypeError) as e:
        return f"{type(e).__name__}: {str(e).split(' for ')[0]}"
    return "none"


def xent_labels_own_shape(tf):
    """The zoo-classifier pattern: one_hot of a [N, 1] float label column gives [N, 1, C] labels against [None, C]
    logits; TF flattens each side to [-1, C] on its own (no shape match required), and the op also broadcasts a
    [1, C] side. Rows that differ are a build-time error."""
    y = np.array([[1.0], [3.0], [0.0]], np.float32)
    labels = tf.one_hot(y, 4)
    logits = tf.placeholder(tf.float32, [None, 4])
    v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    v1 = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    grad = tf.gradients(tf.reduce_sum(v2), logits)[0]
    row = tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.constant([[0.25, 0.25, 0.5, 0.0]]), logits=logits)
    lg = _data(13, 3, 4)
    vals = _run(tf, [v2, v1, grad, row], {logits: lg})
    return {"v2": vals[0], "v1": vals[1], "grad": vals[2], "row": vals[3], "one_hot": _static(labels),
            "static": [_static(v2), _static(v1), _static(row)],
            "rows_differ": _error_reason(lambda: tf.nn.softmax_cross_entropy_with_logits_v2(
                labels=tf.zeros([3, 4]), logits=tf.zeros([2, 4]))),
            "flattened_rows_differ": _error_reason(lambda: tf.nn.softmax_cross_entropy_with_logits_v2(
                labels=tf.zeros([2, 1, 4]), logits=tf.zeros([1, 3, 4])))}


def xent_labels_cast_to_logits_dtype(tf):
    """The dataset-API pattern: MNIST's float64 one-hot labels sliced into a dataset against float32 logits; TF
    casts the labels to the logits' dtype, so the loss (and its gradient) are float32."""
    labels = tf.placeholder(tf.float64, [None, 4])
    logits = tf.placeholder(tf.float32, [None, 4])
    v1 = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    grad = tf.gradients(tf.reduce_sum(v1), logits)[0]
    lb = np.eye(4)[[2, 0, 3]]
    vals = _run(tf, [v1, v2, grad], {labels: lb, logits: _data(14, 3, 4)})
    return {"v1": vals[0], "v2": vals[1], "grad": vals[2], "dtypes": [v1.dtype.name, v2.dtype.name, grad.dtype.name]}


def gather_string_scalar_index(tf):
    """A scalar index into a vector of file names (slice_input_producer's pattern) feeding tf.read_file, as in
    the image-folder dataset examples."""
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, text in enumerate([b"first file", b"second file"]):
            paths.append(os.path.join(tmp, f"f{i}.txt"))
            with open(paths[-1], "wb") as f:
                f.write(text)
        picked = tf.gather(tf.constant(paths), tf.constant(1))
        contents = tf.read_file(picked)
        joined = tf.string_join([contents, tf.constant(b"!")])
        vals = _run(tf, [contents, joined, tf.strings.length(contents)], None)
    return {"contents": np.array(vals[0], dtype=object), "joined": np.array(vals[1], dtype=object),
            "length": np.asarray(vals[2]), "static": _static(picked)}


def session_scalar_fetch_types(tf):
    """Session.run hands back a computed 0-d value as a numpy scalar (np.float32, np.int64, np.bool_, bytes) and a
    fetched feed as the array it was fed, which is what printing a list or dict of results shows."""
    x = tf.placeholder(tf.float32, [])
    v = tf.Variable(3, dtype=tf.int64)
    fetches = [x, x + 1.0, v, tf.constant(True), tf.constant(3, tf.uint8), tf.constant("ab"), tf.reduce_mean([1.0, 2.0]),
               tf.constant([1.0, 2.0])]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run(fetches, {x: 2.0})
        as_dict = sess.run({"a": x + 1.0}, {x: 2.0})
        evaluated = (x * 2.0).eval(session=sess, feed_dict={x: 1.5})
    return {"types": [type(r).__name__ for r in values] + [type(as_dict["a"]).__name__, type(evaluated).__name__],
            "reprs": [repr(r) for r in values[1:5]]}


def tensor_text_unknown_rank(tf):
    """print(tensor) as scripts show it: str() leaves the shape out when the rank is unknown, repr() does not."""
    u = tf.placeholder(tf.float32, name="u")
    c = tf.constant([[1, 2, 3], [4, 5, 6]], name="c")
    ident = tf.identity(u, name="ident")
    return {"str_unknown": str(u), "repr_unknown": repr(u), "str_op_unknown": str(ident), "str_known": str(c),
            "repr_known": repr(c)}


def shape_text_unknown_dims(tf):
    """print(x.shape) and str/repr of tensors and shapes in TF1 graph mode: an unknown dimension prints as '?' and
    a TensorShape's repr lists Dimension objects; as_list() keeps None."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    v = tf.Variable(tf.zeros([2, 3]), name="v")
    shapes = [x.shape, x.shape[1:], tf.TensorShape([None]), tf.TensorShape([]), tf.TensorShape(None),
              tf.TensorShape([3, None, 2])]
    return {"str_shapes": [str(s) for s in shapes], "repr_shapes": [repr(s) for s in shapes],
            "format": "%s {} {!r}".format(x.shape, x.shape) % (x.get_shape(),), "str_x": str(x), "repr_x": repr(x),
            "dims": [str(x.shape[0]), repr(x.shape[0]), str(x.shape[1]), repr(x.shape.dims)],
            "as_list": [-1 if d is None else d for d in x.shape.as_list()], "str_v": str(v)}


def second_minimize_same_scope(tf):
    """minimize() of a second loss by the same or a new optimizer in one name scope (and in a variable scope):
    TF builds it, uniquifying the op and slot names (train/Adam_1, w/Adam_2, train/beta1_power_1)."""
    w = tf.get_variable("w", [2], initializer=tf.ones_initializer())
    with tf.name_scope("train"):
        opt = tf.train.AdamOptimizer(0.1)
        ops_ = [opt.minimize(tf.reduce_sum(w * w)), opt.minimize(tf.reduce_sum(w * 3.0)),
                tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(w))]
    with tf.variable_scope("vs"):
        ops_ += [tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(w)),
                 tf.train.MomentumOptimizer(0.1, 0.9).minimize(tf.reduce_sum(w * 2.0))]
    return {"ops": [op.name for op in ops_], "variables": sorted(v.op.name for v in tf.global_variables())}


CASES = [tensordot_dynamic_batch, tensordot_unknown_rank_int_axes, tensordot_multi_axes_partial,
         tensordot_static_int_axes, tensordot_negative_axes_error, tensordot_too_many_axes_error,
         tensordot_axes_count_error, xent_axis_moved, xent_unknown_rank, gather_string_scalar_index,
         session_scalar_fetch_types, tensor_text_unknown_rank, shape_text_unknown_dims,
         second_minimize_same_scope, xent_labels_own_shape,
         xent_labels_cast_to_logits_dtype]
