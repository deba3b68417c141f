/* Float CONV_2D read in place: with dilation 1 along x, each filter row of an output pixel (kw *
 * in_c floats) is one contiguous run of the input, handed to the indirect float GEMM as a
 * pointer. Runs that leave the image along x are gathered, zero filled, into per-tile scratch;
 * filter rows wholly outside the image point at a run of zeros. No im2col copy of the interior. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_FCONV_TAPS_H_
#define EDGELITE_KERNELS_OPTIMIZED_FCONV_TAPS_H_

#include <stddef.h>
#include <stdint.h>

#include "kernels/optimized/conv_geom.h"

/* The taps of one tile: kh * mr pointers on the stack. */
enum { EL_FCONV_MAX_KH = 64 };

/* Whether the convolution can read its filter rows in place. */
int el_fconv_taps_ok(const el_conv_geom* g);

/* Small images with padding are copied per invoke into a persistent image whose zero border is
 * written once in prepare: every tap is then a pointer (no edge gathers, which on narrow maps
 * such as DS-CNN's 49x10 input are most pixels). */
enum { EL_FCONV_PADDED_MAX_FLOATS = 16384 };

/* The geometry of the padded image (no padding left; all taps inside) into *padded; returns its
 * floats, 0 when every tap already falls inside the input. */
int64_t el_fconv_padded_geom(const el_conv_geom* g, el_conv_geom* padded);
/* The input into the inside of the padded image (border untouched). */
void el_fconv_fill_padded(const el_conv_geom* g, const el_conv_geom* padded, const float* in,
                          float* image);

/* Floats of per-thread scratch the edge runs of one tile of mr pixels need. */
static inline size_t el_fconv_edge_floats(const el_conv_geom* g, int mr) {
  return (size_t)mr * (size_t)g->kh * (size_t)g->kw * (size_t)g->in_c;
}

/* An output pixel (batch, y, x), stepped along the tiles of a task without divisions. */
typedef struct el_fconv_cursor {
  int64_t b;
  int oy, ox;
} el_fconv_cursor;

el_fconv_cursor el_fconv_cursor_at(const el_conv_geom* g, int64_t m);

/* taps[fy * mr + r]: filter row fy of the r-th pixel from *cur (kw * in_c floats); rows past
 * `rows` repeat the first pixel's. *cur moves on by `rows` pixels. `zeros` holds kw * in_c
 * zeros; `edge` is el_fconv_edge_floats scratch. */
void el_fconv_tile_taps(const el_conv_geom* g, const float* in, el_fconv_cursor* cur, int rows,
                        int mr, const float* zeros, float* edge, const float** taps);

#endif /* EDGELITE_KERNELS_OPTIMIZED_FCONV_TAPS_H_ */
