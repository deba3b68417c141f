/* Depthwise convolution and its input / filter gradients, pixel by pixel with the channels as
 * the vectorized inner loop. Output channel c * M + m (M the channel multiplier) sees input
 * channel c through filter [i][j][c][m]. Taps are visited in (i, j) order and pixels in
 * order, so every output is summed the same way on every run. */
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"
#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"
#endif

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

/* The per-image bodies below are inlined into one plain function and, on x86-64, into AVX2 and
 * AVX-512 ones the compiler vectorizes wider (same operations, so the same bits). */
#define EL_ALWAYS_INLINE static inline __attribute__((always_inline))

/* y[c] += a[c] * b[c]: the multiplier-1 inner loop, on non-overlapping rows. */
EL_ALWAYS_INLINE void mul_acc(int n, const float* restrict a, const float* restrict b,
                           float* restrict y) {
  for (int c = 0; c < n; ++c) y[c] += a[c] * b[c];
}

/* y[c * M + m] += x[c] * w[c * M + m]. */
EL_ALWAYS_INLINE void spread_acc(int c_in, int mult, const float* restrict x, const float* restrict w,
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

/* One depthwise pass split by image: each task owns its image's outputs (forward, input
 * gradient) or its image's partial filter gradient. */
typedef struct dw_job {
  const el_train_window* g;
  const float* a; /* x, or dy for the input gradient */
  const float* b; /* w, or dy for the filter gradient */
  float* out;     /* y, dx, or one partial filter gradient per image */
  taps* t;        /* one per thread */
} dw_job;

/* Output columns lo <= ow < hi whose tap column j lands inside the input. */
static inline void tap_columns(const el_train_window* g, int j, int* lo, int* hi) {
  const int off = j * g->dil_w - g->pad_left, s = g->stride_w;
  *lo = off >= 0 ? 0 : (-off + s - 1) / s;
  *hi = g->in_w - off <= 0 ? 0 : (g->in_w - off + s - 1) / s;
  if (*hi > g->out_w) *hi = g->out_w;
  if (*lo > *hi) *lo = *hi;
}

/* Channel multiplier 1, one image: output row by output row, tap by tap, the columns a tap
 * reaches in one run (no per-pixel tap list). `kind` 0: y += x * w, 1: dx += dy * w,
 * 2: dw += x * dy. Each output element still sums its terms in tap order (forward) or pixel
 * order (filter gradient). */
EL_ALWAYS_INLINE void rows_mult1(const dw_job* j, int b, int kind) {
  const el_train_window* g = j->g;
  const size_t c = (size_t)g->in_c, in_row = (size_t)g->in_w * c, out_row = (size_t)g->out_w * c;
  for (int oh = 0; oh < g->out_h; ++oh) {
    const size_t orow = ((size_t)b * g->out_h + (size_t)oh) * out_row;
    if (kind == 0) memset(j->out + orow, 0, out_row * sizeof(float));
    for (int i = 0; i < g->k_h; ++i) {
      const int ih = oh * g->stride_h + i * g->dil_h - g->pad_top;
      if (ih < 0 || ih >= g->in_h) continue;
      const size_t irow = ((size_t)b * g->in_h + (size_t)ih) * in_row;
      for (int jj = 0; jj < g->k_w; ++jj) {
        int lo, hi;
        tap_columns(g, jj, &lo, &hi);
        const size_t tap = (size_t)(i * g->k_w + jj) * c;
        const ptrdiff_t off = (ptrdiff_t)(jj * g->dil_w - g->pad_left) * (ptrdiff_t)c;
        const size_t step = (size_t)g->stride_w * c;
        for (int ow = lo; ow < hi; ++ow) {
          const size_t o = orow + (size_t)ow * c, in = irow + (size_t)ow * step + (size_t)off;
          if (kind == 0) {
            mul_acc((int)c, j->a + in, j->b + tap, j->out + o);
          } else if (kind == 1) {
            mul_acc((int)c, j->a + o, j->b + tap, j->out + in);
          } else {
            mul_acc((int)c, j->a + in, j->b + o,
                    j->out + (size_t)b * (size_t)g->k_h * g->k_w * c + tap);
          }
        }
      }
    }
  }
}

EL_ALWAYS_INLINE void forward_body(void* arg, int task, int thread) {
  const dw_job* j = arg;
  const el_train_window* g = j->g;
  if (g->out_c == 1) {
    rows_mult1(j, task, 0);
    return;
  }
  taps* t = &j->t[thread];
  const size_t cm = (size_t)g->in_c * (size_t)g->out_c, per_image = (size_t)g->out_h * g->out_w;
  for (size_t p = (size_t)task * per_image; p < (size_t)(task + 1) * per_image; ++p) {
    float* yr = j->out + p * cm;
    memset(yr, 0, cm * sizeof(float));
    pixel_taps(g, p, t);
    for (int q = 0; q < t->count; ++q) {
      spread_acc(g->in_c, g->out_c, j->a + t->in_off[q], j->b + (size_t)t->tap[q] * cm, yr);
    }
  }
}

EL_ALWAYS_INLINE void input_grad_body(void* arg, int task, int thread) {
  const dw_job* j = arg;
  const el_train_window* g = j->g;
  if (g->out_c == 1) {
    rows_mult1(j, task, 1);
    return;
  }
  taps* t = &j->t[thread];
  const int c_in = g->in_c, mult = g->out_c;
  const size_t cm = (size_t)c_in * (size_t)mult, per_image = (size_t)g->out_h * g->out_w;
  for (size_t p = (size_t)task * per_image; p < (size_t)(task + 1) * per_image; ++p) {
    const float* dr = j->a + p * cm;
    pixel_taps(g, p, t);
    for (int q = 0; q < t->count; ++q) {
      float* xr = j->out + t->in_off[q];
      const float* wr = j->b + (size_t)t->tap[q] * cm;
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
}

EL_ALWAYS_INLINE void filter_grad_body(void* arg, int task, int thread) {
  const dw_job* j = arg;
  const el_train_window* g = j->g;
  taps* t = &j->t[thread];
  const size_t cm = (size_t)g->in_c * (size_t)g->out_c, per_image = (size_t)g->out_h * g->out_w;
  float* part = j->out + (size_t)task * (size_t)g->k_h * g->k_w * cm;
  memset(part, 0, (size_t)g->k_h * g->k_w * cm * sizeof(float));
  if (g->out_c == 1) {
    rows_mult1(j, task, 2);
    return;
  }
  for (size_t p = (size_t)task * per_image; p < (size_t)(task + 1) * per_image; ++p) {
    pixel_taps(g, p, t);
    for (int q = 0; q < t->count; ++q) {
      spread_acc(g->in_c, g->out_c, j->a + t->in_off[q], j->b + p * cm, part + (size_t)t->tap[q] * cm);
    }
  }
}

/* The plain, AVX2 and AVX-512 task functions of one body. */
#define DW_VARIANTS(name, body)                                                              \
  static void name(void* arg, int task, int thread) { body(arg, task, thread); }             \
  DW_X86_VARIANTS(name, body)
#if defined(__x86_64__)
#define DW_X86_VARIANTS(name, body)                                                          \
  EL_TARGET_AVX2 static void name##_avx2(void* arg, int task, int thread) {                  \
    body(arg, task, thread);                                                                 \
  }                                                                                          \
  EL_TARGET_AVX512 static void name##_avx512(void* arg, int task, int thread) {              \
    body(arg, task, thread);                                                                 \
  }
#define DW_PICK(k, name) \
  (el_isa_at_least((k)->isa, EL_ISA_AVX512) ? name##_avx512 \
   : el_isa_at_least((k)->isa, EL_ISA_AVX2) ? name##_avx2 : name)
#else
#define DW_X86_VARIANTS(name, body)
#define DW_PICK(k, name) (name)
#endif

DW_VARIANTS(forward_image, forward_body)
DW_VARIANTS(input_grad_image, input_grad_body)
DW_VARIANTS(filter_grad_image, filter_grad_body)

/* Runs fn over the images with one taps list per thread. */
static el_status run_images(const el_train_kernels* k, dw_job* j, el_task_fn fn) {
  j->t = malloc((size_t)k->threads * sizeof(taps));
  if (j->t == NULL) return EL_NO_MEMORY;
  int made = 0;
  el_status st = EL_OK;
  for (; made < k->threads && st == EL_OK; ++made) st = taps_alloc(j->g, &j->t[made]);
  if (st == EL_OK) el_train_parallel(k, j->g->batch, fn, j);
  for (int i = 0; i < made - (st != EL_OK); ++i) taps_free(&j->t[i]);
  free(j->t);
  return st;
}

el_status el_train_depthwise_conv2d(const el_train_kernels* k, const el_train_window* g,
                                    const float* x, const float* w, float* y) {
  el_status st = check(k, g, x, w, y);
  if (st != EL_OK) return st;
  dw_job j = {g, x, w, y, NULL};
  return run_images(k, &j, DW_PICK(k, forward_image));
}

el_status el_train_depthwise_backprop_input(const el_train_kernels* k, const el_train_window* g,
                                            const float* w, const float* dy, float* dx) {
  el_status st = check(k, g, w, dy, dx);
  if (st != EL_OK) return st;
  memset(dx, 0, el_train_in_size(g) * sizeof(float));
  dw_job j = {g, dy, w, dx, NULL};
  return run_images(k, &j, DW_PICK(k, input_grad_image));
}

el_status el_train_depthwise_backprop_filter(const el_train_kernels* k, const el_train_window* g,
                                             const float* x, const float* dy, float* dw) {
  el_status st = check(k, g, x, dy, dw);
  if (st != EL_OK) return st;
  const size_t size = (size_t)g->k_h * g->k_w * (size_t)g->in_c * (size_t)g->out_c;
  /* One partial sum per image, added in image order: shorter float sums than one over the
   * batch, and the same order whatever thread computed which image. */
  float* parts = malloc((size_t)g->batch * size * sizeof(float));
  if (parts == NULL) return EL_NO_MEMORY;
  dw_job j = {g, x, dy, parts, NULL};
  st = run_images(k, &j, DW_PICK(k, filter_grad_image));
  if (st == EL_OK) {
    memset(dw, 0, size * sizeof(float));
    for (int b = 0; b < g->batch; ++b) {
      const float* pb = parts + (size_t)b * size;
      for (size_t q = 0; q < size; ++q) dw[q] += pb[q];
    }
  }
  free(parts);
  return st;
}
