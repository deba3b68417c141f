"""Random single-op models at the shapes the optimized kernels special-case: channel counts
around the 16-channel blocks and 64-channel chunks, pointwise (1x1) and 3x3 stride 1/2
convolutions, padding, dilation, batches, uint8 and per-tensor weights, scalar operands.

Each generator returns a `Case` (model bytes, inputs, and the float tolerance: 0 = bit-exact).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Sequence

import numpy as np

from support.tflite_builder import Quant, TensorSpec, options, single_op_model

ACTIVATIONS = ("NONE", "RELU", "RELU6", "RELU_N1_TO_1")
FLOAT_TOL = 1e-4  # the bound: float outputs within 1e-4 of the output's max magnitude


@dataclass
class Case:
    name: str
    model: bytes
    inputs: Sequence[np.ndarray]
    float_tol: float = 0.0


def _f32(x: float) -> float:
    return float(np.float32(x))


def _logu(rng: np.random.Generator, lo: float, hi: float) -> float:
    return _f32(np.exp(rng.uniform(np.log(lo), np.log(hi))))


def _ints(rng: np.random.Generator, dtype: str, shape: Sequence[int]) -> np.ndarray:
    info = np.iinfo(np.dtype(dtype))
    return rng.integers(info.min, info.max, size=tuple(shape), endpoint=True).astype(dtype)


def _pick(rng: np.random.Generator, items: Sequence):
    return items[int(rng.integers(0, len(items)))]


def _act_quant(rng: np.random.Generator, dtype: str) -> Quant:
    if dtype == "uint8":
        return Quant(_logu(rng, 0.004, 0.08), int(rng.integers(30, 226)))
    return Quant(_logu(rng, 0.004, 0.08), int(rng.integers(-110, 111)))


def _out_quant(rng: np.random.Generator, dtype: str, in_scale: float, w_scale: float, taps: int) -> Quant:
    """An output scale under which the accumulators fill a useful part of the range."""
    spread = np.sqrt(max(taps, 1)) * 73.0 * 74.0 * in_scale * w_scale
    zp = int(rng.integers(30, 226)) if dtype == "uint8" else int(rng.integers(-60, 61))
    return Quant(_f32(spread / 45.0 * rng.uniform(0.5, 2.0)), zp)


def _pow2(rng, lo: int, hi: int) -> float:
    """2^-k: scales whose ratios are powers of two put requantization results exactly on .5 ties."""
    return float(2.0 ** -int(rng.integers(lo, hi + 1)))


def _weights(rng, dtype: str, shape: Sequence[int], channels: int, qdim: int, per_channel: bool,
             ties: bool = False):
    """Weights, their Quant and per-channel scales: symmetric int8 or asymmetric uint8."""
    if ties:
        s = _pow2(rng, 3, 7)
        if dtype == "uint8":
            return _ints(rng, "uint8", shape), Quant(s, 128), np.full(channels, s, np.float32)
        return rng.integers(-127, 128, size=tuple(shape)).astype(np.int8), Quant(s, 0), np.full(channels, s, np.float32)
    if dtype == "uint8":
        q = Quant(_logu(rng, 0.002, 0.03), int(rng.integers(80, 176)))
        return _ints(rng, "uint8", shape), q, np.full(channels, q.scale, np.float32)
    w = rng.integers(-127, 128, size=tuple(shape)).astype(np.int8)
    if per_channel:
        scales = np.array([_logu(rng, 0.001, 0.03) for _ in range(channels)], np.float32)
        return w, Quant(scales.tolist(), [0] * channels, qdim), scales
    s = _logu(rng, 0.001, 0.03)
    return w, Quant(s, 0), np.full(channels, s, np.float32)


def _bias(rng, in_scale: float, w_scales: np.ndarray, wrap: bool = False) -> TensorSpec:
    """An int32 bias at scale in_scale * w_scale; with `wrap`, values near +-2^31 so that the
    accumulators overflow and wrap (the reference kernels wrap like TFLite's)."""
    scales = np.float32(in_scale) * w_scales.astype(np.float32)
    data = rng.integers(-6000, 6001, size=w_scales.size).astype(np.int32)
    if wrap:
        edge = rng.integers(2**31 - 2**18, 2**31, size=w_scales.size)
        data = (edge * rng.choice([-1, 1], size=w_scales.size)).astype(np.int32)
    if np.all(scales == scales[0]):
        q = Quant(float(scales[0]), 0)
    else:
        q = Quant(scales.tolist(), [0] * scales.size, 0)
    return TensorSpec([w_scales.size], np.int32, data=data, quant=q)


def _channels(rng) -> int:
    """Channel counts straddling the kernels' block sizes."""
    return int(_pick(rng, (1, 3, 8, 15, 16, 17, 24, 31, 32, 40, 63, 64, 65, 96)))


def _window(rng, kernel: int):
    stride = int(_pick(rng, (1, 1, 2, 2, 3)))
    dil = int(_pick(rng, (1, 1, 1, 2)))
    size = int(rng.integers(1, 14))
    pad = _pick(rng, ("SAME", "VALID"))
    if pad == "VALID" and (kernel - 1) * dil + 1 > size:
        pad = "SAME"
    return size, stride, dil, pad


def _out_extent(size: int, k: int, s: int, d: int, pad: str) -> int:
    return (size + s - 1) // s if pad == "SAME" else (size - (k - 1) * d - 1) // s + 1


# First layers and the 16..64-channel layers of the MLPerf Tiny ResNet-8 and MobileNets:
# (input NHWC, kernel, stride, padding, output channels).
_NAMED_CONVS = (
    ([1, 32, 32, 3], (3, 3), 1, "SAME", 16),
    ([1, 32, 32, 16], (3, 3), 1, "SAME", 16),
    ([1, 32, 32, 16], (3, 3), 2, "SAME", 32),
    ([1, 32, 32, 16], (1, 1), 2, "SAME", 32),
    ([1, 16, 16, 32], (3, 3), 2, "SAME", 64),
    ([1, 8, 8, 64], (3, 3), 1, "SAME", 64),
    ([1, 48, 48, 3], (3, 3), 2, "SAME", 8),
    ([1, 49, 10, 1], (10, 4), 2, "SAME", 64),
)


def _small_cin_geometry(rng: np.random.Generator):
    """Few input channels (whole filter rows read per tap): 1..13 channels, wide and tall
    kernels, strides 1..3, dilation along either axis, borders, batches; or a named model layer."""
    if rng.random() < 0.15:
        (b, h, w, cin), (kh, kw), s, pad, cout = _NAMED_CONVS[int(rng.integers(0, len(_NAMED_CONVS)))]
        return b, h, w, cin, kh, kw, s, s, 1, 1, pad, cout
    b = int(_pick(rng, (1, 1, 1, 2)))
    cin = int(_pick(rng, (1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 11, 13)))
    kh, kw = _pick(rng, ((3, 3), (3, 3), (5, 5), (1, 1), (1, 3), (3, 1), (10, 4), (2, 2), (7, 7)))
    h, sh, dh, pad = _window(rng, kh)
    w, sw, dw, pad_w = _window(rng, kw)
    h, w = h + int(rng.integers(0, 12)), w + int(rng.integers(0, 12))
    if pad != pad_w:
        pad = "SAME"
    cout = int(_pick(rng, (1, 8, 16, 16, 17, 32, 33, 64)))
    return b, h, w, cin, kh, kw, sh, sw, dh, dw, pad, cout


def _float_taps_geometry(rng: np.random.Generator):
    """Float convolutions reading filter rows in place: small padded images (copied with their
    border), images past that copy's bound (runs leaving the image gathered per tile), no
    padding, 1x1 with stride, dilation along y, and dilation along x (im2col instead)."""
    if rng.random() < 0.1:
        (b, h, w, cin), (kh, kw), s, pad, cout = _NAMED_CONVS[int(rng.integers(0, len(_NAMED_CONVS)))]
        return b, h, w, cin, kh, kw, s, s, 1, 1, pad, cout
    b = int(_pick(rng, (1, 1, 1, 2)))
    cin = int(_pick(rng, (1, 2, 3, 3, 4, 5, 8, 16, 24)))
    kh, kw = _pick(rng, ((3, 3), (3, 3), (5, 5), (1, 1), (1, 3), (3, 1), (10, 4), (2, 2), (7, 7)))
    h, sh, dh, pad = _window(rng, kh)
    w, sw, dw, pad_w = _window(rng, kw)
    if pad != pad_w:
        pad = "SAME"
    dw = dw if rng.random() < 0.2 else 1
    if rng.random() < 0.4:
        # past the padded copy's 16384 floats
        side = int(np.ceil(np.sqrt(17000 / (b * cin)))) + int(rng.integers(0, 6))
        h, w = side + int(rng.integers(-3, 4)), side + int(rng.integers(-3, 4))
    else:
        h, w = h + int(rng.integers(0, 12)), w + int(rng.integers(0, 12))
    if pad == "VALID" and ((kh - 1) * dh + 1 > h or (kw - 1) * dw + 1 > w):
        pad = "SAME"
    cout = int(_pick(rng, (1, 8, 16, 17, 32, 33, 48, 64, 80)))
    pixels = b * _out_extent(h, kh, sh, dh, pad) * _out_extent(w, kw, sw, dw, pad)
    while pixels * kh * kw * cin * cout > 2_000_000 and cout > 1:
        cout = (cout + 1) // 2
    return b, h, w, cin, kh, kw, sh, sw, dh, dw, pad, cout


def conv(dtype: str, ties: bool = False, wrap: bool = False,
         small_cin: bool = False, float_taps: bool = False) -> Callable[[np.random.Generator], Case]:
    """CONV_2D: int8 (per-channel or per-tensor), uint8, or float32; `ties` as in fully_connected;
    `small_cin` draws the few-input-channel geometries of _small_cin_geometry, `float_taps` those
    of _float_taps_geometry."""

    def gen(rng: np.random.Generator) -> Case:
        if small_cin:
            b, h, w, cin, kh, kw, sh, sw, dh, dw, pad, cout = _small_cin_geometry(rng)
        elif float_taps:
            b, h, w, cin, kh, kw, sh, sw, dh, dw, pad, cout = _float_taps_geometry(rng)
        else:
            b = int(_pick(rng, (1, 1, 2)))
            pointwise = rng.random() < 0.3
            kh, kw = (1, 1) if pointwise else (int(_pick(rng, (1, 2, 3, 3, 5))), int(_pick(rng, (1, 3, 3))))
            h, sh, dh, pad = _window(rng, kh)
            w, sw, dw, pad_w = _window(rng, kw)
            if pad != pad_w:
                pad = "SAME"
            if pointwise:
                sh = sw = 1
                pad = "VALID"
            cin, cout = _channels(rng), _channels(rng)
        act = _pick(rng, ACTIVATIONS)
        oh, ow = _out_extent(h, kh, sh, dh, pad), _out_extent(w, kw, sw, dw, pad)
        while b * oh * ow * kh * kw * cin * cout > 400_000 and cin > 1 and not (small_cin or float_taps):
            cin = max(1, cin // 2)
        opts = options("Conv2D", padding=pad, stride_w=sw, stride_h=sh, dilation_w_factor=dw,
                       dilation_h_factor=dh, fused_activation_function=act)
        name = f"conv {dtype} x{[b, h, w, cin]} k{kh}x{kw} s{sh},{sw} d{dh},{dw} {pad} cout{cout} {act}"
        if dtype == "float32":
            wdata = rng.standard_normal((cout, kh, kw, cin)).astype(np.float32)
            model = single_op_model(
                "CONV_2D",
                [TensorSpec([b, h, w, cin], np.float32),
                 TensorSpec([cout, kh, kw, cin], np.float32, data=wdata),
                 TensorSpec([cout], np.float32, data=rng.standard_normal(cout).astype(np.float32))],
                [TensorSpec([b, oh, ow, cout], np.float32)], options=opts)
            x = rng.standard_normal((b, h, w, cin)).astype(np.float32)
            return Case(name, model, [x], FLOAT_TOL)
        per_channel = dtype == "int8" and rng.random() < 0.8 and not ties
        wdata, wq, w_scales = _weights(rng, dtype, [cout, kh, kw, cin], cout, 0, per_channel, ties)
        xq = _act_quant(rng, dtype)
        yq = _out_quant(rng, dtype, xq.scale, float(np.exp(np.mean(np.log(w_scales)))), kh * kw * cin)
        if ties:
            xq = Quant(_pow2(rng, 2, 6), xq.zero_point)
            yq = Quant(float(xq.scale * w_scales[0] * 2.0 ** int(rng.integers(1, 14))), yq.zero_point)
            name += " ties"
        model = single_op_model(
            "CONV_2D",
            [TensorSpec([b, h, w, cin], dtype, quant=xq),
             TensorSpec([cout, kh, kw, cin], wdata.dtype, data=wdata, quant=wq),
             _bias(rng, xq.scale, w_scales, wrap)],
            [TensorSpec([b, oh, ow, cout], dtype, quant=yq)],
            options=opts, version=3 if dtype == "int8" else 2)
        return Case(name + f" pc={per_channel} wrap={wrap}", model, [_ints(rng, dtype, [b, h, w, cin])])

    return gen


def _conv_fit(b, h, w, cin, kh, kw, sh, sw, dh, dw, pad, cout, act):
    """Output extent, the input channels halved until the case stays under 400k multiply-adds,
    and the Conv2D options."""
    oh, ow = _out_extent(h, kh, sh, dh, pad), _out_extent(w, kw, sw, dw, pad)
    while b * oh * ow * kh * kw * cin * cout > 400_000 and cin > 1:
        cin = max(1, cin // 2)
    opts = options("Conv2D", padding=pad, stride_w=sw, stride_h=sh, dilation_w_factor=dw,
                   dilation_h_factor=dh, fused_activation_function=act)
    return cin, oh, ow, opts


def _conv16_extreme(rng: np.random.Generator, bias_type: str) -> Case:
    """A 1x1 CONV_2D over 600-3000 int16 channels whose inputs take the sign of output channel
    0's weights at full scale: that channel's sum is about 2^32, beyond any int32 partial sum
    over more than 2^8 taps, and the output scale keeps it inside the int16 range."""
    cin, cout = int(_pick(rng, (600, 1200, 3000))), int(_pick(rng, (1, 2, 4)))
    b, h, w = 1, int(rng.integers(1, 4)), int(rng.integers(1, 4))
    wdata = (rng.integers(100, 128, size=(cout, 1, 1, cin)) * rng.choice([-1, 1], size=(cout, 1, 1, cin))).astype(np.int8)
    w_scales = np.full(cout, 0.01, np.float32)
    xq = Quant(_f32(1e-4), 0)
    x = (np.sign(wdata[0, 0, 0, :]).astype(np.int32) * 32767).astype(np.int16)
    x = np.broadcast_to(x, (b, h, w, cin)).copy()
    acc = float(np.abs(wdata[0, 0, 0, :].astype(np.int64)).sum()) * 32767.0
    yq = Quant(_f32(acc * 1e-4 * 0.01 / 20000.0), 0)
    inputs = [TensorSpec([b, h, w, cin], "int16", quant=xq),
              TensorSpec([cout, 1, 1, cin], np.int8, data=wdata, quant=Quant(w_scales.tolist(), [0] * cout, 0))]
    if bias_type != "none":
        inputs.append(TensorSpec([cout], bias_type, data=np.zeros(cout, bias_type),
                                 quant=Quant((np.float32(1e-4) * w_scales).tolist(), [0] * cout, 0)))
    opts = options("Conv2D", padding="VALID", stride_w=1, stride_h=1, dilation_w_factor=1, dilation_h_factor=1,
                   fused_activation_function="NONE")
    model = single_op_model("CONV_2D", inputs, [TensorSpec([b, h, w, cout], "int16", quant=yq)], options=opts, version=4)
    return Case(f"conv16 extreme sums x{[b, h, w, cin]} cout{cout} bias={bias_type}", model, [x])


def conv16(bias_type: str) -> Callable[[np.random.Generator], Case]:
    """CONV_2D in TFLite's 16x8 scheme: int16 activations (zero point 0), per-channel int8
    weights, an int64, int32 or no bias; full-range inputs, and windows of up to 3200 taps so
    the kernel's int32 block sums are crossed many times; one case in five a sum of about 2^32
    (_conv16_extreme)."""

    def gen(rng: np.random.Generator) -> Case:
        if rng.random() < 0.2:
            return _conv16_extreme(rng, bias_type)
        b = int(_pick(rng, (1, 1, 2)))
        kh, kw = int(_pick(rng, (1, 2, 3, 3, 5))), int(_pick(rng, (1, 3, 4)))
        h, sh, dh, pad = _window(rng, kh)
        w, sw, dw, pad_w = _window(rng, kw)
        if pad != pad_w:
            pad = "SAME"
        cin = int(_pick(rng, (1, 3, 8, 17, 32, 64, 160)))
        cout = _channels(rng)
        act = _pick(rng, ACTIVATIONS)
        cin, oh, ow, opts = _conv_fit(b, h, w, cin, kh, kw, sh, sw, dh, dw, pad, cout, act)
        wdata, wq, w_scales = _weights(rng, "int8", [cout, kh, kw, cin], cout, 0, True)
        xq = Quant(_logu(rng, 1e-4, 1e-3), 0)
        spread = np.sqrt(kh * kw * cin) * 18000.0 * 74.0 * xq.scale * float(np.exp(np.mean(np.log(w_scales))))
        yq = Quant(_f32(spread / 16000.0 * rng.uniform(0.5, 2.0)), 0)
        inputs = [TensorSpec([b, h, w, cin], "int16", quant=xq),
                  TensorSpec([cout, kh, kw, cin], wdata.dtype, data=wdata, quant=wq)]
        if bias_type != "none":
            scales = (np.float32(xq.scale) * w_scales.astype(np.float32)).tolist()
            # Mostly of the sums' size; sometimes an int64 bias far beyond int32 (outputs clamp).
            limit = 2**40 if bias_type == "int64" and rng.random() < 0.1 else 2**22
            data = rng.integers(-limit, limit, size=cout).astype(bias_type)
            inputs.append(TensorSpec([cout], bias_type, data=data, quant=Quant(scales, [0] * cout, 0)))
        model = single_op_model("CONV_2D", inputs, [TensorSpec([b, oh, ow, cout], "int16", quant=yq)],
                                options=opts, version=4)
        name = f"conv16 x{[b, h, w, cin]} k{kh}x{kw} s{sh},{sw} d{dh},{dw} {pad} cout{cout} {act} bias={bias_type}"
        return Case(name, model, [_ints(rng, "int16", [b, h, w, cin])])

    return gen


def conv_hybrid(per_channel: bool) -> Callable[[np.random.Generator], Case]:
    """CONV_2D with float activations and int8 weights (dynamic range): one weight scale (the
    symmetric input quantization) or one per output channel (the asymmetric one); some inputs
    all zero or all of one sign, which take the quantizers' special cases."""

    def gen(rng: np.random.Generator) -> Case:
        b = int(_pick(rng, (1, 1, 1, 2)))
        pointwise = rng.random() < 0.3
        kh, kw = (1, 1) if pointwise else (int(_pick(rng, (1, 3, 3, 5, 10))), int(_pick(rng, (1, 3, 4))))
        h, sh, dh, pad = _window(rng, kh)
        w, sw, dw, pad_w = _window(rng, kw)
        if pad != pad_w:
            pad = "SAME"
        if pointwise:
            sh = sw = 1
            pad = "VALID"
        cin, cout = _channels(rng), _channels(rng)
        if rng.random() < 0.15:
            # a named first or middle layer (the keyword model's 10x4 filter over one channel)
            (b, h, w, cin), (kh, kw), sh, pad, cout = _NAMED_CONVS[int(rng.integers(0, len(_NAMED_CONVS)))]
            sw, dh, dw = sh, 1, 1
        act = _pick(rng, ACTIVATIONS)
        cin, oh, ow, opts = _conv_fit(b, h, w, cin, kh, kw, sh, sw, dh, dw, pad, cout, act)
        wdata, wq, _ = _weights(rng, "int8", [cout, kh, kw, cin], cout, 0, per_channel)
        with_bias = rng.random() < 0.8
        tensors = [TensorSpec([b, h, w, cin], np.float32),
                   TensorSpec([cout, kh, kw, cin], np.int8, data=wdata, quant=wq)]
        if with_bias:
            tensors.append(TensorSpec([cout], np.float32, data=rng.standard_normal(cout).astype(np.float32)))
        model = single_op_model("CONV_2D", tensors, [TensorSpec([b, oh, ow, cout], np.float32)],
                                options=opts, version=5 if per_channel else 2)
        x = (rng.standard_normal((b, h, w, cin)) * _logu(rng, 1e-3, 1e3)).astype(np.float32)
        shape_kind = _pick(rng, ("mixed", "mixed", "mixed", "positive", "negative", "zero"))
        if shape_kind == "positive":
            x = np.abs(x)
        elif shape_kind == "negative":
            x = -np.abs(x)
        elif shape_kind == "zero":
            x = np.zeros_like(x)
        name = (f"hybrid conv x{[b, h, w, cin]} k{kh}x{kw} s{sh},{sw} d{dh},{dw} {pad} cout{cout} {act} "
                f"pc={per_channel} bias={with_bias} input={shape_kind}")
        return Case(name, model, [x], FLOAT_TOL)

    return gen


def depthwise(dtype: str, wrap: bool = False, few_channels: bool = False,
              multiplier: bool = False) -> Callable[[np.random.Generator], Case]:
    """DEPTHWISE_CONV_2D, mostly 3x3 stride 1/2 with multiplier 1 (some multiplier 2);
    `few_channels`: 1..8 channels on maps 8..40 wide (runs of many pixels, two per vector);
    `multiplier`: depth multipliers 2..8 on 1..5 input channels with windows up to 10x8 (80 taps,
    as the micro_speech model's first layer)."""

    def gen(rng: np.random.Generator) -> Case:
        b = int(_pick(rng, (1, 1, 2)))
        k = int(_pick(rng, (3, 3, 3, 1, 2, 5)))
        kw = k if rng.random() < 0.8 else int(_pick(rng, (1, 3)))
        if multiplier:
            k, kw = int(_pick(rng, (3, 5, 10))), int(_pick(rng, (3, 4, 8)))
        h, sh, dh, pad = _window(rng, k)
        w, sw, dw, pad_w = _window(rng, kw)
        if pad != pad_w:
            pad = "SAME"
        cin = _channels(rng)
        if few_channels:
            w += int(rng.integers(7, 28))
            cin = int(rng.integers(1, 9))
        mult = 2 if rng.random() < 0.1 else 1
        if multiplier:
            cin = int(_pick(rng, (1, 1, 2, 3, 5)))
            mult = int(_pick(rng, (2, 3, 4, 8)))
            w += int(rng.integers(0, 30))
        cout = cin * mult
        act = _pick(rng, ACTIVATIONS)
        oh, ow = _out_extent(h, k, sh, dh, pad), _out_extent(w, kw, sw, dw, pad)
        opts = options("DepthwiseConv2D", padding=pad, stride_w=sw, stride_h=sh, depth_multiplier=mult,
                       dilation_w_factor=dw, dilation_h_factor=dh, fused_activation_function=act)
        name = f"depthwise {dtype} x{[b, h, w, cin]} k{k}x{kw} s{sh},{sw} d{dh},{dw} {pad} m{mult} {act}"
        if dtype == "float32":
            model = single_op_model(
                "DEPTHWISE_CONV_2D",
                [TensorSpec([b, h, w, cin], np.float32),
                 TensorSpec([1, k, kw, cout], np.float32,
                            data=rng.standard_normal((1, k, kw, cout)).astype(np.float32)),
                 TensorSpec([cout], np.float32, data=rng.standard_normal(cout).astype(np.float32))],
                [TensorSpec([b, oh, ow, cout], np.float32)], options=opts)
            return Case(name, model, [rng.standard_normal((b, h, w, cin)).astype(np.float32)], FLOAT_TOL)
        per_channel = dtype == "int8" and rng.random() < 0.8
        wdata, wq, w_scales = _weights(rng, dtype, [1, k, kw, cout], cout, 3, per_channel)
        xq = _act_quant(rng, dtype)
        yq = _out_quant(rng, dtype, xq.scale, float(np.exp(np.mean(np.log(w_scales)))), k * kw)
        model = single_op_model(
            "DEPTHWISE_CONV_2D",
            [TensorSpec([b, h, w, cin], dtype, quant=xq),
             TensorSpec([1, k, kw, cout], wdata.dtype, data=wdata, quant=wq),
             _bias(rng, xq.scale, w_scales, wrap)],
            [TensorSpec([b, oh, ow, cout], dtype, quant=yq)],
            options=opts, version=3 if dtype == "int8" else 2)
        return Case(name + f" pc={per_channel} wrap={wrap}", model, [_ints(rng, dtype, [b, h, w, cin])])

    return gen


def fully_connected(dtype: str, ties: bool = False, wrap: bool = False) -> Callable[[np.random.Generator], Case]:
    """FULLY_CONNECTED over 1..9 rows (one row is the usual case: the single-row kernels); with
    `ties`, power-of-two scales make many rescaled accumulators land exactly on .5."""

    def gen(rng: np.random.Generator) -> Case:
        rows = int(_pick(rng, (1, 1, 1, 2, 3, 6, 7, 9)))
        depth = int(_pick(rng, (1, 3, 8, 16, 25, 64, 100, 250, 640)))
        units = int(_pick(rng, (1, 2, 10, 16, 17, 33, 64, 65, 128, 200)))
        act = _pick(rng, ACTIVATIONS)
        opts = options("FullyConnected", fused_activation_function=act)
        name = f"fc {dtype} rows{rows} depth{depth} units{units} {act}"
        if dtype == "float32":
            model = single_op_model(
                "FULLY_CONNECTED",
                [TensorSpec([rows, depth], np.float32),
                 TensorSpec([units, depth], np.float32,
                            data=rng.standard_normal((units, depth)).astype(np.float32)),
                 TensorSpec([units], np.float32, data=rng.standard_normal(units).astype(np.float32))],
                [TensorSpec([rows, units], np.float32)], options=opts)
            return Case(name, model, [rng.standard_normal((rows, depth)).astype(np.float32)], FLOAT_TOL)
        per_channel = dtype == "int8" and rng.random() < 0.5 and not ties
        wdata, wq, w_scales = _weights(rng, dtype, [units, depth], units, 0, per_channel, ties)
        xq = _act_quant(rng, dtype)
        yq = _out_quant(rng, dtype, xq.scale, float(np.exp(np.mean(np.log(w_scales)))), depth)
        if ties:
            xq = Quant(_pow2(rng, 2, 6), xq.zero_point)
            yq = Quant(float(xq.scale * w_scales[0] * 2.0 ** int(rng.integers(1, 12))), yq.zero_point)
            name += " ties"
        if wrap:
            # A rescale near 1: accumulators near 2^31 overflow int32 once multiplied.
            yq = Quant(_f32(xq.scale * float(w_scales.max()) * rng.uniform(0.4, 0.9)), yq.zero_point)
        model = single_op_model(
            "FULLY_CONNECTED",
            [TensorSpec([rows, depth], dtype, quant=xq),
             TensorSpec([units, depth], wdata.dtype, data=wdata, quant=wq),
             _bias(rng, xq.scale, w_scales, wrap)],
            [TensorSpec([rows, units], dtype, quant=yq)],
            options=opts, version=7 if per_channel else (4 if dtype == "int8" else 1))
        return Case(name + f" pc={per_channel} wrap={wrap}", model, [_ints(rng, dtype, [rows, depth])])

    return gen


def fully_connected_hybrid(per_channel: bool) -> Callable[[np.random.Generator], Case]:
    """FULLY_CONNECTED with float rows and int8 weights (dynamic range): symmetric or asymmetric
    row quantization, one weight scale or one per unit, TANH and SIGMOID too (reference kernel),
    some rows all zero or of one sign."""

    def gen(rng: np.random.Generator) -> Case:
        rows = int(_pick(rng, (1, 1, 1, 2, 3, 6, 7, 9)))
        depth = int(_pick(rng, (1, 3, 8, 16, 25, 64, 100, 250, 640)))
        units = int(_pick(rng, (1, 2, 10, 16, 17, 33, 64, 65, 128, 200)))
        act = _pick(rng, ACTIVATIONS + ("TANH",))
        asym = bool(rng.random() < 0.5)
        opts = options("FullyConnected", fused_activation_function=act, asymmetric_quantize_inputs=asym)
        wdata, wq, _ = _weights(rng, "int8", [units, depth], units, 0, per_channel)
        with_bias = rng.random() < 0.8
        tensors = [TensorSpec([rows, depth], np.float32),
                   TensorSpec([units, depth], np.int8, data=wdata, quant=wq)]
        tensors.append(TensorSpec([units], np.float32, data=rng.standard_normal(units).astype(np.float32))
                       if with_bias else None)
        model = single_op_model("FULLY_CONNECTED", tensors, [TensorSpec([rows, units], np.float32)],
                                options=opts, version=12 if per_channel else 9)
        x = (rng.standard_normal((rows, depth)) * _logu(rng, 1e-3, 1e3)).astype(np.float32)
        kind = _pick(rng, ("mixed", "mixed", "mixed", "positive", "negative", "zero_row"))
        if kind == "positive":
            x = np.abs(x)
        elif kind == "negative":
            x = -np.abs(x)
        elif kind == "zero_row":
            x[int(rng.integers(0, rows))] = 0.0
        name = (f"hybrid fc rows{rows} depth{depth} units{units} {act} asym={asym} pc={per_channel} "
                f"bias={with_bias} input={kind}")
        return Case(name, model, [x], FLOAT_TOL)

    return gen


def float_activation(op: str) -> Callable[[np.random.Generator], Case]:
    """LOGISTIC / TANH on float32: lengths around the 8- and 16-float vectors, magnitudes from
    tanh's small-argument series through both saturations (and past the exponential's range)."""

    def gen(rng: np.random.Generator) -> Case:
        shape = [int(v) for v in rng.integers(1, 12, size=int(rng.integers(1, 4)))]
        x = (rng.standard_normal(shape) * _logu(rng, 1e-3, 100.0)).astype(np.float32)
        if rng.random() < 0.2:
            x.flat[0] = np.float32(_pick(rng, (-100.0, -17.0, -9.5, 16.7, 100.0, 0.0)))
        model = single_op_model(op, [TensorSpec(shape, np.float32)], [TensorSpec(shape, np.float32)])
        return Case(f"{op.lower()} float32 {shape}", model, [x], FLOAT_TOL)

    return gen


def dequantize(dtype: str) -> Callable[[np.random.Generator], Case]:
    """DEQUANTIZE of a constant (weights stored as float16 or integers: the optimized tier widens
    them once in prepare) or, now and then, of the model input (widened every invoke)."""

    def gen(rng: np.random.Generator) -> Case:
        shape = [int(v) for v in rng.integers(1, 9, size=int(rng.integers(1, 5)))]
        constant = rng.random() < 0.8
        if dtype == "float16":
            data = (rng.standard_normal(shape) * _logu(rng, 1e-3, 1e3)).astype(np.float16)
            quant = None
        else:
            data = _ints(rng, dtype, shape)
            quant = _act_quant(rng, "uint8" if dtype == "uint8" else "int8")
            if dtype == "int16":
                quant = Quant(quant.scale, 0)
        spec = TensorSpec(shape, dtype, data=data if constant else None, quant=quant)
        model = single_op_model("DEQUANTIZE", [spec], [TensorSpec(shape, np.float32)],
                                version=3 if dtype == "float16" else 2)
        return Case(f"dequantize {dtype} {shape} constant={constant}", model, [] if constant else [data])

    return gen


def _quantize_floats(rng: np.random.Generator, n: int, q: Quant) -> np.ndarray:
    """Floats over and past the quantized range, with exact .5 ties, signed zeros and non-finite values."""
    x = (rng.uniform(-160.0, 160.0, size=n) * q.scale).astype(np.float32)
    ties = rng.random(n) < 0.3
    x[ties] = ((rng.integers(-140, 141, size=int(ties.sum())) + 0.5) * q.scale).astype(np.float32)
    special = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 3e38, -3e38, 1e-40, 0.49999997 * q.scale,
                        -0.5 * q.scale, 8388609.0 * q.scale], np.float32)
    picks = rng.random(n) < 0.08
    x[picks] = special[rng.integers(0, special.size, size=int(picks.sum()))]
    return x


def quantize(in_dtype: str, out_dtype: str) -> Callable[[np.random.Generator], Case]:
    """QUANTIZE of a model input: float32 to int8/uint8 (power-of-two scales put values on the
    rounding ties), or 8-bit to 8-bit at the same scale (zero points 128 apart or equal) or at
    another scale."""

    def gen(rng: np.random.Generator) -> Case:
        shape = [int(v) for v in rng.integers(1, 9, size=int(rng.integers(1, 4)))]
        if rng.random() < 0.5:
            shape[-1] = int(rng.integers(1, 130))
        n = int(np.prod(shape))
        out_q = _act_quant(rng, out_dtype)
        if rng.random() < 0.4:
            out_q = Quant(_pow2(rng, 1, 9), out_q.zero_point)
        if in_dtype == "float32":
            data = _quantize_floats(rng, n, out_q).reshape(shape)
            in_q = None
        else:
            data = _ints(rng, in_dtype, shape)
            in_q = _act_quant(rng, in_dtype)
            kind = int(rng.integers(0, 3))
            if kind == 0:  # the same real values: zero points 128 apart (or equal)
                shift = 0 if in_dtype == out_dtype else (128 if out_dtype == "uint8" else -128)
                out_q = Quant(in_q.scale, int(np.clip(in_q.zero_point + shift, -128, 255)))
            elif kind == 1:
                out_q = Quant(_f32(in_q.scale * _pow2(rng, -2, 2)), out_q.zero_point)
        model = single_op_model("QUANTIZE", [TensorSpec(shape, in_dtype, quant=in_q)],
                                [TensorSpec(shape, out_dtype, quant=out_q)], version=2)
        return Case(f"quantize {in_dtype}->{out_dtype} {shape} {out_q}", model, [data])

    return gen


def dequantize_activation(dtype: str) -> Callable[[np.random.Generator], Case]:
    """DEQUANTIZE of a model input of up to a few hundred values, any zero point of the type."""

    def gen(rng: np.random.Generator) -> Case:
        shape = [int(v) for v in rng.integers(1, 7, size=int(rng.integers(1, 4)))]
        shape[-1] = int(rng.integers(1, 200))
        data = _ints(rng, dtype, shape)
        info = np.iinfo(np.dtype(dtype))
        quant = Quant(_logu(rng, 1e-4, 10.0), int(rng.integers(info.min, info.max, endpoint=True)))
        model = single_op_model("DEQUANTIZE", [TensorSpec(shape, dtype, quant=quant)],
                                [TensorSpec(shape, np.float32)], version=2)
        return Case(f"dequantize activation {dtype} {shape} {quant}", model, [data])

    return gen


def binary(op: str, dtype: str) -> Callable[[np.random.Generator], Case]:
    """ADD or MUL: equal shapes (the vector path), a one-element operand, or a broadcast."""

    def gen(rng: np.random.Generator) -> Case:
        rank = int(rng.integers(1, 5))
        shape = [int(v) for v in rng.integers(1, 9, size=rank)]
        shape[-1] = int(_pick(rng, (1, 7, 16, 33, 100)))
        if rng.random() < 0.05:  # empty operands may have no buffer at all
            shape[0] = 0
        kind = _pick(rng, ("same", "same", "same", "scalar_b", "scalar_a", "broadcast", "broadcast_a", "odd"))
        a_shape, b_shape = list(shape), list(shape)
        if kind == "scalar_b":
            b_shape = [1] * rank
        elif kind == "scalar_a":
            a_shape = [1] * rank
        elif kind == "broadcast":
            b_shape = [1] * (rank - 1) + [shape[-1]]
        elif kind == "broadcast_a":
            a_shape = shape[-min(rank, 2):]
        elif kind == "odd":
            b_shape = shape[:-1] + [1]
        act = _pick(rng, ACTIVATIONS)
        kind_opts = "Add" if op == "ADD" else "Mul"
        opts = options(kind_opts, fused_activation_function=act)
        qa, qb = _act_quant(rng, dtype), _act_quant(rng, dtype)
        if op == "ADD":
            spread = 74.0 * (qa.scale + qb.scale)
        else:
            spread = 74.0 * 74.0 * qa.scale * qb.scale
        zp = int(rng.integers(30, 226)) if dtype == "uint8" else int(rng.integers(-60, 61))
        qo = Quant(_f32(spread / 45.0 * rng.uniform(0.6, 2.0)), zp)
        model = single_op_model(op, [TensorSpec(a_shape, dtype, quant=qa), TensorSpec(b_shape, dtype, quant=qb)],
                                [TensorSpec(shape, dtype, quant=qo)], options=opts,
                                version=2 if dtype == "int8" else 1)
        name = f"{op.lower()} {dtype} {a_shape}+{b_shape} {act}"
        return Case(name, model, [_ints(rng, dtype, a_shape), _ints(rng, dtype, b_shape)])

    return gen


def binary16(op: str) -> Callable[[np.random.Generator], Case]:
    """int16 ADD or SUB with general (not power-of-two) scales: equal shapes, a one-element
    operand, or one operand of the output's trailing shape (a per-channel bias, on either side)
    repeating over maps of up to 40k elements, so chunks, threads and repetitions cross; zero
    points 0 (LiteRT refuses others for int16), and for SUB sometimes an output multiplier above
    one (a left shift). Full-range inputs, with one case in ten every int16 value paired with
    extremes."""

    def gen(rng: np.random.Generator) -> Case:
        channels = int(_pick(rng, (1, 7, 24, 64, 100)))
        shape = [1, int(rng.integers(1, 20)), int(rng.integers(1, 20)), channels]
        if rng.random() < 0.2:
            shape[1:3] = [int(rng.integers(20, 60)), int(rng.integers(20, 60))]
        kind = _pick(rng, ("same", "same", "scalar_b", "scalar_a", "channel_b", "channel_a"))
        a_shape, b_shape = list(shape), list(shape)
        if kind == "scalar_b":
            b_shape = [1, 1, 1, 1]
        elif kind == "scalar_a":
            a_shape = [1, 1, 1, 1]
        elif kind == "channel_b":
            b_shape = [channels]
        elif kind == "channel_a":
            a_shape = [1, 1, channels]
        act = _pick(rng, ("NONE", "RELU", "RELU6", "RELU_N1_TO_1"))
        qa, qb = Quant(_logu(rng, 1e-5, 1e-2), 0), Quant(_logu(rng, 1e-5, 1e-2), 0)
        grow = 2.0 ** float(rng.uniform(0.0, 1.5))
        if op == "SUB" and rng.random() < 0.2:
            grow = 1.0 / 2.0 ** float(rng.integers(17, 19))  # an output multiplier above one
            act = "NONE"  # a bounded activation would not fit that output scale
        qo = Quant(_f32(max(qa.scale, qb.scale) * grow), 0)
        opts = options("Add" if op == "ADD" else "Sub", fused_activation_function=act)
        xa, xb = _ints(rng, "int16", a_shape), _ints(rng, "int16", b_shape)
        if rng.random() < 0.1 and kind == "same":
            flat = np.arange(-32768, 32768, dtype=np.int64)
            xa = np.resize(flat, int(np.prod(a_shape))).astype(np.int16).reshape(a_shape)
            xb = np.resize(np.array([-32768, -1, 0, 1, 32767], np.int16), int(np.prod(b_shape))).reshape(b_shape)
        model = single_op_model(op, [TensorSpec(a_shape, "int16", quant=qa), TensorSpec(b_shape, "int16", quant=qb)],
                                [TensorSpec(shape, "int16", quant=qo)], options=opts, version=3)
        name = f"{op.lower()} int16 {a_shape}{'+' if op == 'ADD' else '-'}{b_shape} {act}"
        return Case(name, model, [xa, xb])

    return gen


def add_all_pairs(dtype: str) -> Callable[[np.random.Generator], Case]:
    """int8/uint8 ADD over every pair of input values (a 256 x 256 grid), with scales of random
    ratios or powers of two (outputs exactly on rounding ties): the vector paths that bound
    their error and fall back to the exact arithmetic near a rounding step meet every case."""

    def gen(rng: np.random.Generator) -> Case:
        info = np.iinfo(np.dtype(dtype))
        values = np.arange(info.min, info.max + 1).astype(dtype)
        a = np.repeat(values, 256).reshape(256, 256)
        b = np.tile(values, 256).reshape(256, 256)
        if rng.random() < 0.5:
            qa, qb = _act_quant(rng, dtype), _act_quant(rng, dtype)
            qo = Quant(_f32((qa.scale + qb.scale) * rng.uniform(0.5, 3.0)),
                       int(rng.integers(30, 226)) if dtype == "uint8" else int(rng.integers(-60, 61)))
            kind = "random"
        else:
            zp = (lambda: int(rng.integers(30, 226))) if dtype == "uint8" else (lambda: int(rng.integers(-60, 61)))
            qa, qb = Quant(_pow2(rng, 3, 8), zp()), Quant(_pow2(rng, 3, 8), zp())
            qo = Quant(_pow2(rng, 2, 8), zp())
            kind = "ties"
        act = _pick(rng, ACTIVATIONS)
        model = single_op_model("ADD", [TensorSpec([256, 256], dtype, quant=qa), TensorSpec([256, 256], dtype, quant=qb)],
                                [TensorSpec([256, 256], dtype, quant=qo)], options=options("Add", fused_activation_function=act),
                                version=2 if dtype == "int8" else 1)
        return Case(f"add {dtype} all pairs {kind} {qa}+{qb}->{qo} {act}", model, [a, b])

    return gen


def binary_float(op: str) -> Callable[[np.random.Generator], Case]:
    """Float ADD, SUB or MUL: equal shapes, one-element operands and one operand of the output's
    trailing shape on either side (the vector paths; elementwise float arithmetic in any order of
    elements gives the reference bits, so tolerance 0) and other broadcasts (reference kernel);
    some zeros and NaNs to check the clamp keeps -0 and NaN."""

    def gen(rng: np.random.Generator) -> Case:
        rank = int(rng.integers(1, 5))
        shape = [int(v) for v in rng.integers(1, 9, size=rank)]
        shape[-1] = int(_pick(rng, (1, 7, 15, 16, 17, 33, 100)))
        if rng.random() < 0.05:  # empty operands may have no buffer at all
            shape[0] = 0
        kind = _pick(rng, ("same", "same", "same", "scalar_b", "scalar_a", "broadcast", "broadcast_a", "odd"))
        a_shape, b_shape = list(shape), list(shape)
        if kind == "scalar_b":
            b_shape = [1] * rank
        elif kind == "scalar_a":
            a_shape = [1] * rank
        elif kind == "broadcast":
            b_shape = [1] * (rank - 1) + [shape[-1]]
        elif kind == "broadcast_a":
            a_shape = shape[-min(rank, 2):]
        elif kind == "odd":
            b_shape = shape[:-1] + [1]
        act = _pick(rng, ACTIVATIONS)
        xs = []
        for sh in (a_shape, b_shape):
            x = (rng.standard_normal(sh) * 3.0).astype(np.float32)
            special = rng.random(sh) < 0.05
            x[special] = rng.choice(np.array([0.0, -0.0, np.nan], np.float32), size=int(special.sum()))
            xs.append(x)
        # A constant per-channel operand (a bias) is repeated once in prepare by the optimized kernel.
        constant = kind in ("broadcast", "broadcast_a") and rng.random() < 0.5
        short = 1 if kind == "broadcast" else 0
        specs = [TensorSpec(sh, np.float32, data=x if constant and i == short else None)
                 for i, (sh, x) in enumerate(zip((a_shape, b_shape), xs))]
        model = single_op_model(op, specs, [TensorSpec(shape, np.float32)],
                                options=options({"ADD": "Add", "SUB": "Sub", "MUL": "Mul"}[op],
                                                fused_activation_function=act))
        feeds = [x for i, x in enumerate(xs) if not (constant and i == short)]
        return Case(f"{op.lower()} float32 {a_shape}+{b_shape}{' const' if constant else ''} {act}", model, feeds)

    return gen


def mean_float() -> Callable[[np.random.Generator], Case]:
    """Float MEAN over random axes of ranks 1-4 (one contiguous block of axes is the vector path,
    in the reference's order of additions: tolerance 0)."""

    def gen(rng: np.random.Generator) -> Case:
        rank = int(rng.integers(1, 5))
        shape = [int(_pick(rng, (1, 1, 2, 3, 5, 7, 12))) for _ in range(rank)]
        if rng.random() < 0.3:
            shape[-1] = int(_pick(rng, (16, 17, 64, 100, 1280)))
        if rank >= 3 and rng.random() < 0.2:
            shape[-3:-1] = [int(rng.integers(10, 30)), int(rng.integers(10, 30))]
        if rank == 4 and rng.random() < 0.3:
            axes = [1, 2]
        else:
            k = int(rng.integers(1, rank + 1))
            axes = sorted(int(a) for a in rng.choice(rank, size=k, replace=False))
        if rng.random() < 0.3:
            axes = [a - rank for a in axes]
        keep = bool(rng.random() < 0.5)
        red = [a % rank for a in axes]
        out = [1 if i in red else d for i, d in enumerate(shape)] if keep else \
            [d for i, d in enumerate(shape) if i not in red]
        model = single_op_model("MEAN", [TensorSpec(shape, np.float32),
                                         TensorSpec([len(axes)], np.int32, data=np.array(axes, np.int32))],
                                [TensorSpec(out, np.float32)], options=options("Reducer", keep_dims=keep))
        x = (rng.standard_normal(shape) * 10.0).astype(np.float32)
        return Case(f"mean float32 {shape} axes{axes} keep={keep}", model, [x])

    return gen


def mean(dtype: str) -> Callable[[np.random.Generator], Case]:
    """MEAN over the spatial axes of NHWC tensors (the vector path), sometimes over other axes."""

    def gen(rng: np.random.Generator) -> Case:
        shape = [int(_pick(rng, (1, 1, 2))), int(rng.integers(1, 12)), int(rng.integers(1, 12)), _channels(rng)]
        if rng.random() < 0.2:  # past 256 pixels the vector sums flush their 16-bit lanes
            shape[1:3] = [int(rng.integers(16, 40)), int(rng.integers(16, 40))]
        if rng.random() < 0.03:  # empty operands may have no buffer at all
            shape[0] = 0
        axes = _pick(rng, ([1, 2], [1, 2], [2, 1], [-3, -2], [1], [3], [1, 2, 3]))
        keep = bool(rng.random() < 0.5)
        out = [1 if (i in [a % 4 for a in axes]) else d for i, d in enumerate(shape)]
        if not keep:
            out = [d for i, d in enumerate(shape) if i not in [a % 4 for a in axes]]
        qi = _act_quant(rng, dtype)
        qo = Quant(_f32(qi.scale * rng.uniform(0.3, 1.5)), int(rng.integers(30, 226)) if dtype == "uint8"
                   else int(rng.integers(-60, 61)))
        model = single_op_model("MEAN", [TensorSpec(shape, dtype, quant=qi),
                                         TensorSpec([len(axes)], np.int32, data=np.array(axes, np.int32))],
                                [TensorSpec(out, dtype, quant=qo)], options=options("Reducer", keep_dims=keep),
                                version=2)
        return Case(f"mean {dtype} {shape} axes{axes} keep={keep}", model, [_ints(rng, dtype, shape)])

    return gen


def softmax(dtype: str, out_dtype: str = "") -> Callable[[np.random.Generator], Case]:
    """SOFTMAX over rows of 1 to 2000 values, beta from 0.1 to 3: float32 (vector exponential,
    within the float tolerance) or int8/uint8 inputs with 8-bit or int16 outputs (bit-exact),
    input scales wide enough that some differences fall below the reference's diff_min."""

    def gen(rng: np.random.Generator) -> Case:
        depth = int(_pick(rng, (1, 2, 7, 12, 16, 17, 64, 100, 255, 256, 257, 1000, 1001, 2000)))
        rows = int(_pick(rng, (1, 1, 2, 3, 5))) if rng.random() < 0.97 else 0
        shape = [rows, depth] if rng.random() < 0.7 else [1, rows, 1, depth]
        beta = _f32(_pick(rng, (1.0, 1.0, rng.uniform(0.1, 3.0))))
        opts = options("Softmax", beta=beta)
        if dtype == "float32":
            model = single_op_model("SOFTMAX", [TensorSpec(shape, np.float32)], [TensorSpec(shape, np.float32)],
                                    options=opts)
            x = (rng.standard_normal(shape) * _logu(rng, 0.1, 30.0)).astype(np.float32)
            return Case(f"softmax float32 {shape} beta={beta:.3g}", model, [x], FLOAT_TOL)
        odt = out_dtype or dtype
        xq = Quant(_logu(rng, 0.005, 0.5), int(rng.integers(0, 256)) if dtype == "uint8" else int(rng.integers(-128, 128)))
        if odt == "int16":
            yq = Quant(1.0 / 32768, 0)
        else:
            yq = Quant(1.0 / 256, 0 if odt == "uint8" else -128)
        model = single_op_model("SOFTMAX", [TensorSpec(shape, dtype, quant=xq)], [TensorSpec(shape, odt, quant=yq)],
                                options=opts, version=2)
        x = _ints(rng, dtype, shape)
        if rng.random() < 0.3:  # rows of few distinct values: ties and long runs of one difference
            x = np.sort(x, axis=-1) // 64 * 64
            x = x.astype(dtype)
        return Case(f"softmax {dtype}->{odt} {shape} beta={beta:.3g} in_scale={xq.scale:.3g}", model, [x])

    return gen


def pad(op: str, dtype: str) -> Callable[[np.random.Generator], Case]:
    """PAD / PADV2 of ranks 1-4 with paddings of 0-3 on each side (all zero now and then),
    constant values for PADV2, zero-sized inputs, and the MobileNetV2 stride-2 pad (H, W only)."""

    def gen(rng: np.random.Generator) -> Case:
        rank = int(rng.integers(1, 5))
        shape = [int(_pick(rng, (1, 1, 2, 3, 5, 8, 16, 17))) for _ in range(rank)]
        if rng.random() < 0.05:
            shape[int(rng.integers(0, rank))] = 0
        pads = rng.integers(0, 4, size=(rank, 2)) * (rng.random((rank, 2)) < 0.6)
        if rng.random() < 0.1:
            pads[:] = 0
        if rank == 4 and rng.random() < 0.3:
            pads[:] = 0
            pads[1] = (0, 1)
            pads[2] = (0, 1)
        out = [d + int(p.sum()) for d, p in zip(shape, pads)]
        quant = _act_quant(rng, dtype) if dtype in ("int8", "uint8") else (
            Quant(0.01, 0) if dtype == "int16" else None)
        tensors = [TensorSpec(shape, dtype, quant=quant),
                   TensorSpec([rank, 2], np.int32, data=pads.astype(np.int32))]
        if op == "PADV2":
            if dtype == "float32":
                value = np.array([_pick(rng, (0.0, -1.5, 3.25))], np.float32)
            else:
                value = _ints(rng, dtype, [1])
            vshape = [1] if rng.random() < 0.5 else []
            tensors.append(TensorSpec(vshape, dtype, data=value.reshape(vshape), quant=quant))
        model = single_op_model(op, tensors, [TensorSpec(out, dtype, quant=quant)], version=2 if dtype != "float32" else 1)
        x = (rng.standard_normal(shape).astype(np.float32) if dtype == "float32" else _ints(rng, dtype, shape))
        return Case(f"{op.lower()} {dtype} {shape} pads{pads.tolist()}", model, [x])

    return gen


def concat(dtype: str) -> Callable[[np.random.Generator], Case]:
    """CONCATENATION of 2-5 operands along any axis (negative too) of ranks 1-4; float32 with
    fused activations, uint8 with differing quantization (rescaled), int8/int16 sharing it."""

    def gen(rng: np.random.Generator) -> Case:
        rank = int(rng.integers(1, 5))
        base = [int(_pick(rng, (1, 2, 3, 4, 7, 16, 28))) for _ in range(rank)]
        axis = int(rng.integers(-rank, rank))
        n = int(rng.integers(2, 6))
        shapes = []
        for _ in range(n):
            sh = list(base)
            sh[axis] = int(_pick(rng, (0, 1, 2, 3, 16, 64))) if rng.random() < 0.9 else 0
            shapes.append(sh)
        out = list(base)
        out[axis] = sum(sh[axis] for sh in shapes)
        act = _pick(rng, ACTIVATIONS) if dtype == "float32" else "NONE"
        qo = _act_quant(rng, dtype) if dtype in ("int8", "uint8") else (Quant(0.01, 0) if dtype == "int16" else None)
        qs = [qo] * n
        if dtype == "uint8":
            qs = [qo if rng.random() < 0.4 else _act_quant(rng, dtype) for _ in range(n)]
        model = single_op_model("CONCATENATION", [TensorSpec(sh, dtype, quant=q) for sh, q in zip(shapes, qs)],
                                [TensorSpec(out, dtype, quant=qo)],
                                options=options("Concatenation", axis=axis, fused_activation_function=act),
                                version=2 if dtype != "float32" else 1)
        xs = [(rng.standard_normal(sh) * 3).astype(np.float32) if dtype == "float32" else _ints(rng, dtype, sh)
              for sh in shapes]
        return Case(f"concat {dtype} {shapes} axis={axis} {act}", model, xs)

    return gen


def pool(op: str, dtype: str) -> Callable[[np.random.Generator], Case]:
    """AVERAGE_POOL_2D / MAX_POOL_2D: small windows with strides and padding, and global pools."""

    def gen(rng: np.random.Generator) -> Case:
        b = int(_pick(rng, (1, 1, 2)))
        h, w, c = int(rng.integers(1, 14)), int(rng.integers(1, 14)), _channels(rng)
        if rng.random() < 0.2:
            if rng.random() < 0.4:  # past the 256 taps the integer path sums in 16 bits
                h, w, c = int(rng.integers(16, 25)), int(rng.integers(16, 25)), int(_pick(rng, (3, 16, 17)))
            kh, kw, sh, sw, pad = h, w, 1, 1, "VALID"
        else:
            kh, kw = int(_pick(rng, (1, 2, 2, 3, 3, 5))), int(_pick(rng, (1, 2, 3, 3, 4)))
            sh, sw = int(_pick(rng, (1, 1, 2, 3))), int(_pick(rng, (1, 2, 2, 3)))
            pad = _pick(rng, ("SAME", "VALID"))
            if pad == "VALID" and (kh > h or kw > w):
                pad = "SAME"
        act = _pick(rng, ACTIVATIONS)
        oh, ow = _out_extent(h, kh, sh, 1, pad), _out_extent(w, kw, sw, 1, pad)
        opts = options("Pool2D", padding=pad, stride_w=sw, stride_h=sh, filter_width=kw, filter_height=kh,
                       fused_activation_function=act)
        name = f"{op} {dtype} x{[b, h, w, c]} k{kh}x{kw} s{sh},{sw} {pad} {act}"
        if dtype == "float32":
            model = single_op_model(op, [TensorSpec([b, h, w, c], np.float32)],
                                    [TensorSpec([b, oh, ow, c], np.float32)], options=opts)
            return Case(name, model, [rng.standard_normal((b, h, w, c)).astype(np.float32)], FLOAT_TOL)
        q = _act_quant(rng, dtype)
        model = single_op_model(op, [TensorSpec([b, h, w, c], dtype, quant=q)],
                                [TensorSpec([b, oh, ow, c], dtype, quant=q)], options=opts,
                                version=2 if dtype == "int8" else 1)
        return Case(name, model, [_ints(rng, dtype, [b, h, w, c])])

    return gen


# op family -> generators whose cases it draws in turn
def resize_bilinear_float() -> Callable[[np.random.Generator], Case]:
    """float32 RESIZE_BILINEAR with a constant size, up- and down-scaling, plain, align_corners or
    half_pixel_centers; depths around the 8-float vector (the optimized kernel keeps the
    reference's expression, so tolerance 0)."""

    def gen(rng: np.random.Generator) -> Case:
        b, h, w = int(rng.integers(1, 3)), int(rng.integers(1, 12)), int(rng.integers(1, 12))
        depth = int(_pick(rng, (1, 3, 7, 8, 9, 16, 21, 33)))
        oh, ow = int(rng.integers(1, 25)), int(rng.integers(1, 25))
        mode = _pick(rng, ("plain", "align", "half"))
        opts = options("ResizeBilinear", align_corners=mode == "align", half_pixel_centers=mode == "half")
        model = single_op_model("RESIZE_BILINEAR",
                                [TensorSpec([b, h, w, depth], np.float32),
                                 TensorSpec([2], np.int32, data=np.array([oh, ow], np.int32))],
                                [TensorSpec([b, oh, ow, depth], np.float32)], options=opts, version=3)
        x = (rng.standard_normal([b, h, w, depth]) * 4.0).astype(np.float32)
        return Case(f"resize_bilinear float32 {[b, h, w, depth]}->{[oh, ow]} {mode}", model, [x])

    return gen


def arg_extreme(op: str) -> Callable[[np.random.Generator], Case]:
    """float32 ARG_MAX / ARG_MIN along any axis, int32 or int64 indices; values drawn from a few
    levels so ties are common, with +-0 and now and then NaNs (the first element's, or later)."""

    def gen(rng: np.random.Generator) -> Case:
        rank = int(rng.integers(1, 5))
        shape = [int(v) for v in rng.integers(1, 7, size=rank)]
        axis = int(rng.integers(-rank, rank))
        shape[axis] = int(_pick(rng, (1, 5, 8, 13, 21, 40)))
        x = rng.integers(-3, 4, size=shape).astype(np.float32)
        x[rng.random(shape) < 0.1] = -0.0
        if rng.random() < 0.3:
            x[rng.random(shape) < 0.05] = np.nan
        out_type = _pick(rng, ("INT32", "INT64"))
        out_shape = [d for i, d in enumerate(shape) if i != axis % rank]
        model = single_op_model(op, [TensorSpec(shape, np.float32),
                                     TensorSpec([1], np.int32, data=np.array([axis], np.int32))],
                                [TensorSpec(out_shape, np.int32 if out_type == "INT32" else np.int64)],
                                options=options("ArgMax" if op == "ARG_MAX" else "ArgMin", output_type=out_type),
                                version=2)
        return Case(f"{op.lower()} float32 {shape} axis {axis} {out_type}", model, [x])

    return gen


CAST_TYPES = ("int8", "uint8", "int16", "int32", "int64", "float32", "bool", "float16")


def cast_pair() -> Callable[[np.random.Generator], Case]:
    """CAST between integer types, float32 and (reference path) bool/float16: integers over their
    whole range, floats with fractions, +-inf, NaN and values past int32/int64."""

    def gen(rng: np.random.Generator) -> Case:
        src, dst = _pick(rng, CAST_TYPES), _pick(rng, CAST_TYPES)
        shape = [int(v) for v in rng.integers(1, 9, size=int(rng.integers(1, 4)))]
        if src == "bool":
            x = rng.random(shape) < 0.5
        elif src.startswith("float"):
            x = rng.standard_normal(shape) * _logu(rng, 1.0, 1e12)
            special = rng.random(shape) < 0.1
            x[special] = rng.choice([np.inf, -np.inf, np.nan, 2.0 ** 31, -2.0 ** 31 - 1, 2.0 ** 63, -0.0],
                                    size=int(special.sum()))
            with np.errstate(over="ignore"):  # float16 saturates to inf, which CAST must handle
                x = x.astype(src)
        else:
            info = np.iinfo(src)
            x = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=src)
        model = single_op_model("CAST", [TensorSpec(shape, src)], [TensorSpec(shape, dst)],
                                options=options("Cast", in_data_type=src.upper(), out_data_type=dst.upper()))
        return Case(f"cast {src}->{dst} {shape}", model, [x])

    return gen


FAMILIES: Dict[str, List[Callable[[np.random.Generator], Case]]] = {
    "CONV_2D": [conv("int8"), conv("int8"), conv("uint8"), conv("float32"), conv("int8", ties=True),
                conv("int8", wrap=True)],
    "CONV_2D_SMALL_CIN": [conv("int8", small_cin=True), conv("int8", small_cin=True),
                          conv("int8", wrap=True, small_cin=True), conv("uint8", small_cin=True),
                          conv("float32", small_cin=True)],
    "CONV_2D_FLOAT": [conv("float32", float_taps=True)],
    "CONV_2D_HYBRID": [conv_hybrid(False), conv_hybrid(True)],
    "CONV_2D_INT16": [conv16("int64"), conv16("int64"), conv16("int32"), conv16("none")],
    "DEPTHWISE_CONV_2D": [depthwise("int8"), depthwise("int8"), depthwise("uint8"), depthwise("float32"),
                          depthwise("int8", wrap=True), depthwise("int8", few_channels=True),
                          depthwise("uint8", few_channels=True)],
    "DEPTHWISE_CONV_2D_MULTIPLIER": [depthwise("int8", multiplier=True), depthwise("int8", multiplier=True),
                                     depthwise("uint8", multiplier=True), depthwise("float32", multiplier=True),
                                     depthwise("int8", wrap=True, multiplier=True)],
    "FULLY_CONNECTED": [fully_connected("int8"), fully_connected("int8"), fully_connected("uint8"),
                        fully_connected("float32"), fully_connected("int8", ties=True),
                        fully_connected("uint8", ties=True), fully_connected("int8", wrap=True)],
    "FULLY_CONNECTED_HYBRID": [fully_connected_hybrid(False), fully_connected_hybrid(True)],
    "LOGISTIC": [float_activation("LOGISTIC")],
    "TANH": [float_activation("TANH")],
    "DEQUANTIZE": [dequantize("float16"), dequantize("float16"), dequantize("int8"), dequantize("uint8"),
                   dequantize("int16"), dequantize_activation("int8"), dequantize_activation("uint8")],
    "QUANTIZE": [quantize("float32", "int8"), quantize("float32", "uint8"), quantize("int8", "uint8"),
                 quantize("uint8", "int8"), quantize("int8", "int8"), quantize("uint8", "uint8")],
    "ADD": [binary("ADD", "int8"), binary("ADD", "int8"), binary("ADD", "uint8"), binary_float("ADD"),
            add_all_pairs("int8"), add_all_pairs("uint8")],
    "SUB": [binary_float("SUB")],
    "ADD_SUB_INT16": [binary16("ADD"), binary16("SUB")],
    "MUL": [binary("MUL", "int8"), binary("MUL", "uint8"), binary_float("MUL")],
    "MEAN": [mean("int8"), mean("int8"), mean("uint8"), mean_float()],
    "SOFTMAX": [softmax("int8"), softmax("uint8"), softmax("float32"), softmax("int8", "int16"),
                softmax("uint8", "int16")],
    "PAD": [pad("PAD", "int8"), pad("PAD", "uint8"), pad("PAD", "float32"), pad("PAD", "int16")],
    "PADV2": [pad("PADV2", "int8"), pad("PADV2", "uint8"), pad("PADV2", "float32"), pad("PADV2", "int16")],
    "CONCATENATION": [concat("int8"), concat("uint8"), concat("float32"), concat("int16")],
    "AVERAGE_POOL_2D": [pool("AVERAGE_POOL_2D", "int8"), pool("AVERAGE_POOL_2D", "uint8"),
                        pool("AVERAGE_POOL_2D", "float32")],
    "MAX_POOL_2D": [pool("MAX_POOL_2D", "int8"), pool("MAX_POOL_2D", "uint8"), pool("MAX_POOL_2D", "float32")],
    "RESIZE_BILINEAR": [resize_bilinear_float()],
    "ARG_MAX": [arg_extreme("ARG_MAX")],
    "ARG_MIN": [arg_extreme("ARG_MIN")],
    "CAST": [cast_pair()],
}


def cases(family: str, count: int, seed: int = 12) -> List[Case]:
    """`count` cases of an op family, the family's generators drawn in turn."""
    rng = np.random.default_rng([seed, sum(family.encode())])
    gens = FAMILIES[family]
    return [gens[i % len(gens)](rng) for i in range(count)]
