/* Quantized and hybrid FULLY_CONNECTED: int8 (per-tensor and per-channel weights), int16
 * activations with int8 weights, legacy uint8, and float activations with int8 weights
 * (dynamic range, optionally with asymmetric input quantization).
 *
 * LiteRT's reference kernel (BUILTIN_REF) requantizes the int32 accumulator with a double
 * multiply and round-half-away (round(acc * in_scale * w_scale / out_scale)) rather than the
 * fixed-point multiplier TFLite Micro uses; this follows BUILTIN_REF (the two can differ by one
 * step on exact ties). */
#ifndef EDGELITE_KERNELS_FULLY_CONNECTED_QUANT_H_
#define EDGELITE_KERNELS_FULLY_CONNECTED_QUANT_H_

#include "edgelite/common.h"
#include "kernels/fully_connected.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prepare and invoke of the quantized/hybrid paths, after FULLY_CONNECTED's prepare has filled d's
 * shapes and resized the output; their state hangs off d->quant. */
TfLiteStatus el_fc_prepare_quant(TfLiteContext* context, TfLiteNode* node, el_fc_data* d);
TfLiteStatus el_fc_invoke_quant(TfLiteContext* context, TfLiteNode* node, const el_fc_data* d);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_FULLY_CONNECTED_QUANT_H_ */
