/* Float CONV_2D read in place: with dilation 1 along x, each filter row of an output pixel (kw *
 * in_c floats) is one contiguous run of the input, and the runs of successive filter rows are a
 * fixed stride apart, so the strided float GEMM reads a pixel's taps from one pointer. Pixels
 * with taps outside the image have their runs gathered, zero filled, into per-tile scratch. No
 * im2col copy of the interior. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_FCONV_TAPS_H_
#define EDGELITE_KERNELS_OPTIMIZED_FCONV_TAPS_H_

#include <stddef.h>
#include <stdint.h>

#include "kernels/optimized/conv_geom.h"

/* Whether the convolution can read its filter rows in place. */
int el_fconv_taps_ok(const el_conv_geom* g);

/* Small images with padding are copied per invoke into a persistent image whose zero border is
 * written once in prepare: every pixel then reads in place (no gathers, which on narrow maps
 * such as DS-CNN's 49x10 input would be most pixels). */
enum { EL_FCONV_PADDED_MAX_FLOATS = 16384 };

/* The geometry of the padded image (no padding left; all taps inside) into *padded; returns its
 * floats, 0 when every tap already falls inside the input. */
int64_t el_fconv_padded_geom(const el_conv_geom* g, el_conv_geom* padded);
/* The input into the inside of the padded image (border untouched). */
void el_fconv_fill_padded(const el_conv_geom* g, const el_conv_geom* padded, const float* in,
                          float* image);

/* Floats of per-thread scratch the gathered pixels of one tile of mr pixels need. */
static inline size_t el_fconv_edge_floats(const el_conv_geom* g, int mr) {
  return (size_t)mr * (size_t)g->kdim;
}

/* An output pixel (batch, y, x), stepped along the tiles of a task without divisions, and the
 * output columns [x_lo, x_hi) and rows [y_lo, y_hi) whose taps all fall inside the image. */
typedef struct el_fconv_cursor {
  int64_t b;
  int oy, ox;
  int x_lo, x_hi, y_lo, y_hi;
} el_fconv_cursor;

el_fconv_cursor el_fconv_cursor_at(const el_conv_geom* g, int64_t m);

/* The strided GEMM's rows for the `rows` pixels from *cur: a[r] is the r-th pixel's first filter
 * row, step[r] the floats to the next; rows past `rows` repeat the first pixel. *cur moves on by
 * `rows` pixels. `edge` is el_fconv_edge_floats scratch. */
void el_fconv_tile_rows(const el_conv_geom* g, const float* in, el_fconv_cursor* cur, int rows,
                        int mr, float* edge, const float** a, ptrdiff_t* step);

#endif /* EDGELITE_KERNELS_OPTIMIZED_FCONV_TAPS_H_ */
