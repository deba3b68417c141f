/* Integer arithmetic shared by every quantized kernel.
 *
 * These follow the rounding rules of TensorFlow Lite's reference kernels (the default
 * double-rounding build) so that int8/uint8/int16 outputs match LiteRT's BUILTIN_REF resolver
 * and TFLite Micro bit for bit. Each helper is a pure function of its arguments. */
#ifndef EDGELITE_KERNELS_QUANT_UTIL_H_
#define EDGELITE_KERNELS_QUANT_UTIL_H_

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "edgelite/builtin_op_data.h"
#include "edgelite/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- scalar rounding ---------------------------------------------------------------------- */

static inline int32_t el_q_clamp(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* Two's-complement wrap-around sums. TFLite's integer kernels accumulate in unchecked int32 /
 * int64, which wraps on every platform it runs on; a model whose bias or weights drive the
 * accumulator past the limits gets LiteRT's bits here, without undefined behaviour. */
static inline int32_t el_q_add_wrap(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}
static inline int64_t el_q_add_wrap64(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a + (uint64_t)b);
}
static inline int32_t el_q_sub_wrap(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a - (uint32_t)b);
}

/* round(x) + zp clamped to [lo, hi] (lo <= hi, both within +-2^30), for quantizing floats.
 * Done in float and converted last, so values beyond int32, infinities and NaN (which goes to
 * lo) clamp instead of converting out of range; exact wherever round(x) is below 2^24, beyond
 * which every value clamps anyway. */
static inline int32_t el_q_round_clamp(float x, int32_t zp, int32_t lo, int32_t hi) {
  const float v = roundf(x) + (float)zp;
  if (v > (float)hi) return hi;
  return v >= (float)lo ? (int32_t)v : lo;
}

/* The wrapping sum for the accumulator's own type (int32_t or int64_t), for code shared by both. */
#define EL_Q_ADD_WRAP(acc, v) \
  _Generic((acc), int64_t: el_q_add_wrap64, default: el_q_add_wrap)((acc), (v))

/* Splits a positive real multiplier m into q * 2^shift with q a Q0.31 value in [0.5, 1).
 * Positive shift means a left shift. m == 0 and multipliers below 2^-31 give (0, 0); so do NaN
 * and negative m, which only broken scales produce. Multipliers of 2^31 and above (infinite
 * ones included) saturate to the largest, (INT32_MAX, 31), so a shift never exceeds 31. */
void el_q_quantize_multiplier(double m, int32_t* q, int* shift);
/* As above, for m in [0, 1): shift <= 0. Fails on m outside that range. */
TfLiteStatus el_q_quantize_multiplier_smaller_than_one(double m, int32_t* q, int* shift);
/* As above, for m > 1: shift >= 0. Fails on m <= 1. */
TfLiteStatus el_q_quantize_multiplier_greater_than_one(double m, int32_t* q, int* shift);

/* The per-element rounding arithmetic below is inline: the reference kernels call it once or
 * more per output element, where a call through the shared library's PLT cost more than the
 * arithmetic (int16 ADD: three calls per element, 2-6x LiteRT's time).
 *
 * gemmlowp's SaturatingRoundingDoublingHighMul: round(a * b / 2^31), INT32_MIN^2 saturates.
 * gemmlowp's RoundingDivideByPOT: x / 2^e rounded to nearest, ties away from zero. 0 <= e <= 31.
 * Then their 16-bit forms; x * q * 2^shift with TFLite's double rounding (SRDHM, then rounding
 * right shift); the int64-accumulator form used by 16x8 kernels (q reduced to 16 bits, one
 * rounding, the product wrapping like TFLite's; needs shift <= EL_Q_MBQM64_MAX_SHIFT, which
 * prepare checks); and the forms used by ADD/SUB (shift <= 0) and softmax (shift >= 0). */
#define EL_Q_MBQM64_MAX_SHIFT 14
static inline int32_t el_q_srdhm(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  const int64_t ab = (int64_t)a * (int64_t)b;
  const int64_t nudge = ab >= 0 ? (1LL << 30) : (1LL - (1LL << 30));
  /* C division truncates toward zero, which is what the nudge above is designed around. */
  return (int32_t)((ab + nudge) / (1LL << 31));
}

static inline int32_t el_q_rdbpot(int32_t x, int e) {
  const int32_t mask = (int32_t)((1LL << e) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (remainder > threshold ? 1 : 0);
}

static inline int16_t el_q_srdhm16(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN) return INT16_MAX;
  const int32_t ab = (int32_t)a * (int32_t)b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return (int16_t)((ab + nudge) / (1 << 15));
}

static inline int16_t el_q_rdbpot16(int16_t x, int e) {
  const int16_t mask = (int16_t)((1 << e) - 1);
  const int16_t remainder = (int16_t)(x & mask);
  const int16_t threshold = (int16_t)((mask >> 1) + (x < 0 ? 1 : 0));
  return (int16_t)((x >> e) + (remainder > threshold ? 1 : 0));
}

static inline int32_t el_q_mbqm(int32_t x, int32_t q, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  /* The left shift wraps like TFLite's unchecked int32 multiply; valid models never overflow. */
  const int32_t shifted = (int32_t)(uint32_t)((uint32_t)x << left);
  return el_q_rdbpot(el_q_srdhm(shifted, q), right);
}

static inline int32_t el_q_mbqm64(int64_t x, int32_t q, int shift) {
  const int32_t reduced = q < 0x7FFF0000 ? ((q + (1 << 15)) >> 16) : 0x7FFF;
  const int total_shift = 15 - shift;
  const uint64_t product = (uint64_t)x * (uint64_t)(int64_t)reduced;
  const int64_t rounded = (int64_t)(product + ((uint64_t)1 << (total_shift - 1)));
  return (int32_t)(rounded >> total_shift);
}

static inline int32_t el_q_mbqm_smaller_than_one(int32_t x, int32_t q, int shift) {
  return el_q_rdbpot(el_q_srdhm(x, q), -shift);
}

static inline int32_t el_q_mbqm_greater_than_one(int32_t x, int32_t q, int shift) {
  const int32_t shifted = (int32_t)(uint32_t)((uint32_t)x << shift);
  return el_q_srdhm(shifted, q);
}

/* ---- quantization parameters -------------------------------------------------------------- */

/* Smallest and largest value of an integer tensor type (uint8, int8, int16, int32). */
TfLiteStatus el_q_type_range(TfLiteType type, int32_t* qmin, int32_t* qmax);

/* The [min, max] clamp a fused activation gives on a tensor of `type` with (scale, zp). */
TfLiteStatus el_q_activation_range(TfLiteFusedActivation act, TfLiteType type, float scale,
                                   int32_t zero_point, int32_t* act_min, int32_t* act_max);

/* Per-tensor quantization of `t`, also for per-axis tensors (first channel). */
float el_q_scale(const TfLiteTensor* t);
int32_t el_q_zero_point(const TfLiteTensor* t);
/* The tensor's affine parameters, or NULL when it carries none. */
const TfLiteAffineQuantization* el_q_affine(const TfLiteTensor* t);
/* True when the tensor has more than one scale (per-axis quantization). */
bool el_q_is_per_channel(const TfLiteTensor* t);

/* The real multiplier of output channel c of a convolution or fully connected op, in double as
 * TFLite computes it: in_scale * filter_scale[c] / out_scale (the one filter scale when there is
 * only one). */
double el_q_channel_real_multiplier(const TfLiteTensor* input, const TfLiteAffineQuantization* filter_q, int c,
                                    const TfLiteTensor* output);

/* Per-channel requantization of a convolution: for each output channel c,
 * in_scale * filter_scale[c] / out_scale, as (multiplier, shift) pairs. A single filter scale is
 * broadcast to all channels. */
TfLiteStatus el_q_conv_multipliers(TfLiteContext* context, const TfLiteTensor* input,
                                   const TfLiteTensor* filter, const TfLiteTensor* output,
                                   int num_channels, int32_t* multipliers, int32_t* shifts);

/* True when, for each of the `channels` output channels of a constant 8-bit `filter` (channel
 * on the first axis, or on the last with `channel_last`, as depthwise filters have it), the
 * worst-case |sum (w - w_zp) * (x - x_zp) + bias| over every 8-bit input, with room for the
 * partial and regrouped sums an optimized kernel forms, fits int32, and that sum times the
 * channel's real multiplier stays within 2^30. Reference kernels wrap like TFLite instead;
 * optimized ones take a node only when this holds. */
bool el_q_accumulators_bounded(const TfLiteTensor* input, const TfLiteTensor* filter,
                               const TfLiteTensor* bias, const TfLiteTensor* output, int channels,
                               bool channel_last);

/* Reports an error unless every shift is one el_q_mbqm64 accepts (scale ratios of 2^14 and
 * more, which only broken files carry, would shift by a negative amount); shifts[0] is channel
 * `first`'s. */
TfLiteStatus el_q_check_mbqm64_shifts(TfLiteContext* context, const int8_t* shifts, int first, int n);

/* The legacy uint8 (per-tensor) requantization multiplier of conv/depthwise: the bias scale
 * must equal in_scale * filter_scale to within 2% of an output step. */
TfLiteStatus el_q_legacy_conv_multiplier(TfLiteContext* context, const TfLiteTensor* input,
                                         const TfLiteTensor* filter, const TfLiteTensor* bias,
                                         const TfLiteTensor* output, double* multiplier);

/* The per-node state of a quantized path, hung off `*slot`: allocated zeroed from the
 * interpreter's persistent memory on first use (freed with the interpreter), NULL when out of
 * memory. */
void* el_q_state(TfLiteContext* context, void** slot, size_t bytes);
/* Persistent per-channel storage holding at least n entries of `elem` bytes; *capacity tracks
 * what *data already holds, so repeated prepares reuse it. */
TfLiteStatus el_q_channel_buffer(TfLiteContext* context, int n, size_t elem, int* capacity,
                                 void** data);

/* log2(x) when x is (to 1e-3) a power of two. */
bool el_q_checked_log2(float x, int* log2_result);

/* ---- fixed point (gemmlowp) --------------------------------------------------------------- */

/* exp(x) for x <= 0, x in Q(integer_bits).(31-integer_bits); result in Q0.31. */
int32_t el_fp_exp_on_negative_values(int32_t a, int integer_bits);
/* 1 / (1 + x) for x in [0, 1), both Q0.31. */
int32_t el_fp_one_over_one_plus_x_for_x_in_0_1(int32_t a);
/* log(x) for x >= 1 given in Q(input_integer_bits); the result in Q(output_integer_bits)
 * (TFLite's log_x_for_x_greater_than_or_equal_to_1, used by quantized LOG_SOFTMAX). */
int32_t el_fp_log_x_for_x_greater_than_or_equal_to_1(int32_t input, int input_integer_bits,
                                                     int output_integer_bits);
/* Q0.31 reciprocal of x (Q(x_integer_digits)), with the leftover power of two. */
int32_t el_fp_get_reciprocal(int32_t x, int x_integer_digits, int* num_bits_over_unit);

/* 1/sqrt(input) as a Q0.31 multiplier and shift (L2 normalization). The shift is multiplied by
 * reverse_shift: -1 turns TFLite's right-shift count into a left-shift exponent. */
void el_q_inv_sqrt_multiplier(int32_t input, int reverse_shift, int32_t* multiplier, int* shift);

/* Softmax input scaling: beta * in_scale * 2^(31 - integer_bits), capped, as (q, left shift). */
TfLiteStatus el_q_preprocess_softmax_scaling(double beta, double input_scale, int integer_bits,
                                             int32_t* multiplier, int* left_shift);
/* The largest input difference that still matters after scaling by 2^-left_shift. */
int el_q_calculate_input_radius(int integer_bits, int left_shift, int total_signed_bits);

/* ---- lookup tables ------------------------------------------------------------------------ */

/* A 256-entry table mapping every int8 (is_signed) or uint8 input to fn(dequantized input),
 * requantized to the output; indexed by the input byte reinterpreted as uint8. */
typedef float (*el_q_float_fn)(float);
void el_q_lut_populate_8bit(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                            bool is_signed, el_q_float_fn fn, uint8_t lut[256]);

/* A 513-entry interpolation table for int16 inputs (TFLite's int16 LUT layout). */
typedef double (*el_q_double_fn)(double);
void el_q_lut_populate_int16(double in_scale, int32_t in_zp, double out_scale, int32_t out_zp,
                             el_q_double_fn fn, int16_t lut[513]);
int16_t el_q_lut_lookup_int16(int16_t value, const int16_t lut[513]);

/* sigmoid(i / 24) in Q0.16 for i = 0..255, the table behind int16 LOGISTIC and TANH. */
void el_q_sigmoid_table_u16(uint16_t table[256]);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_QUANT_UTIL_H_ */
