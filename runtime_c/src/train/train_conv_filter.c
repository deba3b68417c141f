/* The filter gradient of a convolution as matrix products on the float GEMM:
 *   dw[K][N] = sum over pixel chunks of im2col(x)^T[K][p] . dy[p][N]
 * with K = k_h * k_w * in_c and N output channels. The rows of im2col(x)^T are read in place
 * from a channel-major padded copy of x (igemm's strided form). Pixels go in chunks set by the
 * shapes, and partial sums are added in an order set by the shapes, so the bits never depend on
 * the thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_internal.h"

/* Pixels per chunk of the row-block paths. */
enum { FILTER_CHUNK = 256 };

/* One image of x as a channel-major copy with the padding made explicit, [in_c][hp][row], zeros
 * around (left as they are: the caller zeroes the buffer once, the image fills the same places
 * every time); each padded row split into its stride_w column phases of wq floats (padded column
 * pw at (pw % stride_w) * wq + pw / stride_w), so that the columns one filter tap meets along an
 * output row are adjacent whatever the column stride. */
static void transpose_image(const el_train_kernels* k, const el_train_window* g, const float* x,
                            int hp, int wq, int row, float* xt) {
  const size_t plane = (size_t)hp * (size_t)row, c_in = (size_t)g->in_c;
  const int s = g->stride_w;
  for (int h = 0; h < g->in_h; ++h) {
    const float* src = x + (size_t)h * g->in_w * c_in;
    float* dst_row = xt + (size_t)(h + g->pad_top) * row;
    for (int ph = 0; ph < s; ++ph) {
      /* The input columns of phase ph, every s-th from w0, land one after another. */
      const int w0 = ((ph - g->pad_left) % s + s) % s;
      if (w0 >= g->in_w) continue;
      const int cols = (g->in_w - w0 + s - 1) / s;
      const float* sc = src + (size_t)w0 * c_in;
      float* d = dst_row + (size_t)ph * wq + (size_t)((w0 + g->pad_left) / s);
      const size_t step = (size_t)s * c_in;
      el_train_to_planes(k, sc, step, cols, g->in_c, d, plane);
    }
  }
}

/* transpose_image of every image, [batch][in_c][hp][row]. */
static void transpose_padded(const el_train_kernels* k, const el_train_window* g, const float* x,
                             int hp, int wq, int row, float* xt) {
  const size_t image = (size_t)g->in_c * (size_t)hp * (size_t)row;
  memset(xt, 0, (size_t)g->batch * image * sizeof(float));
  for (int b = 0; b < g->batch; ++b) {
    transpose_image(k, g, x + (size_t)b * g->in_h * g->in_w * g->in_c, hp, wq, row, xt + b * image);
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

/* part[t - t0][N] for t0 <= t < t0 + count = im2col^T rows . dyc (or, with `acc`, those rows
 * added onto acc[t - t0][N] one micro tile at a time, `part` then holding one tile), without
 * building the im2col matrix: row (i, j, c) of it is nrows runs of out_w adjacent floats of the padded channel-major
 * input (one column phase), one stored row stride_h apart. */
static void filter_grad_rows(const filter_job* j, int b, int oh0, int nrows, const float* packed,
                             int t0, int count, float* part, float* acc) {
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
    if (acc == NULL) {
      filter_rows_product(j, nrows, rows, step, live, packed, cnt, part + (size_t)(r0 - t0) * n);
      continue;
    }
    filter_rows_product(j, nrows, rows, step, live, packed, cnt, part);
    float* dst = acc + (size_t)(r0 - t0) * n;
    for (size_t i = 0; i < (size_t)live * n; ++i) dst[i] += part[i];
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
      filter_grad_rows(j, b, oh0, nrows, packed, t0, count, part, NULL);
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

/* Image groups: with a batch of at least GROUP_MIN_BATCH images the batch splits into at most
 * MAX_GROUPS groups of whole images (a split set by the batch size alone), each group one task
 * that sums its own partial dw over its images in order; dw is then the sum of the partials in
 * group order. Each task copies one image at a time into its own channel-major buffer and packs
 * dy one chunk at a time, and every filter row is taken over one chunk before the next: x and dy
 * are read once and stay in cache between the filter taps, where blocks of filter rows would
 * each stream the whole batch again. */
enum { GROUP_MIN_BATCH = 4, MAX_GROUPS = 8, GROUP_CHUNK = 1024 };

typedef struct group_job {
  filter_job j;           /* geometry; chunk_rows here is GROUP_CHUNK's */
  const float* dy;
  int images;             /* per group */
  size_t image_floats;    /* one transposed image: in_c x hp x row */
  size_t packed_floats;   /* one packed chunk of dy */
  size_t scratch_floats;  /* per thread: image, packed chunk, one micro tile's product */
  float* scratch;
  float* partials;        /* per group: K x N */
} group_job;

static void filter_group(void* arg, int task, int thread) {
  const group_job* q = arg;
  const el_train_window* g = q->j.g;
  filter_job j = q->j;
  float* xt = q->scratch + (size_t)thread * q->scratch_floats;
  float* packed = xt + q->image_floats;
  float* part = packed + q->packed_floats;
  const size_t kn = (size_t)j.kdim * (size_t)j.n, per_image = (size_t)g->out_h * (size_t)g->out_w;
  float* acc = q->partials + (size_t)task * kn;
  memset(acc, 0, kn * sizeof(float));
  j.xt = xt;
  const int b1 = (task + 1) * q->images < g->batch ? (task + 1) * q->images : g->batch;
  for (int b = task * q->images; b < b1; ++b) {
    transpose_image(j.k, g, j.x + (size_t)b * g->in_h * g->in_w * g->in_c, j.hp, j.wq, j.row, xt);
    for (int oh0 = 0; oh0 < g->out_h; oh0 += j.chunk_rows) {
      const int nrows = g->out_h - oh0 < j.chunk_rows ? g->out_h - oh0 : j.chunk_rows;
      pack_dy(&j, q->dy + ((size_t)b * per_image + (size_t)oh0 * g->out_w) * (size_t)j.n,
              nrows * g->out_w, packed);
      filter_grad_rows(&j, 0, oh0, nrows, packed, 0, j.kdim, part, acc);
    }
  }
}

static el_status filter_grad_grouped(const el_train_kernels* k, filter_job* j, const float* dy) {
  const el_train_window* g = j->g;
  group_job q = {0};
  j->chunk_rows = g->out_w >= GROUP_CHUNK ? 1 : GROUP_CHUNK / g->out_w;
  q.j = *j;
  q.dy = dy;
  const int groups_wanted = g->batch < MAX_GROUPS ? g->batch : MAX_GROUPS;
  q.images = (g->batch + groups_wanted - 1) / groups_wanted;
  const int groups = (g->batch + q.images - 1) / q.images;
  const size_t kn = (size_t)j->kdim * (size_t)j->n;
  q.image_floats = (size_t)g->in_c * (size_t)j->hp * (size_t)j->row;
  q.packed_floats = el_train_packed_floats(j->chunk_rows * g->out_w, j->n);
  q.scratch_floats = q.image_floats + q.packed_floats + (size_t)EL_FGEMM_MAX_MR * (size_t)j->n;
  /* Zeroed once: each image fills the same places of its buffer, the padding stays zero. */
  q.scratch = calloc((size_t)k->threads * q.scratch_floats, sizeof(float));
  q.partials = malloc((size_t)groups * kn * sizeof(float));
  el_status st = EL_NO_MEMORY;
  if (q.scratch != NULL && q.partials != NULL) {
    el_train_parallel(k, groups, filter_group, &q);
    memcpy(j->dw, q.partials, kn * sizeof(float));
    for (int t = 1; t < groups; ++t) {
      const float* p = q.partials + (size_t)t * kn;
      for (size_t i = 0; i < kn; ++i) j->dw[i] += p[i];
    }
    st = EL_OK;
  }
  free(q.scratch);
  free(q.partials);
  return st;
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
  el_status st = el_train_check_call(k, g, x, dy, dw);
  if (st != EL_OK) return st;
  if (el_train_strided_pointwise(g)) return filter_grad_subsampled(k, g, x, dy, dw);
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
  const bool flat = el_train_pointwise(g), direct = !flat;
  j.quads = direct && el_train_quads_fit(k, j.n, g->out_w);
  if (j.quads) j.block_rows = EL_TRAIN_QUAD_MR * 4;
  const size_t pixels = el_train_pixels(g), per_image = (size_t)g->out_h * (size_t)g->out_w;
  /* Whole images per chunk when two or more fit in one and the channels are few: the copy by tap
   * row costs k_h times the channel-major one, which outweighs the per-image calls it saves at 64
   * channels (8x8 images: 1.4 -> 1.7 ms) and not at 16 or 32 (digits CNN: 0.25 -> 0.2 ms). */
  j.images = direct && per_image > 0 && 2 * per_image <= FILTER_CHUNK && j.n <= 32
                 ? (int)(FILTER_CHUNK / per_image)
                 : 0;
  if (direct && !j.images && g->batch >= GROUP_MIN_BATCH && g->out_w > 0) {
    j.x = x;
    return filter_grad_grouped(k, &j, dy);
  }
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
  if (direct) transpose_padded(k, g, x, j.hp, j.wq, j.row, xt);
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
