/* x86-64 float GEMM micro-kernels: AVX2+FMA (6 rows x 16 channels) and AVX-512 (7 rows x 32
 * channels), bias and activation clamp fused into the store. */
#if defined(__x86_64__)
#include <math.h>

#include "kernels/optimized/fgemm.h"
#include "kernels/optimized/simd_x86.h"

enum { MR = 6, MR512 = 7 };

/* The finite bounds of the activation clamp (1: lower, 2: upper): a bound at infinity changes
 * nothing but a NaN, which the reference passes through, so it is skipped. */
static inline int clamp_bounds(float lo, float hi) {
  return (lo > -INFINITY ? 1 : 0) | (hi < INFINITY ? 2 : 0);
}

EL_TARGET_AVX2 static inline __m256 clamp8(__m256 v, __m256 lo, __m256 hi, int bounds) {
  if (bounds & 1) v = _mm256_max_ps(v, lo);
  if (bounds & 2) v = _mm256_min_ps(v, hi);
  return v;
}

EL_TARGET_AVX2 static inline void store8(float* dst, __m256 v, int count) {
  if (count >= 8) {
    _mm256_storeu_ps(dst, v);
  } else if (count > 0) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    _mm256_maskstore_ps(dst, _mm256_cmpgt_epi32(_mm256_set1_epi32(count), lanes), v);
  }
}

EL_TARGET_AVX2 static void igemm_avx2(int taps, int tap_len, const float* const* a,
                                      const ptrdiff_t* step, int rows, const float* w,
                                      size_t block_bytes, int n, const float* bias, float lo,
                                      float hi, float* out, ptrdiff_t out_stride) {
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  const int bounds = clamp_bounds(lo, hi);
  const size_t tap_floats = (size_t)tap_len * 16;
  for (int c = 0; c < n; c += 16) {
    const float* wb = (const float*)((const char*)w + (size_t)(c / 16) * block_bytes);
    const __m256 bl = _mm256_loadu_ps(bias + c), bh = _mm256_loadu_ps(bias + c + 8);
    __m256 acc[MR][2];
    const float* ar[MR];
    for (int r = 0; r < MR; ++r) {
      acc[r][0] = bl;
      acc[r][1] = bh;
      ar[r] = a[r];
    }
    for (int t = 0; t < taps; ++t) {
      const float* wt = wb + (size_t)t * tap_floats;
      for (int i = 0; i < tap_len; ++i) {
        const __m256 wl = _mm256_loadu_ps(wt + (size_t)i * 16);
        const __m256 wh = _mm256_loadu_ps(wt + (size_t)i * 16 + 8);
        _Pragma("GCC unroll 8") for (int r = 0; r < MR; ++r) {
          const __m256 x = _mm256_broadcast_ss(ar[r] + i);
          acc[r][0] = _mm256_fmadd_ps(x, wl, acc[r][0]);
          acc[r][1] = _mm256_fmadd_ps(x, wh, acc[r][1]);
        }
      }
      for (int r = 0; r < MR; ++r) ar[r] += step[r];
    }
    const int count = n - c;
    for (int r = 0; r < rows; ++r) {
      float* o = out + r * out_stride + c;
      store8(o, clamp8(acc[r][0], vlo, vhi, bounds), count);
      store8(o + 8, clamp8(acc[r][1], vlo, vhi, bounds), count - 8);
    }
  }
}

EL_TARGET_AVX2 static void gemm_avx2(int k, const float* const* a, int rows, const float* w,
                                     size_t block_bytes, int n, const float* bias, float lo,
                                     float hi, float* out, ptrdiff_t out_stride) {
  static const ptrdiff_t no_step[MR] = {0};
  igemm_avx2(1, k, a, no_step, rows, w, block_bytes, n, bias, lo, hi, out, out_stride);
}

EL_TARGET_AVX512 static inline void store16(float* dst, __m512 v, __m512 lo, __m512 hi,
                                            int bounds, int count) {
  if (count <= 0) return;
  if (bounds & 1) v = _mm512_max_ps(v, lo);
  if (bounds & 2) v = _mm512_min_ps(v, hi);
  const __mmask16 keep = (__mmask16)(count >= 16 ? 0xFFFF : ((1u << count) - 1u));
  _mm512_mask_storeu_ps(dst, keep, v);
}

/* The last block of channels c.. of igemm512_rows for its mr rows, on vectors of type VEC
 * (the bias, then the taps' products in order, as the two-block loop sums them): each row's sums
 * are those of the wider loop, whatever the vector width. */
#define ROWS_TIMES_BLOCK(VEC, LOADU, SET1, FMADD, acc)                                          \
  do {                                                                                          \
    const float* w0_ = (const float*)((const char*)w + (size_t)(c / 16) * block_bytes);        \
    const float* ar_[MR512];                                                                    \
    for (int r_ = 0; r_ < mr; ++r_) {                                                           \
      (acc)[r_] = LOADU(bias + c);                                                              \
      ar_[r_] = a[r_];                                                                          \
    }                                                                                           \
    for (int t_ = 0; t_ < taps; ++t_) {                                                         \
      const float* wt_ = w0_ + (size_t)t_ * tap_floats;                                         \
      for (int i_ = 0; i_ < tap_len; ++i_) {                                                    \
        const VEC wa_ = LOADU(wt_ + (size_t)i_ * 16);                                           \
        _Pragma("GCC unroll 8") for (int r_ = 0; r_ < mr; ++r_) {                               \
          (acc)[r_] = FMADD(SET1(ar_[r_][i_]), wa_, (acc)[r_]);                                 \
        }                                                                                       \
      }                                                                                         \
      for (int r_ = 0; r_ < mr; ++r_) ar_[r_] += step[r_];                                      \
    }                                                                                           \
  } while (0)

/* igemm_avx512 for exactly mr rows (a constant once inlined into the switch below): a tile of
 * fewer rows issues only its own FMAs, so a 3x3 map split 5 + 4 costs 9 rows, not 14. */
EL_TARGET_AVX512 static inline __attribute__((always_inline)) void igemm512_rows(
    int mr, int taps, int tap_len, const float* const* a, const ptrdiff_t* step, const float* w,
    size_t block_bytes, int n, const float* bias, float lo, float hi, float* out,
    ptrdiff_t out_stride) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const int bounds = clamp_bounds(lo, hi);
  const size_t tap_floats = (size_t)tap_len * 16;
  int c = 0;
  for (; c + 16 < n; c += 32) {
    const float* w0 = (const float*)((const char*)w + (size_t)(c / 16) * block_bytes);
    const float* w1 = (const float*)((const char*)w0 + block_bytes);
    const __m512 b0 = _mm512_loadu_ps(bias + c), b1 = _mm512_loadu_ps(bias + c + 16);
    __m512 acc[MR512][2];
    const float* ar[MR512];
    for (int r = 0; r < mr; ++r) {
      acc[r][0] = b0;
      acc[r][1] = b1;
      ar[r] = a[r];
    }
    for (int t = 0; t < taps; ++t) {
      const float* wt0 = w0 + (size_t)t * tap_floats;
      const float* wt1 = w1 + (size_t)t * tap_floats;
      for (int i = 0; i < tap_len; ++i) {
        const __m512 wa = _mm512_loadu_ps(wt0 + (size_t)i * 16);
        const __m512 wb = _mm512_loadu_ps(wt1 + (size_t)i * 16);
        _Pragma("GCC unroll 8") for (int r = 0; r < mr; ++r) {
          const __m512 x = _mm512_set1_ps(ar[r][i]);
          acc[r][0] = _mm512_fmadd_ps(x, wa, acc[r][0]);
          acc[r][1] = _mm512_fmadd_ps(x, wb, acc[r][1]);
        }
      }
      for (int r = 0; r < mr; ++r) ar[r] += step[r];
    }
    for (int r = 0; r < mr; ++r) {
      float* o = out + r * out_stride + c;
      store16(o, acc[r][0], vlo, vhi, bounds, n - c);
      store16(o + 16, acc[r][1], vlo, vhi, bounds, n - c - 16);
    }
  }
  if (n - c > 0 && n - c <= 8) {
    /* At most 8 channels left: 8-float vectors, half the FMA issue slots of 16-float ones on
     * cores that split those in two. */
    const __m256 lo8 = _mm256_set1_ps(lo), hi8 = _mm256_set1_ps(hi);
    __m256 acc[MR512];
    ROWS_TIMES_BLOCK(__m256, _mm256_loadu_ps, _mm256_set1_ps, _mm256_fmadd_ps, acc);
    const __mmask8 keep = (__mmask8)((1u << (n - c)) - 1u);
    for (int r = 0; r < mr; ++r) {
      _mm256_mask_storeu_ps(out + r * out_stride + c, keep, clamp8(acc[r], lo8, hi8, bounds));
    }
  } else if (c < n) {
    __m512 acc[MR512];
    ROWS_TIMES_BLOCK(__m512, _mm512_loadu_ps, _mm512_set1_ps, _mm512_fmadd_ps, acc);
    for (int r = 0; r < mr; ++r) {
      store16(out + r * out_stride + c, acc[r], vlo, vhi, bounds, n - c);
    }
  }
}

/* One function per row count, each register-allocated on its own (inlined together into one
 * function, the seven bodies made GCC spill accumulators in the inner loop). */
#define EL_IGEMM512_ROWS(R)                                                                     \
  EL_TARGET_AVX512 static __attribute__((noinline)) void igemm512_##R(                          \
      int taps, int tap_len, const float* const* a, const ptrdiff_t* step, const float* w,      \
      size_t block_bytes, int n, const float* bias, float lo, float hi, float* out,             \
      ptrdiff_t out_stride) {                                                                   \
    igemm512_rows(R, taps, tap_len, a, step, w, block_bytes, n, bias, lo, hi, out, out_stride); \
  }
EL_IGEMM512_ROWS(1)
EL_IGEMM512_ROWS(2)
EL_IGEMM512_ROWS(3)
EL_IGEMM512_ROWS(4)
EL_IGEMM512_ROWS(5)
EL_IGEMM512_ROWS(6)
EL_IGEMM512_ROWS(7)
#undef EL_IGEMM512_ROWS

typedef void (*igemm512_fn)(int, int, const float* const*, const ptrdiff_t*, const float*, size_t,
                            int, const float*, float, float, float*, ptrdiff_t);

EL_TARGET_AVX512 static void igemm_avx512(int taps, int tap_len, const float* const* a,
                                          const ptrdiff_t* step, int rows, const float* w,
                                          size_t block_bytes, int n, const float* bias, float lo,
                                          float hi, float* out, ptrdiff_t out_stride) {
  static const igemm512_fn by_rows[MR512] = {igemm512_1, igemm512_2, igemm512_3, igemm512_4,
                                             igemm512_5, igemm512_6, igemm512_7};
  by_rows[(rows < 1 ? 1 : rows > MR512 ? MR512 : rows) - 1](taps, tap_len, a, step, w, block_bytes,
                                                            n, bias, lo, hi, out, out_stride);
}

EL_TARGET_AVX512 static void gemm_avx512(int k, const float* const* a, int rows, const float* w,
                                         size_t block_bytes, int n, const float* bias, float lo,
                                         float hi, float* out, ptrdiff_t out_stride) {
  static const ptrdiff_t no_step[MR512] = {0};
  igemm_avx512(1, k, a, no_step, rows, w, block_bytes, n, bias, lo, hi, out, out_stride);
}

/* One row. Each output is summed in k order from its bias, exactly as a row of the tiled
 * kernels is, so a row's result does not depend on how many rows are run together; the
 * independent chains are the channel vectors. */
EL_TARGET_AVX2 static void gemv_avx2(int k, const float* a, const float* w, size_t block_bytes,
                                     int n, const float* bias, float lo, float hi, float* out) {
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  const int bounds = clamp_bounds(lo, hi);
  for (int c = 0; c < n; c += 32) {
    const float* w0 = (const float*)((const char*)w + (size_t)(c / 16) * block_bytes);
    const float* w1 = (const float*)((const char*)w0 + block_bytes);
    const int two = c + 16 < n;
    __m256 s0 = _mm256_loadu_ps(bias + c), s1 = _mm256_loadu_ps(bias + c + 8);
    __m256 s2 = two ? _mm256_loadu_ps(bias + c + 16) : s0, s3 = two ? _mm256_loadu_ps(bias + c + 24) : s1;
    for (int i = 0; i < k; ++i) {
      const __m256 x = _mm256_broadcast_ss(a + i);
      s0 = _mm256_fmadd_ps(x, _mm256_loadu_ps(w0 + (size_t)i * 16), s0);
      s1 = _mm256_fmadd_ps(x, _mm256_loadu_ps(w0 + (size_t)i * 16 + 8), s1);
      if (two) {
        s2 = _mm256_fmadd_ps(x, _mm256_loadu_ps(w1 + (size_t)i * 16), s2);
        s3 = _mm256_fmadd_ps(x, _mm256_loadu_ps(w1 + (size_t)i * 16 + 8), s3);
      }
    }
    store8(out + c, clamp8(s0, vlo, vhi, bounds), n - c);
    store8(out + c + 8, clamp8(s1, vlo, vhi, bounds), n - c - 8);
    if (two) {
      store8(out + c + 16, clamp8(s2, vlo, vhi, bounds), n - c - 16);
      store8(out + c + 24, clamp8(s3, vlo, vhi, bounds), n - c - 24);
    }
  }
}

EL_TARGET_AVX512 static void gemv_avx512(int k, const float* a, const float* w, size_t block_bytes,
                                         int n, const float* bias, float lo, float hi,
                                         float* out) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const int bounds = clamp_bounds(lo, hi);
  const int nb = (n + 15) / 16;
  const float* wb[4];
  __m512 s[4];
  for (int b = 0; b < 4; ++b) {
    wb[b] = (const float*)((const char*)w + (size_t)(b < nb ? b : 0) * block_bytes);
    s[b] = _mm512_loadu_ps(bias + 16 * (b < nb ? b : 0));
  }
  for (int i = 0; i < k; ++i) {
    const __m512 x = _mm512_set1_ps(a[i]);
    s[0] = _mm512_fmadd_ps(x, _mm512_loadu_ps(wb[0] + (size_t)i * 16), s[0]);
    if (nb > 1) s[1] = _mm512_fmadd_ps(x, _mm512_loadu_ps(wb[1] + (size_t)i * 16), s[1]);
    if (nb > 2) s[2] = _mm512_fmadd_ps(x, _mm512_loadu_ps(wb[2] + (size_t)i * 16), s[2]);
    if (nb > 3) s[3] = _mm512_fmadd_ps(x, _mm512_loadu_ps(wb[3] + (size_t)i * 16), s[3]);
  }
  for (int b = 0; b < nb; ++b) store16(out + 16 * b, s[b], vlo, vhi, bounds, n - 16 * b);
}

/* Up to 12 rows of one 16-channel block: 12 independent sums per k step instead of 7 (12 row
 * pointers still fit the general registers). Each row is summed as igemm512_rows sums it (bias,
 * then the taps' products in order), so a row's result does not depend on the kernel. */
EL_TARGET_AVX512 static void igemm_narrow_avx512(int taps, int tap_len, const float* const* a,
                                                 const ptrdiff_t* step, int rows, const float* w,
                                                 int n, const float* bias, float lo, float hi,
                                                 float* out, ptrdiff_t out_stride) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const int bounds = clamp_bounds(lo, hi);
  const __m512 b = _mm512_loadu_ps(bias);
  __m512 acc[EL_FGEMM_NARROW_MR];
  const float* ar[EL_FGEMM_NARROW_MR];
  for (int r = 0; r < EL_FGEMM_NARROW_MR; ++r) {
    acc[r] = b;
    ar[r] = a[r];
  }
  for (int t = 0; t < taps; ++t) {
    const float* wt = w + (size_t)t * (size_t)tap_len * 16;
    for (int i = 0; i < tap_len; ++i) {
      const __m512 wv = _mm512_loadu_ps(wt + (size_t)i * 16);
      _Pragma("GCC unroll 12") for (int r = 0; r < EL_FGEMM_NARROW_MR; ++r) {
        acc[r] = _mm512_fmadd_ps(_mm512_set1_ps(ar[r][i]), wv, acc[r]);
      }
    }
    for (int r = 0; r < EL_FGEMM_NARROW_MR; ++r) ar[r] += step[r];
  }
  for (int r = 0; r < rows; ++r) store16(out + r * out_stride, acc[r], vlo, vhi, bounds, n);
}

/* Consecutive rows in whole tiles of 12 (the last tile repeats its first row past the end),
 * each summed exactly as igemm_narrow_avx512 sums a row with taps = 1. */
EL_TARGET_AVX512 static void gemm_narrow_rows_avx512(int k, const float* a, int64_t rows,
                                                     const float* w, int n, const float* bias,
                                                     float lo, float hi, float* out,
                                                     ptrdiff_t out_stride) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const int bounds = clamp_bounds(lo, hi);
  const __m512 b = _mm512_loadu_ps(bias);
  for (int64_t m = 0; m < rows; m += EL_FGEMM_NARROW_MR) {
    const int count = rows - m < EL_FGEMM_NARROW_MR ? (int)(rows - m) : EL_FGEMM_NARROW_MR;
    const float* ar[EL_FGEMM_NARROW_MR];
    __m512 acc[EL_FGEMM_NARROW_MR];
    for (int r = 0; r < EL_FGEMM_NARROW_MR; ++r) {
      ar[r] = a + (m + (r < count ? r : 0)) * k;
      acc[r] = b;
    }
    for (int i = 0; i < k; ++i) {
      const __m512 wv = _mm512_loadu_ps(w + (size_t)i * 16);
      _Pragma("GCC unroll 12") for (int r = 0; r < EL_FGEMM_NARROW_MR; ++r) {
        acc[r] = _mm512_fmadd_ps(_mm512_set1_ps(ar[r][i]), wv, acc[r]);
      }
    }
    for (int r = 0; r < count; ++r) store16(out + (m + r) * out_stride, acc[r], vlo, vhi, bounds, n);
  }
}

const el_fgemm_kernels el_fgemm_avx2 = {MR, gemm_avx2, gemv_avx2, igemm_avx2, NULL, NULL};
const el_fgemm_kernels el_fgemm_avx512 = {MR512, gemm_avx512, gemv_avx512, igemm_avx512,
                                          igemm_narrow_avx512, gemm_narrow_rows_avx512};

#endif /* __x86_64__ */
