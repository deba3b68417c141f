/* The double matrix product of the float64 training kernels: operands packed into register
 * blocks (A in rows of the micro-kernel's height, B in EL_DGEMM_NR columns) and a micro-kernel
 * whose sums run in depth order, compiled once per ISA level with the block that fills its
 * vector registers. */
#include <string.h>

#include "train/train_f64_internal.h"
#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"
#endif

void el_dgemm_pack_b(const el_train_kernels* kern, int k, int n, el_dview b, double* packed) {
  (void)kern;
  for (int c0 = 0; c0 < n; c0 += EL_DGEMM_NR) {
    const int count = n - c0 < EL_DGEMM_NR ? n - c0 : EL_DGEMM_NR;
    double* dst = packed + (size_t)(c0 / EL_DGEMM_NR) * (size_t)k * EL_DGEMM_NR;
    for (int t = 0; t < k; ++t, dst += EL_DGEMM_NR) {
      const double* src = b.data + t * b.rs + c0 * b.cs;
      if (b.cs == 1 && count == EL_DGEMM_NR) {
        for (int j = 0; j < EL_DGEMM_NR; ++j) dst[j] = src[j]; /* a fixed-length copy, vectorized */
        continue;
      }
      for (int j = 0; j < EL_DGEMM_NR; ++j) dst[j] = j < count ? src[j * b.cs] : 0.0;
    }
  }
}

void el_dgemm_window_row(const el_train_window* g, const double* x, size_t p, double* dst) {
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w, c = (size_t)g->in_c;
  const size_t rest = p % per_image;
  const int top = (int)(rest / (size_t)g->out_w) * g->stride_h - g->pad_top;
  const int left = (int)(rest % (size_t)g->out_w) * g->stride_w - g->pad_left;
  const double* image = x + (p / per_image) * (size_t)g->in_h * (size_t)g->in_w * c;
  for (int i = 0; i < g->k_h; ++i) {
    const int ih = top + i * g->dil_h;
    for (int j = 0; j < g->k_w; ++j, dst += c) {
      const int iw = left + j * g->dil_w;
      if (ih < 0 || ih >= g->in_h || iw < 0 || iw >= g->in_w) {
        memset(dst, 0, c * sizeof(double));
        continue;
      }
      const double* src = image + ((size_t)ih * (size_t)g->in_w + (size_t)iw) * c;
      memcpy(dst, src, c * sizeof(double));
    }
  }
}

/* Rows r0 .. r0 + live - 1 of the window view a as [k][mr]: tap by tap, each row's in_c inputs
 * read from its pixel (or from `zeros`, in_c zero doubles, for padding and missing rows), so
 * that the writes run along the block. */
static void pack_windows(el_dview a, int r0, int live, int mr, const double* zeros, double* dst) {
  const el_train_window* g = a.win;
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w, c = (size_t)g->in_c;
  const double* image[EL_DGEMM_MAX_MR];
  int top[EL_DGEMM_MAX_MR], left[EL_DGEMM_MAX_MR];
  for (int r = 0; r < live; ++r) {
    const size_t p = a.first + (size_t)(r0 + r), rest = p % per_image;
    image[r] = a.data + (p / per_image) * (size_t)g->in_h * (size_t)g->in_w * c;
    top[r] = (int)(rest / (size_t)g->out_w) * g->stride_h - g->pad_top;
    left[r] = (int)(rest % (size_t)g->out_w) * g->stride_w - g->pad_left;
  }
  const double* src[EL_DGEMM_MAX_MR];
  for (int i = 0; i < g->k_h; ++i) {
    for (int j = 0; j < g->k_w; ++j, dst += c * (size_t)mr) {
      for (int r = 0; r < mr; ++r) {
        const int ih = r < live ? top[r] + i * g->dil_h : -1, iw = r < live ? left[r] + j * g->dil_w : -1;
        src[r] = ih < 0 || ih >= g->in_h || iw < 0 || iw >= g->in_w
                     ? zeros
                     : image[r] + ((size_t)ih * (size_t)g->in_w + (size_t)iw) * c;
      }
      for (size_t q = 0; q < c; ++q) {
        for (int r = 0; r < mr; ++r) dst[q * (size_t)mr + (size_t)r] = src[r][q];
      }
    }
  }
}

/* Rows r0 .. r0 + live - 1 of a as [k][mr], the missing rows zero. */
static void pack_a(el_dview a, int r0, int live, int mr, int k, const double* zeros, double* dst) {
  if (a.win != NULL) {
    pack_windows(a, r0, live, mr, zeros, dst);
    return;
  }
  if (a.cs == 1) {
    for (int r = 0; r < mr; ++r) {
      if (r >= live) {
        for (int t = 0; t < k; ++t) dst[t * mr + r] = 0.0;
        continue;
      }
      const double* src = a.data + (r0 + r) * a.rs;
      for (int t = 0; t < k; ++t) dst[t * mr + r] = src[t];
    }
    return;
  }
  for (int t = 0; t < k; ++t, dst += mr) {
    const double* src = a.data + t * a.cs + r0 * a.rs;
    if (a.rs == 1 && live == mr) {
      for (int r = 0; r < mr; ++r) dst[r] = src[r];
      continue;
    }
    for (int r = 0; r < mr; ++r) dst[r] = r < live ? src[r * a.rs] : 0.0;
  }
}

/* out[r][j] (+ out[r][j] when `add`) = sum over t of ap[t][r] * bp[t][j], t ascending, for a
 * whole MR x NR block with rows ldo apart (what the compiler vectorizes). */
static void micro_plain(int k, const double* restrict ap, const double* restrict bp,
                        double* restrict out, ptrdiff_t ldo, bool add) {
  double s[4][EL_DGEMM_NR] = {{0.0}};
  for (int t = 0; t < k; ++t, ap += 4, bp += EL_DGEMM_NR) {
    for (int r = 0; r < 4; ++r) {
      for (int j = 0; j < EL_DGEMM_NR; ++j) s[r][j] += ap[r] * bp[j];
    }
  }
  for (int r = 0; r < 4; ++r) {
    for (int j = 0; j < EL_DGEMM_NR; ++j) out[r * ldo + j] = add ? out[r * ldo + j] + s[r][j] : s[r][j];
  }
}

#if defined(__x86_64__)
/* The same sums with fused multiply-adds: 6 rows of two 4-double registers on AVX2 (12 of its
 * 16 registers), 8 rows of one 8-double register on AVX-512. */
EL_TARGET_AVX2 static void micro_avx2(int k, const double* restrict ap, const double* restrict bp,
                                      double* restrict out, ptrdiff_t ldo, bool add) {
  __m256d lo[6], hi[6];
  for (int r = 0; r < 6; ++r) lo[r] = hi[r] = _mm256_setzero_pd();
  for (int t = 0; t < k; ++t, ap += 6, bp += EL_DGEMM_NR) {
    const __m256d b0 = _mm256_loadu_pd(bp), b1 = _mm256_loadu_pd(bp + 4);
    for (int r = 0; r < 6; ++r) {
      const __m256d a = _mm256_broadcast_sd(ap + r);
      lo[r] = _mm256_fmadd_pd(a, b0, lo[r]);
      hi[r] = _mm256_fmadd_pd(a, b1, hi[r]);
    }
  }
  for (int r = 0; r < 6; ++r) {
    double* o = out + r * ldo;
    if (add) {
      lo[r] = _mm256_add_pd(_mm256_loadu_pd(o), lo[r]);
      hi[r] = _mm256_add_pd(_mm256_loadu_pd(o + 4), hi[r]);
    }
    _mm256_storeu_pd(o, lo[r]);
    _mm256_storeu_pd(o + 4, hi[r]);
  }
}

EL_TARGET_AVX512 static void micro_avx512(int k, const double* restrict ap,
                                          const double* restrict bp, double* restrict out,
                                          ptrdiff_t ldo, bool add) {
  __m512d s[8];
  for (int r = 0; r < 8; ++r) s[r] = _mm512_setzero_pd();
  for (int t = 0; t < k; ++t, ap += 8, bp += EL_DGEMM_NR) {
    const __m512d b = _mm512_loadu_pd(bp);
    for (int r = 0; r < 8; ++r) s[r] = _mm512_fmadd_pd(_mm512_set1_pd(ap[r]), b, s[r]);
  }
  for (int r = 0; r < 8; ++r) {
    double* o = out + r * ldo;
    _mm512_storeu_pd(o, add ? _mm512_add_pd(_mm512_loadu_pd(o), s[r]) : s[r]);
  }
}
#endif

typedef void (*micro_fn)(int, const double*, const double*, double*, ptrdiff_t, bool);

static micro_fn micro_for(const el_train_kernels* kern, int* mr) {
#if defined(__x86_64__)
  if (el_isa_at_least(kern->isa, EL_ISA_AVX512)) {
    *mr = 8;
    return micro_avx512;
  }
  if (el_isa_at_least(kern->isa, EL_ISA_AVX2)) {
    *mr = 6;
    return micro_avx2;
  }
#else
  (void)kern;
#endif
  *mr = 4;
  return micro_plain;
}

void el_dgemm(const el_train_kernels* kern, int m, int n, int k, el_dview a, const double* packed,
              double* c, ptrdiff_t ldc, bool add, double* scratch) {
  int mr;
  const micro_fn micro = micro_for(kern, &mr);
  double* zeros = scratch + el_dgemm_scratch(k) - (size_t)k;
  if (a.win != NULL) memset(zeros, 0, (size_t)a.win->in_c * sizeof(double));
  double acc[EL_DGEMM_MAX_MR * EL_DGEMM_NR];
  for (int r0 = 0; r0 < m; r0 += mr) {
    const int live = m - r0 < mr ? m - r0 : mr;
    pack_a(a, r0, live, mr, k, zeros, scratch);
    for (int c0 = 0; c0 < n; c0 += EL_DGEMM_NR) {
      const int cols = n - c0 < EL_DGEMM_NR ? n - c0 : EL_DGEMM_NR;
      const double* b = packed + (size_t)(c0 / EL_DGEMM_NR) * (size_t)k * EL_DGEMM_NR;
      double* out = c + r0 * ldc + c0;
      if (live == mr && cols == EL_DGEMM_NR) {
        micro(k, scratch, b, out, ldc, add);
        continue;
      }
      /* A partial block goes through a whole one on the side. */
      micro(k, scratch, b, acc, EL_DGEMM_NR, false);
      for (int r = 0; r < live; ++r) {
        for (int j = 0; j < cols; ++j) {
          const double v = acc[r * EL_DGEMM_NR + j];
          out[r * ldc + j] = add ? out[r * ldc + j] + v : v;
        }
      }
    }
  }
}
