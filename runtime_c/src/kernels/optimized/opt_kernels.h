/* The optimized tier's registrations and what they share.
 *
 * An optimized registration runs the reference prepare first (every check, error text and
 * output shape stays the reference one), then prepares its fast path when the node fits it
 * (types, constant weights, geometry) and otherwise keeps invoking the reference kernel. Its
 * per-node state starts with the reference state struct, so the reference prepare/invoke can
 * run on the same node->user_data. */
#ifndef EDGELITE_KERNELS_OPTIMIZED_OPT_KERNELS_H_
#define EDGELITE_KERNELS_OPTIMIZED_OPT_KERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "edgelite/common.h"
#include "cpu_backend.h"

extern const TfLiteRegistration el_opt_conv_2d;
extern const TfLiteRegistration el_opt_depthwise_conv_2d;
extern const TfLiteRegistration el_opt_fully_connected;
extern const TfLiteRegistration el_opt_add;
extern const TfLiteRegistration el_opt_sub;
extern const TfLiteRegistration el_opt_mul;
extern const TfLiteRegistration el_opt_mean;
extern const TfLiteRegistration el_opt_dequantize;
extern const TfLiteRegistration el_opt_quantize;
extern const TfLiteRegistration el_opt_average_pool_2d;
extern const TfLiteRegistration el_opt_max_pool_2d;
extern const TfLiteRegistration el_opt_softmax;
extern const TfLiteRegistration el_opt_pad;
extern const TfLiteRegistration el_opt_padv2;
extern const TfLiteRegistration el_opt_concatenation;
extern const TfLiteRegistration el_opt_logistic;
extern const TfLiteRegistration el_opt_tanh;
extern const TfLiteRegistration el_opt_unidirectional_sequence_lstm;
extern const TfLiteRegistration el_opt_lstm;
extern const TfLiteRegistration el_opt_svdf;
extern const TfLiteRegistration el_opt_resize_bilinear;
extern const TfLiteRegistration el_opt_arg_max;
extern const TfLiteRegistration el_opt_arg_min;
extern const TfLiteRegistration el_opt_cast;

/* The CPU backend of the interpreter running `ctx` (NULL outside an edgelite interpreter:
 * kernels then run on one thread at the best ISA level). */
const el_cpu_backend* el_context_backend(const TfLiteContext* ctx);
/* The ISA level a node should use. */
el_isa el_context_isa(const TfLiteContext* ctx);
/* Non-zero when the node being prepared must keep to the least arena scratch (the caller's
 * arena limit did not fit the fast paths): its prepare then keeps the reference kernel. */
int el_context_small_scratch(const TfLiteContext* ctx);

/* Persistent memory of `bytes` with 64-byte alignment (freed with the interpreter). */
void* el_opt_persistent(TfLiteContext* ctx, size_t bytes);

/* Per-thread scratch carved out of one arena scratch buffer: prepare requests `threads` slices
 * of `bytes` each; invoke gets slice `thread`. */
typedef struct el_opt_scratch {
  int index;
  int threads;
  size_t slice;
} el_opt_scratch;
TfLiteStatus el_opt_request_scratch(TfLiteContext* ctx, size_t bytes, int threads,
                                    el_opt_scratch* s);
/* Takes back the scratch request `index` when it is the last one, made while preparing this
 * node (a reference prepare's, which the optimized kernel replacing it does not need). */
void el_opt_withdraw_scratch(TfLiteContext* ctx, int index);
void* el_opt_scratch_slice(TfLiteContext* ctx, const el_opt_scratch* s, int thread);

/* Tasks to split `units` of work into for `threads` threads (1 when threads == 1). */
int el_opt_task_count(int units, int threads);

#endif /* EDGELITE_KERNELS_OPTIMIZED_OPT_KERNELS_H_ */
