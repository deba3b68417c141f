"""tf.debugging.assert_shapes cases shared by the TensorFlow fixture generator and the edgelite test.

Each case is (name, build) with build(tf) -> (shapes, feed) where shapes is the list given to assert_shapes
(placeholders with unknown dims for the run-time checks) and feed maps those placeholders to values.
run_case records "ok", or the error type and the first line of its message (build or run time)."""
from __future__ import annotations

import numpy as np


def _ph(tf, shape):
    return tf.placeholder(tf.float32, shape=shape)


def _dyn(tf, shape, value_shape):
    p = _ph(tf, shape)
    return p, {p: np.zeros(value_shape, np.float32)}


def _two_dyn(tf, a_shape, b_shape, spec_a, spec_b):
    a, fa = _dyn(tf, [None] * len(a_shape), a_shape)
    b, fb = _dyn(tf, [None] * len(b_shape), b_shape)
    return [(a, spec_a), (b, spec_b)], {**fa, **fb}


CASES = [
    ("static_ok", lambda tf: ([(tf.zeros([4, 3]), ("N", "Q")), (tf.ones([4, 7]), ("N", "D")),
                               (tf.zeros([3]), ("Q",)), (tf.constant(1.0), ())], {})),
    ("static_symbol_mismatch", lambda tf: ([(tf.zeros([4, 3]), ("N", "Q")), (tf.ones([5, 7]), ("N", "D"))], {})),
    ("static_explicit_mismatch", lambda tf: ([(tf.zeros([4, 3]), (4, 2))], {})),
    ("static_rank_mismatch", lambda tf: ([(tf.zeros([4, 3]), ("N",))], {})),
    ("static_rank3_mismatch", lambda tf: ([(tf.zeros([4, 3]), ("N", "M", "K"))], {})),
    ("static_innermost_ok", lambda tf: ([(tf.zeros([2, 4, 3]), ("*", "Q")), (tf.zeros([3]), ("Q",))], {})),
    ("static_innermost_mismatch", lambda tf: ([(tf.zeros([2, 4, 3]), (Ellipsis, 4, "Q")), (tf.zeros([5]), ("Q",))],
                                              {})),
    ("static_any_size", lambda tf: ([(tf.zeros([2, 4]), (None, ".")), (tf.zeros([7, 4]), ("A", 4))], {})),
    ("static_scalar_as_one", lambda tf: ([(tf.constant(1.0), (2,))], {})),
    ("static_message", lambda tf: ([(tf.zeros([4, 3]), (4, 4))], {}), "shapes are off"),
    ("star_not_first", lambda tf: ([(tf.zeros([4, 3]), ("N", "*"))], {})),
    ("not_iterable", lambda tf: ([(tf.zeros([4, 3]), 5)], {})),
    ("dict_input", lambda tf: ({tf.zeros([4, 3]): ("N", "Q"), tf.zeros([5, 3]): ("M", "Q")}, {})),
    ("dynamic_ok", lambda tf: _two_dyn(tf, [4, 3], [4, 5], ("N", "Q"), ("N", "D"))),
    ("dynamic_symbol_mismatch", lambda tf: _two_dyn(tf, [4, 3], [6, 5], ("N", "Q"), ("N", "D"))),
    ("dynamic_explicit_mismatch", lambda tf: _two_dyn(tf, [4, 3], [4, 5], ("N", 3), ("N", 6))),
    ("dynamic_rank_mismatch", lambda tf: (lambda p: ([(p[0], ("A", "B"))], p[1]))(_dyn(tf, None, [2, 2, 2]))),
    ("dynamic_scalar_rank_in", lambda tf: (lambda p: ([(p[0], ("A",))], p[1]))(_dyn(tf, None, [])),),
    ("dynamic_unknown_rank_size", lambda tf: (lambda p: ([(p[0], ("*", 3))], p[1]))(_dyn(tf, None, [2, 4]))),
]


def run_case(tf, case: tuple) -> dict:
    """Build the check in a fresh graph and run it with the feed."""
    name, build = case[0], case[1]
    message = case[2] if len(case) > 2 else None
    with tf.Graph().as_default():
        try:
            shapes, feed = build(tf)
            check = tf.debugging.assert_shapes(shapes, message=message)
        except Exception as err:  # noqa: BLE001 - the error is the recorded result
            return {"stage": "build", "error": type(err).__name__, "message": str(err).split("\n")[0]}
        with tf.Session() as sess:
            try:
                sess.run(check, feed_dict=feed)
            except Exception as err:  # noqa: BLE001
                return {"stage": "run", "error": type(err).__name__, "message": _assertion_text(err)}
    return {"stage": "ok"}


def _assertion_text(err: Exception) -> str:
    """The Assert op's own text ("assertion failed: [...]"), without the node context TF adds around it."""
    text = getattr(err, "message", None) or str(err)
    start = text.find("assertion failed:")
    return text[start:].split("\n")[0].split("\t [[")[0].strip() if start >= 0 else text.split("\n")[0]
