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

/* One forward or input-gradient pass: the packed weights and each thread's tile scratch. */
typedef struct conv_job {
  const el_train_kernels* k;
  const el_train_window* g;
  const float* in;    /* x (forward) or dy (input gradient) */
  const float* packed;
  float* out;         /* y or dx */
  float* cols;        /* TILE_ROWS x K floats per thread, for the im2col path */
  int kdim, n;
  size_t pixels;
  const float* xp;    /* zero-padded copy of the input [batch][hp][wp][in_c] for the taps path */
  int hp, wp;
  bool quads;         /* taps path on el_train_igemm_quads, packed by el_train_pack_quads */
} conv_job;

/* The taps path of a forward pass runs on the narrow-channel product when that fits. */
static bool forward_quads(const el_train_kernels* k, const el_train_window* g) {
  return !pointwise(g) && g->dil_w == 1 && g->out_h > 0 && g->out_w > 0 &&
         el_train_quads_fit(k, g->out_c, g->k_w * g->in_c);
}

/* Packs the K x N weights w (row stride ld) as the forward pass of g reads them. */
static void pack_forward(const el_train_kernels* k, const el_train_window* g, const float* w,
                         ptrdiff_t ld, int kdim, float* packed) {
  if (forward_quads(k, g)) {
    el_train_pack_quads(w, ld, kdim, g->out_c, packed);
  } else {
    el_train_pack_rows(w, ld, kdim, g->out_c, packed);
  }
}

/* The GEMM rows of output pixels p0 .. p0 + rows - 1 read in place from the padded input: each
 * row is k_h runs of k_w * in_c floats (one window row each, unit column dilation), dil_h padded
 * rows apart. */
static void forward_taps(const conv_job* j, size_t p0, int rows) {
  const el_train_window* g = j->g;
  const el_fgemm_kernels* fk = j->k->fk;
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w, c_in = (size_t)g->in_c;
  const size_t block_bytes = el_fgemm_block_bytes(j->kdim);
  const float* a[EL_FGEMM_MAX_MR];
  ptrdiff_t step[EL_FGEMM_MAX_MR];
  const int mr = j->quads ? EL_TRAIN_QUAD_MR : fk->mr;
  for (int r0 = 0; r0 < rows; r0 += mr) {
    const int live = rows - r0 < mr ? rows - r0 : mr;
    for (int r = 0; r < mr; ++r) {
      const size_t p = p0 + (size_t)r0 + (size_t)(r < live ? r : 0), rest = p % per_image;
      const size_t oh = rest / (size_t)g->out_w, ow = rest % (size_t)g->out_w;
      a[r] = j->xp + (((p / per_image) * (size_t)j->hp + oh * (size_t)g->stride_h) * (size_t)j->wp +
                      ow * (size_t)g->stride_w) * c_in;
      step[r] = (ptrdiff_t)g->dil_h * j->wp * (ptrdiff_t)c_in;
    }
    if (j->quads) {
      el_train_igemm_quads(g->k_h, g->k_w * g->in_c, a, step, live, j->packed, j->n,
                           j->out + (p0 + (size_t)r0) * (size_t)j->n, j->n);
      continue;
    }
    for (int c = 0; c < j->n; c += EL_FGEMM_CHUNK) {
      const int cn = j->n - c < EL_FGEMM_CHUNK ? j->n - c : EL_FGEMM_CHUNK;
      const float* w = j->packed + (size_t)(c / EL_FGEMM_NR) * (size_t)j->kdim * EL_FGEMM_NR;
      fk->igemm(g->k_h, g->k_w * g->in_c, a, step, live, w, block_bytes, cn, el_train_zero_bias,
                -INFINITY, INFINITY, j->out + (p0 + (size_t)r0) * (size_t)j->n + c, j->n);
    }
  }
}

static void forward_tile(void* arg, int task, int thread) {
  const conv_job* j = arg;
  const size_t p0 = (size_t)task * TILE_ROWS;
  const int rows = j->pixels - p0 < TILE_ROWS ? (int)(j->pixels - p0) : TILE_ROWS;
  if (j->xp != NULL) {
    forward_taps(j, p0, rows);
    return;
  }
  const float* a = j->in + p0 * (size_t)j->kdim;
  if (j->cols != NULL) {
    float* cols = j->cols + (size_t)thread * TILE_ROWS * (size_t)j->kdim;
    for (int r = 0; r < rows; ++r) {
      el_train_im2col_row(j->g, j->in, p0 + (size_t)r, cols + (size_t)r * j->kdim);
    }
    a = cols;
  }
  el_train_matmul(j->k->fk, rows, j->n, j->kdim, a, j->kdim, j->packed, j->out + p0 * (size_t)j->n,
                  j->n);
}

static int tiles(size_t pixels) { return (int)((pixels + TILE_ROWS - 1) / TILE_ROWS); }

/* y = conv(x) with weights already packed: in place for 1x1 stride-1 windows, through a padded
 * copy of x when window columns are adjacent (unit column dilation), through im2col tiles
 * otherwise. */
static el_status conv_forward(const el_train_kernels* k, const el_train_window* g, const float* x,
                              const float* packed, float* y) {
  conv_job j = {k, g, x, packed, y, NULL, g->k_h * g->k_w * g->in_c, g->out_c, el_train_pixels(g),
                NULL, 0, 0, forward_quads(k, g)};
  float* xp = NULL;
  if (!pointwise(g) && g->dil_w == 1 && g->out_h > 0 && g->out_w > 0) {
    const int need_h = (g->out_h - 1) * g->stride_h + (g->k_h - 1) * g->dil_h + 1;
    const int need_w = (g->out_w - 1) * g->stride_w + g->k_w;
    j.hp = need_h > g->in_h + g->pad_top ? need_h : g->in_h + g->pad_top;
    j.wp = need_w > g->in_w + g->pad_left ? need_w : g->in_w + g->pad_left;
    const size_t row = (size_t)g->in_w * (size_t)g->in_c, c_in = (size_t)g->in_c;
    const size_t padded_row = (size_t)j.wp * c_in, left = (size_t)g->pad_left * c_in;
    xp = malloc((size_t)g->batch * (size_t)j.hp * padded_row * sizeof(float));
    if (xp == NULL) return EL_NO_MEMORY;
    /* Each padded row: zeros, the input row, zeros (whole rows of zeros above and below). */
    for (int b = 0; b < g->batch; ++b) {
      for (int h = 0; h < j.hp; ++h) {
        float* dst = xp + ((size_t)b * j.hp + (size_t)h) * padded_row;
        const int ih = h - g->pad_top;
        if (ih < 0 || ih >= g->in_h) {
          memset(dst, 0, padded_row * sizeof(float));
          continue;
        }
        memset(dst, 0, left * sizeof(float));
        memcpy(dst + left, x + ((size_t)b * g->in_h + (size_t)ih) * row, row * sizeof(float));
        memset(dst + left + row, 0, (padded_row - left - row) * sizeof(float));
      }
    }
    j.xp = xp;
  } else if (!pointwise(g)) {
    j.cols = malloc((size_t)k->threads * TILE_ROWS * (size_t)j.kdim * sizeof(float));
    if (j.cols == NULL) return EL_NO_MEMORY;
  }
  el_train_parallel(k, tiles(j.pixels), forward_tile, &j);
  free(xp);
  free(j.cols);
  return EL_OK;
}

el_status el_train_conv2d(const el_train_kernels* k, const el_train_window* g, const float* x,
                          const float* w, float* y) {
  el_status st = check(k, g, x, w, y);
  if (st != EL_OK) return st;
  const int kdim = g->k_h * g->k_w * g->in_c;
  float* packed = malloc(el_train_packed_floats(kdim, g->out_c) * sizeof(float));
  if (packed == NULL) return EL_NO_MEMORY;
  pack_forward(k, g, w, g->out_c, kdim, packed);
  st = conv_forward(k, g, x, packed, y);
  free(packed);
  return st;
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

/* The input gradient of one image: its tiles in order, each scattered back before the next, so
 * every element of dx sums its contributions in one order (images never share elements). */
static void input_grad_image(void* arg, int task, int thread) {
  const conv_job* j = arg;
  const el_train_window* g = j->g;
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w;
  float* cols = j->cols ? j->cols + (size_t)thread * TILE_ROWS * (size_t)j->kdim : NULL;
  for (size_t p0 = (size_t)task * per_image; p0 < (size_t)(task + 1) * per_image; p0 += TILE_ROWS) {
    const size_t end = (size_t)(task + 1) * per_image;
    const int rows = end - p0 < TILE_ROWS ? (int)(end - p0) : TILE_ROWS;
    /* A 1x1 stride-1 window maps each output pixel onto one input pixel: no col2im. */
    float* out = cols != NULL ? cols : j->out + p0 * (size_t)j->kdim;
    el_train_matmul(j->k->fk, rows, j->kdim, j->n, j->in + p0 * (size_t)j->n, j->n, j->packed, out,
                    j->kdim);
    if (cols == NULL) continue;
    for (int r = 0; r < rows; ++r) col2im_add(g, cols + (size_t)r * j->kdim, p0 + (size_t)r, j->out);
  }
}

/* For unit strides the input gradient is a forward convolution of dy with the filter turned by
 * 180 degrees and its channel axes swapped, padded by (k - 1) * dilation - pad: that runs on the
 * in-place taps path, without col2im. False when the geometry does not fit (then col2im). */
static bool as_forward(const el_train_window* g, el_train_window* f) {
  if (g->stride_h != 1 || g->stride_w != 1 || pointwise(g)) return false;
  *f = *g;
  f->in_h = g->out_h;
  f->in_w = g->out_w;
  f->in_c = g->out_c;
  f->out_c = g->in_c;
  f->out_h = g->in_h;
  f->out_w = g->in_w;
  f->pad_top = (g->k_h - 1) * g->dil_h - g->pad_top;
  f->pad_left = (g->k_w - 1) * g->dil_w - g->pad_left;
  return f->pad_top >= 0 && f->pad_left >= 0 && g->out_h > 0 && g->out_w > 0;
}

static el_status input_grad_forward(const el_train_kernels* k, const el_train_window* f,
                                    const float* w, const float* dy, float* dx) {
  const size_t c_in = (size_t)f->out_c, n = (size_t)f->in_c, taps = (size_t)f->k_h * f->k_w;
  const int kdim = (int)(taps * n);
  float* turned = malloc(taps * n * c_in * sizeof(float));
  float* packed = malloc(el_train_packed_floats(kdim, (int)c_in) * sizeof(float));
  el_status st = EL_NO_MEMORY;
  if (turned != NULL && packed != NULL) {
    for (size_t t = 0; t < taps; ++t) {
      const float* src = w + (taps - 1 - t) * c_in * n; /* [c][n] of the mirrored tap */
      float* dst = turned + t * n * c_in;                /* [n][c] */
      for (size_t c = 0; c < c_in; ++c) {
        for (size_t q = 0; q < n; ++q) dst[q * c_in + c] = src[c * n + q];
      }
    }
    pack_forward(k, f, turned, (ptrdiff_t)c_in, kdim, packed);
    st = conv_forward(k, f, dy, packed, dx);
  }
  free(turned);
  free(packed);
  return st;
}

el_status el_train_conv2d_backprop_input(const el_train_kernels* k, const el_train_window* g,
                                         const float* w, const float* dy, float* dx) {
  el_status st = check(k, g, w, dy, dx);
  if (st != EL_OK) return st;
  el_train_window f;
  if (as_forward(g, &f)) return input_grad_forward(k, &f, w, dy, dx);
  conv_job j = {k, g, dy, NULL, dx, NULL, g->k_h * g->k_w * g->in_c, g->out_c, el_train_pixels(g),
                NULL, 0, 0, false};
  /* w is K rows of N floats: packed as the transpose of the N x K weights the GEMM takes. */
  float* packed = malloc(el_train_packed_floats(j.n, j.kdim) * sizeof(float));
  if (!pointwise(g)) j.cols = malloc((size_t)k->threads * TILE_ROWS * (size_t)j.kdim * sizeof(float));
  if (packed == NULL || (j.cols == NULL && !pointwise(g))) {
    free(packed);
    free(j.cols);
    return EL_NO_MEMORY;
  }
  el_fgemm_pack(w, j.kdim, j.n, packed);
  j.packed = packed;
  if (j.cols != NULL) memset(dx, 0, el_train_in_size(g) * sizeof(float));
  el_train_parallel(k, g->batch, input_grad_image, &j);
  free(packed);
  free(j.cols);
  return EL_OK;
}

/* Channel-major copy of x with the padding made explicit, [batch][in_c][hp][row], zeros around;
 * each padded row split into its stride_w column phases of wq floats (padded column pw at
 * (pw % stride_w) * wq + pw / stride_w), so that the columns one filter tap meets along an output
 * row are adjacent whatever the column stride. */
static void transpose_padded(const el_train_window* g, const float* x, int hp, int wq, int row,
                             float* xt) {
  const size_t plane = (size_t)hp * (size_t)row, c_in = (size_t)g->in_c;
  memset(xt, 0, (size_t)g->batch * c_in * plane * sizeof(float));
  /* Channel by channel along each input row: the writes run along a stored row, the reads stay
   * within one input row (in cache). */
  for (int b = 0; b < g->batch; ++b) {
    for (int h = 0; h < g->in_h; ++h) {
      const float* src = x + ((size_t)b * g->in_h + (size_t)h) * g->in_w * c_in;
      float* dst = xt + (size_t)b * c_in * plane + (size_t)(h + g->pad_top) * row;
      for (size_t c = 0; c < c_in; ++c, dst += plane) {
        if (g->stride_w == 1) {
          for (int w = 0; w < g->in_w; ++w) dst[w + g->pad_left] = src[(size_t)w * c_in + c];
          continue;
        }
        for (int w = 0; w < g->in_w; ++w) {
          const int pw = w + g->pad_left;
          dst[(size_t)(pw % g->stride_w) * wq + (size_t)(pw / g->stride_w)] = src[(size_t)w * c_in + c];
        }
      }
    }
  }
}

/* The filter gradient: dw rows (filter taps x input channels) in blocks, one block per task; a
 * block sums its pixel chunks in order. */
typedef struct filter_job {
  const el_train_kernels* k;
  const el_train_window* g;
  const float* x;
  const float* xt; /* transpose_padded(x), except for 1x1 stride-1 windows */
  int hp, wp;      /* padded extent */
  int wq, row;     /* floats per column phase and per stored padded row (stride_w * wq) */
  const float* packed; /* dy, chunk after chunk, each packed as the GEMM's weights */
  int chunk_rows;
  float* cols; /* per thread: block_rows x FILTER_CHUNK (1x1 stride-1 windows), else NULL */
  float* part; /* per thread: block_rows x N */
  float* dw;
  int kdim, n, block_rows;
  /* Small images: `images` whole images per chunk, read from `xr` (see rows_by_tap_row). */
  int images;
  const float* xr;
  bool quads; /* direct paths on el_train_igemm_quads, dy packed by el_train_pack_quads */
} filter_job;

/* part[r][N] for the rows (transposed im2col rows in igemm's strided form) r0 .. r0 + live - 1 of
 * a filter gradient chunk whose dy is at `packed` (cnt pixels). */
static void filter_rows_product(const filter_job* j, int taps, const float* const* rows,
                                const ptrdiff_t* step, int live, const float* packed, int cnt,
                                float* part) {
  const el_fgemm_kernels* fk = j->k->fk;
  const int n = j->n;
  if (j->quads) {
    el_train_igemm_quads(taps, j->g->out_w, rows, step, live, packed, n, part, n);
    return;
  }
  const size_t block_bytes = el_fgemm_block_bytes(cnt);
  for (int c = 0; c < n; c += EL_FGEMM_CHUNK) {
    const int cn = n - c < EL_FGEMM_CHUNK ? n - c : EL_FGEMM_CHUNK;
    const float* w = packed + (size_t)(c / EL_FGEMM_NR) * (size_t)cnt * EL_FGEMM_NR;
    fk->igemm(taps, j->g->out_w, rows, step, live, w, block_bytes, cn, el_train_zero_bias, -INFINITY,
              INFINITY, part + c, n);
  }
}

/* Where in a stored padded row filter column jj starts meeting output column 0. */
static size_t tap_column(const filter_job* j, int jj) {
  const int pw = jj * j->g->dil_w;
  return (size_t)(pw % j->g->stride_w) * (size_t)j->wq + (size_t)(pw / j->g->stride_w);
}

/* part[t - t0][N] for t0 <= t < t0 + count = im2col^T rows . dyc, without building the im2col
 * matrix: row (i, j, c) of it is nrows runs of out_w adjacent floats of the padded channel-major
 * input (one column phase), one stored row stride_h apart. */
static void filter_grad_rows(const filter_job* j, int b, int oh0, int nrows, const float* packed,
                             int t0, int count, float* part) {
  const el_train_window* g = j->g;
  const int n = g->out_c, cnt = nrows * g->out_w, mr = j->quads ? EL_TRAIN_QUAD_MR : j->k->fk->mr;
  const float* rows[EL_FGEMM_MAX_MR];
  ptrdiff_t step[EL_FGEMM_MAX_MR];
  for (int r = 0; r < EL_FGEMM_MAX_MR; ++r) step[r] = (ptrdiff_t)g->stride_h * j->row;
  for (int r0 = t0; r0 < t0 + count; r0 += mr) {
    const int live = t0 + count - r0 < mr ? t0 + count - r0 : mr;
    for (int r = 0; r < mr; ++r) {
      const int t = r0 + (r < live ? r : 0);
      const int c = t % g->in_c, tap = t / g->in_c, i = tap / g->k_w, jj = tap % g->k_w;
      rows[r] = j->xt + (((size_t)b * g->in_c + (size_t)c) * j->hp +
                         (size_t)(oh0 * g->stride_h + i * g->dil_h)) * j->row +
                tap_column(j, jj);
    }
    filter_rows_product(j, nrows, rows, step, live, packed, cnt, part + (size_t)(r0 - t0) * n);
  }
}

static void filter_block(void* arg, int task, int thread) {
  const filter_job* j = arg;
  const el_train_window* g = j->g;
  const int t0 = task * j->block_rows;
  const int count = j->kdim - t0 < j->block_rows ? j->kdim - t0 : j->block_rows;
  const size_t chunk_floats = el_train_packed_floats(j->chunk_rows * g->out_w, j->n);
  float* part = j->part + (size_t)thread * j->block_rows * j->n;
  float* dw = j->dw + (size_t)t0 * j->n;
  const float* packed = j->packed;
  for (int b = 0; b < g->batch; ++b) {
    for (int oh0 = 0; oh0 < g->out_h; oh0 += j->chunk_rows, packed += chunk_floats) {
      const int nrows = g->out_h - oh0 < j->chunk_rows ? g->out_h - oh0 : j->chunk_rows;
      filter_grad_rows(j, b, oh0, nrows, packed, t0, count, part);
      for (size_t i = 0; i < (size_t)count * j->n; ++i) dw[i] += part[i];
    }
  }
}

/* For images smaller than a chunk: the padded rows every output row meets through filter row
 * i, channel-major and laid end to end, xr[i][c][b][oh][row] = xt[b][c][oh * stride_h + i *
 * dil_h][..], so that row (i, j, c) of the transposed im2col matrix over any run of whole
 * images is one affine sequence of out_w-float runs (a stored row apart): one GEMM call per chunk of
 * several images instead of one per image. */
static void rows_by_tap_row(const el_train_window* g, const float* xt, int hp, int stored_row,
                            float* xr) {
  const size_t row = (size_t)stored_row;
  for (int i = 0; i < g->k_h; ++i) {
    for (int c = 0; c < g->in_c; ++c) {
      for (int b = 0; b < g->batch; ++b) {
        const float* plane = xt + ((size_t)b * g->in_c + (size_t)c) * (size_t)hp * row;
        for (int oh = 0; oh < g->out_h; ++oh, xr += row) {
          memcpy(xr, plane + (size_t)(oh * g->stride_h + i * g->dil_h) * row, row * sizeof(float));
        }
      }
    }
  }
}

static void filter_block_images(void* arg, int task, int thread) {
  const filter_job* j = arg;
  const el_train_window* g = j->g;
  const int t0 = task * j->block_rows, n = j->n, mr = j->quads ? EL_TRAIN_QUAD_MR : j->k->fk->mr;
  const int count = j->kdim - t0 < j->block_rows ? j->kdim - t0 : j->block_rows;
  const size_t per_image = (size_t)g->out_h * (size_t)g->out_w;
  const size_t chunk_floats = el_train_packed_floats(j->images * (int)per_image, n);
  const size_t image_floats = (size_t)g->out_h * (size_t)j->row;
  float* part = j->part + (size_t)thread * j->block_rows * n;
  float* dw = j->dw + (size_t)t0 * n;
  const float* packed = j->packed;
  const float* rows[EL_FGEMM_MAX_MR];
  ptrdiff_t step[EL_FGEMM_MAX_MR];
  for (int r = 0; r < EL_FGEMM_MAX_MR; ++r) step[r] = j->row;
  for (int b0 = 0; b0 < g->batch; b0 += j->images, packed += chunk_floats) {
    const int imgs = g->batch - b0 < j->images ? g->batch - b0 : j->images;
    for (int r0 = t0; r0 < t0 + count; r0 += mr) {
      const int live = t0 + count - r0 < mr ? t0 + count - r0 : mr;
      for (int r = 0; r < mr; ++r) {
        const int t = r0 + (r < live ? r : 0);
        const int c = t % g->in_c, tap = t / g->in_c, i = tap / g->k_w, jj = tap % g->k_w;
        rows[r] = j->xr + (((size_t)i * g->in_c + (size_t)c) * g->batch + (size_t)b0) * image_floats +
                  tap_column(j, jj);
      }
      filter_rows_product(j, imgs * g->out_h, rows, step, live, packed, imgs * (int)per_image,
                          part + (size_t)(r0 - t0) * n);
    }
    for (size_t i = 0; i < (size_t)count * n; ++i) dw[i] += part[i];
  }
}

/* A 1x1 stride-1 window: x is the [pixels][in_c] im2col matrix itself, taken in chunks of
 * FILTER_CHUNK pixels across image boundaries (small images would make short chunks). */
static void filter_block_flat(void* arg, int task, int thread) {
  const filter_job* j = arg;
  const int t0 = task * j->block_rows, c_in = j->g->in_c;
  const int count = j->kdim - t0 < j->block_rows ? j->kdim - t0 : j->block_rows;
  const size_t pixels = el_train_pixels(j->g), chunk_floats = el_train_packed_floats(FILTER_CHUNK, j->n);
  float* part = j->part + (size_t)thread * j->block_rows * j->n;
  float* cols = j->cols + (size_t)thread * j->block_rows * FILTER_CHUNK;
  float* dw = j->dw + (size_t)t0 * j->n;
  const float* packed = j->packed;
  for (size_t p0 = 0; p0 < pixels; p0 += FILTER_CHUNK, packed += chunk_floats) {
    const int cnt = pixels - p0 < FILTER_CHUNK ? (int)(pixels - p0) : FILTER_CHUNK;
    for (int r = 0; r < cnt; ++r) {
      const float* xr = j->x + (p0 + (size_t)r) * (size_t)c_in + t0;
      for (int t = 0; t < count; ++t) cols[(size_t)t * cnt + (size_t)r] = xr[t];
    }
    el_train_matmul(j->k->fk, count, j->n, cnt, cols, cnt, packed, part, j->n);
    for (size_t i = 0; i < (size_t)count * j->n; ++i) dw[i] += part[i];
  }
}

/* Packs cnt pixels of dy as the filter gradient's product reads them. */
static void pack_dy(const filter_job* j, const float* dy, int cnt, float* dst) {
  if (j->quads) {
    el_train_pack_quads(dy, j->n, cnt, j->n, dst);
  } else {
    el_train_pack_rows(dy, j->n, cnt, j->n, dst);
  }
}

/* A strided 1x1 window that never reaches into padding reads only every stride-th pixel: those
 * pixels, copied out, make it a 1x1 stride-1 window over the output grid. */
static bool strided_pointwise(const el_train_window* g) {
  return g->k_h == 1 && g->k_w == 1 && g->pad_top == 0 && g->pad_left == 0 && !pointwise(g) &&
         g->out_h > 0 && g->out_w > 0 && (g->out_h - 1) * g->stride_h < g->in_h &&
         (g->out_w - 1) * g->stride_w < g->in_w;
}

static el_status filter_grad_subsampled(const el_train_kernels* k, const el_train_window* g,
                                        const float* x, const float* dy, float* dw) {
  const size_t c_in = (size_t)g->in_c;
  float* xs = malloc(el_train_pixels(g) * c_in * sizeof(float));
  if (xs == NULL) return EL_NO_MEMORY;
  float* dst = xs;
  for (int b = 0; b < g->batch; ++b) {
    for (int oh = 0; oh < g->out_h; ++oh) {
      const float* src = x + ((size_t)b * g->in_h + (size_t)oh * g->stride_h) * g->in_w * c_in;
      for (int ow = 0; ow < g->out_w; ++ow, dst += c_in) {
        memcpy(dst, src + (size_t)ow * g->stride_w * c_in, c_in * sizeof(float));
      }
    }
  }
  el_train_window f = *g;
  f.in_h = g->out_h;
  f.in_w = g->out_w;
  f.stride_h = f.stride_w = f.dil_h = f.dil_w = 1;
  const el_status st = el_train_conv2d_backprop_filter(k, &f, xs, dy, dw);
  free(xs);
  return st;
}

el_status el_train_conv2d_backprop_filter(const el_train_kernels* k, const el_train_window* g,
                                          const float* x, const float* dy, float* dw) {
  el_status st = check(k, g, x, dy, dw);
  if (st != EL_OK) return st;
  if (strided_pointwise(g)) return filter_grad_subsampled(k, g, x, dy, dw);
  filter_job j = {0};
  j.k = k;
  j.g = g;
  j.dw = dw;
  j.kdim = g->k_h * g->k_w * g->in_c;
  j.n = g->out_c;
  j.block_rows = k->fk->mr * 4;
  /* The padded extent every window reaches (at least the input itself). */
  const int need_h = (g->out_h - 1) * g->stride_h + (g->k_h - 1) * g->dil_h + 1;
  const int need_w = (g->out_w - 1) * g->stride_w + (g->k_w - 1) * g->dil_w + 1;
  j.hp = need_h > g->in_h + g->pad_top ? need_h : g->in_h + g->pad_top;
  j.wp = need_w > g->in_w + g->pad_left ? need_w : g->in_w + g->pad_left;
  j.wq = (j.wp + g->stride_w - 1) / g->stride_w;
  j.row = j.wq * g->stride_w;
  /* Whole output rows per chunk, about FILTER_CHUNK pixels: the chunking depends on the shapes
   * only, and so does the order of the sums. */
  j.chunk_rows = (g->out_w >= FILTER_CHUNK || g->out_w == 0) ? 1 : FILTER_CHUNK / g->out_w;
  const bool flat = pointwise(g), direct = !flat;
  j.quads = direct && el_train_quads_fit(k, j.n, g->out_w);
  if (j.quads) j.block_rows = EL_TRAIN_QUAD_MR * 4;
  const size_t pixels = el_train_pixels(g), per_image = (size_t)g->out_h * (size_t)g->out_w;
  /* Whole images per chunk when two or more fit in one and the channels are few: the copy by tap
   * row costs k_h times the channel-major one, which outweighs the per-image calls it saves at 64
   * channels (8x8 images: 1.4 -> 1.7 ms) and not at 16 or 32 (digits CNN: 0.25 -> 0.2 ms). */
  j.images = direct && per_image > 0 && 2 * per_image <= FILTER_CHUNK && j.n <= 32
                 ? (int)(FILTER_CHUNK / per_image)
                 : 0;
  const size_t max_cnt = flat ? FILTER_CHUNK
                         : j.images ? (size_t)j.images * per_image
                                    : (size_t)j.chunk_rows * (size_t)g->out_w;
  const size_t chunk_floats = el_train_packed_floats((int)max_cnt, j.n);
  const size_t chunks = flat ? (pixels + FILTER_CHUNK - 1) / FILTER_CHUNK
                        : j.images ? (size_t)((g->batch + j.images - 1) / j.images)
                                   : (size_t)g->batch * (size_t)((g->out_h + j.chunk_rows - 1) / j.chunk_rows);
  float* xr = j.images ? malloc((size_t)g->k_h * g->in_c * (size_t)g->batch * (size_t)g->out_h * (size_t)j.row *
                                sizeof(float))
                       : NULL;
  const size_t threads = (size_t)k->threads, block = (size_t)j.block_rows;
  float* xt = direct ? malloc((size_t)g->batch * g->in_c * (size_t)j.hp * (size_t)j.row * sizeof(float))
                     : NULL;
  float* packed = malloc((chunks ? chunks : 1) * chunk_floats * sizeof(float));
  j.part = malloc(threads * block * (size_t)j.n * sizeof(float));
  if (!direct) j.cols = malloc(threads * block * max_cnt * sizeof(float));
  if ((xt == NULL) == direct || packed == NULL || j.part == NULL || (j.cols == NULL) == !direct ||
      (xr == NULL) == (j.images > 0)) {
    st = EL_NO_MEMORY;
    goto done;
  }
  if (direct) transpose_padded(g, x, j.hp, j.wq, j.row, xt);
  if (j.images) rows_by_tap_row(g, xt, j.hp, j.row, xr);
  float* dst = packed;
  for (int b = 0; j.images && b < g->batch; b += j.images, dst += chunk_floats) {
    const int imgs = g->batch - b < j.images ? g->batch - b : j.images;
    pack_dy(&j, dy + (size_t)b * per_image * (size_t)j.n, imgs * (int)per_image, dst);
  }
  for (size_t p0 = 0; flat && p0 < pixels; p0 += FILTER_CHUNK, dst += chunk_floats) {
    const int cnt = pixels - p0 < FILTER_CHUNK ? (int)(pixels - p0) : FILTER_CHUNK;
    el_train_pack_rows(dy + p0 * (size_t)j.n, j.n, cnt, j.n, dst);
  }
  for (int b = 0; !flat && !j.images && b < g->batch; ++b) {
    for (int oh0 = 0; oh0 < g->out_h; oh0 += j.chunk_rows, dst += chunk_floats) {
      const int nrows = g->out_h - oh0 < j.chunk_rows ? g->out_h - oh0 : j.chunk_rows;
      const size_t p0 = ((size_t)b * g->out_h + (size_t)oh0) * g->out_w;
      pack_dy(&j, dy + p0 * (size_t)j.n, nrows * g->out_w, dst);
    }
  }
  j.x = x;
  j.xt = xt;
  j.xr = xr;
  j.packed = packed;
  memset(dw, 0, (size_t)j.kdim * (size_t)j.n * sizeof(float));
  if (g->out_w > 0) {
    el_train_parallel(k, (j.kdim + j.block_rows - 1) / j.block_rows,
                      flat ? filter_block_flat : j.images ? filter_block_images : filter_block, &j);
  }
done:
  free(xr);
  free(xt);
  free(packed);
  free(j.part);
  free(j.cols);
  return st;
}
