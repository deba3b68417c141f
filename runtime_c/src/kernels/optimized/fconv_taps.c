/* Filter-row pointers of the in-place float convolution (see fconv_taps.h). */
#include "kernels/optimized/fconv_taps.h"

#include <string.h>

int el_fconv_taps_ok(const el_conv_geom* g) { return !g->pointwise && g->dw == 1; }

/* The output positions [*lo, *hi) along one axis whose window of `extent` inputs from
 * o * stride - pad lies inside [0, size). */
static void inside_range(int out, int stride, int pad, int extent, int size, int* lo, int* hi) {
  int l = (pad + stride - 1) / stride;
  int h = size - extent + pad >= 0 ? (size - extent + pad) / stride + 1 : 0;
  *lo = l < out ? l : out;
  *hi = h < out ? h : out;
  if (*hi < *lo) *hi = *lo;
}

el_fconv_cursor el_fconv_cursor_at(const el_conv_geom* g, int64_t m) {
  const int64_t hw = (int64_t)g->out_h * g->out_w;
  const int rem = (int)(m % hw);
  el_fconv_cursor c;
  c.b = m / hw;
  c.oy = rem / g->out_w;
  c.ox = rem % g->out_w;
  inside_range(g->out_w, g->sw, g->pad_w, g->kw, g->in_w, &c.x_lo, &c.x_hi);
  inside_range(g->out_h, g->sh, g->pad_h, (g->kh - 1) * g->dh + 1, g->in_h, &c.y_lo, &c.y_hi);
  return c;
}

int64_t el_fconv_padded_geom(const el_conv_geom* g, el_conv_geom* padded) {
  const int need_h = (g->out_h - 1) * g->sh + (g->kh - 1) * g->dh + 1;
  const int need_w = (g->out_w - 1) * g->sw + g->kw;
  const int h = g->pad_h + g->in_h > need_h ? g->pad_h + g->in_h : need_h;
  const int w = g->pad_w + g->in_w > need_w ? g->pad_w + g->in_w : need_w;
  *padded = *g;
  if (g->pad_h == 0 && g->pad_w == 0 && h == g->in_h && w == g->in_w) return 0;
  padded->in_h = h;
  padded->in_w = w;
  padded->pad_h = 0;
  padded->pad_w = 0;
  return (int64_t)g->batches * h * w * g->in_c;
}

void el_fconv_fill_padded(const el_conv_geom* g, const el_conv_geom* padded, const float* in,
                          float* image) {
  const size_t row = (size_t)g->in_w * (size_t)g->in_c;
  const size_t padded_row = (size_t)padded->in_w * (size_t)g->in_c;
  for (int b = 0; b < g->batches; ++b) {
    float* dst = image + ((size_t)b * (size_t)padded->in_h + (size_t)g->pad_h) * padded_row +
                 (size_t)g->pad_w * (size_t)g->in_c;
    const float* src = in + (size_t)b * (size_t)g->in_h * row;
    for (int y = 0; y < g->in_h; ++y, dst += padded_row, src += row) {
      memcpy(dst, src, row * sizeof(float));
    }
  }
}

/* Filter row fy's run for a pixel whose first column ix0 leaves the image: the inside columns'
 * channels (one contiguous stretch of the row), zeros around them. */
static void gather_run(const el_conv_geom* g, const float* row, int ix0, float* dst) {
  const int c = g->in_c;
  const int lo = ix0 < 0 ? 0 : ix0;
  const int hi = ix0 + g->kw < g->in_w ? ix0 + g->kw : g->in_w;
  const int run = g->kw * c;
  const int before = (lo - ix0) * c;
  const int inside = hi > lo ? (hi - lo) * c : 0;
  int i = 0;
  for (; i < before && i < run; ++i) dst[i] = 0.0f;
  const float* src = row + (int64_t)lo * c - i;
  for (; i < before + inside; ++i) dst[i] = src[i];
  for (; i < run; ++i) dst[i] = 0.0f;
}

/* A pixel with taps outside the image: its filter rows gathered, zero filled, into dst. */
__attribute__((noinline)) static void gather_pixel(const el_conv_geom* g, const float* image, int iy0, int ix0, float* dst) {
  const int run = g->kw * g->in_c;
  const int64_t row_floats = (int64_t)g->in_w * g->in_c;
  for (int fy = 0; fy < g->kh; ++fy, dst += run) {
    const int iy = iy0 + fy * g->dh;
    if (iy < 0 || iy >= g->in_h) {
      memset(dst, 0, (size_t)run * sizeof(float));
    } else {
      gather_run(g, image + iy * row_floats, ix0, dst);
    }
  }
}

void el_fconv_tile_rows(const el_conv_geom* g, const float* in, el_fconv_cursor* cur, int rows,
                        int mr, float* edge, const float** a, ptrdiff_t* step) {
  const int64_t row_floats = (int64_t)g->in_w * g->in_c;
  const int64_t image_floats = row_floats * g->in_h;
  const ptrdiff_t dy = (ptrdiff_t)(row_floats * g->dh);
  const int64_t dx = (int64_t)g->sw * g->in_c;
  const int out_w = g->out_w;
  el_fconv_cursor p = *cur;
  int r = 0;
  while (r < rows) {
    const int iy0 = p.oy * g->sh - g->pad_h;
    /* This output row's pixels in the tile: [p.ox, x_end). */
    const int x_end = p.ox + (rows - r) < out_w ? p.ox + (rows - r) : out_w;
    int lo = x_end, hi = x_end; /* the inside run */
    if (p.oy >= p.y_lo && p.oy < p.y_hi) {
      lo = p.ox > p.x_lo ? p.ox : p.x_lo;
      hi = x_end < p.x_hi ? x_end : p.x_hi;
      if (hi < lo) lo = hi = x_end;
    }
    const float* origin =
        in + p.b * image_floats + iy0 * row_floats - (int64_t)g->pad_w * g->in_c;
    for (int ox = p.ox; ox < x_end; ++ox, ++r) {
      if (ox >= lo && ox < hi) {
        a[r] = origin + ox * dx;
        step[r] = dy;
      } else {
        float* dst = edge + (size_t)r * (size_t)g->kdim;
        gather_pixel(g, in + p.b * image_floats, iy0, ox * g->sw - g->pad_w, dst);
        a[r] = dst;
        step[r] = g->kw * g->in_c;
      }
    }
    p.ox = x_end;
    if (p.ox == out_w) {
      p.ox = 0;
      if (++p.oy == g->out_h) {
        p.oy = 0;
        ++p.b;
      }
    }
  }
  *cur = p;
  for (r = rows; r < mr; ++r) {
    a[r] = a[0];
    step[r] = step[0];
  }
}
