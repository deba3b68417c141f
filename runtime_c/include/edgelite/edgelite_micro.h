/* The freestanding build's interpreter (runtime_c/src/micro), the role of TensorFlow Lite Micro's
 * MicroInterpreter: it reads the model in place from its buffer (flash) and takes all its RAM
 * from one buffer the caller gives (TFLM's tensor_arena): its own state, the tensors, the
 * kernels' data and the activations. Kernels see a TfLiteContext and TfLiteTensors reduced to
 * what they use (edgelite/micro_context.h, edgelite/micro_tensor.h), built for each call. Nothing is allocated during el_micro_invoke.
 *
 * Shapes are the model's own (a kernel may not resize a tensor to another shape), the first
 * subgraph runs, and there are no delegates. */
#ifndef EDGELITE_MICRO_H_
#define EDGELITE_MICRO_H_

#include <stdarg.h>
#include <stddef.h>

#ifndef EDGELITE_MICRO_TENSOR
#define EDGELITE_MICRO_TENSOR 1
#endif
#include "edgelite/common.h"
#ifndef EDGELITE_MICRO_TENSOR_LAYOUT
#error "include edgelite/edgelite_micro.h before edgelite/common.h (or define EDGELITE_MICRO_TENSOR)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct el_micro_interpreter el_micro_interpreter;

/* Receives every error report, printf-style (TFLM's MicroPrintf). */
typedef void (*el_micro_report_fn)(void* user, const char* fmt, va_list args);

typedef struct el_micro_stats {
  size_t arena_bytes;  /* usable bytes of the buffer after aligning its start */
  size_t used;         /* bytes of the buffer the interpreter needs: the smallest that works */
  size_t activations;  /* planned tensors and kernel scratch (TFLM's "head") */
  size_t persistent;   /* state, tensors, nodes and kernel data (TFLM's "tail") */
  size_t init_scratch; /* most bytes the set-up needed below the persistent part at once */
  long alloc_calls;    /* kernel heap calls so far (none may come during invoke) */
  size_t tensor_bytes; /* kept per tensor for the whole run: 12 on a 32-bit core */
} el_micro_stats;

/* Reads the model (`model_bytes` at `model`, 4-byte aligned, kept alive by the caller), builds
 * its nodes, prepares them and plans the activations, all inside `arena`. On failure returns
 * NULL after reporting why to `report` (which may be NULL). */
el_micro_interpreter* el_micro_interpreter_create(const void* model, size_t model_bytes, void* arena,
                                                  size_t arena_bytes, el_micro_report_fn report,
                                                  void* report_user);

/* Runs the graph once; kTfLiteError after reporting a kernel's failure. */
TfLiteStatus el_micro_invoke(el_micro_interpreter* mi);

/* Starts a new stream (TFLM's MicroInterpreter::Reset): variable tensors back to their initial
 * values (an int8 one's zero point, else zero) and the kernels' state kept across invokes (the
 * signal ops') back to its value after create. Allocates nothing. Linked only into firmware
 * that calls it. */
TfLiteStatus el_micro_reset(el_micro_interpreter* mi);

size_t el_micro_num_inputs(const el_micro_interpreter* mi);
size_t el_micro_num_outputs(const el_micro_interpreter* mi);
/* The i-th input / output tensor (data, dims, type, quantization); NULL when out of range. These
 * two are the only TfLiteTensors kept for the whole run, as in TFLM; the caller writes the input's
 * data. */
TfLiteTensor* el_micro_input(el_micro_interpreter* mi, size_t i);
const TfLiteTensor* el_micro_output(const el_micro_interpreter* mi, size_t i);

el_micro_stats el_micro_get_stats(const el_micro_interpreter* mi);

#ifdef __cplusplus
}
#endif

#endif /* EDGELITE_MICRO_H_ */
