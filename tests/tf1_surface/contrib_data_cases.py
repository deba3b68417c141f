"""Pipelines written twice: with TF 1.4's tf.contrib.data names (when `legacy` is the contrib.data module) and with
the core tf.data calls that replaced them (legacy None). TensorFlow 2.21 records the core form
(fixtures/generate_contrib_data_fixtures.py); edgelite must give those results in both forms."""
from __future__ import annotations

import os
import tempfile

import numpy as np


def elements(tf, dataset) -> list:
    """All elements of a dataset, through a one-shot iterator."""
    nxt = dataset.make_one_shot_iterator().get_next()
    rows = []
    with tf.Session() as sess:
        try:
            while True:
                rows.append(sess.run(nxt))
        except tf.errors.OutOfRangeError:
            return rows


def _drain(tf, dataset) -> dict:
    """All elements of a dataset stacked per component, with its static shapes."""
    rows = elements(tf, dataset)
    flat = [r if isinstance(r, tuple) else (r,) for r in rows]
    out = {}
    for i in range(len(flat[0])):
        parts = [np.asarray(r[i], dtype=object if isinstance(r[i], bytes) else None) for r in flat]
        # A final short batch cannot be stacked: keep the rows, and the batch sizes beside them.
        same = len({p.shape for p in parts}) == 1
        out[f"c{i}"] = np.stack(parts) if same else np.concatenate(parts)
        if not same:
            out[f"c{i}_rows"] = np.asarray([len(p) for p in parts])
    shapes = dataset.output_shapes if isinstance(dataset.output_shapes, tuple) else (dataset.output_shapes,)
    out["shapes"] = [str(s) for s in shapes]
    return out


def _csv(tmp: str) -> str:
    path = os.path.join(tmp, "data.csv")
    with open(path, "w") as f:
        f.write("a,b\n" + "".join(f"{i},{i * i % 7}\n" for i in range(9)))
    return path


def text_lines_skip_map_old_keywords(tf, legacy):
    def parse(line):
        a, b = tf.decode_csv(line, [[0], [0.0]])
        return a * 2, b + 0.5
    with tempfile.TemporaryDirectory() as tmp:
        path = _csv(tmp)
        if legacy:
            ds = legacy.TextLineDataset(path).skip(1).map(parse, num_threads=4, output_buffer_size=100)
        else:
            ds = tf.data.TextLineDataset(path).skip(1).map(parse, num_parallel_calls=4).prefetch(100)
        return _drain(tf, ds.batch(4))


def slices_shuffle_batch_and_drop_remainder(tf, legacy):
    x = np.arange(22, dtype=np.float32).reshape(11, 2)
    if legacy:
        ds = legacy.Dataset.from_tensor_slices((x, np.arange(11))).shuffle(5, seed=3)
        ds = ds.apply(legacy.batch_and_drop_remainder(3))
    else:
        ds = tf.data.Dataset.from_tensor_slices((x, np.arange(11))).shuffle(5, seed=3).batch(3, drop_remainder=True)
    return _drain(tf, ds)


def padded_batch_and_drop_remainder(tf, legacy):
    base = (legacy.Dataset if legacy else tf.data.Dataset).range(1, 8)
    ds = base.map(lambda n: tf.fill([n], n))
    if legacy:
        ds = ds.apply(legacy.padded_batch_and_drop_remainder(3, [7]))
    else:
        ds = ds.padded_batch(3, [7], drop_remainder=True)
    return _drain(tf, ds)


def zip_enumerate_unbatch(tf, legacy):
    D = legacy.Dataset if legacy else tf.data.Dataset
    pairs = D.zip((D.range(5), D.from_tensors(np.array([[1, 2], [3, 4]], np.int32)).repeat()))
    if legacy:
        ds = pairs.map(lambda i, m: m + tf.cast(i, tf.int32), num_threads=2).apply(legacy.unbatch())
        ds = ds.apply(legacy.enumerate_dataset(start=10))
    else:
        ds = pairs.map(lambda i, m: m + tf.cast(i, tf.int32), num_parallel_calls=2).unbatch().enumerate(10)
    return _drain(tf, ds)


def record_files(tf, legacy):
    with tempfile.TemporaryDirectory() as tmp:
        rec = os.path.join(tmp, "r.tfrecord")
        with tf.python_io.TFRecordWriter(rec) as w:
            for i in range(5):
                w.write(b"rec%d" % i)
        fixed = os.path.join(tmp, "f.bin")
        with open(fixed, "wb") as f:
            f.write(b"HEAD" + bytes(range(12)) + b"FT")
        lib = legacy or tf.data
        records = lib.TFRecordDataset([rec]).filter(lambda r: tf.not_equal(r, b"rec2"))
        fixed_ds = lib.FixedLengthRecordDataset([fixed], 3, header_bytes=4, footer_bytes=2)
        fixed_ds = fixed_ds.map(lambda r: tf.decode_raw(r, tf.uint8))
        out = {"records_" + k: v for k, v in _drain(tf, records).items()}
        out.update({"fixed_" + k: v for k, v in _drain(tf, fixed_ds).items()})
        return out


def reinitializable_iterator(tf, legacy):
    D = legacy.Dataset if legacy else tf.data.Dataset
    Iterator = legacy.Iterator if legacy else tf.data.Iterator
    train = D.range(6).map(lambda v: v * 3)
    valid = D.range(2).map(lambda v: -v)
    it = Iterator.from_structure(train.output_types, train.output_shapes)
    nxt = it.get_next()
    got = []
    with tf.Session() as sess:
        for ds, n in ((train, 4), (valid, 2), (train, 2)):
            sess.run(it.make_initializer(ds))
            got.extend(sess.run(nxt) for _ in range(n))
    return {"values": np.asarray(got)}


def question_mark_filter_hash_split_cache(tf, legacy):
    """imports85.py's TF 1.4 pipeline: drop lines with '?', split by a hash bucket, decode into a features dict,
    cache."""
    def no_question(line):
        return ~tf.reduce_any(tf.equal(tf.string_split(line[tf.newaxis], "").values, "?"))

    def in_train(line):
        return tf.string_to_hash_bucket_fast(line, 1000) < 600

    def decode(line):
        make, size, price = tf.decode_csv(line, [[""], [0], [0.0]])
        return {"make": make, "size": size}, price

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "imports.data")
        with open(path, "w") as f:
            f.write("".join(f"m{i},{'?' if i % 4 == 1 else i},{i * 1.5}\n" for i in range(16)))
        base = (legacy or tf.data).TextLineDataset(path).filter(no_question)
        train = base.filter(in_train).map(decode).cache()
        test = base.filter(lambda line: ~in_train(line)).cache().map(decode)
        out = {}
        for name, ds in (("train", train), ("test", test)):
            flat = ds.map(lambda f, p: (f["make"], f["size"], p))
            out.update({f"{name}_{k}": v for k, v in _drain(tf, flat).items()})
        return out


CASES = [text_lines_skip_map_old_keywords, slices_shuffle_batch_and_drop_remainder, padded_batch_and_drop_remainder,
         zip_enumerate_unbatch, record_files, reinitializable_iterator, question_mark_filter_hash_split_cache]
