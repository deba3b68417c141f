/* The builtin op table: for each BuiltinOperator code, the op versions edgelite accepts (those
 * LiteRT 2.3's builtin resolvers accept, tflite/core/kernels/register.cc and register_ref.cc,
 * whichever is higher) and its registrations per tier.
 *
 * Adding a quantized path to an op does not touch this table: the op's registration already
 * dispatches on the input type (see README.md). An optimized kernel fills the `optimized`
 * slot; until then EL_TIER_OPTIMIZED resolves to the reference registration. */
#include "kernels/registry.h"
#include "kernels/signal_ops.h"

#include <stddef.h>
#include <string.h>

#include "kernels/builtin_codes.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/quant_ops.h"
#include "op_selection.h"

typedef struct kernel_entry {
  int16_t code;
  uint8_t min_version;
  uint8_t max_version;
  const TfLiteRegistration* reference;
  const TfLiteRegistration* optimized; /* NULL: the reference registration serves both tiers */
} kernel_entry;

#ifdef EDGELITE_OP_SELECTION
/* A firmware build keeps the kernels of the ops its models use (op_selection.h) in a table of
 * those ops alone, searched by code, and the linker drops every other kernel: a kept entry takes
 * the next slot (__COUNTER__ counts kept entries only), every other one re-initialises the empty
 * slot 0. */
#define REF(code, lo, hi, reg) EL_SEL_CAT(EL_REF_KEPT_, EL_IS_KEPT(code))(code, lo, hi, reg)
#define EL_REF_KEPT_1(code, lo, hi, reg) [__COUNTER__ - kFirstSlot] = {(code), (lo), (hi), &(reg), NULL}
#define EL_REF_KEPT_0(code, lo, hi, reg) [0] = {0, 0, 0, NULL, NULL}
#define OPT(code, lo, hi, reg, opt) REF(code, lo, hi, reg)
#define EL_TABLE_SIZE
enum { kFirstSlot = __COUNTER__ };
#pragma GCC diagnostic ignored "-Woverride-init"
#else
#define REF(code, lo, hi, reg) [code] = {(code), (lo), (hi), &(reg), NULL}
#ifdef EDGELITE_FREESTANDING
/* Bare-metal builds run the reference kernels (TFLM's arithmetic, no threads or x86 SIMD). */
#define OPT(code, lo, hi, reg, opt) REF(code, lo, hi, reg)
#else
#define OPT(code, lo, hi, reg, opt) [code] = {(code), (lo), (hi), &(reg), &(opt)}
#endif
#define EL_TABLE_SIZE EL_OP_COUNT
#endif

static const kernel_entry kTable[EL_TABLE_SIZE] = {
    /* control_flow.c, resource_variables.c */
    REF(EL_OP_WHILE, 1, 1, el_ref_while),
    REF(EL_OP_IF, 1, 1, el_ref_if),
    REF(EL_OP_CALL_ONCE, 1, 1, el_ref_call_once),
    REF(EL_OP_VAR_HANDLE, 1, 1, el_ref_var_handle),
    REF(EL_OP_READ_VARIABLE, 1, 1, el_ref_read_variable),
    REF(EL_OP_ASSIGN_VARIABLE, 1, 1, el_ref_assign_variable),
    /* hashtable.c */
    REF(EL_OP_HASHTABLE, 1, 1, el_ref_hashtable),
    REF(EL_OP_HASHTABLE_IMPORT, 1, 1, el_ref_hashtable_import),
    REF(EL_OP_HASHTABLE_FIND, 1, 1, el_ref_hashtable_find),
    REF(EL_OP_HASHTABLE_SIZE, 1, 1, el_ref_hashtable_size),
    /* lstm.c, lstm_int8.c */
    OPT(EL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, 1, 4, el_ref_unidirectional_sequence_lstm,
        el_opt_unidirectional_sequence_lstm),
    OPT(EL_OP_LSTM, 1, 4, el_ref_lstm, el_opt_lstm),
    REF(EL_OP_BIDIRECTIONAL_SEQUENCE_LSTM, 1, 3, el_ref_bidirectional_sequence_lstm),
    /* svdf.c, rnn.c */
    OPT(EL_OP_SVDF, 1, 4, el_ref_svdf, el_opt_svdf),
    REF(EL_OP_UNIDIRECTIONAL_SEQUENCE_RNN, 1, 3, el_ref_unidirectional_sequence_rnn),
    REF(EL_OP_RNN, 1, 3, el_ref_rnn),
    REF(EL_OP_BIDIRECTIONAL_SEQUENCE_RNN, 1, 3, el_ref_bidirectional_sequence_rnn),
    /* select.c, gather_nd.c, batch_matmul.c */
    REF(EL_OP_SELECT, 1, 4, el_ref_select),
    REF(EL_OP_SELECT_V2, 1, 2, el_ref_select_v2),
    REF(EL_OP_WHERE, 1, 2, el_ref_where),
    REF(EL_OP_GATHER_ND, 1, 6, el_ref_gather_nd),
    REF(EL_OP_SCATTER_ND, 1, 1, el_ref_scatter_nd),
    REF(EL_OP_BATCH_MATMUL, 1, 4, el_ref_batch_matmul),
    /* topk.c, cumsum.c, mirror_pad.c, lrn.c, embedding_lookup.c */
    REF(EL_OP_TOPK_V2, 1, 3, el_ref_topk_v2),
    REF(EL_OP_CUMSUM, 1, 1, el_ref_cumsum),
    REF(EL_OP_MIRROR_PAD, 1, 3, el_ref_mirror_pad),
    REF(EL_OP_LOCAL_RESPONSE_NORMALIZATION, 1, 1, el_ref_local_response_normalization),
    REF(EL_OP_EMBEDDING_LOOKUP, 1, 5, el_ref_embedding_lookup),
    /* space_depth.c */
    REF(EL_OP_SPACE_TO_DEPTH, 1, 2, el_ref_space_to_depth),
    REF(EL_OP_DEPTH_TO_SPACE, 1, 2, el_ref_depth_to_space),
    REF(EL_OP_SPACE_TO_BATCH_ND, 1, 4, el_ref_space_to_batch_nd),
    REF(EL_OP_BATCH_TO_SPACE_ND, 1, 4, el_ref_batch_to_space_nd),
    /* fill_range.c */
    REF(EL_OP_ZEROS_LIKE, 1, 1, el_ref_zeros_like),
    REF(EL_OP_FILL, 1, 5, el_ref_fill),
    REF(EL_OP_RANGE, 1, 2, el_ref_range),
    REF(EL_OP_BROADCAST_TO, 2, 4, el_ref_broadcast_to),
    REF(EL_OP_BROADCAST_ARGS, 1, 1, el_ref_broadcast_args),
    REF(EL_OP_RANK, 1, 1, el_ref_rank),
    REF(EL_OP_ONE_HOT, 1, 1, el_ref_one_hot),
    /* tile_reverse.c */
    REF(EL_OP_TILE, 1, 3, el_ref_tile),
    REF(EL_OP_REVERSE_V2, 1, 4, el_ref_reverse_v2),
    REF(EL_OP_REVERSE_SEQUENCE, 1, 1, el_ref_reverse_sequence),
    /* math_misc.c */
    REF(EL_OP_ADD_N, 1, 1, el_ref_add_n),
    REF(EL_OP_ATAN2, 1, 1, el_ref_atan2),
    REF(EL_OP_BITWISE_XOR, 1, 1, el_ref_bitwise_xor),
    REF(EL_OP_RIGHT_SHIFT, 1, 1, el_ref_right_shift),
    REF(EL_OP_BUCKETIZE, 1, 1, el_ref_bucketize),
    REF(EL_OP_BITCAST, 1, 1, el_ref_bitcast),
    /* segment.c */
    REF(EL_OP_SEGMENT_SUM, 1, 1, el_ref_segment_sum),
    REF(EL_OP_UNSORTED_SEGMENT_SUM, 1, 1, el_ref_unsorted_segment_sum),
    REF(EL_OP_UNSORTED_SEGMENT_PROD, 1, 1, el_ref_unsorted_segment_prod),
    REF(EL_OP_UNSORTED_SEGMENT_MAX, 1, 1, el_ref_unsorted_segment_max),
    REF(EL_OP_UNSORTED_SEGMENT_MIN, 1, 1, el_ref_unsorted_segment_min),
    /* matrix_diag.c, dynamic_update_slice.c, reduce_bool.c */
    REF(EL_OP_MATRIX_DIAG, 1, 1, el_ref_matrix_diag),
    REF(EL_OP_MATRIX_SET_DIAG, 1, 1, el_ref_matrix_set_diag),
    REF(EL_OP_DYNAMIC_UPDATE_SLICE, 1, 6, el_ref_dynamic_update_slice),
    REF(EL_OP_REDUCE_ANY, 1, 1, el_ref_reduce_any),
    REF(EL_OP_REDUCE_ALL, 1, 1, el_ref_reduce_all),
    /* nms.c */
    REF(EL_OP_NON_MAX_SUPPRESSION_V4, 1, 1, el_ref_non_max_suppression_v4),
    REF(EL_OP_NON_MAX_SUPPRESSION_V5, 1, 1, el_ref_non_max_suppression_v5),
    /* unique.c, sparse_to_dense.c */
    REF(EL_OP_UNIQUE, 1, 1, el_ref_unique),
    REF(EL_OP_SPARSE_TO_DENSE, 1, 3, el_ref_sparse_to_dense),
    /* elementwise_binary.c */
    OPT(EL_OP_ADD, 1, 6, el_ref_add, el_opt_add),
    OPT(EL_OP_SUB, 1, 5, el_ref_sub, el_opt_sub),
    OPT(EL_OP_MUL, 1, 8, el_ref_mul, el_opt_mul),
    REF(EL_OP_DIV, 1, 2, el_ref_div),
    REF(EL_OP_MAXIMUM, 1, 4, el_ref_maximum),
    REF(EL_OP_MINIMUM, 1, 4, el_ref_minimum),
    REF(EL_OP_SQUARED_DIFFERENCE, 1, 2, el_ref_squared_difference),
    REF(EL_OP_POW, 1, 1, el_ref_pow),
    REF(EL_OP_FLOOR_DIV, 1, 3, el_ref_floor_div),
    REF(EL_OP_FLOOR_MOD, 1, 2, el_ref_floor_mod),
    /* comparisons.c */
    REF(EL_OP_EQUAL, 1, 5, el_ref_equal),
    REF(EL_OP_NOT_EQUAL, 1, 4, el_ref_not_equal),
    REF(EL_OP_LESS, 1, 3, el_ref_less),
    REF(EL_OP_LESS_EQUAL, 1, 2, el_ref_less_equal),
    REF(EL_OP_GREATER, 1, 2, el_ref_greater),
    REF(EL_OP_GREATER_EQUAL, 1, 3, el_ref_greater_equal),
    REF(EL_OP_LOGICAL_AND, 1, 1, el_ref_logical_and),
    REF(EL_OP_LOGICAL_OR, 1, 1, el_ref_logical_or),
    /* elementwise_unary.c */
    REF(EL_OP_ABS, 1, 5, el_ref_abs),
    REF(EL_OP_NEG, 1, 1, el_ref_neg),
    REF(EL_OP_SQRT, 1, 2, el_ref_sqrt),
    REF(EL_OP_RSQRT, 1, 3, el_ref_rsqrt),
    REF(EL_OP_EXP, 1, 2, el_ref_exp),
    REF(EL_OP_LOG, 1, 2, el_ref_log),
    REF(EL_OP_SIN, 1, 2, el_ref_sin),
    REF(EL_OP_COS, 1, 2, el_ref_cos),
    REF(EL_OP_SQUARE, 1, 1, el_ref_square),
    REF(EL_OP_FLOOR, 1, 1, el_ref_floor),
    REF(EL_OP_CEIL, 1, 1, el_ref_ceil),
    REF(EL_OP_ROUND, 1, 1, el_ref_round),
    REF(EL_OP_SIGN, 1, 2, el_ref_sign),
    REF(EL_OP_LOGICAL_NOT, 1, 1, el_ref_logical_not),
    /* activations.c */
    REF(EL_OP_RELU, 1, 3, el_ref_relu),
    REF(EL_OP_RELU6, 1, 3, el_ref_relu6),
    REF(EL_OP_RELU_N1_TO_1, 1, 1, el_ref_relu_n1_to_1),
    REF(EL_OP_RELU_0_TO_1, 1, 1, el_ref_relu_0_to_1),
    OPT(EL_OP_LOGISTIC, 1, 3, el_ref_logistic, el_opt_logistic),
    OPT(EL_OP_TANH, 1, 3, el_ref_tanh, el_opt_tanh),
    REF(EL_OP_LEAKY_RELU, 1, 2, el_ref_leaky_relu),
    REF(EL_OP_HARD_SWISH, 1, 1, el_ref_hard_swish),
    REF(EL_OP_ELU, 1, 1, el_ref_elu),
    REF(EL_OP_GELU, 1, 3, el_ref_gelu),
    REF(EL_OP_PRELU, 1, 1, el_ref_prelu),
    /* softmax.c */
    OPT(EL_OP_SOFTMAX, 1, 4, el_ref_softmax, el_opt_softmax),
    REF(EL_OP_LOG_SOFTMAX, 1, 2, el_ref_log_softmax),
    /* conv.c, depthwise_conv.c, fully_connected.c, pooling.c */
    OPT(EL_OP_CONV_2D, 1, 8, el_ref_conv_2d, el_opt_conv_2d),
    OPT(EL_OP_DEPTHWISE_CONV_2D, 1, 7, el_ref_depthwise_conv_2d, el_opt_depthwise_conv_2d),
    OPT(EL_OP_FULLY_CONNECTED, 1, 14, el_ref_fully_connected, el_opt_fully_connected),
    OPT(EL_OP_AVERAGE_POOL_2D, 1, 3, el_ref_average_pool_2d, el_opt_average_pool_2d),
    OPT(EL_OP_MAX_POOL_2D, 1, 3, el_ref_max_pool_2d, el_opt_max_pool_2d),
    REF(EL_OP_L2_POOL_2D, 1, 1, el_ref_l2_pool_2d),
    /* reduce.c */
    OPT(EL_OP_MEAN, 1, 3, el_ref_mean, el_opt_mean),
    REF(EL_OP_SUM, 1, 2, el_ref_sum),
    REF(EL_OP_REDUCE_MAX, 1, 3, el_ref_reduce_max),
    REF(EL_OP_REDUCE_MIN, 1, 3, el_ref_reduce_min),
    REF(EL_OP_REDUCE_PROD, 1, 2, el_ref_reduce_prod),
    /* reshape_ops.c */
    REF(EL_OP_RESHAPE, 1, 1, el_ref_reshape),
    REF(EL_OP_SQUEEZE, 1, 2, el_ref_squeeze),
    REF(EL_OP_EXPAND_DIMS, 1, 1, el_ref_expand_dims),
    REF(EL_OP_SHAPE, 1, 1, el_ref_shape),
    /* concat.c */
    OPT(EL_OP_CONCATENATION, 1, 7, el_ref_concatenation, el_opt_concatenation),
    REF(EL_OP_PACK, 1, 5, el_ref_pack),
    REF(EL_OP_UNPACK, 1, 6, el_ref_unpack),
    REF(EL_OP_SPLIT, 1, 5, el_ref_split),
    REF(EL_OP_SPLIT_V, 1, 3, el_ref_split_v),
    /* slice.c, transpose.c, pad.c, resize.c, gather.c */
    REF(EL_OP_STRIDED_SLICE, 1, 8, el_ref_strided_slice),
    REF(EL_OP_SLICE, 1, 8, el_ref_slice),
    REF(EL_OP_TRANSPOSE, 1, 9, el_ref_transpose),
    OPT(EL_OP_PAD, 1, 6, el_ref_pad, el_opt_pad),
    OPT(EL_OP_PADV2, 1, 6, el_ref_padv2, el_opt_padv2),
    OPT(EL_OP_RESIZE_BILINEAR, 1, 4, el_ref_resize_bilinear, el_opt_resize_bilinear),
    REF(EL_OP_RESIZE_NEAREST_NEIGHBOR, 1, 4, el_ref_resize_nearest_neighbor),
    REF(EL_OP_GATHER, 1, 8, el_ref_gather),
    /* cast.c, dequantize.c */
    OPT(EL_OP_CAST, 1, 9, el_ref_cast, el_opt_cast),
    OPT(EL_OP_DEQUANTIZE, 1, 9, el_ref_dequantize, el_opt_dequantize),
    /* quantize.c, l2_norm.c, arg_min_max.c, transpose_conv.c */
    OPT(EL_OP_QUANTIZE, 1, 6, el_ref_quantize, el_opt_quantize),
    REF(EL_OP_L2_NORMALIZATION, 1, 2, el_ref_l2_normalization),
    OPT(EL_OP_ARG_MAX, 1, 3, el_ref_arg_max, el_opt_arg_max),
    OPT(EL_OP_ARG_MIN, 1, 3, el_ref_arg_min, el_opt_arg_min),
    REF(EL_OP_TRANSPOSE_CONV, 1, 5, el_ref_transpose_conv),
};

static const kernel_entry* entry_of(int32_t builtin_code) {
#ifdef EDGELITE_OP_SELECTION
  for (size_t i = 1; i < sizeof kTable / sizeof kTable[0]; ++i) {
    if (kTable[i].code == builtin_code) return &kTable[i];
  }
  return NULL;
#else
  if (builtin_code < 0 || builtin_code >= EL_OP_COUNT) return NULL;
  const kernel_entry* e = &kTable[builtin_code];
  return e->reference ? e : NULL;
#endif
}

const TfLiteRegistration* el_kernels_lookup(int32_t builtin_code, int version, el_kernel_tier tier) {
  const kernel_entry* e = entry_of(builtin_code);
  if (e == NULL || version < e->min_version || version > e->max_version) return NULL;
  if (tier == EL_TIER_OPTIMIZED && e->optimized != NULL) return e->optimized;
  return e->reference;
}

const TfLiteRegistration* el_kernels_lookup_custom(const char* name, int version, el_kernel_tier tier) {
  (void)tier;
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_TFLite_Detection_PostProcess)
  if (name != NULL && strcmp(name, "TFLite_Detection_PostProcess") == 0 && version <= 1) {
    return &el_ref_detection_postprocess;
  }
#else
  (void)name;
  (void)version;
#endif
  return el_signal_lookup(name, version);
}

int el_kernels_max_version(int32_t builtin_code) {
  const kernel_entry* e = entry_of(builtin_code);
  return e ? e->max_version : 0;
}
