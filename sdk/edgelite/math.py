"""tf.math: elementwise math, reductions, segment ops."""
from edgelite.ops.math_ops import (  # noqa: F401
    abs, accumulate_n, acos, add, add_n, argmax, argmin, asin, atan, atan2, ceil, cos, cosh, count_nonzero, cumprod,
    cumsum, div_no_nan, divide, equal, erf, exp, expm1, floor, floordiv, floormod, greater, greater_equal, is_finite,
    is_inf, is_nan, less, less_equal, log, log1p, log_sigmoid, logical_and, logical_not, logical_or, logical_xor,
    maximum, minimum, mod, multiply, negative, not_equal, pow, realdiv, reciprocal, reduce_all, reduce_any,
    reduce_euclidean_norm, reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std,
    reduce_sum, reduce_variance, rint, round, rsqrt, scalar_mul, segment_sum, sigmoid, sign, sin, sinh, sqrt, square,
    squared_difference, subtract, tan, tanh, truediv, truncatediv, unsorted_segment_sum,
)
from edgelite.nn.activation_ops import softmax, softplus  # noqa: F401,E402
from edgelite.nn.softsign_ops import softsign  # noqa: F401,E402
from edgelite.nn import (  # noqa: F401,E402
    approx_max_k, approx_min_k, in_top_k, l2_normalize, log_softmax, top_k, zero_fraction,
)
from edgelite.ops.array_ops import invert_permutation  # noqa: F401,E402
from edgelite.ops.complex_ops import angle, conj, imag, real  # noqa: F401,E402
from edgelite.nn.approx_topk_ops import approx_max_k, approx_min_k  # noqa: F401,E402

# ---- core ops (tf1ops) ----
from edgelite.nn.topk_ops import in_top_k, top_k  # noqa: F401,E402
from edgelite.ops.segment_ops import (  # noqa: F401,E402
    segment_max, segment_mean, segment_min, segment_prod, unsorted_segment_max, unsorted_segment_mean,
    unsorted_segment_min, unsorted_segment_prod, unsorted_segment_sqrt_n,
)
from edgelite.ops.histogram_ops import bincount, confusion_matrix  # noqa: F401,E402
from edgelite.ops.math_extra_ops import (  # noqa: F401,E402
    acosh, asinh, atanh, cumulative_logsumexp, is_non_decreasing, is_strictly_increasing, multiply_no_nan,
    nextafter, polyval, reciprocal_no_nan, xdivy, xlog1py, xlogy,
)
from edgelite.nn.summary_ops import zero_fraction  # noqa: F401,E402
from edgelite.ops.special_math_ops import (  # noqa: F401,E402
    bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, betainc, digamma, erfc, erfcinv, erfinv, igamma, igammac, lbeta,
    lgamma, ndtri, polygamma, zeta,
)
from edgelite.ops.array_ops import invert_permutation  # noqa: F401,E402

divide_no_nan = div_no_nan
floor_div = floordiv
