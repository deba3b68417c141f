"""Fixtures for the core tests: the C API through cffi (independent of the Python binding),
and small .tflite models written with LiteRT's flatbuffer object API."""
from __future__ import annotations

import copy
import importlib.util
import os
import re
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "runtime_c" / "include" / "edgelite"
_CORPUS = ROOT.parent / "shared" / "corpus"
# Parametrization needs the names at collection time; the corpus_dir fixture still skips
# every test when the corpus is absent.
CORPUS_MODELS = sorted(p.name for p in _CORPUS.iterdir() if (p / "model.tflite").is_file()) if _CORPUS.is_dir() else []


def _cdef(path: Path) -> str:
    text = path.read_text()
    # cffi's parser has no preprocessor: substitute the header's integer constants first.
    for name, value in re.findall(r"^#define (\w+) (\d+)$", text, flags=re.M):
        text = re.sub(rf"\b{name}\b", value, text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"#ifdef __cplusplus.*?#endif", "", text, flags=re.S)
    return "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))


def _library() -> str | None:
    env = os.environ.get("EDGELITE_LIBRARY")
    if env:
        return env
    spec = importlib.util.find_spec("edgelite_runtime")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        p = Path(loc) / "libedgelite.so"
        if p.is_file():
            return str(p)
    return None


class CApi:
    """The C API plus helpers that turn statuses into (status, message) pairs."""

    def __init__(self, ffi, lib) -> None:
        self.ffi = ffi
        self.lib = lib

    def load(self, data: bytes):
        """Model from bytes: (status, model or None, message); keeps `data` alive on the model."""
        err = self.ffi.new("char[8192]")
        out = self.ffi.new("el_model**")
        buf = self.ffi.from_buffer(data)
        st = self.lib.el_model_create_from_buffer(buf, len(data), out, err, 8192)
        if st != 0:
            return st, None, self.ffi.string(err).decode("utf-8", "replace")
        model = self.ffi.gc(out[0], self.lib.el_model_destroy)
        self._keep = getattr(self, "_keep", {})
        self._keep[id(model)] = (data, buf)
        return st, model, ""

    def interpreter(self, model, **opts):
        """Interpreter over `model`: (status, interpreter or None, message)."""
        err = self.ffi.new("char[8192]")
        out = self.ffi.new("el_interpreter**")
        o = self.ffi.new("el_interpreter_options*")
        o.num_threads = opts.get("num_threads", 1)
        o.resolver = opts.get("resolver", 0)
        o.preserve_all_tensors = opts.get("preserve_all_tensors", 0)
        custom = opts.get("custom_ops")
        if custom:
            o.custom_ops = custom
            o.num_custom_ops = len(custom)
        st = self.lib.el_interpreter_create(model, o, out, err, 8192)
        if st != 0:
            return st, None, self.ffi.string(err).decode("utf-8", "replace")
        interp = self.ffi.gc(out[0], self.lib.el_interpreter_destroy)
        # The model must outlive its interpreter; tests often hold only the interpreter.
        self._keep = getattr(self, "_keep", {})
        self._keep[id(interp)] = model
        return st, interp, ""

    def error(self, interp) -> str:
        return self.ffi.string(self.lib.el_interpreter_error(interp)).decode("utf-8", "replace")


@pytest.fixture(scope="session")
def capi() -> CApi:
    cffi = pytest.importorskip("cffi", reason="cffi is not installed")
    path = _library()
    if path is None:
        pytest.skip("libedgelite not found: set EDGELITE_LIBRARY or install the package")
    ffi = cffi.FFI()
    ffi.cdef(_cdef(INCLUDE / "common.h"))
    ffi.cdef(_cdef(INCLUDE / "builtin_op_data.h"))
    ffi.cdef(_cdef(INCLUDE / "edgelite.h"))
    return CApi(ffi, ffi.dlopen(path))


@pytest.fixture(scope="session")
def schema():
    """LiteRT's generated flatbuffer classes, used only to write test models."""
    return pytest.importorskip("ai_edge_litert.schema_py_generated", reason="ai-edge-litert is not installed")


@pytest.fixture(scope="session")
def model_editor(schema, corpus_dir) -> Callable[..., bytes]:
    """edit(name, fn): the corpus model `name` with `fn(ModelT)` applied, serialized again."""
    flatbuffers = pytest.importorskip("flatbuffers", reason="flatbuffers is not installed")
    cache: dict[str, object] = {}

    def edit(name: str, fn: Callable[[object], None] | None = None) -> bytes:
        if name not in cache:
            raw = (corpus_dir / name / "model.tflite").read_bytes()
            cache[name] = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(raw, 0))
        m = copy.deepcopy(cache[name])
        if fn is not None:
            fn(m)
        b = flatbuffers.Builder(1024)
        b.Finish(m.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())

    return edit
