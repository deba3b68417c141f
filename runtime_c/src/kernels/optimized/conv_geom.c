#include "kernels/optimized/conv_geom.h"

#include <string.h>

void el_conv_geom_init(el_conv_geom* g, const TfLiteTensor* input, const TfLiteTensor* filter,
                       const TfLiteTensor* output, int sh, int sw, int dh, int dw, int pad_h,
                       int pad_w) {
  g->batches = input->dims->data[0];
  g->in_h = input->dims->data[1];
  g->in_w = input->dims->data[2];
  g->in_c = input->dims->data[3];
  g->out_h = output->dims->data[1];
  g->out_w = output->dims->data[2];
  g->out_c = output->dims->data[3];
  g->kh = filter->dims->data[1];
  g->kw = filter->dims->data[2];
  g->sh = sh;
  g->sw = sw;
  g->dh = dh;
  g->dw = dw;
  g->pad_h = pad_h;
  g->pad_w = pad_w;
  g->kdim = g->kh * g->kw * g->in_c;
  g->m = (int64_t)g->batches * g->out_h * g->out_w;
  g->pointwise = g->kh == 1 && g->kw == 1 && sh == 1 && sw == 1 && pad_h == 0 && pad_w == 0 &&
                 g->out_h == g->in_h && g->out_w == g->in_w;
}

/* The output pixel a pack walks: batch, row and column, advanced without divisions (the packs
 * run once per im2col row, where three 64-bit divisions cost as much as a short copy). */
typedef struct pixel_cursor {
  int64_t b;
  int oy, ox;
} pixel_cursor;

static pixel_cursor cursor_at(const el_conv_geom* g, int64_t m) {
  const int64_t hw = (int64_t)g->out_h * g->out_w;
  const int rem = (int)(m % hw);
  const pixel_cursor c = {m / hw, rem / g->out_w, rem % g->out_w};
  return c;
}

static void cursor_next(const el_conv_geom* g, pixel_cursor* c) {
  if (++c->ox < g->out_w) return;
  c->ox = 0;
  if (++c->oy < g->out_h) return;
  c->oy = 0;
  ++c->b;
}

/* Walks the taps of output pixel `cur`: COPY(dst_k, src_elem_index, count) for runs inside the
 * image, FILL(dst_k, count) for runs outside. Taps of one filter row are contiguous in memory
 * when the dilation is 1 and the whole row is inside the image. */
#define EL_FOR_EACH_TAP_RUN(g, cur, COPY, FILL)                                                 \
  do {                                                                                         \
    const int64_t b_ = (cur).b;                                                                \
    const int iy0_ = (cur).oy * (g)->sh - (g)->pad_h;                                          \
    const int ix0_ = (cur).ox * (g)->sw - (g)->pad_w;                                          \
    const int run_ = (g)->kw * (g)->in_c;                                                      \
    const int row_inside_ = (g)->dw == 1 && ix0_ >= 0 && ix0_ + (g)->kw <= (g)->in_w;          \
    int k_ = 0;                                                                                \
    for (int fy_ = 0; fy_ < (g)->kh; ++fy_, k_ += run_) {                                      \
      const int iy_ = iy0_ + fy_ * (g)->dh;                                                    \
      if (iy_ < 0 || iy_ >= (g)->in_h) {                                                       \
        FILL(k_, run_);                                                                        \
        continue;                                                                              \
      }                                                                                        \
      const int64_t base_ = ((b_ * (g)->in_h + iy_) * (g)->in_w) * (g)->in_c;                  \
      if (row_inside_) {                                                                       \
        COPY(k_, base_ + (int64_t)ix0_ * (g)->in_c, run_);                                     \
        continue;                                                                              \
      }                                                                                        \
      for (int fx_ = 0; fx_ < (g)->kw; ++fx_) {                                                \
        const int ix_ = ix0_ + fx_ * (g)->dw;                                                  \
        const int kk_ = k_ + fx_ * (g)->in_c;                                                  \
        if (ix_ < 0 || ix_ >= (g)->in_w) {                                                     \
          FILL(kk_, (g)->in_c);                                                                \
        } else {                                                                               \
          COPY(kk_, base_ + (int64_t)ix_ * (g)->in_c, (g)->in_c);                              \
        }                                                                                      \
      }                                                                                        \
    }                                                                                          \
  } while (0)

/* Short float runs (a few input channels per tap) in two or four inlined 16-byte moves, the last
 * ones overlapping the first: a library call per run of 4..16 floats costs more than the copy. */
static inline void copy_f32(float* d, const float* s, int n) {
  if (n < 4) {
    for (int i = 0; i < n; ++i) d[i] = s[i];
  } else if (n <= 8) {
    float head[4], tail[4];
    memcpy(head, s, sizeof head);
    memcpy(tail, s + n - 4, sizeof tail);
    memcpy(d, head, sizeof head);
    memcpy(d + n - 4, tail, sizeof tail);
  } else if (n <= 16) {
    float v[16];
    memcpy(v, s, 8 * sizeof(float));
    memcpy(v + 8, s + n - 8, 8 * sizeof(float));
    memcpy(d, v, 8 * sizeof(float));
    memcpy(d + n - 8, v + 8, 8 * sizeof(float));
  } else {
    memcpy(d, s, (size_t)n * sizeof(float));
  }
}

static inline void zero_f32(float* d, int n) {
  if (n > 32) {
    memset(d, 0, (size_t)n * sizeof(float));
    return;
  }
  for (int i = 0; i < n; ++i) d[i] = 0.0f;
}

void el_conv_pack_quad(const el_conv_geom* g, const uint8_t* in, int64_t m0, int rows, int mr,
                       int kp, uint8_t x, uint8_t pad, uint8_t* dst) {
  pixel_cursor cur = cursor_at(g, m0);
  for (int r = 0; r < mr; ++r, cursor_next(g, &cur)) {
    uint8_t* row = dst + (size_t)r * (size_t)kp;
    if (r >= rows) {
      memset(row, 0, (size_t)kp);
      continue;
    }
    if (g->pointwise) {
      const uint8_t* src = in + (m0 + r) * g->in_c;
      for (int k = 0; k < g->in_c; ++k) row[k] = src[k] ^ x;
    } else {
#define COPY_Q(k, src, count)                                         \
  do {                                                                \
    const uint8_t* s_ = in + (src);                                   \
    uint8_t* d_ = row + (k);                                          \
    for (int i_ = 0; i_ < (count); ++i_) d_[i_] = s_[i_] ^ x;         \
  } while (0)
#define FILL_Q(k, count) memset(row + (k), pad, (size_t)(count))
      EL_FOR_EACH_TAP_RUN(g, cur, COPY_Q, FILL_Q);
#undef COPY_Q
#undef FILL_Q
    }
    if (kp > g->kdim) memset(row + g->kdim, 0, (size_t)(kp - g->kdim));
  }
}

void el_conv_pack_pair16(const el_conv_geom* g, const void* in, int is_unsigned, int32_t off,
                         int64_t m0, int rows, int mr, int kp, int16_t* dst) {
  const int8_t* in_s = (const int8_t*)in;
  const uint8_t* in_u = (const uint8_t*)in;
  pixel_cursor cur = cursor_at(g, m0);
  for (int r = 0; r < mr; ++r, cursor_next(g, &cur)) {
    int16_t* row = dst + (size_t)r * (size_t)kp;
    if (r >= rows) {
      memset(row, 0, (size_t)kp * sizeof(int16_t));
      continue;
    }
#define COPY_P(k, src, count)                                                        \
  do {                                                                               \
    int16_t* d_ = row + (k);                                                         \
    if (is_unsigned) {                                                               \
      const uint8_t* s_ = in_u + (src);                                              \
      for (int i_ = 0; i_ < (count); ++i_) d_[i_] = (int16_t)((int32_t)s_[i_] + off); \
    } else {                                                                         \
      const int8_t* s_ = in_s + (src);                                               \
      for (int i_ = 0; i_ < (count); ++i_) d_[i_] = (int16_t)((int32_t)s_[i_] + off); \
    }                                                                                \
  } while (0)
#define FILL_P(k, count) memset(row + (k), 0, (size_t)(count) * sizeof(int16_t))
    if (g->pointwise) {
      COPY_P(0, (m0 + r) * g->in_c, g->in_c);
    } else {
      EL_FOR_EACH_TAP_RUN(g, cur, COPY_P, FILL_P);
    }
#undef COPY_P
#undef FILL_P
    if (kp > g->kdim) memset(row + g->kdim, 0, (size_t)(kp - g->kdim) * sizeof(int16_t));
  }
}

void el_conv_pack_f32(const el_conv_geom* g, const float* in, int64_t m0, int rows, int mr,
                      float* dst) {
  pixel_cursor cur = cursor_at(g, m0);
  for (int r = 0; r < mr; ++r, cursor_next(g, &cur)) {
    float* row = dst + (size_t)r * (size_t)g->kdim;
    if (r >= rows) {
      memset(row, 0, (size_t)g->kdim * sizeof(float));
      continue;
    }
#define COPY_F(k, src, count) copy_f32(row + (k), in + (src), (count))
#define FILL_F(k, count) zero_f32(row + (k), (count))
    EL_FOR_EACH_TAP_RUN(g, cur, COPY_F, FILL_F);
#undef COPY_F
#undef FILL_F
  }
}

int64_t el_conv_row_taps(const el_conv_geom* g, int span, int mr, int32_t* table, int32_t* edge_src) {
  const int64_t bytes = (int64_t)g->batches * g->in_h * g->in_w * g->in_c;
  int64_t edges = 0;
  for (int64_t m0 = 0, tile = 0; m0 < g->m; m0 += mr, ++tile) {
    pixel_cursor first = cursor_at(g, m0), cur = first;
    for (int r = 0; r < mr; ++r) {
      const pixel_cursor p = m0 + r < g->m ? cur : first;
      const int iy0 = p.oy * g->sh - g->pad_h;
      const int ix0 = p.ox * g->sw - g->pad_w;
      const int cols_inside = ix0 >= 0 && ix0 + g->kw <= g->in_w;
      for (int fy = 0; fy < g->kh; ++fy) {
        const int iy = iy0 + fy * g->dh;
        int32_t v = -1;
        if (iy >= 0 && iy < g->in_h) {
          const int64_t row = (p.b * g->in_h + iy) * g->in_w;
          const int64_t start = (row + ix0) * g->in_c;
          if (cols_inside && start + span <= bytes) {
            v = (int32_t)start;
          } else {
            if (edge_src != NULL) {
              for (int fx = 0; fx < g->kw; ++fx) {
                const int ix = ix0 + fx;
                edge_src[edges * g->kw + fx] =
                    ix >= 0 && ix < g->in_w ? (int32_t)((row + ix) * g->in_c) : -1;
              }
            }
            v = (int32_t)(-1 - (edges + 1) * span);
            ++edges;
          }
        }
        if (table != NULL) table[(tile * g->kh + fy) * mr + r] = v;
      }
      if (m0 + r < g->m) cursor_next(g, &cur);
    }
  }
  return edges;
}

void el_conv_gather_edges(const el_conv_geom* g, const uint8_t* in, const int32_t* edge_src,
                          int64_t count, int span, uint8_t pad, uint8_t* dst) {
  const int cin = g->in_c;
  for (int64_t e = 0; e < count; ++e, dst += span) {
    const int32_t* src = edge_src + e * g->kw;
    for (int fx = 0; fx < g->kw; ++fx) {
      if (src[fx] >= 0) {
        memcpy(dst + fx * cin, in + src[fx], (size_t)cin);
      } else {
        memset(dst + fx * cin, pad, (size_t)cin);
      }
    }
    memset(dst + g->kw * cin, pad, (size_t)(span - g->kw * cin));
  }
}
