/* Quantized and hybrid DEPTHWISE_CONV_2D: int8 per-channel, 16x8, legacy uint8, and float
 * activations with int8 weights. Arithmetic of TFLite's reference kernels (BUILTIN_REF). */
#ifndef EDGELITE_KERNELS_DEPTHWISE_CONV_QUANT_H_
#define EDGELITE_KERNELS_DEPTHWISE_CONV_QUANT_H_

#include "edgelite/common.h"
#include "kernels/conv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prepare and invoke of the quantized/hybrid paths; their state hangs off d->quant. */
TfLiteStatus el_dw_prepare_quant(TfLiteContext* context, TfLiteNode* node, el_conv_data* d);
TfLiteStatus el_dw_invoke_quant(TfLiteContext* context, TfLiteNode* node, const el_conv_data* d);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_DEPTHWISE_CONV_QUANT_H_ */
