"""The tflite_runtime / ai_edge_litert `Interpreter` API over edgelite's C interpreter (cffi, ABI mode).

Module names follow `tflite_runtime.interpreter`: Interpreter, InterpreterWithCustomOps,
SignatureRunner, OpResolverType, load_delegate, Delegate.
"""
from __future__ import annotations

import enum
import operator
import os
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from edgelite_runtime import _arena
from edgelite_runtime import _types as T
from edgelite_runtime._calllock import CallLock
from edgelite_runtime._lib import ffi, invoker, lib
from edgelite_runtime._custom_ops import resolve_registerer
from edgelite_runtime._details import int32_array
from edgelite_runtime._native import ERROR_CAPACITY, NativeInterpreter, as_pointer, decode
from edgelite_runtime._table import TensorTable
from edgelite_runtime._strings import c_type_name, write_value
from edgelite_runtime._tensors import TensorSlot
from edgelite_runtime._views import ViewRegistry
from edgelite_runtime.delegate import Delegate, DelegateLoadError, load_delegate
from edgelite_runtime import profiling as _profiling
from edgelite_runtime.signature import SignatureRunner

__all__ = [
    "Delegate", "DelegateLoadError", "Interpreter", "InterpreterWithCustomOps", "OpResolverType",
    "SignatureRunner", "load_delegate", "CustomOpResolver",
]


class OpResolverType(enum.Enum):
    """Which kernels run, numbered as tflite's OpResolverType.

    AUTO and BUILTIN select edgelite's optimized kernels, BUILTIN_REF its reference kernels (bit-exact
    with TFLite's BUILTIN_REF and TFLM for integer models); edgelite applies no default delegate,
    so BUILTIN_WITHOUT_DEFAULT_DELEGATES runs the same kernels as BUILTIN.
    """

    AUTO = 0
    BUILTIN = 1
    BUILTIN_REF = 2
    BUILTIN_WITHOUT_DEFAULT_DELEGATES = 3


def _resolver_id(value: Any) -> Optional[int]:
    """The el_resolver value for an OpResolverType, also accepting tflite's own enum members."""
    if isinstance(value, OpResolverType):
        return value.value
    if isinstance(value, enum.Enum) and type(value).__name__ == "OpResolverType":
        member = OpResolverType.__members__.get(value.name)
        if member is not None and member.value == value.value:
            return member.value
    return None


class CustomOpResolver:
    """Passed to each callable of InterpreterWithCustomOps' custom_op_registerers.

    A registerer calls add_custom(name, registration) with the address of a TfLiteRegistration
    (an int, a cffi pointer or a ctypes c_void_p) implementing the CUSTOM op `name`.
    """

    def __init__(self) -> None:
        self.ops: List[Tuple[str, int, Any]] = []

    def add_custom(self, name: str, registration: Any, version: int = 1) -> None:
        """Register the kernel for custom op `name` (and `version`)."""
        ptr = as_pointer(registration, "registration")
        if ptr is None:
            raise ValueError(f"Custom op {name!r}: the TfLiteRegistration pointer is NULL")
        self.ops.append((str(name), int(version), ptr))


_PRESERVE_WARNING = (
    "Warning: `experimental_preserve_all_tensors` keeps every intermediate tensor in its own memory "
    "for inspection; it is meant for debugging and can use much more memory than a normal run.")


class Interpreter:
    """Runs a .tflite model on edgelite's C interpreter with tflite_runtime's Python API.

    Beyond tflite's API, `get_arena_info()` returns the memory plan of the last allocate_tensors():
    `{'planned_bytes': arena size, 'lower_bound_bytes': the most bytes of model tensors that any
    runtime must hold at once at one step}`, and `get_arena_plan()` where each buffer went.
    `experimental_arena_limit` caps each subgraph's arena (nodes whose fast kernels need too much
    scratch run their least-scratch kernels; allocate_tensors raises RuntimeError when even that
    does not fit); `experimental_reuse_input_memory=True` lets the inputs' memory be reused once
    read, as TFLite Micro does, so every input must be set again before each invoke.

    Kernel selection (docs/performance.md): `experimental_kernel_tier` is "optimized" (default)
    or "reference" (the bit-exact reference kernels, like BUILTIN_REF); `experimental_isa` forces
    an ISA level of the optimized kernels ("scalar", "avx2", ...; see `get_kernel_config()`).
    Left as None they come from the EDGELITE_KERNEL_TIER / EDGELITE_ISA environment variables.
    Op profiling: `experimental_profile=True` (or `set_profiling(True)`) times every op of each
    invoke; `get_profile()` returns the per-op times and the arena report.

    Constructor arguments are tflite's. edgelite has no default delegate, so
    experimental_disable_delegate_clustering, experimental_default_delegate_latest_features,
    experimental_disable_delegate_node_fusion and experimental_force_delegate_node_profiling are
    accepted and change nothing; experimental_compress_quantization_zero_points is only recorded.

    Safety: arrays returned by `tensor(i)()` alias interpreter memory; while any of them (or a
    slice of one) is alive, allocate_tensors/resize_tensor_input/invoke raise RuntimeError instead
    of moving or overwriting memory under them. Each interpreter has its own lock: calls from
    several threads are serialised (a caller waits while another thread is inside invoke, which
    runs with the GIL released).
    """

    def __init__(
        self,
        model_path: Any = None,
        model_content: Any = None,
        experimental_delegates: Optional[Sequence[Any]] = None,
        num_threads: Optional[int] = None,
        experimental_op_resolver_type: Any = OpResolverType.AUTO,
        experimental_preserve_all_tensors: bool = False,
        experimental_disable_delegate_clustering: bool = False,
        experimental_default_delegate_latest_features: bool = False,
        experimental_compress_quantization_zero_points: bool = False,
        experimental_disable_delegate_node_fusion: bool = False,
        experimental_force_delegate_node_profiling: bool = False,
        experimental_kernel_tier: Optional[str] = None,
        experimental_isa: Optional[str] = None,
        experimental_profile: bool = False,
        experimental_arena_limit: Optional[int] = None,
        experimental_reuse_input_memory: bool = False,
    ) -> None:
        if not hasattr(self, "_custom_op_registerers"):
            self._custom_op_registerers: List[Any] = []
        # The other experimental_* delegate flags tune TFLite's default delegate (XNNPACK), its
        # partition clustering and its profiler, none of which edgelite has: accepted, no effect.
        self._experimental_compress_quantization_zero_points = experimental_compress_quantization_zero_points
        resolver = _resolver_id(experimental_op_resolver_type)
        if experimental_preserve_all_tensors and resolver in (OpResolverType.AUTO.value, OpResolverType.BUILTIN.value):
            warnings.warn(_PRESERVE_WARNING)
        if resolver is None:
            raise ValueError(f"Unrecognized passed in op resolver type: {experimental_op_resolver_type}")
        if num_threads is not None:
            if not isinstance(num_threads, int):
                raise ValueError("type of num_threads should be int")
            if num_threads < 1:
                raise ValueError("num_threads should >= 1")

        # The hot paths take and give back CallLock's token inline (see _calllock).
        self._lock = CallLock()
        self._tokens = self._lock.tokens
        self._views = ViewRegistry()
        self._native = NativeInterpreter()
        self._op_info = ffi.new("el_op_info *")

        if model_path and not model_content:
            self._create_model(path=os.fspath(model_path))
        elif model_content and not model_path:
            self._model_content = model_content
            self._create_model(content=model_content)
        elif not model_content and not model_path:
            raise ValueError("`model_path` or `model_content` must be specified.")
        else:
            raise ValueError("Can't both provide `model_path` and `model_content`")
        if experimental_kernel_tier is not None and experimental_kernel_tier not in _profiling.KERNEL_TIERS:
            raise ValueError(f"experimental_kernel_tier must be one of {_profiling.KERNEL_TIERS}, "
                             f"got {experimental_kernel_tier!r}")
        self._kernel_options = (experimental_kernel_tier, experimental_isa)
        arena_limit = _arena.check_arena_limit(experimental_arena_limit)
        self._create_interpreter(int(num_threads or 1), resolver, experimental_preserve_all_tensors)
        self._native.raise_for(lib.el_interpreter_set_arena_options(
            self._native.interp, arena_limit, 1 if experimental_reuse_input_memory else 0))
        # Hot-path shortcuts: the C handle, the invoke entry point and subgraph 0's per-generation
        # dicts (cleared in place by TensorTable.reset, never rebound).
        self._interp = self._native.interp
        # call(a, b, subgraph) runs el_interpreter_invoke: compiled when the wheel has _fastcall.
        self._c_invoke, self._invoke_a, self._invoke_b = invoker(self._interp)
        self._table = TensorTable(self._native, int(lib.el_interpreter_num_subgraphs(self._interp)), self._views)
        self._writers0 = self._table.writers0
        self._readers0 = self._table.readers0
        self._roots0 = self._views.roots
        # True when invoke(0) may go straight to C: planned, nothing to resize, tensors that stay
        # put during invoke, and no tensor() roots whose views would need checking.
        self._direct0 = False

        self._delegates: Any = []
        if experimental_delegates:
            self._delegates = experimental_delegates
            self._native.keepalive.append(list(experimental_delegates))
            for delegate in experimental_delegates:
                self._apply_delegate(delegate)
        self._signatures = self._read_signatures()
        self._signature_defs = self.get_signature_list()
        if experimental_profile:
            self.set_profiling(True)

    # ----------------------------------------------------------------------------- construction

    def _create_model(self, path: Optional[str] = None, content: Any = None) -> None:
        native = self._native
        err = ffi.new("char[]", ERROR_CAPACITY)
        out = ffi.new("el_model **")
        if path is not None:
            status = lib.el_model_create_from_file(os.fsencode(path), out, err, ERROR_CAPACITY)
        else:
            if isinstance(content, str):
                content = content.encode("utf-8")  # tflite's wrapper reads a str as its UTF-8 bytes
            elif not isinstance(content, bytes):
                # A mutable buffer could change after verification: the C side gets an immutable copy.
                content = bytes(memoryview(content).cast("B"))
            buf = ffi.from_buffer(content)
            native.keepalive += [content, buf]
            status = lib.el_model_create_from_buffer(buf, len(content), out, err, ERROR_CAPACITY)
        if status:
            # tflite reports every failure to build a model as ValueError.
            raise (MemoryError if status == 4 else ValueError)(decode(err))
        native.model = out[0]

    def _custom_ops(self) -> List[Tuple[str, int, Any]]:
        resolver = CustomOpResolver()
        for registerer in self._custom_op_registerers:
            if isinstance(registerer, str):
                name, version, registration = resolve_registerer(registerer)
                resolver.add_custom(name, registration, version)
                continue
            if not callable(registerer):
                raise ValueError(
                    f"Custom op registerer of type {type(registerer).__name__} is not supported: pass a "
                    "callable taking an edgelite_runtime.interpreter.CustomOpResolver.")
            registerer(resolver)
        return resolver.ops

    def _create_interpreter(self, num_threads: int, resolver: int, preserve_all_tensors: bool) -> None:
        native = self._native
        opts = ffi.new("el_interpreter_options *")
        opts.num_threads = num_threads
        opts.resolver = resolver
        opts.preserve_all_tensors = 1 if preserve_all_tensors else 0
        for field, value in zip(("kernel_tier", "isa"), self._kernel_options):
            if value is not None:
                text = ffi.new("char[]", str(value).encode("utf-8"))
                native.keepalive.append(text)
                setattr(opts, field, text)
        custom = self._custom_ops()
        if custom:
            names = [ffi.new("char[]", name.encode("utf-8")) for name, _, _ in custom]
            table = ffi.new("el_custom_op[]", len(custom))
            for entry, cname, (_, version, registration) in zip(table, names, custom):
                entry.name = cname
                entry.version = version
                entry.registration = registration
            native.keepalive += [names, table]
            opts.custom_ops = table
            opts.num_custom_ops = len(custom)
        err = ffi.new("char[]", ERROR_CAPACITY)
        out = ffi.new("el_interpreter **")
        status = lib.el_interpreter_create(native.model, opts, out, err, ERROR_CAPACITY)
        if status:
            raise (MemoryError if status == 4 else ValueError)(decode(err))
        native.interp = out[0]

    def _apply_delegate(self, delegate: Any) -> None:
        getter = getattr(delegate, "_get_native_delegate_pointer", None)
        if getter is None:
            raise ValueError(
                f"experimental_delegates must hold delegates from load_delegate(), got {type(delegate).__name__}")
        ptr = as_pointer(getter(), "delegate")
        if ptr is None:
            raise ValueError(f"{delegate!r} holds no TfLiteDelegate (it was released)")
        status = lib.el_interpreter_modify_graph_with_delegate(self._interp, ptr)
        self._table.reset()
        self._native.raise_for(status)

    def _read_signatures(self) -> Dict[str, Tuple[int, Dict[str, int], Dict[str, int]]]:
        """SignatureDefs as key → (subgraph, inputs, outputs); names sorted as tflite's std::map."""
        interp = self._native.interp
        info = ffi.new("el_signature_info *")
        table = {}
        for i in range(lib.el_interpreter_num_signatures(interp)):
            self._native.raise_for(lib.el_signature_get(interp, i, info))
            inputs = {decode(info.input_names[j]): int(info.input_tensors[j]) for j in range(info.num_inputs)}
            outputs = {decode(info.output_names[j]): int(info.output_tensors[j]) for j in range(info.num_outputs)}
            table[decode(info.key)] = (int(info.subgraph_index), dict(sorted(inputs.items())),
                                       dict(sorted(outputs.items())))
        return table

    # ------------------------------------------------------------------------ state changes

    def _allocate(self, subgraph: int) -> None:
        self._direct0 = False  # until a successful plan says otherwise
        status = lib.el_interpreter_allocate_tensors(self._interp, subgraph)
        self._table.reset()
        self._native.raise_for(status)
        self._table.note_allocated(subgraph)
        self._update_direct()

    def _update_direct(self) -> None:
        """Recompute whether invoke(0) may skip its checks (after a plan, a resize or a new root)."""
        table = self._table
        self._direct0 = not (table.pending or table.volatile.get(0, True) or self._views.tracked())

    def _resize(self, subgraph: int, tensor_index: Any, tensor_size: Any, strict: bool) -> None:
        dims = np.array(tensor_size, dtype=np.int32)
        if dims.ndim != 1:
            raise ValueError(f"Shape should be 1D instead of {dims.ndim}.")
        dims = np.ascontiguousarray(dims)
        index = operator.index(tensor_index)
        applied = self._table.applied_shape(subgraph, index)
        data = ffi.cast("int32_t *", ffi.from_buffer(dims)) if dims.size else ffi.NULL
        status = lib.el_interpreter_resize_input(self._interp, subgraph, index, data, dims.size, 1 if strict else 0)
        self._direct0 = False
        self._table.reset()
        self._native.raise_for(status)
        self._table.note_resized(subgraph, index, tuple(int(d) for d in dims), applied)
        self._update_direct()

    def _invoke(self, subgraph: int) -> None:
        self._views.ensure_none()
        table = self._table
        if table.pending and table.resize_pending(subgraph):
            # tflite: a resize makes the graph uninvokable until allocate_tensors re-plans it.
            raise RuntimeError("Invoke called on model that is not ready.")
        status = self._c_invoke(self._invoke_a, self._invoke_b, subgraph)
        if status or table.volatile.get(subgraph, True):
            table.reset()
        if status:
            self._native.raise_for(status)

    def _make_view(self, slot: TensorSlot) -> Any:
        if slot.array is None:
            raise ValueError(slot.problem)
        if slot.view_shape is None:
            if slot.dtype is None:
                raise ValueError(f"tensor() cannot alias {T.TYPE_NAMES.get(slot.type)} tensor {slot.index}; "
                                 "use get_tensor() instead.")
            return slot.read()  # empty or 0-d: tflite hands back a copy here too
        if slot.view_buffer is None:
            slot.view_buffer = self._native.pin(slot.address, slot.nbytes)
        root = self._views.add(slot.index, slot.view_buffer, slot.dtype, slot.view_shape, slot.constant)
        self._direct0 = False
        return root[...]

    # ------------------------------------------------------------------------------- the API

    def allocate_tensors(self) -> None:
        """Plan memory for every tensor (again, after resize_tensor_input) and prepare every op."""
        with self._lock:
            self._views.ensure_none()
            self._allocate(0)

    def _safe_to_run(self) -> bool:
        """True when no array returned by tensor() is alive, so memory may move."""
        with self._lock:
            return not self._views.any_alive()

    def _ensure_safe(self) -> None:
        """Raise tflite's RuntimeError if an array returned by tensor() is still alive."""
        with self._lock:
            self._views.ensure_none()

    def invoke(self) -> None:
        """Run the model on the current inputs; the C call runs with the GIL released."""
        tokens = self._tokens
        try:
            tokens.pop()
        except IndexError:
            self._lock.wait()
        try:
            if not self._direct0:
                self._invoke(0)
            else:
                status = self._c_invoke(self._invoke_a, self._invoke_b, 0)
                if status:
                    self._table.reset()
                    self._native.raise_for(status)
        finally:
            tokens.append(True)
            if self._lock.waiters:
                self._lock.wake()

    def set_tensor(self, tensor_index: int, value: Any) -> None:
        """Copy `value` into a tensor; dtype and shape must match exactly, as in tflite."""
        tokens = self._tokens
        try:
            tokens.pop()
        except IndexError:
            self._lock.wait()
        try:
            # The common case, an array of exactly the tensor's dtype and shape, is one copy into
            # the tensor's cached array; anything else, a value without dtype or shape (a list)
            # included, gets tflite's checks in write_value().
            entry = self._writers0.get(tensor_index)
            if entry is not None:
                arr, dtype, shape = entry
                try:
                    if value.dtype is dtype and value.shape == shape:
                        arr[()] = value  # the whole array, as [...] but a shorter path through numpy's indexing
                        return
                except AttributeError:
                    pass
            write_value(self._table, self._table.slot(0, tensor_index), value)
        finally:
            tokens.append(True)
            if self._lock.waiters:
                self._lock.wake()

    def get_tensor(self, tensor_index: int, subgraph_index: int = 0) -> Any:
        """A copy of a tensor's current value."""
        tokens = self._tokens
        try:
            tokens.pop()
        except IndexError:
            self._lock.wait()
        try:
            copy = self._readers0.get(tensor_index)
            if copy is not None and subgraph_index == 0:
                return copy()
            if subgraph_index != 0:
                self._table.check_subgraph(operator.index(subgraph_index))
            return self._table.slot(subgraph_index, tensor_index).read()
        finally:
            tokens.append(True)
            if self._lock.waiters:
                self._lock.wake()

    def tensor(self, tensor_index: int) -> Callable[[], Any]:
        """A function returning a numpy array that aliases the tensor's memory (no copy).

        Hold the function, not the array: while an array from it is alive, allocate_tensors,
        resize_tensor_input and invoke raise RuntimeError.
        """
        lock, tokens, roots, make = self._lock, self._tokens, self._roots0, self._view

        def view() -> Any:
            try:
                tokens.pop()
            except IndexError:
                lock.wait()
            try:
                # The tensor's root array of this generation, if tensor() was called on it since
                # memory last moved; else build one (or raise what tflite raises).
                root = roots.get(tensor_index)
                return root[...] if root is not None else make(tensor_index)
            finally:
                tokens.append(True)
                if lock.waiters:
                    lock.wake()

        return view

    def _view(self, tensor_index: Any) -> Any:
        """tensor()'s slow path, under the lock: map the tensor and start its root array."""
        return self._make_view(self._table.slot(0, tensor_index))

    def resize_tensor_input(self, input_index: int, tensor_size: Any, strict: bool = False) -> None:
        """Give an input tensor a new shape; call allocate_tensors() before the next invoke.

        With strict=True only dimensions that are -1 in the tensor's shape_signature may change.
        """
        with self._lock:
            self._views.ensure_none()
            self._resize(0, input_index, tensor_size, strict)

    def reset_all_variables(self) -> None:
        """Reset every variable tensor (e.g. LSTM state) to its initial value."""
        with self._lock:
            self._native.raise_for(lib.el_interpreter_reset_variables(self._interp))

    def num_subgraphs(self) -> int:
        """Number of subgraphs in the model."""
        return self._table.num_subgraphs

    def _get_tensor_details(self, tensor_index: Any, subgraph_index: Any) -> Dict[str, Any]:
        """tflite's details dict of one tensor (name, index, shape, dtype, quantization...)."""
        with self._lock:
            return self._table.details(int(subgraph_index), int(tensor_index))

    def get_tensor_details(self, subgraph_index: int = 0) -> List[Dict[str, Any]]:
        """Details of every tensor of a subgraph that has a type (unusable ones are skipped)."""
        n = self._table.num_subgraphs
        if subgraph_index < 0 or subgraph_index >= n:
            raise ValueError(f"subgraph_index is out of range: {subgraph_index} for the model, which has {n} subgraphs.")
        result = []
        with self._lock:
            for index in range(self._table.counts(subgraph_index)[0]):
                try:
                    result.append(self._table.details(subgraph_index, index))
                except ValueError:
                    pass
        return result

    def get_input_details(self) -> List[Dict[str, Any]]:
        """Details of the model's inputs, in subgraph-0 input order."""
        with self._lock:
            return [self._table.details(0, i) for i in self._table.io(0)[0]]

    def get_output_details(self) -> List[Dict[str, Any]]:
        """Details of the model's outputs, in subgraph-0 output order."""
        with self._lock:
            return [self._table.details(0, i) for i in self._table.io(0)[1]]

    def _op_details(self, op_index: Any) -> Dict[str, Any]:
        index = operator.index(op_index)
        if index < 0 or index >= self._table.counts(0)[1]:
            raise ValueError("Invalid node index")
        info = self._op_info
        self._native.raise_for(lib.el_op_get_info(self._interp, 0, index, info))
        name = decode(info.op_name) or "UnknownCustomOp"
        inputs = int32_array(info.inputs, info.num_inputs)
        outputs = int32_array(info.outputs, info.num_outputs)
        return {
            "index": int(op_index),
            "op_name": name,
            "inputs": inputs,
            "outputs": outputs,
            "operand_types": [self._table.details(0, int(t))["dtype"] for t in inputs if t != -1],
            "result_types": [self._table.details(0, int(t))["dtype"] for t in outputs if t != -1],
        }

    def _get_op_details(self, op_index: int) -> Dict[str, Any]:
        """tflite's details dict of one node: op name, input/output tensor indices and dtypes."""
        with self._lock:
            return self._op_details(op_index)

    def _get_ops_details(self) -> List[Dict[str, Any]]:
        """_get_op_details for every node of subgraph 0."""
        with self._lock:
            return [self._op_details(i) for i in range(self._table.counts(0)[1])]

    def get_signature_list(self) -> Dict[str, Dict[str, List[str]]]:
        """{signature_key: {'inputs': [names], 'outputs': [names]}}."""
        return {key: {"inputs": list(ins), "outputs": list(outs)} for key, (_, ins, outs) in self._signatures.items()}

    def _get_full_signature_list(self) -> Dict[str, Dict[str, Dict[str, int]]]:
        """{signature_key: {'inputs': {name: tensor index}, 'outputs': {name: tensor index}}}."""
        return {key: {"inputs": dict(ins), "outputs": dict(outs)} for key, (_, ins, outs) in self._signatures.items()}

    def _signature_subgraph(self, signature_key: str) -> int:
        entry = self._signatures.get(signature_key)
        if entry is None:
            raise ValueError("No matching signature.")
        return entry[0]

    def get_signature_runner(self, signature_key: Optional[str] = None) -> SignatureRunner:
        """A callable running one SignatureDef; the key may be omitted when there is exactly one."""
        if signature_key is None:
            if len(self._signature_defs) != 1:
                raise ValueError(
                    f"SignatureDef signature_key is None and model has {len(self._signature_defs)} Signatures. "
                    "None is only allowed when the model has 1 SignatureDef")
            signature_key = next(iter(self._signature_defs))
        return SignatureRunner(interpreter=self, signature_key=signature_key)

    def _run_signature(self, subgraph: int, inputs: Dict[str, int], outputs: Dict[str, int],
                       values: Dict[str, Any]) -> Dict[str, Any]:
        """SignatureRunner.__call__ under the interpreter lock: resize, plan if needed, run, read."""
        with self._lock:
            table = self._table
            for name, value in values.items():
                if name not in inputs:
                    raise ValueError(f"Invalid Input name ({name}) for SignatureDef")
                # tflite sizes each input from value.shape, so only numpy arrays and scalars go through.
                if not isinstance(value, (np.ndarray, np.generic)):
                    raise ValueError(f"Passed in value type is not a numpy array, got type {c_type_name(value)}.")
            replan = not table.planned.get(subgraph, False)
            for name, value in values.items():
                if replan or table.slot(subgraph, inputs[name]).shape != value.shape:
                    self._views.ensure_none()
                    self._resize(subgraph, inputs[name], value.shape, False)
                    replan = True
            if replan:
                self._views.ensure_none()
                self._allocate(subgraph)
            for name, value in values.items():
                write_value(table, table.slot(subgraph, inputs[name]), value)
            self._invoke(subgraph)
            return {name: table.slot(subgraph, index).read() for name, index in outputs.items()}

    @property
    def experimental_compress_quantization_zero_points(self) -> bool:
        """The constructor flag of the same name (kept for API compatibility)."""
        return self._experimental_compress_quantization_zero_points

    def _native_handle(self) -> int:
        """Address of the underlying C `el_interpreter` (for C extensions built against edgelite.h)."""
        return int(ffi.cast("uintptr_t", self._interp))

    def get_arena_info(self) -> Dict[str, int]:
        """edgelite extension: the arena size planned by allocate_tensors() and its lower bound."""
        planned, lower = ffi.new("size_t *"), ffi.new("size_t *")
        with self._lock:
            self._native.raise_for(lib.el_interpreter_arena(self._interp, planned, lower))
        return {"planned_bytes": int(planned[0]), "lower_bound_bytes": int(lower[0])}

    def get_arena_plan(self, subgraph_index: int = 0) -> Dict[str, Any]:
        """edgelite extension: where allocate_tensors() put each buffer of a subgraph's arena.

        `{'tensors': {tensor index: {'offset', 'bytes'}}, 'scratch': [{'node', 'offset', 'bytes'}],
        'small_scratch_nodes': [node index, ...]}`: tensors sharing one buffer (a RESHAPE-like
        op's output and its input) have the same offset; scratch lives while its node runs; the
        small-scratch nodes run their least-scratch kernels to fit experimental_arena_limit.
        """
        subgraph = operator.index(subgraph_index)
        self._table.check_subgraph(subgraph)
        counts = ffi.new("int[2]")
        with self._lock:
            self._native.raise_for(lib.el_subgraph_counts(self._interp, subgraph, counts, counts + 1))
            return _arena.read_plan(self._native, self._interp, subgraph, int(counts[0]), int(counts[1]))

    def set_profiling(self, enabled: bool) -> None:
        """edgelite extension: time every op of each invoke from now on (enabling clears the records)."""
        with self._lock:
            self._native.raise_for(lib.el_interpreter_set_profiling(self._interp, 1 if enabled else 0))

    def get_profile(self, subgraph_index: int = 0) -> Dict[str, Any]:
        """edgelite extension: per-op times since profiling was enabled, and the arena report.

        `{'ops': [{'step', 'node_index', 'op_name', 'delegated', 'invocations', 'total_us',
        'avg_us', 'last_us'}, ...] in execution order, 'arena': get_arena_info(),
        'kernels': get_kernel_config()}`; `edgelite_runtime.profiling.format_profile` prints it.
        """
        self._table.check_subgraph(operator.index(subgraph_index))
        with self._lock:
            ops = _profiling.read_profile(self._native, subgraph_index)
        return {"ops": ops, "arena": self.get_arena_info(), "kernels": self.get_kernel_config()}

    def get_kernel_config(self) -> Dict[str, Any]:
        """edgelite extension: {'tier', 'isa', 'available_isas'} of this interpreter's kernels."""
        with self._lock:
            return _profiling.kernel_config(self._native)


class InterpreterWithCustomOps(Interpreter):
    """An Interpreter with extra custom-op kernels.

    custom_op_registerers is a list of callables, each called with a CustomOpResolver to register
    kernels with add_custom(name, registration), or of names of C registration functions
    `const TfLiteRegistration* Fn(void)` ("Fn" among the loaded libraries, or "lib.so:Fn"; the op
    name is the registration's custom_name). See edgelite_runtime._custom_ops.
    """

    def __init__(self, custom_op_registerers: Optional[Sequence[Any]] = None, **kwargs: Any) -> None:
        self._custom_op_registerers = list(custom_op_registerers or [])
        super().__init__(**kwargs)

