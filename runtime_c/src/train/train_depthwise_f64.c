/* float64 depthwise convolution and its gradients, tap by tap with the channels inner: output
 * channel c * M + m sees input channel c through filter [tap][c][m] (M = g->out_c, the
 * multiplier). Forward rows, images (input gradient) and taps (filter gradient) are the tasks,
 * each summing in scan order. */
#include <string.h>

#include "train/train_f64_internal.h"

static el_status checked(const el_train_kernels* k, const el_train_window* g, const void* a,
                         const void* b, const void* c) {
  if (k == NULL || a == NULL || b == NULL || c == NULL) return EL_VALUE_ERROR;
  return el_train_check_window(g);
}

/* Output channels per pixel (g->out_c is the channel multiplier). */
static size_t width(const el_train_window* g) { return (size_t)g->in_c * (size_t)g->out_c; }

typedef struct job {
  const el_train_window* g;
  const double* a; /* x, or dy for the input gradient */
  const double* b; /* w, or dy for the filter gradient */
  double* out;
} job;

/* The three entry points differ only in their operands and how the work splits into tasks. */
enum task_split { BY_OUTPUT_ROW, BY_IMAGE, BY_TAP };

static el_status run(const el_train_kernels* k, const el_train_window* g, const double* a,
                     const double* b, double* out, enum task_split split, el_task_fn fn) {
  el_status st = checked(k, g, a, b, out);
  if (st != EL_OK) return st;
  const int tasks = split == BY_OUTPUT_ROW ? g->batch * g->out_h
                    : split == BY_IMAGE    ? g->batch
                                           : g->k_h * g->k_w;
  job j = {g, a, b, out};
  el_train_parallel(k, tasks, fn, &j);
  return EL_OK;
}

/* The index of the input pixel that tap `tap` of output pixel (img, oh, ow) meets; *in false
 * (and the index 0) when the tap falls into the padding. */
static size_t tap_pixel(const el_train_window* g, size_t img, int oh, int ow, int tap, bool* in) {
  const int ih = oh * g->stride_h + (tap / g->k_w) * g->dil_h - g->pad_top;
  const int iw = ow * g->stride_w + (tap % g->k_w) * g->dil_w - g->pad_left;
  *in = ih >= 0 && ih < g->in_h && iw >= 0 && iw < g->in_w;
  return *in ? (img * (size_t)g->in_h + (size_t)ih) * (size_t)g->in_w + (size_t)iw : 0;
}

static void forward_row(void* arg, int task, int thread) {
  (void)thread;
  const job* j = arg;
  const el_train_window* g = j->g;
  const int c_in = g->in_c, mult = g->out_c;
  const size_t img = (size_t)task / (size_t)g->out_h;
  const int oh = task % g->out_h;
  double* y = j->out + (size_t)task * g->out_w * width(g);
  for (int ow = 0; ow < g->out_w; ++ow, y += width(g)) {
    memset(y, 0, width(g) * sizeof(double));
    for (int tap = 0; tap < g->k_h * g->k_w; ++tap) {
      bool in;
      const size_t pixel = tap_pixel(g, img, oh, ow, tap, &in);
      if (!in) continue;
      const double* x = j->a + pixel * (size_t)c_in;
      const double* w = j->b + (size_t)tap * width(g);
      for (int c = 0; c < c_in; ++c) {
        for (int m = 0; m < mult; ++m) y[c * mult + m] += x[c] * w[c * mult + m];
      }
    }
  }
}

el_status el_train_depthwise_conv2d_f64(const el_train_kernels* k, const el_train_window* g,
                                        const double* x, const double* w, double* y) {
  return run(k, g, x, w, y, BY_OUTPUT_ROW, forward_row);
}

static void input_grad_image(void* arg, int task, int thread) {
  (void)thread;
  const job* j = arg;
  const el_train_window* g = j->g;
  const int c_in = g->in_c, mult = g->out_c;
  const size_t img = (size_t)task;
  const double* dy = j->a + img * (size_t)g->out_h * g->out_w * width(g);
  memset(j->out + img * (size_t)g->in_h * g->in_w * (size_t)c_in, 0,
         (size_t)g->in_h * g->in_w * (size_t)c_in * sizeof(double));
  for (int oh = 0; oh < g->out_h; ++oh) {
    for (int ow = 0; ow < g->out_w; ++ow, dy += width(g)) {
      for (int tap = 0; tap < g->k_h * g->k_w; ++tap) {
        bool in;
        const size_t pixel = tap_pixel(g, img, oh, ow, tap, &in);
        if (!in) continue;
        double* dx = j->out + pixel * (size_t)c_in;
        const double* w = j->b + (size_t)tap * width(g);
        for (int c = 0; c < c_in; ++c) {
          double s = 0.0;
          for (int m = 0; m < mult; ++m) s += dy[c * mult + m] * w[c * mult + m];
          dx[c] += s;
        }
      }
    }
  }
}

el_status el_train_depthwise_backprop_input_f64(const el_train_kernels* k,
                                                const el_train_window* g, const double* w,
                                                const double* dy, double* dx) {
  return run(k, g, dy, w, dx, BY_IMAGE, input_grad_image);
}

static void filter_grad_tap(void* arg, int tap, int thread) {
  (void)thread;
  const job* j = arg;
  const el_train_window* g = j->g;
  const int c_in = g->in_c, mult = g->out_c;
  double* dw = j->out + (size_t)tap * width(g);
  const double* dy = j->b;
  memset(dw, 0, width(g) * sizeof(double));
  for (size_t img = 0; img < (size_t)g->batch; ++img) {
    for (int oh = 0; oh < g->out_h; ++oh) {
      for (int ow = 0; ow < g->out_w; ++ow, dy += width(g)) {
        bool in;
        const size_t pixel = tap_pixel(g, img, oh, ow, tap, &in);
        if (!in) continue;
        const double* x = j->a + pixel * (size_t)c_in;
        for (int c = 0; c < c_in; ++c) {
          for (int m = 0; m < mult; ++m) dw[c * mult + m] += x[c] * dy[c * mult + m];
        }
      }
    }
  }
}

el_status el_train_depthwise_backprop_filter_f64(const el_train_kernels* k,
                                                 const el_train_window* g, const double* x,
                                                 const double* dy, double* dw) {
  return run(k, g, x, dy, dw, BY_TAP, filter_grad_tap);
}
