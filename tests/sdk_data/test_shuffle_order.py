"""Seeded shuffles give TensorFlow's orders (its Philox sequence and shuffle buffer), epoch after epoch."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf
from edgelite.data.philox import PhiloxSamples
from . import result_codec, shuffle_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MORE = json.loads((FIXTURES / "tf_more.json").read_text())


@pytest.mark.parametrize("name,fn", shuffle_cases.DATASET_CASES, ids=[c[0] for c in shuffle_cases.DATASET_CASES])
def test_matches_tensorflow(name, fn, monkeypatch):
    monkeypatch.chdir(FIXTURES)
    with tf.Graph().as_default():
        assert result_codec.run_dataset(tf, fn) == MORE["datasets"][name]


def test_philox_known_answer():
    # Philox4x32-10 known-answer vector of the Random123 distribution (counter and key all ones).
    g = PhiloxSamples(0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF)
    g._counter = [0xFFFFFFFF] * 4
    assert [g() for _ in range(4)] == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]


def test_unseeded_shuffles_differ_between_iterators():
    def order():
        with tf.Graph().as_default():
            nxt = tf.data.make_one_shot_iterator(tf.data.Dataset.range(50).shuffle(50)).get_next()
            with tf.Session() as sess:
                return [int(sess.run(nxt)) for _ in range(50)]
    a, b = order(), order()
    assert sorted(a) == sorted(b) == list(range(50)) and a != b
