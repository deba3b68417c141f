"""The parts of the TFLite flatbuffer schema (file identifier TFL3, schema version 3) the converter reads and writes.

Each table is a list of (field name, kind, default) in schema order, so a field's id is its position; a
union occupies two ids (its type byte, then its value). Kinds: scalars ("bool", "byte", "ubyte", "short",
"int", "uint", "long", "ulong", "float"), "string", "table:<Name>", "union:<UnionName>", vectors
"[int]", "[long]", "[float]", "[bool]", "[ubyte16]" (bytes aligned to 16) and "[table:<Name>]".
"""
from __future__ import annotations

FILE_IDENTIFIER = b"TFL3"
SCHEMA_VERSION = 3

TENSOR_TYPES = {
    "FLOAT32": 0, "FLOAT16": 1, "INT32": 2, "UINT8": 3, "INT64": 4, "STRING": 5, "BOOL": 6, "INT16": 7,
    "COMPLEX64": 8, "INT8": 9, "FLOAT64": 10, "COMPLEX128": 11, "UINT64": 12, "RESOURCE": 13, "VARIANT": 14,
    "UINT32": 15, "UINT16": 16, "INT4": 17, "BFLOAT16": 18,
}

# numpy dtype name -> TensorType name.
NUMPY_TENSOR_TYPES = {
    "float32": "FLOAT32", "float16": "FLOAT16", "int32": "INT32", "uint8": "UINT8", "int64": "INT64",
    "bool": "BOOL", "int16": "INT16", "complex64": "COMPLEX64", "int8": "INT8", "float64": "FLOAT64",
    "complex128": "COMPLEX128", "uint64": "UINT64", "uint32": "UINT32", "uint16": "UINT16",
}

ACTIVATIONS = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3, "TANH": 4, "SIGN_BIT": 5}
PADDINGS = {"SAME": 0, "VALID": 1}

# BuiltinOperator values, in enum order up to the last op code TFLite 2.x runtimes know.
_OPERATOR_NAMES = (
    "ADD AVERAGE_POOL_2D CONCATENATION CONV_2D DEPTHWISE_CONV_2D DEPTH_TO_SPACE DEQUANTIZE EMBEDDING_LOOKUP "
    "FLOOR FULLY_CONNECTED HASHTABLE_LOOKUP L2_NORMALIZATION L2_POOL_2D LOCAL_RESPONSE_NORMALIZATION LOGISTIC "
    "LSH_PROJECTION LSTM MAX_POOL_2D MUL RELU RELU_N1_TO_1 RELU6 RESHAPE RESIZE_BILINEAR RNN SOFTMAX "
    "SPACE_TO_DEPTH SVDF TANH CONCAT_EMBEDDINGS SKIP_GRAM CALL CUSTOM EMBEDDING_LOOKUP_SPARSE PAD "
    "UNIDIRECTIONAL_SEQUENCE_RNN GATHER BATCH_TO_SPACE_ND SPACE_TO_BATCH_ND TRANSPOSE MEAN SUB DIV SQUEEZE "
    "UNIDIRECTIONAL_SEQUENCE_LSTM STRIDED_SLICE BIDIRECTIONAL_SEQUENCE_RNN EXP TOPK_V2 SPLIT LOG_SOFTMAX "
    "DELEGATE BIDIRECTIONAL_SEQUENCE_LSTM CAST PRELU MAXIMUM ARG_MAX MINIMUM LESS NEG PADV2 GREATER "
    "GREATER_EQUAL LESS_EQUAL SELECT SLICE SIN TRANSPOSE_CONV SPARSE_TO_DENSE TILE EXPAND_DIMS EQUAL "
    "NOT_EQUAL LOG SUM SQRT RSQRT SHAPE POW ARG_MIN FAKE_QUANT REDUCE_PROD REDUCE_MAX PACK LOGICAL_OR "
    "ONE_HOT LOGICAL_AND LOGICAL_NOT UNPACK REDUCE_MIN FLOOR_DIV REDUCE_ANY SQUARE ZEROS_LIKE FILL "
    "FLOOR_MOD RANGE RESIZE_NEAREST_NEIGHBOR LEAKY_RELU SQUARED_DIFFERENCE MIRROR_PAD ABS SPLIT_V UNIQUE "
    "CEIL REVERSE_V2 ADD_N GATHER_ND COS WHERE RANK ELU REVERSE_SEQUENCE MATRIX_DIAG QUANTIZE "
    "MATRIX_SET_DIAG ROUND HARD_SWISH IF WHILE NON_MAX_SUPPRESSION_V4 NON_MAX_SUPPRESSION_V5 SCATTER_ND "
    "SELECT_V2 DENSIFY SEGMENT_SUM BATCH_MATMUL PLACEHOLDER_FOR_GREATER_OP_CODES CUMSUM CALL_ONCE "
    "BROADCAST_TO RFFT2D CONV_3D IMAG REAL COMPLEX_ABS HASHTABLE HASHTABLE_FIND HASHTABLE_IMPORT "
    "HASHTABLE_SIZE REDUCE_ALL CONV_3D_TRANSPOSE VAR_HANDLE READ_VARIABLE ASSIGN_VARIABLE BROADCAST_ARGS "
    "RANDOM_STANDARD_NORMAL BUCKETIZE RANDOM_UNIFORM MULTINOMIAL GELU DYNAMIC_UPDATE_SLICE RELU_0_TO_1 "
    "UNSORTED_SEGMENT_PROD UNSORTED_SEGMENT_MAX UNSORTED_SEGMENT_SUM ATAN2 UNSORTED_SEGMENT_MIN SIGN"
).split()
BUILTIN_OPERATORS = {name: code for code, name in enumerate(_OPERATOR_NAMES)}
OPERATOR_NAMES = {code: name for name, code in BUILTIN_OPERATORS.items()}
PLACEHOLDER_FOR_GREATER_OP_CODES = BUILTIN_OPERATORS["PLACEHOLDER_FOR_GREATER_OP_CODES"]

# BuiltinOptions union members in order; a member's union type value is its position + 1 (0 = NONE).
_BUILTIN_OPTIONS = (
    "Conv2DOptions DepthwiseConv2DOptions ConcatEmbeddingsOptions LSHProjectionOptions Pool2DOptions "
    "SVDFOptions RNNOptions FullyConnectedOptions SoftmaxOptions ConcatenationOptions AddOptions L2NormOptions "
    "LocalResponseNormalizationOptions LSTMOptions ResizeBilinearOptions CallOptions ReshapeOptions "
    "SkipGramOptions SpaceToDepthOptions EmbeddingLookupSparseOptions MulOptions PadOptions GatherOptions "
    "BatchToSpaceNDOptions SpaceToBatchNDOptions TransposeOptions ReducerOptions SubOptions DivOptions "
    "SqueezeOptions SequenceRNNOptions StridedSliceOptions ExpOptions TopKV2Options SplitOptions "
    "LogSoftmaxOptions CastOptions DequantizeOptions MaximumMinimumOptions ArgMaxOptions LessOptions "
    "NegOptions PadV2Options GreaterOptions GreaterEqualOptions LessEqualOptions SelectOptions SliceOptions "
    "TransposeConvOptions SparseToDenseOptions TileOptions ExpandDimsOptions EqualOptions NotEqualOptions "
    "ShapeOptions PowOptions ArgMinOptions FakeQuantOptions PackOptions LogicalOrOptions OneHotOptions "
    "LogicalAndOptions LogicalNotOptions UnpackOptions FloorDivOptions SquareOptions ZerosLikeOptions "
    "FillOptions BidirectionalSequenceLSTMOptions BidirectionalSequenceRNNOptions "
    "UnidirectionalSequenceLSTMOptions FloorModOptions RangeOptions ResizeNearestNeighborOptions "
    "LeakyReluOptions SquaredDifferenceOptions MirrorPadOptions AbsOptions SplitVOptions UniqueOptions "
    "ReverseV2Options AddNOptions GatherNdOptions CosOptions WhereOptions RankOptions ReverseSequenceOptions "
    "MatrixDiagOptions QuantizeOptions MatrixSetDiagOptions HardSwishOptions IfOptions WhileOptions "
    "DepthToSpaceOptions NonMaxSuppressionV4Options NonMaxSuppressionV5Options ScatterNdOptions "
    "SelectV2Options DensifyOptions SegmentSumOptions BatchMatMulOptions CumsumOptions CallOnceOptions "
    "BroadcastToOptions Rfft2dOptions Conv3DOptions HashtableOptions HashtableFindOptions "
    "HashtableImportOptions HashtableSizeOptions VarHandleOptions ReadVariableOptions AssignVariableOptions "
    "RandomOptions BucketizeOptions GeluOptions DynamicUpdateSliceOptions UnsortedSegmentProdOptions "
    "UnsortedSegmentMaxOptions UnsortedSegmentMinOptions UnsortedSegmentSumOptions ATan2Options SignOptions "
    "BitcastOptions BitwiseXorOptions RightShiftOptions"
).split()
UNIONS = {
    "BuiltinOptions": {name: i + 1 for i, name in enumerate(_BUILTIN_OPTIONS)},
    "QuantizationDetails": {"CustomQuantization": 1},
}

_ACT = ("fused_activation_function", "byte", 0)

# Option tables with fields; every other member of BuiltinOptions is an empty table.
_OPTION_TABLES = {
    "Conv2DOptions": [("padding", "byte", 0), ("stride_w", "int", 0), ("stride_h", "int", 0), _ACT,
                      ("dilation_w_factor", "int", 1), ("dilation_h_factor", "int", 1),
                      ("quantized_bias_type", "byte", 0)],
    "DepthwiseConv2DOptions": [("padding", "byte", 0), ("stride_w", "int", 0), ("stride_h", "int", 0),
                               ("depth_multiplier", "int", 0), _ACT, ("dilation_w_factor", "int", 1),
                               ("dilation_h_factor", "int", 1)],
    "Pool2DOptions": [("padding", "byte", 0), ("stride_w", "int", 0), ("stride_h", "int", 0),
                      ("filter_width", "int", 0), ("filter_height", "int", 0), _ACT],
    "FullyConnectedOptions": [_ACT, ("weights_format", "byte", 0), ("keep_num_dims", "bool", False),
                              ("asymmetric_quantize_inputs", "bool", False), ("quantized_bias_type", "byte", 0)],
    "SoftmaxOptions": [("beta", "float", 0.0)],
    "ConcatenationOptions": [("axis", "int", 0), _ACT],
    "AddOptions": [_ACT, ("pot_scale_int16", "bool", True)],
    "SubOptions": [_ACT, ("pot_scale_int16", "bool", True)],
    "MulOptions": [_ACT],
    "DivOptions": [_ACT],
    "L2NormOptions": [_ACT],
    "ResizeBilinearOptions": [("new_height", "int", 0), ("new_width", "int", 0), ("align_corners", "bool", False),
                              ("half_pixel_centers", "bool", False)],
    "ResizeNearestNeighborOptions": [("align_corners", "bool", False), ("half_pixel_centers", "bool", False)],
    "ReshapeOptions": [("new_shape", "[int]", None)],
    "SpaceToDepthOptions": [("block_size", "int", 0)],
    "DepthToSpaceOptions": [("block_size", "int", 0)],
    "GatherOptions": [("axis", "int", 0), ("batch_dims", "int", 0)],
    "WhileOptions": [("cond_subgraph_index", "int", 0), ("body_subgraph_index", "int", 0)],
    "ReducerOptions": [("keep_dims", "bool", False)],
    "SqueezeOptions": [("squeeze_dims", "[int]", None)],
    "StridedSliceOptions": [("begin_mask", "int", 0), ("end_mask", "int", 0), ("ellipsis_mask", "int", 0),
                            ("new_axis_mask", "int", 0), ("shrink_axis_mask", "int", 0), ("offset", "bool", False)],
    "SplitOptions": [("num_splits", "int", 0)],
    "SplitVOptions": [("num_splits", "int", 0)],
    "CastOptions": [("in_data_type", "byte", 0), ("out_data_type", "byte", 0)],
    "ArgMaxOptions": [("output_type", "byte", 0)],
    "ArgMinOptions": [("output_type", "byte", 0)],
    "TransposeConvOptions": [("padding", "byte", 0), ("stride_w", "int", 0), ("stride_h", "int", 0), _ACT,
                             ("quantized_bias_type", "byte", 0)],
    "ShapeOptions": [("out_type", "byte", 0)],
    "PackOptions": [("values_count", "int", 0), ("axis", "int", 0)],
    "UnpackOptions": [("num", "int", 0), ("axis", "int", 0)],
    "LeakyReluOptions": [("alpha", "float", 0.0)],
    "MirrorPadOptions": [("mode", "byte", 0)],
    "BatchMatMulOptions": [("adj_x", "bool", False), ("adj_y", "bool", False),
                           ("asymmetric_quantize_inputs", "bool", False)],
    "GeluOptions": [("approximate", "bool", False)],
    "BucketizeOptions": [("boundaries", "[float]", None)],
    "OneHotOptions": [("axis", "int", 0)],
    "ReverseSequenceOptions": [("seq_dim", "int", 0), ("batch_dim", "int", 0)],
    "UnidirectionalSequenceLSTMOptions": [_ACT, ("cell_clip", "float", 0.0), ("proj_clip", "float", 0.0),
                                          ("time_major", "bool", False),
                                          ("asymmetric_quantize_inputs", "bool", False),
                                          ("diagonal_recurrent_tensors", "bool", False)],
}

TABLES = {
    "Model": [("version", "uint", 0), ("operator_codes", "[table:OperatorCode]", None),
              ("subgraphs", "[table:SubGraph]", None), ("description", "string", None),
              ("buffers", "[table:Buffer]", None), ("metadata_buffer", "[int]", None),
              ("metadata", "[table:Metadata]", None), ("signature_defs", "[table:SignatureDef]", None)],
    "OperatorCode": [("deprecated_builtin_code", "byte", 0), ("custom_code", "string", None), ("version", "int", 1),
                     ("builtin_code", "int", 0)],
    "SubGraph": [("tensors", "[table:Tensor]", None), ("inputs", "[int]", None), ("outputs", "[int]", None),
                 ("operators", "[table:Operator]", None), ("name", "string", None)],
    "Tensor": [("shape", "[int]", None), ("type", "byte", 0), ("buffer", "uint", 0), ("name", "string", None),
               ("quantization", "table:QuantizationParameters", None), ("is_variable", "bool", False),
               ("sparsity", "table:SparsityParameters", None), ("shape_signature", "[int]", None),
               ("has_rank", "bool", False)],
    "QuantizationParameters": [("min", "[float]", None), ("max", "[float]", None), ("scale", "[float]", None),
                               ("zero_point", "[long]", None), ("details", "union:QuantizationDetails", None),
                               ("quantized_dimension", "int", 0)],
    "SparsityParameters": [],
    "CustomQuantization": [("custom", "[ubyte16]", None)],
    "Operator": [("opcode_index", "uint", 0), ("inputs", "[int]", None), ("outputs", "[int]", None),
                 ("builtin_options", "union:BuiltinOptions", None), ("custom_options", "[ubyte]", None),
                 ("custom_options_format", "byte", 0), ("mutating_variable_inputs", "[bool]", None),
                 ("intermediates", "[int]", None)],
    "Buffer": [("data", "[ubyte16]", None), ("offset", "ulong", 0), ("size", "ulong", 0)],
    "Metadata": [("name", "string", None), ("buffer", "uint", 0)],
    "TensorMap": [("name", "string", None), ("tensor_index", "uint", 0)],
    "SignatureDef": [("inputs", "[table:TensorMap]", None), ("outputs", "[table:TensorMap]", None),
                     ("signature_key", "string", None), ("deprecated_tag", "string", None),
                     ("subgraph_index", "uint", 0)],
}
for _name in _BUILTIN_OPTIONS:
    TABLES[_name] = _OPTION_TABLES.get(_name, [])


def union_member(union: str, type_value: int) -> str:
    """The table name of a union's type value (KeyError for NONE or an unknown value)."""
    for name, value in UNIONS[union].items():
        if value == type_value:
            return name
    raise KeyError(f"{union} has no member {type_value}")
