/* Quantized and hybrid CONV_2D: int8 per-channel, int16 activations with int8 weights (16x8),
 * legacy uint8 per-tensor, and float activations with int8 weights (dynamic range).
 * Arithmetic of TFLite's reference kernels (LiteRT BUILTIN_REF). */
#ifndef EDGELITE_KERNELS_CONV_QUANT_H_
#define EDGELITE_KERNELS_CONV_QUANT_H_

#include "edgelite/common.h"
#include "kernels/conv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prepare and invoke of the quantized/hybrid paths; their state hangs off d->quant (filled from
 * persistent memory on first prepare). */
TfLiteStatus el_conv_prepare_quant(TfLiteContext* context, TfLiteNode* node, el_conv_data* d);
TfLiteStatus el_conv_invoke_quant(TfLiteContext* context, TfLiteNode* node, const el_conv_data* d);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_CONV_QUANT_H_ */
