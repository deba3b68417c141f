/* float64 max and average pooling with their gradients, one task per image (the gradients
 * scatter within their image only). Taps outside the input take no part: padding never wins a
 * max, averages divide by the real elements of the window, and a max's gradient goes to the
 * first maximum of its window in scan order (none for a NaN maximum). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_f64_internal.h"

typedef struct job {
  const el_train_window* g;
  const double* x;
  const double* dy;
  double* out;
  double* scratch; /* per thread: 2 * in_c doubles */
} job;

/* The input rows [h0, h1) and columns [w0, w1) of output pixel (oh, ow)'s window. */
typedef struct box {
  int h0, h1, w0, w1;
} box;

static int clamp(int v, int hi) { return v < 0 ? 0 : v > hi ? hi : v; }

static box box_of(const el_train_window* g, int oh, int ow) {
  const int top = oh * g->stride_h - g->pad_top, left = ow * g->stride_w - g->pad_left;
  box b = {clamp(top, g->in_h), clamp(top + g->k_h, g->in_h), clamp(left, g->in_w),
           clamp(left + g->k_w, g->in_w)};
  return b;
}

/* Where input pixel (img, h, w) starts in x or dx. */
static size_t at(const el_train_window* g, size_t img, int h, int w) {
  return ((img * (size_t)g->in_h + (size_t)h) * (size_t)g->in_w + (size_t)w) * (size_t)g->in_c;
}

/* m = the window maximum per channel; a NaN sticks as in numpy's max. */
static void window_max(const job* j, size_t img, box b, double* m) {
  const int c_in = j->g->in_c;
  for (int c = 0; c < c_in; ++c) m[c] = -INFINITY;
  for (int h = b.h0; h < b.h1; ++h) {
    for (int w = b.w0; w < b.w1; ++w) {
      const double* v = j->x + at(j->g, img, h, w);
      for (int c = 0; c < c_in; ++c) m[c] = (v[c] > m[c]) | (v[c] != v[c]) ? v[c] : m[c];
    }
  }
}

/* Calls visit(j, img, window, output pixel index, thread) for every output pixel of one image. */
typedef void (*visit_fn)(const job*, size_t, box, size_t, int);

static void each_window(const job* j, int task, int thread, visit_fn visit) {
  const el_train_window* g = j->g;
  size_t p = (size_t)task * (size_t)g->out_h * (size_t)g->out_w;
  for (int oh = 0; oh < g->out_h; ++oh) {
    for (int ow = 0; ow < g->out_w; ++ow, ++p) visit(j, (size_t)task, box_of(g, oh, ow), p, thread);
  }
}

static double window_size(box b) { return (double)(b.h1 - b.h0) * (double)(b.w1 - b.w0); }

static void max_visit(const job* j, size_t img, box b, size_t p, int thread) {
  (void)thread;
  window_max(j, img, b, j->out + p * (size_t)j->g->in_c);
}

static void max_grad_visit(const job* j, size_t img, box b, size_t p, int thread) {
  const int c_in = j->g->in_c;
  double* m = j->scratch + (size_t)thread * 2 * (size_t)c_in;
  double* open = m + c_in; /* 1 until a tap of the channel took the gradient */
  window_max(j, img, b, m);
  for (int c = 0; c < c_in; ++c) open[c] = 1.0;
  const double* d = j->dy + p * (size_t)c_in;
  for (int h = b.h0; h < b.h1; ++h) {
    for (int w = b.w0; w < b.w1; ++w) {
      const double* v = j->x + at(j->g, img, h, w);
      double* dx = j->out + at(j->g, img, h, w);
      for (int c = 0; c < c_in; ++c) {
        const bool hit = v[c] == m[c] && open[c] != 0.0;
        dx[c] += hit ? d[c] : 0.0;
        open[c] = hit ? 0.0 : open[c];
      }
    }
  }
}

static void avg_visit(const job* j, size_t img, box b, size_t p, int thread) {
  (void)thread;
  const int c_in = j->g->in_c;
  double* y = j->out + p * (size_t)c_in;
  memset(y, 0, (size_t)c_in * sizeof(double));
  for (int h = b.h0; h < b.h1; ++h) {
    for (int w = b.w0; w < b.w1; ++w) {
      const double* v = j->x + at(j->g, img, h, w);
      for (int c = 0; c < c_in; ++c) y[c] += v[c];
    }
  }
  const double count = window_size(b);
  for (int c = 0; c < c_in; ++c) y[c] /= count;
}

static void avg_grad_visit(const job* j, size_t img, box b, size_t p, int thread) {
  const int c_in = j->g->in_c;
  double* share = j->scratch + (size_t)thread * 2 * (size_t)c_in;
  const double count = window_size(b);
  for (int c = 0; c < c_in; ++c) share[c] = j->dy[p * (size_t)c_in + (size_t)c] / count;
  for (int h = b.h0; h < b.h1; ++h) {
    for (int w = b.w0; w < b.w1; ++w) {
      double* dx = j->out + at(j->g, img, h, w);
      for (int c = 0; c < c_in; ++c) dx[c] += share[c];
    }
  }
}

static void max_image(void* arg, int task, int thread) {
  each_window(arg, task, thread, max_visit);
}
static void avg_image(void* arg, int task, int thread) {
  each_window(arg, task, thread, avg_visit);
}
static void max_grad_image(void* arg, int task, int thread) {
  each_window(arg, task, thread, max_grad_visit);
}
static void avg_grad_image(void* arg, int task, int thread) {
  each_window(arg, task, thread, avg_grad_visit);
}

/* Checks the call, clears dx for a gradient and runs one task per image. */
static el_status pool(const el_train_kernels* k, const el_train_window* g, const double* x,
                      const double* dy, double* out, bool grad, el_task_fn fn) {
  if (k == NULL || out == NULL || (x == NULL && dy == NULL)) return EL_VALUE_ERROR;
  el_status st = el_train_check_window(g);
  if (st != EL_OK) return st;
  if (g->dil_h != 1 || g->dil_w != 1 || g->out_c != g->in_c) return EL_VALUE_ERROR;
  job j = {g, x, dy, out, malloc((size_t)k->threads * 2 * (size_t)g->in_c * sizeof(double))};
  if (j.scratch == NULL) return EL_NO_MEMORY;
  if (grad) memset(out, 0, el_train_in_size(g) * sizeof(double));
  el_train_parallel(k, g->batch, fn, &j);
  free(j.scratch);
  return EL_OK;
}

el_status el_train_max_pool_f64(const el_train_kernels* k, const el_train_window* g,
                                const double* x, double* y) {
  return x == NULL ? EL_VALUE_ERROR : pool(k, g, x, NULL, y, false, max_image);
}

el_status el_train_max_pool_grad_f64(const el_train_kernels* k, const el_train_window* g,
                                     const double* x, const double* dy, double* dx) {
  return x == NULL || dy == NULL ? EL_VALUE_ERROR : pool(k, g, x, dy, dx, true, max_grad_image);
}

el_status el_train_avg_pool_f64(const el_train_kernels* k, const el_train_window* g,
                                const double* x, double* y) {
  return x == NULL ? EL_VALUE_ERROR : pool(k, g, x, NULL, y, false, avg_image);
}

el_status el_train_avg_pool_grad_f64(const el_train_kernels* k, const el_train_window* g,
                                     const double* dy, double* dx) {
  return dy == NULL ? EL_VALUE_ERROR : pool(k, g, NULL, dy, dx, true, avg_grad_image);
}
