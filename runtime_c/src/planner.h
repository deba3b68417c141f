/* Arena planning: place buffers with known lifetimes [first, last] (inclusive execution steps)
 * at offsets so that buffers alive at the same step never overlap, keeping the arena small. */
#ifndef EDGELITE_PLANNER_H_
#define EDGELITE_PLANNER_H_

#include <stddef.h>
#include <stdint.h>

typedef struct el_plan_item {
  size_t size;
  int first;
  int last;
  size_t offset; /* output */
  size_t align;  /* power of two the offset must be a multiple of; 0: the call's default */
} el_plan_item;

/* Places `n` items at offsets that are multiples of their alignment (`align`, a power of two,
 * for items that give none); sizes are not rounded. Writes the arena size needed and the lower
 * bound any placement of these items must reach: the most bytes alive at one step.
 * Returns 0, or -1 when out of memory or a size overflows. */
int el_plan_arena(el_plan_item* items, int n, size_t align, size_t* arena_size, size_t* lower_bound);

/* The most bytes of `items` alive at one step (0 when out of memory or n <= 0). */
size_t el_plan_peak(const el_plan_item* items, int n);

#endif /* EDGELITE_PLANNER_H_ */
