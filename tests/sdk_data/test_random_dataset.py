"""Dataset.random / experimental.RandomDataset and shuffle_and_repeat give TensorFlow's seeded values and orders
(fixtures/tf_shuffle_queues.json)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf
from . import random_dataset_cases as cases, result_codec

RECORDED = json.loads((Path(__file__).resolve().parent / "fixtures" / "tf_shuffle_queues.json").read_text())


@pytest.mark.parametrize("name,fn", cases.DATASET_CASES, ids=[c[0] for c in cases.DATASET_CASES])
def test_datasets_match_tensorflow(name, fn):
    assert result_codec.run_dataset(tf, fn) == RECORDED["datasets"][name]


@pytest.mark.parametrize("name,fn", cases.REINITIALIZED_CASES, ids=[c[0] for c in cases.REINITIALIZED_CASES])
def test_reinitialized_iterators_match_tensorflow(name, fn):
    assert cases.run_reinitialized(tf, fn) == RECORDED["reinitialized"][name]


def test_unseeded_random_differs_between_iterators():
    def draw():
        with tf.Graph().as_default():
            nxt = tf.data.make_one_shot_iterator(tf.data.Dataset.random().take(4)).get_next()
            with tf.Session() as sess:
                return [int(sess.run(nxt)) for _ in range(4)]
    a, b = draw(), draw()
    assert a != b and all(0 <= v < 2 ** 32 for v in a + b)
