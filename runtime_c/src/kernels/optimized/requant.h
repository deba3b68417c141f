/* The reference requantization (TFLite's MultiplyByQuantizedMultiplier with its double
 * rounding) in the form the optimized kernels share: a Q0.31 multiplier with the left shift
 * applied before it and the right shift after it. Vector forms live in simd_x86.h / simd_neon.h
 * and must give the same bits. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_REQUANT_H_
#define EDGELITE_KERNELS_OPTIMIZED_REQUANT_H_

#include <stdint.h>

/* Per-channel requantization, arrays padded to whole 16-channel blocks. The multiplier is
 * split into its left shift (>= 0) and right shift (>= 0) as TFLite's MultiplyByQuantizedMultiplier
 * applies them. */
typedef struct el_rq_block el_rq_block;

typedef struct el_requant {
  const int32_t* bias; /* folded bias, added to the accumulator first */
  const int32_t* mult;
  const int32_t* lshift;
  const int32_t* rshift;
  int32_t out_zp;
  int32_t act_min;
  int32_t act_max;
  const el_rq_block* blocks; /* the same per 16 channels in one-rounding form (el_rq_blocks_build) */
  int any_lshift;            /* some channel has a left shift */
} el_requant;

/* 16 channels of an el_requant with the two roundings folded into one: for e = rshift,
 *   out = floor(((x << lshift) * mult + 2^30 + (e ? 2^(30+e) : 0) - (p < -2^30 && e ? 2^31 : 0))
 *               / 2^(31+e))       where p = (x << lshift) * mult,
 * which is TFLite's rounding doubling high multiply followed by its rounding divide by 2^e
 * (nested floors of integers combine, and p < -2^30 is exactly when the high multiply is
 * negative). The 64-bit terms are kept per even and per odd channel, as the vector 32x32->64
 * multiplies form them. Multipliers never equal INT32_MIN, so the high multiply never saturates. */
struct el_rq_block {
  int32_t bias[16];
  int32_t mult[16];
  int32_t lshift[16];
  int64_t round_even[8], round_odd[8];
  int64_t shift_even[8], shift_odd[8];
  int64_t neg_even[8], neg_odd[8];
  /* The odd channels' multipliers in the even 32-bit lanes, where VPMULDQ reads them. */
  int32_t mult_odd[16];
  /* e - 1 per odd channel: the shift of the short form (el_rqf in rq_x86.h). */
  int64_t shift_odd_high[8];
  /* flags[0]: every channel of the block below n has a right shift and no left shift (the short
   * form applies); the rest pad the block to 64-byte multiples. */
  int32_t flags[16];
};

/* Fills ceil(n / 16) blocks from rq's arrays (padded to whole blocks). */
void el_rq_blocks_build(const el_requant* rq, int n, el_rq_block* blocks);

/* a + b * c modulo 2^32: the folds of offsets into biases wrap as the sums they stand for do. */
static inline int32_t el_wrap_fold(int32_t a, int32_t b, int32_t c) {
  return (int32_t)((uint32_t)a + (uint32_t)b * (uint32_t)c);
}

/* Splits TFLite's signed shift (positive: left) into the two shifts. */
static inline void el_split_shift(int shift, int32_t* lshift, int32_t* rshift) {
  *lshift = shift > 0 ? shift : 0;
  *rshift = shift > 0 ? 0 : -shift;
}

/* el_q_mbqm: (x << lshift) times mult / 2^31 rounded (TFLite's saturating rounding doubling
 * high multiply), then divided by 2^rshift rounding half away from zero. */
static inline int32_t el_mbqm_one(int32_t acc, int32_t mult, int32_t lshift, int32_t rshift) {
  const int32_t x = (int32_t)((uint32_t)acc << lshift);
  int32_t v;
  if (x == INT32_MIN && mult == INT32_MIN) {
    v = INT32_MAX;
  } else {
    /* (x * m + 2^30) >> 31 floors; with TFLite's sign-dependent nudge and truncating division
     * it is the same number for every sign of the product. */
    v = (int32_t)(((int64_t)x * mult + ((int64_t)1 << 30)) >> 31);
  }
  const int32_t mask = (int32_t)(((uint32_t)1 << rshift) - 1u);
  const int32_t rem = v & mask;
  const int32_t thr = (mask >> 1) + (v < 0 ? 1 : 0);
  return (v >> rshift) + (rem > thr ? 1 : 0);
}

/* el_mbqm_one, plus the output zero point, clamped to [lo, hi]. */
static inline int32_t el_requant_one(int32_t acc, int32_t mult, int32_t lshift, int32_t rshift,
                                     int32_t zp, int32_t lo, int32_t hi) {
  const int32_t v = el_mbqm_one(acc, mult, lshift, rshift) + zp;
  return v < lo ? lo : (v > hi ? hi : v);
}

#endif /* EDGELITE_KERNELS_OPTIMIZED_REQUANT_H_ */
