#include "kernels/softmax_quant.h"

#include <math.h>
#include <stddef.h>

#include "edgelite/builtin_op_data.h"
#include "kernels/kernel_util.h"
#include "kernels/quant_util.h"

enum { kScaledDiffIntegerBits = 5, kAccumulationIntegerBits = 12 };

typedef struct el_softmax_q {
  int32_t input_multiplier;
  int input_left_shift;
  int diff_min;
  int16_t exp_lut[513];
  int16_t one_over_one_plus_x_lut[513];
} el_softmax_q;

static double exp_fn(double x) { return exp(x); }
static double one_over_one_plus_x_fn(double x) { return 1.0 / (1.0 + x); }

TfLiteStatus el_softmax_prepare_quant(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteSoftmaxParams* params = (const TfLiteSoftmaxParams*)node->builtin_data;
  EL_ENSURE(context, params != NULL);
  EL_ENSURE_OK(context, el_check_io_count(context, node, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &input));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  /* Only int16 inputs read the lookup tables: 8-bit nodes keep their 2 KB out of persistent
   * memory. */
  const size_t state_bytes =
      input->type == kTfLiteInt16 ? sizeof(el_softmax_q) : offsetof(el_softmax_q, exp_lut);
  el_softmax_q* q = (el_softmax_q*)el_q_state(context, &node->user_data, state_bytes);
  EL_ENSURE(context, q != NULL);
  EL_ENSURE(context, el_ndims(input) >= 1);
  if (input->type == kTfLiteInt8 && output->type == kTfLiteInt8) {
    EL_ENSURE_EQ(context, output->params.zero_point, -128);
    EL_ENSURE(context, fabsf(output->params.scale - 1.0f / 256) <= 0.001f * 1.0f / 256);
  } else if (input->type == kTfLiteInt16 && output->type == kTfLiteInt16) {
    EL_ENSURE_EQ(context, output->params.zero_point, 0);
    EL_ENSURE(context, fabsf(output->params.scale - 1.0f / 32768) <= 0.001f * 1.0f / 32768);
  }
  if (input->type == kTfLiteUInt8) {
    EL_ENSURE(context, output->type == kTfLiteUInt8 || output->type == kTfLiteInt16);
  } else if (input->type == kTfLiteInt8) {
    EL_ENSURE(context, output->type == kTfLiteInt8 || output->type == kTfLiteInt16);
  } else {
    EL_ENSURE_TYPES_EQ(context, input->type, kTfLiteInt16);
    EL_ENSURE_TYPES_EQ(context, output->type, kTfLiteInt16);
  }

  if (input->type == kTfLiteInt16) {
    EL_ENSURE(context, el_ndims(input) <= 4);
    EL_ENSURE_EQ(context, input->params.zero_point, 0);
    const int32_t range = INT16_MAX - INT16_MIN;
    el_q_lut_populate_int16(10.0 / range, INT16_MAX, 2.0 / range, 0, exp_fn, q->exp_lut);
    el_q_lut_populate_int16(1.0 / range, INT16_MIN, 2.0 / range, 0, one_over_one_plus_x_fn,
                            q->one_over_one_plus_x_lut);
    /* Scales the input difference so that [-65535, 0] covers [-10, 0]; the scale product is
     * formed in float first, as TFLite does. */
    const float scale_beta = input->params.scale * params->beta;
    el_q_quantize_multiplier((double)scale_beta / (10.0 / 65535.0), &q->input_multiplier,
                             &q->input_left_shift);
  } else {
    if (el_q_preprocess_softmax_scaling((double)params->beta, (double)input->params.scale,
                                        kScaledDiffIntegerBits, &q->input_multiplier,
                                        &q->input_left_shift) != kTfLiteOk) {
      context->ReportError(context, "SOFTMAX input scale times beta is too small to quantize.");
      return kTfLiteError;
    }
    q->diff_min = -el_q_calculate_input_radius(kScaledDiffIntegerBits, q->input_left_shift, 31);
  }
  return el_resize_like(context, output, input);
}

/* Softmax of one row of 8-bit inputs, written as an integer of `out_bits` with minimum out_min. */
#define SOFTMAX_8BIT_ROW(IN_T, OUT_T, out_min, out_max, out_bits)                                \
  do {                                                                                          \
    int32_t max_in_row = in[0];                                                                 \
    for (int c = 1; c < depth; ++c) if (in[c] > max_in_row) max_in_row = in[c];                 \
    int32_t sum_of_exps = 0; /* Q12.19 */                                                       \
    for (int c = 0; c < depth; ++c) {                                                           \
      const int32_t diff = (int32_t)in[c] - max_in_row;                                         \
      if (diff >= q->diff_min) {                                                                \
        const int32_t scaled = el_q_mbqm_greater_than_one(diff, q->input_multiplier,           \
                                                           q->input_left_shift);               \
        const int32_t e = el_fp_exp_on_negative_values(scaled, kScaledDiffIntegerBits);        \
        sum_of_exps += el_q_rdbpot(e, kAccumulationIntegerBits);                                \
      }                                                                                         \
    }                                                                                           \
    int num_bits_over_unit = 0;                                                                 \
    const int32_t shifted_scale =                                                               \
        el_fp_get_reciprocal(sum_of_exps, kAccumulationIntegerBits, &num_bits_over_unit);      \
    const int exponent = num_bits_over_unit + 31 - (out_bits);                                  \
    for (int c = 0; c < depth; ++c) {                                                           \
      const int32_t diff = (int32_t)in[c] - max_in_row;                                         \
      if (diff >= q->diff_min) {                                                                \
        const int32_t scaled = el_q_mbqm_greater_than_one(diff, q->input_multiplier,           \
                                                           q->input_left_shift);               \
        const int32_t e = el_fp_exp_on_negative_values(scaled, kScaledDiffIntegerBits);        \
        const int32_t unsat = el_q_rdbpot(el_q_srdhm(shifted_scale, e), exponent);             \
        out[c] = (OUT_T)el_q_clamp(unsat + (out_min), (out_min), (out_max));                   \
      } else {                                                                                  \
        out[c] = (OUT_T)(out_min);                                                              \
      }                                                                                         \
    }                                                                                           \
  } while (0)

#define SOFTMAX_8BIT(IN_T, in_field, OUT_T, out_field, out_min, out_max, out_bits) \
  do {                                                                            \
    for (int64_t r = 0; r < rows; ++r) {                                          \
      const IN_T* in = input->data.in_field + r * depth;                          \
      OUT_T* out = output->data.out_field + r * depth;                            \
      SOFTMAX_8BIT_ROW(IN_T, OUT_T, out_min, out_max, out_bits);                  \
    }                                                                             \
  } while (0)

static void softmax_int16(const el_softmax_q* q, int64_t rows, int depth, const int16_t* input,
                          int16_t* output) {
  for (int64_t r = 0; r < rows; ++r) {
    const int16_t* in = input + r * depth;
    int16_t* out = output + r * depth;
    int16_t max_in_row = INT16_MIN;
    for (int c = 0; c < depth; ++c) if (in[c] > max_in_row) max_in_row = in[c];
    /* exp(x - max) in Q0.15, cached in the output row. */
    int32_t sum_of_exps = 0;
    for (int c = 0; c < depth; ++c) {
      const int32_t diff = (int32_t)in[c] - max_in_row;
      const int32_t scaled = el_q_mbqm(diff, q->input_multiplier, q->input_left_shift);
      const int16_t sym = (int16_t)el_q_clamp(scaled + 32767, INT16_MIN, INT16_MAX);
      out[c] = el_q_lut_lookup_int16(sym, q->exp_lut);
      sum_of_exps += out[c];
    }
    const int headroom_plus_one = sum_of_exps == 0 ? 32 : __builtin_clz((uint32_t)sum_of_exps);
    const int32_t shifted_sum =
        (int32_t)((((int64_t)sum_of_exps << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    const int32_t sym_shifted_sum = shifted_sum - ((1 << 15) + (1 << 16));
    const int16_t sat = (int16_t)el_q_clamp(sym_shifted_sum, INT16_MIN, INT16_MAX);
    const int16_t reciprocal = el_q_lut_lookup_int16(sat, q->one_over_one_plus_x_lut);
    const int right_shift = 31 - headroom_plus_one;
    const int64_t round_term = (int64_t)(1 << (right_shift - 1));
    for (int c = 0; c < depth; ++c) {
      const int32_t result =
          (int32_t)(((int64_t)out[c] * (int64_t)reciprocal + round_term) >> right_shift);
      out[c] = (int16_t)el_q_clamp(result, 0, 32767);
    }
  }
}

TfLiteStatus el_softmax_invoke_quant(TfLiteContext* context, TfLiteNode* node) {
  const el_softmax_q* q = (const el_softmax_q*)node->user_data;
  EL_ENSURE(context, q != NULL);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &input));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  const int depth = input->dims->data[el_ndims(input) - 1];
  if (depth == 0) return kTfLiteOk;
  const int64_t rows = el_num_elements(input) / depth;
  if (input->type == kTfLiteInt16) {
    softmax_int16(q, rows, depth, input->data.i16, output->data.i16);
    return kTfLiteOk;
  }
  if (input->type == kTfLiteInt8) {
    if (output->type == kTfLiteInt8) {
      SOFTMAX_8BIT(int8_t, int8, int8_t, int8, -128, 127, 8);
    } else {
      SOFTMAX_8BIT(int8_t, int8, int16_t, i16, INT16_MIN, INT16_MAX, 16);
    }
    return kTfLiteOk;
  }
  if (output->type == kTfLiteUInt8) {
    SOFTMAX_8BIT(uint8_t, uint8, uint8_t, uint8, 0, 255, 8);
  } else {
    SOFTMAX_8BIT(uint8_t, uint8, int16_t, i16, INT16_MIN, INT16_MAX, 16);
  }
  return kTfLiteOk;
}

/* ---- LOG_SOFTMAX --------------------------------------------------------------------------- */

typedef struct el_log_softmax_q {
  int32_t input_multiplier;
  int input_left_shift;
  int32_t reverse_scaling_divisor;
  int reverse_scaling_right_shift;
  int diff_min;
} el_log_softmax_q;

enum { kLogSoftmaxOutputIntegerBits = 4 };

TfLiteStatus el_log_softmax_prepare_quant(TfLiteContext* context, TfLiteNode* node) {
  el_log_softmax_q* q =
      (el_log_softmax_q*)el_q_state(context, &node->user_data, sizeof(el_log_softmax_q));
  EL_ENSURE(context, q != NULL);
  EL_ENSURE_OK(context, el_check_io_count(context, node, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &input));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  EL_ENSURE_TYPES_EQ(context, input->type, output->type);
  EL_ENSURE(context, input->type == kTfLiteUInt8 || input->type == kTfLiteInt8);
  EL_ENSURE(context, el_ndims(input) >= 1);
  /* The output covers [-16, 0]: scale 16/256, zero point at the top of the type. */
  EL_ENSURE(context, output->params.scale == 16.0f / 256);
  EL_ENSURE_EQ(context, output->params.zero_point, input->type == kTfLiteUInt8 ? 255 : 127);

  /* Input differences in Q5.26 (beta 1), and the inverse of that scaling to map the smallest
   * representable log-probability back to an input difference. */
  if (el_q_preprocess_softmax_scaling(1.0, (double)input->params.scale, kScaledDiffIntegerBits,
                                      &q->input_multiplier, &q->input_left_shift) != kTfLiteOk) {
    context->ReportError(context, "LOG_SOFTMAX input scale is too small to quantize.");
    return kTfLiteError;
  }
  const double real_reverse_scaling_divisor =
      (double)(1LL << (31 - q->input_left_shift)) / (double)q->input_multiplier;
  int reverse_left_shift = 0;
  if (el_q_quantize_multiplier_smaller_than_one(real_reverse_scaling_divisor,
                                                &q->reverse_scaling_divisor,
                                                &reverse_left_shift) != kTfLiteOk) {
    context->ReportError(context, "LOG_SOFTMAX input scale is too large to quantize.");
    return kTfLiteError;
  }
  q->reverse_scaling_right_shift = -reverse_left_shift;
  q->diff_min = -el_q_calculate_input_radius(kScaledDiffIntegerBits, q->input_left_shift, 31);
  return el_resize_like(context, output, input);
}

/* One row: log(softmax) = diff - log(sum exp(diff)), all in Q5.26, requantized to Q4.27 steps
 * of 1/16 below the zero point `top`. Differences too small to show are the type's minimum. */
#define LOG_SOFTMAX_ROW(T, type_min, top)                                                        \
  do {                                                                                          \
    int32_t max_in_row = (type_min);                                                            \
    for (int c = 0; c < depth; ++c) if (in[c] > max_in_row) max_in_row = in[c];                 \
    int32_t sum_of_exps = 0; /* Q12.19 */                                                       \
    for (int c = 0; c < depth; ++c) {                                                           \
      const int32_t diff = (int32_t)in[c] - max_in_row;                                         \
      if (diff >= q->diff_min) {                                                                \
        const int32_t scaled = el_q_mbqm(diff, q->input_multiplier, q->input_left_shift);      \
        const int32_t e = el_fp_exp_on_negative_values(scaled, kScaledDiffIntegerBits);        \
        sum_of_exps = (int32_t)((uint32_t)sum_of_exps +                                         \
                                (uint32_t)el_q_rdbpot(e, kAccumulationIntegerBits));            \
      }                                                                                         \
    }                                                                                           \
    const int32_t log_sum = el_fp_log_x_for_x_greater_than_or_equal_to_1(                       \
        sum_of_exps, kAccumulationIntegerBits, kScaledDiffIntegerBits);                         \
    const int32_t shifted_log_sum = (int32_t)((uint32_t)log_sum + (uint32_t)INT32_MIN);         \
    int32_t adjusted_diff_min =                                                                 \
        el_q_mbqm(shifted_log_sum, q->reverse_scaling_divisor, -q->reverse_scaling_right_shift); \
    if (q->diff_min - 1 > adjusted_diff_min) adjusted_diff_min = q->diff_min - 1;               \
    for (int c = 0; c < depth; ++c) {                                                           \
      const int32_t diff = (int32_t)in[c] - max_in_row;                                         \
      if (diff > adjusted_diff_min) {                                                           \
        const int32_t scaled = el_q_mbqm(diff, q->input_multiplier, q->input_left_shift);      \
        const int32_t v = el_q_rdbpot((int32_t)((uint32_t)scaled - (uint32_t)log_sum),          \
                                      31 - kScaledDiffIntegerBits - kLogSoftmaxOutputIntegerBits) + \
                          (top);                                                                \
        out[c] = (T)el_q_clamp(v, (type_min), (top));                                           \
      } else {                                                                                  \
        out[c] = (T)(type_min);                                                                 \
      }                                                                                         \
    }                                                                                           \
  } while (0)

TfLiteStatus el_log_softmax_invoke_quant(TfLiteContext* context, TfLiteNode* node) {
  const el_log_softmax_q* q = (const el_log_softmax_q*)node->user_data;
  EL_ENSURE(context, q != NULL);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &input));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &output));
  const int depth = input->dims->data[el_ndims(input) - 1];
  if (depth == 0) return kTfLiteOk;
  const int64_t rows = el_num_elements(input) / depth;
  for (int64_t r = 0; r < rows; ++r) {
    if (input->type == kTfLiteInt8) {
      const int8_t* in = input->data.int8 + r * depth;
      int8_t* out = output->data.int8 + r * depth;
      LOG_SOFTMAX_ROW(int8_t, -128, 127);
    } else {
      const uint8_t* in = input->data.uint8 + r * depth;
      uint8_t* out = output->data.uint8 + r * depth;
      LOG_SOFTMAX_ROW(uint8_t, 0, 255);
    }
  }
  return kTfLiteOk;
}
