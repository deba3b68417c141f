"""tf.strings.format: a template with tensors printed the way TF summarizes them (the StringFormat op of
ops/logging_ops.py, which tf.print also uses)."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.ops import logging_ops  # noqa: F401 - registers StringFormat


def string_format(template: str, inputs: Any, placeholder: str = "{}", summarize: int = 3,
                  name: Optional[str] = None) -> ops.Tensor:
    """A scalar string: template with each placeholder replaced by the next tensor's summary."""
    if isinstance(inputs, ops.Tensor) or not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    expected = template.count(placeholder)
    if expected != len(inputs):
        raise ValueError(f"The template expects {expected} tensors, but the inputs only has {len(inputs)}. Please "
                         "ensure the number of placeholders in template matches inputs length.")
    tensors = [ops.convert_to_tensor(x) for x in inputs]
    with ops.name_scope(name, "StringFormat", tensors) as scope:
        return ops.get_default_graph().create_op(
            "StringFormat", tensors, [dtypes.string], name=scope,
            attrs={"T": [t.dtype.base_dtype for t in tensors], "template": template, "placeholder": placeholder,
                   "summarize": int(summarize)}).outputs[0]
