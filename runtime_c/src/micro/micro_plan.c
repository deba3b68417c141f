/* Greedy placement of the activation buffers: largest first, each at the lowest offset free of
 * every placed buffer whose lifetime it shares. */
#include "micro/micro.h"

static int alive_together(const el_micro_buffer* a, const el_micro_buffer* b) {
  return a->first <= b->last && b->first <= a->last;
}

size_t el_micro_plan(el_micro_buffer* buffers, int32_t n, int32_t* order) {
  /* Insertion sort by size, largest first; equal sizes keep their index order. */
  for (int32_t i = 0; i < n; ++i) {
    int32_t j = i;
    while (j > 0 && buffers[order[j - 1]].bytes < buffers[i].bytes) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = i;
  }
  size_t total = 0;
  for (int32_t k = 0; k < n; ++k) {
    el_micro_buffer* b = &buffers[order[k]];
    const size_t size = ((size_t)b->bytes + EL_MICRO_ALIGN - 1) & ~(size_t)(EL_MICRO_ALIGN - 1);
    size_t at = 0;
    /* Move past any placed, simultaneously alive buffer that overlaps [at, at + size) until
     * none does; each move goes up, so this ends. */
    for (int32_t p = 0; p < k; ++p) {
      const el_micro_buffer* o = &buffers[order[p]];
      const size_t o_end = (size_t)o->offset + (size_t)o->bytes;
      if (alive_together(b, o) && (size_t)o->offset < at + size && at < o_end) {
        at = (o_end + EL_MICRO_ALIGN - 1) & ~(size_t)(EL_MICRO_ALIGN - 1);
        p = -1;
      }
    }
    b->offset = (int32_t)at;
    if (at + size > total) total = at + size;
  }
  return total;
}
