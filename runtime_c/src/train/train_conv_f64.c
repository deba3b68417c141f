/* float64 convolution and its input / filter gradients as double matrix products:
 *   forward:          y[P][N]  = im2col(x)[P][K] . w[K][N]            (tiles of output pixels)
 *   backprop input:   dx      += col2im(dy[P][N] . w^T[N][K])         (one task per image)
 *   backprop filter:  dw[K][N] = sum over parts of im2col(x)^T . dy   (parts added in order)
 * with P output pixels, K = k_h * k_w * in_c and N output channels. Tiles and parts follow
 * from the shapes alone, so every output is summed in one order on any thread count. */
#include <stdlib.h>
#include <string.h>

#include "train/train_f64_internal.h"

/* Pixels per im2col tile; parts of the filter gradient, and pixels per product within one. */
enum { TILE = 32, MAX_PARTS = 16, PART_TILE = 128 };

/* Adds the im2col-shaped row `col` of output pixel p onto the input elements its taps meet. */
static void col2im_add(const el_train_window* g, const double* col, size_t p, double* dx) {
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w, c = (size_t)g->in_c;
  const size_t rest = p % per_image;
  const int top = (int)(rest / (size_t)g->out_w) * g->stride_h - g->pad_top;
  const int left = (int)(rest % (size_t)g->out_w) * g->stride_w - g->pad_left;
  double* image = dx + (p / per_image) * (size_t)g->in_h * (size_t)g->in_w * c;
  for (int tap = 0; tap < g->k_h * g->k_w; ++tap, col += c) {
    const int ih = top + (tap / g->k_w) * g->dil_h, iw = left + (tap % g->k_w) * g->dil_w;
    if (ih >= 0 && ih < g->in_h && iw >= 0 && iw < g->in_w) {
      double* d = image + ((size_t)ih * (size_t)g->in_w + (size_t)iw) * c;
      for (size_t q = 0; q < c; ++q) d[q] += col[q];
    }
  }
}

/* A 1x1 stride-1 window without padding: x is its own im2col matrix, dy . w^T is dx. */
static bool flat(const el_train_window* g) {
  return g->k_h == 1 && g->k_w == 1 && g->stride_h == 1 && g->stride_w == 1 && g->pad_top == 0 &&
         g->pad_left == 0 && g->out_h == g->in_h && g->out_w == g->in_w;
}

typedef struct job {
  const el_train_kernels* k;
  const el_train_window* g;
  const double* in; /* x, or dy for the input gradient */
  const double* aux; /* dy for the filter gradient */
  const double* packed;
  double* out;
  double* scratch; /* per_thread doubles for each thread */
  size_t per_thread, pixels;
  int kdim, n, parts;
  bool flat;
} job;

static double* thread_scratch(const job* j, int thread) {
  return j->scratch + (size_t)thread * j->per_thread;
}

static int count_of(size_t total, size_t start, int tile) {
  return total - start < (size_t)tile ? (int)(total - start) : tile;
}

static void forward_tile(void* arg, int task, int thread) {
  const job* j = arg;
  const size_t p0 = (size_t)task * TILE;
  const el_dview a = j->flat ? (el_dview){j->in + p0 * (size_t)j->kdim, j->kdim, 1, NULL, 0}
                             : (el_dview){j->in, 0, 0, j->g, p0};
  el_dgemm(j->k, count_of(j->pixels, p0, TILE), j->n, j->kdim, a, j->packed,
           j->out + p0 * (size_t)j->n, j->n, false, thread_scratch(j, thread));
}

/* Runs fn over `tasks` tasks with per_thread doubles of scratch for each thread. */
static el_status run(job* j, int tasks, el_task_fn fn) {
  j->scratch = malloc((size_t)j->k->threads * j->per_thread * sizeof(double));
  if (j->scratch == NULL) return EL_NO_MEMORY;
  el_train_parallel(j->k, tasks, fn, j);
  free(j->scratch);
  return EL_OK;
}

static el_status checked(const el_train_kernels* k, const el_train_window* g, const void* a,
                         const void* b, const void* c) {
  if (k == NULL || a == NULL || b == NULL || c == NULL) return EL_VALUE_ERROR;
  return el_train_check_window(g);
}

static job job_for(const el_train_kernels* k, const el_train_window* g, const double* in,
                   double* out) {
  job j = {0};
  j.k = k;
  j.g = g;
  j.in = in;
  j.out = out;
  j.kdim = g->k_h * g->k_w * g->in_c;
  j.n = g->out_c;
  j.pixels = el_train_pixels(g);
  j.flat = flat(g);
  return j;
}

static int tiles(size_t pixels) { return (int)((pixels + TILE - 1) / TILE); }

/* Packs the depth x width weights b for the products of a tiled pass, then runs it with `cols`
 * doubles of scratch per thread besides the product's. */
static el_status run_packed(job* j, el_dview b, int depth, int width, size_t cols, int tasks,
                            el_task_fn fn) {
  double* packed = malloc(el_dgemm_packed_b(depth, width) * sizeof(double));
  if (packed == NULL) return EL_NO_MEMORY;
  el_dgemm_pack_b(j->k, depth, width, b, packed);
  j->packed = packed;
  j->per_thread = cols + el_dgemm_scratch(depth);
  const el_status st = run(j, tasks, fn);
  free(packed);
  return st;
}

el_status el_train_conv2d_f64(const el_train_kernels* k, const el_train_window* g,
                              const double* x, const double* w, double* y) {
  el_status st = checked(k, g, x, w, y);
  if (st != EL_OK) return st;
  job j = job_for(k, g, x, y);
  return run_packed(&j, (el_dview){w, j.n, 1, NULL, 0}, j.kdim, j.n, 0, tiles(j.pixels),
                    forward_tile);
}

/* The unit-stride input gradient as the forward pass of f (el_train_input_grad_as_forward) with
 * the filter turned by 180 degrees, its channel axes swapped. */
static el_status input_grad_forward(const el_train_kernels* k, const el_train_window* f,
                                    const double* w, const double* dy, double* dx) {
  const size_t taps = (size_t)f->k_h * (size_t)f->k_w, c_in = (size_t)f->out_c;
  const size_t n = (size_t)f->in_c;
  double* turned = malloc(taps * n * c_in * sizeof(double));
  if (turned == NULL) return EL_NO_MEMORY;
  for (size_t t = 0; t < taps; ++t) {
    const double* src = w + (taps - 1 - t) * c_in * n; /* [c_in][n] of the mirrored tap */
    for (size_t q = 0; q < n; ++q) {
      for (size_t c = 0; c < c_in; ++c) turned[(t * n + q) * c_in + c] = src[c * n + q];
    }
  }
  job j = job_for(k, f, dy, dx);
  const el_status st = run_packed(&j, (el_dview){turned, (ptrdiff_t)c_in, 1, NULL, 0}, j.kdim, j.n, 0,
                                  tiles(j.pixels), forward_tile);
  free(turned);
  return st;
}

/* The input gradient of one image, tile after tile, each scattered before the next: every
 * element of dx sums its contributions in one order (images share no element). */
static void input_grad_image(void* arg, int task, int thread) {
  const job* j = arg;
  const size_t per_image = (size_t)j->g->out_h * (size_t)j->g->out_w;
  const size_t end = (size_t)(task + 1) * per_image;
  double* cols = thread_scratch(j, thread);
  double* gemm_scratch = cols + (size_t)TILE * j->kdim;
  for (size_t p0 = (size_t)task * per_image; p0 < end; p0 += TILE) {
    const int rows = count_of(end, p0, TILE);
    const el_dview a = {j->in + p0 * (size_t)j->n, j->n, 1, NULL, 0};
    double* out = j->flat ? j->out + p0 * (size_t)j->kdim : cols;
    el_dgemm(j->k, rows, j->kdim, j->n, a, j->packed, out, j->kdim, false, gemm_scratch);
    for (int r = 0; !j->flat && r < rows; ++r) {
      col2im_add(j->g, cols + (size_t)r * j->kdim, p0 + (size_t)r, j->out);
    }
  }
}

el_status el_train_conv2d_backprop_input_f64(const el_train_kernels* k, const el_train_window* g,
                                             const double* w, const double* dy, double* dx) {
  el_status st = checked(k, g, w, dy, dx);
  if (st != EL_OK) return st;
  el_train_window f;
  if (el_train_input_grad_as_forward(g, &f)) return input_grad_forward(k, &f, w, dy, dx);
  job j = job_for(k, g, dy, dx);
  if (!j.flat) memset(dx, 0, el_train_in_size(g) * sizeof(double));
  /* w^T: N rows of K, element (n, t) at w[t * N + n]. */
  return run_packed(&j, (el_dview){w, 1, j.n, NULL, 0}, j.n, j.kdim, (size_t)TILE * j.kdim,
                    g->batch, input_grad_image);
}

/* Part `task` of the filter gradient (at least one pixel: parts <= pixels): its pixels in tiles,
 * each product added onto the part. */
static void filter_part(void* arg, int task, int thread) {
  const job* j = arg;
  const size_t start = j->pixels * (size_t)task / (size_t)j->parts;
  const size_t end = j->pixels * (size_t)(task + 1) / (size_t)j->parts;
  double* cols = thread_scratch(j, thread);
  double* packed = cols + (size_t)PART_TILE * j->kdim;
  double* gemm_scratch = packed + el_dgemm_packed_b(PART_TILE, j->n);
  double* part = j->out + (size_t)task * j->kdim * j->n;
  for (size_t p0 = start; p0 < end; p0 += PART_TILE) {
    const int cnt = count_of(end, p0, PART_TILE);
    el_dview a = {j->in + p0 * (size_t)j->kdim, 1, j->kdim, NULL, 0};
    if (!j->flat) {
      for (int r = 0; r < cnt; ++r) {
        el_dgemm_window_row(j->g, j->in, p0 + (size_t)r, cols + (size_t)r * j->kdim);
      }
      a.data = cols;
    }
    el_dgemm_pack_b(j->k, cnt, j->n, (el_dview){j->aux + p0 * (size_t)j->n, j->n, 1, NULL, 0}, packed);
    el_dgemm(j->k, j->kdim, j->n, cnt, a, packed, part, j->n, p0 != start, gemm_scratch);
  }
}

el_status el_train_conv2d_backprop_filter_f64(const el_train_kernels* k,
                                              const el_train_window* g, const double* x,
                                              const double* dy, double* dw) {
  el_status st = checked(k, g, x, dy, dw);
  if (st != EL_OK) return st;
  job j = job_for(k, g, x, NULL);
  const size_t size = (size_t)j.kdim * j.n, tiles = (j.pixels + PART_TILE - 1) / PART_TILE;
  j.parts = tiles < MAX_PARTS ? (int)tiles : MAX_PARTS;
  if (j.parts == 0) {
    memset(dw, 0, size * sizeof(double));
    return EL_OK;
  }
  double* parts = malloc((size_t)j.parts * size * sizeof(double));
  if (parts == NULL) return EL_NO_MEMORY;
  j.aux = dy;
  j.out = parts;
  j.per_thread = (size_t)PART_TILE * j.kdim + el_dgemm_packed_b(PART_TILE, j.n) +
                 el_dgemm_scratch(PART_TILE);
  st = run(&j, j.parts, filter_part);
  if (st == EL_OK) {
    memcpy(dw, parts, size * sizeof(double));
    for (int p = 1; p < j.parts; ++p) {
      const double* src = parts + (size_t)p * size;
      for (size_t i = 0; i < size; ++i) dw[i] += src[i];
    }
  }
  free(parts);
  return st;
}
