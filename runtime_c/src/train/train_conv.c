/* Convolution forward and its input / filter gradients as matrix products on the float GEMM:
 *   forward:          y[P][N]  = im2col(x)[P][K] . w[K][N]
 *   backprop input:   dx      += col2im(dy[P][N] . w^T[N][K])
 *   backprop filter:  dw[K][N] = sum over pixel chunks of im2col(x)^T[K][p] . dy[p][N]
 * with P output pixels, K = k_h * k_w * in_c and N output channels. Pixels go in tiles of a
 * fixed size, so every output is summed in an order set by the shapes alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"

/* Output pixels per im2col tile of the forward and input-gradient passes (a multiple of every
 * micro-kernel's row count would waste nothing; 48 rows keep the tile in L2 for K <= 2304). */
enum { TILE_ROWS = 48, FILTER_CHUNK = 256 };

static bool pointwise(const el_train_window* g) {
  return g->k_h == 1 && g->k_w == 1 && g->stride_h == 1 && g->stride_w == 1 && g->pad_top == 0 &&
         g->pad_left == 0 && g->out_h == g->in_h && g->out_w == g->in_w;
}

static el_status check(const el_train_kernels* k, const el_train_window* g, const void* a,
                       const void* b, const void* c) {
  if (k == NULL || a == NULL || b == NULL || c == NULL) return EL_VALUE_ERROR;
  return el_train_check_window(g);
}

el_status el_train_conv2d(const el_train_kernels* k, const el_train_window* g, const float* x,
                          const float* w, float* y) {
  el_status st = check(k, g, x, w, y);
  if (st != EL_OK) return st;
  const int kdim = g->k_h * g->k_w * g->in_c, n = g->out_c;
  const size_t pixels = el_train_pixels(g);
  float* packed = malloc(el_train_packed_floats(kdim, n) * sizeof(float));
  float* cols = pointwise(g) ? NULL : malloc((size_t)TILE_ROWS * (size_t)kdim * sizeof(float));
  if (packed == NULL || (cols == NULL && !pointwise(g))) {
    free(packed);
    free(cols);
    return EL_NO_MEMORY;
  }
  el_train_pack_rows(w, n, kdim, n, packed);
  for (size_t p0 = 0; p0 < pixels; p0 += TILE_ROWS) {
    const int rows = pixels - p0 < TILE_ROWS ? (int)(pixels - p0) : TILE_ROWS;
    const float* a = x + p0 * (size_t)kdim;
    if (cols != NULL) {
      for (int r = 0; r < rows; ++r) el_train_im2col_row(g, x, p0 + (size_t)r, cols + (size_t)r * kdim);
      a = cols;
    }
    el_train_matmul(k->fk, rows, n, kdim, a, kdim, packed, y + p0 * (size_t)n, n);
  }
  free(packed);
  free(cols);
  return EL_OK;
}

/* Adds the per-tap gradients of output pixel p (K floats) onto the taps' input elements. */
static void col2im_add(const el_train_window* g, const float* col, size_t p, float* dx) {
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w;
  const size_t b = p / per_image, rest = p % per_image;
  const int oh = (int)(rest / (size_t)g->out_w), ow = (int)(rest % (size_t)g->out_w);
  const size_t c = (size_t)g->in_c;
  float* image = dx + b * (size_t)g->in_h * (size_t)g->in_w * c;
  for (int i = 0; i < g->k_h; ++i) {
    const int ih = oh * g->stride_h + i * g->dil_h - g->pad_top;
    for (int j = 0; j < g->k_w; ++j, col += c) {
      const int iw = ow * g->stride_w + j * g->dil_w - g->pad_left;
      if (ih < 0 || ih >= g->in_h || iw < 0 || iw >= g->in_w) continue;
      float* d = image + ((size_t)ih * (size_t)g->in_w + (size_t)iw) * c;
      for (size_t q = 0; q < c; ++q) d[q] += col[q];
    }
  }
}

el_status el_train_conv2d_backprop_input(const el_train_kernels* k, const el_train_window* g,
                                         const float* w, const float* dy, float* dx) {
  el_status st = check(k, g, w, dy, dx);
  if (st != EL_OK) return st;
  const int kdim = g->k_h * g->k_w * g->in_c, n = g->out_c;
  const size_t pixels = el_train_pixels(g);
  /* w is K rows of N floats: packed as the transpose of the N x K weights the GEMM takes. */
  float* packed = malloc(el_train_packed_floats(n, kdim) * sizeof(float));
  float* cols = pointwise(g) ? NULL : malloc((size_t)TILE_ROWS * (size_t)kdim * sizeof(float));
  if (packed == NULL || (cols == NULL && !pointwise(g))) {
    free(packed);
    free(cols);
    return EL_NO_MEMORY;
  }
  el_fgemm_pack(w, kdim, n, packed);
  if (cols != NULL) memset(dx, 0, el_train_in_size(g) * sizeof(float));
  for (size_t p0 = 0; p0 < pixels; p0 += TILE_ROWS) {
    const int rows = pixels - p0 < TILE_ROWS ? (int)(pixels - p0) : TILE_ROWS;
    /* A 1x1 stride-1 window maps each output pixel onto one input pixel: no col2im. */
    float* out = cols != NULL ? cols : dx + p0 * (size_t)kdim;
    el_train_matmul(k->fk, rows, kdim, n, dy + p0 * (size_t)n, n, packed, out, kdim);
    if (cols == NULL) continue;
    for (int r = 0; r < rows; ++r) col2im_add(g, cols + (size_t)r * kdim, p0 + (size_t)r, dx);
  }
  free(packed);
  free(cols);
  return EL_OK;
}

/* Builds rows oh0 .. oh0 + nrows - 1 of image b's transposed im2col matrix (row (i, j, c): the
 * element tap (i, j) meets in channel c for each output pixel) from the padded channel-major
 * input: the path for column strides above 1. */
static void im2col_t(const el_train_window* g, const float* xt, int hp, int wp, int b, int oh0,
                     int nrows, float* cols) {
  const size_t cnt = (size_t)nrows * (size_t)g->out_w;
  for (int t = 0; t < g->k_h * g->k_w * g->in_c; ++t) {
    const int c = t % g->in_c, tap = t / g->in_c, i = tap / g->k_w, j = tap % g->k_w;
    float* dst = cols + (size_t)t * cnt;
    for (int r = 0; r < nrows; ++r, dst += g->out_w) {
      const float* src = xt + (((size_t)b * g->in_c + (size_t)c) * hp +
                               (size_t)((oh0 + r) * g->stride_h + i * g->dil_h)) * wp +
                         (size_t)(j * g->dil_w);
      for (int ow = 0; ow < g->out_w; ++ow) dst[ow] = src[(size_t)ow * g->stride_w];
    }
  }
}

/* Channel-major copy of x with the padding made explicit: [batch][in_c][hp][wp], zeros around. */
static void transpose_padded(const el_train_window* g, const float* x, int hp, int wp, float* xt) {
  const size_t plane = (size_t)hp * (size_t)wp, c_in = (size_t)g->in_c;
  memset(xt, 0, (size_t)g->batch * c_in * plane * sizeof(float));
  for (int b = 0; b < g->batch; ++b) {
    float* tb = xt + (size_t)b * c_in * plane;
    for (int h = 0; h < g->in_h; ++h) {
      for (int w = 0; w < g->in_w; ++w) {
        const float* src = x + (((size_t)b * g->in_h + (size_t)h) * g->in_w + (size_t)w) * c_in;
        float* dst = tb + (size_t)(h + g->pad_top) * wp + (size_t)(w + g->pad_left);
        for (size_t c = 0; c < c_in; ++c) dst[c * plane] = src[c];
      }
    }
  }
}

/* part[K][N] = im2col(rows oh0 .. oh0 + nrows - 1 of image b)^T . dyc, without building the
 * im2col matrix: with unit column stride, row (i, j, c) of it is nrows runs of out_w floats of
 * the padded channel-major input, one padded row stride_h apart. */
static void filter_grad_rows(const el_train_kernels* k, const el_train_window* g, const float* xt,
                             int hp, int wp, int b, int oh0, int nrows, const float* packed,
                             float* part) {
  const el_fgemm_kernels* fk = k->fk;
  const int kdim = g->k_h * g->k_w * g->in_c, n = g->out_c, cnt = nrows * g->out_w;
  const size_t block_bytes = el_fgemm_block_bytes(cnt);
  const float* rows[EL_FGEMM_MAX_MR];
  ptrdiff_t step[EL_FGEMM_MAX_MR];
  for (int r = 0; r < EL_FGEMM_MAX_MR; ++r) step[r] = (ptrdiff_t)g->stride_h * wp;
  for (int r0 = 0; r0 < kdim; r0 += fk->mr) {
    const int count = kdim - r0 < fk->mr ? kdim - r0 : fk->mr;
    for (int r = 0; r < fk->mr; ++r) {
      const int t = r0 + (r < count ? r : 0);
      const int c = t % g->in_c, tap = t / g->in_c, i = tap / g->k_w, j = tap % g->k_w;
      rows[r] = xt + (((size_t)b * g->in_c + (size_t)c) * hp +
                      (size_t)(oh0 * g->stride_h + i * g->dil_h)) * wp + (size_t)(j * g->dil_w);
    }
    for (int c = 0; c < n; c += EL_FGEMM_CHUNK) {
      const int cn = n - c < EL_FGEMM_CHUNK ? n - c : EL_FGEMM_CHUNK;
      const float* w = packed + (size_t)(c / EL_FGEMM_NR) * (size_t)cnt * EL_FGEMM_NR;
      fk->igemm(nrows, g->out_w, rows, step, count, w, block_bytes, cn, el_train_zero_bias,
                -INFINITY, INFINITY, part + (size_t)r0 * n + c, n);
    }
  }
}

el_status el_train_conv2d_backprop_filter(const el_train_kernels* k, const el_train_window* g,
                                          const float* x, const float* dy, float* dw) {
  el_status st = check(k, g, x, dy, dw);
  if (st != EL_OK) return st;
  const int kdim = g->k_h * g->k_w * g->in_c, n = g->out_c;
  const size_t nk = (size_t)n * (size_t)kdim;
  /* The padded extent every window reaches (at least the input itself). */
  const int need_h = (g->out_h - 1) * g->stride_h + (g->k_h - 1) * g->dil_h + 1;
  const int need_w = (g->out_w - 1) * g->stride_w + (g->k_w - 1) * g->dil_w + 1;
  const int hp = need_h > g->in_h + g->pad_top ? need_h : g->in_h + g->pad_top;
  const int wp = need_w > g->in_w + g->pad_left ? need_w : g->in_w + g->pad_left;
  /* Whole output rows per chunk, about FILTER_CHUNK pixels: the chunking depends on the shapes
   * only, and so does the order of the sums. */
  const int chunk_rows = g->out_w >= FILTER_CHUNK ? 1 : FILTER_CHUNK / g->out_w;
  const size_t max_cnt = (size_t)chunk_rows * (size_t)g->out_w;
  const bool direct = g->stride_w == 1;
  float* xt = malloc((size_t)g->batch * g->in_c * (size_t)hp * (size_t)wp * sizeof(float));
  float* cols = direct ? NULL : malloc((size_t)kdim * max_cnt * sizeof(float));
  float* packed = malloc(el_train_packed_floats((int)max_cnt, n) * sizeof(float));
  float* part = malloc(nk * sizeof(float));
  if (xt == NULL || (cols == NULL && !direct) || packed == NULL || part == NULL) {
    st = EL_NO_MEMORY;
    goto done;
  }
  transpose_padded(g, x, hp, wp, xt);
  memset(dw, 0, nk * sizeof(float));
  for (int b = 0; b < g->batch; ++b) {
    for (int oh0 = 0; oh0 < g->out_h; oh0 += chunk_rows) {
      const int nrows = g->out_h - oh0 < chunk_rows ? g->out_h - oh0 : chunk_rows;
      const int cnt = nrows * g->out_w;
      if (cnt == 0) continue;
      const size_t p0 = ((size_t)b * g->out_h + (size_t)oh0) * g->out_w;
      el_train_pack_rows(dy + p0 * (size_t)n, n, cnt, n, packed);
      if (direct) {
        filter_grad_rows(k, g, xt, hp, wp, b, oh0, nrows, packed, part);
      } else {
        im2col_t(g, xt, hp, wp, b, oh0, nrows, cols);
        el_train_matmul(k->fk, kdim, n, cnt, cols, cnt, packed, part, n);
      }
      for (size_t i = 0; i < nk; ++i) dw[i] += part[i];
    }
  }
done:
  free(xt);
  free(cols);
  free(packed);
  free(part);
  return st;
}
