/* Hybrid CONV_2D (float input, int8 weights) on the 4-byte-group product kernels: the quantized
 * input is laid out once per invoke as the kernel reads it (bytes XORed with its a_xor) inside a
 * border of the XORed zero point, so each filter row of each pixel is one run of kw * in_c bytes
 * (dilation 1 along x). Tiles of im2col rows are then copied run by run instead of tap by tap,
 * and a pointwise convolution reads its rows in place. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_HCONV_IMAGE_H_
#define EDGELITE_KERNELS_OPTIMIZED_HCONV_IMAGE_H_

#include <stdint.h>

#include "kernels/optimized/conv_geom.h"
#include "kernels/optimized/fconv_taps.h"

/* The image's geometry (no padding left) into *image; returns its bytes. */
int64_t el_hconv_image_geom(const el_conv_geom* g, el_conv_geom* image);

/* The quantized input q into the image: bytes XOR x, the border `pad`. */
void el_hconv_fill_image(const el_conv_geom* g, const el_conv_geom* ig, const int8_t* q, uint8_t x,
                         uint8_t pad, uint8_t* image);

/* im2col rows of `rows` pixels from *cur (moved on) into dst, mr rows of kp bytes: the filter
 * rows' runs, zeros up to kp; rows past `rows` repeat the first. */
void el_hconv_tile_rows(const el_conv_geom* ig, const uint8_t* image, el_fconv_cursor* cur,
                        int rows, int mr, int kp, uint8_t* dst);

#endif /* EDGELITE_KERNELS_OPTIMIZED_HCONV_IMAGE_H_ */
