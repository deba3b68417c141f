"""edgelite.summary: TensorBoard event files (FileWriter, summary_iterator) and the protos they hold."""
from .iterator import summary_iterator
from .protos import (Event, HistogramProto, LogMessage, SessionLog, Summary, SummaryDescription,  # noqa: F401
                     SummaryMetadata, TaggedRunMetadata, TensorProto, TensorShapeProto)
from .record import DataLossError
from .summary_ops import audio, histogram, image, merge, merge_all, scalar, tensor_summary, text  # noqa: F401
from .writer import FileWriter, FileWriterCache

__all__ = [
    "Event", "FileWriter", "FileWriterCache", "HistogramProto", "LogMessage", "SessionLog", "Summary",
    "SummaryDescription", "SummaryMetadata", "TaggedRunMetadata", "TensorProto", "TensorShapeProto", "DataLossError", "summary_iterator",
    "audio", "histogram", "image", "merge", "merge_all", "scalar", "tensor_summary", "text",
]
