"""tf.io.read_file, write_file and matching_files as graph ops over the local file system."""
from __future__ import annotations

import glob
import os
from typing import Any, Optional

import numpy as np

from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op

from ._errors import from_os_error


def _text(x: Any) -> str:
    return x.decode("utf-8") if isinstance(x, bytes) else str(x)


def _read_file_kernel(ctx: Any, filename: np.ndarray) -> np.ndarray:
    path = _text(filename.item())
    try:
        with open(path, "rb") as f:
            return np.asarray(f.read(), dtype=object)
    except OSError as e:
        raise from_os_error(e, path) from None


def _write_file_kernel(ctx: Any, filename: np.ndarray, contents: np.ndarray) -> None:
    path = _text(filename.item())
    data = contents.item()
    try:
        with open(path, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
    except OSError as e:
        raise from_os_error(e, path) from None


def matching_paths(patterns: Any) -> list:
    """Sorted paths matching any of the glob patterns (shared with the filename producers and list_files)."""
    found: set = set()
    for p in np.asarray(patterns, dtype=object).reshape(-1):
        pattern = _text(p)
        # TensorFlow joins a bare file pattern's matches to the current directory: "./name".
        prefix = "" if os.path.dirname(pattern) else "." + os.sep
        found.update(prefix + m for m in glob.glob(pattern))
    return sorted(found)


def _matching_files_kernel(ctx: Any, pattern: np.ndarray) -> np.ndarray:
    out = np.empty(0, dtype=object)
    paths = matching_paths(pattern)
    if paths:
        out = np.array([p.encode("utf-8") for p in paths] + [b""], dtype=object)[:-1]
    return out


register_op("ReadFile", inputs=["filename: string"], outputs=["contents: string"], kernel=_read_file_kernel,
            shape_fn=lambda op: [[]])
register_op("WriteFile", inputs=["filename: string", "contents: string"], outputs=[], kernel=_write_file_kernel,
            shape_fn=lambda op: [], stateful=True)
register_op("MatchingFiles", inputs=["pattern: string"], outputs=["filenames: string"],
            kernel=_matching_files_kernel, shape_fn=lambda op: [[None]])


def read_file(filename: Any, name: Optional[str] = None) -> ops.Tensor:
    """The entire contents of the named file as a scalar string."""
    return ops.apply_op("ReadFile", [filename], name=name)


def write_file(filename: Any, contents: Any, name: Optional[str] = None) -> ops.Operation:
    """Write contents to the file (created or overwritten; the directory must exist)."""
    return ops.apply_op("WriteFile", [filename, contents], name=name)


def matching_files(pattern: Any, name: Optional[str] = None) -> ops.Tensor:
    """The sorted file names matching a glob pattern (or any of a vector of patterns)."""
    return ops.apply_op("MatchingFiles", [pattern], name=name)


