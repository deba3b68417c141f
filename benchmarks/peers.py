"""What the speed benchmarks time, and on which runtimes: edgelite next to LiteRT 2.3 (its default
resolver with the XNNPACK delegate, and BUILTIN_WITHOUT_DEFAULT_DELEGATES: TFLite's own optimized
kernels) in the same process.

tflite-runtime 2.14 needs NumPy < 2 and cannot share this process: bench_tflite_runtime.py times
the same cases in a NumPy 1 Python (numpy1_python()) through tflrt_worker.py, which imports this
module too (it needs only numpy).
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
# The installed packages when there are (a wheel carries the compiled invoke trampoline, the
# source tree does not), else the source tree's; tests/ for the model builder.
_SOURCES = {"edgelite_runtime": ROOT / "bindings", "edgelite": ROOT / "sdk"}
for _package, _source in _SOURCES.items():
    if importlib.util.find_spec(_package) is None and str(_source) not in sys.path:
        sys.path.insert(0, str(_source))
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

EDGELITE = "edgelite"
LITERT = "litert"                      # LiteRT 2.3 default resolver (XNNPACK delegate)
LITERT_NO_DELEGATE = "litert_nodelegate"  # LiteRT 2.3 BUILTIN_WITHOUT_DEFAULT_DELEGATES
RUNTIMES = (EDGELITE, LITERT, LITERT_NO_DELEGATE)  # in this process
TFLITE_RUNTIME = "tflite_runtime"  # tflite-runtime 2.14 default resolver, in a NumPy 1 Python
NUMPY1_PYTHON = Path("/opt/tflrt/bin/python")

# The corpus models and the MLPerf Tiny models of shared/realworld.
CORPUS_MODELS = ["cnn_int8", "cnn_uint8io", "cnn_f32", "cnn_f16", "cnn_dynrange", "mlp_f32", "lstm_f32",
                 "dynbatch_f32", "mobilenet_v1_int8", "mobilenet_v2_int8", "mobilenet_v1_f32",
                 "mobilenet_v2_f32"]
TINY_MODELS = ["tiny_vww_96_int8", "tiny_vww_96_float", "tiny_kws_ref_model", "tiny_kws_ref_model_float32",
               "tiny_pretrainedResnet_quant", "tiny_pretrainedResnet", "tiny_pretrainedResnet_large_int8",
               "tiny_pretrainedResnet_large_float", "tiny_ad01_int8", "tiny_ad01_fp32", "tiny_str_ww_ref_model",
               "tiny_toycar_model_ToyCar_quant", "tiny_toycar_model_ToyCar_quant_fullint"]
MOBILENETS = ["mobilenet_v1_int8", "mobilenet_v2_int8", "mobilenet_v1_f32", "mobilenet_v2_f32"]
# One thread: the two-thread speed-up is bench_threads.py's, one and two threads interleaved.
MODEL_CASES = [(name, 1) for name in CORPUS_MODELS + TINY_MODELS]
OVERHEAD_MODEL = "tflm_hello_world_int8"
OVERHEAD_CALLS = ("set_tensor", "invoke", "get_tensor", "tensor_view", "set_invoke_get")
# Calls per timed round of the overhead cases, the same for every runtime: a calibration that
# happened to settle on one call per round would add the timer's own cost to that runtime only.
OVERHEAD_ITERATIONS = 100


def model_path(name: str) -> Path:
    """The .tflite file of a shared corpus or realworld model."""
    for base in (SHARED / "corpus" / name, SHARED / "realworld" / name):
        p = base / "model.tflite"
        if p.is_file():
            return p
    raise FileNotFoundError(f"{name}: no model.tflite under {SHARED}/corpus or {SHARED}/realworld")


def litert_module() -> Any:
    """ai_edge_litert.interpreter, or None where it is not installed."""
    try:
        from ai_edge_litert import interpreter
    except ImportError:
        return None
    return interpreter


def make_interpreter(runtime: str, model: Any, num_threads: int = 1) -> Any:
    """An allocated interpreter of `runtime` on a model path or model bytes."""
    kwargs: Dict[str, Any] = {"num_threads": num_threads}
    kwargs["model_content" if isinstance(model, (bytes, bytearray)) else "model_path"] = (
        model if isinstance(model, (bytes, bytearray)) else str(model))
    if runtime == EDGELITE:
        from edgelite_runtime.interpreter import Interpreter

        it = Interpreter(**kwargs)
    elif runtime == TFLITE_RUNTIME:
        from tflite_runtime.interpreter import Interpreter as TfliteInterpreter

        it = TfliteInterpreter(**kwargs)
    else:
        lr = litert_module()
        if lr is None:
            raise RuntimeError("ai-edge-litert is not installed")
        if runtime == LITERT_NO_DELEGATE:
            kwargs["experimental_op_resolver_type"] = lr.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES
        it = lr.Interpreter(**kwargs)
    it.allocate_tensors()
    return it


def random_inputs(details: Sequence[Dict[str, Any]], seed: int = 0) -> List[np.ndarray]:
    """Full-range integers, or floats in [-1, 1), for each input."""
    rng = np.random.default_rng(seed)
    out = []
    for d in details:
        dtype, shape = np.dtype(d["dtype"]), tuple(int(s) for s in d["shape"])
        if np.issubdtype(dtype, np.integer):
            info = np.iinfo(dtype)
            out.append(rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype))
        elif dtype == np.bool_:
            out.append(rng.integers(0, 2, size=shape).astype(bool))
        else:
            out.append(rng.uniform(-1.0, 1.0, size=shape).astype(dtype))
    return out


def invoke_step(it: Any) -> Callable[[], None]:
    """set_tensor on every input then invoke: what one inference costs a Python caller."""
    details = it.get_input_details()
    pairs = [(d["index"], x) for d, x in zip(details, random_inputs(details))]
    set_tensor, invoke = it.set_tensor, it.invoke

    def step() -> None:
        for index, x in pairs:
            set_tensor(index, x)
        invoke()

    step()
    return step


def overhead_call(it: Any, call: str) -> Callable[[], Any]:
    """The timed function of one per-call overhead case (OVERHEAD_CALLS) on an allocated interpreter."""
    inp, out = it.get_input_details()[0], it.get_output_details()[0]
    x = random_inputs([inp])[0]
    i, o = inp["index"], out["index"]
    it.set_tensor(i, x)
    it.invoke()
    if call == "set_tensor":
        return lambda: it.set_tensor(i, x)
    if call == "invoke":
        return it.invoke
    if call == "get_tensor":
        return lambda: it.get_tensor(o)
    if call == "tensor_view":
        view = it.tensor(o)
        return lambda: view()
    if call != "set_invoke_get":
        raise ValueError(f"unknown overhead case {call!r}")
    set_tensor, invoke, get_tensor = it.set_tensor, it.invoke, it.get_tensor

    def inference() -> Any:
        set_tensor(i, x)
        invoke()
        return get_tensor(o)

    return inference


def rounds_for(fn: Callable[[], Any], iterations: int, max_time: float, min_rounds: int = 5) -> int:
    """Rounds of `iterations` calls that fill about max_time seconds."""
    import time

    t0 = time.perf_counter()
    for _ in range(iterations):
        fn()
    took = max(time.perf_counter() - t0, 1e-9)
    return max(min_rounds, int(max_time / took))


def numpy1_python() -> Optional[Path]:
    """The NumPy 1 Python with tflite-runtime: $EDGELITE_NUMPY1_PYTHON, else /opt/tflrt/bin/python if present."""
    configured = os.environ.get("EDGELITE_NUMPY1_PYTHON")
    if configured:
        return Path(configured)
    return NUMPY1_PYTHON if NUMPY1_PYTHON.exists() else None


def median_ratio(fns: Dict[str, Callable[[], None]], seconds: float, min_rounds: int = 5,
                 statistic: Callable[[List[float]], float] = np.median) -> Dict[str, float]:
    """Median (or another `statistic`, such as min on a loaded machine) seconds per call of each
    function, measured in interleaved rounds so that a change in machine load hits every runtime
    alike."""
    import time

    times: Dict[str, List[float]] = {k: [] for k in fns}
    for fn in fns.values():
        fn()
    t_end = time.perf_counter() + seconds
    rounds = 0
    while rounds < min_rounds or time.perf_counter() < t_end:
        for key, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[key].append(time.perf_counter() - t0)
        rounds += 1
    return {k: float(statistic(v)) for k, v in times.items()}


def cpu_description() -> Tuple[str, int]:
    """(CPU model name, logical CPUs) of this machine."""
    name = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return name, os.cpu_count() or 1


def available(runtime: str) -> Optional[str]:
    """None when `runtime` can run here, else why not."""
    if runtime in (LITERT, LITERT_NO_DELEGATE) and litert_module() is None:
        return "ai-edge-litert is not installed"
    return None
