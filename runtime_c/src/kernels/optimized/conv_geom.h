/* Convolution geometry and the im2col row builders of the optimized CONV_2D.
 *
 * Row m of the im2col matrix is output pixel m (batch, y, x in NHWC order): the filter taps in
 * OHWI order (filter y, filter x, input channel), each converted to the GEMM's A layout. A tap
 * outside the image is the input zero point (it then adds nothing, as the reference kernel's
 * skipped taps); k beyond the filter size, and rows beyond the last pixel, are zero. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_CONV_GEOM_H_
#define EDGELITE_KERNELS_OPTIMIZED_CONV_GEOM_H_

#include <stdint.h>

#include "edgelite/common.h"

typedef struct el_conv_geom {
  int batches, in_h, in_w, in_c;
  int out_h, out_w, out_c;
  int kh, kw, sh, sw, dh, dw, pad_h, pad_w;
  int kdim;      /* kh * kw * in_c */
  int64_t m;     /* output pixels */
  int pointwise; /* 1x1, stride 1, no padding: im2col row m is input pixel m */
} el_conv_geom;

void el_conv_geom_init(el_conv_geom* g, const TfLiteTensor* input, const TfLiteTensor* filter,
                       const TfLiteTensor* output, int sh, int sw, int dh, int dw, int pad_h,
                       int pad_w);

/* Rows m0 .. m0+rows-1 into dst (mr rows of kp bytes): input bytes XOR `x`, `pad` for outside
 * taps. */
void el_conv_pack_quad(const el_conv_geom* g, const uint8_t* in, int64_t m0, int rows, int mr,
                       int kp, uint8_t x, uint8_t pad, uint8_t* dst);
/* As int16 (value + off) of int8 or uint8 input; outside taps are 0. */
void el_conv_pack_pair16(const el_conv_geom* g, const void* in, int is_unsigned, int32_t off,
                         int64_t m0, int rows, int mr, int kp, int16_t* dst);
/* Float rows of kdim values; outside taps are 0. */
void el_conv_pack_f32(const el_conv_geom* g, const float* in, int64_t m0, int rows, int mr,
                      float* dst);

/* Filter rows as the taps of an indirect product (dilation 1 along x only): tap fy of output
 * pixel m is the run of kw * in_c input bytes from its first filter column on, read as `span`
 * bytes (the run rounded up, the excess meeting zero weights). For the tiles of mr pixels,
 * table[(tile * kh + fy) * mr + r] is the run's input offset, -1 for a filter row outside the
 * image (a row of zero points), or -1 - (e + 1) * span for edge entry e: a run partly outside
 * the image, or whose span passes the input's end, gathered per invoke (el_conv_gather_edges)
 * from the kw tap offsets edge_src[e * kw + fx] (-1 outside). Rows past the last pixel repeat
 * the tile's first.
 * Returns the number of edge entries; table and edge_src may be NULL to count them. */
int64_t el_conv_row_taps(const el_conv_geom* g, int span, int mr, int32_t* table, int32_t* edge_src);
/* The `count` edge runs into dst (span bytes each): input bytes, `pad` outside the image and
 * after the run. */
void el_conv_gather_edges(const el_conv_geom* g, const uint8_t* in, const int32_t* edge_src,
                          int64_t count, int span, uint8_t pad, uint8_t* dst);

#endif /* EDGELITE_KERNELS_OPTIMIZED_CONV_GEOM_H_ */
