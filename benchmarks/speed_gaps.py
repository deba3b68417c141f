"""The models the runtime-speed issue names, timed against LiteRT 2.3's default resolver (XNNPACK)
on one thread in interleaved rounds (peers.median_ratio), invoke only, inputs set once: the
shared realworld models plus three built here with the test model builder (one large 1x1
convolution + softmax, a pose-style chain of small ops, a segmentation-style head).

Run: PYTHONPATH=bindings python benchmarks/speed_gaps.py [--seconds 3] [--only name,name] [--statistic min]
Prints one Markdown row per model: edgelite / LiteRT default (median, or best call), and both times.
"""
from __future__ import annotations

import argparse
from typing import Callable, Dict, List

import numpy as np

import peers
from support.tflite_builder import ModelBuilder, options

F32 = np.float32
REALWORLD = ["tflm_trained_lstm", "tflm_keyword_scrambled", "tiny_vww_96_int8", "tiny_vww_96_float",
             "tiny_pretrainedResnet_quant", "tflm_xtensa_mobilenet_v2_quantized_1x3x224x224",
             "tflm_micro_speech_quantized", "tiny_toycar_model_ToyCar_quant",
             "tiny_toycar_model_ToyCar_quant_fullint"]


def conv1x1_softmax() -> bytes:
    """[1, 32, 32, 256] -> 1x1 CONV_2D to 256 channels -> SOFTMAX over channels (float)."""
    rng = np.random.default_rng(0)
    mb = ModelBuilder()
    g = mb.subgraph("main")
    x = g.tensor([1, 32, 32, 256], F32, name="x")
    w = g.tensor([256, 1, 1, 256], F32, data=rng.uniform(-0.1, 0.1, [256, 1, 1, 256]))
    b = g.tensor([256], F32, data=rng.uniform(-0.1, 0.1, [256]))
    y = g.tensor([1, 32, 32, 256], F32, name="conv")
    z = g.tensor([1, 32, 32, 256], F32, name="probs")
    g.op("CONV_2D", [x, w, b], [y], options=options("Conv2D", padding="SAME", stride_w=1, stride_h=1))
    g.op("SOFTMAX", [y], [z], options=options("Softmax", beta=1.0))
    g.set_io([x], [z])
    return mb.build()


def small_ops_pose() -> bytes:
    """Heatmaps [1, 24, 24, 17]: RESIZE_BILINEAR x2, ADD, MUL, ARG_MAX over the flattened
    positions (int64), CAST to int32 and GATHER_ND of the offsets at the peaks."""
    rng = np.random.default_rng(1)
    mb = ModelBuilder()
    g = mb.subgraph("main")
    x = g.tensor([1, 24, 24, 17], F32, name="heatmaps")
    size = g.tensor([2], np.int32, data=[48, 48])
    up = g.tensor([1, 48, 48, 17], F32)
    g.op("RESIZE_BILINEAR", [x, size], [up], options=options("ResizeBilinear", half_pixel_centers=True))
    bias = g.tensor([17], F32, data=rng.uniform(-0.5, 0.5, [17]))
    added = g.tensor([1, 48, 48, 17], F32)
    g.op("ADD", [up, bias], [added], options=options("Add"))
    scale = g.tensor([1], F32, data=[0.5])
    scaled = g.tensor([1, 48, 48, 17], F32)
    g.op("MUL", [added, scale], [scaled], options=options("Mul"))
    shape = g.tensor([3], np.int32, data=[1, 48 * 48, 17])
    flat = g.tensor([1, 48 * 48, 17], F32)
    g.op("RESHAPE", [scaled, shape], [flat], options=options("Reshape", new_shape=[1, 48 * 48, 17]))
    axis = g.tensor([1], np.int32, data=[1])
    peaks = g.tensor([1, 17], np.int64, name="peaks")
    g.op("ARG_MAX", [flat, axis], [peaks], options=options("ArgMax", output_type="INT64"))
    peaks32 = g.tensor([1, 17], np.int32)
    g.op("CAST", [peaks], [peaks32], options=options("Cast", in_data_type="INT64", out_data_type="INT32"))
    idx_shape = g.tensor([3], np.int32, data=[17, 1, 1])
    idx = g.tensor([17, 1, 1], np.int32)
    g.op("RESHAPE", [peaks32, idx_shape], [idx], options=options("Reshape", new_shape=[17, 1, 1]))
    offsets = g.tensor([48 * 48, 34], F32, data=rng.uniform(-1, 1, [48 * 48, 34]))
    picked = g.tensor([17, 1, 34], F32, name="offsets")
    g.op("GATHER_ND", [offsets, idx], [picked])
    g.set_io([x], [picked, peaks])
    return mb.build()


def segmentation_head() -> bytes:
    """Logits [1, 33, 33, 21]: RESIZE_BILINEAR to 129x129 (align_corners), ADD, ARG_MAX (int64)."""
    rng = np.random.default_rng(2)
    mb = ModelBuilder()
    g = mb.subgraph("main")
    x = g.tensor([1, 33, 33, 21], F32, name="logits")
    size = g.tensor([2], np.int32, data=[129, 129])
    up = g.tensor([1, 129, 129, 21], F32)
    g.op("RESIZE_BILINEAR", [x, size], [up], options=options("ResizeBilinear", align_corners=True))
    prior = g.tensor([21], F32, data=rng.uniform(-0.2, 0.2, [21]))
    added = g.tensor([1, 129, 129, 21], F32)
    g.op("ADD", [up, prior], [added], options=options("Add"))
    axis = g.tensor([1], np.int32, data=[3])
    labels = g.tensor([1, 129, 129], np.int64, name="labels")
    g.op("ARG_MAX", [added, axis], [labels], options=options("ArgMax", output_type="INT64"))
    g.set_io([x], [labels])
    return mb.build()


BUILT: Dict[str, Callable[[], bytes]] = {"conv1x1_softmax_f32": conv1x1_softmax,
                                         "small_ops_pose_f32": small_ops_pose,
                                         "segmentation_head_f32": segmentation_head}


def _invoke(it) -> Callable[[], None]:
    for det, x in zip(it.get_input_details(), peers.random_inputs(it.get_input_details())):
        it.set_tensor(det["index"], x)
    return it.invoke


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per model")
    parser.add_argument("--only", default="", help="comma-separated model names")
    parser.add_argument("--statistic", choices=("median", "min"), default="median",
                        help="per-call time of each runtime: median, or min (the best call, steadier "
                             "when other jobs load the machine)")
    args = parser.parse_args(argv)
    statistic = np.median if args.statistic == "median" else np.min
    names = REALWORLD + list(BUILT)
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    print("| model | edgelite / LiteRT default | edgelite | LiteRT default |")
    print("|---|---:|---:|---:|")
    for name in names:
        model = BUILT[name]() if name in BUILT else peers.model_path(name)
        fns = {rt: _invoke(peers.make_interpreter(rt, model)) for rt in (peers.EDGELITE, peers.LITERT)}
        med = peers.median_ratio(fns, args.seconds, statistic=statistic)
        ratio = med[peers.EDGELITE] / med[peers.LITERT]
        print(f"| {name} | {ratio:.2f} | {med[peers.EDGELITE] * 1e6:.1f} µs | {med[peers.LITERT] * 1e6:.1f} µs |",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
