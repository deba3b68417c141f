"""Single-op models at the layer shapes of MobileNetV2 (224x224) and the DS-CNN keyword spotter,
int8 (per-channel weights, as the TFLite converter writes them) and float32, written with the
flatbuffers-based test model builder."""
from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

import peers  # noqa: F401  (puts tests/ on sys.path for the model builder)
from support.tflite_builder import Quant, TensorSpec, options, single_op_model

# name -> (op, input NHWC or [rows, depth], filter geometry / units, stride, padding)
CASES: Dict[str, Tuple] = {
    "mnv2_conv3x3_s2_224x3x32": ("CONV_2D", [1, 224, 224, 3], (3, 3, 32), 2, "SAME"),
    "mnv2_dw3x3_s1_112x32": ("DEPTHWISE_CONV_2D", [1, 112, 112, 32], (3, 3), 1, "SAME"),
    "mnv2_dw3x3_s2_112x96": ("DEPTHWISE_CONV_2D", [1, 112, 112, 96], (3, 3), 2, "SAME"),
    "mnv2_dw3x3_s1_56x144": ("DEPTHWISE_CONV_2D", [1, 56, 56, 144], (3, 3), 1, "SAME"),
    "mnv2_pw_56x24x144": ("CONV_2D", [1, 56, 56, 24], (1, 1, 144), 1, "VALID"),
    "mnv2_pw_28x192x32": ("CONV_2D", [1, 28, 28, 192], (1, 1, 32), 1, "VALID"),
    "mnv2_pw_7x960x320": ("CONV_2D", [1, 7, 7, 960], (1, 1, 320), 1, "VALID"),
    "mnv2_add_56x24": ("ADD", [1, 56, 56, 24], None, 1, None),
    # the quantization of the first residual ADD of the corpus MobileNetV2 int8 model
    "mnv2_add_56x24_modelq": ("ADD", [1, 56, 56, 24], ((0.05672291, -14), (0.07057622, 0), (0.07057622, 0)), 1, None),
    "mnv2_mean_7x1280": ("MEAN", [1, 7, 7, 1280], None, 1, None),
    "mnv2_fc_1280x1000": ("FULLY_CONNECTED", [1, 1280], 1000, 1, None),
    "mnv2_softmax_1001": ("SOFTMAX", [1, 1001], None, 1, None),
    "mnv2_pad_s2_112x32": ("PAD", [1, 112, 112, 32], [[0, 0], [0, 1], [0, 1], [0, 0]], 1, None),
    "mnv2_concat_28x64x2": ("CONCATENATION", [1, 28, 28, 64], 2, 1, None),
    "dscnn_conv10x4_s2_49x10x64": ("CONV_2D", [1, 49, 10, 1], (10, 4, 64), 2, "SAME"),
    "dscnn_dw3x3_25x5x64": ("DEPTHWISE_CONV_2D", [1, 25, 5, 64], (3, 3), 1, "SAME"),
    "dscnn_pw_25x5x64x64": ("CONV_2D", [1, 25, 5, 64], (1, 1, 64), 1, "VALID"),
    "dscnn_avgpool_25x5x64": ("AVERAGE_POOL_2D", [1, 25, 5, 64], (25, 5), 1, "VALID"),
    "dscnn_fc_64x12": ("FULLY_CONNECTED", [1, 64], 12, 1, None),
    "dscnn_softmax_12": ("SOFTMAX", [1, 12], None, 1, None),
}
DTYPES = ("int8", "float32")


def _out_hw(h: int, w: int, kh: int, kw: int, stride: int, padding: str) -> Tuple[int, int]:
    if padding == "SAME":
        return (h + stride - 1) // stride, (w + stride - 1) // stride
    return (h - kh) // stride + 1, (w - kw) // stride + 1


def _quant_specs(rng: np.random.Generator, channels: int, taps: int):
    """Input, per-channel weight, bias and output quantization of a typical int8 layer."""
    xq = Quant(0.02, -5)
    w_scales = rng.uniform(0.004, 0.02, channels).astype(np.float32)
    spread = np.sqrt(taps) * 73.0 * 74.0 * 0.02 * float(np.mean(w_scales))
    yq = Quant(float(np.float32(spread / 45.0)), 3)
    return xq, w_scales, yq


def build(name: str, dtype: str) -> bytes:
    """The model of one case in int8 or float32."""
    op, in_shape, geom, stride, padding = CASES[name]
    rng = np.random.default_rng(7)
    q = dtype == "int8"
    if op in ("CONV_2D", "DEPTHWISE_CONV_2D"):
        b, h, w, cin = in_shape
        if op == "CONV_2D":
            kh, kw, cout = geom
            wshape, qdim = [cout, kh, kw, cin], 0
        else:
            kh, kw = geom
            cout = cin
            wshape, qdim = [1, kh, kw, cout], 3
        oh, ow = _out_hw(h, w, kh, kw, stride, padding)
        opts = (options("Conv2D", padding=padding, stride_w=stride, stride_h=stride)
                if op == "CONV_2D" else
                options("DepthwiseConv2D", padding=padding, stride_w=stride, stride_h=stride, depth_multiplier=1))
        taps = kh * kw * (cin if op == "CONV_2D" else 1)
        if not q:
            wdata = (rng.standard_normal(wshape) / np.sqrt(taps)).astype(np.float32)
            return single_op_model(op, [TensorSpec(in_shape, np.float32), TensorSpec(wshape, np.float32, data=wdata),
                                        TensorSpec([cout], np.float32, data=np.zeros(cout, np.float32))],
                                   [TensorSpec([b, oh, ow, cout], np.float32)], options=opts)
        xq, w_scales, yq = _quant_specs(rng, cout, taps)
        wdata = rng.integers(-127, 128, size=wshape).astype(np.int8)
        bias = rng.integers(-2000, 2001, size=cout).astype(np.int32)
        bq = Quant((w_scales * np.float32(0.02)).tolist(), [0] * cout, 0)
        return single_op_model(
            op, [TensorSpec(in_shape, np.int8, quant=xq),
                 TensorSpec(wshape, np.int8, data=wdata, quant=Quant(w_scales.tolist(), [0] * cout, qdim)),
                 TensorSpec([cout], np.int32, data=bias, quant=bq)],
            [TensorSpec([b, oh, ow, cout], np.int8, quant=yq)], options=opts, version=3)
    if op == "FULLY_CONNECTED":
        rows, depth = in_shape
        units = geom
        if not q:
            wdata = (rng.standard_normal((units, depth)) / np.sqrt(depth)).astype(np.float32)
            return single_op_model(op, [TensorSpec(in_shape, np.float32), TensorSpec([units, depth], np.float32, data=wdata),
                                        TensorSpec([units], np.float32, data=np.zeros(units, np.float32))],
                                   [TensorSpec([rows, units], np.float32)], options=options("FullyConnected"))
        xq, w_scales, yq = _quant_specs(rng, 1, depth)
        wdata = rng.integers(-127, 128, size=(units, depth)).astype(np.int8)
        bias = rng.integers(-2000, 2001, size=units).astype(np.int32)
        return single_op_model(
            op, [TensorSpec(in_shape, np.int8, quant=xq),
                 TensorSpec([units, depth], np.int8, data=wdata, quant=Quant(float(w_scales[0]), 0)),
                 TensorSpec([units], np.int32, data=bias, quant=Quant(float(w_scales[0] * np.float32(0.02)), 0))],
            [TensorSpec([rows, units], np.int8, quant=yq)], options=options("FullyConnected"), version=4)
    if op == "ADD":
        if not q:
            return single_op_model(op, [TensorSpec(in_shape, np.float32), TensorSpec(in_shape, np.float32)],
                                   [TensorSpec(in_shape, np.float32)], options=options("Add"))
        qa, qb, qo = (Quant(*q) for q in (geom or ((0.05, -3), (0.04, 7), (0.08, 1))))
        return single_op_model(op, [TensorSpec(in_shape, np.int8, quant=qa), TensorSpec(in_shape, np.int8, quant=qb)],
                               [TensorSpec(in_shape, np.int8, quant=qo)], options=options("Add"), version=2)
    if op == "MEAN":
        axes = TensorSpec([2], np.int32, data=np.array([1, 2], np.int32))
        out = [in_shape[0], 1, 1, in_shape[3]]
        if not q:
            return single_op_model(op, [TensorSpec(in_shape, np.float32), axes], [TensorSpec(out, np.float32)],
                                   options=options("Reducer", keep_dims=True))
        return single_op_model(op, [TensorSpec(in_shape, np.int8, quant=Quant(0.05, -3)), axes],
                               [TensorSpec(out, np.int8, quant=Quant(0.03, 2))],
                               options=options("Reducer", keep_dims=True), version=2)
    if op == "AVERAGE_POOL_2D":
        kh, kw = geom
        out = [in_shape[0], 1, 1, in_shape[3]]
        opts = options("Pool2D", padding="VALID", stride_w=1, stride_h=1, filter_width=kw, filter_height=kh)
        if not q:
            return single_op_model(op, [TensorSpec(in_shape, np.float32)], [TensorSpec(out, np.float32)], options=opts)
        pq = Quant(0.05, -3)
        return single_op_model(op, [TensorSpec(in_shape, np.int8, quant=pq)], [TensorSpec(out, np.int8, quant=pq)],
                               options=opts, version=2)
    if op == "SOFTMAX":
        if not q:
            return single_op_model(op, [TensorSpec(in_shape, np.float32)], [TensorSpec(in_shape, np.float32)],
                                   options=options("Softmax", beta=1.0))
        return single_op_model(op, [TensorSpec(in_shape, np.int8, quant=Quant(0.1, 20))],
                               [TensorSpec(in_shape, np.int8, quant=Quant(1.0 / 256, -128))],
                               options=options("Softmax", beta=1.0), version=2)
    if op == "PAD":
        pads = np.array(geom, np.int32)
        out = [d + int(p.sum()) for d, p in zip(in_shape, pads)]
        dt, pq = (np.int8, Quant(0.05, -3)) if q else (np.float32, None)
        return single_op_model(op, [TensorSpec(in_shape, dt, quant=pq), TensorSpec([len(in_shape), 2], np.int32, data=pads)],
                               [TensorSpec(out, dt, quant=pq)], version=2 if q else 1)
    if op == "CONCATENATION":
        out = list(in_shape[:-1]) + [in_shape[-1] * geom]
        dt, cq = (np.int8, Quant(0.05, -3)) if q else (np.float32, None)
        return single_op_model(op, [TensorSpec(in_shape, dt, quant=cq) for _ in range(geom)],
                               [TensorSpec(out, dt, quant=cq)], options=options("Concatenation", axis=3),
                               version=2 if q else 1)
    raise ValueError(f"no builder for {op}")


def all_cases() -> List[Tuple[str, str]]:
    """(case, dtype) pairs."""
    return [(name, dtype) for name in CASES for dtype in DTYPES]
