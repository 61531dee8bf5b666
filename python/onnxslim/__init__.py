"""libonnxslim from Python, through ctypes (nothing to compile).

Load a model with :func:`load`; read its graph through :class:`Model`,
:class:`Graph`, :class:`Node` and :class:`Tensor`; check, fingerprint and
save it. Every failure of the C library raises :class:`Error` (or one of its
subclasses, one per error code) carrying the library's message.

Objects borrowed from a model (graphs, nodes, tensors) are valid while the
model is open; using one after :meth:`Model.close` raises :class:`Error`.

``library_path`` says which shared library was loaded, ``__version__`` is the
library's own version string.
"""

import ctypes
import os
import weakref

from . import _constants
from ._constants import *  # noqa: F401,F403  (the ONNXSLIM_* constants)
from ._lib import LoadOptions, SaveOptions, lib, library_path

__all__ = ["load", "Model", "Graph", "Node", "Tensor", "Error", "library_path",
           "__version__"] + sorted(_constants.CONSTANTS)

#: The version string of the loaded C library, e.g. "0.1.0".
__version__ = lib.onnxslim_version_string().decode()

_C = _constants.CONSTANTS


def _str(raw):
    """A borrowed C string as str (bytes that are not UTF-8 are kept, escaped)."""
    return raw.decode("utf-8", "surrogateescape")


# ---- errors --------------------------------------------------------------


class Error(Exception):
    """A failure reported by libonnxslim.

    ``code`` is the library's error code (an ``E*`` constant, negative),
    ``message`` the library's message (onnxslim_error_last()).
    """

    def __init__(self, code, message):
        Exception.__init__(self, code, message)
        self.code = code
        self.message = message

    def __str__(self):
        return "%s (%s)" % (self.message, _str(lib.onnxslim_strerror(self.code)))


class InvalidArgument(Error):
    """ONNXSLIM_EINVAL: an argument is invalid, or the model is closed."""


class OutOfMemory(Error):
    """ONNXSLIM_ENOMEM: memory allocation failed."""


class IoError(Error):
    """ONNXSLIM_EIO: an operating-system call failed."""


class ParseError(Error):
    """ONNXSLIM_EPARSE: the bytes are not a well-formed ONNX protobuf message."""


class LimitError(Error):
    """ONNXSLIM_ELIMIT: a limit (depth, size, count) was exceeded."""


class NotFound(Error):
    """ONNXSLIM_ENOTFOUND: a looked-up item does not exist."""


class RangeError(Error):
    """ONNXSLIM_ERANGE: an index is out of range."""


class Unsupported(Error):
    """ONNXSLIM_EUNSUPPORTED: the operation is not supported for this input."""


class BufferTooSmall(Error):
    """ONNXSLIM_EBUFSIZE: a buffer is too small."""


class ModelError(Error):
    """ONNXSLIM_EMODEL: the model is well-formed protobuf but semantically invalid."""


class TypeMismatch(Error):
    """ONNXSLIM_ETYPE: the item has another type than the one asked for."""


class NoSpace(Error):
    """ONNXSLIM_ENOSPC: no space left on the device, or the file-size limit."""


_ERRORS = {
    _C["EINVAL"]: InvalidArgument,
    _C["ENOMEM"]: OutOfMemory,
    _C["EIO"]: IoError,
    _C["EPARSE"]: ParseError,
    _C["ELIMIT"]: LimitError,
    _C["ENOTFOUND"]: NotFound,
    _C["ERANGE"]: RangeError,
    _C["EUNSUPPORTED"]: Unsupported,
    _C["EBUFSIZE"]: BufferTooSmall,
    _C["EMODEL"]: ModelError,
    _C["ETYPE"]: TypeMismatch,
    _C["ENOSPC"]: NoSpace,
}
__all__ += [cls.__name__ for cls in _ERRORS.values()]


def _error(code=None):
    """The exception for `code` (default: the last error), with the library's message."""
    if code is None:
        code = lib.onnxslim_error_last_code()
    message = _str(lib.onnxslim_error_last()) or _str(lib.onnxslim_strerror(code))
    return _ERRORS.get(code, Error)(code, message)


def _check(rc):
    if rc < 0:
        raise _error(rc)
    return rc


def _need(ptr):
    """A returned pointer or C string; NULL means the call failed."""
    if ptr is None:
        raise _error()
    return ptr


# ---- model ---------------------------------------------------------------


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
        opts.base_dir = os.fsencode(base_dir)
    handle = ctypes.c_void_p()
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        data = bytes(path_or_bytes)
        rc = lib.onnxslim_model_from_buffer(ctypes.byref(handle), data, len(data), _C["COPY"],
                                            ctypes.byref(opts))
    elif isinstance(path_or_bytes, (str, os.PathLike)):
        rc = lib.onnxslim_model_open(ctypes.byref(handle), os.fsencode(path_or_bytes),
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
        return Graph(self, _need(lib.onnxslim_model_graph(self._ptr())))

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
        _check(lib.onnxslim_save(ctypes.byref(report), self._ptr(), os.fsencode(path),
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


class _Borrowed:
    """An object borrowed from a model: valid while the model is open."""

    __slots__ = ("_model", "_handle")

    def __init__(self, model, handle):
        self._model = model
        self._handle = handle

    def _ptr(self):
        self._model._ptr()
        return self._handle

    @property
    def model(self):
        """The :class:`Model` this object belongs to."""
        return self._model


class Graph(_Borrowed):
    """A graph of a model (borrowed from it)."""

    __slots__ = ()

    @property
    def name(self):
        """The graph's name ("" when absent)."""
        return _str(_need(lib.onnxslim_graph_name(self._ptr())))

    @property
    def nodes(self):
        """The nodes in stored order, a list of :class:`Node`."""
        g = self._ptr()
        return [Node(self._model, _need(lib.onnxslim_graph_node(g, i)))
                for i in range(lib.onnxslim_graph_node_count(g))]

    def _value_names(self, count, get):
        g = self._ptr()
        return [_str(_need(lib.onnxslim_value_info_name(_need(get(g, i)))))
                for i in range(count(g))]

    @property
    def inputs(self):
        """The names of the graph inputs (list of str)."""
        return self._value_names(lib.onnxslim_graph_input_count, lib.onnxslim_graph_input)

    @property
    def outputs(self):
        """The names of the graph outputs (list of str)."""
        return self._value_names(lib.onnxslim_graph_output_count, lib.onnxslim_graph_output)

    @property
    def initializers(self):
        """The (dense) initializers, a list of :class:`Tensor`."""
        g = self._ptr()
        return [Tensor(self._model, _need(lib.onnxslim_graph_initializer(g, i)))
                for i in range(lib.onnxslim_graph_initializer_count(g))]

    def __repr__(self):
        return "<onnxslim.Graph %r>" % (self.name if not self._model.closed else "(closed)")


class Node(_Borrowed):
    """A node of a graph (borrowed from its model)."""

    __slots__ = ()

    @property
    def name(self):
        """The node's name ("" when absent)."""
        return _str(_need(lib.onnxslim_node_name(self._ptr())))

    @property
    def op_type(self):
        """The operator, e.g. "MatMul"."""
        return _str(_need(lib.onnxslim_node_op_type(self._ptr())))

    @property
    def domain(self):
        """The operator's domain ("" for the default ONNX domain)."""
        return _str(_need(lib.onnxslim_node_domain(self._ptr())))

    @property
    def inputs(self):
        """Input value names (list of str; "" for an omitted optional input)."""
        n = self._ptr()
        return [_str(_need(lib.onnxslim_node_input(n, i)))
                for i in range(lib.onnxslim_node_input_count(n))]

    @property
    def outputs(self):
        """Output value names (list of str)."""
        n = self._ptr()
        return [_str(_need(lib.onnxslim_node_output(n, i)))
                for i in range(lib.onnxslim_node_output_count(n))]

    def __repr__(self):
        if self._model.closed:
            return "<onnxslim.Node (closed)>"
        return "<onnxslim.Node %s %r>" % (self.op_type, self.name)


class Tensor(_Borrowed):
    """A dense tensor (initializer), borrowed from its model."""

    __slots__ = ()

    @property
    def name(self):
        """The tensor's name."""
        return _str(_need(lib.onnxslim_tensor_name(self._ptr())))

    @property
    def dtype(self):
        """The data type's name, e.g. "FLOAT", "INT64" (onnxslim_dtype_name())."""
        return _str(lib.onnxslim_dtype_name(lib.onnxslim_tensor_dtype(self._ptr())))

    @property
    def shape(self):
        """The dims, a tuple of int (() for a scalar)."""
        t = self._ptr()
        return tuple(lib.onnxslim_tensor_dim(t, i) for i in range(lib.onnxslim_tensor_rank(t)))

    def tobytes(self):
        """The data as packed little-endian bytes (a copy; raises for STRING tensors)."""
        t = self._ptr()
        data = ctypes.c_void_p()
        size = ctypes.c_size_t()
        _check(lib.onnxslim_tensor_data(t, ctypes.byref(data), ctypes.byref(size)))
        if size.value == 0:
            return b""
        return ctypes.string_at(data.value, size.value)

    def __repr__(self):
        if self._model.closed:
            return "<onnxslim.Tensor (closed)>"
        return "<onnxslim.Tensor %r %s %s>" % (self.name, self.dtype, self.shape)
