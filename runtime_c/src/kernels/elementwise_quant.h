/* Quantized ADD, SUB and MUL with numpy broadcasting (up to 6 dimensions): int8, uint8 and
 * int16 (general scales, and the power-of-two-scale int16 path of ADD/SUB). */
#ifndef EDGELITE_KERNELS_ELEMENTWISE_QUANT_H_
#define EDGELITE_KERNELS_ELEMENTWISE_QUANT_H_

#include "edgelite/common.h"
#include "kernels/elementwise_binary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ADD, SUB and MUL (`op`) on quantized integer outputs; `state` is the op's quantized slot. */
TfLiteStatus el_binary_prepare_quant(TfLiteContext* context, TfLiteNode* node, void** state,
                                     el_binary_op op);
TfLiteStatus el_binary_invoke_quant(TfLiteContext* context, TfLiteNode* node, const void* state);

/* The quantized ADD/SUB/MUL parameters the reference prepares and runs on, which the optimized
 * tier reads too. General-scale ADD/SUB per element: ra = mbqm(((x1 + off1) << left_shift), m1, s1),
 * rb likewise, then clamp(mbqm(ra +- rb, mo, so) + out_off). */
typedef struct el_add_sub_params {
  int subtract;
  int left_shift;
  int32_t off1, off2, out_off;
  int32_t m1, m2, mo;
  int s1, s2, so;
  int32_t act_min, act_max;
} el_add_sub_params;
/* The parameters of `state` (el_binary_prepare_quant's) when it is a general-scale ADD or SUB;
 * NULL for MUL, the power-of-two int16 path, or no state. */
const el_add_sub_params* el_binary_add_sub_params(const void* state);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_ELEMENTWISE_QUANT_H_ */
