"""A TF1 SavedModel as converter input: load one meta graph, pick a signature's tensors, freeze the variables."""
from __future__ import annotations

import os
from typing import Any, List, Optional, Tuple

from edgelite.framework.graph import Graph


def _signature(meta_graph_def: Any, signature_key: str, saved_model_dir: str) -> Any:
    signatures = meta_graph_def.signature_def
    if signature_key not in signatures:
        raise ValueError(f"No '{signature_key}' in the SavedModel's SignatureDefs. Possible values are "
                         f"'{','.join(signatures.keys())}'. (SavedModel: {saved_model_dir})")
    return signatures[signature_key]


def _tensors(graph: Graph, signature_names: List[str], user_names: Optional[List[str]]) -> list:
    """The user's arrays when given (by name), else the signature's tensors sorted by name, as TF does."""
    from edgelite.lite.converter import _tensors_by_name
    if user_names is None:
        return sorted((graph.get_tensor_by_name(name) for name in signature_names), key=lambda t: t.name)
    return _tensors_by_name(graph, list(user_names))


def freeze_saved_model(saved_model_dir: str, input_arrays: Optional[List[str]], output_arrays: Optional[List[str]],
                       tag_set: Optional[set], signature_key: Optional[str]) -> Tuple[Graph, list, list]:
    """(frozen graph, input tensors, output tensors) of the SavedModel's meta graph tagged tag_set."""
    from edgelite.client.session import Session
    from edgelite.framework.importer import import_graph_def
    from edgelite.graph_util import convert_variables_to_constants
    from edgelite.saved_model import loader, signature_constants, tag_constants

    saved_model_dir = os.fspath(saved_model_dir)
    tags = sorted(tag_set) if tag_set is not None else [tag_constants.SERVING]
    signature_key = signature_key or signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY
    graph = Graph()
    with graph.as_default(), Session(graph=graph) as sess:
        try:
            meta_graph_def = loader.load(sess, tags, saved_model_dir)
        except ValueError as e:
            raise ValueError(f"Cannot import the SavedModel in '{saved_model_dir}': {e}") from None
        signature = _signature(meta_graph_def, signature_key, saved_model_dir)
        inputs = _tensors(graph, [info.name for info in signature.inputs.values()], input_arrays)
        outputs = _tensors(graph, [info.name for info in signature.outputs.values()], output_arrays)
        frozen = convert_variables_to_constants(sess, graph.as_graph_def(), sorted({t.op.name for t in outputs}))
    frozen_graph = Graph()
    with frozen_graph.as_default():
        import_graph_def(frozen, name="")
    by_name = frozen_graph.get_tensor_by_name
    return frozen_graph, [by_name(t.name) for t in inputs], [by_name(t.name) for t in outputs]
