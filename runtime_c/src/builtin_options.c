/* Operator builtin_options → TFLite's builtin param structs (builtin_op_data.h), following
 * TFLite's flatbuffer_conversions: the struct starts zeroed, and is filled only when the
 * operator carries the options table of the expected union type (schema defaults then apply
 * to absent fields); enums are mapped to their TfLite values. */
#include <string.h>

#include "edgelite/builtin_op_data.h"
#include "interp.h"
#include "op_names.h"
#include "kernels/builtin_codes.h"
#include "op_selection.h"

/* BuiltinOptions union type ids (schema.fbs order, 1-based). */
enum {
  kConv2D = 1, kDepthwiseConv2D = 2, kLSHProjection = 4, kPool2D = 5, kSVDF = 6, kRNN = 7,
  kFullyConnected = 8, kSoftmax = 9, kConcatenation = 10, kAdd = 11, kL2Norm = 12,
  kLocalResponseNorm = 13, kLSTM = 14, kResizeBilinear = 15, kCall = 16, kReshape = 17,
  kSkipGram = 18, kSpaceToDepth = 19, kEmbeddingLookupSparse = 20, kMul = 21, kGather = 23,
  kReducer = 27, kSub = 28, kDiv = 29, kSqueeze = 30, kSequenceRNN = 31, kStridedSlice = 32,
  kSplit = 35, kCast = 37, kArgMax = 40, kTransposeConv = 49, kSparseToDense = 50, kShape = 55,
  kArgMin = 57, kFakeQuant = 58, kPack = 59, kOneHot = 61, kUnpack = 64, kBidiLSTM = 69,
  kBidiRNN = 70, kUniLSTM = 71, kResizeNearest = 74, kLeakyRelu = 75, kMirrorPad = 77,
  kSplitV = 79, kUnique = 80, kReverseSequence = 87, kIf = 92, kWhile = 93, kDepthToSpace = 94,
  kBatchMatMul = 101, kCumsum = 102, kCallOnce = 103, kConv3D = 106, kHashtable = 107,
  kVarHandle = 111, kRandom = 114, kBucketize = 115, kGelu = 116
};

/* BuiltinOperator codes used below. */
enum {
  ADD = 0, AVERAGE_POOL_2D = 1, CONCATENATION = 2, CONV_2D = 3, DEPTHWISE_CONV_2D = 4,
  DEPTH_TO_SPACE = 5, EMBEDDING_LOOKUP_SPARSE = 33, FULLY_CONNECTED = 9, L2_NORMALIZATION = 11,
  L2_POOL_2D = 12, LOCAL_RESPONSE_NORMALIZATION = 13, LSH_PROJECTION = 15, LSTM = 16,
  MAX_POOL_2D = 17, MUL = 18, RESHAPE = 22, RESIZE_BILINEAR = 23, RNN = 24, SOFTMAX = 25,
  SPACE_TO_DEPTH = 26, SVDF = 27, SKIP_GRAM = 30, UNIDIRECTIONAL_SEQUENCE_RNN = 35, GATHER = 36,
  MEAN = 40, SUB = 41, DIV = 42, SQUEEZE = 43, UNIDIRECTIONAL_SEQUENCE_LSTM = 44,
  STRIDED_SLICE = 45, BIDIRECTIONAL_SEQUENCE_RNN = 46, SPLIT = 49, DELEGATE = 51,
  BIDIRECTIONAL_SEQUENCE_LSTM = 52, CAST = 53, ARG_MAX = 56, TRANSPOSE_CONV = 67,
  SPARSE_TO_DENSE = 68, SUM = 74, SHAPE = 77, ARG_MIN = 79, FAKE_QUANT = 80, REDUCE_PROD = 81,
  REDUCE_MAX = 82, PACK = 83, ONE_HOT = 85, UNPACK = 88, REDUCE_MIN = 89, REDUCE_ANY = 91,
  RESIZE_NEAREST_NEIGHBOR = 97, LEAKY_RELU = 98, MIRROR_PAD = 100, SPLIT_V = 102, UNIQUE = 103,
  REVERSE_SEQUENCE = 112, IF = 118, WHILE = 119, BATCH_MATMUL = 126, CUMSUM = 128,
  CALL_ONCE = 129, CONV_3D = 132, HASHTABLE = 136, REDUCE_ALL = 140, CONV_3D_TRANSPOSE = 141,
  VAR_HANDLE = 142, RANDOM_STANDARD_NORMAL = 146, BUCKETIZE = 147, RANDOM_UNIFORM = 148,
  MULTINOMIAL = 149, GELU = 150
};

/* Field reads remember a malformed field instead of failing one by one. */
typedef struct reader {
  const el_fb_table* t;
  int bad;
} reader;

static int32_t i32(reader* r, int id, int32_t def) {
  int32_t v = def;
  if (el_fb_i32(r->t, id, def, &v) != 0) r->bad = 1;
  return v;
}

static int64_t i64(reader* r, int id, int64_t def) {
  int64_t v = def;
  if (el_fb_i64(r->t, id, def, &v) != 0) r->bad = 1;
  return v;
}

static int8_t i8(reader* r, int id, int8_t def) {
  int8_t v = def;
  if (el_fb_i8(r->t, id, def, &v) != 0) r->bad = 1;
  return v;
}

static bool b8(reader* r, int id, bool def) { return i8(r, id, def ? 1 : 0) != 0; }

static float f32(reader* r, int id, float def) {
  float v = def;
  if (el_fb_f32(r->t, id, def, &v) != 0) r->bad = 1;
  return v;
}

static TfLitePadding padding(int8_t p) {
  return p == 0 ? kTfLitePaddingSame : (p == 1 ? kTfLitePaddingValid : kTfLitePaddingUnknown);
}

static TfLiteFusedActivation activation(int8_t a) {
  switch (a) {
    case 1: return kTfLiteActRelu;
    case 2: return kTfLiteActReluN1To1;
    case 3: return kTfLiteActRelu6;
    case 4: return kTfLiteActTanh;
    case 5: return kTfLiteActSignBit;
    default: return kTfLiteActNone;
  }
}

/* TensorType field → TfLiteType, with TFLite's message for values it does not know. */
static int tensor_type(el_subgraph* sg, reader* r, int id, TfLiteType* out) {
  int8_t raw = i8(r, id, 0);
  int t = el_convert_tensor_type(raw);
  if (t < 0 || t == kTfLiteInt4) {
    el_report(sg, "Unsupported data type %d in tensor\n", raw);
    return -1;
  }
  *out = (TfLiteType)t;
  return 0;
}

/* Copies an int vector option into a fixed array, as FlatBufferIntVectorToArray does. */
static int int_vector(el_subgraph* sg, reader* r, int id, int32_t* dst, int cap, int* count,
                      const char* op_name) {
  el_fb_vec v;
  int has = 0;
  if (el_fb_vec_field(r->t, id, 4, &v, &has) != 0) {
    r->bad = 1;
    return 0;
  }
  if (!has) return 0;
  if (v.len > (uint32_t)cap) {
    el_report(sg, "Found too many dimensions in the input array of operation '%s'.\n", op_name);
    return -1;
  }
  for (uint32_t i = 0; i < v.len; ++i) dst[i] = el_fb_vec_i32(&v, i);
  *count = (int)v.len;
  return 0;
}

static const el_fb_table* options_of(const el_operator_desc* op, uint8_t type) {
  return (op->has_builtin_options && op->builtin_options_type == type) ? &op->builtin_options : NULL;
}

TfLiteStatus el_parse_builtin_options(el_subgraph* sg, int32_t code, const el_operator_desc* op,
                                      void** out) {
  *out = NULL;
  reader r = {NULL, 0};
  int fail = 0;
#define NEW(T, type_id)                            \
  T* p = el_options_alloc(sg, sizeof(T));           \
  if (p == NULL) return kTfLiteError;              \
  *out = p;                                        \
  r.t = options_of(op, (type_id));                 \
  if (r.t != NULL)

  /* An op outside the build's op selection (op_selection.h) has no kernel to read its options:
   * its case is left at once, and the compiler drops the parser. */
#define KEPT(name) EL_IS_KEPT(EL_OP_##name)
  switch (code) {
    case CONV_2D: {
      if (!KEPT(CONV_2D)) break;
      NEW(TfLiteConvParams, kConv2D) {
        p->padding = padding(i8(&r, 0, 0));
        p->stride_width = i32(&r, 1, 0);
        p->stride_height = i32(&r, 2, 0);
        p->activation = activation(i8(&r, 3, 0));
        p->dilation_width_factor = i32(&r, 4, 1);
        p->dilation_height_factor = i32(&r, 5, 1);
        fail = tensor_type(sg, &r, 6, &p->quantized_bias_type);
      }
      break;
    }
    case DEPTHWISE_CONV_2D: {
      if (!KEPT(DEPTHWISE_CONV_2D)) break;
      NEW(TfLiteDepthwiseConvParams, kDepthwiseConv2D) {
        p->padding = padding(i8(&r, 0, 0));
        p->stride_width = i32(&r, 1, 0);
        p->stride_height = i32(&r, 2, 0);
        p->depth_multiplier = i32(&r, 3, 0);
        p->activation = activation(i8(&r, 4, 0));
        p->dilation_width_factor = i32(&r, 5, 1);
        p->dilation_height_factor = i32(&r, 6, 1);
      }
      break;
    }
    case AVERAGE_POOL_2D:
    case MAX_POOL_2D:
    case L2_POOL_2D: {
      if (!(KEPT(AVERAGE_POOL_2D) || KEPT(MAX_POOL_2D) || KEPT(L2_POOL_2D))) break;
      NEW(TfLitePoolParams, kPool2D) {
        p->padding = padding(i8(&r, 0, 0));
        p->stride_width = i32(&r, 1, 0);
        p->stride_height = i32(&r, 2, 0);
        p->filter_width = i32(&r, 3, 0);
        p->filter_height = i32(&r, 4, 0);
        p->activation = activation(i8(&r, 5, 0));
      }
      break;
    }
    case FULLY_CONNECTED: {
      if (!KEPT(FULLY_CONNECTED)) break;
      NEW(TfLiteFullyConnectedParams, kFullyConnected) {
        p->activation = activation(i8(&r, 0, 0));
        int8_t format = i8(&r, 1, 0);
        p->keep_num_dims = b8(&r, 2, false);
        p->asymmetric_quantize_inputs = b8(&r, 3, false);
        fail = tensor_type(sg, &r, 4, &p->quantized_bias_type);
        if (format == 0) {
          p->weights_format = kTfLiteFullyConnectedWeightsFormatDefault;
        } else if (format == 1) {
          p->weights_format = kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8;
        } else {
          el_report(sg, "Unhandled fully-connected weights format.");
          fail = -1;
        }
      }
      break;
    }
    case SOFTMAX: {
      if (!KEPT(SOFTMAX)) break;
      NEW(TfLiteSoftmaxParams, kSoftmax) { p->beta = f32(&r, 0, 0.0f); }
      break;
    }
    case CONCATENATION: {
      if (!KEPT(CONCATENATION)) break;
      NEW(TfLiteConcatenationParams, kConcatenation) {
        p->axis = i32(&r, 0, 0);
        p->activation = activation(i8(&r, 1, 0));
      }
      break;
    }
    case ADD: {
      if (!KEPT(ADD)) break;
      NEW(TfLiteAddParams, kAdd) {
        p->activation = activation(i8(&r, 0, 0));
        p->pot_scale_int16 = b8(&r, 1, true);
      }
      break;
    }
    case SUB: {
      if (!KEPT(SUB)) break;
      NEW(TfLiteSubParams, kSub) {
        p->activation = activation(i8(&r, 0, 0));
        p->pot_scale_int16 = b8(&r, 1, true);
      }
      break;
    }
    case MUL: {
      if (!KEPT(MUL)) break;
      NEW(TfLiteMulParams, kMul) { p->activation = activation(i8(&r, 0, 0)); }
      break;
    }
    case DIV: {
      if (!KEPT(DIV)) break;
      NEW(TfLiteDivParams, kDiv) { p->activation = activation(i8(&r, 0, 0)); }
      break;
    }
    case L2_NORMALIZATION: {
      if (!KEPT(L2_NORMALIZATION)) break;
      NEW(TfLiteL2NormParams, kL2Norm) { p->activation = activation(i8(&r, 0, 0)); }
      break;
    }
    case LOCAL_RESPONSE_NORMALIZATION: {
      if (!KEPT(LOCAL_RESPONSE_NORMALIZATION)) break;
      NEW(TfLiteLocalResponseNormParams, kLocalResponseNorm) {
        p->radius = i32(&r, 0, 0);
        p->bias = f32(&r, 1, 0.0f);
        p->alpha = f32(&r, 2, 0.0f);
        p->beta = f32(&r, 3, 0.0f);
      }
      break;
    }
    case LSH_PROJECTION: {
      if (!KEPT(LSH_PROJECTION)) break;
      NEW(TfLiteLSHProjectionParams, kLSHProjection) {
        int8_t t = i8(&r, 0, 0);
        p->type = t == 1 ? kTfLiteLshProjectionSparse
                         : (t == 2 ? kTfLiteLshProjectionDense : kTfLiteLshProjectionUnknown);
      }
      break;
    }
    case SVDF: {
      if (!KEPT(SVDF)) break;
      NEW(TfLiteSVDFParams, kSVDF) {
        p->rank = i32(&r, 0, 0);
        p->activation = activation(i8(&r, 1, 0));
        p->asymmetric_quantize_inputs = b8(&r, 2, false);
      }
      break;
    }
    case RNN: {
      if (!KEPT(RNN)) break;
      NEW(TfLiteRNNParams, kRNN) {
        p->activation = activation(i8(&r, 0, 0));
        p->asymmetric_quantize_inputs = b8(&r, 1, false);
      }
      break;
    }
    case UNIDIRECTIONAL_SEQUENCE_RNN: {
      if (!KEPT(UNIDIRECTIONAL_SEQUENCE_RNN)) break;
      NEW(TfLiteSequenceRNNParams, kSequenceRNN) {
        p->time_major = b8(&r, 0, false);
        p->activation = activation(i8(&r, 1, 0));
        p->asymmetric_quantize_inputs = b8(&r, 2, false);
      }
      break;
    }
    case BIDIRECTIONAL_SEQUENCE_RNN: {
      if (!KEPT(BIDIRECTIONAL_SEQUENCE_RNN)) break;
      NEW(TfLiteBidirectionalSequenceRNNParams, kBidiRNN) {
        p->time_major = b8(&r, 0, false);
        p->activation = activation(i8(&r, 1, 0));
        p->merge_outputs = b8(&r, 2, false);
        p->asymmetric_quantize_inputs = b8(&r, 3, false);
      }
      break;
    }
    case LSTM: {
      if (!KEPT(LSTM)) break;
      NEW(TfLiteLSTMParams, kLSTM) {
        p->activation = activation(i8(&r, 0, 0));
        p->cell_clip = f32(&r, 1, 0.0f);
        p->proj_clip = f32(&r, 2, 0.0f);
        int8_t kind = i8(&r, 3, 0);
        p->asymmetric_quantize_inputs = b8(&r, 4, false);
        if (kind == 0) {
          p->kernel_type = kTfLiteLSTMFullKernel;
        } else if (kind == 1) {
          p->kernel_type = kTfLiteLSTMBasicKernel;
        } else {
          el_report(sg, "Unhandled LSTM kernel type: %d", kind);
          fail = -1;
        }
      }
      break;
    }
    case UNIDIRECTIONAL_SEQUENCE_LSTM: {
      if (!KEPT(UNIDIRECTIONAL_SEQUENCE_LSTM)) break;
      NEW(TfLiteUnidirectionalSequenceLSTMParams, kUniLSTM) {
        p->activation = activation(i8(&r, 0, 0));
        p->cell_clip = f32(&r, 1, 0.0f);
        p->proj_clip = f32(&r, 2, 0.0f);
        p->time_major = b8(&r, 3, false);
        p->asymmetric_quantize_inputs = b8(&r, 4, false);
        p->diagonal_recurrent_tensors = b8(&r, 5, false);
      }
      break;
    }
    case BIDIRECTIONAL_SEQUENCE_LSTM: {
      if (!KEPT(BIDIRECTIONAL_SEQUENCE_LSTM)) break;
      NEW(TfLiteBidirectionalSequenceLSTMParams, kBidiLSTM) {
        p->activation = activation(i8(&r, 0, 0));
        p->cell_clip = f32(&r, 1, 0.0f);
        p->proj_clip = f32(&r, 2, 0.0f);
        p->merge_outputs = b8(&r, 3, false);
        p->time_major = b8(&r, 4, true);
        p->asymmetric_quantize_inputs = b8(&r, 5, false);
      }
      break;
    }
    case RESIZE_BILINEAR: {
      if (!KEPT(RESIZE_BILINEAR)) break;
      NEW(TfLiteResizeBilinearParams, kResizeBilinear) {
        p->align_corners = b8(&r, 2, false);
        p->half_pixel_centers = b8(&r, 3, false);
      }
      break;
    }
    case RESIZE_NEAREST_NEIGHBOR: {
      if (!KEPT(RESIZE_NEAREST_NEIGHBOR)) break;
      NEW(TfLiteResizeNearestNeighborParams, kResizeNearest) {
        p->align_corners = b8(&r, 0, false);
        p->half_pixel_centers = b8(&r, 1, false);
      }
      break;
    }
    case RESHAPE: {
      if (!KEPT(RESHAPE)) break;
      NEW(TfLiteReshapeParams, kReshape) {
        fail = int_vector(sg, &r, 0, p->shape, TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT,
                          &p->num_dimensions, "reshape");
      }
      break;
    }
    case SKIP_GRAM: {
      if (!KEPT(SKIP_GRAM)) break;
      NEW(TfLiteSkipGramParams, kSkipGram) {
        p->ngram_size = i32(&r, 0, 0);
        p->max_skip_size = i32(&r, 1, 0);
        p->include_all_ngrams = b8(&r, 2, false);
      }
      break;
    }
    case SPACE_TO_DEPTH: {
      if (!KEPT(SPACE_TO_DEPTH)) break;
      NEW(TfLiteSpaceToDepthParams, kSpaceToDepth) { p->block_size = i32(&r, 0, 0); }
      break;
    }
    case DEPTH_TO_SPACE: {
      if (!KEPT(DEPTH_TO_SPACE)) break;
      NEW(TfLiteDepthToSpaceParams, kDepthToSpace) { p->block_size = i32(&r, 0, 0); }
      break;
    }
    case EMBEDDING_LOOKUP_SPARSE: {
      if (!KEPT(EMBEDDING_LOOKUP_SPARSE)) break;
      NEW(TfLiteEmbeddingLookupSparseParams, kEmbeddingLookupSparse) {
        int8_t c = i8(&r, 0, 0);
        p->combiner = c == 1 ? kTfLiteCombinerTypeMean
                             : (c == 2 ? kTfLiteCombinerTypeSqrtn : kTfLiteCombinerTypeSum);
      }
      break;
    }
    case GATHER: {
      if (!KEPT(GATHER)) break;
      NEW(TfLiteGatherParams, kGather) {
        p->axis = i32(&r, 0, 0);
        p->batch_dims = i32(&r, 1, 0);
      }
      break;
    }
    case MEAN:
    case SUM:
    case REDUCE_PROD:
    case REDUCE_MAX:
    case REDUCE_MIN:
    case REDUCE_ANY:
    case REDUCE_ALL: {
      if (!(KEPT(MEAN) || KEPT(SUM) || KEPT(REDUCE_PROD) || KEPT(REDUCE_MAX) || KEPT(REDUCE_MIN) ||
            KEPT(REDUCE_ANY) || KEPT(REDUCE_ALL))) {
        break;
      }
      NEW(TfLiteReducerParams, kReducer) { p->keep_dims = b8(&r, 0, false); }
      break;
    }
    case SQUEEZE: {
      if (!KEPT(SQUEEZE)) break;
      NEW(TfLiteSqueezeParams, kSqueeze) {
        fail = int_vector(sg, &r, 0, p->squeeze_dims, 8, &p->num_squeeze_dims, "squeeze");
      }
      break;
    }
    case STRIDED_SLICE: {
      if (!KEPT(STRIDED_SLICE)) break;
      NEW(TfLiteStridedSliceParams, kStridedSlice) {
        p->begin_mask = i32(&r, 0, 0);
        p->end_mask = i32(&r, 1, 0);
        p->ellipsis_mask = i32(&r, 2, 0);
        p->new_axis_mask = i32(&r, 3, 0);
        p->shrink_axis_mask = i32(&r, 4, 0);
        p->offset = b8(&r, 5, false);
      }
      break;
    }
    case SPLIT: {
      if (!KEPT(SPLIT)) break;
      NEW(TfLiteSplitParams, kSplit) { p->num_splits = i32(&r, 0, 0); }
      break;
    }
    case SPLIT_V: {
      if (!KEPT(SPLIT_V)) break;
      NEW(TfLiteSplitVParams, kSplitV) { p->num_splits = i32(&r, 0, 0); }
      break;
    }
    case CAST: {
      if (!KEPT(CAST)) break;
      NEW(TfLiteCastParams, kCast) {
        fail = tensor_type(sg, &r, 0, &p->in_data_type);
        if (!fail) fail = tensor_type(sg, &r, 1, &p->out_data_type);
      }
      break;
    }
    case ARG_MAX: {
      if (!KEPT(ARG_MAX)) break;
      NEW(TfLiteArgMaxParams, kArgMax) { fail = tensor_type(sg, &r, 0, &p->output_type); }
      break;
    }
    case ARG_MIN: {
      if (!KEPT(ARG_MIN)) break;
      NEW(TfLiteArgMinParams, kArgMin) { fail = tensor_type(sg, &r, 0, &p->output_type); }
      break;
    }
    case TRANSPOSE_CONV: {
      if (!KEPT(TRANSPOSE_CONV)) break;
      NEW(TfLiteTransposeConvParams, kTransposeConv) {
        p->padding = padding(i8(&r, 0, 0));
        p->stride_width = i32(&r, 1, 0);
        p->stride_height = i32(&r, 2, 0);
        p->activation = activation(i8(&r, 3, 0));
        fail = tensor_type(sg, &r, 4, &p->quantized_bias_type);
      }
      break;
    }
    case SPARSE_TO_DENSE: {
      if (!KEPT(SPARSE_TO_DENSE)) break;
      NEW(TfLiteSparseToDenseParams, kSparseToDense) { p->validate_indices = b8(&r, 0, false); }
      break;
    }
    case SHAPE: {
      if (!KEPT(SHAPE)) break;
      NEW(TfLiteShapeParams, kShape) { fail = tensor_type(sg, &r, 0, &p->out_type); }
      break;
    }
    case FAKE_QUANT: {
      if (!KEPT(FAKE_QUANT)) break;
      NEW(TfLiteFakeQuantParams, kFakeQuant) {
        p->min = f32(&r, 0, 0.0f);
        p->max = f32(&r, 1, 0.0f);
        p->num_bits = i32(&r, 2, 0);
        p->narrow_range = b8(&r, 3, false);
      }
      break;
    }
    case PACK: {
      if (!KEPT(PACK)) break;
      NEW(TfLitePackParams, kPack) {
        p->values_count = i32(&r, 0, 0);
        p->axis = i32(&r, 1, 0);
      }
      break;
    }
    case ONE_HOT: {
      if (!KEPT(ONE_HOT)) break;
      NEW(TfLiteOneHotParams, kOneHot) { p->axis = i32(&r, 0, 0); }
      break;
    }
    case UNPACK: {
      if (!KEPT(UNPACK)) break;
      NEW(TfLiteUnpackParams, kUnpack) {
        p->num = i32(&r, 0, 0);
        p->axis = i32(&r, 1, 0);
      }
      break;
    }
    case LEAKY_RELU: {
      if (!KEPT(LEAKY_RELU)) break;
      NEW(TfLiteLeakyReluParams, kLeakyRelu) { p->alpha = f32(&r, 0, 0.0f); }
      break;
    }
    case MIRROR_PAD: {
      if (!KEPT(MIRROR_PAD)) break;
      NEW(TfLiteMirrorPaddingParams, kMirrorPad) {
        p->mode = i8(&r, 0, 0) == 0 ? kTfLiteMirrorPaddingReflect : kTfLiteMirrorPaddingSymmetric;
      }
      break;
    }
    case UNIQUE: {
      if (!KEPT(UNIQUE)) break;
      NEW(TfLiteUniqueParams, kUnique) {
        p->index_out_type = i8(&r, 0, 2) == 4 ? kTfLiteInt64 : kTfLiteInt32;
      }
      break;
    }
    case REVERSE_SEQUENCE: {
      if (!KEPT(REVERSE_SEQUENCE)) break;
      NEW(TfLiteReverseSequenceParams, kReverseSequence) {
        p->seq_dim = i32(&r, 0, 0);
        p->batch_dim = i32(&r, 1, 0);
      }
      break;
    }
    case IF: {
      if (!KEPT(IF)) break;
      NEW(TfLiteIfParams, kIf) {
        p->then_subgraph_index = i32(&r, 0, 0);
        p->else_subgraph_index = i32(&r, 1, 0);
      }
      break;
    }
    case WHILE: {
      if (!KEPT(WHILE)) break;
      NEW(TfLiteWhileParams, kWhile) {
        p->cond_subgraph_index = i32(&r, 0, 0);
        p->body_subgraph_index = i32(&r, 1, 0);
      }
      break;
    }
    case CALL_ONCE: {
      if (!KEPT(CALL_ONCE)) break;
      NEW(TfLiteCallOnceParams, kCallOnce) { p->init_subgraph_index = i32(&r, 0, 0); }
      break;
    }
    case BATCH_MATMUL: {
      if (!KEPT(BATCH_MATMUL)) break;
      NEW(TfLiteBatchMatMulParams, kBatchMatMul) {
        p->adj_x = b8(&r, 0, false);
        p->adj_y = b8(&r, 1, false);
        p->asymmetric_quantize_inputs = b8(&r, 2, false);
      }
      break;
    }
    case CUMSUM: {
      if (!KEPT(CUMSUM)) break;
      NEW(TfLiteCumsumParams, kCumsum) {
        p->exclusive = b8(&r, 0, false);
        p->reverse = b8(&r, 1, false);
      }
      break;
    }
    case CONV_3D:
    case CONV_3D_TRANSPOSE: {
      if (!(KEPT(CONV_3D) || KEPT(CONV_3D_TRANSPOSE))) break;
      NEW(TfLiteConv3DParams, kConv3D) {
        p->padding = padding(i8(&r, 0, 0));
        p->stride_depth = i32(&r, 1, 0);
        p->stride_width = i32(&r, 2, 0);
        p->stride_height = i32(&r, 3, 0);
        p->activation = activation(i8(&r, 4, 0));
        p->dilation_depth_factor = i32(&r, 5, 1);
        p->dilation_width_factor = i32(&r, 6, 1);
        p->dilation_height_factor = i32(&r, 7, 1);
      }
      break;
    }
    case HASHTABLE: {
      if (!KEPT(HASHTABLE)) break;
      NEW(TfLiteHashtableParams, kHashtable) {
        p->table_id = i32(&r, 0, 0);
        fail = tensor_type(sg, &r, 1, &p->key_dtype);
        if (!fail) fail = tensor_type(sg, &r, 2, &p->value_dtype);
      }
      break;
    }
    case VAR_HANDLE: {
      if (!KEPT(VAR_HANDLE)) break;
      NEW(TfLiteVarHandleParams, kVarHandle) {
        if (el_fb_string_field(r.t, 0, &p->container, NULL) != 0 ||
            el_fb_string_field(r.t, 1, &p->shared_name, NULL) != 0) {
          r.bad = 1;
        }
      }
      break;
    }
    case MULTINOMIAL:
    case RANDOM_STANDARD_NORMAL:
    case RANDOM_UNIFORM: {
      if (!(KEPT(MULTINOMIAL) || KEPT(RANDOM_STANDARD_NORMAL) || KEPT(RANDOM_UNIFORM))) break;
      NEW(TfLiteRandomParams, kRandom) {
        p->seed = (int)i64(&r, 0, 0);
        p->seed2 = (int)i64(&r, 1, 0);
      }
      break;
    }
    case BUCKETIZE: {
      if (!KEPT(BUCKETIZE)) break;
      NEW(TfLiteBucketizeParams, kBucketize) {
        el_fb_vec v;
        int has = 0;
        if (el_fb_vec_field(r.t, 0, 4, &v, &has) != 0) {
          r.bad = 1;
        } else if (!has) {
          el_report(sg, "boundaries array not provided for operation 'bucketize'.\n");
          fail = -1;
        } else {
          /* Copied so kernels get aligned floats whatever the buffer's alignment. */
          float* b = el_options_alloc(sg, (size_t)v.len * sizeof(float));
          if (b == NULL) return kTfLiteError;
          for (uint32_t i = 0; i < v.len; ++i) b[i] = el_fb_vec_f32(&v, i);
          p->boundaries = b;
          p->num_boundaries = (int)v.len;
        }
      }
      break;
    }
    case GELU: {
      if (!KEPT(GELU)) break;
      NEW(TfLiteGeluParams, kGelu) { p->approximate = b8(&r, 0, false); }
      break;
    }
    case DELEGATE:
      el_report(sg, "DELEGATE op shouldn't exist in model.");
      return kTfLiteError;
    default:
      /* Ops without options (and ops TFLite gives no param struct) get NULL builtin_data. */
      return kTfLiteOk;
  }
#undef NEW
#undef KEPT
  if (r.bad) {
    el_report(sg, "The model is not a valid Flatbuffer buffer");
    return kTfLiteError;
  }
  return fail ? kTfLiteError : kTfLiteOk;
}
