"""tf.no_regularizer: the regularizer that keeps a variable out of the regularization losses."""
from __future__ import annotations

from typing import Any


def no_regularizer(_: Any) -> None:
    """No penalty (get_variable adds nothing to REGULARIZATION_LOSSES for a None result)."""
    return None
