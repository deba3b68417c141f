"""tf.io / tf.compat.v1.python_io: TFRecord files (plain, GZIP, ZLIB), the gfile file-system helpers, write_graph."""
from . import gfile  # noqa: F401
from .graph_io import write_graph  # noqa: F401
from .tf_record import (  # noqa: F401
    TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator,
)
