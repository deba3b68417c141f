"""Zero-copy numpy views of tensor memory whose lifetime the interpreter can see.

For each tensor that tensor() is asked about, the registry builds one "root" array per generation
(see _table.TensorTable): a flat array over the tensor's bytes (the anchor) reshaped to the
tensor's shape. Every array returned by tensor() is `root[...]`, and numpy makes the anchor the
base of that array and of every slice or reshape derived from it, while only the root refers to
the anchor otherwise. So "is any view still alive?" is whether some anchor has more references
than its root's: a reference-count test, like tflite's. Handing out a view costs one dict lookup
and one numpy view, with no allocation of tracking state.

The bytes come from a pointer that pins the C interpreter (NativeInterpreter.pin), so a view also
keeps the memory it aliases from being freed.
"""
from __future__ import annotations

import gc
import sys
from typing import Any, Dict, Iterable, List

import numpy as np

VIEW_HELD = """There is at least 1 reference to internal data
      in the interpreter in the form of a numpy array or slice. Be sure to
      only hold the function returned from tensor() if you are using raw
      data access."""


def _root(buffer: Any, dtype: np.dtype, shape: tuple) -> np.ndarray:
    # frombuffer keeps a read-only memoryview as the anchor's base, so no view can be made
    # writable again (np.ndarray(buffer=...) would unwrap it to the writable buffer).
    return np.frombuffer(buffer, dtype).reshape(shape)


def _counts(roots: Iterable[np.ndarray]) -> List[int]:
    """Reference counts of the anchors of roots read from a container that holds each root once."""
    return [sys.getrefcount(root.base) for root in roots]


# What _counts reports for an anchor only its root holds, measured on this very Python: the count
# includes the loop's and the call's own references, which differ between versions.
_UNREFERENCED = _counts([_root(bytearray(1), np.dtype(np.uint8), (1,))])[0]


class ViewRegistry:
    """The tensor() roots of one interpreter (callers hold the interpreter lock)."""

    __slots__ = ("roots", "_retired")

    def __init__(self) -> None:
        # tensor index -> root array of the current generation; cleared in place (tensor()
        # callables keep this dict), never rebound.
        self.roots: Dict[int, np.ndarray] = {}
        # Roots of earlier generations that still had views when their generation ended.
        self._retired: List[np.ndarray] = []

    def add(self, index: int, buffer: Any, dtype: np.dtype, shape: tuple, read_only: bool) -> np.ndarray:
        """The root array of a tensor over `buffer` (a cffi buffer of its memory), kept for this generation."""
        root = _root(memoryview(buffer).toreadonly() if read_only else buffer, dtype, shape)
        self.roots[index] = root
        return root

    def tracked(self) -> bool:
        """True while some root exists, so invoke must check for live views first."""
        return bool(self.roots or self._retired)

    def retire(self) -> None:
        """A new generation: roots are rebuilt on next use; those with live views stay watched."""
        if self.roots:
            roots = list(self.roots.values())
            self.roots.clear()
            self._retired += [r for r, n in zip(roots, _counts(roots)) if n > _UNREFERENCED]

    def _alive(self) -> bool:
        if self._retired:
            self._retired = [r for r, n in zip(self._retired, _counts(self._retired)) if n > _UNREFERENCED]
        return bool(self._retired) or any(n > _UNREFERENCED for n in _counts(self.roots.values()))

    def any_alive(self) -> bool:
        """True while some array from tensor() (or a slice of one) is still referenced."""
        if not self._alive():
            return False
        # Views caught in reference cycles (e.g. frames kept by a traceback) are unreachable;
        # collect them before refusing. This cost is paid only on this rare path.
        gc.collect()
        return self._alive()

    def ensure_none(self) -> None:
        """Raise tflite's RuntimeError when a view would dangle after the coming operation."""
        if (self.roots or self._retired) and self.any_alive():
            raise RuntimeError(VIEW_HELD)
