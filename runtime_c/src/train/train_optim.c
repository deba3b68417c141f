/* Optimizer updates of one dense float variable (the rules are in train_optim_rules.h). */
#include <math.h>

#include "train/train_internal.h"

#define EL_T float
#define EL_SQRT sqrtf
#define EL_OPTIM_NAME(name) el_train_apply_##name
#include "train/train_optim_rules.h"
