"""edgelite's ops against TensorFlow 2.21's recorded values, static shapes, dtypes, gradients and errors."""
from __future__ import annotations

import pytest

import edgelite as tf
from . import cases
from .tf_fixtures import check_error_case, check_value_case, meta, value_params


@pytest.mark.parametrize("case,dtype", value_params(cases.VALUE_CASES))
def test_matches_tensorflow(case, dtype):
    check_value_case(case, dtype)


@pytest.mark.parametrize("name,build", sorted(cases.error_cases(tf).items()))
def test_error_matches_tensorflow(name, build):
    check_error_case(name, build)


@pytest.mark.parametrize("name,build", sorted(cases.name_cases(tf).items()))
def test_names_match_tensorflow(name, build):
    with tf.Graph().as_default():
        assert [str(x) for x in build()] == meta()["names"][name]


@pytest.mark.parametrize("name,build", sorted(cases.print_cases(tf).items()))
def test_printed_text_matches_tensorflow(name, build, capsys):
    with tf.Graph().as_default():
        fetches = build()
        with tf.Session() as sess:
            capsys.readouterr()
            for _ in range(3):
                sess.run(fetches)
    got = capsys.readouterr()
    want = meta()["printed"][name]
    assert (got.out, got.err) == (want["stdout"], want["stderr"])


def test_every_case_was_recorded():
    recorded = meta()
    assert {f"{c[0]}|{dt}" for c in cases.VALUE_CASES for dt in c[3]} <= set(recorded["values"])
    assert set(cases.error_cases(tf)) <= set(recorded["errors"])
    assert set(cases.name_cases(tf)) <= set(recorded["names"])
