"""tf.contrib.data.Dataset of TF 1.4: a tf.data dataset whose transformations return contrib Datasets again,
so scripts written for TF 1.3/1.4 keep their map(num_threads=, output_buffer_size=) keywords along a chain."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from edgelite.data import readers
from edgelite.data.dataset_ops import DatasetV1, Env, MapDataset, _Unary


def _wrap(dataset: DatasetV1) -> "Dataset":
    return dataset if isinstance(dataset, Dataset) else Dataset(dataset)


class Dataset(_Unary):
    """Wraps a tf.data dataset (TF 1.4's contrib Dataset(dataset)); elements are the wrapped dataset's."""

    def __init__(self, dataset: DatasetV1) -> None:
        if not isinstance(dataset, DatasetV1):
            raise TypeError(f"tf.contrib.data.Dataset wraps a Dataset, got {type(dataset).__name__}")
        super().__init__(dataset, dataset._structure, dataset._flat_types, dataset._flat_shapes)

    def _gen(self, env: Env) -> Iterator[list]:
        return self._input._gen(env)

    def map(self, map_func: Callable, num_threads: Optional[int] = None, output_buffer_size: Optional[int] = None,
            num_parallel_calls: Optional[int] = None) -> "Dataset":
        """Maps map_func over the elements; num_threads is the old name of num_parallel_calls, and
        output_buffer_size adds a prefetch of that many elements after the map, as TF 1.4 did."""
        if num_threads is not None and num_parallel_calls is not None:
            raise ValueError("Dataset.map: pass either `num_threads` (deprecated) or `num_parallel_calls`, "
                             f"not both (got {num_threads} and {num_parallel_calls})")
        parallel = num_parallel_calls if num_threads is None else num_threads
        result: DatasetV1 = MapDataset(self, map_func, parallel)
        if output_buffer_size is not None:
            result = result.prefetch(output_buffer_size)
        return Dataset(result)

    def apply(self, transformation_func: Callable) -> "Dataset":
        """Applies a transformation function (dataset -> dataset); the result is a contrib Dataset."""
        return _wrap(DatasetV1.apply(self, transformation_func))

    @staticmethod
    def from_tensor_slices(tensors: Any) -> "Dataset":
        """A dataset whose elements are slices (along dimension 0) of the given tensors."""
        return Dataset(DatasetV1.from_tensor_slices(tensors))

    @staticmethod
    def from_tensors(tensors: Any) -> "Dataset":
        """A dataset with a single element, comprising the given tensors."""
        return Dataset(DatasetV1.from_tensors(tensors))

    @staticmethod
    def from_generator(generator: Callable, output_types: Any, output_shapes: Any = None) -> "Dataset":
        """A dataset whose elements are produced by a Python generator."""
        return Dataset(DatasetV1.from_generator(generator, output_types, output_shapes))

    @staticmethod
    def range(*args: Any) -> "Dataset":
        """A dataset of a step-separated range of int64 values, like Python's range."""
        return Dataset(DatasetV1.range(*args))

    @staticmethod
    def zip(datasets: Any) -> "Dataset":
        """A dataset by zipping together the given (nested tuple/dict of) datasets."""
        return Dataset(DatasetV1.zip(datasets))

    @staticmethod
    def list_files(file_pattern: Any) -> "Dataset":
        """A dataset of the files matching a glob pattern."""
        return Dataset(DatasetV1.list_files(file_pattern))


def _rewrapping(name: str) -> Callable:
    """The core transformation `name`, returning a contrib Dataset."""
    core = getattr(DatasetV1, name)

    def method(self: Dataset, *args: Any, **kwargs: Any) -> Dataset:
        return _wrap(core(self, *args, **kwargs))
    method.__name__ = name
    method.__doc__ = core.__doc__
    return method


for _name in ("filter", "batch", "padded_batch", "unbatch", "shuffle", "repeat", "take", "skip", "prefetch",
              "cache", "concatenate", "enumerate", "flat_map", "interleave"):
    setattr(Dataset, _name, _rewrapping(_name))


class TextLineDataset(Dataset):
    """The lines (newline stripped) of one or more text files, as a contrib Dataset."""

    def __init__(self, filenames: Any, compression_type: Optional[str] = None,
                 buffer_size: Optional[int] = None) -> None:
        super().__init__(readers.TextLineDataset(filenames, compression_type, buffer_size))


class TFRecordDataset(Dataset):
    """The records of one or more TFRecord files, as a contrib Dataset."""

    def __init__(self, filenames: Any, compression_type: Optional[str] = None,
                 buffer_size: Optional[int] = None) -> None:
        super().__init__(readers.TFRecordDataset(filenames, compression_type, buffer_size))


class FixedLengthRecordDataset(Dataset):
    """Fixed-length records from one or more binary files, as a contrib Dataset."""

    def __init__(self, filenames: Any, record_bytes: int, header_bytes: Optional[int] = None,
                 footer_bytes: Optional[int] = None, buffer_size: Optional[int] = None) -> None:
        super().__init__(readers.FixedLengthRecordDataset(filenames, record_bytes, header_bytes, footer_bytes,
                                                          buffer_size))
