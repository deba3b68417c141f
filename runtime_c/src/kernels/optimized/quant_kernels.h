/* Bodies of the optimized QUANTIZE (float32 to int8/uint8) and DEQUANTIZE (int8/uint8 to
 * float32) of per-tensor activations, with the reference's float arithmetic:
 *
 *   quantize:   q = clamp(roundf(x / scale) + zp, lo, hi)   (NaN gives lo), the division and the
 *               addition in float, roundf rounding half away from zero;
 *   dequantize: y = (float)(scale * (double)(x - zp)), which equals the float product
 *               (float)(x - zp) * scale when |x - zp| < 2^17: the double product of a 24-bit
 *               and a 17-bit significand is exact, so both round the same real number once. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_QUANT_KERNELS_H_
#define EDGELITE_KERNELS_OPTIMIZED_QUANT_KERNELS_H_

#include <math.h>
#include <stdint.h>

#include "cpu_isa.h"

/* The reference's per-element quantization (quant_util.h's el_q_round_clamp, in float). */
static inline int32_t el_quant_one(float x, float scale, float zp, float lo, float hi) {
  const float v = roundf(x / scale) + zp;
  if (v > hi) return (int32_t)hi;
  return v >= lo ? (int32_t)v : (int32_t)lo;
}

/* The hybrid input quantizer's per-element step: roundf(x * inv) clamped (NaN gives lo). */
static inline int32_t el_quant_mul_one(float x, float inv, float lo, float hi) {
  const float v = roundf(x * inv);
  if (v > hi) return (int32_t)hi;
  return v >= lo ? (int32_t)v : (int32_t)lo;
}

typedef struct el_quant_kernels {
  /* out[i] = el_quant_one(x[i], scale, zp, lo, hi) as a byte; lo, hi within the byte type. */
  void (*f32_to_q8)(const float* x, void* out, int64_t n, int is_unsigned, float scale, float zp,
                    float lo, float hi);
  /* out[i] = (float)(x[i] - zp) * scale, x int8 or uint8, |zp| < 2^16. */
  void (*q8_to_f32)(const void* x, int is_unsigned, float* out, int64_t n, float scale,
                    int32_t zp);
  /* out[i] = el_quant_mul_one(x[i], inv, lo, hi); lo, hi within int8. */
  void (*f32_mul_to_s8)(const float* x, int8_t* out, int64_t n, float inv, float lo, float hi);
} el_quant_kernels;

const el_quant_kernels* el_quant_kernels_for(el_isa isa);

#endif /* EDGELITE_KERNELS_OPTIMIZED_QUANT_KERNELS_H_ */
