#include "kernels/optimized/add16_opt.h"

#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"
#endif

/* TFLite's SaturatingRoundingDoublingHighMul as floor((a * b + 2^30) / 2^31): the same number
 * for every sign of the product (requant.h), and no saturation here, where the multipliers are
 * positive and below 2^31. Bits 31..62 of the sum are those of its arithmetic shift, so a
 * logical shift (which vector units have for 64-bit lanes) serves. */
static inline __attribute__((always_inline)) int32_t high_mul(int32_t a, int32_t b) {
  const uint64_t sum = (uint64_t)((int64_t)a * (int64_t)b) + ((uint64_t)1 << 30);
  return (int32_t)(uint32_t)(sum >> 31);
}

/* RoundingDivideByPOT: x / 2^e rounded to nearest, ties away from zero; e in [0, 31]. */
static inline __attribute__((always_inline)) int32_t divide_pot(int32_t x, int e, int32_t mask) {
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + ((x & mask) > threshold ? 1 : 0);
}

static inline __attribute__((always_inline)) int32_t clamp(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* Shifts are split as TFLite's MultiplyByQuantizedMultiplier applies them: left before the
 * high multiply, right (rounding) after it. AS and BS are the operands' element steps (0 or 1),
 * constants in each copy of the loop so that it vectorizes. */
#define EL_ADD16_LOOP(AS, BS)                                                                          \
  for (int64_t i = 0; i < n; ++i) {                                                                    \
    const int32_t sa = (int32_t)((uint32_t)(off1 + a[i * (AS)]) << ls);                                \
    const int32_t sb = (int32_t)((uint32_t)(off2 + b[i * (BS)]) << ls);                                \
    const int32_t ra = divide_pot(high_mul(sa, m1), r1, k1);                                            \
    const int32_t rb = divide_pot(high_mul(sb, m2), r2, k2);                                            \
    const int32_t raw = (int32_t)(sub ? (uint32_t)ra - (uint32_t)rb : (uint32_t)ra + (uint32_t)rb);    \
    const int32_t scaled = divide_pot(high_mul((int32_t)((uint32_t)raw << lso), mo), rso, ko);          \
    out[i] = (int16_t)clamp((int32_t)((uint32_t)scaled + (uint32_t)out_off), lo, hi);                   \
  }

#define EL_ADD16_FN(NAME, TARGET)                                                                      \
  TARGET static void NAME(const el_add_sub_params* p, const int16_t* a, int a_step, const int16_t* b, \
                          int b_step, int16_t* out, int64_t n) {                                      \
    const int r1 = -p->s1, r2 = -p->s2;                                                               \
    const int lso = p->so > 0 ? p->so : 0, rso = p->so > 0 ? 0 : -p->so;                                \
    const int32_t k1 = (int32_t)(((int64_t)1 << r1) - 1), k2 = (int32_t)(((int64_t)1 << r2) - 1);      \
    const int32_t ko = (int32_t)(((int64_t)1 << rso) - 1);                                             \
    const int32_t m1 = p->m1, m2 = p->m2, mo = p->mo, off1 = p->off1, off2 = p->off2;                  \
    const int32_t out_off = p->out_off, lo = p->act_min, hi = p->act_max;                              \
    const int ls = p->left_shift, sub = p->subtract;                                                   \
    if (a_step == 1 && b_step == 1) {                                                                  \
      EL_ADD16_LOOP(1, 1)                                                                              \
    } else if (a_step == 0) {                                                                          \
      EL_ADD16_LOOP(0, 1)                                                                              \
    } else {                                                                                           \
      EL_ADD16_LOOP(1, 0)                                                                              \
    }                                                                                                  \
  }

EL_ADD16_FN(add16_scalar, )
#if defined(__x86_64__)
EL_ADD16_FN(add16_avx2, EL_TARGET_AVX2)
EL_ADD16_FN(add16_avx512, EL_TARGET_AVX512)
#endif

int el_add16_supported(const el_add_sub_params* p) {
  /* What the reference's multiplier helpers produce for ADD/SUB: input shifts <= 0, an output
   * shift within one word, non-negative multipliers (never INT32_MIN, so no saturation). */
  return p->s1 <= 0 && p->s1 >= -31 && p->s2 <= 0 && p->s2 >= -31 && p->so >= -31 && p->so <= 31 &&
         p->left_shift >= 0 && p->left_shift <= 31 && p->m1 >= 0 && p->m2 >= 0 && p->mo >= 0;
}

el_add16_fn el_add16_for(el_isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case EL_ISA_AVX512_VNNI:
    case EL_ISA_AVX512:
      return add16_avx512;
    case EL_ISA_AVX2:
      return add16_avx2;
#endif
    default:
      return add16_scalar;
  }
}
