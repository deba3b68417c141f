/* Depthwise convolution and its input / filter gradients, pixel by pixel with the channels as
 * the vectorized inner loop. Output channel c * M + m (M the channel multiplier) sees input
 * channel c through filter [i][j][c][m]. Taps are visited in (i, j) order and pixels in
 * order, so every output is summed the same way on every run. */
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"

/* The taps of one output pixel that land inside the input: where they read the input (offset
 * in floats) and which filter tap (i * k_w + j) they are, in (i, j) order. */
typedef struct taps {
  int count;
  size_t* in_off;
  int* tap;
} taps;

static el_status taps_alloc(const el_train_window* g, taps* t) {
  const size_t n = (size_t)g->k_h * (size_t)g->k_w;
  t->count = 0;
  t->in_off = malloc(n * sizeof(size_t));
  t->tap = malloc(n * sizeof(int));
  if (t->in_off == NULL || t->tap == NULL) {
    free(t->in_off);
    free(t->tap);
    return EL_NO_MEMORY;
  }
  return EL_OK;
}

static void taps_free(taps* t) {
  free(t->in_off);
  free(t->tap);
}

static void pixel_taps(const el_train_window* g, size_t p, taps* t) {
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w;
  const size_t b = p / per_image, rest = p % per_image;
  const int oh = (int)(rest / (size_t)g->out_w), ow = (int)(rest % (size_t)g->out_w);
  t->count = 0;
  for (int i = 0; i < g->k_h; ++i) {
    const int ih = oh * g->stride_h + i * g->dil_h - g->pad_top;
    if (ih < 0 || ih >= g->in_h) continue;
    for (int j = 0; j < g->k_w; ++j) {
      const int iw = ow * g->stride_w + j * g->dil_w - g->pad_left;
      if (iw < 0 || iw >= g->in_w) continue;
      t->in_off[t->count] =
          ((b * (size_t)g->in_h + (size_t)ih) * (size_t)g->in_w + (size_t)iw) * (size_t)g->in_c;
      t->tap[t->count++] = i * g->k_w + j;
    }
  }
}

/* y[c] += a[c] * b[c]: the multiplier-1 inner loop, on non-overlapping rows. */
static inline void mul_acc(int n, const float* restrict a, const float* restrict b,
                           float* restrict y) {
  for (int c = 0; c < n; ++c) y[c] += a[c] * b[c];
}

/* y[c * M + m] += x[c] * w[c * M + m]. */
static void spread_acc(int c_in, int mult, const float* restrict x, const float* restrict w,
                       float* restrict y) {
  if (mult == 1) {
    mul_acc(c_in, x, w, y);
    return;
  }
  for (int c = 0; c < c_in; ++c) {
    for (int m = 0; m < mult; ++m) y[c * mult + m] += x[c] * w[c * mult + m];
  }
}

static el_status check(const el_train_kernels* k, const el_train_window* g, const void* a,
                       const void* b, const void* c) {
  if (k == NULL || a == NULL || b == NULL || c == NULL) return EL_VALUE_ERROR;
  return el_train_check_window(g);
}

el_status el_train_depthwise_conv2d(const el_train_kernels* k, const el_train_window* g,
                                    const float* x, const float* w, float* y) {
  el_status st = check(k, g, x, w, y);
  taps t;
  if (st != EL_OK || (st = taps_alloc(g, &t)) != EL_OK) return st;
  const size_t cm = (size_t)g->in_c * (size_t)g->out_c, pixels = el_train_pixels(g);
  for (size_t p = 0; p < pixels; ++p) {
    float* yr = y + p * cm;
    memset(yr, 0, cm * sizeof(float));
    pixel_taps(g, p, &t);
    for (int q = 0; q < t.count; ++q) {
      spread_acc(g->in_c, g->out_c, x + t.in_off[q], w + (size_t)t.tap[q] * cm, yr);
    }
  }
  taps_free(&t);
  return EL_OK;
}

el_status el_train_depthwise_backprop_input(const el_train_kernels* k, const el_train_window* g,
                                            const float* w, const float* dy, float* dx) {
  el_status st = check(k, g, w, dy, dx);
  taps t;
  if (st != EL_OK || (st = taps_alloc(g, &t)) != EL_OK) return st;
  const int c_in = g->in_c, mult = g->out_c;
  const size_t cm = (size_t)c_in * (size_t)mult, pixels = el_train_pixels(g);
  memset(dx, 0, el_train_in_size(g) * sizeof(float));
  for (size_t p = 0; p < pixels; ++p) {
    const float* dr = dy + p * cm;
    pixel_taps(g, p, &t);
    for (int q = 0; q < t.count; ++q) {
      float* xr = dx + t.in_off[q];
      const float* wr = w + (size_t)t.tap[q] * cm;
      if (mult == 1) {
        mul_acc(c_in, dr, wr, xr);
        continue;
      }
      for (int c = 0; c < c_in; ++c) {
        float s = 0.0f;
        for (int m = 0; m < mult; ++m) s += dr[c * mult + m] * wr[c * mult + m];
        xr[c] += s;
      }
    }
  }
  taps_free(&t);
  return EL_OK;
}

el_status el_train_depthwise_backprop_filter(const el_train_kernels* k, const el_train_window* g,
                                             const float* x, const float* dy, float* dw) {
  el_status st = check(k, g, x, dy, dw);
  taps t;
  if (st != EL_OK || (st = taps_alloc(g, &t)) != EL_OK) return st;
  const size_t cm = (size_t)g->in_c * (size_t)g->out_c, size = (size_t)g->k_h * g->k_w * cm;
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w;
  /* Each image's sum goes to its own buffer first: shorter float sums than one over the batch. */
  float* part = malloc(size * sizeof(float));
  if (part == NULL) {
    taps_free(&t);
    return EL_NO_MEMORY;
  }
  memset(dw, 0, size * sizeof(float));
  for (int b = 0; b < g->batch; ++b) {
    memset(part, 0, size * sizeof(float));
    for (size_t p = (size_t)b * per_image; p < (size_t)(b + 1) * per_image; ++p) {
      const float* dr = dy + p * cm;
      pixel_taps(g, p, &t);
      for (int q = 0; q < t.count; ++q) {
        spread_acc(g->in_c, g->out_c, x + t.in_off[q], dr, part + (size_t)t.tap[q] * cm);
      }
    }
    for (size_t q = 0; q < size; ++q) dw[q] += part[q];
  }
  free(part);
  taps_free(&t);
  return EL_OK;
}
