/* Max and average pooling with their gradients, pixel by pixel with the channels inner. Taps
 * outside the input take no part: padding never wins a max and averages divide by the number
 * of real elements in the window. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"

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

/* m = max(m, v) per channel; a NaN sticks, as in numpy's max. */
static void max_into(int n, const float* restrict v, float* restrict m) {
  for (int c = 0; c < n; ++c) m[c] = (v[c] > m[c] || isnan(v[c])) ? v[c] : m[c];
}

static void window_max(const el_train_window* g, const float* x, const span* s, float* m) {
  for (int c = 0; c < g->in_c; ++c) m[c] = -INFINITY;
  for (int h = s->h0; h < s->h1; ++h) {
    for (int w = s->w0; w < s->w1; ++w) max_into(g->in_c, x + offset(g, s, h, w), m);
  }
}

el_status el_train_max_pool(const el_train_kernels* k, const el_train_window* g, const float* x,
                            float* y) {
  el_status st = check(k, g, x, y);
  if (st != EL_OK) return st;
  const size_t pixels = el_train_pixels(g);
  for (size_t p = 0; p < pixels; ++p) {
    const span s = window_of(g, p);
    window_max(g, x, &s, y + p * (size_t)g->in_c);
  }
  return EL_OK;
}

el_status el_train_max_pool_grad(const el_train_kernels* k, const el_train_window* g,
                                 const float* x, const float* dy, float* dx) {
  el_status st = check(k, g, x, dy);
  if (st != EL_OK || dx == NULL) return st != EL_OK ? st : EL_VALUE_ERROR;
  const int c_in = g->in_c;
  float* m = malloc(((size_t)c_in + 1) * sizeof(float));
  unsigned char* won = malloc((size_t)c_in + 1);
  if (m == NULL || won == NULL) {
    free(m);
    free(won);
    return EL_NO_MEMORY;
  }
  memset(dx, 0, el_train_in_size(g) * sizeof(float));
  const size_t pixels = el_train_pixels(g);
  for (size_t p = 0; p < pixels; ++p) {
    const span s = window_of(g, p);
    window_max(g, x, &s, m);
    memset(won, 0, (size_t)c_in);
    const float* d = dy + p * (size_t)c_in;
    /* The first element in scan order equal to the maximum takes the gradient. */
    for (int h = s.h0; h < s.h1; ++h) {
      for (int w = s.w0; w < s.w1; ++w) {
        const size_t off = offset(g, &s, h, w);
        for (int c = 0; c < c_in; ++c) {
          if (!won[c] && x[off + (size_t)c] == m[c]) {
            won[c] = 1;
            dx[off + (size_t)c] += d[c];
          }
        }
      }
    }
  }
  free(m);
  free(won);
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
