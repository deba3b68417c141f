/* Quantized AVERAGE_POOL_2D and MAX_POOL_2D (uint8, int8, int16). Input and output share
 * their quantization, so pooling works on raw values: the average over the in-image taps is
 * rounded half away from zero, then the fused activation clamps. */
#ifndef EDGELITE_KERNELS_POOLING_QUANT_H_
#define EDGELITE_KERNELS_POOLING_QUANT_H_

#include "edgelite/common.h"
#include "kernels/pooling.h"

#ifdef __cplusplus
extern "C" {
#endif

/* After the pooling prepare has checked the node, filled d's padding and resized the output;
 * `op_name` is "AVERAGE_POOL_2D" or "MAX_POOL_2D". The state hangs off d->quant. */
TfLiteStatus el_pool_prepare_quant(TfLiteContext* context, TfLiteNode* node, el_pool_data* d, const char* op_name);
TfLiteStatus el_pool_invoke_quant(TfLiteContext* context, TfLiteNode* node, const el_pool_data* d, bool average);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_POOLING_QUANT_H_ */
