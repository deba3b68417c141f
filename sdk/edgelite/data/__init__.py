"""tf.compat.v1.data: datasets and iterators in graph mode."""
from . import experimental  # noqa: F401
from .dataset_ops import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset  # noqa: F401
from .iterator_ops import (  # noqa: F401
    Iterator, get_output_classes, get_output_shapes, get_output_types, make_initializable_iterator,
    make_one_shot_iterator,
)
from .options import Options, ThreadingOptions  # noqa: F401
from .readers import FixedLengthRecordDataset, TextLineDataset, TFRecordDataset  # noqa: F401
from .window_ops import DatasetSpec  # noqa: F401
