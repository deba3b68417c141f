"""tf.io / tf.compat.v1.python_io: TFRecord files (plain, GZIP, ZLIB), the gfile file-system helpers, write_graph."""
from . import gfile  # noqa: F401
from .graph_io import write_graph  # noqa: F401
from .csv_ops import decode_csv  # noqa: F401
from .decode_ops import (  # noqa: F401
    decode_base64, decode_compressed, decode_json_example, decode_raw, encode_base64, parse_tensor, serialize_tensor,
)
from .file_ops import matching_files, read_file, write_file  # noqa: F401
from .parsing_config import (  # noqa: F401
    FixedLenFeature, FixedLenSequenceFeature, RaggedFeature, SparseFeature, VarLenFeature,
)
from .parsing_ops import (  # noqa: F401
    parse_example, parse_sequence_example, parse_single_example, parse_single_sequence_example,
)
from edgelite.ops.queue_ops import PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue  # noqa: F401
from .readers import (  # noqa: F401
    FixedLengthRecordReader, IdentityReader, ReaderBase, TextLineReader, TFRecordReader, WholeFileReader,
)
from .tf_record import (  # noqa: F401
    TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator,
)
# the image codecs, which TF exports under tf.io as well as tf.image
from edgelite.image.codec_ops import (  # noqa: F401,E402
    decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image, decode_jpeg, decode_jxl, decode_png, decode_webp,
    encode_jpeg, encode_png, extract_jpeg_shape, is_jpeg,
)


def __getattr__(name: str):  # noqa: ANN202 - lazy: train.input imports this package
    if name == "match_filenames_once":
        from edgelite.train.input import match_filenames_once
        return match_filenames_once
    raise AttributeError(f"module 'edgelite.io' has no attribute {name!r}")
from edgelite.ops.sparse_serialize_ops import (  # noqa: F401,E402
    deserialize_many_sparse, serialize_many_sparse, serialize_sparse,
)
