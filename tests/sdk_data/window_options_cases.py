"""Dataset.window, tf.data.Options/with_options and reader state cases, shared by the TensorFlow fixture
generator and the edgelite tests (recorded into fixtures/tf_more.json)."""
from __future__ import annotations


def _batched_windows(tf, ds, size, **kw):
    return ds.window(size, **kw).flat_map(lambda w: w.batch(size))


DATASET_CASES = [
    ("window_shift", lambda tf: _batched_windows(tf, tf.data.Dataset.range(7), 3, shift=2)),
    ("window_default_shift", lambda tf: _batched_windows(tf, tf.data.Dataset.range(7), 3)),
    ("window_stride", lambda tf: _batched_windows(tf, tf.data.Dataset.range(10), 3, shift=1, stride=3)),
    ("window_drop", lambda tf: _batched_windows(tf, tf.data.Dataset.range(7), 3, shift=2, drop_remainder=True)),
    ("window_shift_past_size", lambda tf: _batched_windows(tf, tf.data.Dataset.range(9), 2, shift=4)),
    ("window_tuple_zip", lambda tf: tf.data.Dataset.from_tensor_slices((tf.range(5), tf.range(5) * 10)).window(2)
     .flat_map(lambda a, b: tf.data.Dataset.zip((a.batch(2), b)))),
    ("window_dict", lambda tf: tf.data.Dataset.from_tensor_slices({"x": [[1, 2], [3, 4], [5, 6]], "y": [7, 8, 9]})
     .window(2, drop_remainder=True).flat_map(lambda d: d["x"].batch(2).concatenate(d["y"].batch(2).map(
         lambda y: tf.stack([y, y]))))),
    ("window_interleave", lambda tf: tf.data.Dataset.range(6).window(2).interleave(lambda w: w, cycle_length=2)),
    ("window_repeat_take", lambda tf: _batched_windows(tf, tf.data.Dataset.range(3).repeat(), 2).take(4)),
    ("err_window_size", lambda tf: tf.data.Dataset.range(3).window(0).flat_map(lambda w: w)),
    ("err_window_shift", lambda tf: tf.data.Dataset.range(3).window(2, shift=0).flat_map(lambda w: w)),
    ("err_window_stride", lambda tf: tf.data.Dataset.range(3).window(2, stride=-1).flat_map(lambda w: w)),
    ("with_options_deterministic", lambda tf: tf.data.Dataset.range(6).map(lambda x: x * 2, num_parallel_calls=2)
     .with_options(_options(tf, deterministic=True))),
]


def _options(tf, **settings):
    o = tf.data.Options()
    for k, v in settings.items():
        setattr(o, k, v)
    return o


def _attempt(fn):
    """fn's result, or the type and text of what it raises."""
    try:
        return ["ok", fn()]
    except Exception as e:  # noqa: BLE001 - the error is the recorded result
        return [type(e).__name__, str(e).replace("tensorflow.python.data.ops.options.", "OPTIONS.")
                .replace("edgelite.data.options.", "OPTIONS.")]


def _window_specs(tf):
    ds = tf.data.Dataset.from_tensor_slices(({"a": tf.range(5)}, tf.zeros([5, 2]))).window(2)
    return [repr(ds.element_spec), repr(ds.output_types), repr(ds.output_shapes), repr(ds.output_classes)]


def _options_defaults(tf):
    o = tf.data.Options()
    groups = {"autotune": ["autotune_algorithm", "cpu_budget", "enabled", "initial_parallelism",
                           "min_parallelism", "ram_budget"],
              "experimental_distribute": ["auto_shard_policy", "num_devices"],
              "experimental_optimization": ["apply_default_optimizations", "filter_fusion", "filter_parallelization",
                                            "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion",
                                            "map_fusion", "map_parallelization", "noop_elimination", "parallel_batch",
                                            "seq_interleave_prefetch", "shuffle_and_repeat_fusion"],
              "experimental_service": ["pinned"],
              "threading": ["max_intra_op_parallelism", "private_threadpool_size"]}
    out = {k: repr(getattr(o, k)) for k in ["dataset_name", "deterministic", "experimental_deterministic",
                                            "experimental_external_state_policy", "experimental_slack",
                                            "experimental_symbolic_checkpoint", "experimental_warm_start",
                                            "framework_type"]}
    for group, names in groups.items():
        for n in names:
            out[f"{group}.{n}"] = repr(getattr(getattr(o, group), n))
    return out


def _options_aliases(tf):
    o = tf.data.Options()
    o.experimental_deterministic = False
    o.experimental_threading.private_threadpool_size = 3
    return [o.deterministic, o.experimental_deterministic, o.threading.private_threadpool_size,
            o.experimental_threading is o.threading]


def _options_merge(tf):
    a = _options(tf, deterministic=True, framework_type=["a"])
    a.experimental_optimization.map_fusion = True
    b = _options(tf, deterministic=False, experimental_slack=True, framework_type=["b"])
    b.threading.private_threadpool_size = 2
    m = a.merge(b)
    ds = tf.data.Dataset.range(2).with_options(a).map(lambda x: x).with_options(b)
    d = ds.options()
    return [m.deterministic, m.experimental_slack, m.framework_type, m.experimental_optimization.map_fusion,
            m.threading.private_threadpool_size, d.deterministic, d.experimental_slack, d.framework_type,
            d.experimental_optimization.map_fusion, d == m, tf.data.Dataset.range(1).options() == tf.data.Options(),
            a == b, a != b, (a == 3)]


def _options_errors(tf):
    o = tf.data.Options()

    def setter(obj, name, value):
        return lambda: setattr(obj, name, value)
    return [_attempt(setter(o, "foo", 1)), _attempt(setter(o, "deterministic", 3)),
            _attempt(setter(o, "experimental_optimization", 3)),
            _attempt(setter(o.threading, "private_threadpool_size", 2.0)),
            _attempt(setter(o.experimental_distribute, "auto_shard_policy", 1)),
            _attempt(setter(tf.data.Dataset.range(1).options(), "deterministic", True)),
            _attempt(lambda: o.merge(3)), _attempt(lambda: tf.data.Dataset.range(1).with_options(3)),
            _attempt(lambda: [o.experimental_distribute.auto_shard_policy == 0,
                              str(tf.data.experimental.AutoShardPolicy.FILE),
                              repr(tf.data.experimental.ExternalStatePolicy.FAIL),
                              repr(tf.data.experimental.AutotuneAlgorithm.HILL_CLIMB)])]


def _supports_serialize(tf):
    return [tf.TFRecordReader().supports_serialize, tf.TextLineReader().supports_serialize,
            tf.WholeFileReader().supports_serialize, tf.FixedLengthRecordReader(4).supports_serialize,
            tf.IdentityReader().supports_serialize]


CALL_CASES = [
    ("reader_supports_serialize", _supports_serialize),
    ("window_specs", _window_specs),
    ("options_defaults", _options_defaults),
    ("options_aliases", _options_aliases),
    ("options_merge", _options_merge),
    ("options_errors", _options_errors),
]

# ReaderBaseState bytes: work_started (1), work_finished (2), num_records_produced (3), current_work (4).
_STATE = b"\x08\x01\x10\x01\x18\x05\x22\x01q"


def _reader_steps(tf, make, work):
    q = tf.FIFOQueue(10, tf.string, shapes=[[]])
    r = make(tf)
    k, v = r.read(q)
    return [q.enqueue_many([work]), r.serialize_state(), [k, v], r.serialize_state(), r.num_records_produced(),
            r.restore_state(_STATE), r.serialize_state(), r.num_records_produced(), r.num_work_units_completed(),
            [k, v], r.serialize_state(), r.restore_state(b"\x08\x02"), r.restore_state(b"\x08\x7f"),
            r.restore_state(b"garbage"), r.reset(), r.serialize_state()]


def _reader_unsupported(tf, make, work):
    q = tf.FIFOQueue(10, tf.string, shapes=[[]])
    r = make(tf)
    k, _ = r.read(q)
    return [q.enqueue_many([work]), k, r.serialize_state(), r.restore_state(_STATE)]


QUEUE_CASES = [
    ("reader_state_identity", lambda tf: _reader_steps(tf, lambda tf: tf.IdentityReader(), ["a", "b", "c"])),
    ("reader_state_whole_file", lambda tf: _reader_steps(tf, lambda tf: tf.WholeFileReader(),
                                                         ["lines.txt", "fixed.bin", "lines.txt"])),
    ("reader_state_tfrecord", lambda tf: _reader_unsupported(tf, lambda tf: tf.TFRecordReader(),
                                                             ["records_none.tfrecord"])),
    ("reader_state_text_line", lambda tf: _reader_unsupported(tf, lambda tf: tf.TextLineReader(), ["lines.txt"])),
    ("reader_state_fixed", lambda tf: _reader_unsupported(tf, lambda tf: tf.FixedLengthRecordReader(4),
                                                          ["fixed.bin"])),
]
