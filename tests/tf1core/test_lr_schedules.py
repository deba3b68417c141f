"""TF1 learning-rate schedules give TensorFlow's float32 values at steps 0..200 (recorded from TF 2.21)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import tf1core_cases

_RECORDED = json.loads((Path(__file__).resolve().parent / "tf_fixtures.json").read_text())
FIXTURES = _RECORDED["schedules"]
FIXTURES_CONSTANT = _RECORDED["constant_step_schedules"]


def _values(name):
    with tf.Graph().as_default():
        step = tf.placeholder(tf.int64, [])
        rate = tf1core_cases.SCHEDULE_CASES[name](tf, step)
        with tf.Session() as sess:
            return np.array([sess.run(rate, {step: s}) for s in tf1core_cases.SCHEDULE_STEPS])


# TensorFlow's float32 Cos kernel (Eigen's own polynomial) is not correctly rounded: about 1% of arguments come
# out one ulp away from the C library's cosf, and 1 + cos(x) near cos(x) = -1 magnifies that to a few ulps.
COSINE_SCHEDULES = {"cosine", "cosine_alpha", "cosine_restarts", "cosine_restarts_mul", "linear_cosine",
                    "linear_cosine_beta"}


@pytest.mark.parametrize("name", sorted(tf1core_cases.SCHEDULE_CASES))
def test_schedule_matches_tensorflow(name):
    got = _values(name)
    want = np.array(FIXTURES[name], dtype=got.dtype)
    bad = np.flatnonzero(got != want)
    if name in COSINE_SCHEDULES:
        ulps = np.abs(got - want) / np.spacing(np.abs(want).astype(got.dtype))
        assert bad.size <= 3 and (ulps <= 4).all(), (
            f"{name}: {bad.size} steps differ, up to {ulps.max():.0f} ulp")
        return
    assert not bad.size, (f"{name}: {bad.size} steps differ, first at step {bad[0]}: "
                          f"{got[bad[0]]!r} vs TensorFlow {want[bad[0]]!r}")


def test_polynomial_cycle_at_a_multiple_of_decay_steps():
    # TensorFlow's optimizer computes step / 60 as step * float32(1/60), so ceil(180 / 60) = 4 and step 180
    # starts the 4th cycle (0.05) instead of ending the 3rd (0.0).
    with tf.Graph().as_default():
        step = tf.Variable(180, dtype=tf.int64)
        rate = tf.train.polynomial_decay(0.1, step, 60, 0.0, power=0.5, cycle=True)
        with tf.Session() as sess:
            sess.run(step.initializer)
            assert sess.run(rate) == np.float32(FIXTURES["polynomial_cycle"][180])


@pytest.mark.parametrize("name", tf1core_cases.CONSTANT_STEP_CASES)
def test_schedule_with_constant_step_matches_tensorflow(name):
    with tf.Graph().as_default():
        rates = [tf1core_cases.SCHEDULE_CASES[name](tf, step) for step in tf1core_cases.CONSTANT_STEPS]
        with tf.Session() as sess:
            got = np.array(sess.run(rates))
    want = np.array(FIXTURES_CONSTANT[name], dtype=got.dtype)
    if name in COSINE_SCHEDULES:
        np.testing.assert_array_max_ulp(got, want, maxulp=4)
    else:
        np.testing.assert_array_equal(got, want)
