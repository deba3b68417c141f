/* What the firmware's heap (heap.c) measured. */
#ifndef EDGELITE_BOARD_HEAP_H_
#define EDGELITE_BOARD_HEAP_H_

#include <stddef.h>

typedef struct el_heap_stats {
  size_t in_use;          /* bytes held now, block headers included */
  size_t peak_in_use;     /* most bytes held at once */
  size_t peak_top;        /* most of the arena ever used, fragmentation included */
  long calls;             /* malloc/calloc/realloc calls */
  long calls_in_invoke;   /* heap calls (frees too) while an invoke ran */
} el_heap_stats;

void el_heap_set_in_invoke(int in_invoke);
el_heap_stats el_heap_get_stats(void);

#endif /* EDGELITE_BOARD_HEAP_H_ */
