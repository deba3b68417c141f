"""STRING model inputs and outputs through set_tensor/get_tensor and signature runners, compared
with LiteRT: arrays of bytes, str and objects go in, object arrays of bytes come out; bad values
and malformed buffers are refused with LiteRT's messages or a clear one of our own."""
from __future__ import annotations

import struct

import numpy as np
import pytest

from covlib import check_against_litert, ours_cls
from support.tflite_builder import ModelBuilder, options

WORDS = [[b"a", b"bc", b""], [b"x\x00y", "\u00e9t\u00e9".encode(), b"a much longer string than the others"]]


def reshape_model(in_shape, out_shape, signature: bool = False, new_shape=None) -> bytes:
    """strings[in_shape] --RESHAPE(new_shape, default out_shape)--> strings[out_shape], both model I/O."""
    new_shape = list(out_shape) if new_shape is None else new_shape
    mb = ModelBuilder()
    g = mb.subgraph("main")
    x = g.tensor(in_shape, "STRING", name="x")
    shape = g.tensor([len(new_shape)], np.int32, name="shape", data=np.array(new_shape, np.int32))
    y = g.tensor(out_shape, "STRING", name="y")
    g.op("RESHAPE", [x, shape], [y], options=options("Reshape", new_shape=new_shape))
    g.set_io([x], [y])
    if signature:
        mb.signature("serving_default", {"x": x}, {"y": y})
    return mb.build()


def gather_model(n_words: int, n_idx: int) -> bytes:
    """GATHER(strings[n_words], idx[n_idx]) with both operands model inputs."""
    mb = ModelBuilder()
    g = mb.subgraph("main")
    words = g.tensor([n_words], "STRING", name="words")
    idx = g.tensor([n_idx], np.int32, name="idx")
    out = g.tensor([n_idx], "STRING", name="out")
    g.op("GATHER", [words, idx], [out], options=options("Gather", axis=0))
    g.set_io([words, idx], [out])
    return mb.build()


def as_kinds(words):
    """The same strings as numpy bytes ('S'), str ('U', UTF-8 decodable only) and object arrays."""
    b = np.array(words, dtype=object)
    kinds = [np.array(words, dtype=np.bytes_), b]
    try:
        kinds.append(np.array([[w.decode() for w in row] for row in words]))
    except UnicodeDecodeError:
        pass
    return kinds


def test_string_input_through_reshape_matches_litert(litert):
    words = [[b"a", b"bc", b""], [b"x", "\u00e9t\u00e9".encode(), b"a much longer string"]]
    model = reshape_model([2, 3], [6])
    steps = [[v] for v in as_kinds(words)]
    assert len(steps) == 3
    ours = check_against_litert(litert, model, steps, "string RESHAPE")
    assert ours[0][0].dtype == object and ours[0][0].tolist() == [w for row in words for w in row]


def test_inner_nul_bytes_and_object_mixtures_match_litert(litert):
    mixed = np.array([[b"a\x00b", "\u00fc", b""], ["", b"\x00", "z"]], dtype=object)
    check_against_litert(litert, reshape_model([2, 3], [3, 2]), [[mixed], [np.array(WORDS, np.bytes_)]],
                         "string RESHAPE, mixed object array")


def test_string_params_as_model_input_to_gather_match_litert(litert):
    rng = np.random.default_rng(3)
    model = gather_model(6, 5)
    steps = []
    for n in range(3):
        words = np.array([bytes(rng.integers(0, 256, size=int(rng.integers(0, 9))).astype(np.uint8))
                          for _ in range(6)], dtype=object)
        steps.append([words, rng.integers(0, 6, size=5).astype(np.int32)])
    check_against_litert(litert, model, steps, "GATHER of input strings")


def test_get_tensor_of_a_set_string_input_returns_object_bytes(litert):
    model = reshape_model([2, 3], [6])
    value = np.array([["p", "q", "r"], ["s", "t", "uvw"]])
    got = []
    for cls in (ours_cls(), litert.Interpreter):
        it = cls(model_content=model)
        it.allocate_tensors()
        idx = it.get_input_details()[0]["index"]
        it.set_tensor(idx, value)
        got.append(it.get_tensor(idx))
    assert got[0].dtype == got[1].dtype == object
    assert got[0].shape == got[1].shape == (2, 3)
    assert got[0].tolist() == got[1].tolist()


def test_details_say_bytes_dtype(litert):
    model = reshape_model([2, 3], [6])
    ours, ref = ours_cls()(model_content=model), litert.Interpreter(model_content=model)
    for a, b in ((ours.get_input_details()[0], ref.get_input_details()[0]),
                 (ours.get_output_details()[0], ref.get_output_details()[0])):
        assert a["dtype"] is b["dtype"] is np.bytes_


@pytest.mark.parametrize("value, message", [
    (np.array([[1, 2, 3], [4, 5, 6]], dtype=object), "PyBytes_AsStringAndSize() failed."),
    (np.array([b"a"] * 6), "Dimension mismatch. Got 1 but expected 2 for input 0."),
    (np.array([[b"a"] * 2] * 2), "Dimension mismatch. Got 2 but expected 3 for dimension 1 of input 0."),
    (np.zeros((2, 3), np.int32), "Got value of type INT32 but expected type STRING for input 0, name: x"),
])
def test_bad_string_values_are_refused_like_litert(litert, value, message):
    model = reshape_model([2, 3], [6])
    for cls in (ours_cls(), litert.Interpreter):
        it = cls(model_content=model)
        it.allocate_tensors()
        with pytest.raises(ValueError) as err:
            it.set_tensor(it.get_input_details()[0]["index"], value)
        assert message in str(err.value), (cls, str(err.value))


def test_a_refused_value_leaves_the_previous_strings(litert):
    model = reshape_model([2, 3], [6])
    it = ours_cls()(model_content=model)
    it.allocate_tensors()
    idx = it.get_input_details()[0]["index"]
    it.set_tensor(idx, np.array(WORDS, dtype=object))
    with pytest.raises(ValueError):
        it.set_tensor(idx, np.array([[b"a", b"b", 3]] * 2, dtype=object))
    it.invoke()
    assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [w for row in WORDS for w in row]


def test_resized_string_input_and_signature_runner(litert):
    model = reshape_model([2, 3], [6], signature=True, new_shape=[-1])
    ours, ref = ours_cls()(model_content=model), litert.Interpreter(model_content=model)
    value = np.array([[b"one", b"", b"three", b"4"]] * 2)
    outs = []
    for it in (ours, ref):
        idx = it.get_input_details()[0]["index"]
        it.resize_tensor_input(idx, [2, 4])
        it.allocate_tensors()
        it.set_tensor(idx, value)
        it.invoke()
        outs.append(it.get_tensor(it.get_output_details()[0]["index"]))
    assert outs[0].tolist() == outs[1].tolist() == value.ravel().tolist()
    runs = [it.get_signature_runner()(x=np.array([["x", "yy", "zzz"]] * 2)) for it in (ours, ref)]
    assert runs[0]["y"].tolist() == runs[1]["y"].tolist() == [b"x", b"yy", b"zzz"] * 2


def test_setting_before_allocation_is_refused():
    it = ours_cls()(model_content=reshape_model([2, 3], [6]))
    idx = it.get_input_details()[0]["index"]
    it.resize_tensor_input(idx, [3, 2])
    with pytest.raises(ValueError, match="allocate_tensors"):
        it.set_tensor(idx, np.array([[b"a"] * 2] * 3))


def _c_set(it, raw: bytes) -> None:
    from edgelite_runtime._lib import ffi, lib

    native = it._native
    native.raise_for(lib.el_tensor_set_string(native.interp, 0, it.get_input_details()[0]["index"],
                                              ffi.from_buffer(raw), len(raw)))


def _layout(strings, count=None, offsets=None) -> bytes:
    head = 4 * (len(strings) + 2)
    offs = offsets or [head + sum(len(s) for s in strings[:k]) for k in range(len(strings) + 1)]
    return struct.pack(f"<{len(offs) + 1}i", len(strings) if count is None else count, *offs) + b"".join(strings)


@pytest.mark.parametrize("raw", [
    b"",
    b"\x06\x00",
    _layout([b"a"] * 6, count=5),
    _layout([b"a"] * 6, count=-1),
    _layout([b"a"] * 6, count=1 << 30),
    _layout([b"a"] * 6, offsets=[32, 33, 34, 35, 36, 37, 39]),
    _layout([b"a"] * 6, offsets=[28, 29, 30, 31, 32, 33, 34]),
    _layout([b"a"] * 6, offsets=[32, 34, 33, 35, 36, 37, 38]),
    _layout([b"a"] * 6) + b"extra",
], ids=["empty", "short", "count", "negative", "huge", "past_end", "into_header", "backwards", "trailing"])
def test_c_api_refuses_malformed_string_buffers(raw):
    it = ours_cls()(model_content=reshape_model([2, 3], [6]))
    it.allocate_tensors()
    with pytest.raises(ValueError, match="not a well-formed buffer of 6 strings"):
        _c_set(it, raw)
    good = _layout([b"a", b"b", b"c", b"d", b"e", b"f"])
    _c_set(it, good)
    it.invoke()
    assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [b"a", b"b", b"c", b"d", b"e", b"f"]


def test_c_api_refuses_non_string_and_constant_tensors():
    from edgelite_runtime._lib import ffi, lib

    it = ours_cls()(model_content=reshape_model([2, 3], [6]))
    it.allocate_tensors()
    native, raw = it._native, _layout([b""] * 6)
    shape_index = next(d["index"] for d in it.get_tensor_details() if d["name"] == "shape")
    with pytest.raises(ValueError, match="not a STRING tensor"):
        native.raise_for(lib.el_tensor_set_string(native.interp, 0, shape_index, ffi.from_buffer(raw), len(raw)))
    with pytest.raises(ValueError, match="Invalid tensor index 99"):
        native.raise_for(lib.el_tensor_set_string(native.interp, 0, 99, ffi.from_buffer(raw), len(raw)))


_TFLRT_SCRIPT = """
import json, sys
import numpy as np
from tflite_runtime.interpreter import Interpreter
it = Interpreter(model_path=sys.argv[1])
it.allocate_tensors()
out = []
for arg in sys.argv[2:]:
    it.set_tensor(it.get_input_details()[0]["index"], np.array(json.loads(arg)))
    it.invoke()
    y = it.get_tensor(it.get_output_details()[0]["index"])
    out.append({"dtype": str(y.dtype), "shape": list(y.shape), "hex": [v.hex() for v in y.ravel()]})
print(json.dumps(out))
"""


def test_string_input_matches_tflite_runtime(tmp_path):
    """The same strings through RESHAPE in tflite-runtime 2.14 (its own NumPy 1.x environment)."""
    import json
    import os
    import subprocess
    from pathlib import Path

    python = Path(os.environ.get("EDGELITE_TFLRT_PYTHON", "/opt/tflrt/bin/python"))
    if not python.exists():
        pytest.skip(f"tflite-runtime environment not found at {python}")
    model = reshape_model([2, 3], [3, 2])
    path = tmp_path / "strings.tflite"
    path.write_bytes(model)
    values = [[["a", "bc", ""], ["x", "\u00e9t\u00e9", "zzz"]], [["", "", "q"], ["1", "22", "333"]]]
    done = subprocess.run([str(python), "-c", _TFLRT_SCRIPT, str(path)] + [json.dumps(v) for v in values],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0 and "No module named 'tflite_runtime'" in done.stderr:
        pytest.skip("tflite_runtime does not import in its environment")
    assert done.returncode == 0, done.stderr
    ref = json.loads(done.stdout)
    it = ours_cls()(model_content=model)
    it.allocate_tensors()
    for v, r in zip(values, ref):
        it.set_tensor(it.get_input_details()[0]["index"], np.array(v))
        it.invoke()
        y = it.get_tensor(it.get_output_details()[0]["index"])
        assert (str(y.dtype), list(y.shape)) == (r["dtype"], r["shape"])
        assert [b.hex() for b in y.ravel()] == r["hex"]


PADDED = b"abcd" + bytes(16)


def _round_trip(cls, model: bytes, value) -> list:
    """set_tensor, get_tensor of the input, invoke, get_tensor of the output, then a signature run."""
    it = cls(model_content=model)
    it.allocate_tensors()
    idx, out = it.get_input_details()[0]["index"], it.get_output_details()[0]["index"]
    it.set_tensor(idx, value)
    got = it.get_tensor(idx)
    it.invoke()
    y = it.get_tensor(out)
    run = cls(model_content=model).get_signature_runner()(x=value)["y"]
    return [(a.dtype, a.shape, a.tolist()) for a in (got, y, run)]


@pytest.mark.parametrize("shape, out_shape, value", [
    ([], [1], np.array(PADDED)),
    ([], [1], np.array(b"a\x00b\x00\x00")),
    ([2], [2], np.array([PADDED, b"x\x00"], dtype=object)),
    ([2, 2], [4], np.array([[PADDED, b"\x00"], [b"\x00a\x00", b""]], dtype=object)),
    ([2], [2], np.array([PADDED, b"x\x00"])),
], ids=["0d_bytes_trailing_nuls", "0d_bytes_inner_nuls", "1d_object", "2d_object", "1d_fixed_width"])
def test_nul_bytes_survive_like_litert(litert, shape, out_shape, value):
    """Every byte LiteRT keeps is kept: a 0-d 'S' array whole, object elements whole; an n-d 'S'
    array's elements lose trailing NULs in both (numpy's item access)."""
    model = reshape_model(shape, out_shape, signature=True)
    ours, ref = _round_trip(ours_cls(), model, value), _round_trip(litert.Interpreter, model, value)
    assert ours == ref
    if value.ndim == 0:
        assert ours[0][2] == value.tobytes() and ours[1][2] == [value.tobytes()]


@pytest.mark.parametrize("value", [[PADDED, b"x"], PADDED, np.bytes_(PADDED)], ids=["list", "bytes", "np_bytes"])
def test_string_set_tensor_refuses_non_arrays_like_litert(litert, value):
    shape = [2] if isinstance(value, list) else []
    model = reshape_model(shape, [2] if shape else [1], signature=True)
    messages = []
    for cls in (ours_cls(), litert.Interpreter):
        it = cls(model_content=model)
        it.allocate_tensors()
        with pytest.raises(ValueError) as err:
            it.set_tensor(it.get_input_details()[0]["index"], value)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("Passed in value type is not a numpy array, got type ")
    # LiteRT's runner reads value.shape first (AttributeError for a list or bytes); ours refuses
    # every non-array with the same ValueError, which LiteRT raises for a numpy scalar.
    with pytest.raises(ValueError) as err:
        ours_cls()(model_content=model).get_signature_runner()(x=value)
    assert str(err.value) == messages[0]


def test_signature_runner_refuses_non_arrays_and_takes_numpy_scalars(litert):
    mb = ModelBuilder()
    g = mb.subgraph("main")
    x, y = g.tensor([], np.float32, name="x"), g.tensor([], np.float32, name="y")
    g.op("RELU", [x], [y])
    g.set_io([x], [y])
    mb.signature("serving_default", {"x": x}, {"y": y})
    model = mb.build()
    ours, ref = (cls(model_content=model).get_signature_runner() for cls in (ours_cls(), litert.Interpreter))
    for value in (np.float32(-2.5), np.array(3.5, np.float32)):
        assert ours(x=value)["y"] == ref(x=value)["y"]
    for value, name in ((1.0, "float"), ([1.0], "list")):
        with pytest.raises(ValueError, match=f"^Passed in value type is not a numpy array, got type {name}.$"):
            ours(x=value)
        with pytest.raises(AttributeError):
            ref(x=value)


def test_zero_d_str_and_object_values_are_their_utf8_and_bytes():
    """LiteRT copies a 0-d array's raw memory (UCS-4 code units for 'U', a PyObject pointer for
    object); edgelite stores what the element holds, as it does for every n-d element."""
    model = reshape_model([], [1], signature=True)
    for value, want in ((np.array("\u00e9t\u00e9"), "\u00e9t\u00e9".encode()),
                        (np.array(PADDED, dtype=object), PADDED)):
        it = ours_cls()(model_content=model)
        it.allocate_tensors()
        it.set_tensor(0, value)
        assert it.get_tensor(0).tolist() == want
        assert it.get_signature_runner()(x=value)["y"].tolist() == [want]


def test_tensor_view_of_a_string_is_refused():
    """tensor() cannot alias TFLite's packed string layout (LiteRT crashes on it); get_tensor() reads it."""
    it = ours_cls()(model_content=reshape_model([2], [2]))
    it.allocate_tensors()
    it.set_tensor(0, np.array([PADDED, b"x"], dtype=object))
    with pytest.raises(ValueError, match="get_tensor"):
        it.tensor(0)()
    assert it.get_tensor(0).tolist() == [PADDED, b"x"]
