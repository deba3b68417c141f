"""tf.compat.v1.saved_model.main_op: the op a SavedModel runs after restoring (initialize locals and tables)."""
from __future__ import annotations

from typing import Any

from edgelite.framework import ops


def main_op() -> Any:
    """Groups the global and local variable initializers (and the table initializer: none in edgelite graphs)."""
    from edgelite.ops.control_flow_ops import group, no_op
    from edgelite.ops.variables import global_variables_initializer, local_variables_initializer
    return group(global_variables_initializer(), local_variables_initializer(), no_op(name="init_all_tables"))


def main_op_with_restore(restore_op_name: Any) -> Any:
    """main_op() followed by the restore op named restore_op_name."""
    from edgelite.ops.control_flow_ops import group
    with ops.control_dependencies([main_op()]):
        return group(restore_op_name)
