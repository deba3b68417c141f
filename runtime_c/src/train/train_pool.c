/* Max and average pooling with their gradients, pixel by pixel with the channels inner. Taps
 * outside the input take no part: padding never wins a max and averages divide by the number
 * of real elements in the window. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"
#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"
#endif

static el_status check(const el_train_kernels* k, const el_train_window* g, const void* a,
                       const void* b) {
  if (k == NULL || a == NULL || b == NULL) return EL_VALUE_ERROR;
  el_status st = el_train_check_window(g);
  if (st != EL_OK) return st;
  return (g->dil_h == 1 && g->dil_w == 1 && g->out_c == g->in_c) ? EL_OK : EL_VALUE_ERROR;
}

/* The window of output pixel p clipped to the input: rows [h0, h1), columns [w0, w1). */
typedef struct span {
  size_t image;
  int h0, h1, w0, w1;
} span;

static span window_of(const el_train_window* g, size_t p) {
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w, rest = p % per_image;
  const int oh = (int)(rest / (size_t)g->out_w), ow = (int)(rest % (size_t)g->out_w);
  span s;
  s.image = p / per_image;
  s.h0 = oh * g->stride_h - g->pad_top;
  s.w0 = ow * g->stride_w - g->pad_left;
  s.h1 = s.h0 + g->k_h < g->in_h ? s.h0 + g->k_h : g->in_h;
  s.w1 = s.w0 + g->k_w < g->in_w ? s.w0 + g->k_w : g->in_w;
  if (s.h0 < 0) s.h0 = 0;
  if (s.w0 < 0) s.w0 = 0;
  /* A window wholly inside the padding is empty. */
  if (s.h1 < s.h0) s.h1 = s.h0;
  if (s.w1 < s.w0) s.w1 = s.w0;
  return s;
}

static inline size_t offset(const el_train_window* g, const span* s, int h, int w) {
  return ((s->image * (size_t)g->in_h + (size_t)h) * (size_t)g->in_w + (size_t)w) *
         (size_t)g->in_c;
}

/* m = max(m, v) per channel; a NaN sticks, as in numpy's max. Branch-free so that it vectorizes. */
static void max_into(int n, const float* restrict v, float* restrict m) {
  for (int c = 0; c < n; ++c) {
    const float a = v[c], b = m[c];
    m[c] = (a > b) | (a != a) ? a : b;
  }
}

static void window_max(const el_train_window* g, const float* x, const span* s, float* m) {
  for (int c = 0; c < g->in_c; ++c) m[c] = -INFINITY;
  for (int h = s->h0; h < s->h1; ++h) {
    for (int w = s->w0; w < s->w1; ++w) max_into(g->in_c, x + offset(g, s, h, w), m);
  }
}

/* Gives d[c] to x[c] where x[c] equals the window maximum m[c] and no earlier tap took it. */
static void route_first_max(int n, const float* restrict x, const float* restrict m,
                            const float* restrict d, int32_t* restrict taken,
                            float* restrict dx) {
  for (int c = 0; c < n; ++c) {
    const int32_t hit = (x[c] == m[c]) & (taken[c] == 0);
    taken[c] |= hit;
    dx[c] += hit ? d[c] : 0.0f;
  }
}

#if defined(__x86_64__)
/* The channels of one window, 16 at a time in registers (the last block masked): the same
 * comparisons as max_into / route_first_max, so the same results. */
EL_TARGET_AVX512 static inline __m512 block_max(const el_train_window* g, const float* x,
                                                const span* s, int c, __mmask16 live) {
  __m512 m = _mm512_set1_ps(-INFINITY);
  for (int h = s->h0; h < s->h1; ++h) {
    for (int w = s->w0; w < s->w1; ++w) {
      const __m512 v = _mm512_maskz_loadu_ps(live, x + offset(g, s, h, w) + c);
      const __mmask16 take =
          _mm512_cmp_ps_mask(v, m, _CMP_GT_OQ) | _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
      m = _mm512_mask_blend_ps(take, m, v);
    }
  }
  return m;
}

static inline __mmask16 lanes(int left) {
  return (__mmask16)(left >= 16 ? 0xFFFF : (1u << left) - 1u);
}

EL_TARGET_AVX512 static void max_pixel_avx512(const el_train_window* g, const float* x,
                                              const span* s, float* y) {
  for (int c = 0; c < g->in_c; c += 16) {
    const __mmask16 live = lanes(g->in_c - c);
    _mm512_mask_storeu_ps(y + c, live, block_max(g, x, s, c, live));
  }
}

/* With `tiled` (the windows cover the input exactly once) every tap's gradient is stored, zero
 * where it lost, so dx needs no clearing first. */
EL_TARGET_AVX512 static void max_grad_pixel_avx512(const el_train_window* g, const float* x,
                                                   const span* s, const float* d, bool tiled,
                                                   float* dx) {
  for (int c = 0; c < g->in_c; c += 16) {
    const __mmask16 live = lanes(g->in_c - c);
    const __m512 m = block_max(g, x, s, c, live), dv = _mm512_maskz_loadu_ps(live, d + c);
    __mmask16 free_lanes = live;
    for (int h = s->h0; h < s->h1; ++h) {
      for (int w = s->w0; w < s->w1; ++w) {
        const size_t off = offset(g, s, h, w) + (size_t)c;
        const __mmask16 hit =
            _mm512_mask_cmp_ps_mask(free_lanes, _mm512_maskz_loadu_ps(live, x + off), m, _CMP_EQ_OQ);
        if (tiled) {
          free_lanes &= (__mmask16)~hit;
          _mm512_mask_storeu_ps(dx + off, live, _mm512_maskz_mov_ps(hit, dv));
          continue;
        }
        if (hit == 0) continue;
        free_lanes &= (__mmask16)~hit;
        const __m512 cur = _mm512_maskz_loadu_ps(hit, dx + off);
        _mm512_mask_storeu_ps(dx + off, hit, _mm512_add_ps(cur, dv));
      }
    }
  }
}
#endif

static void max_pixel(const el_train_window* g, const float* x, const span* s, float* y) {
  window_max(g, x, s, y);
}

static void max_grad_pixel(const el_train_window* g, const float* x, const span* s,
                           const float* d, float* m, int32_t* taken, float* dx) {
  window_max(g, x, s, m);
  memset(taken, 0, (size_t)g->in_c * sizeof(int32_t));
  /* The first element in scan order equal to the maximum takes the gradient (none for NaN). */
  for (int h = s->h0; h < s->h1; ++h) {
    for (int w = s->w0; w < s->w1; ++w) {
      const size_t off = offset(g, s, h, w);
      route_first_max(g->in_c, x + off, m, d, taken, dx + off);
    }
  }
}

static bool use_avx512(const el_train_kernels* k) {
#if defined(__x86_64__)
  return el_isa_at_least(k->isa, EL_ISA_AVX512);
#else
  (void)k;
  return false;
#endif
}

el_status el_train_max_pool(const el_train_kernels* k, const el_train_window* g, const float* x,
                            float* y) {
  el_status st = check(k, g, x, y);
  if (st != EL_OK) return st;
  const size_t pixels = el_train_pixels(g);
  const bool wide = use_avx512(k);
  for (size_t p = 0; p < pixels; ++p) {
    const span s = window_of(g, p);
    float* yp = y + p * (size_t)g->in_c;
#if defined(__x86_64__)
    if (wide) {
      max_pixel_avx512(g, x, &s, yp);
      continue;
    }
#endif
    max_pixel(g, x, &s, yp);
  }
  (void)wide;
  return EL_OK;
}

el_status el_train_max_pool_grad(const el_train_kernels* k, const el_train_window* g,
                                 const float* x, const float* dy, float* dx) {
  el_status st = check(k, g, x, dy);
  if (st != EL_OK || dx == NULL) return st != EL_OK ? st : EL_VALUE_ERROR;
  const int c_in = g->in_c;
  float* m = malloc(((size_t)c_in + 1) * sizeof(float));
  int32_t* taken = malloc(((size_t)c_in + 1) * sizeof(int32_t));
  if (m == NULL || taken == NULL) {
    free(m);
    free(taken);
    return EL_NO_MEMORY;
  }
  const bool wide = use_avx512(k);
  /* Windows side by side without overlap, gap or padding (2x2 stride-2 pooling of even sizes). */
  const bool tiled = wide && g->stride_h == g->k_h && g->stride_w == g->k_w && g->pad_top == 0 &&
                     g->pad_left == 0 && g->out_h * g->k_h == g->in_h && g->out_w * g->k_w == g->in_w;
  if (!tiled) memset(dx, 0, el_train_in_size(g) * sizeof(float));
  const size_t pixels = el_train_pixels(g);
  for (size_t p = 0; p < pixels; ++p) {
    const span s = window_of(g, p);
    const float* d = dy + p * (size_t)c_in;
#if defined(__x86_64__)
    if (wide) {
      max_grad_pixel_avx512(g, x, &s, d, tiled, dx);
      continue;
    }
#endif
    max_grad_pixel(g, x, &s, d, m, taken, dx);
  }
  (void)wide;
  free(m);
  free(taken);
  return EL_OK;
}

el_status el_train_avg_pool(const el_train_kernels* k, const el_train_window* g, const float* x,
                            float* y) {
  el_status st = check(k, g, x, y);
  if (st != EL_OK) return st;
  const int c_in = g->in_c;
  const size_t pixels = el_train_pixels(g);
  for (size_t p = 0; p < pixels; ++p) {
    const span s = window_of(g, p);
    float* yr = y + p * (size_t)c_in;
    memset(yr, 0, (size_t)c_in * sizeof(float));
    for (int h = s.h0; h < s.h1; ++h) {
      for (int w = s.w0; w < s.w1; ++w) {
        const float* xr = x + offset(g, &s, h, w);
        for (int c = 0; c < c_in; ++c) yr[c] += xr[c];
      }
    }
    const double count = (double)(s.h1 - s.h0) * (double)(s.w1 - s.w0);
    for (int c = 0; c < c_in; ++c) yr[c] = (float)((double)yr[c] / count);
  }
  return EL_OK;
}

el_status el_train_avg_pool_grad(const el_train_kernels* k, const el_train_window* g,
                                 const float* dy, float* dx) {
  el_status st = check(k, g, dy, dx);
  if (st != EL_OK) return st;
  const int c_in = g->in_c;
  float* share = malloc(((size_t)c_in + 1) * sizeof(float));
  if (share == NULL) return EL_NO_MEMORY;
  memset(dx, 0, el_train_in_size(g) * sizeof(float));
  const size_t pixels = el_train_pixels(g);
  for (size_t p = 0; p < pixels; ++p) {
    const span s = window_of(g, p);
    const double count = (double)(s.h1 - s.h0) * (double)(s.w1 - s.w0);
    const float* d = dy + p * (size_t)c_in;
    for (int c = 0; c < c_in; ++c) share[c] = (float)((double)d[c] / count);
    for (int h = s.h0; h < s.h1; ++h) {
      for (int w = s.w0; w < s.w1; ++w) {
        float* xr = dx + offset(g, &s, h, w);
        for (int c = 0; c < c_in; ++c) xr[c] += share[c];
      }
    }
  }
  free(share);
  return EL_OK;
}
