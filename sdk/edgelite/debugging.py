"""tf.debugging: run-time checks (Assert, assert_*, check_numerics) and the numeric predicates."""
from edgelite.framework.tensor_protos import is_numeric_tensor  # noqa: F401
from edgelite.ops.check_ops import (  # noqa: F401
    assert_equal, assert_greater, assert_greater_equal, assert_integer, assert_less, assert_less_equal, assert_near,
    assert_negative, assert_non_negative, assert_non_positive, assert_none_equal, assert_positive,
    assert_proper_iterable, assert_rank, assert_rank_at_least, assert_rank_in, assert_same_float_dtype,
    assert_scalar, assert_type,
)
from edgelite.ops.logging_ops import Assert  # noqa: F401
from edgelite.ops.shape_assert_ops import assert_shapes  # noqa: F401
from edgelite.ops.logging_ops import verify_tensor_all_finite as assert_all_finite  # noqa: F401
from edgelite.ops.math_ops import is_finite, is_inf, is_nan  # noqa: F401
from edgelite.ops.numerics import check_numerics  # noqa: F401
from edgelite.math import is_non_decreasing, is_strictly_increasing  # noqa: F401
