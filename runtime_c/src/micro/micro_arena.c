/* The micro interpreter's memory: one caller buffer, persistent blocks from its end, set-up
 * scratch from its start, no block headers. The kernels' heap calls (their init's calloc, a
 * resize's shape array) are renamed to el_arena_* by the build (objcopy --redefine-sym in
 * CMakeLists.txt) and land here: a block is persistent, and free() gives back only the latest
 * one, which is the one a kernel frees during set-up (the shape ResizeTensor drops). */
#include <string.h>

#include "micro/micro.h"

void* el_arena_malloc(size_t n);
void* el_arena_calloc(size_t count, size_t size);
void* el_arena_realloc(void* p, size_t n);
void el_arena_free(void* p);
int el_arena_posix_memalign(void** out, size_t align, size_t n);

static el_micro_arena* g_bound; /* the interpreter being set up: the core is single-threaded */

void el_micro_arena_init(el_micro_arena* a, uint8_t* base, size_t cap) {
  memset(a, 0, sizeof *a);
  a->base = base;
  a->cap = cap;
  a->tail = cap;
}

void el_micro_arena_bind(el_micro_arena* a) { g_bound = a; }

el_micro_arena* el_micro_arena_setup(void) { return g_bound != NULL && !g_bound->frozen ? g_bound : NULL; }

static void note_peak(el_micro_arena* a) {
  const size_t in_use = a->head + (a->cap - a->tail);
  if (in_use > a->peak) a->peak = in_use;
}

void* el_micro_persist(el_micro_arena* a, size_t bytes, size_t align) {
  if (bytes > a->tail) return NULL;
  const size_t at = (a->tail - bytes) & ~(align - 1);
  if (at < a->head) return NULL;
  a->tail = at;
  note_peak(a);
  memset(a->base + at, 0, bytes);
  return a->base + at;
}

void* el_micro_scratch(el_micro_arena* a, size_t bytes) {
  const size_t at = (a->head + EL_MICRO_ALIGN - 1) & ~(size_t)(EL_MICRO_ALIGN - 1);
  if (at > a->tail || bytes > a->tail - at) return NULL;
  a->head = at + bytes;
  if (a->head > a->head_peak) a->head_peak = a->head;
  note_peak(a);
  return a->base + at;
}

void el_micro_scratch_reset(el_micro_arena* a) { a->head = 0; }

static void* heap_block(size_t n, size_t align) {
  el_micro_arena* a = g_bound;
  if (a == NULL) return NULL;
  a->calls += 1;
  if (a->frozen) return NULL;
  const size_t before = a->tail;
  uint8_t* p = el_micro_persist(a, n ? n : 1, align);
  if (p != NULL) {
    a->last = p;
    a->last_tail = before;
  }
  return p;
}

void* el_arena_malloc(size_t n) { return heap_block(n, el_micro_align_for(n)); }

void* el_arena_calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return NULL;
  return heap_block(count * size, el_micro_align_for(count * size));
}

void el_arena_free(void* p) {
  el_micro_arena* a = g_bound;
  if (p == NULL || a == NULL) return;
  a->calls += 1;
  if (p == a->last && !a->frozen) {
    a->tail = a->last_tail;
    a->last = NULL;
  }
}

/* Only the latest block can grow (it is moved down, the tail being below it); others fail. */
void* el_arena_realloc(void* p, size_t n) {
  el_micro_arena* a = g_bound;
  if (p == NULL) return el_arena_malloc(n);
  if (a == NULL || p != a->last) return NULL;
  const size_t p_end = a->last_tail;
  const size_t old = p_end - (size_t)((uint8_t*)p - a->base);
  uint8_t* q = heap_block(n, el_micro_align_for(n));
  if (q != NULL) {
    memmove(q, p, old < n ? old : n);
    a->last_tail = p_end; /* freeing q gives back p's bytes too */
  }
  return q;
}

int el_arena_posix_memalign(void** out, size_t align, size_t n) {
  if (align < EL_MICRO_ALIGN || (align & (align - 1)) != 0) return 22; /* EINVAL */
  void* p = heap_block(n, align);
  if (p == NULL) return 12; /* ENOMEM */
  *out = p;
  return 0;
}
