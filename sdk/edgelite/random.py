"""tf.random (and its tf.compat.v1 names)."""
from edgelite.framework.random_seed import get_seed, set_random_seed  # noqa: F401
from edgelite.ops.random_ops import (  # noqa: F401
    categorical, multinomial, random_normal, random_shuffle, random_uniform, truncated_normal,
)

normal = random_normal
uniform = random_uniform
shuffle = random_shuffle
set_seed = set_random_seed

# ---- core ops (tf1ops) ----
from edgelite.ops.random_extra_ops import (  # noqa: F401,E402
    stateless_categorical, stateless_multinomial, stateless_parameterized_truncated_normal,
)
from edgelite.ops.random_extra_ops import random_gamma as gamma  # noqa: F401,E402
from edgelite.ops.random_extra_ops import random_poisson as poisson  # noqa: F401,E402
from edgelite.ops.random_extra_ops import stateless_random_binomial as stateless_binomial  # noqa: F401,E402
from edgelite.ops.random_extra_ops import stateless_random_gamma as stateless_gamma  # noqa: F401,E402
from edgelite.ops.random_extra_ops import stateless_random_normal as stateless_normal  # noqa: F401,E402
from edgelite.ops.random_extra_ops import stateless_random_poisson as stateless_poisson  # noqa: F401,E402
from edgelite.ops.random_extra_ops import stateless_random_uniform as stateless_uniform  # noqa: F401,E402
from edgelite.ops.random_extra_ops import stateless_truncated_normal  # noqa: F401,E402
from edgelite.nn.candidate_sampling_ops import (  # noqa: F401,E402
    all_candidate_sampler, fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler, uniform_candidate_sampler,
)
