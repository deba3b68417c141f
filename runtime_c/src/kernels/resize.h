/* RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR per-node state and the bilinear source coordinates,
 * shared by the reference kernel (resize.c) and the optimized one (optimized/resize_opt.c),
 * whose state starts with this one. */
#ifndef EDGELITE_KERNELS_RESIZE_H_
#define EDGELITE_KERNELS_RESIZE_H_

#include <stdbool.h>

typedef struct el_resize_data {
  int out_h, out_w;
  float y_scale, x_scale;
  void* quant; /* state of a quantized path (README.md) */
} el_resize_data;

/* Output coordinate v's source position (TFLite's reference formula) and the two input indices
 * around it, clamped to [0, in_size). */
void el_resize_source(int v, float scale, bool half, int in_size, float* pos, int* lo, int* hi);

#endif /* EDGELITE_KERNELS_RESIZE_H_ */
