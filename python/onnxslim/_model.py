"""Loading models and the :class:`Model` handle."""

import ctypes
import os
import weakref

from . import _graph
from ._constants import CONSTANTS as _C
from ._errors import InvalidArgument, _check, _need, _path, _str
from ._lib import LoadOptions, SaveOptions, lib


def load(path_or_bytes, base_dir=None):
    """Load a model from a file path or from bytes; returns a :class:`Model`.

    A path (str or os.PathLike) is opened with onnxslim_model_open() (the file
    is mapped, tensors are not copied). Bytes (bytes, bytearray, memoryview)
    are copied by the library, so the caller may drop them afterwards.
    ``base_dir`` is the directory external-data locations are relative to
    (default: the model file's directory; required for bytes whose model has
    external data). Raises :class:`Error` (e.g. :class:`ParseError`,
    :class:`IoError`) on failure.
    """
    opts = LoadOptions()
    _check(lib.onnxslim_load_options_init(ctypes.byref(opts), _C["LOAD_OPTIONS_VERSION"]))
    if base_dir is not None:
        opts.base_dir = _path(base_dir)
    handle = ctypes.c_void_p()
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        data = bytes(path_or_bytes)
        rc = lib.onnxslim_model_from_buffer(ctypes.byref(handle), data, len(data), _C["COPY"],
                                            ctypes.byref(opts))
    elif isinstance(path_or_bytes, (str, os.PathLike)):
        rc = lib.onnxslim_model_open(ctypes.byref(handle), _path(path_or_bytes),
                                     ctypes.byref(opts))
    else:
        raise TypeError("load() takes a path or bytes, not %s" % type(path_or_bytes).__name__)
    _check(rc)
    return Model(handle.value)


class Model:
    """A loaded model; owns its C handle.

    Use it as a context manager (``with onnxslim.load(p) as m:``) or call
    :meth:`close`; an unreachable model is freed by the garbage collector.
    After close every use of the model and of the objects read from it raises
    :class:`InvalidArgument`.
    """

    def __init__(self, handle):
        self._handle = handle
        self._finalizer = weakref.finalize(self, lib.onnxslim_model_free, handle)

    def _ptr(self):
        if not self._finalizer.alive:
            raise InvalidArgument(_C["EINVAL"], "the model is closed")
        return self._handle

    @property
    def closed(self):
        """True once :meth:`close` ran."""
        return not self._finalizer.alive

    def close(self):
        """Free the model now (idempotent). Borrowed objects become unusable."""
        self._finalizer()

    def __enter__(self):
        self._ptr()
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return "<onnxslim.Model %s>" % ("closed" if self.closed else "open")

    @property
    def graph(self):
        """The main :class:`Graph`."""
        return _graph.Graph(self, _need(lib.onnxslim_model_graph(self._ptr())))

    def check(self):
        """Problems the library finds (onnxslim_check()).

        Returns a list of ``(code, location, message)`` tuples, ``code`` a
        ``CHECK_*`` constant; empty when the model has none.
        """
        report = ctypes.c_void_p()
        _check(lib.onnxslim_check(ctypes.byref(report), self._ptr(), 0))
        try:
            out = []
            for i in range(lib.onnxslim_check_report_count(report)):
                out.append((lib.onnxslim_check_report_code(report, i),
                            _str(_need(lib.onnxslim_check_report_location(report, i))),
                            _str(_need(lib.onnxslim_check_report_message(report, i)))))
            return out
        finally:
            lib.onnxslim_check_report_free(report)

    def fingerprint(self):
        """The model's content fingerprint: 32 lowercase hex digits (str)."""
        buf = ctypes.create_string_buffer(_C["FINGERPRINT_SIZE"])
        _check(lib.onnxslim_fingerprint(buf, len(buf), self._ptr()))
        return buf.value.decode()

    def save(self, path, layout=_C["LAYOUT_AS_LOADED"], threshold=None, flags=0):
        """Save the model to `path` (onnxslim_save()).

        ``layout`` is a ``LAYOUT_*`` constant (AS_LOADED keeps tensors where
        they are; ONE_FILE and PER_TENSOR move tensors of at least
        ``threshold`` bytes to external data; INLINE merges all inline).
        ``threshold`` defaults to ``SAVE_DEFAULT_THRESHOLD``; ``flags`` is an
        OR of ``SAVE_*`` flags. The file is replaced atomically.
        """
        opts = SaveOptions()
        _check(lib.onnxslim_save_options_init(ctypes.byref(opts), _C["SAVE_OPTIONS_VERSION"]))
        opts.layout = layout
        opts.flags = flags
        if threshold is not None:
            opts.size_threshold = threshold
        report = ctypes.c_void_p()
        _check(lib.onnxslim_save(ctypes.byref(report), self._ptr(), _path(path),
                                 ctypes.byref(opts)))
        lib.onnxslim_save_report_free(report)

    def save_bytes(self):
        """The model serialized as bytes, tensors as loaded (onnxslim_save_buffer())."""
        ptr = self._ptr()
        size = ctypes.c_size_t()
        rc = lib.onnxslim_save_buffer(ptr, None, 0, ctypes.byref(size))
        if rc != _C["EBUFSIZE"]:
            _check(rc)
        buf = ctypes.create_string_buffer(max(size.value, 1))
        _check(lib.onnxslim_save_buffer(ptr, buf, len(buf), ctypes.byref(size)))
        return buf.raw[:size.value]
