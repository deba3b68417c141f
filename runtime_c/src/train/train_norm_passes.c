/* Batch-norm passes: plain and AVX-512 bodies (see train_norm_passes.h). */
#include "train/train_norm_passes.h"

#include <stddef.h>

#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"
#endif

static void sums_plain(int64_t rows, int32_t channels, const float* restrict x,
                       const float* restrict center, double* restrict sum) {
  for (int32_t c = 0; c < channels; ++c) sum[c] = 0.0;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * channels;
    if (center == NULL) {
      for (int32_t c = 0; c < channels; ++c) sum[c] += (double)xr[c];
      continue;
    }
    for (int32_t c = 0; c < channels; ++c) {
      const double d = (double)(xr[c] - center[c]);
      sum[c] += d * d;
    }
  }
}

static void grad_sums_plain(int64_t rows, int32_t channels, const float* restrict dy,
                            const float* restrict x, const float* restrict mean,
                            double* restrict sdy, double* restrict sdx) {
  for (int32_t c = 0; c < channels; ++c) sdy[c] = sdx[c] = 0.0;
  for (int64_t r = 0; r < rows; ++r) {
    const float* dr = dy + r * channels;
    const float* xr = x + r * channels;
    for (int32_t c = 0; c < channels; ++c) {
      sdy[c] += (double)dr[c];
      sdx[c] += (double)dr[c] * (double)(xr[c] - mean[c]);
    }
  }
}

static void normalize_plain(int64_t rows, int32_t channels, const float* restrict x,
                            const float* restrict mean, const float* restrict mul,
                            const float* restrict offset, float* restrict y) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * channels;
    float* yr = y + r * channels;
    for (int32_t c = 0; c < channels; ++c) yr[c] = (xr[c] - mean[c]) * mul[c] + offset[c];
  }
}

static void grad_apply_plain(int64_t rows, int32_t channels, const float* restrict dy,
                             const float* restrict x, const float* restrict mean,
                             const float* restrict a, const float* restrict b,
                             const float* restrict kk, float* restrict dx) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* dr = dy + r * channels;
    const float* xr = x + r * channels;
    float* o = dx + r * channels;
    for (int32_t c = 0; c < channels; ++c) o[c] = (dr[c] - b[c] - (xr[c] - mean[c]) * a[c]) * kk[c];
  }
}

#if defined(__x86_64__)
static inline __mmask16 live_lanes(int32_t left) {
  return (__mmask16)(left >= 16 ? 0xFFFF : (1u << left) - 1u);
}

EL_TARGET_AVX512 static inline __m512d low_pd(__m512 v) {
  return _mm512_cvtps_pd(_mm512_castps512_ps256(v));
}

EL_TARGET_AVX512 static inline __m512d high_pd(__m512 v) {
  return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
}

EL_TARGET_AVX512 static inline void store_pd(double* dst, __m512d lo, __m512d hi, __mmask16 live) {
  _mm512_mask_storeu_pd(dst, (__mmask8)(live & 0xFF), lo);
  _mm512_mask_storeu_pd(dst + 8, (__mmask8)(live >> 8), hi);
}

EL_TARGET_AVX512 static void sums_avx512(int64_t rows, int32_t channels, const float* x,
                                         const float* center, double* sum) {
  for (int32_t c = 0; c < channels; c += 16) {
    const __mmask16 live = live_lanes(channels - c);
    const __m512 mu = center ? _mm512_maskz_loadu_ps(live, center + c) : _mm512_setzero_ps();
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    for (int64_t r = 0; r < rows; ++r) {
      const __m512 v = _mm512_maskz_loadu_ps(live, x + r * channels + c);
      if (center == NULL) {
        lo = _mm512_add_pd(lo, low_pd(v));
        hi = _mm512_add_pd(hi, high_pd(v));
        continue;
      }
      const __m512 d = _mm512_sub_ps(v, mu);
      const __m512d dl = low_pd(d), dh = high_pd(d);
      lo = _mm512_add_pd(lo, _mm512_mul_pd(dl, dl));
      hi = _mm512_add_pd(hi, _mm512_mul_pd(dh, dh));
    }
    store_pd(sum + c, lo, hi, live);
  }
}

EL_TARGET_AVX512 static void grad_sums_avx512(int64_t rows, int32_t channels, const float* dy,
                                              const float* x, const float* mean, double* sdy,
                                              double* sdx) {
  for (int32_t c = 0; c < channels; c += 16) {
    const __mmask16 live = live_lanes(channels - c);
    const __m512 mu = _mm512_maskz_loadu_ps(live, mean + c);
    __m512d ylo = _mm512_setzero_pd(), yhi = _mm512_setzero_pd();
    __m512d xlo = _mm512_setzero_pd(), xhi = _mm512_setzero_pd();
    for (int64_t r = 0; r < rows; ++r) {
      const __m512 d = _mm512_maskz_loadu_ps(live, dy + r * channels + c);
      const __m512 v = _mm512_sub_ps(_mm512_maskz_loadu_ps(live, x + r * channels + c), mu);
      const __m512d dl = low_pd(d), dh = high_pd(d);
      ylo = _mm512_add_pd(ylo, dl);
      yhi = _mm512_add_pd(yhi, dh);
      xlo = _mm512_add_pd(xlo, _mm512_mul_pd(dl, low_pd(v)));
      xhi = _mm512_add_pd(xhi, _mm512_mul_pd(dh, high_pd(v)));
    }
    store_pd(sdy + c, ylo, yhi, live);
    store_pd(sdx + c, xlo, xhi, live);
  }
}

EL_TARGET_AVX512 static void normalize_avx512(int64_t rows, int32_t channels, const float* x,
                                              const float* mean, const float* mul,
                                              const float* offset, float* y) {
  for (int32_t c = 0; c < channels; c += 16) {
    const __mmask16 live = live_lanes(channels - c);
    const __m512 mu = _mm512_maskz_loadu_ps(live, mean + c), m = _mm512_maskz_loadu_ps(live, mul + c);
    const __m512 o = _mm512_maskz_loadu_ps(live, offset + c);
    for (int64_t r = 0; r < rows; ++r) {
      const __m512 v = _mm512_maskz_loadu_ps(live, x + r * channels + c);
      _mm512_mask_storeu_ps(y + r * channels + c, live,
                            _mm512_add_ps(_mm512_mul_ps(_mm512_sub_ps(v, mu), m), o));
    }
  }
}

EL_TARGET_AVX512 static void grad_apply_avx512(int64_t rows, int32_t channels, const float* dy,
                                               const float* x, const float* mean, const float* a,
                                               const float* b, const float* kk, float* dx) {
  for (int32_t c = 0; c < channels; c += 16) {
    const __mmask16 live = live_lanes(channels - c);
    const __m512 mu = _mm512_maskz_loadu_ps(live, mean + c), av = _mm512_maskz_loadu_ps(live, a + c);
    const __m512 bv = _mm512_maskz_loadu_ps(live, b + c), kv = _mm512_maskz_loadu_ps(live, kk + c);
    for (int64_t r = 0; r < rows; ++r) {
      const __m512 d = _mm512_maskz_loadu_ps(live, dy + r * channels + c);
      const __m512 v = _mm512_maskz_loadu_ps(live, x + r * channels + c);
      const __m512 t = _mm512_sub_ps(_mm512_sub_ps(d, bv), _mm512_mul_ps(_mm512_sub_ps(v, mu), av));
      _mm512_mask_storeu_ps(dx + r * channels + c, live, _mm512_mul_ps(t, kv));
    }
  }
}
#endif

el_norm_passes el_train_norm_passes(const el_train_kernels* k) {
#if defined(__x86_64__)
  if (el_isa_at_least(k->isa, EL_ISA_AVX512)) {
    return (el_norm_passes){sums_avx512, grad_sums_avx512, normalize_avx512, grad_apply_avx512};
  }
#endif
  (void)k;
  return (el_norm_passes){sums_plain, grad_sums_plain, normalize_plain, grad_apply_plain};
}
