"""input_layer, linear_model and make_parse_example_spec: columns applied to a features dict in name order,
with variables under TF's names (input_layer/<column>/embedding_weights, linear_model/<column>/weights,
linear_model/bias_weights)."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from edgelite.framework import dtypes, ops
from edgelite.nn.embedding_sparse_ops import safe_embedding_lookup_sparse
from edgelite.nn.normalization_ops import bias_add
from edgelite.ops import array_ops, init_ops, math_ops, variable_scope
from edgelite.ops.sparse_structure_ops import sparse_reshape
from edgelite.feature_column.categorical_columns import CategoricalColumn
from edgelite.feature_column.dense_columns import ColumnState, DenseColumn
from edgelite.feature_column.feature_inputs import FeatureCache


def _normalize(feature_columns: Any) -> list:
    if isinstance(feature_columns, (DenseColumn, CategoricalColumn)) or not hasattr(feature_columns, "__iter__"):
        feature_columns = [feature_columns]
    columns = list(feature_columns)
    if not columns:
        raise ValueError("feature_columns must not be empty.")
    names = [c.name for c in columns if hasattr(c, "name")]
    for name in names:
        if names.count(name) > 1:
            raise ValueError(f"Duplicate feature column name found for columns: {name}.")
    return sorted(columns, key=lambda c: c.name)


def _flat(tensor: ops.Tensor, width: int) -> ops.Tensor:
    """tensor as [batch, width], the batch read at run time."""
    return array_ops.reshape(tensor, array_ops.stack([array_ops.shape(tensor)[0], width]))


def _width(column: Any) -> int:
    width = 1
    for d in column.variable_shape:
        width *= int(d)
    return width


def input_layer(features: Dict[str, Any], feature_columns: Any, weight_collections: Optional[list] = None,
                trainable: bool = True, cols_to_vars: Optional[dict] = None,
                cols_to_output_tensors: Optional[dict] = None) -> ops.Tensor:
    """The dense columns' tensors, each flattened to [batch, n], concatenated in column-name order."""
    columns = dense_columns_only(feature_columns)
    cache = FeatureCache(features)
    return dense_layer(columns, list(features.values()), lambda column, state: column.get_dense_tensor(cache, state),
                       ColumnState(trainable, _with_global(weight_collections), cols_to_vars), cols_to_output_tensors)


def dense_columns_only(feature_columns: Any) -> list:
    """The columns in name order; ValueError with TF's text unless each is dense."""
    columns = _normalize(feature_columns)
    for column in columns:
        if not isinstance(column, DenseColumn):
            raise ValueError("Items of feature_columns must be a _DenseColumn. You can wrap a categorical column "
                             f"with an embedding_column or indicator_column. Given: {column}")
    return columns


def dense_layer(columns: list, values: list, dense_of: Callable[[Any, ColumnState], ops.Tensor], state: ColumnState,
                cols_to_output_tensors: Optional[dict] = None) -> ops.Tensor:
    """input_layer's scopes and concatenation around dense_of(column, state), the column's dense tensor."""
    outputs = []
    with variable_scope.variable_scope(None, default_name="input_layer", values=values):
        for column in columns:
            with variable_scope.variable_scope(None, default_name=getattr(column, "scope_name", column.name)):
                output = _flat(dense_of(column, state), _width(column))
                outputs.append(output)
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = output
        return array_ops.concat(outputs, 1)


def _with_global(collections: Optional[list]) -> list:
    """TF1 layers put column variables in the given collections plus the global and model variables."""
    collections = list(collections or [])
    return collections + [c for c in (ops.GraphKeys.GLOBAL_VARIABLES, ops.GraphKeys.MODEL_VARIABLES)
                          if c not in collections]


def _categorical_sum(column: Any, cache: FeatureCache, weights: Any, combiner: str) -> ops.Tensor:
    pair = column.get_sparse_tensors(cache)
    batch = pair.id_tensor.dense_shape[0]
    ids = sparse_reshape(pair.id_tensor, array_ops.stack([batch, ops.convert_to_tensor(-1, dtypes.int64)]))
    sparse_weights = None
    if pair.weight_tensor is not None:
        sparse_weights = sparse_reshape(pair.weight_tensor,
                                        array_ops.stack([batch, ops.convert_to_tensor(-1, dtypes.int64)]))
    return safe_embedding_lookup_sparse(weights, ids, sparse_weights, combiner=combiner, name="weighted_sum")


def linear_model(features: Dict[str, Any], feature_columns: Any, units: int = 1, sparse_combiner: str = "sum",
                 weight_collections: Optional[list] = None, trainable: bool = True,
                 cols_to_vars: Optional[dict] = None) -> ops.Tensor:
    """[batch, units] = bias + sum over columns (dense: x @ weights; categorical: combined weight rows)."""
    columns = linear_columns(feature_columns, sparse_combiner)
    cache = FeatureCache(features)
    return linear_layer(columns, list(features.values()), lambda column, state: column.get_dense_tensor(cache, state),
                        lambda column, weights: _categorical_sum(column, cache, weights, sparse_combiner), units,
                        ColumnState(trainable, _with_global(weight_collections), cols_to_vars), cols_to_vars)


def linear_columns(feature_columns: Any, sparse_combiner: str) -> list:
    """The columns in name order; ValueError with TF's texts for a bad combiner or a column of another kind."""
    if sparse_combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"sparse_combiner must be one of 'mean', 'sqrtn' or 'sum'. Given: {sparse_combiner}")
    columns = _normalize(feature_columns)
    for column in columns:
        if not isinstance(column, (DenseColumn, CategoricalColumn)):
            raise ValueError("Items of feature_columns must be either a _DenseColumn or _CategoricalColumn. "
                             f"Given: {column}")
    return columns


def linear_layer(columns: list, values: list, dense_of: Callable[[Any, ColumnState], ops.Tensor],
                 categorical_sum: Callable[[Any, Any], ops.Tensor], units: int, state: ColumnState,
                 cols_to_vars: Optional[dict] = None) -> ops.Tensor:
    """linear_model's variables, scopes and sums: dense_of(column, state) @ weights for dense columns,
    categorical_sum(column, weights) ([batch, units]) for categorical ones, plus the bias."""
    zeros = init_ops.Zeros()
    sums: List[ops.Tensor] = []
    with variable_scope.variable_scope(None, default_name="linear_model", values=values):
        for column in columns:
            with variable_scope.variable_scope(None, default_name=getattr(column, "scope_name", column.name)):
                if isinstance(column, CategoricalColumn):
                    weights = state.get_variable(column, "weights", [column.num_buckets, units], zeros)
                    sums.append(categorical_sum(column, weights))
                else:
                    width = _width(column)
                    weights = state.get_variable(column, "weights", [width, units], zeros)
                    dense = _flat(dense_of(column, state), width)
                    sums.append(math_ops.matmul(dense, weights, name="weighted_sum"))
        total = math_ops.add_n(sums, name="weighted_sum_no_bias")
        bias = variable_scope.get_variable("bias_weights", shape=[units], dtype=dtypes.float32, initializer=zeros,
                                           trainable=state.trainable, collections=state.collections)
        if cols_to_vars is not None:
            cols_to_vars["bias"] = [bias]
        return bias_add(total, bias, name="weighted_sum")


def make_parse_example_spec(feature_columns: Any) -> dict:
    """The tf.io.parse_example feature spec all the columns need (ValueError on conflicting specs for a key)."""
    result: dict = {}
    for column in feature_columns:
        if not hasattr(column, "parse_example_spec"):
            raise ValueError(f"All feature_columns must be _FeatureColumn instances. Given: {column}")
        for key, spec in column.parse_example_spec.items():
            if key in result and result[key] != spec:
                raise ValueError(f"feature_columns contain different parse_spec for key {key}. Given {result[key]} "
                                 f"and {spec}")
            result[key] = spec
    return result

