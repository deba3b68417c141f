"""tf.compat.v1.graph_util: freeze variables into constants and prune GraphDefs for inference."""
from edgelite.framework.importer import import_graph_def  # noqa: F401
from edgelite.graph_util.freeze import convert_variables_to_constants  # noqa: F401
from edgelite.graph_util.subgraph import (  # noqa: F401
    extract_sub_graph, must_run_on_cpu, remove_training_nodes, tensor_shape_from_node_def_name,
)
