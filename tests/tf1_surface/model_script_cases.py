"""Constructs of public TF1 estimator / serving / input-pipeline scripts, as cases fn(tf, contrib) shared by the
TensorFlow fixture generator and the edgelite test (the generator passes TF 1.15's contrib.lookup, which
re-exported tensorflow.python.ops.lookup_ops; the edgelite test passes edgelite.contrib)."""
from __future__ import annotations

import os
import tempfile

import numpy as np


def _error(fn) -> list:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 -- the case records which error TF raises
        return [type(e).__name__, str(e)]
    return ["no error"]


def lookup_index_tables(tf, contrib):
    """The serving example's index_to_string_table_from_tensor over top_k ids, and the vocabulary tables with and
    without out-of-vocabulary buckets (string and integer keys): values, sizes and op names."""
    lookup = contrib.lookup
    words = lookup.index_table_from_tensor(tf.constant(["a", "b", "c"]), num_oov_buckets=2)
    ints = lookup.index_table_from_tensor([10, 20, 30], dtype=tf.int64, default_value=-5)
    names = lookup.index_to_string_table_from_tensor(tf.constant([str(i) for i in range(4)]))
    named = lookup.index_to_string_table_from_tensor(["x", "y"], default_value="UNKNOWN", name="classes")
    _, top = tf.nn.top_k(tf.constant([[0.1, 0.7, 0.2, 0.0]]), 4)
    fetches = [words.lookup(tf.constant(["a", "c", "zz", "q"])), ints.lookup(tf.constant([20, 7], tf.int64)),
               names.lookup(tf.cast(top, tf.int64)), named.lookup(tf.constant([1, 5, 0], tf.int64)),
               words.size(), names.size()]
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        vals = sess.run(fetches)
    ops = [op.name for op in tf.get_default_graph().get_operations()
           if op.type in ("HashTableV2", "LookupTableImportV2")]
    return {"words": vals[0], "ints": vals[1], "top_classes": vals[2], "named": vals[3], "words_size": vals[4],
            "names_size": vals[5], "table_ops": ops}


def lookup_index_table_errors(tf, contrib):
    """TF's errors for a missing vocabulary, negative buckets and key dtypes the tables do not take."""
    lookup = contrib.lookup
    return {"no_mapping": _error(lambda: lookup.index_table_from_tensor(None)),
            "negative_buckets": _error(lambda: lookup.index_table_from_tensor(["a"], num_oov_buckets=-1)),
            "float_keys": _error(lambda: lookup.index_table_from_tensor([1.0], dtype=tf.float32)),
            "string_for_int": _error(lambda: lookup.index_table_from_tensor(["a"], dtype=tf.int64)),
            "no_strings": _error(lambda: lookup.index_to_string_table_from_tensor(None)),
            "no_file": _error(lambda: lookup.index_table_from_file(None))}


def lookup_tables_from_file(tf, contrib):
    """index_table_from_file / index_to_string_table_from_file over a one-word-per-line vocabulary."""
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("emerson\nlake\npalmer\n")
    ids = contrib.lookup.index_table_from_file(path, num_oov_buckets=1)
    words = contrib.lookup.index_to_string_table_from_file(path, default_value="?")
    fetches = [ids.lookup(tf.constant(["lake", "and", "palmer"])), words.lookup(tf.constant([2, 0, 9], tf.int64))]
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        vals = sess.run(fetches)
    return {"ids": vals[0], "words": vals[1]}


def pandas_columns_to_dataset(tf, contrib):
    """premade_estimator.py's iris_data: a DataFrame's columns (pandas Series) and a label Series sliced by
    Dataset.from_tensor_slices, and a Series given to tf.constant."""
    import pandas as pd
    frame = pd.DataFrame({"SepalLength": [5.1, 4.9, 6.3], "Species": [0, 2, 1]})
    labels = frame.pop("Species")
    batch = tf.data.Dataset.from_tensor_slices((dict(frame), labels)).batch(2).make_one_shot_iterator().get_next()
    const = tf.constant(labels)
    with tf.Session() as sess:
        (features, label), value = sess.run([batch, const])
    return {"feature": features["SepalLength"], "label": label, "const": value, "const_dtype": const.dtype.name}


def saved_model_bytes_export_dir(tf, contrib):
    """mnist_saved_model.py: SavedModelBuilder and loader.load given the export directory as bytes
    (os.path.join(compat.as_bytes(base), compat.as_bytes(version)))."""
    base = tempfile.mkdtemp()
    export = os.path.join(tf.compat.as_bytes(base), tf.compat.as_bytes("1"))
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0], [2.0]])
    y = tf.identity(tf.matmul(x, w), name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        builder = tf.saved_model.builder.SavedModelBuilder(export)
        builder.add_meta_graph_and_variables(sess, [tf.saved_model.tag_constants.SERVING])
        builder.save()
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export)
        value = sess.run("y:0", {"x:0": np.array([[1.0, 1.0]], np.float32)})
    return {"files": sorted(os.listdir(os.fsdecode(export))), "y": value}


CASES = [lookup_index_tables, lookup_index_table_errors, lookup_tables_from_file, pandas_columns_to_dataset,
         saved_model_bytes_export_dir]
