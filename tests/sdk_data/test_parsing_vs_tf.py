"""parse_example and friends against TensorFlow's recorded results and error texts (tf_data.json)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf
from . import data_cases, result_codec

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RUNS = json.loads((FIXTURES / "tf_data.json").read_text())["runs"]


def run_case(fn) -> dict:
    """The same recording run_case of the generator does under TensorFlow."""
    g = tf.Graph()
    with g.as_default():
        try:
            fetches = fn(tf)
        except Exception as e:  # noqa: BLE001 - compared with TensorFlow's build-time error
            return {"build_error": type(e).__name__, "message": str(e)}
        with tf.Session(graph=g) as sess:
            try:
                return {"value": result_codec.encode(sess.run(fetches))}
            except tf.errors.OpError as e:
                return {"error": type(e).__name__, "message": e.message}


CASES = data_cases.RUN_CASES + data_cases.DECODE_CASES


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_matches_tensorflow(name, fn):
    assert run_case(fn) == RUNS[name]
