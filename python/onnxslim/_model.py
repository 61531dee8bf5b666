"""Loading models and the :class:`Model` handle."""

import ctypes
import os
import weakref

from . import _function, _graph
from ._constants import CONSTANTS as _C
from ._errors import InvalidArgument, _check, _need, _str
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
    :class:`InvalidArgument`. While a numpy view of its data
    (:meth:`Tensor.numpy`) is alive the model stays open: close raises
    BufferError.
    """

    def __init__(self, handle):
        self._handle = handle
        self._finalizer = weakref.finalize(self, lib.onnxslim_model_free, handle)
        self._views = weakref.WeakValueDictionary()  # id -> buffer behind Tensor.numpy()

    def _ptr(self):
        if not self._finalizer.alive:
            raise InvalidArgument(_C["EINVAL"], "the model is closed")
        return self._handle

    @property
    def closed(self):
        """True once :meth:`close` ran."""
        return not self._finalizer.alive

    def close(self):
        """Free the model now (idempotent). Borrowed objects become unusable.

        Raises BufferError, leaving the model open, while numpy arrays that
        view its memory (from :meth:`Tensor.numpy`) are alive; drop them first.
        """
        if self._finalizer.alive and len(self._views):
            raise BufferError("cannot close the model: %d numpy view(s) of its tensor data "
                              "are alive" % len(self._views))
        self._finalizer()

    def __enter__(self):
        self._ptr()
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            self.close()
        except BufferError:
            # numpy views outlive the block; while another exception is on its
            # way out, report that one (the model is freed with the last view)
            if exc_type is None:
                raise
        return False

    @property
    def ir_version(self):
        """The model's ir_version (0 when absent)."""
        return lib.onnxslim_model_ir_version(self._ptr())

    @property
    def opsets(self):
        """The opset_import entries, a dict domain -> version ("" = the ONNX domain)."""
        return _function._opsets(self._ptr(), lib.onnxslim_model_opset_count,
                                 lib.onnxslim_model_opset)

    @property
    def producer_name(self):
        """producer_name ("" when absent)."""
        return _str(_need(lib.onnxslim_model_producer_name(self._ptr())))

    @property
    def producer_version(self):
        """producer_version ("" when absent)."""
        return _str(_need(lib.onnxslim_model_producer_version(self._ptr())))

    @property
    def domain(self):
        """The model's domain ("" when absent)."""
        return _str(_need(lib.onnxslim_model_domain(self._ptr())))

    @property
    def model_version(self):
        """model_version (0 when absent)."""
        return lib.onnxslim_model_version(self._ptr())

    @property
    def doc_string(self):
        """The model's doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_model_doc_string(self._ptr())))

    @property
    def metadata(self):
        """metadata_props, a dict key -> value (str), in stored order."""
        m = self._ptr()
        key = ctypes.c_char_p()
        value = ctypes.c_char_p()
        out = {}
        for i in range(lib.onnxslim_model_metadata_count(m)):
            _check(lib.onnxslim_model_metadata(m, i, ctypes.byref(key), ctypes.byref(value)))
            out[_str(key.value or b"")] = _str(value.value or b"")
        return out

    @property
    def functions(self):
        """The model-local functions, a list of :class:`Function`."""
        m = self._ptr()
        return [_function.Function(self, _need(lib.onnxslim_model_function(m, i)))
                for i in range(lib.onnxslim_model_function_count(m))]

    @property
    def files(self):
        """The files the model reads (list of str): the model file first when it
        was loaded from a path (as given), then each external-data file (absolute)."""
        m = self._ptr()
        return [os.fsdecode(_need(lib.onnxslim_model_file(m, i)))
                for i in range(lib.onnxslim_model_file_count(m))]

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
