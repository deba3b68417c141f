#include "kernels/quant_util.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

/* ---- scalar rounding ---------------------------------------------------------------------- */

void el_q_quantize_multiplier(double m, int32_t* q, int* shift) {
  if (!(m > 0.0)) {
    *q = 0;
    *shift = 0;
    return;
  }
  if (m >= 2147483648.0) {
    *q = INT32_MAX;
    *shift = 31;
    return;
  }
  int exp = 0;
  const double frac = frexp(m, &exp);
  int64_t q_fixed = (int64_t)round(frac * (double)(1LL << 31));
  if (q_fixed == (1LL << 31)) {
    q_fixed /= 2;
    ++exp;
  }
  /* Below 2^-31 every product rounds to zero; encode that as a zero multiplier so no shift
   * ever exceeds 31. */
  if (exp < -31) {
    exp = 0;
    q_fixed = 0;
  }
  *q = (int32_t)q_fixed;
  *shift = exp;
}

TfLiteStatus el_q_quantize_multiplier_smaller_than_one(double m, int32_t* q, int* shift) {
  if (!(m >= 0.0 && m < 1.0)) return kTfLiteError;
  el_q_quantize_multiplier(m, q, shift);
  return *shift <= 0 ? kTfLiteOk : kTfLiteError;
}

TfLiteStatus el_q_quantize_multiplier_greater_than_one(double m, int32_t* q, int* shift) {
  if (!(m > 1.0)) return kTfLiteError;
  el_q_quantize_multiplier(m, q, shift);
  return *shift >= 0 ? kTfLiteOk : kTfLiteError;
}

/* ---- quantization parameters -------------------------------------------------------------- */

TfLiteStatus el_q_type_range(TfLiteType type, int32_t* qmin, int32_t* qmax) {
  switch (type) {
    case kTfLiteUInt8:
      *qmin = 0;
      *qmax = 255;
      return kTfLiteOk;
    case kTfLiteInt8:
      *qmin = -128;
      *qmax = 127;
      return kTfLiteOk;
    case kTfLiteInt16:
      *qmin = INT16_MIN;
      *qmax = INT16_MAX;
      return kTfLiteOk;
    case kTfLiteInt32:
      *qmin = INT32_MIN;
      *qmax = INT32_MAX;
      return kTfLiteOk;
    default:
      return kTfLiteError;
  }
}

/* The quantized value of real f, computed in float like TFLite's kernel_util. */
static TfLiteStatus quantize_value(float scale, int32_t zero_point, float f, int32_t* q) {
  const float tmp = roundf(f / scale);
  if (!(tmp >= (float)INT32_MIN && tmp <= (float)INT32_MAX)) return kTfLiteError;
  *q = zero_point + (int32_t)tmp;
  return kTfLiteOk;
}

TfLiteStatus el_q_activation_range(TfLiteFusedActivation act, TfLiteType type, float scale,
                                   int32_t zero_point, int32_t* act_min, int32_t* act_max) {
  int32_t qmin = 0;
  int32_t qmax = 0;
  if (type != kTfLiteUInt8 && type != kTfLiteInt8 && type != kTfLiteInt16) return kTfLiteError;
  if (el_q_type_range(type, &qmin, &qmax) != kTfLiteOk) return kTfLiteError;
  int32_t q = 0;
  switch (act) {
    case kTfLiteActRelu:
      if (quantize_value(scale, zero_point, 0.0f, &q) != kTfLiteOk) return kTfLiteError;
      *act_min = q > qmin ? q : qmin;
      *act_max = qmax;
      return kTfLiteOk;
    case kTfLiteActRelu6:
      if (quantize_value(scale, zero_point, 0.0f, &q) != kTfLiteOk) return kTfLiteError;
      *act_min = q > qmin ? q : qmin;
      if (quantize_value(scale, zero_point, 6.0f, &q) != kTfLiteOk) return kTfLiteError;
      *act_max = q < qmax ? q : qmax;
      return kTfLiteOk;
    case kTfLiteActReluN1To1:
      if (quantize_value(scale, zero_point, -1.0f, &q) != kTfLiteOk) return kTfLiteError;
      *act_min = q > qmin ? q : qmin;
      if (quantize_value(scale, zero_point, 1.0f, &q) != kTfLiteOk) return kTfLiteError;
      *act_max = q < qmax ? q : qmax;
      return kTfLiteOk;
    default:
      *act_min = qmin;
      *act_max = qmax;
      return kTfLiteOk;
  }
}

const TfLiteAffineQuantization* el_q_affine(const TfLiteTensor* t) {
  if (t == NULL || t->quantization.type != kTfLiteAffineQuantization) return NULL;
  return (const TfLiteAffineQuantization*)t->quantization.params;
}

float el_q_scale(const TfLiteTensor* t) { return t->params.scale; }

int32_t el_q_zero_point(const TfLiteTensor* t) { return t->params.zero_point; }

bool el_q_is_per_channel(const TfLiteTensor* t) {
  const TfLiteAffineQuantization* aq = el_q_affine(t);
  return aq != NULL && aq->scale != NULL && aq->scale->size > 1;
}

double el_q_channel_real_multiplier(const TfLiteTensor* input, const TfLiteAffineQuantization* filter_q, int c,
                                    const TfLiteTensor* output) {
  const double filter_scale = (double)filter_q->scale->data[filter_q->scale->size > 1 ? c : 0];
  return (double)input->params.scale * filter_scale / (double)output->params.scale;
}

TfLiteStatus el_q_conv_multipliers(TfLiteContext* context, const TfLiteTensor* input,
                                   const TfLiteTensor* filter, const TfLiteTensor* output,
                                   int num_channels, int32_t* multipliers, int32_t* shifts) {
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  if (aq == NULL || aq->scale == NULL || aq->scale->size < 1) {
    context->ReportError(context, "Filter of a quantized convolution has no quantization scale.");
    return kTfLiteError;
  }
  const bool per_channel = aq->scale->size > 1;
  if (per_channel && aq->scale->size != num_channels) {
    context->ReportError(context, "Filter has %d scales for %d output channels.",
                         aq->scale->size, num_channels);
    return kTfLiteError;
  }
  for (int c = 0; c < num_channels; ++c) {
    int shift = 0;
    el_q_quantize_multiplier(el_q_channel_real_multiplier(input, aq, c, output), &multipliers[c], &shift);
    shifts[c] = shift;
  }
  return kTfLiteOk;
}

bool el_q_accumulators_bounded(const TfLiteTensor* input, const TfLiteTensor* filter,
                               const TfLiteTensor* bias, const TfLiteTensor* output, int channels,
                               bool channel_last) {
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  if (aq == NULL || aq->scale == NULL || aq->scale->size < 1 || channels <= 0 ||
      filter->dims == NULL || filter->data.raw_const == NULL) {
    return false;
  }
  const bool per_channel = aq->scale->size > 1;
  if (per_channel && aq->scale->size != channels) return false;
  if (filter->type != kTfLiteInt8 && filter->type != kTfLiteUInt8) return false;
  if (bias != NULL && (bias->type != kTfLiteInt32 || bias->data.raw_const == NULL)) return false;
  int64_t n = 1;
  for (int i = 0; i < filter->dims->size; ++i) n *= filter->dims->data[i];
  if (n <= 0 || n % channels != 0) return false;
  if (bias != NULL && (int64_t)bias->bytes < (int64_t)channels * 4) return false;
  const int64_t taps = n / channels;
  const int32_t w_off = per_channel ? 0 : -filter->params.zero_point;
  /* |x - x_zp| <= 255 for any 8-bit input with a zero point of its type. */
  const double span = 255.0;
  for (int c = 0; c < channels; ++c) {
    int64_t abs_sum = 0;
    for (int64_t t = 0; t < taps; ++t) {
      const int64_t i = channel_last ? t * channels + c : (int64_t)c * taps + t;
      const int32_t w = (filter->type == kTfLiteInt8 ? (int32_t)filter->data.int8[i]
                                                     : (int32_t)filter->data.uint8[i]) + w_off;
      abs_sum += w < 0 ? -w : w;
    }
    const double b = bias != NULL ? fabs((double)bias->data.i32[c]) : 0.0;
    const double worst = span * (double)abs_sum + b;
    const double mult = (double)input->params.scale * (double)aq->scale->data[per_channel ? c : 0] /
                        (double)output->params.scale;
    if (!(2.0 * worst <= (double)INT32_MAX && worst * mult <= 1073741824.0)) return false;
  }
  return true;
}

TfLiteStatus el_q_check_mbqm64_shifts(TfLiteContext* context, const int8_t* shifts, int first, int n) {
  for (int c = 0; c < n; ++c) {
    if (shifts[c] > EL_Q_MBQM64_MAX_SHIFT) {
      context->ReportError(context,
                           "Channel %d: input scale * filter scale / output scale is 2^%d, too "
                           "large for a 16x8 kernel.",
                           first + c, (int)shifts[c]);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus el_q_legacy_conv_multiplier(TfLiteContext* context, const TfLiteTensor* input,
                                         const TfLiteTensor* filter, const TfLiteTensor* bias,
                                         const TfLiteTensor* output, double* multiplier) {
  if (bias != NULL) {
    const double product = (double)input->params.scale * (double)filter->params.scale;
    const double diff = fabs(product - (double)bias->params.scale);
    if (diff / (double)output->params.scale > 0.02) {
      context->ReportError(context,
                           "Bias scale %g does not match input scale times filter scale %g.",
                           (double)bias->params.scale, product);
      return kTfLiteError;
    }
  }
  /* The product is formed in float, as TFLite does on this legacy path. */
  const double product_f = (double)(input->params.scale * filter->params.scale);
  if (!(product_f >= 0.0)) return kTfLiteError;
  *multiplier = product_f / (double)output->params.scale;
  return kTfLiteOk;
}

void* el_q_state(TfLiteContext* context, void** slot, size_t bytes) {
  if (*slot == NULL) {
    void* p = context->AllocatePersistentBuffer(context, bytes);
    if (p == NULL) return NULL;
    memset(p, 0, bytes);
    *slot = p;
  }
  return *slot;
}

TfLiteStatus el_q_channel_buffer(TfLiteContext* context, int n, size_t elem, int* capacity,
                                 void** data) {
  if (*data != NULL && n <= *capacity) return kTfLiteOk;
  const size_t count = (size_t)(n > 0 ? n : 1);
  void* p = context->AllocatePersistentBuffer(context, count * elem);
  if (p == NULL) return kTfLiteError;
  *data = p;
  *capacity = n;
  return kTfLiteOk;
}

bool el_q_checked_log2(float x, int* log2_result) {
  if (x <= 0.0f) return false;
  const float x_log2 = logf(x) * (1.0f / logf(2.0f));
  const float rounded = roundf(x_log2);
  *log2_result = (int)rounded;
  return fabsf(x_log2 - rounded) < 1e-3f;
}

/* ---- fixed point (gemmlowp) --------------------------------------------------------------- */

/* Multiplication by 2^exponent with saturation (exponent > 0) or rounding (exponent < 0). */
static int32_t sat_round_mul_pot(int32_t x, int exponent) {
  if (exponent == 0) return x;
  if (exponent < 0) return el_q_rdbpot(x, -exponent);
  const int32_t threshold = (int32_t)((1LL << (31 - exponent)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return (int32_t)(uint32_t)((uint32_t)x << exponent);
}

/* exp(x) for x in [-1/4, 0), Q0.31 in and out: a Taylor expansion around -1/8. */
static int32_t exp_on_interval_between_negative_one_quarter_and_0_excl(int32_t a) {
  const int32_t constant_term = 1895147668;  /* exp(-1/8) in Q0.31 */
  const int32_t constant_1_over_3 = 715827883; /* 1/3 in Q0.31 */
  const int32_t x = a + (1 << 28);             /* a + 1/8 */
  const int32_t x2 = el_q_srdhm(x, x);
  const int32_t x3 = el_q_srdhm(x2, x);
  const int32_t x4 = el_q_srdhm(x2, x2);
  const int32_t x4_over_4 = sat_round_mul_pot(x4, -2);
  const int32_t poly =
      sat_round_mul_pot(el_q_srdhm(x4_over_4 + x3, constant_1_over_3) + x2, -1);
  return constant_term + el_q_srdhm(constant_term, x + poly);
}

int32_t el_fp_exp_on_negative_values(int32_t a, int integer_bits) {
  const int fractional_bits = 31 - integer_bits;
  const int32_t one_quarter = (int32_t)1 << (fractional_bits - 2);
  const int32_t mask = one_quarter - 1;
  const int32_t a_mod_quarter_minus_one_quarter = (a & mask) - one_quarter;
  int32_t result = exp_on_interval_between_negative_one_quarter_and_0_excl(
      sat_round_mul_pot(a_mod_quarter_minus_one_quarter, integer_bits));
  const int32_t remainder = a_mod_quarter_minus_one_quarter - a;

  /* exp(-2^k) in Q0.31 for k = -2..4: multiply in the factor for every set bit of the rest. */
  static const int32_t kMultipliers[7] = {1672461947, 1302514674, 790015084, 290630308,
                                          39332535,   720401,     242};
  for (int k = -2; k <= 4; ++k) {
    if (integer_bits > k) {
      const int shift_amount = fractional_bits + k;
      if (remainder & ((int32_t)1 << shift_amount)) {
        result = el_q_srdhm(result, kMultipliers[k + 2]);
      }
    }
  }
  if (integer_bits > 5) {
    const int32_t clamp = -((int32_t)1 << (36 - integer_bits)); /* -32.0 */
    if (a < clamp) result = 0;
  }
  if (a == 0) result = INT32_MAX;
  return result;
}

int32_t el_fp_one_over_one_plus_x_for_x_in_0_1(int32_t a) {
  /* half_denominator = (a + 1) / 2 rounded, in Q0.31 */
  const int64_t sum = (int64_t)a + (int64_t)INT32_MAX;
  const int32_t half_denominator = (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
  /* Newton-Raphson in Q2.29, starting from 48/17 - 32/17 * d. */
  const int32_t constant_48_over_17 = 1515870810;
  const int32_t constant_neg_32_over_17 = -1010580540;
  const int32_t f2_one = (int32_t)1 << 29;
  int32_t x = constant_48_over_17 + el_q_srdhm(half_denominator, constant_neg_32_over_17);
  for (int i = 0; i < 3; ++i) {
    const int32_t half_denominator_times_x = el_q_srdhm(half_denominator, x);
    const int32_t one_minus = f2_one - half_denominator_times_x;
    x = x + sat_round_mul_pot(el_q_srdhm(x, one_minus), 2);
  }
  /* x / 2, rescaled from Q2.29 (as Q1.30) to Q0.31. */
  return sat_round_mul_pot(x, 1);
}

static int32_t sat_add32(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + (int64_t)b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

static int32_t sat_sub32(int32_t a, int32_t b) {
  const int64_t d = (int64_t)a - (int64_t)b;
  return d > INT32_MAX ? INT32_MAX : d < INT32_MIN ? INT32_MIN : (int32_t)d;
}

/* gemmlowp's non-saturating fixed-point add/sub: two's complement wrap-around. */
static int32_t wrap_add32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t wrap_sub32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }

static int32_t rounding_half_sum32(int32_t a, int32_t b) {
  const int64_t sum = (int64_t)a + (int64_t)b;
  return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

static int clz32(int32_t x) { return x == 0 ? 32 : __builtin_clz((uint32_t)x); }

int32_t el_fp_log_x_for_x_greater_than_or_equal_to_1(int32_t input, int input_integer_bits,
                                                     int output_integer_bits) {
  /* The result is accumulated with one more integer bit than the output, since
   * z_pow_2_adj * log(2) may saturate before the rational correction is added. */
  const int accum_bits = output_integer_bits + 1;
  const int32_t log_2 = 1488522236;          /* log(2), Q0.31 */
  const int32_t sqrt_sqrt_half = 1805811301; /* 2^-1/4 */
  const int32_t sqrt_half = 1518500250;      /* 2^-1/2 */
  const int32_t one_quarter = 536870912;
  const int32_t alpha_n = 117049297;  /* 11/240 * 2^1/4 */
  const int32_t alpha_d = 127690142;  /* 1/20 * 2^1/4 */
  const int32_t alpha_i = 1057819769; /* 2 / 2^1/4 - 2^1/4 */
  const int32_t alpha_f = 638450708;  /* 1/4 * 2^1/4 */
  const int32_t shifted_quarter = sat_round_mul_pot(one_quarter, -accum_bits);

  /* The input's raw bits read as Q0.31: the binary exponent is found from the headroom. */
  const int32_t z_a = input;
  const int z_a_headroom_plus_1 = clz32(z_a);
  const int32_t r_a_tmp = sat_round_mul_pot(z_a, z_a_headroom_plus_1 - 1);
  const int32_t r_a_raw = sat_round_mul_pot(el_q_srdhm(r_a_tmp, sqrt_half), 1);
  const int32_t z_a_pow_2_adj = sat_add32(
      sat_round_mul_pot(input_integer_bits - z_a_headroom_plus_1, 31 - accum_bits), shifted_quarter);

  /* z_b: as z_a, premultiplied by sqrt(1/2). */
  const int32_t z_b = el_q_srdhm(z_a, sqrt_half);
  const int z_b_headroom = clz32(z_b) - 1;
  const int32_t r_b_raw = sat_round_mul_pot(z_a, z_b_headroom);
  const int32_t z_b_pow_2_adj = sat_sub32(
      sat_round_mul_pot(input_integer_bits - z_b_headroom, 31 - accum_bits), shifted_quarter);

  const int32_t r = r_a_raw < r_b_raw ? r_a_raw : r_b_raw;
  const int32_t z_pow_2_adj = z_a_pow_2_adj > z_b_pow_2_adj ? z_a_pow_2_adj : z_b_pow_2_adj;

  const int32_t p = rounding_half_sum32(r, sqrt_sqrt_half);
  int32_t q = wrap_sub32(r, sqrt_sqrt_half);
  q = wrap_add32(q, q);
  const int32_t common_sq = el_q_srdhm(q, q);
  const int32_t num = wrap_add32(el_q_srdhm(q, r), el_q_srdhm(el_q_srdhm(q, common_sq), alpha_n));
  const int32_t denom_minus_one_0 =
      wrap_add32(el_q_srdhm(p, wrap_add32(wrap_add32(alpha_i, q), el_q_srdhm(alpha_d, common_sq))),
                 el_q_srdhm(alpha_f, q));
  const int32_t recip_denom = el_fp_one_over_one_plus_x_for_x_in_0_1(denom_minus_one_0);

  const int32_t num_scaled = sat_round_mul_pot(num, -accum_bits);
  const int32_t sum =
      wrap_add32(el_q_srdhm(z_pow_2_adj, log_2), el_q_srdhm(num_scaled, recip_denom));
  return sat_round_mul_pot(sum, accum_bits - output_integer_bits);
}

int32_t el_fp_get_reciprocal(int32_t x, int x_integer_digits, int* num_bits_over_unit) {
  const int headroom_plus_one = x == 0 ? 32 : __builtin_clz((uint32_t)x);
  *num_bits_over_unit = x_integer_digits - headroom_plus_one;
  const uint32_t normalized = headroom_plus_one >= 32 ? 0u : ((uint32_t)x << headroom_plus_one);
  const int32_t shifted_sum_minus_one = (int32_t)(normalized - ((uint32_t)1 << 31));
  return el_fp_one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one);
}

void el_q_inv_sqrt_multiplier(int32_t input, int reverse_shift, int32_t* multiplier, int* shift) {
  /* 0 and 1 both map to the largest multiplier: 0 is invalid input, 1 would overflow below. */
  if (input <= 1) {
    *multiplier = INT32_MAX;
    *shift = 0;
    return;
  }
  *shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++*shift;
  }
  const int max_left_shift_bits = __builtin_clz((uint32_t)input) - 1;
  const int left_shift_bit_pairs = max_left_shift_bits / 2 - 1;
  *shift -= left_shift_bit_pairs;
  input <<= 2 * left_shift_bit_pairs;
  /* Newton-Raphson for 1/sqrt in Q3.28, five steps from x = 1. */
  const int32_t fixedpoint_input = input >> 1;
  const int32_t half_input = el_q_rdbpot(fixedpoint_input, 1);
  const int32_t half_three = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28;
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = sat_round_mul_pot(el_q_srdhm(el_q_srdhm(x, x), x), 6);
    x = sat_round_mul_pot(el_q_srdhm(half_three, x) - el_q_srdhm(half_input, x3), 3);
  }
  x = el_q_srdhm(x, 1518500250); /* sqrt(2) / 2 in Q0.31 */
  *multiplier = x;
  if (*shift < 0) {
    *multiplier = (int32_t)((uint32_t)*multiplier << -*shift);
    *shift = 0;
  }
  *shift *= reverse_shift;
}

TfLiteStatus el_q_preprocess_softmax_scaling(double beta, double input_scale, int integer_bits,
                                             int32_t* multiplier, int* left_shift) {
  const double max_real_multiplier = (double)((1LL << 31) - 1);
  double m = beta * input_scale * (double)(1 << (31 - integer_bits));
  if (m > max_real_multiplier) m = max_real_multiplier;
  return el_q_quantize_multiplier_greater_than_one(m, multiplier, left_shift);
}

int el_q_calculate_input_radius(int integer_bits, int left_shift, int total_signed_bits) {
  const double max_input_rescaled = 1.0 * (double)((1 << integer_bits) - 1) *
                                    (double)(1LL << (total_signed_bits - integer_bits)) /
                                    (double)(1LL << left_shift);
  return (int)floor(max_input_rescaled);
}

/* ---- lookup tables ------------------------------------------------------------------------ */

void el_q_lut_populate_8bit(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                            bool is_signed, el_q_float_fn fn, uint8_t lut[256]) {
  const float inverse_scale = 1.0f / out_scale;
  const int32_t minval = is_signed ? -128 : 0;
  const int32_t maxval = is_signed ? 127 : 255;
  for (int32_t val = minval; val <= maxval; ++val) {
    const float dequantized = in_scale * (float)(val - in_zp);
    const float transformed = fn(dequantized);
    lut[(uint8_t)val] =
        (uint8_t)el_q_round_clamp(transformed * inverse_scale, out_zp, minval, maxval);
  }
}

/* NaN (from broken scales) clamps to lo, so the conversion after it stays defined. */
static double clamp_d(double v, double lo, double hi) { return v > lo ? (v > hi ? hi : v) : lo; }

void el_q_lut_populate_int16(double in_scale, int32_t in_zp, double out_scale, int32_t out_zp,
                             el_q_double_fn fn, int16_t lut[513]) {
  const double input_min = in_scale * (double)(INT16_MIN - in_zp);
  const double input_max = in_scale * (double)(INT16_MAX - in_zp);
  const double output_min = out_scale * (double)(INT16_MIN - out_zp);
  const double output_max = out_scale * (double)(INT16_MAX - out_zp);
  const int nb_steps = 512;
  const double step = (input_max - input_min) / nb_steps;
  const double half_step = step / 2;
  const double output_scaling_inv = (double)(INT16_MAX - INT16_MIN + 1) / (output_max - output_min);
  const double table_min = (double)INT16_MIN;
  const double table_max = (double)INT16_MAX;
  for (int i = 0; i < nb_steps; ++i) {
    const double val = fn(input_min + i * step);
    const double val_midpoint = fn(input_min + i * step + half_step);
    const double val_next = fn(input_min + (i + 1) * step);
    const double sample_val = round(val * output_scaling_inv);
    const double midpoint_interp_val =
        round((val_next * output_scaling_inv + round(val * output_scaling_inv)) / 2);
    const double midpoint_val = round(val_midpoint * output_scaling_inv);
    const double midpoint_err = midpoint_interp_val - midpoint_val;
    const double bias = round(midpoint_err / 2);
    lut[i] = (int16_t)clamp_d(sample_val - bias, table_min, table_max);
  }
  lut[nb_steps] = (int16_t)clamp_d(round(fn(input_max) * output_scaling_inv), table_min, table_max);
}

int16_t el_q_lut_lookup_int16(int16_t value, const int16_t lut[513]) {
  const uint16_t index = (uint16_t)(256 + (value >> 7));
  const int16_t offset = (int16_t)(value & 0x7f);
  const int16_t base = lut[index];
  const int16_t slope = (int16_t)(lut[index + 1] - lut[index]);
  const int delta = (slope * offset + 64) >> 7;
  return (int16_t)(base + delta);
}

void el_q_sigmoid_table_u16(uint16_t table[256]) {
  /* TFLite's published table of sigmoid(i/24) in Q0.16. The values are fixed data, not the
   * output of a formula (several entries differ by one from round(65536 * sigmoid(i/24))), so
   * they are spelled out to stay bit-exact with the int16 LOGISTIC and TANH kernels. */
  static const uint16_t kTable[256] = {
      32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
      41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
      48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
      54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
      58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
      61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
      63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
      64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
      64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
      65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
      65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
      65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
      65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
      65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
      65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
      65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
      65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
      65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
      65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
      65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535};
  for (int i = 0; i < 256; ++i) table[i] = kTable[i];
}
