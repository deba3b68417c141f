"""train.Saver: round trips, naming, retention, errors, and TensorFlow's own Saver checkpoints."""
from __future__ import annotations

import os
import time

import numpy as np
import pytest
from ckpt_helpers import assert_same

import edgelite as tf
from edgelite.ops.variables import Variable, global_variables_initializer
from edgelite import train
from edgelite.framework.errors import InvalidArgumentError, NotFoundError

TF1_VARIABLES = {  # name -> (dtype, trainable) as in generate_tf_checkpoints.gen_tf1
    "dense/kernel": "float32", "dense/bias": "float32", "stats/f64": "float64", "counts/i32": "int32",
    "counts/i64": "int64", "flags/b": "bool", "vocab/words": "string", "global_step": "int64",
    "beta1_power": "float32", "beta2_power": "float32",
}


def _zeros_like(dtype, shape):
    return np.zeros(shape, dtype=object) if dtype == "string" else np.zeros(shape, dtype=dtype)


@pytest.fixture()
def graph():
    with tf.Graph().as_default() as g:
        yield g


def _variables(values):
    return {name: Variable(value, name=name) for name, value in values.items()}


def test_restores_every_tensorflow_saver_value(graph, tf_fixtures):
    exp = tf_fixtures["tf1"]
    shapes = dict(exp.list_variables)
    names = [n for n in shapes if n != "emb" and not n.startswith("emb/")]
    variables = {n: Variable(_zeros_like(exp.dtypes[n], shapes[n]), name=n) for n in names}
    saver = train.Saver(variables)
    with tf.Session() as sess:
        saver.restore(sess, exp.prefix)
        for n, v in variables.items():
            assert_same(sess.run(v), exp.value(n), n)


def test_round_trip_every_dtype(graph, tmp_path):
    rng = np.random.default_rng(3)
    values = {f"v_{dt}": (rng.standard_normal((2, 3)) * 50).astype(dt)
              for dt in ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
                         "complex64", "complex128"]}
    values["v_bool"] = np.array([True, False, True])
    values["v_str"] = np.array([b"a", b"", "\u00e9".encode()], dtype=object)
    values["v_scalar"] = np.float32(1.25)
    variables = _variables(values)
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "model"))
        assert path == str(tmp_path / "model")
        for v in variables.values():
            v.load(_zeros_like(v.dtype.base_dtype.name, v.shape.as_list()), sess)
        saver.restore(sess, path)
        for name, v in variables.items():
            assert_same(sess.run(v), np.asarray(values[name]), name)
    assert sorted(n for n, _ in train.list_variables(path)) == sorted(values)


def test_naming_and_global_step(graph, tmp_path):
    v = Variable(np.ones(3, np.float32), name="w")
    step = Variable(np.int64(12), name="global_step", trainable=False)
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        saver = train.Saver([v, step])
        assert saver.save(sess, str(tmp_path / "my-model"), global_step=0) == str(tmp_path / "my-model-0")
        assert saver.save(sess, str(tmp_path / "my-model"), global_step=step) == str(tmp_path / "my-model-12")
        assert saver.save(sess, str(tmp_path / "my-model"), global_step="global_step:0") == str(tmp_path / "my-model-12")
        padded = train.Saver([v], pad_step_number=True)
        assert padded.save(sess, str(tmp_path / "p"), global_step=7) == str(tmp_path / "p-00000007")
        with pytest.raises(ValueError, match="must not contain path components"):
            saver.save(sess, str(tmp_path / "m"), latest_filename="a/b")
        with pytest.raises(ValueError, match="collides with 'save_path'"):
            saver.save(sess, str(tmp_path / "checkpoint"))
        with pytest.raises(TypeError, match="'sess' must be a Session"):
            saver.save("not a session", str(tmp_path / "m"))
        with pytest.raises(ValueError, match="Parent directory of"):
            saver.save(sess, str(tmp_path / "no" / "such" / "m"))
    assert train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "p-00000007")


def test_relative_paths_in_state(graph, tmp_path):
    Variable(np.zeros(2, np.float32), name="w")
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        train.Saver(save_relative_paths=True).save(sess, str(tmp_path / "m"), global_step=1)
        train.Saver().save(sess, str(tmp_path / "abs"), global_step=1, latest_filename="abs_state")
    assert (tmp_path / "checkpoint").read_text() == 'model_checkpoint_path: "m-1"\nall_model_checkpoint_paths: "m-1"\n'
    assert str(tmp_path / "abs-1") in (tmp_path / "abs_state").read_text()


def _files(directory):
    return sorted(f for f in os.listdir(directory) if not f.startswith("checkpoint"))


def test_retention_seven_saves_keep_three(graph, tmp_path):
    Variable(np.zeros(2, np.float32), name="w")
    saver = train.Saver(max_to_keep=3)
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        for step in range(1, 8):
            saver.save(sess, str(tmp_path / "model.ckpt"), global_step=step)
    kept = [str(tmp_path / f"model.ckpt-{s}") for s in (5, 6, 7)]
    assert saver.last_checkpoints == kept
    # save() writes the MetaGraphDef by default, and retention deletes it with its checkpoint, as in TensorFlow
    assert _files(tmp_path) == sorted(f"model.ckpt-{s}.{ext}" for s in (5, 6, 7)
                                      for ext in ("index", "data-00000-of-00001", "meta"))
    state = train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == kept[-1] and state.all_model_checkpoint_paths == kept


def test_retention_matches_tensorflow_fixture(tf_fixtures):
    """TensorFlow's Saver(max_to_keep=2) after 3 saves left exactly these files and this state."""
    files = tf_fixtures["tf1"].meta["files"]
    assert files == ["checkpoint", "model.ckpt-2.data-00000-of-00001", "model.ckpt-2.index",
                     "model.ckpt-3.data-00000-of-00001", "model.ckpt-3.index"]


def test_retention_keep_every_n_hours(graph, tmp_path, monkeypatch):
    Variable(np.zeros(2, np.float32), name="w")
    clock = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    saver = train.Saver(max_to_keep=3, keep_checkpoint_every_n_hours=1.0)
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        for step in range(1, 8):
            clock[0] += 1800.0  # half an hour per save
            saver.save(sess, str(tmp_path / "m"), global_step=step)
    # Saves land at +0.5h, +1h, ... +3.5h. A checkpoint leaving the kept set survives only if it is strictly
    # later than the next keep mark (start + 1h, then + 1h per survivor): step 3 (+1.5h) survives, 1, 2, 4 go.
    assert saver.last_checkpoints == [str(tmp_path / f"m-{s}") for s in (5, 6, 7)]
    remaining = sorted({f.split(".")[0] for f in _files(tmp_path)})
    assert remaining == ["m-3", "m-5", "m-6", "m-7"]
    state = train.get_checkpoint_state(str(tmp_path))
    assert state.all_model_checkpoint_paths == [str(tmp_path / f"m-{s}") for s in (5, 6, 7)]


def test_max_to_keep_none_keeps_files_but_state_lists_last(graph, tmp_path):
    Variable(np.zeros(2, np.float32), name="w")
    saver = train.Saver(max_to_keep=None)
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        for step in range(1, 4):
            saver.save(sess, str(tmp_path / "m"), global_step=step)
    assert len(_files(tmp_path)) == 9
    assert train.get_checkpoint_state(str(tmp_path)).all_model_checkpoint_paths == [str(tmp_path / "m-3")]


def test_recover_and_set_last_checkpoints(graph, tmp_path):
    Variable(np.zeros(2, np.float32), name="w")
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        first = train.Saver(max_to_keep=2)
        paths = [first.save(sess, str(tmp_path / "m"), global_step=s) for s in (1, 2)]
        second = train.Saver(max_to_keep=2)
        second.recover_last_checkpoints(paths + [str(tmp_path / "gone-9")])
        assert second.last_checkpoints == paths
        second.save(sess, str(tmp_path / "m"), global_step=3)
        assert not os.path.exists(paths[0] + ".index")
        with pytest.raises(AssertionError):
            second.set_last_checkpoints("m-1")
        second.set_last_checkpoints([paths[1]])
        assert second.last_checkpoints == [paths[1]]
        with pytest.raises(AssertionError):
            second.set_last_checkpoints_with_time(("m", 1.0))


def test_var_list_forms_and_errors(graph, tmp_path):
    a = Variable(np.float32(1), name="a")
    b = Variable(np.float32(2), name="b")
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        path = train.Saver({"renamed/a": a, "b": b}).save(sess, str(tmp_path / "d"))
        assert [n for n, _ in train.list_variables(path)] == ["b", "renamed/a"]
    with pytest.raises(TypeError, match="dict or a list"):
        train.Saver(a)
    with pytest.raises(ValueError, match="two names"):
        train.Saver({"x": a, "y": a})
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="No variables to save"):
            train.Saver()
        empty = train.Saver(allow_empty=True)
        with tf.Session() as sess:
            assert empty.save(sess, str(tmp_path / "e")) is None
            assert empty.restore(sess, str(tmp_path / "e")) is None
    deferred = train.Saver([a], defer_build=True)
    with tf.Session() as sess:
        with pytest.raises(RuntimeError, match="build"):
            deferred.save(sess, str(tmp_path / "x"))
        deferred.build()
        sess.run(global_variables_initializer())
        assert deferred.save(sess, str(tmp_path / "x")) == str(tmp_path / "x")


def test_restore_errors(graph, tmp_path):
    w = Variable(np.zeros((2, 3), np.float32), name="w")
    saver = train.Saver([w])
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
        with pytest.raises(ValueError, match="None"):
            saver.restore(sess, None)
        with pytest.raises(ValueError, match="not a valid checkpoint"):
            saver.restore(sess, str(tmp_path / "nothing"))
    with tf.Graph().as_default():
        other = Variable(np.zeros((2, 3), np.float32), name="other")
        missing = Variable(np.zeros(1, np.float32), name="missing")
        with tf.Session() as sess:
            with pytest.raises(NotFoundError, match="missing, other"):
                train.Saver([other, missing]).restore(sess, path)
    with tf.Graph().as_default():
        wrong_shape = Variable(np.zeros((3, 2), np.float32), name="w")
        with tf.Session() as sess:
            with pytest.raises(InvalidArgumentError, match=r"lhs shape= \[3, 2\] rhs shape= \[2, 3\]"):
                train.Saver([wrong_shape]).restore(sess, path)
            train.Saver([wrong_shape], reshape=True).restore(sess, path)
            assert sess.run(wrong_shape).shape == (3, 2)
    with tf.Graph().as_default():
        wrong_type = Variable(np.zeros((2, 3), np.float64), name="w")
        with tf.Session() as sess:
            with pytest.raises(InvalidArgumentError, match="expected dtype float64 does not equal original dtype float32"):
                train.Saver([wrong_type]).restore(sess, path)


def test_sharded_by_device(graph, tmp_path):
    with tf.device("/cpu:0"):
        a = Variable(np.arange(3, dtype=np.float32), name="a")
    with tf.device("/cpu:1"):
        b = Variable(np.arange(4, dtype=np.int64), name="b")
    saver = train.Saver([a, b], sharded=True)
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "s"))
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "s.data-00000-of-00002", "s.data-00001-of-00002", "s.index",
                                            "s.meta"]
    assert_same(train.load_variable(path, "b"), np.arange(4, dtype=np.int64))


def test_restores_tensorflow_sharded_checkpoint(graph, tf_fixtures):
    a = Variable(np.zeros((2, 3), np.float32), name="a")
    b = Variable(np.zeros(4, np.int64), name="b")
    with tf.Session() as sess:
        train.Saver([a, b]).restore(sess, tf_fixtures["sharded"].prefix)
        assert_same(sess.run(a), tf_fixtures["sharded"].value("a"))
        assert_same(sess.run(b), tf_fixtures["sharded"].value("b"))


def test_saver_def_round_trip(graph):
    Variable(np.zeros(2, np.float32), name="w")
    saver = train.Saver(max_to_keep=7, keep_checkpoint_every_n_hours=2.0, sharded=True)
    sd = saver.as_saver_def()
    assert (sd.max_to_keep, sd.keep_checkpoint_every_n_hours, sd.sharded, sd.version) == (7, 2.0, True, 2)
    again = train.Saver.from_proto(train.SaverDef.FromString(sd.SerializeToString()))
    assert again.as_saver_def() == sd


def _tf1_like_model(rng):
    """The graph generate_tf_checkpoints.gen_tf1 builds, made with edgelite (Adam applied to fixed gradients)."""
    from edgelite.ops import variable_scope as vs
    gs = train.get_or_create_global_step()
    w = vs.get_variable("dense/kernel", initializer=rng.standard_normal((3, 2)).astype(np.float32))
    b = vs.get_variable("dense/bias", initializer=np.zeros(2, np.float32))
    d = vs.get_variable("stats/f64", initializer=rng.standard_normal((4,)))
    vs.get_variable("counts/i32", initializer=np.array([1, -2, 3], np.int32), trainable=False)
    vs.get_variable("counts/i64", initializer=np.array([[2 ** 40, -5]], np.int64), trainable=False)
    vs.get_variable("flags/b", initializer=np.array([True, False]), trainable=False)
    Variable(np.array([b"alpha", b"", "\u03b2".encode()], dtype=object), name="vocab/words", trainable=False)
    part = vs.get_variable("emb", initializer=rng.standard_normal((5, 2)).astype(np.float32),
                           partitioner=vs.fixed_size_partitioner(2))
    grads = [(tf.constant(np.full(v.shape.as_list(), 0.5, v.dtype.base_dtype.as_numpy_dtype)), v) for v in (w, b, d)]
    return train.AdamOptimizer(0.1).apply_gradients(grads, global_step=gs), part


def test_same_checkpoint_names_as_tensorflow_saver(graph, tmp_path, tf_fixtures):
    train_op, _ = _tf1_like_model(np.random.default_rng(0))
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        sess.run(train_op)
        path = train.Saver().save(sess, str(tmp_path / "model.ckpt"), global_step=train.get_global_step())
    assert path == str(tmp_path / "model.ckpt-1")
    # The fixture's partitioned variable also had Adam slots (TensorFlow names them emb/Adam); here it has none.
    theirs = [(n, s) for n, s in tf_fixtures["tf1"].list_variables if not n.startswith("emb/")]
    assert train.list_variables(path) == theirs
    assert {k: v.name for k, v in train.load_checkpoint(path).get_variable_to_dtype_map().items()} == \
        {k: v for k, v in tf_fixtures["tf1"].dtypes.items() if not k.startswith("emb/")}


def test_partitioned_variable_round_trip_and_tensorflow_partitions(graph, tmp_path, tf_fixtures):
    from edgelite.ops import variable_scope as vs
    full = np.arange(10, dtype=np.float32).reshape(5, 2)
    part = vs.get_variable("emb", initializer=full, partitioner=vs.fixed_size_partitioner(2))
    saver = train.Saver([part])
    with tf.Session() as sess:
        sess.run(global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "p"))
        assert train.list_variables(path) == [("emb", [5, 2])]
        assert_same(train.load_variable(path, "emb"), full)
        for v in part:
            v.load(np.zeros(v.shape.as_list(), np.float32), sess)
        saver.restore(sess, path)
        assert_same(np.concatenate([sess.run(v) for v in part]), full)
        saver.restore(sess, tf_fixtures["tf1"].prefix)  # TensorFlow's partitions of the same shape
        assert_same(np.concatenate([sess.run(v) for v in part]), tf_fixtures["tf1"].value("emb"))


def test_name_based_restore_of_object_checkpoint(graph, tmp_path, tf_fixtures):
    """Like TensorFlow, a Saver finds variables in object-based checkpoints through the object graph."""
    step = Variable(np.int64(0), name="step")
    with tf.Session() as sess:
        train.Saver([step]).restore(sess, tf_fixtures["tf2"].prefix)
        assert_same(sess.run(step), tf_fixtures["tf2"].value("model/step/.ATTRIBUTES/VARIABLE_VALUE"))
