/* The geometry of one convolution-like invocation (CONV_2D, DEPTHWISE_CONV_2D,
 * TRANSPOSE_CONV), read once from the NHWC tensors so the reference loops index with plain ints. */
#ifndef EDGELITE_KERNELS_CONV_GEOM_H_
#define EDGELITE_KERNELS_CONV_GEOM_H_

#include "edgelite/builtin_op_data.h"
#include "edgelite/common.h"

typedef struct el_conv_geom {
  int batches, in_h, in_w, in_ch;
  int f_h, f_w, f_in_ch; /* filter [*, f_h, f_w, f_in_ch] */
  int out_h, out_w, out_ch;
  int stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
  int per_group; /* CONV_2D: output channels per group */
  int mult;      /* DEPTHWISE_CONV_2D: depth multiplier */
} el_conv_geom;

/* Dimensions of input, filter and output plus the window; per_group and mult are left 0 for the
 * kernel that uses them to fill in. */
static inline el_conv_geom el_conv_geom_read(const TfLiteTensor* input, const TfLiteTensor* filter,
                                             const TfLiteTensor* output, int stride_h, int stride_w,
                                             int dil_h, int dil_w, int pad_h, int pad_w) {
  const int* in = input->dims->data;
  const int* f = filter->dims->data;
  const int* out = output->dims->data;
  const el_conv_geom g = {in[0],    in[1],    in[2], in[3], f[1],       f[2],      f[3],
                          out[1],   out[2],   out[3], stride_h, stride_w, dil_h, dil_w,
                          pad_h,    pad_w,    0, 0};
  return g;
}

#endif /* EDGELITE_KERNELS_CONV_GEOM_H_ */
