/* Filter-row pointers of the in-place float convolution (see fconv_taps.h). */
#include "kernels/optimized/fconv_taps.h"

#include <string.h>

int el_fconv_taps_ok(const el_conv_geom* g) {
  return !g->pointwise && g->dw == 1 && g->kh <= EL_FCONV_MAX_KH;
}

el_fconv_cursor el_fconv_cursor_at(const el_conv_geom* g, int64_t m) {
  const int64_t hw = (int64_t)g->out_h * g->out_w;
  const int rem = (int)(m % hw);
  el_fconv_cursor c = {m / hw, rem / g->out_w, rem % g->out_w};
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

void el_fconv_tile_taps(const el_conv_geom* g, const float* in, el_fconv_cursor* cur, int rows,
                        int mr, const float* zeros, float* edge, const float** taps) {
  const int kh = g->kh, in_h = g->in_h, in_c = g->in_c, dh = g->dh;
  const int64_t row_floats = (int64_t)g->in_w * in_c;
  const int64_t dy_floats = row_floats * dh;
  const int run = g->kw * in_c;
  el_fconv_cursor p = *cur;
  for (int r = 0; r < rows; ++r) {
    const float* image = in + p.b * in_h * row_floats;
    const int iy0 = p.oy * g->sh - g->pad_h;
    const int ix0 = p.ox * g->sw - g->pad_w;
    const float** slot = taps + r;
    if (ix0 >= 0 && ix0 + g->kw <= g->in_w && iy0 >= 0 && iy0 + (kh - 1) * dh < in_h) {
      const float* src = image + iy0 * row_floats + (int64_t)ix0 * in_c;
      for (int fy = 0; fy < kh; ++fy, src += dy_floats) slot[fy * mr] = src;
    } else {
      const int inside_x = ix0 >= 0 && ix0 + g->kw <= g->in_w;
      for (int fy = 0; fy < kh; ++fy) {
        const int iy = iy0 + fy * dh;
        if (iy < 0 || iy >= in_h) {
          slot[fy * mr] = zeros;
        } else if (inside_x) {
          slot[fy * mr] = image + iy * row_floats + (int64_t)ix0 * in_c;
        } else {
          float* dst = edge + (size_t)(fy * mr + r) * (size_t)run;
          gather_run(g, image + iy * row_floats, ix0, dst);
          slot[fy * mr] = dst;
        }
      }
    }
    if (++p.ox == g->out_w) {
      p.ox = 0;
      if (++p.oy == g->out_h) {
        p.oy = 0;
        ++p.b;
      }
    }
  }
  *cur = p;
  for (int fy = 0; fy < kh; ++fy) {
    for (int r = rows; r < mr; ++r) taps[fy * mr + r] = taps[fy * mr];
  }
}
