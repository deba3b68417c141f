#include "pool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A firmware's heap is the RAM budget itself, so freestanding pools grow in small steps. */
#ifndef EL_POOL_CHUNK_BYTES
#ifdef EDGELITE_FREESTANDING
#define EL_POOL_CHUNK_BYTES 256
#else
#define EL_POOL_CHUNK_BYTES 16384
#endif
#endif
/* Freestanding targets are 32-bit: 8 bytes align every object the core keeps in a pool. */
#ifdef EDGELITE_FREESTANDING
enum { EL_POOL_CHUNK = EL_POOL_CHUNK_BYTES, EL_POOL_ALIGN = 8 };
#else
enum { EL_POOL_CHUNK = EL_POOL_CHUNK_BYTES, EL_POOL_ALIGN = 16 };
#endif

struct el_pool_chunk {
  el_pool_chunk* next;
  size_t used;
  size_t cap;
  _Alignas(16) unsigned char data[];
};

void* el_pool_alloc(el_pool* pool, size_t n, size_t size) {
  if (size != 0 && n > (SIZE_MAX / 2) / size) return NULL;
  size_t bytes = n * size;
  if (bytes == 0) bytes = 1;
  bytes = (bytes + EL_POOL_ALIGN - 1) & ~(size_t)(EL_POOL_ALIGN - 1);
  el_pool_chunk* c = pool->head;
  if (c == NULL || c->cap - c->used < bytes) {
    /* Large requests get a chunk of their own so small ones keep filling the current one. */
    size_t cap = bytes > EL_POOL_CHUNK / 4 ? bytes : EL_POOL_CHUNK;
    el_pool_chunk* fresh = malloc(sizeof(el_pool_chunk) + cap);
    if (fresh == NULL) return NULL;
    fresh->used = 0;
    fresh->cap = cap;
    if (c != NULL && bytes > EL_POOL_CHUNK / 4) {
      fresh->next = c->next;
      c->next = fresh;
    } else {
      fresh->next = c;
      pool->head = fresh;
    }
    c = fresh;
  }
  void* p = c->data + c->used;
  c->used += bytes;
  memset(p, 0, bytes);
  return p;
}

char* el_pool_strdup(el_pool* pool, const char* s) {
  size_t n = strlen(s) + 1;
  char* p = el_pool_alloc(pool, n, 1);
  if (p != NULL) memcpy(p, s, n);
  return p;
}

void el_pool_free(el_pool* pool) {
  el_pool_chunk* c = pool->head;
  while (c != NULL) {
    el_pool_chunk* next = c->next;
    free(c);
    c = next;
  }
  pool->head = NULL;
}
