"""TFLite external delegates (e.g. libedgetpu) loaded from shared libraries through cffi."""
from __future__ import annotations

import ctypes
import os
import re
from typing import Any, Callable, Dict, List, Optional

import cffi

_ffi = cffi.FFI()
# The external-delegate plugin interface (tflite/delegates/external/external_delegate_interface.h).
_ffi.cdef(
    """
    void* tflite_plugin_create_delegate(char** options_keys, char** options_values,
                                        size_t num_options, void (*report_error)(const char*));
    void tflite_plugin_destroy_delegate(void* delegate);
    """
)

# cffi wraps dlerror()'s text as "cannot load library 'X': <dlerror>.  Additionally, ...".
_CFFI_LOAD_ERROR = re.compile(r"^cannot load library '.*?': (?P<reason>.*?)(?:\.\s+Additionally,.*)?$", re.S)


class DelegateLoadError(ValueError, OSError):
    """A delegate library could not be loaded or refused to create a delegate.

    A ValueError, as tflite documents for load_delegate (and as pycoral catches), and an OSError,
    as tflite_runtime actually raises for a missing library; the message carries the loader's or
    the plugin's own reason.
    """


def _loader_reason(err: OSError) -> str:
    text = str(err)
    m = _CFFI_LOAD_ERROR.match(text)
    return m.group("reason") if m else text


class Delegate:
    """A TfLiteDelegate created by a plugin library's tflite_plugin_create_delegate.

    The delegate is destroyed (tflite_plugin_destroy_delegate) when this object is released;
    every interpreter built with it holds a reference, so that happens only after them.
    """

    def __init__(self, library: Any, options: Optional[Dict[Any, Any]] = None) -> None:
        # Set first so that release after a failed construction finds nothing to free.
        self._delegate_ptr: Optional[int] = None
        self._destroy: Optional[Callable[[Any], None]] = None
        self._library: Optional[ctypes.PyDLL] = None
        self._handle: Any = None
        self._library_name = library
        name = os.fspath(library)
        try:
            handle = _ffi.dlopen(name)
        except OSError as e:
            raise DelegateLoadError(_loader_reason(e)) from None
        try:
            create = handle.tflite_plugin_create_delegate
            destroy = handle.tflite_plugin_destroy_delegate
        except AttributeError as e:
            raise DelegateLoadError(f"{name} is not a TFLite delegate plugin: {e}") from None

        options = options or {}
        keepalive: List[Any] = [_ffi.new("char[]", str(k).encode("utf-8")) for k in options]
        keepalive += [_ffi.new("char[]", str(v).encode("utf-8")) for v in options.values()]
        n = len(options)
        keys = _ffi.new("char*[]", keepalive[:n] or [_ffi.NULL])
        values = _ffi.new("char*[]", keepalive[n:] or [_ffi.NULL])
        messages: List[str] = []

        @_ffi.callback("void(const char*)")
        def report(text: Any) -> None:
            if text != _ffi.NULL:
                messages.append(_ffi.string(text).decode("utf-8", "replace"))

        ptr = create(keys, values, n, report)
        if ptr == _ffi.NULL:
            raise DelegateLoadError("".join(messages))
        # What tflite keeps as _library: a ctypes handle of the plugin, through which callers
        # reach its other exported functions (a test delegate's counters, say); dlopen of the
        # same path returns the handle already open, so both name one loaded copy.
        self._library = ctypes.PyDLL(name)
        self._handle = handle
        self._destroy = destroy
        self._delegate_ptr = int(_ffi.cast("uintptr_t", ptr))
        self._report = report  # a plugin may keep the callback beyond creation

    def _get_native_delegate_pointer(self) -> Optional[int]:
        """The TfLiteDelegate* as an int address; owned by this object, do not free it."""
        return self._delegate_ptr

    def _release(self) -> None:
        ptr, self._delegate_ptr = self._delegate_ptr, None
        destroy, self._destroy = self._destroy, None
        if ptr is not None and destroy is not None:
            destroy(_ffi.cast("void *", ptr))
        self._library = None
        self._handle = None

    def __del__(self) -> None:
        self._release()

    def __repr__(self) -> str:
        return f"<edgelite_runtime.Delegate {self._library_name!r} at 0x{self._delegate_ptr or 0:x}>"


def load_delegate(library: Any, options: Optional[Dict[Any, Any]] = None) -> Delegate:
    """Load a TFLite external delegate plugin (e.g. 'libedgetpu.so.1') for experimental_delegates."""
    try:
        return Delegate(library, options)
    except ValueError as e:
        raise DelegateLoadError(f"Failed to load delegate from {library}\n{e}") from None
