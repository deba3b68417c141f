/* The plain C hybrid epilogue (the compiler vectorizes each form's pass) and the table. */
#include "kernels/optimized/hconv_epilogue.h"

#include "kernels/kernel_util.h"

static void row_c(const el_hconv_epilogue* e, const int32_t* restrict acc,
                  const int32_t* restrict corr, const float* restrict cs,
                  const float* restrict bias, float scale, int count, float* restrict dst) {
  const float lo = e->lo, hi = e->hi;
  const int has_bias = bias != 0;
  /* One pass per form, each the reference's expression. */
#define HYBRID_ROW(EXPR)                                                          \
  for (int x = 0; x < count; ++x) {                                             \
    const float sum = (float)(int32_t)((uint32_t)acc[x] + (uint32_t)corr[x]);  \
    float v = EXPR;                                                             \
    if (has_bias) v += bias[x];                                                 \
    dst[x] = el_clamp_f32(v, lo, hi);                                           \
  }
  if (cs != 0 && e->per_channel) {
    HYBRID_ROW(sum * cs[x] * scale)
  } else if (cs != 0) {
    const float cs0 = cs[0];
    HYBRID_ROW(sum * cs0 * scale)
  } else {
    HYBRID_ROW(sum * scale)
  }
#undef HYBRID_ROW
}

#if defined(__x86_64__)
void el_hconv_row_avx512(const el_hconv_epilogue* e, const int32_t* acc, const int32_t* corr,
                         const float* cs, const float* bias, float scale, int count, float* dst);
#endif

el_hconv_row_fn el_hconv_row_for(el_isa isa) {
#if defined(__x86_64__)
  if (isa == EL_ISA_AVX512 || isa == EL_ISA_AVX512_VNNI) return el_hconv_row_avx512;
#else
  (void)isa;
#endif
  return row_c;
}
