/* Every kernel registration edgelite ships, and the small helpers all kernels share to define
 * one. The registry (registry.c) maps (builtin code, version, tier) to these objects. */
#ifndef EDGELITE_KERNELS_KERNELS_H_
#define EDGELITE_KERNELS_KERNELS_H_

#include <stddef.h>

#include "edgelite/common.h"
#include "kernels/builtin_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* init/free for kernels whose per-node state is one zeroed struct of `size` bytes. The
 * struct is allocated in init (never in invoke) and released by el_kernel_free. */
void* el_kernel_alloc(size_t size);
void el_kernel_free(TfLiteContext* context, void* buffer);

/* A registration literal. `version` stays 0: the core copies the registration into the node
 * and stamps the op's builtin code and model version on its copy, as TFLite's resolver does. */
#define EL_REGISTRATION(init_fn, free_fn, prepare_fn, invoke_fn, code) \
  { (init_fn), (free_fn), (prepare_fn), (invoke_fn), NULL, (code), NULL, 0, NULL, NULL, 0 }

/* el_ref_<name>, one op of a kernel family whose prepare and invoke take the op as a third
 * argument: family##_prepare(ctx, node, OP) and family##_invoke(ctx, node, OP). */
#define EL_FAMILY_REGISTRATION(name, family, OP, init_fn, free_fn, code)                  \
  static TfLiteStatus name##_prepare(TfLiteContext* ctx, TfLiteNode* node) {              \
    return family##_prepare(ctx, node, OP);                                               \
  }                                                                                       \
  static TfLiteStatus name##_invoke(TfLiteContext* ctx, TfLiteNode* node) {               \
    return family##_invoke(ctx, node, OP);                                                \
  }                                                                                       \
  const TfLiteRegistration el_ref_##name =                                                \
      EL_REGISTRATION(init_fn, free_fn, name##_prepare, name##_invoke, code)

/* elementwise_binary.c */
extern const TfLiteRegistration el_ref_add;
extern const TfLiteRegistration el_ref_sub;
extern const TfLiteRegistration el_ref_mul;
extern const TfLiteRegistration el_ref_div;
extern const TfLiteRegistration el_ref_maximum;
extern const TfLiteRegistration el_ref_minimum;
extern const TfLiteRegistration el_ref_squared_difference;
extern const TfLiteRegistration el_ref_pow;
extern const TfLiteRegistration el_ref_floor_div;
extern const TfLiteRegistration el_ref_floor_mod;

/* comparisons.c */
extern const TfLiteRegistration el_ref_equal;
extern const TfLiteRegistration el_ref_not_equal;
extern const TfLiteRegistration el_ref_less;
extern const TfLiteRegistration el_ref_less_equal;
extern const TfLiteRegistration el_ref_greater;
extern const TfLiteRegistration el_ref_greater_equal;
extern const TfLiteRegistration el_ref_logical_and;
extern const TfLiteRegistration el_ref_logical_or;

/* elementwise_unary.c */
extern const TfLiteRegistration el_ref_abs;
extern const TfLiteRegistration el_ref_neg;
extern const TfLiteRegistration el_ref_sqrt;
extern const TfLiteRegistration el_ref_rsqrt;
extern const TfLiteRegistration el_ref_exp;
extern const TfLiteRegistration el_ref_log;
extern const TfLiteRegistration el_ref_sin;
extern const TfLiteRegistration el_ref_cos;
extern const TfLiteRegistration el_ref_square;
extern const TfLiteRegistration el_ref_floor;
extern const TfLiteRegistration el_ref_ceil;
extern const TfLiteRegistration el_ref_round;
extern const TfLiteRegistration el_ref_sign;
extern const TfLiteRegistration el_ref_logical_not;

/* activations.c */
extern const TfLiteRegistration el_ref_relu;
extern const TfLiteRegistration el_ref_relu6;
extern const TfLiteRegistration el_ref_relu_n1_to_1;
extern const TfLiteRegistration el_ref_relu_0_to_1;
extern const TfLiteRegistration el_ref_logistic;
extern const TfLiteRegistration el_ref_tanh;
extern const TfLiteRegistration el_ref_leaky_relu;
extern const TfLiteRegistration el_ref_hard_swish;
extern const TfLiteRegistration el_ref_elu;
extern const TfLiteRegistration el_ref_gelu;
extern const TfLiteRegistration el_ref_prelu;

/* softmax.c */
extern const TfLiteRegistration el_ref_softmax;
extern const TfLiteRegistration el_ref_log_softmax;

/* conv.c, depthwise_conv.c, fully_connected.c, pooling.c */
extern const TfLiteRegistration el_ref_conv_2d;
extern const TfLiteRegistration el_ref_depthwise_conv_2d;
extern const TfLiteRegistration el_ref_fully_connected;
extern const TfLiteRegistration el_ref_average_pool_2d;
extern const TfLiteRegistration el_ref_max_pool_2d;
extern const TfLiteRegistration el_ref_l2_pool_2d;

/* reduce.c */
extern const TfLiteRegistration el_ref_mean;
extern const TfLiteRegistration el_ref_sum;
extern const TfLiteRegistration el_ref_reduce_max;
extern const TfLiteRegistration el_ref_reduce_min;
extern const TfLiteRegistration el_ref_reduce_prod;

/* reshape_ops.c */
extern const TfLiteRegistration el_ref_reshape;
extern const TfLiteRegistration el_ref_squeeze;
extern const TfLiteRegistration el_ref_expand_dims;
extern const TfLiteRegistration el_ref_shape;

/* concat.c, slice.c, transpose.c, pad.c, resize.c, gather.c */
extern const TfLiteRegistration el_ref_concatenation;
extern const TfLiteRegistration el_ref_pack;
extern const TfLiteRegistration el_ref_unpack;
extern const TfLiteRegistration el_ref_split;
extern const TfLiteRegistration el_ref_split_v;
extern const TfLiteRegistration el_ref_strided_slice;
extern const TfLiteRegistration el_ref_slice;
extern const TfLiteRegistration el_ref_transpose;
extern const TfLiteRegistration el_ref_pad;
extern const TfLiteRegistration el_ref_padv2;
extern const TfLiteRegistration el_ref_resize_bilinear;
extern const TfLiteRegistration el_ref_resize_nearest_neighbor;
extern const TfLiteRegistration el_ref_gather;

/* cast.c, dequantize.c */
extern const TfLiteRegistration el_ref_cast;
extern const TfLiteRegistration el_ref_dequantize;

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_KERNELS_H_ */
