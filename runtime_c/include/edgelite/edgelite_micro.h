/* The freestanding build's memory: the model and interpreter take all their RAM from one buffer
 * the caller gives, the role of TensorFlow Lite Micro's tensor_arena. Call el_micro_arena_init
 * before el_model_create_from_buffer; nothing is allocated during el_interpreter_invoke. */
#ifndef EDGELITE_MICRO_H_
#define EDGELITE_MICRO_H_

#include <stddef.h>

#include "edgelite/edgelite.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct el_micro_arena_stats {
  size_t capacity;   /* bytes of the buffer usable after aligning its start */
  size_t in_use;     /* bytes held now, block headers included */
  size_t peak;       /* most bytes held at once */
  size_t high_water; /* most of the buffer ever touched, fragmentation included: the arena size
                        the same calls need */
  long calls;        /* allocations and frees so far */
} el_micro_arena_stats;

/* Hands `bytes` at `buffer` to the core. Anything still allocated in the previous buffer must be
 * destroyed first. EL_VALUE_ERROR for a NULL buffer or one too small to hold a block. */
el_status el_micro_arena_init(void* buffer, size_t bytes);
el_micro_arena_stats el_micro_arena_get_stats(void);

#ifdef __cplusplus
}
#endif

#endif /* EDGELITE_MICRO_H_ */
