"""tf.io.parse_example, parse_single_example, parse_sequence_example, parse_single_sequence_example.

Each call adds one op (ParseExampleV2 / ParseSequenceExampleV2) whose kernel decodes every record once
and fills all requested features; VarLen and Sparse features come back as SparseTensors.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.op_def_registry import get_op_def, register_op

from . import example_parser as ep
from . import parse_example_graph_form as graph_form
from . import ragged_parser, ragged_parsing
from .parsing_config import (
    FixedLenFeature, FixedLenSequenceFeature, PARSEABLE, RaggedFeature, SparseFeature, VarLenFeature,
)

_SHORT = {dtypes.int64: "int64", dtypes.float32: "float", dtypes.string: "string"}


def _short(dtype: Any, key: str) -> str:
    dt = dtypes.as_dtype(dtype)
    if dt not in PARSEABLE:
        raise ValueError(f"Unsupported dtype {dt.name} for feature {key}: parsing supports float32, int64 and "
                         "string.")
    return _SHORT[dt]


def _default(spec: Any, key: str, dtype: str, shape: tuple, seq: bool) -> Optional[np.ndarray]:
    if spec.default_value is None:
        return None
    np_dtype = object if dtype == "string" else ep._NP[dtype]
    value = np.asarray(spec.default_value, dtype=np_dtype)
    if dtype == "string":
        value = np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(value)
    if seq:
        if value.size != 1:
            raise ValueError(f"default_value of FixedLenSequenceFeature {key} must be a scalar, got shape "
                             f"{value.shape}")
        return value.reshape(())
    if value.size != int(np.prod(shape, dtype=np.int64)):
        raise ValueError(f"Cannot reshape a tensor with {value.size} elements to shape {list(shape)} (default_value "
                         f"of feature {key})")
    return value.reshape(shape)


def _shape(spec: Any, key: str) -> tuple:
    shape = tensor_shape.as_shape(spec.shape)
    if not shape.is_fully_defined():
        raise ValueError(f"All dimensions of shape for feature {key} need to be known but received {shape}.")
    return tuple(shape.as_list())


def _split(features: dict, in_sequence: bool = False) -> tuple:
    """DenseSpecs and SparseSpecs for a features dict, in the dict's key order (sorted, as TF does)."""
    if not features:
        raise ValueError("Argument `features` cannot be None.")
    dense, sparse = [], []
    for key in sorted(features):
        spec = features[key]
        if isinstance(spec, VarLenFeature):
            sparse.append(ep.SparseSpec(key, _short(spec.dtype, key)))
        elif isinstance(spec, SparseFeature):
            index_keys = tuple(spec.index_key) if isinstance(spec.index_key, (list, tuple)) else (spec.index_key,)
            size = tuple(spec.size) if isinstance(spec.size, (list, tuple)) else (spec.size,)
            if len(size) != len(index_keys):
                raise ValueError(f"SparseFeature {key}: size {list(size)} must have one entry per index_key "
                                 f"{list(index_keys)}")
            sparse.append(ep.SparseSpec(spec.value_key, _short(spec.dtype, key), index_keys,
                                        tuple(int(s) for s in size), bool(spec.already_sorted)))
        elif isinstance(spec, FixedLenSequenceFeature):
            if not spec.allow_missing and not in_sequence:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
            dt = _short(spec.dtype, key)
            shape = _shape(spec, key)
            dense.append(ep.DenseSpec(key, dt, shape, _default(spec, key, dt, shape, True), True,
                                      bool(spec.allow_missing)))
        elif isinstance(spec, FixedLenFeature):
            dt = _short(spec.dtype, key)
            shape = _shape(spec, key)
            dense.append(ep.DenseSpec(key, dt, shape, _default(spec, key, dt, shape, False)))
        elif not isinstance(spec, RaggedFeature):
            raise ValueError(f"Unsupported feature type for key {key}: {type(spec).__name__}.")
    return dense, sparse, ragged_parsing.ragged_specs(features, _short)


_TF_DTYPE = {"int64": dtypes.int64, "float": dtypes.float32, "string": dtypes.string}


def _out_dtypes(dense: list, sparse: list) -> list:
    return ([dtypes.int64] * len(sparse) + [_TF_DTYPE[s.dtype] for s in sparse] + [dtypes.int64] * len(sparse)
            + [_TF_DTYPE[d.dtype] for d in dense])


def _ragged_dtypes(ragged: list, levels: int = 1) -> list:
    """Values, then `levels` row-splits outputs per ragged key."""
    return [_TF_DTYPE[r.dtype] for r in ragged] + [dtypes.as_dtype(r.splits_dtype) for r in ragged] * levels


def _out_shapes(batch: list, dense: list, sparse: list, extra: int = 0) -> list:
    rank = len(batch) + extra
    shapes = [[None, rank + (len(s.index_keys) if s.index_keys else 1)] for s in sparse]
    shapes += [[None] for _ in sparse]
    shapes += [[rank + (len(s.index_keys) if s.index_keys else 1)] for s in sparse]
    shapes += [batch + ([None] if (d.seq or extra) else []) + list(d.shape) for d in dense]
    return shapes


def _splits_shape(batch: list) -> list:
    """Row splits over a batch of records: one more than the records (a scalar record gives [2])."""
    if len(batch) > 1:
        return [None]
    return [2] if not batch else [None if batch[0] is None else batch[0] + 1]


def _kernel_result(outs: list) -> Any:
    """The executor takes a one-output op's value bare, not in a list."""
    return outs[0] if len(outs) == 1 else outs


def _flatten_sparse(triples: list) -> list:
    return [t[0] for t in triples] + [t[1] for t in triples] + [t[2] for t in triples]


def _op_specs(op: Any) -> tuple:
    """edgelite's specs of a ParseExampleV2 it built, else (an op read from a GraphDef) those of TF's attrs."""
    attrs = op._attrs  # an Operation's or, while its output dtypes are inferred, a pending op's
    if "_specs" in attrs:
        return attrs["_specs"]
    return graph_form.specs_from_attrs(attrs)


def _parse_example_kernel(ctx: Any, serialized: np.ndarray, names: np.ndarray, *graph_operands: np.ndarray) -> Any:
    if "_specs" in ctx.attrs:
        dense, sparse, ragged = ctx.attrs["_specs"]
    else:
        dense, sparse, ragged = graph_form.specs_from_attrs(ctx.attrs, graph_operands[0], graph_operands[1],
                                                            graph_operands[3:])
    dense_out, sparse_out, feats, where = ep.parse_examples(serialized, names, dense, sparse)
    return _kernel_result(_flatten_sparse(sparse_out) + dense_out + ragged_parser.parse_ragged(ragged, feats, where))


def _batch_dims(op: Any) -> list:
    s = op.inputs[0].shape
    if s.ndims is None:
        return [None]
    return [d for d in s.as_list()]


def _parse_example_shapes(op: Any) -> list:
    dense, sparse, ragged = _op_specs(op)
    batch = _batch_dims(op)
    return _out_shapes(batch, dense, sparse) + [[None]] * len(ragged) + [_splits_shape(batch)] * len(ragged)


def _parse_example_dtypes(op: Any) -> list:
    dense, sparse, ragged = _op_specs(op)
    return _out_dtypes(dense, sparse) + _ragged_dtypes(ragged)


register_op("ParseExampleV2", inputs=["serialized: string", "names: string"], outputs=[],
            kernel=_parse_example_kernel, shape_fn=_parse_example_shapes, dtype_fn=_parse_example_dtypes)


def _sparse_tensors(outputs: list, n: int) -> list:
    from edgelite.framework.sparse_tensor import SparseTensor
    return [SparseTensor(outputs[i], outputs[n + i], outputs[2 * n + i]) for i in range(n)]


def _results(features: dict, dense: list, sparse: list, outputs: list, ragged: Any = None) -> dict:
    """Name the op's outputs by feature key (sparse outputs follow the sorted keys of sparse features); ragged
    holds the parsed ragged keys, from which each RaggedFeature's tensor is assembled."""
    n = len(sparse)
    sparse_keys = [k for k in sorted(features) if isinstance(features[k], (VarLenFeature, SparseFeature))]
    result = dict(zip(sparse_keys, _sparse_tensors(outputs, n))) if n else {}
    for spec, t in zip(dense, outputs[3 * n:]):
        result[spec.key] = t
    if ragged:
        result.update(ragged_parsing.assemble(features, ragged))
    return result


def _names_tensor(example_names: Any) -> Any:
    return ops.convert_to_tensor([] if example_names is None else example_names, dtype=dtypes.string,
                                 name="names")


def _graph_form_op(serialized: Any, names: Any, dense: list, sparse: list) -> Any:
    """ParseExampleV2 with TF's key/default inputs and type/shape attrs besides edgelite's specs."""
    g = ops.get_default_graph()
    with g.name_scope("ParseExampleV2") as scope:
        operands, attrs = graph_form.graph_operands(dense, sparse)
        attrs["_specs"] = (dense, sparse, [])
        return g.create_op("ParseExampleV2", [serialized, names] + operands, None, name=scope, attrs=attrs,
                           op_def=get_op_def("ParseExampleV2"))


def parse_example(serialized: Any, features: dict, name: Optional[str] = None,
                  example_names: Any = None) -> dict:
    """Parses a batch of serialized Example protos into a dict of Tensors and SparseTensors."""
    dense, sparse, ragged = _split(features)
    with ops.name_scope(name, "ParseExample", [serialized, example_names]):
        serialized = ops.convert_to_tensor(serialized, dtype=dtypes.string, name="serialized")
        names = _names_tensor(example_names)
        if ragged or any(s.index_keys for s in sparse):
            op = ops.apply_op("ParseExampleV2", [serialized, names], {"_specs": (dense, sparse, ragged)})
        else:
            op = _graph_form_op(serialized, names, dense, sparse)
        outs = list(op.outputs)
        n = 3 * len(sparse) + len(dense)
        parsed = ragged_parsing.parsed_ragged(ragged, outs[n:n + len(ragged)], outs[n + len(ragged):],
                                              serialized.shape.ndims == 0)
        return _results(features, dense, sparse, outs, parsed)


def parse_single_example(serialized: Any, features: dict, name: Optional[str] = None,
                         example_names: Any = None) -> dict:
    """Parses one serialized Example (a scalar string) into a dict of Tensors and SparseTensors."""
    if not features:
        raise ValueError("Invalid argument: features cannot be None.")
    with ops.name_scope(name, "ParseSingleExample", [serialized, example_names]):
        serialized = ops.convert_to_tensor(serialized, dtype=dtypes.string, name="serialized")
        if serialized.shape.ndims is not None and serialized.shape.ndims != 0:
            raise ValueError(f"Input serialized must be a scalar, got shape {serialized.shape}")
        return parse_example(serialized, features, example_names=example_names)


def _parse_sequence_kernel(ctx: Any, serialized: np.ndarray, names: np.ndarray) -> Any:
    cd, cs, sd, ss, cr, sr = ctx.attrs["_specs"]
    ctx_dense, ctx_sparse, seq_dense, seq_sparse, lengths, ctx_feats, lists, where = ep.parse_sequence_examples(
        serialized, names, cd, cs, sd, ss)
    ragged = ragged_parser.parse_ragged(cr, ctx_feats, where) + ragged_parser.parse_ragged_lists(sr, lists, where)
    return _kernel_result(_flatten_sparse(ctx_sparse) + ctx_dense + _flatten_sparse(seq_sparse) + seq_dense + lengths
                          + ragged)


def _parse_sequence_dtypes(op: Any) -> list:
    cd, cs, sd, ss, cr, sr = op.get_attr("_specs")
    return (_out_dtypes(cd, cs) + _out_dtypes(sd, ss) + [dtypes.int64] * len(sd) + _ragged_dtypes(cr)
            + _ragged_dtypes(sr, 2))


def _parse_sequence_shapes(op: Any) -> list:
    cd, cs, sd, ss, cr, sr = op.get_attr("_specs")
    batch = _batch_dims(op)
    return (_out_shapes(batch, cd, cs) + _out_shapes(batch, sd, ss, extra=1) + [batch for _ in sd]
            + [[None]] * len(cr) + [_splits_shape(batch)] * len(cr) + [[None]] * len(sr)
            + [_splits_shape(batch)] * len(sr) + [[None]] * len(sr))


register_op("ParseSequenceExampleV2", inputs=["serialized: string", "debug_name: string"], outputs=[],
            kernel=_parse_sequence_kernel, shape_fn=_parse_sequence_shapes, dtype_fn=_parse_sequence_dtypes)


def _sequence_op(serialized: Any, context_features: Optional[dict], sequence_features: Optional[dict],
                 example_names: Any) -> tuple:
    if not (context_features or sequence_features):
        raise ValueError("Both `context_features` and `sequence_features` argument are None, but at least one "
                         "should have values.")
    cd, cs, cr = _split(context_features) if context_features else ([], [], [])
    sd, ss, sr = _split(sequence_features, in_sequence=True) if sequence_features else ([], [], [])
    serialized = ops.convert_to_tensor(serialized, dtype=dtypes.string, name="serialized")
    names = _names_tensor(example_names)
    op = ops.apply_op("ParseSequenceExampleV2", [serialized, names], {"_specs": (cd, cs, sd, ss, cr, sr)})
    outs = list(op.outputs)
    scalar = serialized.shape.ndims == 0
    n_ctx = 3 * len(cs) + len(cd)
    n_seq = 3 * len(ss) + len(sd)
    rest = outs[n_ctx + n_seq + len(sd):]
    ctx_ragged = ragged_parsing.parsed_ragged(cr, rest[:len(cr)], rest[len(cr):2 * len(cr)], scalar)
    rest = rest[2 * len(cr):]
    seq_ragged = ragged_parsing.parsed_ragged(sr, rest[:len(sr)], rest[len(sr):2 * len(sr)], scalar,
                                              rest[2 * len(sr):])
    context = _results(context_features, cd, cs, outs[:n_ctx], ctx_ragged) if context_features else {}
    seq = _results(sequence_features, sd, ss, outs[n_ctx:n_ctx + n_seq], seq_ragged) if sequence_features else {}
    lengths = {d.key: t for d, t in zip(sd, outs[n_ctx + n_seq:])}
    return context, seq, lengths


def parse_sequence_example(serialized: Any, context_features: Optional[dict] = None,
                           sequence_features: Optional[dict] = None, example_names: Any = None,
                           name: Optional[str] = None) -> tuple:
    """Parses a batch of SequenceExamples: (context dict, feature_list dict, feature_list lengths dict)."""
    with ops.name_scope(name, "ParseSequenceExample", [serialized]):
        return _sequence_op(serialized, context_features, sequence_features, example_names)


def parse_single_sequence_example(serialized: Any, context_features: Optional[dict] = None,
                                  sequence_features: Optional[dict] = None, example_name: Any = None,
                                  name: Optional[str] = None) -> tuple:
    """Parses one SequenceExample (a scalar string): (context dict, feature_list dict)."""
    with ops.name_scope(name, "ParseSingleSequenceExample", [serialized]):
        context, seq, _ = _sequence_op(serialized, context_features, sequence_features, example_name)
        return context, seq
