/* The freestanding core's allocator: first fit over the caller's one buffer
 * (edgelite/edgelite_micro.h). The build renames the core's malloc/calloc/realloc/free/
 * posix_memalign calls to these functions (objcopy --redefine-sym in CMakeLists.txt), so the
 * firmware's own libc heap stays separate and the buffer is the interpreter's whole RAM. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "edgelite/edgelite_micro.h"

void* el_arena_malloc(size_t n);
void* el_arena_calloc(size_t count, size_t size);
void* el_arena_realloc(void* p, size_t n);
void el_arena_free(void* p);
int el_arena_posix_memalign(void** out, size_t align, size_t n);

/* Every block starts with its size (header included; low bit set while in use), padded to 8
 * bytes so payloads keep the 8-byte alignment of int64 tensors and the core's structures. */
typedef struct block {
  size_t size;
  size_t pad;
} block;

enum { kAlign = 8, kMinSplit = sizeof(block) + 8 };

static struct {
  uint8_t* base;
  size_t cap;
  size_t top; /* bytes ever handed out as blocks; above it the buffer is untouched */
  el_micro_arena_stats stats;
} g_arena; /* one buffer per firmware: the freestanding core is single-threaded */

el_status el_micro_arena_init(void* buffer, size_t bytes) {
  memset(&g_arena, 0, sizeof g_arena);
  if (buffer == NULL) return EL_VALUE_ERROR;
  const uintptr_t at = ((uintptr_t)buffer + kAlign - 1) & ~(uintptr_t)(kAlign - 1);
  const size_t lead = (size_t)(at - (uintptr_t)buffer);
  if (bytes < lead + kMinSplit) return EL_VALUE_ERROR;
  g_arena.base = (uint8_t*)at;
  g_arena.cap = (bytes - lead) & ~(size_t)(kAlign - 1);
  g_arena.stats.capacity = g_arena.cap;
  return EL_OK;
}

el_micro_arena_stats el_micro_arena_get_stats(void) { return g_arena.stats; }

static block* block_at(size_t off) { return (block*)(void*)(g_arena.base + off); }

/* The first free run of blocks (merged as it is walked) that holds `need` bytes, split to size;
 * else a new block at the top. */
static block* first_fit(size_t need) {
  size_t off = 0;
  while (off < g_arena.top) {
    block* b = block_at(off);
    size_t sz = b->size & ~(size_t)1u;
    if (!(b->size & 1u)) {
      size_t next = off + sz;
      while (next < g_arena.top && !(block_at(next)->size & 1u)) {
        sz += block_at(next)->size;
        next = off + sz;
      }
      if (next == g_arena.top) {
        g_arena.top = off; /* a free run reaching the top gives the space back to it */
        break;
      }
      b->size = sz;
      if (sz >= need) {
        if (sz - need >= kMinSplit) {
          block_at(off + need)->size = sz - need;
          sz = need;
        }
        b->size = sz | 1u;
        return b;
      }
    }
    off += sz;
  }
  if (g_arena.base == NULL || need > g_arena.cap - g_arena.top) return NULL;
  block* b = block_at(g_arena.top);
  b->size = need | 1u;
  g_arena.top += need;
  if (g_arena.top > g_arena.stats.high_water) g_arena.stats.high_water = g_arena.top;
  return b;
}

static void hold(size_t bytes) {
  g_arena.stats.in_use += bytes;
  if (g_arena.stats.in_use > g_arena.stats.peak) g_arena.stats.peak = g_arena.stats.in_use;
}

void* el_arena_malloc(size_t n) {
  g_arena.stats.calls += 1;
  if (n > SIZE_MAX / 2) return NULL;
  block* b = first_fit((n + sizeof(block) + kAlign - 1) & ~(size_t)(kAlign - 1));
  if (b == NULL) return NULL;
  hold(b->size & ~(size_t)1u);
  return b + 1;
}

void el_arena_free(void* p) {
  if (p == NULL) return;
  g_arena.stats.calls += 1;
  block* b = (block*)p - 1;
  b->size &= ~(size_t)1u;
  g_arena.stats.in_use -= b->size;
}

void* el_arena_calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return NULL;
  void* p = el_arena_malloc(count * size);
  if (p != NULL) memset(p, 0, count * size);
  return p;
}

void* el_arena_realloc(void* p, size_t n) {
  if (p == NULL) return el_arena_malloc(n);
  const size_t old = (((block*)p - 1)->size & ~(size_t)1u) - sizeof(block);
  if (n <= old) return p;
  void* q = el_arena_malloc(n);
  if (q == NULL) return NULL;
  memcpy(q, p, old);
  el_arena_free(p);
  return q;
}

/* Over-allocates by `align` and returns the bytes before the aligned payload as a free block. */
int el_arena_posix_memalign(void** out, size_t align, size_t n) {
  if (align < kAlign || (align & (align - 1)) != 0) return 22; /* EINVAL */
  if (n > SIZE_MAX / 2) return 12;                              /* ENOMEM */
  uint8_t* raw = el_arena_malloc(n + align + kMinSplit);
  if (raw == NULL) return 12;
  uintptr_t at = ((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1);
  if (at != (uintptr_t)raw && at - (uintptr_t)raw < kMinSplit) at += align;
  const size_t lead = (size_t)(at - (uintptr_t)raw);
  if (lead > 0) {
    block* head = (block*)(void*)raw - 1;
    const size_t total = head->size & ~(size_t)1u;
    head->size = lead;
    ((block*)(void*)at - 1)->size = (total - lead) | 1u;
    g_arena.stats.in_use -= lead;
  }
  *out = (void*)at;
  return 0;
}
