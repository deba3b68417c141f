"""TensorFlow Lite Micro's arena for a model, computed from TFLM's structs and allocation order.

The `tflite-micro` wheel (x86-64) prints its arena with `print_allocations()`; a Cortex-M build has
4-byte pointers, so its structs and arena are smaller. This script replays what TFLM does in
`MicroInterpreter::AllocateTensors()` (tail allocations in call order, each aligned down from the
current tail; the greedy plan of the activations in the head) with the struct sizes of a chosen ABI,
so the 64-bit result can be checked byte for byte against the wheel and the same replay gives the
32-bit ARM (AAPCS) figures.

Sources of the facts (tensorflow/tflite-micro, the wheel is 0.dev20261023182759-g8f6596d):
  allocation order   micro_interpreter.cc (AllocateTensors), micro_allocator.cc (Create,
                     StartModelAllocation, FinishModelAllocation, AllocatePersistentTfLiteTensor,
                     internal::InitializeTfLiteTensorFromFlatbuffer, CommitStaticMemoryPlan),
                     recording_micro_allocator.cc (Create, categories, PrintAllocations),
                     arena_allocator/single_arena_buffer_allocator.cc (AllocatePersistentBuffer
                     aligns the tail down; GetPersistentUsedBytes = buffer end - tail)
  head               micro_allocation_info.cc (lifetimes), memory_planner/greedy_memory_planner.cc
  structs            `struct_table()` below, each with its header

Run: python benchmarks/tflm_arena_model.py [models...] [--check [--arena-size N]] [--log] [--json]
  (default: hello_world int8, micro_speech and MLPerf Tiny KWS from ../shared/realworld;
  --check also runs the tflite-micro wheel and compares every printed figure, --log lists the
  ARM tail allocations one by one)
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

DEFAULT_MODELS = Path(__file__).resolve().parents[1].parent / "shared" / "realworld"
DEFAULT_CASES = ("tflm_hello_world_int8", "tflm_micro_speech_quantized", "tiny_kws_ref_model")

# MicroArenaBufferAlignment() (micro_arena_constants.h): 16 on every target.
ARENA_ALIGNMENT = 16
# GreedyMemoryPlanner::AddBuffer marks online-planned buffers with this offset.
ONLINE = -1


@dataclass(frozen=True)
class Abi:
    """Sizes and alignments of the C scalar kinds TFLM's structs use."""

    name: str
    pointer: int
    double_align: int
    enum: int = 4  # 1: GCC's -fshort-enums (arm-none-eabi's default); TFLM's enums all fit a byte

    def kind(self, kind: str) -> Tuple[int, int]:
        """(size, alignment) of one scalar kind."""
        if kind in ("ptr", "size_t", "intptr"):
            return self.pointer, self.pointer
        if kind == "enum":
            return self.enum, self.enum
        if kind in ("i32", "f32"):
            return 4, 4
        if kind in ("bool", "i8"):
            return 1, 1
        if kind == "i16":
            return 2, 2
        if kind in ("f64", "i64"):
            return 8, self.double_align
        raise ValueError(f"unknown field kind {kind!r}")


X86_64 = Abi("x86-64 (LP64)", pointer=8, double_align=8)
ARM32 = Abi("ARM AAPCS (ILP32), int-sized enums", pointer=4, double_align=8)
# arm-none-eabi-gcc (Debian's, and the Arm GNU toolchain TFLM's cortex_m_generic target downloads)
# makes an enum as small as its values allow unless -fno-short-enums is given; neither TFLM's
# Cortex-M makefile nor runtime_c/tools/firmware.py passes it.
ARM32_GCC = Abi("ARM AAPCS (ILP32), arm-none-eabi-gcc short enums", pointer=4, double_align=8, enum=1)
ABIS = {"x86_64": X86_64, "arm32": ARM32, "arm32_gcc": ARM32_GCC}


@dataclass(frozen=True)
class Struct:
    """A C struct (or C++ class: one 'ptr' per polymorphic base for its vtable pointer)."""

    name: str
    fields: Tuple[object, ...]  # field kinds (str) or nested Structs

    def layout(self, abi: Abi) -> Tuple[int, int]:
        """(sizeof, alignof) under the usual C rules: each field at its alignment, size rounded
        up to the largest alignment."""
        offset, align = 0, 1
        for f in self.fields:
            size, a = f.layout(abi) if isinstance(f, Struct) else abi.kind(f)
            offset = -(-offset // a) * a + size
            align = max(align, a)
        return -(-offset // align) * align, align


def _s(name: str, *fields: object) -> Struct:
    return Struct(name, tuple(fields))


def struct_table(compression: bool) -> Dict[str, Struct]:
    """TFLM's structs that live in the arena. `compression` is USE_TFLM_COMPRESSION (the wheel
    is built with it: its OpDataFullyConnected is 72 bytes, not 64; device builds opt in)."""
    comp = ("i32", "i32") if compression else ()
    padding = _s("TfLitePaddingValues", "i32", "i32", "i32", "i32")  # builtin_op_data.h
    quantization = _s("TfLiteQuantization", "enum", "ptr")  # common.h
    node = _s("TfLiteNode",  # common.h, TF_LITE_STATIC_MEMORY variant
              "ptr", "ptr", "ptr", "ptr", "ptr", "ptr", "i32")
    recorded = _s("RecordedAllocation", "size_t", "size_t", "size_t")  # recording_micro_allocator.h
    single_arena = (  # arena_allocator/single_arena_buffer_allocator.h: two interface bases
        "ptr", "ptr", "ptr", "ptr", "ptr", "ptr", "ptr", "intptr", "i32")
    micro_allocator = (  # micro_allocator.h
        "ptr",  # vtable
        "ptr", "ptr",  # non_persistent_buffer_allocator_, persistent_buffer_allocator_
        "ptr", "ptr",  # builtin_data_allocator_, memory_planner_
        "bool",  # model_is_allocating_
        "size_t", "size_t",  # scratch_buffer_request_count_, max_head_buffer_usage_
        "ptr")  # scratch_buffer_head_
    n_recorded = 8 if compression else 7  # one more category (kCompressionData) with compression
    return {
        # common.h (TF_LITE_STATIC_MEMORY): reduced tensor, eval tensor, affine quantization
        "TfLiteTensor": _s("TfLiteTensor", quantization, "f32", "i32", "ptr", "ptr", "size_t",
                           "enum", "enum", "bool"),
        "TfLiteEvalTensor": _s("TfLiteEvalTensor", "ptr", "ptr", "enum"),
        "TfLiteAffineQuantization": _s("TfLiteAffineQuantization", "ptr", "ptr", "i32"),
        # micro_allocator.h
        "NodeAndRegistration": _s("NodeAndRegistration", node, "ptr"),
        "SubgraphAllocations": _s("SubgraphAllocations", "ptr", "ptr", *(("ptr",) if compression else ())),
        "ScratchBufferHandle": _s("ScratchBufferHandle", "ptr"),
        "MicroBuiltinDataAllocator": _s("MicroBuiltinDataAllocator", "ptr", "ptr"),  # micro_allocator.cc
        "SingleArenaBufferAllocator": _s("SingleArenaBufferAllocator", *single_arena),
        # arena_allocator/recording_single_arena_buffer_allocator.h: four size_t counters
        "RecordingSingleArenaBufferAllocator": _s("RecordingSingleArenaBufferAllocator", *single_arena,
                                                  "size_t", "size_t", "size_t", "size_t"),
        # memory_planner/greedy_memory_planner.h
        "GreedyMemoryPlanner": _s("GreedyMemoryPlanner", "ptr", "i32", "i32", "ptr", "ptr", "ptr", "ptr",
                                  "i32", "i32", "ptr", "bool"),
        "MicroAllocator": _s("MicroAllocator", *micro_allocator),
        "RecordingMicroAllocator": _s("RecordingMicroAllocator", *micro_allocator, "ptr",
                                      *([recorded] * n_recorded)),
        # builtin parameters (tensorflow/lite/core/c/builtin_op_data.h)
        # padding, stride_width, stride_height, activation, dilation_width_factor,
        # dilation_height_factor, quantized_bias_type
        "TfLiteConvParams": _s("TfLiteConvParams", "enum", "i32", "i32", "enum", "i32", "i32", "enum"),
        # padding, stride_width, stride_height, depth_multiplier, activation, dilation factors
        "TfLiteDepthwiseConvParams": _s("TfLiteDepthwiseConvParams", "enum", "i32", "i32", "i32", "enum",
                                        "i32", "i32"),
        # padding, stride_width, stride_height, filter_width, filter_height, activation, computed
        "TfLitePoolParams": _s("TfLitePoolParams", "enum", "i32", "i32", "i32", "i32", "enum", padding),
        "TfLiteReshapeParams": _s("TfLiteReshapeParams", *["i32"] * 9),
        "TfLiteSoftmaxParams": _s("TfLiteSoftmaxParams", "f32"),
        # activation, weights_format, keep_num_dims, asymmetric_quantize_inputs,
        # quantized_bias_type, then the quant_spec vector (pointer + length) the wheel's
        # ParseFullyConnected stores at offsets 16 and 24 (read off its machine code)
        "TfLiteFullyConnectedParams": _s("TfLiteFullyConnectedParams", "enum", "enum", "bool", "bool",
                                         "enum", "ptr", "i32"),
        "TfLiteAddParams": _s("TfLiteAddParams", "enum", "bool"),
        "TfLiteSubParams": _s("TfLiteSubParams", "enum", "bool"),
        "TfLiteLeakyReluParams": _s("TfLiteLeakyReluParams", "f32"),
        "TfLiteStridedSliceParams": _s("TfLiteStridedSliceParams", *["i32"] * 5, "bool"),
        # padding, stride_width, stride_height, activation, quantized_bias_type
        "TfLiteTransposeConvParams": _s("TfLiteTransposeConvParams", "enum", "i32", "i32", "enum", "enum"),
        # kernels' per-node data
        "OpDataConv": _s("OpDataConv", padding, "i32", "i32", "i32", "i32", "i32", "ptr", "ptr",
                         "i32", "i32", "i32", *comp),  # kernels/conv.h (also depthwise)
        "OpDataFullyConnected": _s("OpDataFullyConnected", *["i32"] * 9, "ptr", "ptr", "bool",
                                   *comp),  # kernels/fully_connected.h
        "OpDataPooling": _s("OpDataPooling", padding, "i32", "i32", "f32", "f32"),  # kernels/pooling.h
        # kernels/add.h, kernels/sub.h
        "OpDataAdd": _s("OpDataAdd", "bool", *["i32"] * 12, "f32", "f32"),
        "OpDataSub": _s("OpDataSub", "bool", *["i32"] * 12),
        # kernels/quantize.h, kernels/dequantize.h (QuantizationParams, DequantizationParams
        # of kernels/internal/types.h: an int32 zero point and a double scale)
        "OpDataQuantizeReference": _s("OpDataQuantizeReference", _s("QuantizationParams", "i32", "f64"),
                                      "i32", "i32", "i32"),
        "DequantizeOpData": _s("DequantizeOpData", _s("DequantizationParams", "f64", "i32"),
                               "i32", "i32", "i32"),
        # kernels/pad.cc: PadParams (kernels/internal/types.h) and the output zero point
        "OpDataPad": _s("OpDataPad", _s("PadParams", "i8", *["i32"] * 5, "i8", *["i32"] * 5, "enum"), "i32"),
        "LeakyReluOpData": _s("LeakyReluOpData", *["i32"] * 6),  # kernels/leaky_relu.h
        # kernels/strided_slice.cc: StridedSliceParams (kernels/internal/types.h)
        "StridedSliceParams": _s("StridedSliceParams", "i8", *["i32"] * 5, "i8", *["i32"] * 5, "i8",
                                 *["i32"] * 5, *["i16"] * 5, "bool"),
        # kernels/transpose_conv.h: ConvParams (kernels/internal/types.h: PaddingType is an enum
        # class on uint8_t, PaddingValues and the strides int16_t), two buffer indices, two pointers
        "OpDataTransposeConv": _s("OpDataTransposeConv",
                                  _s("ConvParams", "i8", _s("PaddingValues", *["i16"] * 4), *["i16"] * 4,
                                     *["i32"] * 7, "f32", "f32"),
                                  "i32", "i32", "ptr", "ptr", *comp),
        # kernels/internal/types.h
        "SoftmaxParams": _s("SoftmaxParams", "f64", *["i32"] * 6, "f32", "ptr", "ptr", "ptr", "ptr", "ptr"),
    }


# TfLiteTypeGetSize for the tensor types of TFLite's schema (index = schema TensorType).
_TYPE_SIZE = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 8: 8, 9: 1, 10: 8, 11: 16, 12: 8, 15: 4, 16: 2}


def _load_schema():
    """The generated TFLite flatbuffer schema (LiteRT's, else the one tflite-micro ships)."""
    try:
        from ai_edge_litert import schema_py_generated as schema
    except ImportError:  # the tflite-micro wheel carries the same generated module
        from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as schema
    return schema


@dataclass
class Op:
    """One operator of subgraph 0 as TFLM sees it."""

    name: str
    inputs: List[int]
    outputs: List[int]


@dataclass
class TensorInfo:
    """What the allocator reads of one tensor."""

    shape: List[int]
    type: int
    constant: bool  # its buffer holds data, so it is not planned
    variable: bool
    channels: int  # quantization scales, 0 when TFLM gives it no affine quantization

    def nbytes(self) -> int:
        """TfLiteEvalTensorByteLength: elements times TfLiteTypeGetSize."""
        n = 1
        for d in self.shape:
            n *= int(d)
        return n * _TYPE_SIZE[self.type]


@dataclass
class Graph:
    """Subgraph 0 of a model: tensors, operators in execution order, inputs and outputs."""

    tensors: List[TensorInfo]
    ops: List[Op]
    inputs: List[int]
    outputs: List[int]
    offline_offsets: Optional[List[int]]
    file_size: int


def read_graph(path: Path) -> Graph:
    """Subgraph 0 of a .tflite file with what TFLM's allocator looks at."""
    schema = _load_schema()
    data = path.read_bytes()
    model = schema.ModelT.InitFromPackedBuf(data, 0)
    if len(model.subgraphs) != 1:
        raise NotImplementedError(f"{path}: {len(model.subgraphs)} subgraphs (only one is modelled)")
    names = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
    sub = model.subgraphs[0]
    tensors = []
    for t in sub.tensors:
        buf = model.buffers[t.buffer].data if t.buffer < len(model.buffers) else None
        q = t.quantization
        scales = 0 if q is None or q.scale is None else len(q.scale)
        zps = 0 if q is None or q.zeroPoint is None else len(q.zeroPoint)
        tensors.append(TensorInfo(shape=[] if t.shape is None else [int(d) for d in t.shape], type=t.type,
                                  constant=buf is not None and len(buf) > 0, variable=bool(t.isVariable),
                                  channels=scales if zps else 0))
    ops = []
    for o in sub.operators or []:
        code = model.operatorCodes[o.opcodeIndex]
        ops.append(Op(names[max(code.builtinCode, code.deprecatedBuiltinCode)],
                      [int(i) for i in o.inputs], [int(i) for i in o.outputs]))
    offline = None
    for meta in model.metadata or []:
        if meta.name == b"OfflineMemoryAllocation":
            raw = bytes(bytearray(model.buffers[meta.buffer].data))
            words = [int.from_bytes(raw[i:i + 4], "little", signed=True) for i in range(0, len(raw), 4)]
            offline = words[3:3 + words[2]]
    return Graph(tensors, ops, [int(i) for i in sub.inputs], [int(i) for i in sub.outputs], offline,
                 len(data))


@dataclass
class Category:
    """One of RecordingMicroAllocator's recorded allocation types."""

    requested: int = 0
    used: int = 0
    count: int = 0


@dataclass
class Tail:
    """The persistent (tail) side of SingleArenaBufferAllocator: each allocation is aligned
    down from the current tail, and the recording allocator charges the moved bytes to a category."""

    end: int  # address of the arena's end (only its value modulo 16 matters)
    tail: int = 0
    requested: int = 0
    count: int = 0
    categories: Dict[str, Category] = field(default_factory=dict)
    log: List[Tuple[str, int, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.tail = self.end

    def alloc(self, what: str, size: int, align: int, category: Optional[str] = None,
              items: int = 1) -> None:
        """Allocate `size` bytes; an array allocation counts as `items` allocations, as
        RecordingMicroAllocator reports its tensor and node arrays."""
        before = self.end - self.tail
        self.tail = (self.tail - size) // align * align
        self.requested += size
        self.count += 1
        self.log.append((what, size, align, self.end - self.tail - before))
        if category is not None:
            c = self.categories.setdefault(category, Category())
            c.requested += size
            c.used += self.end - self.tail - before
            c.count += items

    @property
    def used(self) -> int:
        return self.end - self.tail


# Per builtin op: (builtin parameter struct, OpData struct allocated in Init). None = nothing.
OP_STRUCTS = {
    "FULLY_CONNECTED": ("TfLiteFullyConnectedParams", "OpDataFullyConnected"),
    "CONV_2D": ("TfLiteConvParams", "OpDataConv"),
    "DEPTHWISE_CONV_2D": ("TfLiteDepthwiseConvParams", "OpDataConv"),
    "AVERAGE_POOL_2D": ("TfLitePoolParams", "OpDataPooling"),
    "MAX_POOL_2D": ("TfLitePoolParams", "OpDataPooling"),
    "RESHAPE": ("TfLiteReshapeParams", None),
    "SOFTMAX": ("TfLiteSoftmaxParams", "SoftmaxParams"),
    "ADD": ("TfLiteAddParams", "OpDataAdd"),
    "SUB": ("TfLiteSubParams", "OpDataSub"),
    "QUANTIZE": (None, "OpDataQuantizeReference"),
    "DEQUANTIZE": (None, "DequantizeOpData"),
    "PAD": (None, "OpDataPad"),
    "LEAKY_RELU": ("TfLiteLeakyReluParams", "LeakyReluOpData"),
    "STRIDED_SLICE": ("TfLiteStridedSliceParams", "StridedSliceParams"),
    "TRANSPOSE_CONV": ("TfLiteTransposeConvParams", "OpDataTransposeConv"),
}

_INT8, _INT16, _INT64 = 9, 7, 4  # schema TensorType values


def prepare_buffers(op: Op, graph: Graph) -> List[int]:
    """Bytes each kernel's Prepare takes with context->AllocatePersistentBuffer (reference kernels):
    per-channel output multipliers and shifts, one int32 each per output channel."""
    if op.name == "CONV_2D":  # conv_common.cc: filter dim 0 channels, always
        return [4 * graph.tensors[op.inputs[1]].shape[0]] * 2
    if op.name == "DEPTHWISE_CONV_2D":  # depthwise_conv_common.cc: filter dim 3 channels, always
        return [4 * graph.tensors[op.inputs[1]].shape[3]] * 2
    if op.name == "FULLY_CONNECTED":  # fully_connected_common.cc: only for per-channel filters
        channels = graph.tensors[op.inputs[1]].channels
        if channels > 1:
            return [4 * channels] * 2
    if op.name == "TRANSPOSE_CONV":  # transpose_conv.cc: filter dim 0 channels
        return [4 * graph.tensors[op.inputs[1]].shape[0]] * 2
    return []


def scratch_requests(op: Op, graph: Graph) -> List[int]:
    """Bytes of each RequestScratchBufferInArena a kernel's Prepare makes (reference kernels)."""
    if op.name == "TRANSPOSE_CONV":  # transpose_conv.cc: one accumulator per output element
        out = graph.tensors[op.outputs[0]]
        elements = out.nbytes() // _TYPE_SIZE[out.type]
        data = graph.tensors[op.inputs[2]].type
        requests = []
        if data == _INT8:
            requests.append(4 * elements)
        elif data == _INT16:
            requests.append(8 * elements)
            bias = graph.tensors[op.inputs[3]] if len(op.inputs) > 3 and op.inputs[3] >= 0 else None
            if bias is not None and bias.type != _INT64:  # a 16-bit bias widened to 64 bits
                requests.append(8 * (bias.nbytes() // _TYPE_SIZE[bias.type]))
        return requests
    return []


def _lifetimes(graph: Graph) -> List[Tuple[int, int]]:
    """AllocationInfoBuilder::MarkAllocationLifetimes for one subgraph (no control flow)."""
    first = [-1] * len(graph.tensors)
    last = [-1] * len(graph.tensors)
    scope = 0
    for t in graph.inputs:
        first[t] = scope if first[t] == -1 else first[t]
        last[t] = scope
    for op in graph.ops:
        scope += 1
        for t in op.outputs:
            first[t] = scope if first[t] == -1 else first[t]
        for t in op.inputs:
            if t >= 0:
                last[t] = scope
        for t in op.outputs:
            last[t] = scope
    for t in graph.outputs:
        first[t] = scope if first[t] == -1 else first[t]
        last[t] = scope
    return list(zip(first, last))


def greedy_plan(buffers: Sequence[Tuple[int, int, int, int]]) -> int:
    """GreedyMemoryPlanner::GetMaximumMemorySize for (size, first, last, offline offset) buffers:
    offline ones first in order, the rest by size (stable bubble sort, descending), each put in the
    first gap between time-overlapping placed buffers (ordered by offset) that fits."""
    if not buffers:
        return 0
    offline = [i for i, b in enumerate(buffers) if b[3] != ONLINE]
    online = [i for i, b in enumerate(buffers) if b[3] == ONLINE][::-1]  # filled from the tail
    sizes = [buffers[i][0] for i in online]
    swapped = True
    while swapped:  # ReverseSortInPlace
        swapped = False
        for k in range(1, len(online)):
            if sizes[k - 1] < sizes[k]:
                sizes[k - 1], sizes[k] = sizes[k], sizes[k - 1]
                online[k - 1], online[k] = online[k], online[k - 1]
                swapped = True
    order = offline + online
    placed: List[Tuple[int, int]] = []  # (offset, buffer index), kept sorted by offset (stable)

    def overlaps(j: int, first: int, last: int) -> bool:
        return not (buffers[j][1] > last or first > buffers[j][2])

    for n, i in enumerate(order):
        size, first, last, off = buffers[i]
        if n == 0:
            offset = 0 if off == ONLINE else off
        elif off != ONLINE:
            offset = off
        else:
            offset = 0
            active = [(o, j) for o, j in placed if overlaps(j, first, last)]
            for o, j in active:
                if o - offset >= size:
                    break
                offset = max(offset, o + buffers[j][0])
        pos = len(placed)
        for k, (o, _) in enumerate(placed):
            if o > offset:
                pos = k
                break
        placed.insert(pos, (offset, i))
    return max(o + buffers[j][0] for o, j in placed)


def head_bytes(graph: Graph, scratch: Sequence[Tuple[int, int]] = ()) -> int:
    """The head: CommitStaticMemoryPlan's greedy plan of non-constant, non-variable tensors and
    scratch buffers (node index, bytes), each rounded up to 16 bytes."""
    life = _lifetimes(graph)
    buffers = []
    for i, t in enumerate(graph.tensors):
        nbytes = t.nbytes()
        if not t.constant and not t.variable and nbytes:
            off = ONLINE if graph.offline_offsets is None else graph.offline_offsets[i]
            buffers.append((-(-nbytes // ARENA_ALIGNMENT) * ARENA_ALIGNMENT, life[i][0], life[i][1], off))
    for node, nbytes in scratch:
        buffers.append((-(-nbytes // ARENA_ALIGNMENT) * ARENA_ALIGNMENT, node + 1, node + 1, ONLINE))
    return greedy_plan(buffers)


@dataclass
class Arena:
    """TFLM's arena for one model under one ABI and allocator."""

    abi: str
    allocator: str
    head: int
    tail: int
    categories: Dict[str, Category]
    log: List[Tuple[str, int, int, int]]

    @property
    def total(self) -> int:
        return self.head + self.tail


def tflm_arena(graph: Graph, abi: Abi = X86_64, recording: bool = True, compression: bool = True,
               end_misalignment: int = 0) -> Arena:
    """Replay MicroInterpreter::AllocateTensors for `graph`. `recording`: the wheel's
    RecordingMicroAllocator::Create (else MicroAllocator::Create, a device build);
    `end_misalignment`: arena end address modulo 16 (the wheel: arena size mod 16)."""
    structs = struct_table(compression)

    def lay(name: str) -> Tuple[int, int]:
        return structs[name].layout(abi)

    tail = Tail(end=(1 << 20) + end_misalignment)
    if recording:  # recording_micro_allocator.cc: RecordingMicroAllocator::Create
        tail.alloc("RecordingSingleArenaBufferAllocator", *lay("RecordingSingleArenaBufferAllocator"))
        tail.alloc("GreedyMemoryPlanner", *lay("GreedyMemoryPlanner"))
        tail.alloc("RecordingMicroAllocator", *lay("RecordingMicroAllocator"))
    else:  # micro_allocator.cc: MicroAllocator::Create(arena, size)
        tail.alloc("SingleArenaBufferAllocator", *lay("SingleArenaBufferAllocator"))
        tail.alloc("GreedyMemoryPlanner", *lay("GreedyMemoryPlanner"))
        tail.alloc("MicroAllocator", *lay("MicroAllocator"))
    cat = (lambda name: name) if recording else (lambda name: None)

    # StartModelAllocation
    tail.alloc("MicroBuiltinDataAllocator", *lay("MicroBuiltinDataAllocator"))
    tail.alloc("SubgraphAllocations", *lay("SubgraphAllocations"))
    size, align = lay("TfLiteEvalTensor")
    tail.alloc("TfLiteEvalTensor[]", size * len(graph.tensors), align, cat("TfLiteEvalTensor data"),
               items=len(graph.tensors))
    size, align = lay("NodeAndRegistration")
    tail.alloc("NodeAndRegistration[]", size * len(graph.ops), align, cat("NodeAndRegistration struct"),
               items=len(graph.ops))
    for op in graph.ops:
        if op.name not in OP_STRUCTS:
            raise NotImplementedError(f"operator {op.name} is not modelled")
    # PrepareNodeAndRegistrationDataFromFlatbuffer: builtin parameters (not recorded)
    for op in graph.ops:
        params = OP_STRUCTS[op.name][0]
        if params:
            tail.alloc(params, *lay(params))
    # InitSubgraphs: OpData through MicroAllocator::AllocatePersistentBuffer (16-byte aligned)
    for op in graph.ops:
        opdata = OP_STRUCTS[op.name][1]
        if opdata:
            tail.alloc(opdata, lay(opdata)[0], ARENA_ALIGNMENT, cat("Persistent buffer data"))
    # PrepareSubgraphs
    scratch = []
    for node, op in enumerate(graph.ops):
        for nbytes in prepare_buffers(op, graph):
            tail.alloc(f"{op.name} per-channel", nbytes, ARENA_ALIGNMENT, cat("Persistent buffer data"))
        scratch.extend((node, nbytes) for nbytes in scratch_requests(op, graph))
    # FinishModelAllocation: scratch buffer handles, then variables
    if scratch:
        size, align = lay("ScratchBufferHandle")
        tail.alloc("ScratchBufferHandle[]", size * len(scratch), align)
    for i, t in enumerate(graph.tensors):
        if t.variable:
            tail.alloc(f"variable {i}", t.nbytes(), ARENA_ALIGNMENT, cat("TfLiteTensor variable buffer data"))
    # input/output TfLiteTensor pointer arrays and persistent TfLiteTensors
    ptr = abi.pointer
    for kind, indices in (("input", graph.inputs), ("output", graph.outputs)):
        tail.alloc(f"{kind} TfLiteTensor*[]", ptr * len(indices), ARENA_ALIGNMENT, cat("Persistent buffer data"))
        for i in indices:
            tail.alloc(f"{kind} TfLiteTensor", *lay("TfLiteTensor"), cat("Persistent TfLiteTensor data"))
            t = graph.tensors[i]
            if t.channels:
                q = "Persistent TfLiteTensor quantization data"
                tail.alloc("TfLiteAffineQuantization", *lay("TfLiteAffineQuantization"), cat(q))
                tail.alloc("zero_point TfLiteIntArray", 4 + 4 * t.channels, 4, cat(q))
    return Arena(abi.name, "RecordingMicroAllocator" if recording else "MicroAllocator",
                 head_bytes(graph, scratch), tail.used, tail.categories, tail.log)


# ---------------------------------------------------------------------------------------------
# The wheel's own figures

_WHEEL_CHILD = r"""
import sys
from tflite_micro.python.tflite_micro import runtime
size = int(sys.argv[2]) if len(sys.argv) > 2 else None
it = runtime.Interpreter.from_bytes(open(sys.argv[1], 'rb').read(), arena_size=size)
it.print_allocations()
"""
_LINE = re.compile(r"\[RecordingMicroAllocator\] (?:Arena allocation (\w+) (\d+) bytes|'([^']+)' used (\d+) "
                   r"bytes with alignment overhead \(requested (\d+) bytes for (\d+) )")


def wheel_allocations(model: Path, arena_size: Optional[int] = None,
                      timeout: float = 120.0) -> Optional[Dict[str, object]]:
    """The tflite-micro wheel's print_allocations() for `model` (arena of `arena_size` bytes, by
    default the wheel's len(model) * 10), parsed; None when the wheel is missing or fails."""
    extra = [] if arena_size is None else [str(arena_size)]
    proc = subprocess.run([sys.executable, "-c", _WHEEL_CHILD, str(model), *extra], capture_output=True,
                          text=True, timeout=timeout)
    if proc.returncode != 0:
        return None
    out: Dict[str, object] = {"categories": {}}
    for m in _LINE.finditer(proc.stderr):
        if m.group(1):
            out[m.group(1)] = int(m.group(2))
        else:
            out["categories"][m.group(3)] = {"used": int(m.group(4)), "requested": int(m.group(5)),
                                             "count": int(m.group(6))}
    return out if "total" in out else None


def as_printed(arena: Arena) -> Dict[str, object]:
    """The model's figures in the shape `wheel_allocations` returns."""
    return {"total": arena.total, "head": arena.head, "tail": arena.tail,
            "categories": {k: {"used": c.used, "requested": c.requested, "count": c.count}
                           for k, c in arena.categories.items()}}


def wheel_arena(graph: Graph, arena_size: Optional[int] = None) -> Arena:
    """The 64-bit model configured as the wheel runs: recording allocator, compression build,
    arena of `arena_size` (default len(model) * 10) bytes from a 16-byte aligned malloc."""
    size = graph.file_size * 10 if arena_size is None else arena_size
    return tflm_arena(graph, X86_64, recording=True, compression=True,
                      end_misalignment=size % ARENA_ALIGNMENT)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="*", help="model files (default: the three issue #27 models)")
    parser.add_argument("--check", action="store_true", help="compare with the tflite-micro wheel")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--log", action="store_true", help="print every tail allocation")
    parser.add_argument("--arena-size", type=int, default=None,
                        help="the wheel's arena size for --check (default len(model) * 10)")
    args = parser.parse_args()
    paths = [Path(p) for p in args.models] or [DEFAULT_MODELS / c / "model.tflite" for c in DEFAULT_CASES]
    rows = []
    for path in paths:
        graph = read_graph(path)
        row: Dict[str, object] = {"model": path.parent.name if path.name == "model.tflite" else path.name}
        row["x86_64_model"] = as_printed(wheel_arena(graph, args.arena_size))
        if args.check:
            row["x86_64_wheel"] = wheel_allocations(path, args.arena_size)
        for label, abi, recording, compression in (("arm32_recording", ARM32, True, True),
                                                   ("arm32_plain", ARM32, False, False),
                                                   ("arm32_gcc_plain", ARM32_GCC, False, False)):
            arena = tflm_arena(graph, abi, recording=recording, compression=compression)
            row[label] = as_printed(arena)
            if args.log:
                print(f"{row['model']} {label}:")
                for what, size, align, used in arena.log:
                    print(f"  {what:40s} {size:6d} align {align:2d} -> {used:6d}")
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print("| model | x86-64 wheel, recorded | x86-64 replay | ARM32 recording | ARM32 device build | "
          "ARM32 device build, gcc short enums |")
    print("|---|---:|---:|---:|---:|---:|")
    bad = False
    for r in rows:
        m = r["x86_64_model"]
        w = r.get("x86_64_wheel")
        wtxt = "-" if w is None else f"{w['total']:,} ({w['head']:,} + {w['tail']:,})"
        if w is not None and w != m:
            bad = True
            wtxt += " MISMATCH"
        cells = [f"{a['total']:,} ({a['head']:,} + {a['tail']:,})"
                 for a in (m, r["arm32_recording"], r["arm32_plain"], r["arm32_gcc_plain"])]
        print(f"| {r['model']} | {wtxt} | " + " | ".join(cells) + " |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
