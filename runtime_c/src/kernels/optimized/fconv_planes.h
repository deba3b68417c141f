/* Float CONV_2D with few input channels and 8 output channels (the first layer of small float
 * convnets such as VWW's 96x96x3 -> 48x48x8): 8 channels fill half of a 16-lane vector per
 * output pixel, so here the lanes are 16 neighbouring output pixels instead. The input is
 * split once per invoke into planes, one per input channel and column phase (column x lands in
 * phase x % stride at x / stride), with the zero border written in prepare; tap (fy, fx, ci) of
 * 16 neighbouring pixels is then one contiguous load, times one broadcast weight per output
 * channel. Each output is the bias plus its taps' products in filter order (y, x, channel), the
 * order of the im2col kernels, so the bits are theirs. AVX-512 only. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_FCONV_PLANES_H_
#define EDGELITE_KERNELS_OPTIMIZED_FCONV_PLANES_H_

#include <stdint.h>

#include "cpu_isa.h"
#include "kernels/optimized/conv_geom.h"

enum { EL_FCONV_PLANES_OUT_C = 8 };

typedef struct el_fconv_planes {
  el_conv_geom g;
  int plane_h, plane_w; /* rows (padded) and columns of one plane */
  float* planes;        /* [batch][in_c][sw][plane_h][plane_w] */
  float* weights;       /* [kdim][8] */
  const float* bias;    /* 8 floats */
  float lo, hi;
  /* Filling without left padding: for plane (ci, phase) = combo ci * sw + phase, lane j's float
   * of a run of 16 * sw pixels, as a permute index into a pair of vectors, and per pair the
   * lanes it gives. */
  int32_t fill_index[6][16];
  uint16_t fill_from[6][3];
} el_fconv_planes;

/* Whether geometry g on this ISA takes this kernel. */
int el_fconv_planes_ok(const el_conv_geom* g, el_isa isa);
/* Floats of the planes of geometry g. */
int64_t el_fconv_planes_floats(const el_conv_geom* g);
/* Lays out p for g: `planes` (el_fconv_planes_floats, zeroed here), `weights` (kdim * 8 floats,
 * filled from the OHWI filter). */
void el_fconv_planes_init(el_fconv_planes* p, const el_conv_geom* g, float* planes, float* weights,
                          const float* filter, const float* bias, float lo, float hi);
/* The input into the planes (their border keeps its zeros). */
void el_fconv_planes_fill(const el_fconv_planes* p, const float* in);
/* Output rows [row0, row1) of batches * out_h. */
void el_fconv_planes_rows(const el_fconv_planes* p, int64_t row0, int64_t row1, float* out);

#endif /* EDGELITE_KERNELS_OPTIMIZED_FCONV_PLANES_H_ */
