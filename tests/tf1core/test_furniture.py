"""tf.logging, tf.app/tf.flags, tf.test and tf.version behave as TensorFlow 1 documents them."""
from __future__ import annotations

import logging
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import edgelite as tf
from edgelite import errors


@pytest.fixture
def tf_log(caplog):
    old = tf.logging.get_verbosity()
    caplog.set_level(logging.DEBUG, logger="edgelite")
    yield caplog
    tf.logging.set_verbosity(old)


def test_logging_levels_are_pythons():
    assert (tf.logging.DEBUG, tf.logging.INFO, tf.logging.WARN, tf.logging.ERROR, tf.logging.FATAL) == \
        (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL)


def test_set_verbosity_filters_records(tf_log):
    tf.logging.set_verbosity(tf.logging.WARN)
    tf.logging.info("hidden %d", 1)
    tf.logging.warning("shown %d", 2)
    tf.logging.set_verbosity(tf.logging.INFO)
    assert tf.logging.get_verbosity() == tf.logging.INFO
    tf.logging.info("shown %d", 3)
    tf.logging.TaskLevelStatusMessage("status")
    assert [(r.levelno, r.getMessage()) for r in tf_log.records] == [
        (logging.WARNING, "shown 2"), (logging.INFO, "shown 3"), (logging.ERROR, "status")]


def test_log_every_n_and_first_n_count_per_call_site(tf_log):
    tf.logging.set_verbosity(tf.logging.INFO)
    for i in range(7):
        tf.logging.log_every_n(tf.logging.INFO, "every %d", 3, i)
    for i in range(5):
        tf.logging.log_first_n(tf.logging.INFO, "first %d", 2, i)
    tf.logging.log_if(tf.logging.INFO, "no", False)
    tf.logging.vlog(tf.logging.INFO, "v %s", "x")
    assert [r.getMessage() for r in tf_log.records] == ["every 0", "every 3", "every 6", "first 0", "first 1",
                                                        "v x"]


def test_default_handler_uses_tensorflow_format():
    script = "import edgelite as tf\ntf.logging.set_verbosity(tf.logging.INFO)\ntf.logging.info('hello %d', 3)\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.stderr.strip().splitlines()[-1] == "INFO:edgelite:hello 3"


def test_app_run_parses_flags_and_passes_the_rest(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent("""
        import edgelite as tf
        flags = tf.app.flags
        flags.DEFINE_integer("epochs", 3, "number of epochs")
        flags.DEFINE_string("name", "net", "model name")
        FLAGS = flags.FLAGS

        def main(argv):
            print(FLAGS.epochs, FLAGS.name, tf.flags.FLAGS.epochs, argv[1:])
            return 0

        if __name__ == "__main__":
            tf.app.run()
    """))
    proc = subprocess.run([sys.executable, str(script), "--epochs=5", "--unknown=1", "rest"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "5 net 5 ['--unknown=1', 'rest']"


def test_version_constants():
    assert tf.VERSION == tf.version.VERSION == tf.__version__
    assert tf.GIT_VERSION == tf.version.GIT_VERSION
    graph_def = tf.Graph().as_graph_def()
    assert graph_def.versions.producer == tf.GRAPH_DEF_VERSION
    assert tf.GRAPH_DEF_VERSION_MIN_CONSUMER <= tf.GRAPH_DEF_VERSION
    assert tf.GRAPH_DEF_VERSION_MIN_PRODUCER <= tf.GRAPH_DEF_VERSION


class TestCaseHelpers(tf.test.TestCase):
    def test_assertions_and_sessions(self):
        x = tf.constant([1.0, 2.0])
        with self.cached_session() as sess:
            self.assertIs(sess, tf.get_default_session())
            self.assertAllClose(x, [1.0, 2.0 + 1e-7])
            self.assertAllEqual(self.evaluate(x), [1.0, 2.0])
            self.assertAllInRange(x, 1.0, 2.0)
            self.assertArrayNear([1.0, 2.0], [1.05, 2.0], 0.1)
            self.assertNear(1.0, 1.01, 0.02)
            self.assertShapeEqual(np.zeros(2), x)
            self.assertDeviceEqual("/cpu:0", "/device:CPU:0")
            bad = tf.reshape(x, tf.placeholder(tf.int32, [1]))
            with self.assertRaisesOpError("reshape|Reshape"):
                sess.run(bad, {bad.op.inputs[1]: [3]})
        with self.assertRaises(AssertionError):
            self.assertAllInRange(x, 1.0, 2.0, open_upper_bound=True)
        with self.assertRaises(AssertionError):
            self.assertAllClose([1.0], [1.1])
        with self.assertRaises(AssertionError):
            self.assertNear(1.0, 1.5, 0.1)


def test_compute_gradient_matches_numerical():
    with tf.Graph().as_default(), tf.Session():
        x = tf.placeholder(tf.float64, [2, 3])
        y = tf.reduce_sum(tf.square(x) * tf.constant([1.0, 2.0, 3.0], tf.float64), axis=1)
        value = np.arange(6, dtype=np.float64).reshape(2, 3) / 7.0
        theoretical, numerical = tf.test.compute_gradient(x, [2, 3], y, [2], x_init_value=value)
        assert theoretical.shape == (6, 2)
        np.testing.assert_allclose(theoretical, numerical, atol=1e-6)
        assert tf.test.compute_gradient_error(x, [2, 3], y, [2], x_init_value=value) < 1e-6


def test_gpu_queries_report_cpu_only():
    assert tf.test.is_gpu_available() is False
    assert tf.test.gpu_device_name() == ""
    assert tf.test.is_built_with_cuda() is False
    assert tf.test.get_temp_dir() == tf.test.get_temp_dir()


def test_top_level_aliases():
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.constant([[3.0, 1.0], [0.5, 4.0]])
        assert sess.run(tf.arg_max(x, 1)).tolist() == [0, 1]
        assert sess.run(tf.arg_min(x, 0)).tolist() == [1, 0]
        clipped, norm = tf.clip_by_global_norm([x], 1.0)
        assert tf.clip_by_global_norm is tf.train.clip_by_global_norm
        assert sess.run(norm) == pytest.approx(np.sqrt(9 + 1 + 0.25 + 16))
        assert tf.math.softmax is tf.nn.softmax and tf.math.top_k is tf.nn.top_k
    assert tf.compat.as_bytes("a") == b"a" and tf.compat.as_text(b"a") == "a"
    with pytest.raises(TypeError, match="Expected binary or unicode string, got 3"):
        tf.compat.as_bytes(3)
    assert tf.dimension_at_index(tf.TensorShape([2, None]), 0).value == 2
    assert issubclass(errors.InvalidArgumentError, tf.OpError)


def test_switch_case_picks_branch_default_or_last():
    with tf.Graph().as_default(), tf.Session() as sess:
        index = tf.placeholder(tf.int32, [])
        branches = [lambda: tf.constant(10), lambda: tf.constant(20)]
        with_default = tf.switch_case(index, branches, default=lambda: tf.constant(-1))
        without = tf.switch_case(index, {1: branches[1], 0: branches[0]})
        assert [sess.run(with_default, {index: i}) for i in (0, 1, 5, -1)] == [10, 20, -1, -1]
        assert [sess.run(without, {index: i}) for i in (0, 1, 7)] == [10, 20, 20]
        with pytest.raises(ValueError, match="contiguous range"):
            tf.switch_case(index, {0: branches[0], 2: branches[1]})


def test_timestamp_and_small_framework_helpers():
    with tf.Graph().as_default(), tf.Session() as sess:
        stamp = tf.timestamp()
        first, second = sess.run(stamp), sess.run(stamp)
        assert stamp.dtype == tf.float64 and first <= second
        assert tf.is_symbolic_tensor(stamp) and tf.is_numeric_tensor(stamp)
        assert not tf.is_numeric_tensor(tf.constant("a")) and not tf.is_symbolic_tensor(1.0)
        w = tf.get_variable("w", [2], regularizer=tf.no_regularizer)
        assert w is not None and tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES) == []
    assert tf.resource_variables_enabled() is False
    with tf.Graph().as_default():
        tf.cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2))
        types = {op.type for op in tf.get_default_graph().get_operations()}
    assert tf.control_flow_v2_enabled() is ("StatelessIf" in types or "If" in types)


def test_stub_out_for_testing_restores_attributes():
    import os.path

    real = os.path.exists
    with tf.test.StubOutForTesting() as stubs:
        stubs.Set(os.path, "exists", lambda p: "stubbed")
        assert os.path.exists("x") == "stubbed"
    assert os.path.exists is real


def test_benchmark_runs_and_reports(caplog):
    caplog.set_level(logging.INFO, logger="edgelite")
    with tf.Graph().as_default(), tf.Session() as sess:
        result = tf.test.Benchmark().run_op_benchmark(sess, tf.constant(1.0) + 1.0, min_iters=3, name="add")
    assert result["iters"] == 3 and result["wall_time"] >= 0 and result["name"] == "add"
    assert "Benchmark [add]" in caplog.text


def test_small_namespace_members():
    with tf.Graph().as_default(), tf.Session() as sess:
        w = tf.get_variable("w", [2, 3], initializer=tf.initializers.identity(gain=2.0))
        sess.run(w.initializer)
        np.testing.assert_array_equal(sess.run(w), 2.0 * np.eye(2, 3))
        with pytest.raises(ValueError, match="only be used for 2D matrices"):
            tf.initializers.identity()([2, 2, 2])
        assert sess.run(tf.dtypes.cast(tf.constant([1.7]), tf.int32)).tolist() == [1]
    assert tf.io.gfile.join("gs://b/", "x", "y/") == "gs://b/x/y/"
