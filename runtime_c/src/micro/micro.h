/* The micro interpreter's internals: the arena it carves everything from and the activation
 * planner. */
#ifndef EDGELITE_MICRO_MICRO_H_
#define EDGELITE_MICRO_MICRO_H_

#include <stddef.h>
#include <stdint.h>

#include "edgelite/edgelite_micro.h"

/* Planned buffers and persistent blocks start at multiples of 8: int64 and double tensors and
 * the kernels' structures need no more on the cores this build targets. */
enum { EL_MICRO_ALIGN = 8 };
/* The interpreter's own structures (tensors, nodes, quantization) need only a word. */
enum { EL_MICRO_WORD = sizeof(void*) };

/* The alignment a block of unknown type needs: an object whose type asks for 8 bytes has a size
 * that is a multiple of 8, so any other size needs no more than a word. */
static inline size_t el_micro_align_for(size_t bytes) {
  return bytes % EL_MICRO_ALIGN == 0 ? EL_MICRO_ALIGN : EL_MICRO_WORD;
}

/* What the interpreter keeps per tensor for the whole run: where its data is when that is not
 * in place in the model (an activation's planned place, a variable's state, the aligned copy of
 * a constant), else NULL. The TfLiteTensor a kernel sees is read from the model again for each
 * call (type, shape and quantization in place), so nothing else needs to stay in RAM. */
typedef struct el_micro_tensor {
  void* data;
} el_micro_tensor;

/* The caller's buffer: persistent blocks are taken from its end downwards (`tail`), set-up
 * scratch from its start upwards (`head`); after planning the start holds the activations. */
typedef struct el_micro_arena {
  uint8_t* base;
  size_t cap;
  size_t head;      /* bytes of set-up scratch in use at the start */
  size_t head_peak; /* most set-up scratch held at once */
  size_t peak;      /* most bytes held at once, set-up scratch and persistent together */
  size_t tail;      /* offset of the lowest persistent byte (cap when none) */
  uint8_t* last;    /* the latest heap block, which free() gives back */
  size_t last_tail; /* `tail` before that block was taken */
  long calls;       /* heap calls, counted for the no-allocation-in-invoke check */
  int frozen;       /* set once set-up ends: heap calls then fail */
} el_micro_arena;

void el_micro_arena_init(el_micro_arena* a, uint8_t* base, size_t cap);
/* Zeroed persistent memory, or NULL when the head and tail would meet. */
void* el_micro_persist(el_micro_arena* a, size_t bytes, size_t align);
/* Set-up scratch (not zeroed), released all at once by el_micro_scratch_reset. */
void* el_micro_scratch(el_micro_arena* a, size_t bytes);
void el_micro_scratch_reset(el_micro_arena* a);
/* The arena the kernels' malloc/calloc/free reach (the build renames their calls). */
void el_micro_arena_bind(el_micro_arena* a);
/* The bound arena while an interpreter is being set up, else NULL. */
el_micro_arena* el_micro_arena_setup(void);

/* One buffer for the planner: bytes and the first and last execution step that use it. */
typedef struct el_micro_buffer {
  int32_t bytes;
  int32_t first, last;
  int32_t offset; /* out: where it lives in the activation area */
} el_micro_buffer;

/* Places `n` buffers greedily, largest first, each at the lowest offset where it overlaps no
 * placed buffer alive at the same time (TFLM's greedy planner); returns the area's size.
 * `order` is scratch for n indices. */
size_t el_micro_plan(el_micro_buffer* buffers, int32_t n, int32_t* order);

#endif /* EDGELITE_MICRO_MICRO_H_ */
