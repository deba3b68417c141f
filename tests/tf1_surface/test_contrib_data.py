"""tf.contrib.data (TF 1.4 names): both forms of contrib_data_cases equal TensorFlow 2.21's core pipelines, map's
old num_threads / output_buffer_size keywords, and a TF 1.4 script's use of the names."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import contrib_data_cases
from .test_surface_fixtures import _expected

FIXTURES = json.loads((Path(__file__).resolve().parent / "fixtures" / "contrib_data_fixtures.json").read_text())


@pytest.mark.parametrize("form", ["contrib", "core"])
@pytest.mark.parametrize("case", contrib_data_cases.CASES, ids=lambda c: c.__name__)
def test_matches_tensorflow_core_pipeline(case, form):
    with tf.Graph().as_default():
        got = case(tf, tf.contrib.data if form == "contrib" else None)
    want = FIXTURES[case.__name__]
    assert sorted(got) == sorted(want)
    for key, entry in want.items():
        expected = _expected(entry)
        if isinstance(expected, np.ndarray) and expected.dtype != object:
            np.testing.assert_allclose(np.asarray(got[key]), expected, rtol=1e-6, err_msg=key)
            assert np.asarray(got[key]).shape == expected.shape, key
            assert np.asarray(got[key]).dtype == expected.dtype, key
        elif isinstance(expected, np.ndarray):
            assert np.asarray(got[key], dtype=object).tolist() == expected.tolist(), key
        else:
            assert got[key] == expected, key


def _values(ds) -> list:
    return contrib_data_cases.elements(tf, ds)


def test_script_style_text_pipeline(tmp_path):
    """TF 1.4 tutorial form: contrib TextLineDataset, skip the header, map with the old keywords, one-shot iterator."""
    path = tmp_path / "iris.csv"
    path.write_text("sepal,label\n5.1,0\n4.9,2\n6.3,1\n")

    def parse(line):
        feature, label = tf.decode_csv(line, [[0.0], [0]])
        return {"sepal": feature}, label

    with tf.Graph().as_default():
        dataset = tf.contrib.data.TextLineDataset(str(path)).skip(1).map(parse, num_threads=4,
                                                                         output_buffer_size=100)
        dataset = dataset.shuffle(10, seed=1).repeat(2).batch(2)
        assert isinstance(dataset, tf.contrib.data.Dataset)
        rows = _values(dataset)
    sepal = np.concatenate([r[0]["sepal"] for r in rows])
    label = np.concatenate([r[1] for r in rows])
    assert sorted(zip(sepal.tolist(), label.tolist())) == sorted([(np.float32(5.1), 0), (np.float32(4.9), 2),
                                                                   (np.float32(6.3), 1)] * 2)


def test_map_keywords_are_the_core_map_and_prefetch():
    """num_threads gives the elements of map(num_parallel_calls=...), output_buffer_size those of a prefetch after
    it: the same values in the same order as the plain map."""
    with tf.Graph().as_default():
        base = tf.contrib.data.Dataset.range(20)
        plain = _values(base.map(lambda v: v * v))
        assert _values(base.map(lambda v: v * v, num_threads=3)) == plain
        assert _values(base.map(lambda v: v * v, output_buffer_size=4)) == plain
        assert _values(base.map(lambda v: v * v, num_parallel_calls=2, output_buffer_size=1)) == plain


def test_map_num_threads_checked_as_num_parallel_calls():
    with tf.Graph().as_default():
        ds = tf.contrib.data.Dataset.range(3).map(lambda v: v, num_threads=0)
        with pytest.raises(tf.errors.InvalidArgumentError, match="num_parallel_calls"):
            _values(ds)


def test_map_refuses_both_thread_keywords():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="num_threads.*num_parallel_calls"):
            tf.contrib.data.Dataset.range(3).map(lambda v: v, num_threads=2, num_parallel_calls=2)


def test_contrib_dataset_wraps_a_core_dataset():
    """TF 1.4's contrib Dataset(dataset) constructor; every transformation keeps the contrib type."""
    with tf.Graph().as_default():
        ds = tf.contrib.data.Dataset(tf.data.Dataset.range(4))
        chained = ds.filter(lambda v: v > 0).apply(tf.contrib.data.batch_and_drop_remainder(2))
        assert isinstance(chained, tf.contrib.data.Dataset)
        assert chained.output_shapes.as_list() == [2]
        assert [v.tolist() for v in _values(chained)] == [[1, 2]]
        with pytest.raises(TypeError, match="wraps a Dataset"):
            tf.contrib.data.Dataset([1, 2])
    assert tf.contrib.data.Iterator is tf.data.Iterator


def test_placeholder_fed_initializable_iterator():
    """The TF 1.3 tutorial form: contrib from_tensor_slices over placeholders, batch, an initializable iterator fed
    anew after OutOfRange."""
    with tf.Graph().as_default():
        data = tf.placeholder(tf.float32, [None, 2])
        labels = tf.placeholder(tf.int32, [None])
        dataset = tf.contrib.data.Dataset.from_tensor_slices((data, labels)).batch(2)
        iterator = dataset.make_initializable_iterator()
        x, y = iterator.get_next()
        feed = {data: np.arange(6, dtype=np.float32).reshape(3, 2), labels: np.array([7, 8, 9], np.int32)}
        with tf.Session() as sess:
            sess.run(iterator.initializer, feed_dict=feed)
            first = sess.run((x, y))
            assert sess.run(y).tolist() == [9]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(x)
            sess.run(iterator.initializer, feed_dict=feed)
            again = sess.run((x, y))
    np.testing.assert_array_equal(first[0], [[0, 1], [2, 3]])
    assert first[1].tolist() == [7, 8]
    np.testing.assert_array_equal(again[0], first[0])
