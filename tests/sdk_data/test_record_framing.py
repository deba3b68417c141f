"""TFRecord framing in bulk: records of every size read back across buffer boundaries, damaged frames found at
the offsets the format gives, and batches cut straight from the record chunks."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from edgelite.io.tf_record import open_stream, record_chunks


def _records() -> list:
    """Small fixed-size runs, varied sizes and a record larger than the 256 KiB read buffer."""
    rng = np.random.default_rng(5)
    out = [bytes([i % 251]) * 40 for i in range(3000)]
    out += [rng.bytes(int(n)) for n in rng.integers(0, 700, 500)]
    out += [rng.bytes(300_000), b"", b"x"]
    out += [bytes([i % 7]) * 33 for i in range(2000)]
    return out


def _write(path, records, compression="") -> None:
    with tf.io.TFRecordWriter(str(path), compression) as w:
        for r in records:
            w.write(r)


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB"])
def test_round_trip_across_buffer_boundaries(tmp_path, compression):
    path = str(tmp_path / "r.tfrecord")
    want = _records()
    _write(path, want, compression)
    assert list(tf.io.tf_record_iterator(path, compression or None)) == want
    with tf.Graph().as_default():
        nxt = tf.data.make_one_shot_iterator(tf.data.TFRecordDataset(path, compression).batch(1000)).get_next()
        got = []
        with tf.Session() as sess:
            try:
                while True:
                    got.extend(sess.run(nxt).tolist())
            except tf.errors.OutOfRangeError:
                pass
    assert got == want


def _frame_offsets(records: list) -> list:
    """File offset of each frame: 12 header bytes + payload + 4 CRC bytes each."""
    return np.concatenate([[0], np.cumsum([16 + len(r) for r in records])]).tolist()


@pytest.mark.parametrize("victim,byte,kind", [(2999, 3, "length"), (3001, 12, "data"), (3500, 15, "data"),
                                              (5000, 9, "length")])
def test_damage_found_at_its_frame(tmp_path, victim, byte, kind):
    path = tmp_path / "r.tfrecord"
    records = _records()
    _write(path, records)
    data = bytearray(path.read_bytes())
    at = _frame_offsets(records)[victim]
    data[at + byte] ^= 0x40
    path.write_bytes(bytes(data))
    got = []
    with pytest.raises(tf.errors.DataLossError) as e:
        for r in tf.io.tf_record_iterator(str(path)):
            got.append(r)
    assert got == records[:victim]
    assert e.value.message == f"corrupted record at {at + (12 if kind == 'data' else 0)}"


def test_truncated_last_frame_and_trailing_partial_header(tmp_path):
    path = tmp_path / "r.tfrecord"
    records = _records()[:4000]
    _write(path, records)
    full = path.read_bytes()
    ends = _frame_offsets(records)
    path.write_bytes(full + b"\x01\x02\x03")
    assert list(tf.io.tf_record_iterator(str(path))) == records
    path.write_bytes(full[:ends[-2] + 20])
    with pytest.raises(tf.errors.DataLossError, match=f"truncated record at {ends[-2]}'"):
        list(tf.io.tf_record_iterator(str(path)))


def test_record_chunks_are_lists_per_read(tmp_path):
    path = str(tmp_path / "r.tfrecord")
    _write(path, _records())
    chunks = list(record_chunks(open_stream(path)))
    assert len(chunks) > 1 and sum(len(c) for c in chunks) == len(_records())
