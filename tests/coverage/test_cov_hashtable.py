"""HASHTABLE, HASHTABLE_IMPORT, HASHTABLE_FIND and HASHTABLE_SIZE against LiteRT (whose reference
resolver lacks them: its builtin kernels): int64 keys with string values and string keys with
int64 values, keys found and missing, repeated keys, an import that runs on every invoke but
fills the table once, and the refusals of unsupported key and value types."""
from __future__ import annotations

import numpy as np
import pytest

from covlib import check_against_litert, ours_cls
from support.tflite_builder import ModelBuilder
from table_models import string_buffer, table_model


WORDS = [b"zero", b"one", b"two", b"", b"\xc3\xa9t\xc3\xa9", b"five"]


def test_int64_keys_to_strings(litert):
    model = table_model([0, 1, 2, 3, 4, 5], WORDS, b"<unk>", [2, 3], "int64", "STRING")
    steps = [[np.array([[5, 2, 9], [-1, 0, 4]], np.int64)], [np.array([[3, 3, 3], [1, 7, 2]], np.int64)]]
    ours = check_against_litert(litert, model, steps, "HASHTABLE int64 -> string")
    assert ours[0][0].tolist() == [[b"five", b"two", b"<unk>"], [b"<unk>", b"zero", "\u00e9t\u00e9".encode()]]
    assert ours[0][1].tolist() == [6]


def test_string_keys_to_int64(litert):
    model = table_model(WORDS, [10, 11, 12, 13, 14, 15], -1, [4], "STRING", "int64")
    steps = [[np.array([b"two", b"nope", b"", "\u00e9t\u00e9".encode()], dtype=object)],
             [np.array(["five", "zero", "ZERO", "one"])]]
    ours = check_against_litert(litert, model, steps, "HASHTABLE string -> int64")
    assert ours[0][0].tolist() == [12, -1, 13, 14]
    assert ours[0][1].tolist() == ours[1][1].tolist() == [6]  # the second import adds nothing


def test_repeated_keys_keep_the_first_value(litert):
    model = table_model([4, 4, 7, 4], [b"a", b"b", b"c", b"d"], b"-", [3], "int64", "STRING")
    ours = check_against_litert(litert, model, [[np.array([4, 7, 8], np.int64)]], "HASHTABLE repeated keys")
    assert ours[0][1].tolist() == [2]


def test_many_keys(litert):
    rng = np.random.default_rng(4)
    keys = [int(v) for v in rng.choice(1 << 40, size=3000, replace=False)]
    values = [str(k).encode() for k in keys]
    model = table_model(keys, values, b"?", [500], "int64", "STRING")
    query = np.array(keys[:250] + [int(v) for v in rng.integers(0, 1 << 40, size=250)], np.int64)
    check_against_litert(litert, model, [[rng.permutation(query)]], "HASHTABLE 3000 keys")


@pytest.mark.parametrize("key_dtype, value_dtype", [("int64", "int64"), ("STRING", "STRING")])
def test_unsupported_key_value_types_are_refused(litert, key_dtype, value_dtype):
    key = [1, 2] if key_dtype != "STRING" else [b"a", b"b"]
    value = [1, 2] if value_dtype != "STRING" else [b"a", b"b"]
    default = b"-" if value_dtype == "STRING" else 0
    model = table_model(key, value, default, [2], key_dtype, value_dtype)
    for cls in (ours_cls(), litert.Interpreter):
        with pytest.raises(RuntimeError):
            cls(model_content=model).allocate_tensors()


def test_find_on_a_missing_table_is_an_error():
    """A FIND whose handle names no table (a handle tensor fed from outside) fails cleanly."""
    mb = ModelBuilder()
    g = mb.subgraph("main")
    h = g.tensor([1], np.int32, name="handle")
    q = g.tensor([2], np.int64, name="query")
    d = g.tensor([], "STRING", name="default", buffer=mb.buffer(string_buffer([b"-"])))
    out = g.tensor([2], "STRING", name="found")
    g.op("HASHTABLE_FIND", [h, q, d], [out])
    g.set_io([h, q], [out])
    it = ours_cls()(model_content=mb.build())
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], np.array([42], np.int32))
    it.set_tensor(it.get_input_details()[1]["index"], np.array([1, 2], np.int64))
    with pytest.raises(RuntimeError, match="Hash table 42 does not exist"):
        it.invoke()
