"""TFLiteConverter (tf.compat.v1.lite.TFLiteConverter): an SDK graph and its session in, .tflite bytes out."""
from __future__ import annotations

import os
import warnings
from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework.graph import Graph, Tensor
from edgelite.lite import dot, emit, fusion, ir, qat, quantize
from edgelite.lite.graph_prep import Frozen, deep_recursion
from edgelite.lite.lowering import Lowering, tensor_name
from edgelite.lite.options import OpsSet, Optimize, RepresentativeDataset, TargetSpec, as_dtype, constants

_OPTIMIZATIONS = {Optimize.DEFAULT, Optimize.OPTIMIZE_FOR_SIZE, Optimize.OPTIMIZE_FOR_LATENCY}
_INT16X8 = OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8


def _type_name(t: Any) -> Optional[str]:
    return None if t is None else "tf." + as_dtype(t).name


class TFLiteConverter:
    """Convert an edgelite graph into a TFLite FlatBuffer or a Graphviz graph (`output_format`).

    Attributes keep the defaults of tf.compat.v1.lite.TFLiteConverter: inference_type float32,
    inference_input_type / inference_output_type None (= float32, or uint8 when inference_type is
    uint8), output_format TFLITE, quantized_input_stats {}, default_ranges_stats None,
    drop_control_dependency True, reorder_across_fake_quant False, change_concat_input_ranges False,
    allow_custom_ops False, dump_graphviz_dir None, dump_graphviz_video False, optimizations [],
    representative_dataset None, target_spec TargetSpec() ({TFLITE_BUILTINS}), experimental_new_converter True
    (an unknown dimension beyond the batch stays -1 in shape_signature; False refuses it).
    """

    def __init__(self, graph_def: Any, input_tensors: Optional[list], output_tensors: Optional[list],
                 input_arrays_with_shape: Optional[list] = None, output_arrays: Optional[list] = None,
                 experimental_debug_info_func: Any = None) -> None:
        """graph_def: an edgelite Graph or a frozen GraphDef; tensors of it (or names via the *_arrays args)."""
        if not isinstance(graph_def, Graph):
            graph_def, input_tensors, output_tensors = _import(graph_def, input_tensors, output_tensors)
        self._graph = graph_def
        self._session: Any = None
        self._input_tensors = list(input_tensors) if input_tensors is not None else None
        self._output_tensors = list(output_tensors) if output_tensors is not None else None
        self._debug_info_func = experimental_debug_info_func
        self.inference_type = dtypes.float32
        self.inference_input_type = None
        self.inference_output_type = None
        self.output_format = constants.TFLITE
        self.quantized_input_stats: dict = {}
        self.default_ranges_stats = None
        self.drop_control_dependency = True
        self.reorder_across_fake_quant = False
        self.change_concat_input_ranges = False
        self.allow_custom_ops = False
        self.dump_graphviz_dir = None
        self.dump_graphviz_video = False
        self.conversion_summary_dir = None
        self.optimizations: list = []
        self.representative_dataset = None
        self.target_spec = TargetSpec()
        self.experimental_new_converter = True
        self.experimental_new_quantizer = True
        if not self._has_valid_tensors():
            if not input_arrays_with_shape or not output_arrays:
                raise ValueError("If input_tensors and output_tensors are None, both input_arrays_with_shape and "
                                 "output_arrays must be defined.")
            self._input_tensors = _tensors_by_name(graph_def, [name for name, _shape in input_arrays_with_shape])
            self._output_tensors = _tensors_by_name(graph_def, list(output_arrays))
            self._input_shapes = {t: shape for t, (_name, shape) in zip(self._input_tensors, input_arrays_with_shape)}
        else:
            self._input_shapes = {}
        for t in self._input_tensors + self._output_tensors:
            if not isinstance(t, Tensor) or t.graph is not graph_def:
                raise ValueError(f"{t!r} is not a tensor of the graph being converted")

    @classmethod
    def from_frozen_graph(cls, graph_def_file: str, input_arrays: list, output_arrays: list,
                          input_shapes: Optional[dict] = None) -> "TFLiteConverter":
        """Creates a TFLiteConverter from a file holding a frozen GraphDef (binary .pb or text .pbtxt, edgelite-
        or TensorFlow-written)."""
        if not os.path.exists(graph_def_file):
            raise IOError(f"File '{graph_def_file}' does not exist.")
        with open(graph_def_file, "rb") as f:
            content = f.read()
        graph = _import_graph(content, graph_def_file)
        if any(op.type.startswith("Variable") or op.type.endswith("VariableOp") for op in graph.get_operations()):
            raise ValueError("Please freeze the graph using freeze_graph.py.")
        converter = cls(graph, _tensors_by_name(graph, input_arrays), _tensors_by_name(graph, output_arrays))
        converter._set_input_shapes(input_shapes)
        return converter

    @classmethod
    def from_saved_model(cls, saved_model_dir: str, input_arrays: Optional[list] = None,
                         input_shapes: Optional[dict] = None, output_arrays: Optional[list] = None,
                         tag_set: Optional[set] = None, signature_key: Optional[str] = None) -> "TFLiteConverter":
        """Creates a TFLiteConverter from a TF1 SavedModel: the meta graph tagged tag_set ({'serve'}), the
        signature signature_key ('serving_default') naming the inputs/outputs unless input_arrays /
        output_arrays do, variables frozen to their saved values."""
        from edgelite.lite.saved_model_input import freeze_saved_model
        graph, inputs, outputs = freeze_saved_model(saved_model_dir, input_arrays, output_arrays, tag_set,
                                                    signature_key)
        converter = cls(graph, inputs, outputs)
        converter._set_input_shapes(input_shapes)
        return converter

    @classmethod
    def from_keras_model_file(cls, model_file: str, input_arrays: Optional[list] = None,
                              input_shapes: Optional[dict] = None, output_arrays: Optional[list] = None,
                              custom_objects: Optional[dict] = None) -> "TFLiteConverter":
        """Creates a TFLiteConverter from a Keras .h5 model file (architecture and weights read with h5py);
        input_arrays / output_arrays select tensors of the rebuilt graph by name."""
        from edgelite.lite.keras_h5 import build_graph
        if custom_objects:
            raise ValueError("custom_objects are not supported: edgelite rebuilds only the built-in Keras layers")
        if not os.path.exists(model_file):
            raise IOError(f"File '{model_file}' does not exist.")
        graph, inputs, outputs, assignments = build_graph(model_file)
        if input_arrays is not None:
            inputs = _tensors_by_name(graph, list(input_arrays))
        if output_arrays is not None:
            outputs = _tensors_by_name(graph, list(output_arrays))
        converter = cls(graph, inputs, outputs)
        converter._set_input_shapes(input_shapes)
        if assignments:
            # Recurrent layers keep their weights in cell variables: a session holds the file's values.
            from edgelite.client.session import Session
            from edgelite.ops.variables import global_variables_initializer
            with graph.as_default():
                init = global_variables_initializer()
            converter._session = Session(graph=graph)
            converter._session.run(init)
            for variable, value in assignments:
                variable.load(value, converter._session)
        return converter

    def _set_input_shapes(self, input_shapes: Optional[dict]) -> None:
        """Overrides the shapes of the named input arrays (a None shape keeps the graph's)."""
        for name, shape in (input_shapes or {}).items():
            matches = [t for t in self._input_tensors if tensor_name(t) == name or t.name == name]
            if not matches:
                raise ValueError(f"input_shapes names '{name}', which is not one of the input arrays.")
            if shape is not None:
                self._input_shapes[matches[0]] = list(shape)

    # ---- deprecated attribute aliases -------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        if name == "post_training_quantize":
            warnings.warn(f"Property {name} is deprecated, please use optimizations=[Optimize.DEFAULT] instead.",
                          DeprecationWarning, stacklevel=2)
            self.optimizations = [Optimize.DEFAULT] if value else []
            return
        if name == "target_ops":
            warnings.warn(f"Property {name} is deprecated, please use target_spec.supported_ops instead.",
                          DeprecationWarning, stacklevel=2)
            self.target_spec.supported_ops = set(value)
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        if name == "post_training_quantize":
            warnings.warn(f"Property {name} is deprecated, please use optimizations=[Optimize.DEFAULT] instead.",
                          DeprecationWarning, stacklevel=2)
            return Optimize.DEFAULT in set(self.optimizations)
        if name == "target_ops":
            warnings.warn(f"Property {name} is deprecated, please use target_spec.supported_ops instead.",
                          DeprecationWarning, stacklevel=2)
            return self.target_spec.supported_ops
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    # ---- entry points ---------------------------------------------------------------------------------------
    @classmethod
    def from_session(cls, sess: Any, input_tensors: list, output_tensors: list) -> "TFLiteConverter":
        """Creates a TFLiteConverter from a Session: variables are frozen to their values in `sess`."""
        converter = cls(sess.graph, input_tensors, output_tensors)
        converter._session = sess
        return converter

    def get_input_arrays(self) -> list:
        """Returns a list of the names of the input tensors."""
        return [tensor_name(t) for t in self._input_tensors]

    def convert(self) -> bytes:
        """Converts the graph based on instance variables: TFLite FlatBuffer bytes or Graphviz dot text."""
        if self.output_format not in (constants.TFLITE, constants.GRAPHVIZ_DOT):
            raise ValueError(f"output_format must be {constants.TFLITE} or {constants.GRAPHVIZ_DOT}, got "
                             f"{self.output_format!r}")
        shapes = self._validate_inputs()
        mode = self._quant_mode()
        self._validate_io_types(mode)
        stats = self._quantized_stats()
        with deep_recursion():
            g = self._lower(shapes)
        self._dump("toco_AT_IMPORT", g)
        for graph in [g] + g.subgraphs:
            fusion.optimize(graph)
        self._dump("toco_AFTER_FUSION", g)
        self._quantize(g, mode, stats)
        self._dump("toco_AFTER_TRANSFORMATIONS", g)
        if self.output_format == constants.GRAPHVIZ_DOT:
            return dot.to_dot(g).encode()
        return emit.serialize(g)

    # ---- steps ---------------------------------------------------------------------------------------------
    def _has_valid_tensors(self) -> bool:
        return self._input_tensors is not None and bool(self._output_tensors)

    def _validate_inputs(self) -> list:
        """Input shapes with -1 for unknown dimensions; beyond the first one only the TOCO-era converter
        (experimental_new_converter=False) refuses them, as TensorFlow does."""
        shapes = []
        for t in self._input_tensors:
            shape = self._input_shapes.get(t)
            if shape is None:
                if t.shape.ndims is None:
                    raise ValueError(f"Provide an input shape for input array '{tensor_name(t)}'.")
                shape = t.shape.as_list()
            shape = [None if d is None or d == -1 else int(d) for d in shape]
            if None in shape[1:] and not self.experimental_new_converter:
                raise ValueError(f"None is only supported in the 1st dimension. Tensor '{tensor_name(t)}' has "
                                 f"invalid shape '{shape}'.")
            shapes.append(tuple(-1 if d is None else d for d in shape))
        return shapes

    def _quant_mode(self) -> str:
        optimized = bool(set(self.optimizations) & _OPTIMIZATIONS)
        ops = set(self.target_spec.supported_ops)
        types = {as_dtype(t) for t in self.target_spec.supported_types}
        trained = qat.has_fake_quant(self._output_tensors)
        if not optimized:
            inference = as_dtype(self.inference_type)
            if inference == dtypes.int8:
                if trained:
                    return "int8"
                raise ValueError("inference_type=tf.int8 without optimizations needs a quantization-aware trained "
                                 "graph (fake-quant ops, see edgelite.quantize); set optimizations=[Optimize.DEFAULT] "
                                 "with a representative_dataset for int8, or inference_type=tf.uint8 for the legacy "
                                 "uint8 model.")
            if inference not in (dtypes.float32, dtypes.uint8):
                raise ValueError(f"inference_type must be tf.float32 or tf.uint8, got tf.{inference.name}")
            return "uint8" if inference == dtypes.uint8 else "float"
        int8_required = OpsSet.TFLITE_BUILTINS_INT8 in ops or types == {dtypes.int8}
        if int8_required and ops == {OpsSet.TFLITE_BUILTINS_INT8} and types not in (set(), {dtypes.int8}):
            raise ValueError("As full integer quantization has been enabled by setting `target_spec.supported_ops`"
                             "={tf.lite.OpsSet.TFLITE_BUILTINS_INT8}, thus `target_spec.supported_types` should be "
                             "left uninitizalized or set to {tf.int8}.")
        if self.representative_dataset is not None:
            return "int16x8" if _INT16X8 in ops else "int8"
        if trained and not (types and min(t.size for t in types) == 2):
            return "int8"
        if int8_required:
            raise ValueError("For full integer quantization, a `representative_dataset` must be specified.")
        if types and min(t.size for t in types) == 2 and dtypes.float16 in types:
            return "float16"
        return "dynamic"

    def _allow_float(self) -> bool:
        ops = set(self.target_spec.supported_ops)
        return OpsSet.TFLITE_BUILTINS in ops or OpsSet.SELECT_TF_OPS in ops

    def _validate_io_types(self, mode: str) -> None:
        in_t, out_t = as_dtype(self.inference_input_type), as_dtype(self.inference_output_type)
        if mode in ("int8", "int16x8"):
            allowed = [dtypes.float32, dtypes.int16] if mode == "int16x8" else [
                dtypes.float32, dtypes.int8, dtypes.uint8]
            if (in_t or dtypes.float32) not in allowed or (out_t or dtypes.float32) not in allowed:
                names = ["tf." + t.name for t in allowed]
                raise ValueError(f"The inference_input_type and inference_output_type must be in {names}.")
        elif mode == "uint8":
            for t in (in_t, out_t):
                if t not in (None, dtypes.float32, dtypes.uint8, dtypes.int8):
                    raise ValueError("The inference_input_type and inference_output_type must be in "
                                     "['tf.float32', 'tf.int8', 'tf.uint8'].")
        elif (in_t or dtypes.float32) != dtypes.float32 or (out_t or dtypes.float32) != dtypes.float32:
            if mode == "float" and in_t in (dtypes.uint8, dtypes.int8) and not self.quantized_input_stats:
                raise ValueError(
                    "The `quantized_input_stats` flag must be defined when either `inference_type` flag or "
                    "`inference_input_type` flag is set to tf.int8 or tf.uint8. Currently, "
                    f"`inference_type={_type_name(self.inference_type)}` and "
                    f"`inference_input_type={_type_name(self.inference_input_type)}`.")
            raise ValueError("The inference_input_type and inference_output_type must be tf.float32.")
        if mode == "uint8" and not self.quantized_input_stats:
            raise ValueError(
                "The `quantized_input_stats` flag must be defined when either `inference_type` flag or "
                "`inference_input_type` flag is set to tf.int8 or tf.uint8. Currently, "
                f"`inference_type={_type_name(self.inference_type)}` and "
                f"`inference_input_type={_type_name(self.inference_input_type)}`.")

    def _quantized_stats(self) -> Optional[list]:
        if not self.quantized_input_stats:
            return None
        missing = [n for n in self.get_input_arrays() if n not in self.quantized_input_stats]
        if missing:
            raise ValueError(f"Quantization input stats are not available for input tensors '{','.join(missing)}'.")
        return [tuple(float(v) for v in self.quantized_input_stats[n]) for n in self.get_input_arrays()]

    def _lower(self, shapes: list) -> ir.Graph:
        frozen = Frozen(self._input_tensors, self._session)
        lowering = Lowering(frozen, bool(self.allow_custom_ops))
        self._lowering = lowering
        for t, shape in zip(self._input_tensors, shapes):
            if t.dtype.is_ref_dtype or not t.dtype.is_numpy_compatible:
                raise ValueError(f"Input tensor '{tensor_name(t)}' has type {t.dtype.name}, which TFLite cannot feed.")
            lowering.add_input(t, shape, tensor_name(t))
        lowering.targets = list(self._output_tensors)
        for t in self._output_tensors:
            lowering.add_output(t, tensor_name(t))
        if lowering.unsupported:
            used = sorted({op.code for op in lowering.graph.ops})
            missing = "; ".join(f"{kind} (used by {', '.join(names)})" for kind, names in
                                sorted(lowering.unsupported.items()))
            raise ValueError(
                "Some of the operators in the model are not supported by the standard TensorFlow Lite runtime. If "
                "you have a custom implementation for them you can disable this error with allow_custom_ops=True "
                f"when calling TFLiteConverter. Here is a list of builtin operators you are using: "
                f"{', '.join(used)}. Here is a list of operators for which you will need custom implementations: "
                f"{missing}.")
        return lowering.graph

    def _quantize(self, g: ir.Graph, mode: str, stats: Optional[list]) -> None:
        if mode == "float":
            return
        if mode == "float16":
            quantize.to_float16(g)
        elif mode == "dynamic":
            quantize.dynamic_range(g)
        elif mode in ("int8", "int16x8"):
            dataset = self.representative_dataset
            gen = dataset.input_gen if isinstance(dataset, RepresentativeDataset) else dataset
            input_type = as_dtype(self.inference_input_type) or dtypes.float32
            ranges = quantize.calibrate(g, gen) if dataset is not None else {}
            weights_for = None
            if mode == "int8" and qat.has_fake_quant(self._output_tensors):
                weights_for = self._trained_ranges(g, ranges, stats, input_type, "int8", dataset is None)
            quantize.full_integer(g, ranges, int16=mode == "int16x8", input_type=input_type,
                                  output_type=as_dtype(self.inference_output_type) or dtypes.float32,
                                  allow_float=self._allow_float(), weights_for=weights_for)
        else:
            ranges: dict = {}
            weights_for = None
            if qat.has_fake_quant(self._output_tensors):
                weights_for = self._trained_ranges(g, ranges, None, dtypes.uint8, "uint8", False)
            quantize.legacy_uint8(g, stats, self.default_ranges_stats,
                                  input_type=as_dtype(self.inference_input_type) or dtypes.uint8,
                                  output_type=as_dtype(self.inference_output_type) or dtypes.uint8,
                                  ranges=ranges, weights_for=weights_for)

    def _trained_ranges(self, g: ir.Graph, ranges: dict, stats: Optional[list], input_type: Any, weight_type: str,
                        inputs_needed: bool) -> Any:
        """Put the fake quants' activation ranges into `ranges` (over calibrated ones); their weight quantizer."""
        found = qat.collect(self._lowering, self._graph)
        if found.unresolved:
            raise ValueError(f"The range of fake-quant op(s) {', '.join(found.unresolved)} is not constant: this is "
                             "a training graph. Convert the graph made by edgelite.quantize.create_eval_graph, with "
                             "the trained variables restored.")
        for key, value in qat.input_ranges(g, stats, np.dtype(input_type.as_numpy_dtype).name).items():
            ranges.setdefault(key, value)
        ranges.update(found.activations)
        qat.carry_forward(g, ranges)
        missing = [t.name for t in g.inputs if t.dtype.kind == "f" and id(t) not in ranges]
        if inputs_needed and missing:
            raise ValueError(f"Input(s) {', '.join(missing)} have no range: quantization-aware training gives ranges "
                             "only where fake-quant ops are. Put one on each input (e.g. "
                             "tf.quantization.fake_quant_with_min_max_args(x, min, max)), set quantized_input_stats "
                             "with inference_input_type tf.int8/tf.uint8, or give a representative_dataset.")
        return qat.weight_quantizer(found.weights, weight_type)

    def _dump(self, stage: str, g: ir.Graph) -> None:
        if not self.dump_graphviz_dir or (not self.dump_graphviz_video and stage == "toco_AFTER_FUSION"):
            return
        os.makedirs(self.dump_graphviz_dir, exist_ok=True)
        with open(os.path.join(self.dump_graphviz_dir, stage + ".dot"), "w", encoding="utf-8") as f:
            f.write(dot.to_dot(g))


def _tensors_by_name(graph: Graph, names: list) -> list:
    """Tensors named 'op' (output 0) or 'op:k'; ValueError listing every name that is not in the graph."""
    found, invalid = [], []
    for name in names:
        try:
            found.append(graph.get_tensor_by_name(name if ":" in name else name + ":0"))
        except (KeyError, ValueError):
            invalid.append(name)
    if invalid:
        raise ValueError(f"Invalid tensors '{','.join(invalid)}' were found.")
    return found


def _parse_graph_def(graph_def: Any, source: str) -> Any:
    """A GraphDef message from a message, serialized bytes or .pbtxt text; IOError naming source otherwise."""
    from edgelite.framework.graph_def import GraphDef
    from edgelite.framework.text_format import ParseError, parse

    if isinstance(graph_def, GraphDef):
        return graph_def
    data = bytes(graph_def) if isinstance(graph_def, (bytes, bytearray)) else graph_def.SerializeToString()
    try:
        return GraphDef.FromString(data)
    except Exception as binary_error:  # noqa: BLE001 - then it may be the text format
        try:
            return parse(data.decode("utf-8"), GraphDef)
        except (UnicodeDecodeError, ParseError):
            raise IOError(f"Unable to parse input file '{source}'.") from binary_error


def _import_graph(graph_def: Any, source: str = "graph_def") -> Graph:
    """A new Graph holding the nodes of a GraphDef (message, serialized bytes or text); errors name source."""
    from edgelite.framework.importer import import_graph_def

    message = _parse_graph_def(graph_def, source)
    graph = Graph()
    with graph.as_default():
        try:
            import_graph_def(message, name="")
        except ValueError as e:
            raise ValueError(f"Cannot import '{source}': {e}") from None
    return graph


def _import(graph_def: Any, input_tensors: Optional[list], output_tensors: Optional[list]) -> tuple:
    """(graph, inputs, outputs) for a GraphDef argument: tensors are matched by name in the imported graph."""
    if not isinstance(graph_def, (bytes, bytearray)) and not hasattr(graph_def, "SerializeToString"):
        raise ValueError(f"graph_def must be an edgelite Graph or a GraphDef, got {type(graph_def).__name__}")
    graph = _import_graph(graph_def)

    def rename(tensors: Optional[list]) -> Optional[list]:
        return None if tensors is None else _tensors_by_name(graph, [t.name for t in tensors])

    return graph, rename(input_tensors), rename(output_tensors)


class TocoConverter:
    """Deprecated: please use `lite.TFLiteConverter` instead."""

    @classmethod
    def from_session(cls, sess: Any, input_tensors: list, output_tensors: list) -> TFLiteConverter:
        """(deprecated) Use `lite.TFLiteConverter.from_session` instead."""
        warnings.warn("TocoConverter.from_session is deprecated; use lite.TFLiteConverter.from_session instead.",
                      DeprecationWarning, stacklevel=2)
        return TFLiteConverter.from_session(sess, input_tensors, output_tensors)

    @classmethod
    def from_frozen_graph(cls, graph_def_file: str, input_arrays: list, output_arrays: list,
                          input_shapes: Optional[dict] = None) -> TFLiteConverter:
        """(deprecated) Use `lite.TFLiteConverter.from_frozen_graph` instead."""
        warnings.warn("TocoConverter.from_frozen_graph is deprecated; use lite.TFLiteConverter.from_frozen_graph "
                      "instead.", DeprecationWarning, stacklevel=2)
        return TFLiteConverter.from_frozen_graph(graph_def_file, input_arrays, output_arrays, input_shapes)


def toco_convert(input_data: Any, input_tensors: list, output_tensors: list, *args: Any, **kwargs: Any) -> bytes:
    """(deprecated) Convert a graph; keyword arguments set converter attributes. Use TFLiteConverter instead."""
    warnings.warn("toco_convert is deprecated; use lite.TFLiteConverter instead.", DeprecationWarning, stacklevel=2)
    if args:
        raise ValueError("toco_convert takes converter options as keyword arguments only")
    session = None
    if not isinstance(input_data, Graph) and hasattr(input_data, "graph"):
        session, input_data = input_data, input_data.graph
    converter = TFLiteConverter(input_data, input_tensors, output_tensors)
    converter._session = session
    for key, value in kwargs.items():
        if key == "enable_mlir_converter":
            continue
        if not hasattr(converter, key) or key.startswith("_"):
            raise ValueError(f"toco_convert got an unknown argument '{key}'")
        setattr(converter, key, value)
    return converter.convert()
