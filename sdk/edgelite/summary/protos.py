"""TensorBoard's messages (event.proto, summary.proto, tensor.proto subset) declared for the wire codec.

Field numbers follow TensorFlow's published .proto files so that TensorBoard and TensorFlow read our bytes.
"""
from __future__ import annotations

from ._wire import Field, Message, declare

DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_STRING, DT_INT64, DT_BOOL = 1, 2, 3, 4, 7, 9, 10


class TensorShapeProto(Message):
    """Shape of a tensor: a list of dimensions, or unknown rank."""

    class Dim(Message):
        """One dimension: size (-1 = unknown) and an optional name."""


class TensorProto(Message):
    """A tensor value; the summaries use string, float, double, int and int64 payloads."""


class HistogramProto(Message):
    """Histogram statistics and (bucket_limit, bucket) parallel arrays."""


class SummaryMetadata(Message):
    """Which TensorBoard plugin a tensor summary belongs to."""

    class PluginData(Message):
        """Plugin name and plugin-specific content bytes."""


class SummaryDescription(Message):
    """A hint of how TensorBoard should display a tensor summary."""


class Summary(Message):
    """A set of tagged values to display."""

    class Image(Message):
        """An encoded (PNG) image with its size and colour space."""

    class Audio(Message):
        """Encoded audio clip."""

    class Value(Message):
        """One tagged value: a scalar, an image, a histogram, audio or a tensor."""


class LogMessage(Message):
    """A log line stored in an event file."""

    UNKNOWN, DEBUGGING, INFO, WARN, ERROR, FATAL = 0, 10, 20, 30, 40, 50


class SessionLog(Message):
    """Session state markers (START after a restart, STOP, CHECKPOINT)."""

    STATUS_UNSPECIFIED, START, STOP, CHECKPOINT = 0, 1, 2, 3


class TaggedRunMetadata(Message):
    """Serialized RunMetadata of one session.run call, under a tag."""


class Event(Message):
    """One record of an event file: time, step and what happened."""


declare(TensorShapeProto.Dim, [Field("size", 1, "int64"), Field("name", 2, "string")])
declare(TensorShapeProto, [Field("dim", 2, TensorShapeProto.Dim, repeated=True),
                           Field("unknown_rank", 3, "bool")])
declare(TensorProto, [
    Field("dtype", 1, "enum"),
    Field("tensor_shape", 2, TensorShapeProto),
    Field("version_number", 3, "int32"),
    Field("tensor_content", 4, "bytes"),
    Field("float_val", 5, "float", repeated=True, packed=True),
    Field("double_val", 6, "double", repeated=True, packed=True),
    Field("int_val", 7, "int32", repeated=True, packed=True),
    Field("string_val", 8, "bytes", repeated=True),
    Field("int64_val", 10, "int64", repeated=True, packed=True),
    Field("bool_val", 11, "bool", repeated=True, packed=True),
])
declare(HistogramProto, [
    Field("min", 1, "double"), Field("max", 2, "double"), Field("num", 3, "double"),
    Field("sum", 4, "double"), Field("sum_squares", 5, "double"),
    Field("bucket_limit", 6, "double", repeated=True, packed=True),
    Field("bucket", 7, "double", repeated=True, packed=True),
])
declare(SummaryMetadata.PluginData, [Field("plugin_name", 1, "string"), Field("content", 2, "bytes")])
declare(SummaryMetadata, [
    Field("plugin_data", 1, SummaryMetadata.PluginData),
    Field("display_name", 2, "string"),
    Field("summary_description", 3, "string"),
    Field("data_class", 4, "enum"),
])
declare(Summary.Image, [
    Field("height", 1, "int32"), Field("width", 2, "int32"), Field("colorspace", 3, "int32"),
    Field("encoded_image_string", 4, "bytes"),
])
declare(Summary.Audio, [
    Field("sample_rate", 1, "float"), Field("num_channels", 2, "int64"), Field("length_frames", 3, "int64"),
    Field("encoded_audio_string", 4, "bytes"), Field("content_type", 5, "string"),
])
declare(Summary.Value, [
    Field("tag", 1, "string"),
    Field("simple_value", 2, "float", oneof="value"),
    Field("obsolete_old_style_histogram", 3, "bytes", oneof="value"),
    Field("image", 4, Summary.Image, oneof="value"),
    Field("histo", 5, HistogramProto, oneof="value"),
    Field("audio", 6, Summary.Audio, oneof="value"),
    Field("node_name", 7, "string"),
    Field("tensor", 8, TensorProto, oneof="value"),
    Field("metadata", 9, SummaryMetadata),
])
declare(Summary, [Field("value", 1, Summary.Value, repeated=True)])
declare(SummaryDescription, [Field("type_hint", 1, "string")])
declare(LogMessage, [Field("level", 1, "enum"), Field("message", 2, "string")])
declare(SessionLog, [Field("status", 1, "enum"), Field("checkpoint_path", 2, "string"), Field("msg", 3, "string")])
declare(TaggedRunMetadata, [Field("tag", 1, "string"), Field("run_metadata", 2, "bytes")])
declare(Event, [
    Field("wall_time", 1, "double"),
    Field("step", 2, "int64"),
    Field("file_version", 3, "string", oneof="what"),
    Field("graph_def", 4, "bytes", oneof="what"),
    Field("summary", 5, Summary, oneof="what"),
    Field("log_message", 6, LogMessage, oneof="what"),
    Field("session_log", 7, SessionLog, oneof="what"),
    Field("tagged_run_metadata", 8, TaggedRunMetadata, oneof="what"),
    Field("meta_graph_def", 9, "bytes", oneof="what"),
])
