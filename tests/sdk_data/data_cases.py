"""Cases shared by the TensorFlow fixture generator and the edgelite tests of Example protos and parsing.

A proto case is (name, fn(tf) -> message); its deterministic serialization is recorded. A run case is
(name, fn(tf) -> fetches); the fetches (tensors, SparseTensors, nested in dicts/lists) are run in a
fresh graph and either their values or the error type and message are recorded. The same code runs
against `tensorflow.compat.v1` and `edgelite`.
"""
from __future__ import annotations


def feature(tf, kind, values):
    """A tf.train.Feature of int64 ('i'), float ('f') or bytes ('b') values."""
    if kind == "i":
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    if kind == "f":
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))


def example(tf, **feats):
    """A tf.train.Example from name=(kind, values) pairs."""
    return tf.train.Example(features=tf.train.Features(
        feature={k: feature(tf, kind, v) for k, (kind, v) in feats.items()}))


def ser(tf, **feats):
    return example(tf, **feats).SerializeToString(deterministic=True)


def seq_example(tf, context, lists):
    """A tf.train.SequenceExample: context name=(kind, values), lists name=(kind, [values per step])."""
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: feature(tf, kind, v) for k, (kind, v) in context.items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[feature(tf, kind, s) for s in steps])
            for k, (kind, steps) in lists.items()}))


def _built_up(tf):
    e = tf.train.Example()
    e.features.feature["ids"].int64_list.value.extend([3, -1, 2 ** 40])
    e.features.feature["w"].float_list.value.append(0.25)
    e.features.feature["name"].bytes_list.value.append(b"abc")
    return e


def _merged(tf):
    a = example(tf, x=("i", [1, 2]))
    b = example(tf, x=("i", [3]), y=("f", [1.5]))
    a.MergeFrom(b)
    c = tf.train.Example()
    c.CopyFrom(a)
    return c


PROTO_CASES = [
    ("empty_example", lambda tf: tf.train.Example()),
    ("one_of_each", lambda tf: example(tf, a=("i", [1, -2, 300]), b=("f", [0.5, -1e30]), c=("b", [b"", b"\xff\x00"]))),
    ("built_up", _built_up),
    ("merged", _merged),
    ("empty_lists", lambda tf: example(tf, a=("i", []), b=("f", []), c=("b", []))),
    ("sequence", lambda tf: seq_example(tf, {"len": ("i", [3])},
                                        {"tok": ("i", [[1], [2, 3], []]), "f": ("f", [[0.5, 1.5]])})),
    ("feature_list_alone", lambda tf: tf.train.FeatureList(feature=[feature(tf, "b", [b"q"])])),
]


def _parse(tf, records, feats, single=False, names=None):
    if single:
        return tf.io.parse_single_example(records[0], feats)
    return tf.io.parse_example(records, feats, example_names=names)


def _fixed(tf):
    return {"a": tf.io.FixedLenFeature([], tf.int64), "b": tf.io.FixedLenFeature([2], tf.float32),
            "c": tf.io.FixedLenFeature([], tf.string)}


def _two_records(tf):
    return [ser(tf, a=("i", [7]), b=("f", [1.0, 2.0]), c=("b", [b"x"])),
            ser(tf, a=("i", [-8]), b=("f", [3.5, -4.0]), c=("b", [b"yz"]), extra=("i", [1]))]


def _defaults(tf):
    return {"a": tf.io.FixedLenFeature([], tf.int64, default_value=-1),
            "b": tf.io.FixedLenFeature([2], tf.float32, default_value=[9.0, 8.0]),
            "c": tf.io.FixedLenFeature([], tf.string, default_value="dflt")}


def _seq_feats(tf, default=None):
    return {"s": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True, default_value=default),
            "t": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)}


def _seq_records(tf):
    return [ser(tf, s=("f", [1, 2, 3, 4]), t=("i", [5])), ser(tf, t=("i", [6, 7, 8])),
            ser(tf, s=("f", [9, 10]))]


def _varlen(tf):
    return {"v": tf.io.VarLenFeature(tf.int64), "w": tf.io.VarLenFeature(tf.string)}


def _varlen_records(tf):
    return [ser(tf, v=("i", [1, 2, 3]), w=("b", [b"a"])), ser(tf, w=("b", [b"b", b"c"])), ser(tf, v=("i", [4]))]


def _sparse_feature(tf):
    return {"sp": tf.io.SparseFeature(index_key="idx", value_key="val", dtype=tf.float32, size=6)}


def _sparse_records(tf):
    return [ser(tf, idx=("i", [4, 1]), val=("f", [0.5, 1.5])), ser(tf, idx=("i", []), val=("f", [])),
            ser(tf, idx=("i", [5]), val=("f", [2.5]))]


def _sparse_feature_2d(tf):
    return {"sp": tf.io.SparseFeature(index_key=["r", "c"], value_key="val", dtype=tf.int64, size=[3, 4],
                                      already_sorted=True)}


def _seq_ex(tf):
    return seq_example(tf, {"len": ("i", [2]), "lbl": ("b", [b"pos"])},
                       {"tok": ("i", [[1, 2], [3, 4]]), "var": ("f", [[0.5], [], [1.5, 2.5]])}).SerializeToString(
        deterministic=True)


def _seq_specs(tf):
    context = {"len": tf.io.FixedLenFeature([], tf.int64), "lbl": tf.io.FixedLenFeature([], tf.string),
               "missing": tf.io.FixedLenFeature([1], tf.float32, default_value=[0.25])}
    seq = {"tok": tf.io.FixedLenSequenceFeature([2], tf.int64), "var": tf.io.VarLenFeature(tf.float32)}
    return context, seq


def _single_seq(tf):
    context, seq = _seq_specs(tf)
    return tf.io.parse_single_sequence_example(_seq_ex(tf), context, seq)


def _batch_seq(tf):
    context, seq = _seq_specs(tf)
    other = seq_example(tf, {"len": ("i", [1]), "lbl": ("b", [b"neg"])},
                        {"tok": ("i", [[5, 6]]), "var": ("f", [[3.5]])}).SerializeToString(deterministic=True)
    return tf.io.parse_sequence_example([_seq_ex(tf), other], context, seq)


def _bad(tf, feats_fn, single, **feats):
    return lambda tf: _parse(tf, [ser(tf, **feats)], feats_fn(tf), single=single)


def _i64(tf):
    return {"a": tf.io.FixedLenFeature([], tf.int64)}


def _i64x2(tf):
    return {"a": tf.io.FixedLenFeature([2], tf.int64)}


def _f32x2(tf):
    return {"a": tf.io.FixedLenFeature([2], tf.float32)}


def _seq2(tf):
    return {"a": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)}


def _vl(tf):
    return {"a": tf.io.VarLenFeature(tf.int64)}


RUN_CASES = [
    ("fixed_batch", lambda tf: _parse(tf, _two_records(tf), _fixed(tf))),
    ("fixed_single", lambda tf: _parse(tf, _two_records(tf)[1:], _fixed(tf), single=True)),
    ("defaults_batch", lambda tf: _parse(tf, [ser(tf, a=("i", [3])), ser(tf, b=("f", [1.0, 2.0]))], _defaults(tf))),
    ("defaults_empty_list", lambda tf: _parse(tf, [ser(tf, a=("i", []))], _defaults(tf))),
    ("defaults_single", lambda tf: _parse(tf, [ser(tf, c=("b", [b"set"]))], _defaults(tf), single=True)),
    ("fixed_2d", lambda tf: _parse(tf, [ser(tf, m=("f", list(range(6))))],
                                   {"m": tf.io.FixedLenFeature([2, 3], tf.float32)})),
    ("seq_batch", lambda tf: _parse(tf, _seq_records(tf), _seq_feats(tf))),
    ("seq_batch_default", lambda tf: _parse(tf, _seq_records(tf), _seq_feats(tf, default=-1.0))),
    ("seq_single", lambda tf: _parse(tf, _seq_records(tf)[:1], _seq_feats(tf), single=True)),
    ("seq_single_missing", lambda tf: _parse(tf, _seq_records(tf)[2:], _seq_feats(tf), single=True)),
    ("varlen_batch", lambda tf: _parse(tf, _varlen_records(tf), _varlen(tf))),
    ("varlen_single", lambda tf: _parse(tf, _varlen_records(tf)[:1], _varlen(tf), single=True)),
    ("varlen_empty_batch", lambda tf: _parse(tf, [ser(tf, x=("i", [1]))], _varlen(tf))),
    ("sparse_feature", lambda tf: _parse(tf, _sparse_records(tf), _sparse_feature(tf))),
    ("sparse_feature_2d", lambda tf: _parse(tf, [ser(tf, r=("i", [0, 2]), c=("i", [3, 1]), val=("i", [7, 8]))],
                                            _sparse_feature_2d(tf))),
    ("mixed_names", lambda tf: _parse(tf, _two_records(tf), dict(_fixed(tf), **_vl(tf)), names=["r0", "r1"])),
    ("seq_example_single", _single_seq),
    ("seq_example_batch", _batch_seq),
    ("err_missing_batch", _bad(tf=None, feats_fn=_i64, single=False, b=("i", [1]))),
    ("err_missing_single", _bad(tf=None, feats_fn=_i64, single=True, b=("i", [1]))),
    ("err_type_batch", _bad(tf=None, feats_fn=_i64, single=False, a=("f", [1.0]))),
    ("err_type_single", _bad(tf=None, feats_fn=_i64, single=True, a=("f", [1.0]))),
    ("err_bytes_for_float", _bad(tf=None, feats_fn=_f32x2, single=False, a=("b", [b"1", b"2"]))),
    ("err_count_batch", _bad(tf=None, feats_fn=_i64x2, single=False, a=("i", [1, 2, 3]))),
    ("err_count_short_batch", _bad(tf=None, feats_fn=_i64x2, single=False, a=("i", [1]))),
    ("err_count_float_batch", _bad(tf=None, feats_fn=_f32x2, single=False, a=("f", [1.0, 2.0, 3.0]))),
    ("err_seq_stride_batch", _bad(tf=None, feats_fn=_seq2, single=False, a=("i", [1, 2, 3]))),
    ("err_varlen_type_batch", _bad(tf=None, feats_fn=_vl, single=False, a=("b", [b"x"]))),
    ("err_varlen_type_single", _bad(tf=None, feats_fn=_vl, single=True, a=("b", [b"x"]))),
    ("err_corrupt_batch", lambda tf: _parse(tf, [b"\x0a\x05abc"], _i64(tf))),
    ("err_corrupt_single", lambda tf: _parse(tf, [b"\x0a\x05abc"], _i64(tf), single=True)),
    ("err_names_batch", lambda tf: _parse(tf, [ser(tf, a=("i", [1])), ser(tf, b=("i", [1]))], _i64(tf),
                                          names=["first", "second"])),
]


def _csv(tf, records, defaults, **kw):
    return tf.io.decode_csv(records, defaults, **kw)


def _parsed_scalar(tf):
    record = ser(tf, image=("b", [b"\x01\x02\xfe\xff"]), label=("i", [2]))
    return tf.io.parse_single_example(record, {"image": tf.io.FixedLenFeature([], tf.string),
                                               "label": tf.io.FixedLenFeature([], tf.int64)})["image"]


DECODE_CASES = [
    ("raw_int16", lambda tf: tf.io.decode_raw([b"abcd", b"\x01\x80\xff\x7f"], tf.int16)),
    ("raw_int16_big", lambda tf: tf.io.decode_raw([b"abcd", b"\x01\x80\xff\x7f"], tf.int16, little_endian=False)),
    ("raw_float32", lambda tf: tf.io.decode_raw(b"\x00\x00\x80?\x00\x00\x00\xc0", tf.float32)),
    ("raw_uint8_2d", lambda tf: tf.io.decode_raw([[b"ab"], [b"cd"]], tf.uint8)),
    ("raw_float64_big", lambda tf: tf.io.decode_raw([b"?\xf0\x00\x00\x00\x00\x00\x00"], tf.float64,
                                                    little_endian=False)),
    ("err_raw_sizes", lambda tf: tf.io.decode_raw([b"abcd", b"ef"], tf.int16)),
    ("err_raw_multiple", lambda tf: tf.io.decode_raw([b"abc"], tf.int16)),
    # A scalar string parsed from one Example feeds further string kernels (a TFRecord image pipeline's idiom).
    ("raw_of_parsed_scalar", lambda tf: tf.io.decode_raw(_parsed_scalar(tf), tf.uint8)),
    ("length_of_parsed_scalar", lambda tf: tf.strings.length(_parsed_scalar(tf))),
    ("csv_basic", lambda tf: _csv(tf, ["1,2.5,x", '3,,"y,z"', '-4,1e3,"q""r"'], [[0], [1.0], ["d"]])),
    ("csv_types", lambda tf: _csv(tf, ["7,8.5,9"], [tf.constant([0], tf.int64), tf.constant([0.0], tf.float64),
                                                      [0]])),
    ("csv_delim_noquote", lambda tf: _csv(tf, ['a|"b'], [[""], [""]], field_delim="|", use_quote_delim=False)),
    ("csv_na", lambda tf: _csv(tf, ["NA,2", "1,NA"], [[-1], [-2]], na_value="NA")),
    ("csv_select", lambda tf: _csv(tf, ["1,2,3,4", "5,6,7,8"], [[0], [0.0]], select_cols=[1, 3])),
    ("csv_scalar", lambda tf: _csv(tf, "1,x", [[0], ["s"]])),
    ("csv_empty_string_default", lambda tf: _csv(tf, [","], [[""], [""]])),
    ("err_csv_count", lambda tf: _csv(tf, ["1,2"], [[0], [0], [0]])),
    ("err_csv_int", lambda tf: _csv(tf, ["a,2"], [[0], [0]])),
    ("err_csv_float", lambda tf: _csv(tf, ["1,b"], [[0], [0.0]])),
    ("err_csv_required", lambda tf: _csv(tf, ["1,"], [[0], tf.constant([], tf.int32)])),
    ("err_csv_quote", lambda tf: _csv(tf, ['"ab"c,1'], [[""], [0]])),
    ("err_csv_int_range", lambda tf: _csv(tf, ["99999999999"], [[0]])),
    ("base64", lambda tf: tf.io.decode_base64(["aGVsbG8", "", "_-8"])),
    ("base64_padded", lambda tf: tf.io.decode_base64(["aGVsbG8="])),
    ("encode_base64", lambda tf: tf.io.encode_base64([b"hello", b"\xfb\xff", b""])),
    ("encode_base64_pad", lambda tf: tf.io.encode_base64([b"hello", b"\xfb\xff"], pad=True)),
    ("err_base64", lambda tf: tf.io.decode_base64(["!!"])),
    ("compressed_zlib_roundtrip", lambda tf: tf.io.decode_compressed(
        [b"x\x9c\xcbH\xcd\xc9\xc9\x07\x00\x06,\x02\x15"], "ZLIB")),
    ("compressed_none", lambda tf: tf.io.decode_compressed([b"plain"], "")),
    ("err_compressed", lambda tf: tf.io.decode_compressed([b"xx"], "ZLIB")),
    ("serialize_tensor", lambda tf: tf.io.serialize_tensor(tf.constant([[1.5, -2.0]], tf.float32))),
    ("parse_tensor", lambda tf: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([3, 4], tf.int64)),
                                                   tf.int64)),
    ("parse_tensor_string", lambda tf: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([b"a", b"bc"])),
                                                          tf.string)),
    ("err_parse_tensor_type", lambda tf: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([3])), tf.float32)),
    ("json_example", lambda tf: tf.io.decode_json_example(
        ['{"features": {"feature": {"a": {"int64List": {"value": ["1", 2]}}}}}'])),
]


def _fifo_steps(tf):
    q = tf.FIFOQueue(4, [tf.int32, tf.string], shapes=[[2], []])
    return [q.enqueue_many([[[1, 2], [3, 4], [5, 6]], ["a", "b", "c"]]), q.size(), q.dequeue(), q.dequeue_many(2),
            q.enqueue([[7, 8], "d"]), q.close(), q.is_closed(), q.dequeue_up_to(5), q.dequeue(),
            q.enqueue([[9, 9], "e"]), q.size()]


def _padding_steps(tf):
    q = tf.PaddingFIFOQueue(5, [tf.int64, tf.string], shapes=[[None], [None]])
    return [q.enqueue([[1], ["x"]]), q.enqueue([[2, 3, 4], []]), q.enqueue([[], ["y", "z"]]), q.dequeue_many(3)]


def _priority_steps(tf):
    q = tf.PriorityQueue(5, [tf.string], shapes=[[]])
    return [q.enqueue_many([[5, -1, 3, 3], ["e", "m", "c1", "c2"]]), q.dequeue(), q.dequeue_many(2), q.size()]


def _shuffle_steps(tf):
    q = tf.RandomShuffleQueue(10, 2, tf.int32, shapes=[[]], seed=5)
    return [q.enqueue_many([[1, 2, 3]]), q.size(), q.close(), q.dequeue_up_to(10), q.dequeue()]


def _named_steps(tf):
    q = tf.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[], []], names=["f", "i"])
    return [q.enqueue({"f": 1.5, "i": 2}), q.dequeue()]


def _shape_mismatch_steps(tf):
    q = tf.FIFOQueue(3, tf.int32, shapes=[[2]])
    p = tf.placeholder(tf.int32, [None])
    return [(q.enqueue(p), {p: [1, 2, 3]})]


def _cancel_steps(tf):
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    return [q.enqueue(1), q.close(cancel_pending_enqueues=True), q.dequeue(), q.dequeue()]


QUEUE_CASES = [
    ("fifo", _fifo_steps),
    ("padding_fifo", _padding_steps),
    ("priority", _priority_steps),
    ("shuffle_closed_drains", _shuffle_steps),
    ("named", _named_steps),
    ("shape_mismatch", _shape_mismatch_steps),
    ("close_cancel", _cancel_steps),
]


def _files(tf, names, epochs=1):
    return tf.train.string_input_producer(names, num_epochs=epochs, shuffle=False)


def _tfrecord_read(tf):
    r = tf.TFRecordReader(options=tf.python_io.TFRecordOptions(tf.python_io.TFRecordCompressionType.ZLIB))
    k, v = r.read(_files(tf, ["records_zlib.tfrecord"]))
    return [k, tf.parse_single_example(v, {"i": tf.FixedLenFeature([], tf.int64)})["i"]]


def _tfrecord_read_up_to(tf):
    k, v = tf.TFRecordReader().read_up_to(_files(tf, ["records_none.tfrecord"], 2), 10)
    return [k, tf.parse_example(v, {"x": tf.FixedLenFeature([2], tf.float32)})["x"]]


def _lines_read(tf):
    r = tf.TextLineReader(skip_header_lines=1)
    k, v = r.read(_files(tf, ["lines.txt", "lines.txt"]))
    return [k, tf.decode_csv(v, [[0], [0.0], ["?"]])]


def _fixed_read(tf):
    r = tf.FixedLengthRecordReader(record_bytes=4, header_bytes=2, footer_bytes=1)
    k, v = r.read(_files(tf, ["fixed.bin"]))
    return [k, tf.decode_raw(v, tf.int16)]


def _whole_read(tf):
    k, v = tf.WholeFileReader().read(_files(tf, ["lines.txt"]))
    return [k, v]


def _identity_read(tf):
    k, v = tf.IdentityReader().read(_files(tf, ["a", "b", "c"], 2))
    return [k, v]


def _slice_batch(tf):
    x, y = tf.train.slice_input_producer([tf.range(7), tf.range(7) * 10], num_epochs=2, shuffle=False)
    return tf.train.batch([x, y], batch_size=3, allow_smaller_final_batch=True)


def _dict_batch(tf):
    x = tf.train.range_input_producer(5, num_epochs=1, shuffle=False).dequeue()
    return tf.train.batch({"a": x, "b": tf.fill(tf.reshape(x, [1]), x)}, batch_size=2, dynamic_pad=True,
                          allow_smaller_final_batch=True)


def _many_batch(tf):
    x = tf.train.limit_epochs(tf.constant([[1, 2], [3, 4], [5, 6]]), num_epochs=2)
    return tf.train.batch([x], batch_size=4, enqueue_many=True)


def _maybe_batch(tf):
    x = tf.train.range_input_producer(8, num_epochs=1, shuffle=False).dequeue()
    return tf.train.maybe_batch([x], tf.equal(x % 2, 0), batch_size=2)


PIPELINE_CASES = [
    ("tfrecord_read", _tfrecord_read),
    ("tfrecord_read_up_to", _tfrecord_read_up_to),
    ("lines_read", _lines_read),
    ("fixed_read", _fixed_read),
    ("whole_read", _whole_read),
    ("identity_read", _identity_read),
    ("slice_batch", _slice_batch),
    ("dict_batch", _dict_batch),
    ("many_batch", _many_batch),
    ("maybe_batch", _maybe_batch),
]


def _slices(tf):
    return tf.data.Dataset.from_tensor_slices(({"a": [[1, 2], [3, 4], [5, 6]]}, ["x", "y", "z"]))


def _gen():
    yield 1, [1.0]
    yield 2, [2.0, 3.0]
    yield 3, []


DATASET_CASES = [
    ("slices_dict", _slices),
    ("range_args", lambda tf: tf.data.Dataset.range(2, 11, 3)),
    ("from_tensors", lambda tf: tf.data.Dataset.from_tensors(([1, 2], "s"))),
    ("map_filter_batch", lambda tf: tf.data.Dataset.range(10).map(lambda x: (x, x * x)).filter(
        lambda a, b: tf.equal(a % 3, 0)).batch(2)),
    ("batch_drop", lambda tf: tf.data.Dataset.range(7).batch(3, drop_remainder=True)),
    ("padded_batch", lambda tf: tf.data.Dataset.range(5).map(lambda x: tf.fill([x], x)).padded_batch(2)),
    ("padded_batch_shapes", lambda tf: tf.data.Dataset.range(4).map(lambda x: (tf.fill([x], x), x)).padded_batch(
        3, padded_shapes=([5], []), padding_values=(tf.constant(-1, tf.int64), tf.constant(0, tf.int64)))),
    ("repeat_take_skip", lambda tf: tf.data.Dataset.range(3).repeat(3).skip(2).take(5)),
    ("zip_enumerate", lambda tf: tf.data.Dataset.zip((tf.data.Dataset.range(3),
                                                      tf.data.Dataset.range(10, 20))).enumerate(5)),
    ("concatenate", lambda tf: tf.data.Dataset.range(2).concatenate(tf.data.Dataset.range(5, 7))),
    ("flat_map", lambda tf: tf.data.Dataset.range(1, 4).flat_map(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(x))),
    ("interleave", lambda tf: tf.data.Dataset.range(1, 5).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=2, block_length=2)),
    ("unbatch", lambda tf: tf.data.Dataset.from_tensors([[1, 2], [3, 4]]).unbatch()),
    ("generator", lambda tf: tf.data.Dataset.from_generator(_gen, (tf.int64, tf.float32), ([], [None]))),
    ("cache_prefetch", lambda tf: tf.data.Dataset.range(4).cache().repeat(2).prefetch(tf.data.experimental.AUTOTUNE)),
    ("tfrecord_parse", lambda tf: tf.data.TFRecordDataset(["records_zlib.tfrecord"], "ZLIB").take(6).batch(4).map(
        lambda r: tf.parse_example(r, {"x": tf.FixedLenFeature([2], tf.float32)})["x"])),
    ("text_lines_csv", lambda tf: tf.data.TextLineDataset("lines.txt").skip(1).map(
        lambda ln: tf.decode_csv(ln, [[0], [-1.0], ["?"]]))),
    ("fixed_length", lambda tf: tf.data.FixedLengthRecordDataset(["fixed.bin"], 4, header_bytes=2, footer_bytes=1)),
    ("shuffle_all", lambda tf: tf.data.Dataset.range(12).shuffle(5, seed=4)),
    ("list_files", lambda tf: tf.data.Dataset.list_files("records_*.tfrecord", shuffle=False)),
    ("varlen_map_batch", lambda tf: tf.data.Dataset.from_tensor_slices(_varlen_records(tf)).map(
        lambda r: tf.parse_single_example(r, _varlen(tf))).batch(2)),
    ("sparse_through_map", lambda tf: tf.data.Dataset.from_tensor_slices(_varlen_records(tf)).map(
        lambda r: tf.parse_single_example(r, _varlen(tf))["v"]).batch(3).map(
        lambda sp: tf.sparse.to_dense(sp, default_value=-1))),
    ("err_parse_in_batched_map", lambda tf: tf.data.Dataset.from_tensor_slices(
        [ser(tf, a=("i", [1])), ser(tf, a=("f", [2.0]))]).map(lambda r: tf.parse_single_example(r, _i64(tf))).batch(2)),
    ("err_batch_shapes", lambda tf: tf.data.Dataset.range(1, 3).map(lambda x: tf.fill([x], x)).batch(2)),
    ("err_generator_shape", lambda tf: tf.data.Dataset.from_generator(lambda: iter([[1, 2, 3]]), tf.int32, [2])),
    ("err_list_files", lambda tf: tf.data.Dataset.list_files("nothing_here_*.bin")),
]


CORRUPT_FILES = ["truncated_body.tfrecord", "truncated_header.tfrecord", "bad_data_crc.tfrecord",
                 "bad_length_crc.tfrecord", "not_gzip.tfrecord"]


def make_corrupt_files(good: bytes, directory) -> None:
    """Damaged copies of a plain TFRecord file of 3+ records (good), written next to the fixtures."""
    first = 16 + int.from_bytes(good[:8], "little")
    (directory / "truncated_body.tfrecord").write_bytes(good[:first + 20])
    (directory / "truncated_header.tfrecord").write_bytes(good[:first + 5])
    flipped = bytearray(good)
    flipped[first + 14] ^= 0xFF
    (directory / "bad_data_crc.tfrecord").write_bytes(bytes(flipped))
    flipped = bytearray(good)
    flipped[first + 9] ^= 0xFF
    (directory / "bad_length_crc.tfrecord").write_bytes(bytes(flipped))
    (directory / "not_gzip.tfrecord").write_bytes(good)


def read_corrupt(tf, name: str, error_core) -> dict:
    """How many records tf_record_iterator and TFRecordDataset yield before the error, and the errors."""
    options = "GZIP" if name == "not_gzip.tfrecord" else None
    out: dict = {}
    n = 0
    try:
        for _ in tf.io.tf_record_iterator(name, options):
            n += 1
        out["iterator"] = [n, None, None]
    except Exception as e:  # noqa: BLE001 - the error is the recorded result
        out["iterator"] = [n, type(e).__name__, getattr(e, "message", str(e))]
    g = tf.Graph()
    with g.as_default():
        nxt = tf.data.make_one_shot_iterator(tf.data.TFRecordDataset(name, options or "")).get_next()
        n = 0
        with tf.Session(graph=g) as sess:
            try:
                while True:
                    sess.run(nxt)
                    n += 1
            except tf.errors.OutOfRangeError:
                out["dataset"] = [n, None, None]
            except tf.errors.OpError as e:
                out["dataset"] = [n, type(e).__name__, error_core(e.message)]
    return out
