/* The hybrid convolution's input image and its im2col rows (see hconv_image.h). */
#include "kernels/optimized/hconv_image.h"

#include <string.h>

int64_t el_hconv_image_geom(const el_conv_geom* g, el_conv_geom* image) {
  const int64_t padded = el_fconv_padded_geom(g, image);
  return padded > 0 ? padded : (int64_t)g->batches * g->in_h * g->in_w * g->in_c;
}

void el_hconv_fill_image(const el_conv_geom* g, const el_conv_geom* ig, const int8_t* q, uint8_t x,
                         uint8_t pad, uint8_t* image) {
  const size_t row = (size_t)g->in_w * (size_t)g->in_c;
  const size_t image_row = (size_t)ig->in_w * (size_t)g->in_c;
  const int bordered = ig->in_h != g->in_h || ig->in_w != g->in_w;
  if (bordered) memset(image, pad, (size_t)g->batches * (size_t)ig->in_h * image_row);
  for (int b = 0; b < g->batches; ++b) {
    uint8_t* dst = image + ((size_t)b * (size_t)ig->in_h + (size_t)g->pad_h) * image_row +
                   (size_t)g->pad_w * (size_t)g->in_c;
    const uint8_t* src = (const uint8_t*)q + (size_t)b * (size_t)g->in_h * row;
    for (int y = 0; y < g->in_h; ++y, dst += image_row, src += row) {
      for (size_t i = 0; i < row; ++i) dst[i] = (uint8_t)(src[i] ^ x);
    }
  }
}

void el_hconv_tile_rows(const el_conv_geom* ig, const uint8_t* image, el_fconv_cursor* cur,
                        int rows, int mr, int kp, uint8_t* dst) {
  const int run = ig->kw * ig->in_c;
  const int64_t row_bytes = (int64_t)ig->in_w * ig->in_c;
  const int64_t dy = row_bytes * ig->dh;
  const int64_t image_bytes = row_bytes * ig->in_h;
  el_fconv_cursor p = *cur;
  for (int r = 0; r < rows; ++r) {
    const uint8_t* src = image + p.b * image_bytes + (int64_t)p.oy * ig->sh * row_bytes +
                         (int64_t)p.ox * ig->sw * ig->in_c;
    uint8_t* d = dst + (size_t)r * (size_t)kp;
    if (run == 4) {
      for (int fy = 0; fy < ig->kh; ++fy, src += dy, d += 4) memcpy(d, src, 4);
    } else {
      for (int fy = 0; fy < ig->kh; ++fy, src += dy, d += run) memcpy(d, src, (size_t)run);
    }
    memset(d, 0, (size_t)(kp - ig->kdim));
    if (++p.ox == ig->out_w) {
      p.ox = 0;
      if (++p.oy == ig->out_h) {
        p.oy = 0;
        ++p.b;
      }
    }
  }
  *cur = p;
  for (int r = rows; r < mr; ++r) memcpy(dst + (size_t)r * (size_t)kp, dst, (size_t)kp);
}
