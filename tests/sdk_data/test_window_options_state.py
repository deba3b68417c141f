"""Dataset.window, tf.data.Options/with_options and reader serialize_state/restore_state against TensorFlow."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import edgelite as tf
from . import result_codec, window_options_cases as cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MORE = json.loads((FIXTURES / "tf_more.json").read_text())


@pytest.mark.parametrize("name,fn", cases.DATASET_CASES, ids=[c[0] for c in cases.DATASET_CASES])
def test_datasets_match_tensorflow(name, fn):
    assert result_codec.run_dataset(tf, fn) == MORE["datasets"][name]


@pytest.mark.parametrize("name,fn", cases.CALL_CASES, ids=[c[0] for c in cases.CALL_CASES])
def test_calls_match_tensorflow(name, fn):
    with tf.Graph().as_default():
        assert json.loads(json.dumps(fn(tf))) == MORE["calls"][name]


@pytest.mark.parametrize("name,fn", cases.QUEUE_CASES, ids=[c[0] for c in cases.QUEUE_CASES])
def test_reader_state_matches_tensorflow(name, fn, monkeypatch):
    monkeypatch.chdir(FIXTURES)

    def marker_free(steps):
        # The protobuf library puts a marker of its own choosing (it varies between runs) before debug text.
        return [dict(s, message=re.sub(r"goo\.gle/debug\w+ *\n", "", s["message"])) if "message" in s else s
                for s in steps]
    assert marker_free(result_codec.run_steps(tf, fn)) == marker_free(MORE["queues"][name])


def test_restored_identity_reader_counts_on_from_the_saved_state():
    q = tf.FIFOQueue(10, tf.string, shapes=[[]])
    r = tf.IdentityReader()
    k, _ = r.read(q)
    with tf.Session() as sess:
        sess.run(q.enqueue_many([["a", "b", "c"]]))
        sess.run(k)
        saved = sess.run(r.serialize_state())
        sess.run([k, k])
        sess.run(r.restore_state(saved))
        assert sess.run([r.num_records_produced(), r.num_work_units_completed()]) == [1, 1]


def test_window_get_next_is_refused_and_options_are_read_only():
    ds = tf.data.Dataset.range(4).window(2)
    with pytest.raises(TypeError, match="flat_map or interleave"):
        tf.data.make_one_shot_iterator(ds).get_next()
    assert ds.options() == tf.data.Options()
