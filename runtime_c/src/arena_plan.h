/* The arena plan of a subgraph whose first `prepared` execution steps have been prepared. */
#ifndef EDGELITE_ARENA_PLAN_H_
#define EDGELITE_ARENA_PLAN_H_

#include "interp.h"

/* Whether tensor `t` takes an arena slot: non-constant, kTfLiteArenaRw. */
int el_is_arena_tensor(const el_subgraph* sg, int t);

/* Lays out the arena: sets arena_size, arena_lower_bound, each arena tensor's arena_offset /
 * arena_bytes (-1 for tensors no prepared step touches) and each scratch buffer's offset.
 * Allocates no arena memory. */
el_status el_arena_plan(el_subgraph* sg, int prepared);

/* Allocates the planned arena and points the planned tensors into it. */
el_status el_arena_commit(el_subgraph* sg);

#endif /* EDGELITE_ARENA_PLAN_H_ */
