/* Plain C depthwise kernels (channels are the vectorizable inner loop) and the table. */
#include "kernels/optimized/dw_kernels.h"

enum { CB = 16 }; /* channels per block: independent accumulators for the vectorizer */

static void q8(int taps, const void* const* x, ptrdiff_t step, int count, int is_unsigned,
               int channels, const int32_t* w, int stride, const el_requant* rq, int8_t* out,
               ptrdiff_t out_step) {
  for (int i = 0; i < count; ++i) {
    for (int c0 = 0; c0 < channels; c0 += CB) {
      const int n = channels - c0 < CB ? channels - c0 : CB;
      int32_t acc[CB];
      for (int j = 0; j < n; ++j) acc[j] = rq->bias[c0 + j];
      for (int t = 0; t < taps; ++t) {
        const int32_t* wt = w + (size_t)t * (size_t)stride + c0;
        const uint8_t* base = (const uint8_t*)x[t] + i * step + c0;
        if (is_unsigned) {
          for (int j = 0; j < n; ++j) acc[j] = el_wrap_fold(acc[j], base[j], wt[j]);
        } else {
          const int8_t* xt = (const int8_t*)base;
          for (int j = 0; j < n; ++j) acc[j] = el_wrap_fold(acc[j], xt[j], wt[j]);
        }
      }
      int8_t* o = out + i * out_step + c0;
      for (int j = 0; j < n; ++j) {
        const int c = c0 + j;
        o[j] = (int8_t)el_requant_one(acc[j], rq->mult[c], rq->lshift[c], rq->rshift[c], rq->out_zp,
                                      rq->act_min, rq->act_max);
      }
    }
  }
}

static void f32(int taps, const float* const* x, ptrdiff_t step, int count, int channels,
                const float* w, int stride, const float* bias, float lo, float hi, float* out,
                ptrdiff_t out_step) {
  for (int i = 0; i < count; ++i) {
    for (int c0 = 0; c0 < channels; c0 += CB) {
      const int n = channels - c0 < CB ? channels - c0 : CB;
      float acc[CB];
      for (int j = 0; j < n; ++j) acc[j] = bias[c0 + j];
      for (int t = 0; t < taps; ++t) {
        const float* wt = w + (size_t)t * (size_t)stride + c0;
        const float* xt = x[t] + i * step + c0;
        for (int j = 0; j < n; ++j) acc[j] += xt[j] * wt[j];
      }
      float* o = out + i * out_step + c0;
      for (int j = 0; j < n; ++j) o[j] = acc[j] < lo ? lo : (acc[j] > hi ? hi : acc[j]);
    }
  }
}

static const el_dw_kernels kScalar = {q8, f32, 0};

extern const el_dw_kernels el_dw_avx2;
extern const el_dw_kernels el_dw_avx512;
extern const el_dw_kernels el_dw_avx512_vnni;
extern const el_dw_kernels el_dw_neon;

const el_dw_kernels* el_dw_kernels_for(el_isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case EL_ISA_AVX512_VNNI:
      return &el_dw_avx512_vnni;
    case EL_ISA_AVX512:
      return &el_dw_avx512;
    case EL_ISA_AVX2:
      return &el_dw_avx2;
#endif
#if defined(__aarch64__)
    case EL_ISA_NEON_DOT:
    case EL_ISA_NEON:
      return &el_dw_neon;
#endif
    default:
      return &kScalar;
  }
}
