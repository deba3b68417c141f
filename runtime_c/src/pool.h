/* A bump allocator for objects that live exactly as long as their owner (a model or an
 * interpreter): one free releases them all, so error paths cannot leak. */
#ifndef EDGELITE_POOL_H_
#define EDGELITE_POOL_H_

#include <stddef.h>

typedef struct el_pool_chunk el_pool_chunk;

typedef struct el_pool {
  el_pool_chunk* head;
} el_pool;

/* Zeroed, 16-byte (freestanding: 8-byte) aligned memory for `n` items of `size` bytes; NULL on overflow or no memory. */
void* el_pool_alloc(el_pool* pool, size_t n, size_t size);
/* A copy of the NUL-terminated `s`. */
char* el_pool_strdup(el_pool* pool, const char* s);
void el_pool_free(el_pool* pool);

#endif /* EDGELITE_POOL_H_ */
