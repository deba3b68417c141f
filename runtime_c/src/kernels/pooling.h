/* Per-node state of the 2-D pooling kernels, shared with the files that add quantized paths. */
#ifndef EDGELITE_KERNELS_POOLING_H_
#define EDGELITE_KERNELS_POOLING_H_

#include "kernels/kernel_util.h"

typedef struct el_pool_data {
  int pad_h, pad_w; /* rows above and columns left of the image (TFLite's padding.height, .width) */
  void* quant;      /* state of a quantized path, owned by that path (see README.md) */
} el_pool_data;

#endif /* EDGELITE_KERNELS_POOLING_H_ */
