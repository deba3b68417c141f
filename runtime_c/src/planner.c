/* Greedy placement in the style of TFLM's GreedyMemoryPlanner, run under several orderings
 * and two gap rules; the smallest arena wins. Each run puts a buffer into the lowest (first
 * fit) or tightest (best fit) gap left between the buffers already placed that share a step
 * with it, at the first offset there that its alignment allows. */
#include "planner.h"

#include <stdlib.h>
#include <string.h>

enum { kBySize = 0, kByLifetime, kByArea, kByStart, kNumOrders };

static int lifetime(const el_plan_item* a) { return a->last - a->first + 1; }

static size_t align_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

/* qsort has no context argument; orderings are expressed as precomputed integer ranks. */
typedef struct ranked {
  int index;
  size_t primary;
  size_t secondary;
} ranked;

static int cmp_ranked(const void* pa, const void* pb) {
  const ranked* a = pa;
  const ranked* b = pb;
  if (a->primary != b->primary) return a->primary > b->primary ? -1 : 1;
  if (a->secondary != b->secondary) return a->secondary > b->secondary ? -1 : 1;
  return a->index - b->index;
}

typedef struct placed {
  size_t offset;
  size_t end;
} placed;

static int cmp_placed(const void* pa, const void* pb) {
  const placed* a = pa;
  const placed* b = pb;
  if (a->offset != b->offset) return a->offset < b->offset ? -1 : 1;
  return 0;
}

static void make_order(const el_plan_item* items, const size_t* sizes, int n, int key, ranked* out) {
  for (int i = 0; i < n; ++i) {
    size_t life = (size_t)lifetime(&items[i]);
    out[i].index = i;
    switch (key) {
      case kBySize:
        out[i].primary = sizes[i];
        out[i].secondary = life;
        break;
      case kByLifetime:
        out[i].primary = life;
        out[i].secondary = sizes[i];
        break;
      case kByArea:
        out[i].primary = sizes[i] > SIZE_MAX / life ? SIZE_MAX : sizes[i] * life;
        out[i].secondary = sizes[i];
        break;
      default:
        /* Earlier first use ranks higher: invert the step. */
        out[i].primary = (size_t)(INT32_MAX - items[i].first);
        out[i].secondary = sizes[i];
        break;
    }
  }
  qsort(out, (size_t)n, sizeof *out, cmp_ranked);
}

/* One greedy run; returns the arena size and fills offsets[]. */
static size_t run(const el_plan_item* items, const size_t* sizes, const size_t* aligns, int n,
                  const ranked* order, int best_fit, size_t* offsets, int* done, placed* scratch) {
  size_t total = 0;
  memset(done, 0, (size_t)n * sizeof *done);
  for (int k = 0; k < n; ++k) {
    int i = order[k].index;
    int m = 0;
    for (int j = 0; j < n; ++j) {
      if (!done[j] || items[j].last < items[i].first || items[i].last < items[j].first) continue;
      scratch[m].offset = offsets[j];
      scratch[m].end = offsets[j] + sizes[j];
      ++m;
    }
    qsort(scratch, (size_t)m, sizeof *scratch, cmp_placed);
    const size_t a = aligns[i];
    size_t cursor = 0, best = SIZE_MAX, best_gap = SIZE_MAX;
    for (int p = 0; p < m; ++p) {
      const size_t start = align_up(cursor, a);
      if (scratch[p].offset > start) {
        size_t gap = scratch[p].offset - start;
        if (gap >= sizes[i]) {
          if (!best_fit) {
            best = start;
            break;
          }
          if (gap < best_gap) {
            best_gap = gap;
            best = start;
          }
        }
      }
      if (scratch[p].end > cursor) cursor = scratch[p].end;
    }
    if (best == SIZE_MAX) best = align_up(cursor, a);
    offsets[i] = best;
    done[i] = 1;
    if (best + sizes[i] > total) total = best + sizes[i];
  }
  return total;
}

size_t el_plan_peak(const el_plan_item* items, int n) {
  if (n <= 0) return 0;
  int steps = 0;
  for (int i = 0; i < n; ++i) {
    if (items[i].last + 1 > steps) steps = items[i].last + 1;
  }
  size_t peak = 0;
  /* Difference array over steps: +size at first, -size after last. */
  long long* delta = calloc((size_t)steps + 1, sizeof *delta);
  if (delta == NULL) return 0;
  for (int i = 0; i < n; ++i) {
    delta[items[i].first] += (long long)items[i].size;
    delta[items[i].last + 1] -= (long long)items[i].size;
  }
  long long alive = 0;
  for (int s = 0; s < steps; ++s) {
    alive += delta[s];
    if ((size_t)alive > peak) peak = (size_t)alive;
  }
  free(delta);
  return peak;
}

int el_plan_arena(el_plan_item* items, int n, size_t align, size_t* arena_size, size_t* lower_bound) {
  *arena_size = 0;
  *lower_bound = 0;
  if (n <= 0) return 0;
  for (int i = 0; i < n; ++i) {
    if (items[i].first < 0 || items[i].last < items[i].first || items[i].size > SIZE_MAX / 4) return -1;
  }
  size_t* sizes = malloc((size_t)n * sizeof *sizes);
  size_t* aligns = malloc((size_t)n * sizeof *aligns);
  size_t* offsets = malloc((size_t)n * sizeof *offsets);
  size_t* best_offsets = malloc((size_t)n * sizeof *best_offsets);
  int* done = malloc((size_t)n * sizeof *done);
  ranked* order = malloc((size_t)n * sizeof *order);
  placed* scratch = malloc((size_t)n * sizeof *scratch);
  int rc = -1;
  if (!sizes || !aligns || !offsets || !best_offsets || !done || !order || !scratch) goto out;
  for (int i = 0; i < n; ++i) {
    sizes[i] = items[i].size;
    aligns[i] = items[i].align ? items[i].align : (align ? align : 1);
    if ((aligns[i] & (aligns[i] - 1)) != 0 || aligns[i] > 4096) goto out;
  }
  /* Every run is quadratic; very large graphs get the single classic ordering. */
  int orders = n > 3000 ? 1 : kNumOrders;
  size_t best_total = SIZE_MAX;
  for (int key = 0; key < orders; ++key) {
    make_order(items, sizes, n, key, order);
    for (int fit = 0; fit < 2; ++fit) {
      size_t total = run(items, sizes, aligns, n, order, fit, offsets, done, scratch);
      if (total < best_total) {
        best_total = total;
        memcpy(best_offsets, offsets, (size_t)n * sizeof *offsets);
      }
    }
  }
  for (int i = 0; i < n; ++i) items[i].offset = best_offsets[i];
  *arena_size = best_total;
  *lower_bound = el_plan_peak(items, n);
  rc = 0;
out:
  free(sizes);
  free(aligns);
  free(offsets);
  free(best_offsets);
  free(done);
  free(order);
  free(scratch);
  return rc;
}
