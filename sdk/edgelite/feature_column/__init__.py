"""tf.feature_column (TF1): columns describing how raw features become model inputs, and the layers that
apply them."""
from edgelite.feature_column.categorical_columns import (  # noqa: F401
    categorical_column_with_hash_bucket, categorical_column_with_identity, categorical_column_with_vocabulary_file,
    categorical_column_with_vocabulary_list, crossed_column, weighted_categorical_column,
)
from edgelite.feature_column.dense_columns import (  # noqa: F401
    bucketized_column, embedding_column, indicator_column, numeric_column, shared_embedding_columns,
)
from edgelite.feature_column.host_transform import HostTransform  # noqa: F401 - edgelite's, for converted models
from edgelite.feature_column.layers import input_layer, linear_model, make_parse_example_spec  # noqa: F401
from edgelite.feature_column.sequence_columns import (  # noqa: F401
    sequence_categorical_column_with_hash_bucket, sequence_categorical_column_with_identity,
    sequence_categorical_column_with_vocabulary_file, sequence_categorical_column_with_vocabulary_list,
)
