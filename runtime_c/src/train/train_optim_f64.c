/* Optimizer updates of one dense double variable (the rules are in train_optim_rules.h). */
#include <math.h>

#include "train/train_f64_internal.h"

#define EL_T double
#define EL_SQRT sqrt
#define EL_OPTIM_NAME(name) el_train_apply_##name##_f64
#include "train/train_optim_rules.h"
