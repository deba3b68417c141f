/* Convolution forward and its input gradient as matrix products on the float GEMM (the filter
 * gradient is in train_conv_filter.c):
 *   forward:          y[P][N]  = im2col(x)[P][K] . w[K][N]
 *   backprop input:   dx      += col2im(dy[P][N] . w^T[N][K])
 * with P output pixels, K = k_h * k_w * in_c and N output channels. Pixels go in tiles of a
 * fixed size, so every output is summed in an order set by the shapes alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"

/* Output pixels per im2col tile of the forward and input-gradient passes (a multiple of every
 * micro-kernel's row count would waste nothing; 48 rows keep the tile in L2 for K <= 2304). */
enum { TILE_ROWS = 48 };
/* Row pointers of one micro tile: as many as the widest tile (the narrow kernel's). */
enum { ROW_PTRS = 12 };
_Static_assert((int)ROW_PTRS >= (int)EL_FGEMM_NARROW_MR && (int)ROW_PTRS >= (int)EL_FGEMM_MAX_MR,
               "a micro tile's rows fit its pointer arrays");

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
  return !el_train_pointwise(g) && g->dil_w == 1 && g->out_h > 0 && g->out_w > 0 &&
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
  const float* at[TILE_ROWS];
  const float* a[ROW_PTRS];
  ptrdiff_t step[ROW_PTRS];
  /* At most 16 channels off the narrow-channel product: the inference kernels' 12-row tiles (12
   * independent sums per k step instead of mr). */
  const bool narrow = !j->quads && j->n <= EL_FGEMM_NR && fk->igemm_narrow != NULL;
  const int mr = j->quads ? EL_TRAIN_QUAD_MR : narrow ? EL_FGEMM_NARROW_MR : fk->mr;
  /* The rows' window corners, stepping along output rows and images (no division per row). */
  size_t b = p0 / per_image, oh = p0 % per_image / (size_t)g->out_w, ow = p0 % (size_t)g->out_w;
  for (int r = 0; r < rows; ++r) {
    at[r] = j->xp + ((b * (size_t)j->hp + oh * (size_t)g->stride_h) * (size_t)j->wp +
                     ow * (size_t)g->stride_w) * c_in;
    if (++ow == (size_t)g->out_w) {
      ow = 0;
      if (++oh == (size_t)g->out_h) {
        oh = 0;
        ++b;
      }
    }
  }
  for (int r = 0; r < mr; ++r) step[r] = (ptrdiff_t)g->dil_h * j->wp * (ptrdiff_t)c_in;
  for (int r0 = 0; r0 < rows; r0 += mr) {
    const int live = rows - r0 < mr ? rows - r0 : mr;
    for (int r = 0; r < mr; ++r) a[r] = at[r0 + (r < live ? r : 0)];
    if (j->quads) {
      el_train_igemm_quads(g->k_h, g->k_w * g->in_c, a, step, live, j->packed, j->n,
                           j->out + (p0 + (size_t)r0) * (size_t)j->n, j->n);
      continue;
    }
    if (narrow) {
      fk->igemm_narrow(g->k_h, g->k_w * g->in_c, a, step, live, j->packed, j->n, el_train_zero_bias,
                       -INFINITY, INFINITY, j->out + (p0 + (size_t)r0) * (size_t)j->n, j->n);
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
  if (!el_train_pointwise(g) && g->dil_w == 1 && g->out_h > 0 && g->out_w > 0) {
    const int need_h = (g->out_h - 1) * g->stride_h + (g->k_h - 1) * g->dil_h + 1;
    const int need_w = (g->out_w - 1) * g->stride_w + g->k_w;
    j.hp = need_h > g->in_h + g->pad_top ? need_h : g->in_h + g->pad_top;
    j.wp = need_w > g->in_w + g->pad_left ? need_w : g->in_w + g->pad_left;
    const size_t row = (size_t)g->in_w * (size_t)g->in_c, c_in = (size_t)g->in_c;
    const size_t padded_row = (size_t)j.wp * c_in, left = (size_t)g->pad_left * c_in;
    const bool in_place = g->pad_top == 0 && g->pad_left == 0 && j.hp == g->in_h && j.wp == g->in_w;
    xp = in_place ? NULL : malloc((size_t)g->batch * (size_t)j.hp * padded_row * sizeof(float));
    if (xp == NULL && !in_place) return EL_NO_MEMORY;
    /* Each padded row: zeros, the input row, zeros (whole rows of zeros above and below); no
     * copy when no window reaches past x (strided 1x1 shortcuts, VALID windows). */
    for (int b = 0; !in_place && b < g->batch; ++b) {
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
    j.xp = in_place ? x : xp;
  } else if (!el_train_pointwise(g)) {
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
  el_status st = el_train_check_call(k, g, x, w, y);
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

bool el_train_input_grad_as_forward(const el_train_window* g, el_train_window* f) {
  if (g->stride_h != 1 || g->stride_w != 1 || el_train_pointwise(g)) return false;
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

/* The input gradient of a strided 1x1 window inside x, one image per task: zero but at the pixels
 * the window reads, which take dy . w^T, each output row written with the column stride. */
static void input_grad_subsampled(void* arg, int task, int thread) {
  (void)thread;
  const conv_job* j = arg;
  const el_train_window* g = j->g;
  const size_t image = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  float* dx = j->out + (size_t)task * image;
  memset(dx, 0, image * sizeof(float));
  for (int oh = 0; oh < g->out_h; ++oh) {
    const size_t p = ((size_t)task * g->out_h + (size_t)oh) * (size_t)g->out_w;
    el_train_matmul(j->k->fk, g->out_w, g->in_c, j->n, j->in + p * (size_t)j->n, j->n, j->packed,
                    dx + (size_t)oh * g->stride_h * g->in_w * g->in_c,
                    (ptrdiff_t)g->stride_w * g->in_c);
  }
}

el_status el_train_conv2d_backprop_input(const el_train_kernels* k, const el_train_window* g,
                                         const float* w, const float* dy, float* dx) {
  el_status st = el_train_check_call(k, g, w, dy, dx);
  if (st != EL_OK) return st;
  el_train_window f;
  if (el_train_input_grad_as_forward(g, &f)) return input_grad_forward(k, &f, w, dy, dx);
  conv_job j = {k, g, dy, NULL, dx, NULL, g->k_h * g->k_w * g->in_c, g->out_c, el_train_pixels(g),
                NULL, 0, 0, false};
  /* w is K rows of N floats: packed as the transpose of the N x K weights the GEMM takes. */
  float* packed = malloc(el_train_packed_floats(j.n, j.kdim) * sizeof(float));
  const bool subsampled = el_train_strided_pointwise(g), scatter = !el_train_pointwise(g) && !subsampled;
  if (scatter) j.cols = malloc((size_t)k->threads * TILE_ROWS * (size_t)j.kdim * sizeof(float));
  if (packed == NULL || (j.cols == NULL && scatter)) {
    free(packed);
    free(j.cols);
    return EL_NO_MEMORY;
  }
  el_fgemm_pack(w, j.kdim, j.n, packed);
  j.packed = packed;
  if (scatter) memset(dx, 0, el_train_in_size(g) * sizeof(float));
  el_train_parallel(k, g->batch, subsampled ? input_grad_subsampled : input_grad_image, &j);
  free(packed);
  free(j.cols);
  return EL_OK;
}
