/* ARG_MAX / ARG_MIN per-node state (arg_min_max.c), also the start of the optimized kernel's
 * state (optimized/arg_opt.c): the input seen as [outer, axis_size, inner]. */
#ifndef EDGELITE_KERNELS_ARG_MIN_MAX_H_
#define EDGELITE_KERNELS_ARG_MIN_MAX_H_

#include <stdint.h>

typedef struct el_arg_data {
  int64_t outer;
  int axis_size;
  int64_t inner;
} el_arg_data;

#endif /* EDGELITE_KERNELS_ARG_MIN_MAX_H_ */
