/* SVDF's operand positions and per-node state, shared by the reference kernel (svdf.c) and the
 * optimized one (optimized/svdf_opt.c), whose state starts with this one. */
#ifndef EDGELITE_KERNELS_SVDF_H_
#define EDGELITE_KERNELS_SVDF_H_

#include <stdbool.h>
#include <stdint.h>

enum { EL_SVDF_IN = 0, EL_SVDF_W_FEATURE = 1, EL_SVDF_W_TIME = 2, EL_SVDF_BIAS = 3, EL_SVDF_STATE = 4 };

typedef struct el_svdf_data {
  int batch, input_size, filters, units, memory, rank;
  int scratch;       /* float: [batch, filters]; int8: int32 [batch, filters + units] */
  int32_t feature_a; /* int8: input x feature weights -> state */
  int feature_b;
  int32_t time_a; /* int8: state x time weights -> output */
  int time_b;
  int32_t input_zp, output_zp, state_zp;
  bool hybrid, asymmetric;
  float feature_scale;  /* hybrid: weights_feature's scale */
  float* time_weights;  /* hybrid: weights_time dequantized (persistent) */
  int32_t* row_sums;    /* hybrid: of weights_feature (persistent) */
  int time_cap, sums_cap;
  int hybrid_scratch;   /* hybrid: quantized input, scaling factors, zero points */
} el_svdf_data;

#endif /* EDGELITE_KERNELS_SVDF_H_ */
