/* The hybrid ("dynamic range") input quantizers of kernels/hybrid_quant.h in a form the compiler
 * vectorizes: the same scales, zero points and int8 values bit for bit, without a libm call per
 * element. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_HYBRID_OPT_H_
#define EDGELITE_KERNELS_OPTIMIZED_HYBRID_OPT_H_

#include <stdint.h>

#include "kernels/optimized/quant_kernels.h"

/* Symmetric quantization of one row, its quantization step in the vector body `k`
 * (quant_kernels.h) of an ISA level. */
void el_opt_hybrid_quantize_symmetric_with(const el_quant_kernels* k, const float* values, int size,
                                           int8_t* quantized, float* scaling_factor);
void el_opt_hybrid_quantize_asymmetric(const float* values, int size, int8_t* quantized,
                                       float* scaling_factor, int32_t* zero_point);

#endif /* EDGELITE_KERNELS_OPTIMIZED_HYBRID_OPT_H_ */
