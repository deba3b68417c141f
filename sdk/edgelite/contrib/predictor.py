"""tf.contrib.predictor.from_saved_model (TF 1.15): a callable over a SavedModel signature that feeds a dict of
arrays and returns a dict of arrays, the usual way TF1 scripts query an exported Estimator."""
from __future__ import annotations

import logging
from typing import Any, Dict, Optional

from edgelite.client.session import Session
from edgelite.framework import ops
from edgelite.saved_model import loader
from edgelite.saved_model.signature_constants import DEFAULT_SERVING_SIGNATURE_DEF_KEY

DEFAULT_TAGS = "serve"
_DEFAULT_INPUT_ALTERNATIVE_FORMAT = "default_input_alternative:{}"
_log = logging.getLogger("edgelite")


def _meta_graph_def(export_dir: str, tags: str) -> Any:
    wanted = {tag.strip() for tag in tags.split(",")}
    for meta_graph_def in loader.parse_saved_model(export_dir).meta_graphs:
        if set(meta_graph_def.meta_info_def.tags) == wanted:
            return meta_graph_def
    raise ValueError(f"Could not find MetaGraphDef with tags {tags}")


def _signature_def(signature_def_key: Optional[str], export_dir: str, tags: str) -> Any:
    key = signature_def_key or DEFAULT_SERVING_SIGNATURE_DEF_KEY
    signatures = _meta_graph_def(export_dir, tags).signature_def
    if key in signatures:
        return signatures[key]
    alternative = _DEFAULT_INPUT_ALTERNATIVE_FORMAT.format(key)
    if alternative not in signatures:
        raise ValueError(f'Got signature_def_key "{key}". Available signatures are {list(signatures)}. '
                         f"Original error:\n{key!r}")
    _log.warning('Could not find signature def "%s". Using "%s" instead', key, alternative)
    return signatures[alternative]


class SavedModelPredictor:
    """Loads export_dir's MetaGraphDef (tags, 'serve' by default) into its own graph and session; calling it
    with {input key: array} runs the signature's (or input_names/output_names') tensors."""

    def __init__(self, export_dir: str, signature_def_key: Optional[str] = None, signature_def: Any = None,
                 input_names: Optional[Dict[str, str]] = None, output_names: Optional[Dict[str, str]] = None,
                 tags: Optional[str] = None, graph: Any = None, config: Any = None) -> None:
        if (input_names is None) != (output_names is None):
            raise ValueError("input_names and output_names must both be specified or both be unspecified.")
        if (signature_def_key is not None) + (signature_def is not None) + (input_names is not None) > 1:
            raise ValueError("You must specify at most one of signature_def_key OR signature_def OR(input_names AND "
                             "output_names).")
        tags = tags or DEFAULT_TAGS
        self._graph = graph or ops.Graph()
        with self._graph.as_default():
            self._session = Session(config=config)
            loader.load(self._session, tags.split(","), export_dir)
        if input_names is None:
            if signature_def is None:
                signature_def = _signature_def(signature_def_key, export_dir, tags)
            input_names = {k: v.name for k, v in signature_def.inputs.items()}
            output_names = {k: v.name for k, v in signature_def.outputs.items()}
        self._feed_tensors = {k: self._graph.get_tensor_by_name(v) for k, v in input_names.items()}
        self._fetch_tensors = {k: self._graph.get_tensor_by_name(v) for k, v in output_names.items()}

    graph = property(lambda self: self._graph, doc="The graph the SavedModel was loaded into.")
    session = property(lambda self: self._session, doc="The session holding its variables.")
    feed_tensors = property(lambda self: self._feed_tensors, doc="Input key -> Tensor.")
    fetch_tensors = property(lambda self: self._fetch_tensors, doc="Output key -> Tensor.")

    def __call__(self, input_dict: Dict[str, Any]) -> Dict[str, Any]:
        """{output key: array} for the given inputs (keys must be among feed_tensors')."""
        unexpected = set(input_dict) - set(self._feed_tensors)
        if unexpected:
            raise ValueError(f"Got unexpected keys in input_dict: {unexpected}\nexpected: {set(self._feed_tensors)}")
        feed = {t: input_dict[k] for k, t in self._feed_tensors.items() if input_dict.get(k) is not None}
        return self._session.run(fetches=self._fetch_tensors, feed_dict=feed)


def from_saved_model(export_dir: str, signature_def_key: Optional[str] = None, signature_def: Any = None,
                     input_names: Optional[Dict[str, str]] = None, output_names: Optional[Dict[str, str]] = None,
                     tags: Optional[str] = None, graph: Any = None, config: Any = None) -> SavedModelPredictor:
    """A SavedModelPredictor over export_dir."""
    return SavedModelPredictor(export_dir, signature_def_key=signature_def_key, signature_def=signature_def,
                               input_names=input_names, output_names=output_names, tags=tags, graph=graph,
                               config=config)
