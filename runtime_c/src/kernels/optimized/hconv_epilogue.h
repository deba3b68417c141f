/* The float epilogue of the hybrid CONV_2D, per output pixel and run of channels: the reference
 * hybrid kernel's sum * [channel scale *] scale [+ bias], clamped, from the integer sums of the
 * product kernel plus the zero point's term (corr). Bodies per ISA level, all the same bits. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_HCONV_EPILOGUE_H_
#define EDGELITE_KERNELS_OPTIMIZED_HCONV_EPILOGUE_H_

#include <stdint.h>

#include "cpu_isa.h"

typedef struct el_hconv_epilogue {
  /* One scale per output channel (cs[x]), one for all (cs[0]), or none (cs NULL); bias may be
   * NULL. */
  const float* cs;
  int per_channel;
  const float* bias;
  float lo, hi;
} el_hconv_epilogue;

/* dst[x] for x < count from acc[x] + corr[x]; cs and bias from channel 0 of the run. */
typedef void (*el_hconv_row_fn)(const el_hconv_epilogue* e, const int32_t* acc,
                                const int32_t* corr, const float* cs, const float* bias,
                                float scale, int count, float* dst);

el_hconv_row_fn el_hconv_row_for(el_isa isa);

#endif /* EDGELITE_KERNELS_OPTIMIZED_HCONV_EPILOGUE_H_ */
