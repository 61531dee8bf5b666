# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Loading models and the :class:`Model` handle."""

from __future__ import annotations

import ctypes
import importlib
import os
import sys
import threading
import weakref
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple,
                    Union)

from . import (_args, _cleanup, _convert, _diff, _function, _graph, _infer, _insert, _progress,
               _quant, _save, _simplify)
from ._base import _busy_error, locked
from ._constants import CONSTANTS as _C
from ._errors import InvalidArgument, _check, _need, _path, _str
from ._lib import CheckOptions, LoadOptions, lib

if TYPE_CHECKING:
    from types import TracebackType

    from ._convert import ConvertReport
    from ._node import Node
    from ._progress import ProgressCallback
    from ._save import SaveReport
    from ._simplify import SimplifyReport

#: A file path: str, bytes or os.PathLike.
PathType = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def load(path_or_bytes: Union[PathType, bytearray, memoryview, Any],
         base_dir: Optional[PathType] = None,
         progress: Optional[ProgressCallback] = None) -> Model:
    """Load a model from a file path or from bytes; returns a :class:`Model`.

    A path (str or os.PathLike) is opened with onnxslim_model_open() (the file
    is mapped, tensors are not copied). Bytes (bytes, bytearray, memoryview)
    are copied by the library, so the caller may drop them afterwards.
    ``base_dir`` is the directory external-data locations are relative to
    (default: the model file's directory; required for bytes whose model has
    external data). Raises :class:`Error` (e.g. :class:`ParseError`,
    :class:`IoError`) on failure.
    ``progress``: a callable ``progress(done, total)``, called as the model
    file (total bytes) is parsed, at most once per MiB; raising in it stops
    the load and the exception propagates (docs/python.md, "Progress").
    An ``onnx.ModelProto`` is loaded from its serialized bytes (a copy; as
    for bytes, ``base_dir`` says where its external data is).
    """
    proto = _proto_bytes(path_or_bytes)
    if proto is not None:
        path_or_bytes = proto
    opts = LoadOptions()
    _check(lib.onnxslim_load_options_init(ctypes.byref(opts), _C["LOAD_OPTIONS_VERSION"]))
    if base_dir is not None:
        opts.base_dir = _path(base_dir)
    prog = _progress.make(progress)
    if prog:
        prog.attach(opts)
    handle = ctypes.c_void_p()
    filename: Optional[str] = None
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        data = bytes(path_or_bytes)
        rc = lib.onnxslim_model_from_buffer(ctypes.byref(handle), data, len(data), _C["COPY"],
                                            ctypes.byref(opts))
    elif isinstance(path_or_bytes, (str, os.PathLike)):
        filename = os.fsdecode(path_or_bytes)
        rc = lib.onnxslim_model_open(ctypes.byref(handle), _path(path_or_bytes),
                                     ctypes.byref(opts))
    else:
        raise TypeError("load() takes a path, bytes or an onnx.ModelProto, not %s"
                        % type(path_or_bytes).__name__)
    if prog:
        try:
            prog.check()
        except BaseException:
            if rc == 0:  # raised in the last call: the load had completed
                lib.onnxslim_model_free(handle.value)
            raise
    _check(rc, filename)
    return Model(_need(handle.value))


def _proto_bytes(obj: object) -> Optional[bytes]:
    """The serialized bytes of an onnx.ModelProto, None for anything else (onnx
    is not imported here: a ModelProto exists only once its user imported it)."""
    onnx = sys.modules.get("onnx")
    model_proto = getattr(onnx, "ModelProto", None)
    if model_proto is None or not isinstance(obj, model_proto):
        return None
    data: bytes = obj.SerializeToString()
    return data


def _onnx() -> Any:
    """The onnx module (ImportError naming the package when it is missing)."""
    try:
        # (through importlib: onnx ships no annotations, type checkers would stop at it)
        onnx = importlib.import_module("onnx")
    except ImportError as exc:
        raise ImportError("libonnxslim: Model.to_onnx() needs onnx, which cannot be imported "
                          "(Debian: apt install python3-onnx); Model.save_bytes() works "
                          "without it") from exc
    return onnx


def _free(handle: int, lock: threading.RLock) -> None:
    """The model's finalizer: frees the handle once no call on it is in flight."""
    with lock:
        lib.onnxslim_model_free(handle)


@locked
class Model:
    """A loaded model; owns its C handle.

    Use it as a context manager (``with libonnxslim.load(p) as m:``) or call
    :meth:`close`; an unreachable model is freed by the garbage collector.
    After close every use of the model and of the objects read from it raises
    :class:`InvalidArgument`. While a numpy view of its data
    (:meth:`Tensor.numpy`) is alive the model stays open: close raises
    BufferError.

    A model and the objects read from it can be used from several threads:
    calls on one model take turns (a lock per model), and close() waits for
    the call in flight. Inside a ``progress`` callback of a call on the model,
    using or closing the model raises RuntimeError (docs/python.md, "Threads").
    """

    def __init__(self, handle: int) -> None:
        self._handle = handle
        #: held around every C call on the model or on a handle borrowed from it
        self._lock = threading.RLock()
        #: > 0 while a progress callback of a call on this model runs
        self._in_callback = 0
        self._finalizer = weakref.finalize(self, _free, handle, self._lock)
        # id -> buffer behind Tensor.numpy()
        self._views: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
        #: The note of the last check() (str, "" when none, see check()).
        self.check_note = ""

    def _check_open(self) -> None:
        if not self._finalizer.alive:
            raise InvalidArgument(_C["EINVAL"], "the model is closed")

    def _ptr(self) -> int:
        """The C handle, for a call made holding self._lock (raises once closed)."""
        if not self._finalizer.alive:
            raise InvalidArgument(_C["EINVAL"], "the model is closed")
        return self._handle

    @property
    def closed(self) -> bool:
        """True once :meth:`close` ran."""
        return not self._finalizer.alive

    def close(self) -> None:
        """Free the model now (idempotent). Borrowed objects become unusable.

        Raises BufferError, leaving the model open, while numpy arrays that
        view its memory (from :meth:`Tensor.numpy`) are alive; drop them first.
        Called from another thread while a call on the model runs, it waits
        for that call to return; called inside a progress callback of a call
        on the model, it raises RuntimeError, leaving the model open.
        """
        with self._lock:
            if self._in_callback:
                raise _busy_error("close")
            if self._finalizer.alive and len(self._views):
                raise BufferError("cannot close the model: %d numpy view(s) of its tensor data "
                                  "(from Tensor.numpy() or np.asarray(tensor)) are alive; copy "
                                  "what you keep with np.array(...) (or .copy()) and `del` the "
                                  "views first" % len(self._views))
            self._finalizer()

    def __enter__(self) -> Model:
        self._check_open()
        return self

    def __exit__(self, exc_type: Optional[type], exc: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        try:
            self.close()
        except BufferError:
            # numpy views outlive the block; while another exception is on its
            # way out, report that one (the model is freed with the last view)
            if exc_type is None:
                raise

    @property
    def ir_version(self) -> int:
        """The model's ir_version (0 when absent)."""
        return lib.onnxslim_model_ir_version(self._ptr())

    @ir_version.setter
    def ir_version(self, version: int) -> None:
        self.set_ir_version(version)

    @property
    def opsets(self) -> Dict[str, int]:
        """The opset_import entries, a dict domain -> version ("" = the ONNX domain)."""
        return _function._opsets(self._ptr(), lib.onnxslim_model_opset_count,
                                 lib.onnxslim_model_opset)

    @property
    def producer_name(self) -> str:
        """producer_name ("" when absent)."""
        return _str(_need(lib.onnxslim_model_producer_name(self._ptr())))

    @producer_name.setter
    def producer_name(self, name: str) -> None:
        self.set_producer(name=name)

    @property
    def producer_version(self) -> str:
        """producer_version ("" when absent)."""
        return _str(_need(lib.onnxslim_model_producer_version(self._ptr())))

    @producer_version.setter
    def producer_version(self, version: str) -> None:
        self.set_producer(version=version)

    @property
    def domain(self) -> str:
        """The model's domain ("" when absent)."""
        return _str(_need(lib.onnxslim_model_domain(self._ptr())))

    @property
    def model_version(self) -> int:
        """model_version (0 when absent)."""
        return lib.onnxslim_model_version(self._ptr())

    @property
    def doc_string(self) -> str:
        """The model's doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_model_doc_string(self._ptr())))

    @doc_string.setter
    def doc_string(self, doc: str) -> None:
        self.set_doc_string(doc)

    @property
    def metadata(self) -> Dict[str, str]:
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
    def functions(self) -> List[_function.Function]:
        """The model-local functions, a list of :class:`Function`."""
        m = self._ptr()
        return [_function.Function(self, _need(lib.onnxslim_model_function(m, i)))
                for i in range(lib.onnxslim_model_function_count(m))]

    @property
    def files(self) -> List[str]:
        """The files the model reads (list of str): the model file first when it
        was loaded from a path (as given), then each external-data file (absolute)."""
        m = self._ptr()
        return [os.fsdecode(_need(lib.onnxslim_model_file(m, i)))
                for i in range(lib.onnxslim_model_file_count(m))]

    def __repr__(self) -> str:
        return "<libonnxslim.Model %s>" % ("closed" if self.closed else "open")

    @property
    def graph(self) -> _graph.Graph:
        """The main :class:`Graph`."""
        return _graph.Graph(self, _need(lib.onnxslim_model_graph(self._ptr())))

    def check(self, skip: Iterable[Union[int, str]] = (),
              verify_checksums: bool = False) -> List[Tuple[int, str, str]]:
        """Problems the library finds (onnxslim_check_with()).

        Returns a list of ``(code, location, message)`` tuples, ``code`` a
        ``CHECK_*`` constant; empty when the model has none. Warnings
        (:func:`check_code_is_warning`, e.g. CHECK_EXTERNAL_LOAD_INPUT) are
        listed too: they leave the model valid. ``skip``: kinds
        not to look for, as ``CHECK_*`` codes or names (``"type_constraint"``,
        see :func:`check_code_name`); an unknown name raises NotFound.
        ``verify_checksums``: also read external data that has a
        ``checksum`` key and report bytes that do not match it
        (``CHECK_CHECKSUM``; ONNXSLIM_CHECK_VERIFY_CHECKSUMS). What
        the check could not do (e.g. schemas of an opset newer than the
        library's tables) is in :attr:`check_note` afterwards.
        """
        codes = [c if isinstance(c, int) else check_code_from_name(c) for c in skip]
        opts = CheckOptions()
        _check(lib.onnxslim_check_options_init(ctypes.byref(opts), _C["CHECK_OPTIONS_VERSION"]))
        arr = (ctypes.c_int * max(1, len(codes)))(*codes)
        opts.skip = ctypes.cast(arr, ctypes.POINTER(ctypes.c_int))
        opts.n_skip = len(codes)
        if verify_checksums:
            opts.flags |= _C["CHECK_VERIFY_CHECKSUMS"]
        report = ctypes.c_void_p()
        _check(lib.onnxslim_check_with(ctypes.byref(report), self._ptr(), ctypes.byref(opts)))
        try:
            out: List[Tuple[int, str, str]] = []
            for i in range(lib.onnxslim_check_report_count(report)):
                out.append((lib.onnxslim_check_report_code(report, i),
                            _str(_need(lib.onnxslim_check_report_location(report, i))),
                            _str(_need(lib.onnxslim_check_report_message(report, i)))))
            self.check_note = _str(_need(lib.onnxslim_check_report_note(report)))
            return out
        finally:
            lib.onnxslim_check_report_free(report)

    def diff(self, other: "Model", storage: bool = False) -> _diff.DiffReport:
        """What differs between this model (A) and ``other`` (B), a
        :class:`DiffReport` (onnxslim_diff()): a list of :class:`DiffEntry`,
        empty when they are equal. ``storage``: also compare where tensor
        bytes are stored (ONNXSLIM_DIFF_COMPARE_STORAGE). A weight that
        ``other`` stores quantized is compared by its dequantized values
        where its graph dequantizes it (``entry.dequantized``). Memory
        counts against this model's max_memory (LimitError)."""
        if not isinstance(other, Model):
            raise TypeError("diff: other must be a Model, not %s" % type(other).__name__)
        return _diff.diff(self._ptr(), other._ptr(), storage)

    def fingerprint(self) -> str:
        """The model's content fingerprint: 32 lowercase hex digits (str)."""
        buf = ctypes.create_string_buffer(_C["FINGERPRINT_SIZE"])
        _check(lib.onnxslim_fingerprint(buf, len(buf), self._ptr()))
        return buf.value.decode()

    def save(self, path: PathType, external_data: Union[None, bool, str] = None,
             threshold: Optional[int] = None, align: Optional[int] = None,
             location: Optional[str] = None, no_fsync: bool = False, allow_large: bool = False,
             constants: bool = False, checksum: bool = False, force_shape_inputs: bool = False,
             keep_storage: bool = False, layout: Optional[int] = None, flags: int = 0,
             progress: Optional[ProgressCallback] = None) -> SaveReport:
        """Save the model to `path`, atomically (onnxslim_save()); returns a :class:`SaveReport`.

        ``external_data`` says where tensor bytes go: None (default) where
        they are (tensors in external data keep their references, the others
        stay inline); "one_file" (or True): tensors of at least ``threshold``
        bytes (default ``SAVE_DEFAULT_THRESHOLD``, 0: all) in one data file,
        ``location`` (relative to the model's directory; default: the file
        name + ".data"), offsets aligned to ``align`` (a power of two, default
        ``SAVE_DEFAULT_ALIGN``); "per_tensor": one data file per tensor;
        False: every tensor inline, external data included (a merge, as
        :meth:`merge`). The keyword flags are the ``SAVE_*`` flags: no_fsync,
        allow_large (a file over 2 GiB), constants (move Constant values out
        too), checksum (write SHA-1 keys), force_shape_inputs (move the
        inputs onnxruntime reads at load out too; it refuses them),
        keep_storage (a tensor goes out exactly when it is external now).
        ``layout`` (a ``LAYOUT_*`` value) and ``flags`` (an OR of ``SAVE_*``)
        are the C options for callers that have them. The in-memory model is
        never changed: save it several ways. ``progress``: a callable
        ``progress(done, total)``, called as the bytes are written (total:
        every byte of the model and data files); raising in it stops the
        save, every file as it was, and the exception propagates.
        """
        return _save.save(self, path, external_data, threshold, align, location, layout, flags,
                          progress=progress, no_fsync=no_fsync, allow_large=allow_large,
                          constants=constants, checksum=checksum,
                          force_shape_inputs=force_shape_inputs, keep_storage=keep_storage)

    def to_onnx(self) -> Any:
        """The model as an ``onnx.ModelProto`` (needs onnx): a copy, parsed from
        :meth:`save_bytes`, so later edits of either do not reach the other.
        Tensors in external data stay references (``data_location``
        EXTERNAL, locations relative to the model's directory):
        ``onnx.load_external_data_for_model(proto, directory)`` reads them,
        or take the proto of a model saved with ``external_data=False``.
        Protobuf's Python parser refuses messages over 2 GiB."""
        proto = _onnx().ModelProto()
        proto.ParseFromString(self.save_bytes())
        return proto

    def save_bytes(self) -> bytes:
        """The model serialized as bytes, tensors as loaded (onnxslim_save_buffer())."""
        ptr = self._ptr()
        size = ctypes.c_size_t()
        rc = lib.onnxslim_save_buffer(ptr, None, 0, ctypes.byref(size))
        if rc != _C["EBUFSIZE"]:
            _check(rc)
        buf = ctypes.create_string_buffer(max(size.value, 1))
        _check(lib.onnxslim_save_buffer(ptr, buf, len(buf), ctypes.byref(size)))
        return buf.raw[:size.value]

    def save_bytes_external(self, external_data: Union[None, bool, str] = "per_tensor",
                            threshold: Optional[int] = None, align: Optional[int] = None,
                            location: Optional[str] = None, allow_large: bool = False,
                            constants: bool = False, force_shape_inputs: bool = False,
                            keep_storage: bool = False, layout: Optional[int] = None,
                            flags: int = 0) -> Tuple[bytes, SaveReport]:
        """The model file :meth:`save` would write with these options, as bytes,
        with no file written (onnxslim_save_buffer_external()): the tensors
        are left out as external data, and the :class:`SaveReport` says where
        each one's bytes belong (``location``, ``offset``, ``length``).
        ``external_data`` is "per_tensor" (the default: each tensor at offset
        0 of a location of its own, its bytes those of ``Tensor.tobytes()``) or
        "one_file" (``location``, default "model.data"); the other keywords
        are :meth:`save`'s (``checksum`` is refused: no data is written). For
        handing a model to a runtime from memory."""
        return _save.save_bytes_external(self, external_data, threshold, align, location, layout,
                                         flags, allow_large=allow_large, constants=constants,
                                         force_shape_inputs=force_shape_inputs,
                                         keep_storage=keep_storage)

    # ---- edits ------------------------------------------------------------------

    def merge(self, path: PathType, allow_large: bool = False, no_fsync: bool = False,
              progress: Optional[ProgressCallback] = None) -> SaveReport:
        """Save with every tensor inline, external data included (``libonnxslim merge``);
        the same as ``save(path, external_data=False)``. Returns a :class:`SaveReport`."""
        return self.save(path, external_data=False, allow_large=allow_large, no_fsync=no_fsync,
                         progress=progress)

    def save_size(self) -> int:
        """The size in bytes of :meth:`save_bytes`' result, computed without serializing."""
        return _save.save_size(self)

    def set_producer(self, name: Optional[str] = None, version: Optional[str] = None) -> None:
        """Set producer_name and/or producer_version (None leaves one unchanged)."""
        _check(lib.onnxslim_model_set_producer(self._ptr(), _args.cstr_or_none(name),
                                               _args.cstr_or_none(version, "version")))

    def set_doc_string(self, doc: str) -> None:
        """Set the model's doc_string."""
        _check(lib.onnxslim_model_set_doc_string(self._ptr(), _args.cstr(doc, "doc")))

    def set_ir_version(self, version: int) -> None:
        """Set ir_version (an int)."""
        _check(lib.onnxslim_model_set_ir_version(self._ptr(), _args.int64(version, "version")))

    def set_opset(self, domain: str, version: int) -> None:
        """Set the opset version imported for `domain` ("" or "ai.onnx": the default
        ONNX domain), adding the import if there is none."""
        _check(lib.onnxslim_model_set_opset(self._ptr(), _args.cstr(domain, "domain"),
                                            _args.int64(version, "version")))

    def remove_opset(self, domain: str) -> None:
        """Remove the opset import of `domain` (:class:`NotFound` if there is none)."""
        _check(lib.onnxslim_model_remove_opset(self._ptr(), _args.cstr(domain, "domain")))

    def set_metadata(self, key: str, value: str) -> None:
        """Set metadata_props[key] = value (both str), adding the key if needed."""
        _check(lib.onnxslim_model_set_metadata(self._ptr(), _args.cstr(key, "key"),
                                               _args.cstr(value, "value")))

    def remove_metadata(self, key: str) -> None:
        """Remove metadata key `key` (:class:`NotFound` if there is none)."""
        _check(lib.onnxslim_model_remove_metadata(self._ptr(), _args.cstr(key, "key")))

    def unique_name(self, base: str) -> str:
        """A name used nowhere in the model (nodes, values, tensors, graphs, functions,
        subgraphs included) and not returned before: `base` if free, else base_N."""
        out = ctypes.c_char_p()
        _check(lib.onnxslim_model_unique_name(self._ptr(), _args.cstr(base, "base"),
                                              ctypes.byref(out)))
        return _str(out.value)

    def insert_after(self, value: str, op_type: str, domain: str = "",
                     consumers: Union[None, Node, Sequence[Node]] = None,
                     fresh_name: Optional[str] = None,
                     graph: Optional[_graph.Graph] = None) -> Node:
        """Insert a node `op_type` with one input and one output on value `value`; returns it.

        The node reads `value` and its consumers (all of them, or the
        :class:`Node` list ``consumers``) read the node's output. When `value`
        has a producer and all consumers are rewired, the new node takes over
        the name `value` (the producer's output is renamed), so graph outputs
        and captures keep reading it. ``fresh_name`` names the new edge (made
        unique; default: generated). ``graph``: a subgraph (default: the main
        graph). Add attributes with :meth:`Node.set_attribute`.
        """
        return _insert.insert_after(self, value, op_type, domain, consumers, fresh_name, graph)

    def insert_before(self, consumer: Node, input_index: int, op_type: str, domain: str = "",
                      fresh_name: Optional[str] = None) -> Node:
        """Insert a node `op_type` before input `input_index` of the :class:`Node` `consumer`:
        the node reads that value and the consumer reads the node's output. Returns the node."""
        return _insert.insert_before(self, consumer, input_index, op_type, domain, fresh_name)

    def insert_cast_after(self, value: str, to: _args.DType,
                          consumers: Union[None, Node, Sequence[Node]] = None,
                          fresh_name: Optional[str] = None,
                          graph: Optional[_graph.Graph] = None) -> Node:
        """:meth:`insert_after` of a Cast to data type `to` (a name such as "FLOAT", or a
        ``DTYPE_*`` value); the value info of the new edge, if any, gets type `to`."""
        return _insert.insert_cast_after(self, value, to, consumers, fresh_name, graph)

    def insert_cast_before(self, consumer: Node, input_index: int, to: _args.DType,
                           fresh_name: Optional[str] = None) -> Node:
        """:meth:`insert_before` of a Cast to data type `to`."""
        return _insert.insert_cast_before(self, consumer, input_index, to, fresh_name)

    def toposort(self, graph: Optional[_graph.Graph] = None, recursive: bool = True) -> None:
        """Sort the nodes topologically (stable: a sorted graph is unchanged); subgraphs too
        unless ``recursive=False``. ``graph``: a subgraph (default: the main graph). A cycle
        raises :class:`ModelError` naming a node on it, leaving the graph unchanged."""
        _cleanup.toposort(self, graph, recursive)

    def remove_unused(self, graph: Optional[_graph.Graph] = None, recursive: bool = True) -> int:
        """Remove nodes whose outputs reach no graph output, then unread initializers, then
        value_info entries of values that are gone; returns how many items were removed.
        Graph inputs and outputs stay."""
        return _cleanup.remove_unused(self, graph, recursive)

    def infer_shapes(self, write: bool = True, strict: bool = False,
                     data_prop: bool = True) -> List[_infer.InferredValue]:
        """Infer the element type and shape (symbolic dims carried) of every value the main
        graph's nodes produce (docs/infer.md); returns one :class:`InferredValue` per value
        with a known type. ``write``: add or complete value_info and graph outputs (else
        only report); an existing type that disagrees is kept and reported as
        ``"conflict"``, or with ``strict=True`` raises :class:`ModelError` with nothing
        written. ``data_prop``: follow the values of shape tensors (Shape -> ... ->
        Reshape)."""
        return _infer.infer_shapes(self, write, strict, data_prop)

    def simplify(self, passes: Union[str, Iterable[str]] = "all", max_iterations: int = 0,
                 progress: Optional[Callable[[int, int], Any]] = None,
                 fold_max_bytes: int = 0) -> "SimplifyReport":
        """Simplify the model in place with exact rewrites (onnxslim_simplify(),
        docs/simplify.md); returns a :class:`SimplifyReport`.

        ``passes``: "all" (default), or "noop", "cse", "fold", "dead" (a comma-separated
        string or a list): remove no-op nodes, merge equal nodes and initializers, fold
        constants (shape and integer operators computed exactly as onnxruntime does; their
        results become initializers), remove dead code. ``fold_max_bytes``: the largest
        tensor folding reads or creates (0: the default, 1 MiB).
        They run over every graph in rounds until one changes nothing (``max_iterations``
        rounds at most; 0: up to 100). Graph inputs and outputs keep their names. A cycle
        or a value defined twice raises :class:`ModelError` before anything changes.
        ``progress``: a callable ``progress(done, total)`` called after each pass run;
        raising in it stops the work (the passes already run stay done) and the exception
        propagates. Handles of removed nodes and initializers become invalid.
        """
        return _simplify.simplify(self, passes, max_iterations, progress, fold_max_bytes)

    def convert(self, to: Optional[_args.DType] = None, gather_to: Optional[_args.DType] = None,
                select: Union[str, Sequence[str]] = (), exclude: Union[str, Sequence[str]] = (),
                min_size: int = 0, policy: Union[None, str, int] = None,
                rounding: str = "nearest", saturate: bool = False,
                flush_subnormals: bool = False, stats: bool = True,
                progress: Optional[ProgressCallback] = None, block_size: int = 0,
                format: str = "standard", scales: Optional[_args.DType] = None,
                allow_unpacked: bool = False, asymmetric: bool = False,
                clip_percentile: float = 0, force: bool = False,
                scale_method: str = "default") -> ConvertReport:
        """Convert floating-point tensors to another type; returns a :class:`ConvertReport`.

        ``gather_to`` ("bf16"/"BFLOAT16" or "fp16"/"FLOAT16"): the published
        recipe, every table read as input 0 of a Gather is converted and a
        Cast back follows each Gather (``libonnxslim convert --gather-to``); a
        model without one gives an empty report, as ``to`` without
        ``select`` finding nothing does.
        ``to`` ("bf16", "fp16", "fp32", "fp64" or the DTYPE_* names/values):
        the tensors ``select`` matches (a list of names, globs, or
        "op:TYPE[:INDEX]" consumer specs; empty: every floating tensor; a spec
        matching nothing raises :class:`NotFound`). Exactly one of the two.
        ``exclude``: specs never converted; ``min_size``: only tensors of at
        least that many bytes. ``policy``: "cast-after-gather" (default),
        "cast-before" or "storage-only" (or a ``CONVERT_POLICY_*`` value); a
        storage-only conversion after which a node would read a type its
        schema does not allow raises :class:`ModelError` (the check's
        location and message), the model unchanged.
        ``rounding``: "nearest" (ties to even) or "truncate" (to BFLOAT16
        only); ``saturate``: overflow gives the largest finite value;
        ``flush_subnormals``: subnormal results become zero. A tensor with
        values out of the target type's range (e.g. a variance of 9.8e7 in
        FLOAT16) keeps its type and is listed in ``ConvertReport.kept``;
        ``force=True`` converts it anyway (Inf, or saturated values). ``stats=False``
        skips the statistics pass of the report. Tensors are converted as
        the model is saved (no second copy of the weights is held).
        ``progress``: a callable ``progress(done, total)``, called as the
        statistics pass reads the tensors (total bytes; only the last call,
        (0, 0), with ``stats=False``); raising in it stops the conversion,
        the model unchanged, and the exception propagates.

        Quantization (docs/quantization.md): ``gather_to`` or ``to`` "int8" or
        "int4" stores the embedding tables (and with ``to``, the selected
        MatMul and Gemm weights) quantized, one scale per row (column) or per
        ``block_size`` values; ``format`` "standard" (ONNX ops), "nibbles"
        (INT4 tables only: packed pairs gathered, unpacked with ONNX ops) or "ort"
        (com.microsoft.GatherBlockQuantized, MatMulNBits); ``scales`` "fp32" or "fp16"
        (default: the table's type); ``allow_unpacked``: INT4 below opset 21
        stored one value per byte as INT8; ``asymmetric``: values unsigned
        with a zero point per block (tables, MatMul and Gemm weights);
        ``clip_percentile`` (0 < p < 100; default 0, no clipping): each block's
        range is at most the p-th percentile (nearest rank) of the tensor's
        magnitudes, values beyond saturate and are counted in
        ``QuantStats.saturated``; ``scale_method`` "default" (0.3.0: float
        zero points for INT4 MatMul and Gemm weights in the "ort" format
        without ``asymmetric`` or a clip, as ``quantize(zero_point="float")``
        writes them; absmax for everything else), "absmax" (from each
        block's largest magnitude, nothing saturates) or "mse" (per block,
        the scale of least squared error among the absmax one shrunk by small
        factors, the largest values then possibly saturating; no block reads
        back worse, the conversion takes longer). Each entry's ``quant`` then holds a
        :class:`QuantStats`.
        """
        return _convert.convert(self, to, gather_to, select, exclude, min_size, policy, rounding,
                                saturate, flush_subnormals, stats, progress, block_size, format,
                                scales, allow_unpacked, asymmetric, clip_percentile, force,
                                quantize=_quant.quantize, scale_method=scale_method)

    def quantize(self, to: Union[str, int] = "int8", *, tables: bool = True,
                 weights: bool = True, select: Union[str, Sequence[str]] = (),
                 exclude: Union[str, Sequence[str]] = (), min_size: int = 0,
                 format: str = "standard", block_size: int = 0,
                 scales: Optional[Union[str, int]] = None, allow_unpacked: bool = False,
                 asymmetric: bool = False, clip_percentile: float = 0, stats: bool = True,
                 progress: Optional[Callable[[int, int], Any]] = None,
                 scale_method: str = "default",
                 zero_point: Optional[str] = None) -> _convert.ConvertReport:
        """Quantize the embedding tables and MatMul and Gemm weights to INT8 or INT4
        (onnxslim_quantize(), docs/quantization.md); returns a :class:`ConvertReport`
        whose entries each hold a :class:`QuantStats` in ``quant``.

        ``tables``/``weights``: which kinds (both by default); ``select``,
        ``exclude``, ``min_size``: as :meth:`convert`; ``format``, ``block_size``,
        ``scales``, ``allow_unpacked``, ``asymmetric``, ``clip_percentile``,
        ``scale_method``, ``stats`` and ``progress``: as the quantization of :meth:`convert`
        (``convert(to="int8", ...)`` calls this). ``zero_point="float"``
        (0.3.0, ``QUANT_FLOAT_ZERO_POINTS``): INT4 MatMul and Gemm weights in
        the "ort" format only (MatMulNBits), asymmetric, each block's scale and
        zero point of the scales' type searched for the least squared error;
        :class:`InvalidArgument` with INT8, another format, a clip percentile
        or a table among the tensors (``tables=False``). ``zero_point=None``
        (the default): what ``scale_method`` "default" gives, these float
        zero points for the INT4 "ort" weights and the tables of the same
        call absmax's scales; ``zero_point="int"``: no float zero points
        (with ``scale_method`` "default", absmax everywhere: integer zero
        points with ``asymmetric``, else none).
        """
        return _quant.quantize(self, to, tables=tables, weights=weights, select=select,
                               exclude=exclude, min_size=min_size, format=format,
                               block_size=block_size, scales=scales,
                               allow_unpacked=allow_unpacked, asymmetric=asymmetric,
                               clip_percentile=clip_percentile, stats=stats, progress=progress,
                               scale_method=scale_method, zero_point=zero_point)


def check_code_name(code: int) -> str:
    """The name of a ``CHECK_*`` code, e.g. ``"type_constraint"``
    (onnxslim_check_code_name()); InvalidArgument for a value that is no
    code."""
    return _str(_need(lib.onnxslim_check_code_name(code)))


def check_code_is_warning(code: int) -> bool:
    """True when problems of ``CHECK_*`` kind ``code`` are warnings (the
    model is valid ONNX, but onnxruntime refuses it: CHECK_EXTERNAL_LOAD_INPUT),
    False for errors (onnxslim_check_code_is_warning()); InvalidArgument
    for a value that is no code."""
    return _check(lib.onnxslim_check_code_is_warning(code)) == 1


def check_code_from_name(name: Union[str, bytes]) -> int:
    """The ``CHECK_*`` code of a name (onnxslim_check_code_from_name());
    NotFound for an unknown name."""
    return _check(lib.onnxslim_check_code_from_name(name.encode() if isinstance(name, str) else name))
