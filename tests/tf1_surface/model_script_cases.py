"""Constructs of public TF1 estimator / serving / input-pipeline / frozen-graph scripts, as cases fn(tf, lib)
shared by the TensorFlow fixture generator and the edgelite test. `lib` holds the modules TF1 scripts reach
outside the tf namespace: lib.lookup (TF 1.15's tf.lib.lookup re-exported tensorflow.python.ops.lookup_ops)
and lib.freeze_graph (tensorflow/python/tools/freeze_graph.py)."""
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


def lookup_index_tables(tf, lib):
    """The serving example's index_to_string_table_from_tensor over top_k ids, and the vocabulary tables with and
    without out-of-vocabulary buckets (string and integer keys): values, sizes and op names."""
    lookup = lib.lookup
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


def lookup_index_table_errors(tf, lib):
    """TF's errors for a missing vocabulary, negative buckets and key dtypes the tables do not take."""
    lookup = lib.lookup
    return {"no_mapping": _error(lambda: lookup.index_table_from_tensor(None)),
            "negative_buckets": _error(lambda: lookup.index_table_from_tensor(["a"], num_oov_buckets=-1)),
            "float_keys": _error(lambda: lookup.index_table_from_tensor([1.0], dtype=tf.float32)),
            "string_for_int": _error(lambda: lookup.index_table_from_tensor(["a"], dtype=tf.int64)),
            "no_strings": _error(lambda: lookup.index_to_string_table_from_tensor(None)),
            "no_file": _error(lambda: lookup.index_table_from_file(None))}


def lookup_tables_from_file(tf, lib):
    """index_table_from_file / index_to_string_table_from_file over a one-word-per-line vocabulary."""
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("emerson\nlake\npalmer\n")
    ids = lib.lookup.index_table_from_file(path, num_oov_buckets=1)
    words = lib.lookup.index_to_string_table_from_file(path, default_value="?")
    fetches = [ids.lookup(tf.constant(["lake", "and", "palmer"])), words.lookup(tf.constant([2, 0, 9], tf.int64))]
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        vals = sess.run(fetches)
    return {"ids": vals[0], "words": vals[1]}


def pandas_columns_to_dataset(tf, lib):
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


def saved_model_bytes_export_dir(tf, lib):
    """mnist_saved_model.py: SavedModelBuilder and loader.load given the export directory as bytes
    (os.path.join(compat.as_bytes(base), compat.as_bytes(version)))."""
    base = tempfile.mkdtemp()
    export = os.path.join(tf.compat.as_bytes(base), tf.compat.as_bytes("1"))
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0], [2.0]])
    tf.identity(tf.matmul(x, w), name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        builder = tf.saved_model.builder.SavedModelBuilder(export)
        builder.add_meta_graph_and_variables(sess, [tf.saved_model.tag_constants.SERVING])
        written = builder.save()
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export)
        value = sess.run("y:0", {"x:0": np.array([[1.0, 1.0]], np.float32)})
    return {"files": sorted(os.listdir(os.fsdecode(export))), "y": value,
            "save_returns": [type(written).__name__, os.path.basename(os.fsdecode(written))]}


def _train_and_save(tf, workdir: str) -> str:
    """A small softmax classifier trained a few steps, its graph written as text (sess.graph_def) and its
    variables saved: the files a freeze script starts from."""
    rng = np.random.RandomState(0)
    data = rng.uniform(0, 1, (20, 6)).astype(np.float32)
    labels = (data[:, 0] + data[:, 1] > 1).astype(np.int32)
    x = tf.placeholder(tf.float32, [None, 6], name="input")
    w = tf.Variable(rng.uniform(-0.1, 0.1, (6, 2)).astype(np.float32), name="w")
    b = tf.Variable(tf.zeros([2]), name="b")
    logits = tf.matmul(x, w) + b
    tf.nn.softmax(logits, name="output")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(5):
            sess.run(train, {x: data})
        tf.train.write_graph(sess.graph_def, workdir, "model.pbtxt", as_text=True)
        return saver.save(sess, os.path.join(workdir, "model"))


def _run_frozen(tf, path: str) -> dict:
    graph_def = tf.GraphDef()
    with open(path, "rb") as f:
        graph_def.ParseFromString(f.read())
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            probs = sess.run("output:0", {"input:0": np.linspace(0, 1, 12, dtype=np.float32).reshape(2, 6)})
    return {"probs": probs, "ops": sorted(n.op for n in graph_def.node), "nodes": sorted(n.name for n in graph_def.node)}


def freeze_graph_text_graph_and_checkpoint(tf, lib):
    """freeze_graph.freeze_graph over a .pbtxt GraphDef and a checkpoint prefix (restore_op_name and
    filename_tensor_name given but unused), as the usual freeze.py scripts call it; the frozen file then served."""
    workdir = tempfile.mkdtemp()
    with tf.Graph().as_default():
        prefix = _train_and_save(tf, workdir)
    frozen = os.path.join(workdir, "frozen.pb")
    with tf.Graph().as_default():
        returned = lib.freeze_graph.freeze_graph(os.path.join(workdir, "model.pbtxt"), "", False, prefix, "output",
                                                 "save/restore_all", "save/Const:0", frozen, True, "")
    return dict(_run_frozen(tf, frozen), returned_nodes=len(returned.node))


def freeze_graph_meta_graph(tf, lib):
    """freeze_graph.freeze_graph from the binary .meta file (input_meta_graph) instead of a GraphDef."""
    workdir = tempfile.mkdtemp()
    with tf.Graph().as_default():
        prefix = _train_and_save(tf, workdir)
    frozen = os.path.join(workdir, "frozen.pb")
    with tf.Graph().as_default():
        lib.freeze_graph.freeze_graph(None, "", True, prefix, "output", "", "", frozen, True, "",
                                      input_meta_graph=prefix + ".meta")
    return _run_frozen(tf, frozen)


def freeze_graph_errors(tf, lib):
    """TF's refusals: a checkpoint that is not there, no output node names, a graph file that is not there."""
    workdir = tempfile.mkdtemp()
    with tf.Graph().as_default():
        prefix = _train_and_save(tf, workdir)
    graph = os.path.join(workdir, "model.pbtxt")
    out = {}
    for key, args in {"no_checkpoint": (graph, "", False, prefix + "-9", "output"),
                      "no_outputs": (graph, "", False, prefix, ""),
                      "no_graph": (graph + ".missing", "", False, prefix, "output")}.items():
        with tf.Graph().as_default():
            err = _error(lambda: lib.freeze_graph.freeze_graph(*args, "", "", "", True, ""))
        out[key] = [err[0], err[1].replace(workdir, "<dir>")]
    return out


def stripped_export_attrs(tf, lib):
    """export_meta_graph(strip_default_attrs=True), as Estimator exports write their graphs: the attrs each node
    keeps (TensorFlow must find every attr its OpDef gives no default, StridedSlice's Index among them)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    rows = tf.shape(x)[0]
    total = tf.reduce_sum(x[:, 1:], axis=1)
    tf.reshape(total, [-1, 1], name="out")
    tf.identity(rows, name="rows")
    meta = tf.train.export_meta_graph(strip_default_attrs=True)
    return {"attrs": {n.name: sorted(k for k in _attr_keys(n) if not k.startswith("_"))
                      for n in meta.graph_def.node if n.op != "Const"}}


def _attr_keys(node) -> list:
    """A NodeDef's attr names (the attr field is a protobuf map under both TF and edgelite)."""
    return list(node.attr.keys())


def _drain(tf, dataset) -> list:
    nxt = dataset.make_one_shot_iterator().get_next()
    out = []
    with tf.Session() as sess:
        while True:
            try:
                out.append(sess.run(nxt))
            except tf.errors.OutOfRangeError:
                return out


def fused_dataset_transformations(tf, lib):
    """The input pipelines of the official r1 models: data.experimental.map_and_batch (with and without
    drop_remainder, dict elements) and parallel_interleave over per-file datasets (deterministic order)."""
    squares = tf.data.Dataset.range(7).apply(tf.data.experimental.map_and_batch(
        lambda x: {"x": x, "sq": x * x}, 3, num_parallel_batches=2))
    full = tf.data.Dataset.range(7).apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 3, drop_remainder=True))
    files = tf.data.Dataset.range(5).apply(tf.data.experimental.parallel_interleave(
        lambda x: tf.data.Dataset.range(x * 10, x * 11 + 1), cycle_length=2, block_length=2))
    wide = tf.data.Dataset.range(4).apply(tf.data.experimental.parallel_interleave(
        lambda x: tf.data.Dataset.range(x * 10, x * 10 + x + 1), cycle_length=3, sloppy=False))
    return {"squares_x": np.concatenate([b["x"] for b in _drain(tf, squares)]),
            "squares_sizes": [len(b["sq"]) for b in _drain(tf, squares)],
            "squares_shape": str(squares.output_shapes["sq"]),
            "full": np.stack(_drain(tf, full)), "full_shape": str(full.output_shapes),
            "files": np.array(_drain(tf, files)), "wide": np.array(_drain(tf, wide)),
            "both_parallel": _error(lambda: tf.data.experimental.map_and_batch(
                lambda x: x, 2, num_parallel_batches=1, num_parallel_calls=2))}


def csv_dataset_files(tf, lib):
    """data.experimental.CsvDataset over two headed CSV files: quoted fields with commas and doubled quotes, an
    empty field taking its default, required (dtype) columns, select_cols, batching; a missing required field
    fails at run time."""
    workdir = tempfile.mkdtemp()
    files = [os.path.join(workdir, "a.csv"), os.path.join(workdir, "b.csv")]
    with open(files[0], "w") as f:
        f.write('id,name,score,n\n1,"x, y",0.5,3\n2,plain,,4\n3,"q""uote",2.25,\n')
    with open(files[1], "w") as f:
        f.write("id,name,score,n\n7,z,1.5,9\n")
    full = tf.data.experimental.CsvDataset(files, [tf.int32, "", -1.0, [0]], header=True)
    picked = tf.data.experimental.CsvDataset(files, [0, 0.0], header=True, select_cols=[0, 2])
    batched = tf.data.experimental.CsvDataset(files, [0, "", 0.0, 0], header=True).batch(3)
    required = tf.data.experimental.CsvDataset(files, [tf.int32, "", 0.0, tf.int32], header=True)
    rows = _drain(tf, full)
    try:
        _drain(tf, required)
        missing = "no error"
    except tf.errors.InvalidArgumentError as e:
        missing = type(e).__name__
    return {"types": [t.name for t in full.output_types], "shapes": [str(s) for s in full.output_shapes],
            "ids": np.array([r[0] for r in rows]), "names": np.array([r[1] for r in rows], dtype=object),
            "scores": np.array([r[2] for r in rows]), "ns": np.array([r[3] for r in rows]),
            "picked": np.array(_drain(tf, picked)), "batch_sizes": [len(b[0]) for b in _drain(tf, batched)],
            "missing_required": missing}


CASES = [lookup_index_tables, lookup_index_table_errors, lookup_tables_from_file, pandas_columns_to_dataset,
         saved_model_bytes_export_dir, freeze_graph_text_graph_and_checkpoint, freeze_graph_meta_graph,
         freeze_graph_errors, stripped_export_attrs, fused_dataset_transformations,
         csv_dataset_files]
