"""tf.tables_initializer: one op running every initializer in the TABLE_INITIALIZERS collection (a no_op when
there is none, e.g. when the graph's vocabularies are plain constants)."""
from __future__ import annotations

from edgelite.framework import ops
from edgelite.ops.control_flow_ops import group, no_op


def tables_initializer(name: str = "init_all_tables") -> ops.Operation:
    """The op that initializes all tables of the default graph."""
    initializers = ops.get_collection(ops.GraphKeys.TABLE_INITIALIZERS)
    if initializers:
        return group(*initializers, name=name)
    return no_op(name=name)


def initialize_all_tables(name: str = "init_all_tables") -> ops.Operation:
    """Deprecated TF1 spelling of tables_initializer."""
    return tables_initializer(name)
