/* The firmware's heap: a first-fit allocator over one caller-sized static arena, standing in for
 * malloc/calloc/realloc/free (linked with --wrap), that records the peak bytes in use and the
 * calls made while the board says an invoke is running, so a run can prove invoke allocates
 * nothing and report the RAM the interpreter needed. Newlib's own allocations (stdio buffers)
 * stay on newlib's heap and are not counted. */
#include "heap.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef EL_FW_HEAP_BYTES
#define EL_FW_HEAP_BYTES (512 * 1024)
#endif

/* Blocks carry an 8-byte header (their size, low bit set while in use) so every payload stays
 * 8-byte aligned, as the core's structures and int64 tensors need. */
typedef struct block {
  size_t size; /* header included; low bit: in use */
  size_t pad;
} block;

typedef struct heap_state {
  _Alignas(8) uint8_t arena[EL_FW_HEAP_BYTES];
  size_t top;   /* bytes of the arena ever handed out as blocks */
  el_heap_stats stats;
  int in_invoke;
} heap_state;

static heap_state g_heap; /* the board's one heap: firmware is single-threaded */

static size_t round_up(size_t n) { return (n + sizeof(block) + 7u) & ~(size_t)7u; }

static block* first_fit(size_t need) {
  size_t off = 0;
  while (off < g_heap.top) {
    block* b = (block*)(void*)(g_heap.arena + off);
    size_t sz = b->size & ~(size_t)1u;
    if (!(b->size & 1u)) {
      /* Merge the free blocks that follow, so space freed in pieces serves larger requests. */
      size_t next = off + sz;
      while (next < g_heap.top) {
        block* nb = (block*)(void*)(g_heap.arena + next);
        if (nb->size & 1u) break;
        sz += nb->size;
        next = off + sz;
      }
      if (next == g_heap.top) {
        g_heap.top = off; /* a free run at the end returns to the unused top */
        break;
      }
      b->size = sz;
      if (sz >= need) {
        if (sz - need >= sizeof(block) + 8u) {
          block* rest = (block*)(void*)(g_heap.arena + off + need);
          rest->size = sz - need;
          sz = need;
        }
        b->size = sz | 1u;
        return b;
      }
    }
    off += sz;
  }
  if (need > EL_FW_HEAP_BYTES - g_heap.top) return NULL;
  block* b = (block*)(void*)(g_heap.arena + g_heap.top);
  b->size = need | 1u;
  g_heap.top += need;
  return b;
}

static void account(size_t delta_in_use, int grow) {
  if (grow) {
    g_heap.stats.in_use += delta_in_use;
  } else {
    g_heap.stats.in_use -= delta_in_use;
  }
  if (g_heap.stats.in_use > g_heap.stats.peak_in_use) g_heap.stats.peak_in_use = g_heap.stats.in_use;
  if (g_heap.top > g_heap.stats.peak_top) g_heap.stats.peak_top = g_heap.top;
}

void* __wrap_malloc(size_t n) {
  g_heap.stats.calls += 1;
  if (g_heap.in_invoke) g_heap.stats.calls_in_invoke += 1;
  block* b = first_fit(round_up(n));
  if (b == NULL) return NULL;
  account(b->size & ~(size_t)1u, 1);
  return b + 1;
}

void __wrap_free(void* p) {
  if (p == NULL) return;
  if (g_heap.in_invoke) g_heap.stats.calls_in_invoke += 1;
  block* b = (block*)p - 1;
  b->size &= ~(size_t)1u;
  account(b->size, 0);
}

void* __wrap_calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return NULL;
  void* p = __wrap_malloc(count * size);
  if (p != NULL) memset(p, 0, count * size);
  return p;
}

void* __wrap_realloc(void* p, size_t n) {
  if (p == NULL) return __wrap_malloc(n);
  block* b = (block*)p - 1;
  size_t old = (b->size & ~(size_t)1u) - sizeof(block);
  if (n <= old) return p;
  void* q = __wrap_malloc(n);
  if (q == NULL) return NULL;
  memcpy(q, p, old);
  __wrap_free(p);
  return q;
}

/* Newlib has no posix_memalign; the core asks for 16- and 64-byte aligned buffers. The block is
 * over-allocated and the part before the aligned payload returned to the heap as a free block. */
int posix_memalign(void** out, size_t align, size_t n) {
  if (align < 8 || (align & (align - 1)) != 0) return 22; /* EINVAL */
  if (n > SIZE_MAX - 2 * align - 2 * sizeof(block)) return 12; /* ENOMEM */
  uint8_t* raw = __wrap_malloc(n + align + sizeof(block) + 8u);
  if (raw == NULL) return 12;
  uintptr_t at = ((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1);
  if (at != (uintptr_t)raw && at - (uintptr_t)raw < sizeof(block) + 8u) at += align;
  const size_t lead = (size_t)(at - (uintptr_t)raw);
  if (lead > 0) {
    block* head = (block*)(void*)raw - 1;
    const size_t total = head->size & ~(size_t)1u;
    head->size = lead; /* free */
    block* body = (block*)(void*)at - 1;
    body->size = (total - lead) | 1u;
    account(lead, 0);
  }
  *out = (void*)at;
  return 0;
}

void el_heap_set_in_invoke(int in_invoke) { g_heap.in_invoke = in_invoke; }

el_heap_stats el_heap_get_stats(void) { return g_heap.stats; }
