"""The compiled training kernels must be loadable for the differential tests; a visible skip otherwise."""
from __future__ import annotations

import pytest

from edgelite.kernels import backend


@pytest.fixture()
def native_selected():
    """A test using this starts with the native kernels selected and leaves the switch as it found it."""
    if not backend.native_available():
        pytest.skip("libedgelite with the training kernels is not loadable here")
    with backend.using("native"):
        yield


@pytest.fixture()
def native_f64_selected(native_selected):
    """As native_selected, for a library that also has the float64 kernels (a visible skip otherwise)."""
    from edgelite.kernels import native_lib
    if not native_lib.handle().f64:
        pytest.skip("this libedgelite has no float64 training kernels")
    yield
