# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Type conversion (onnxslim/convert.h): Model.convert(), its report, and convert_values()."""

from __future__ import annotations

import ctypes
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence,
                    Tuple, Union)

from . import _args, _base, _progress
from ._constants import CONSTANTS as _C
from ._errors import NotFound, _check, _need, _str
from ._lib import ConvertOptions, ConvertStats as _CStats, QuantStats as _QStats, lib

if TYPE_CHECKING:
    from ._model import Model
    from ._progress import ProgressCallback


class ConvertStats(NamedTuple):
    """What a conversion did to the values (onnxslim_convert_stats).

    ``count`` elements converted; ``to_inf`` finite inputs that became
    +-Inf; ``saturated`` inputs that became the largest finite value
    (``saturate=True``); ``flushed`` nonzero inputs that became +-0; ``nan``
    NaN inputs; ``max_abs_error`` and ``max_rel_error`` over the finite
    inputs with finite results.
    """

    count: int  # type: ignore[assignment]  # a field, as collections.namedtuple allows
    to_inf: int
    saturated: int
    flushed: int
    nan: int
    max_abs_error: float
    max_rel_error: float

    @classmethod
    def _from_c(cls, st: Any) -> ConvertStats:
        return cls(st.count, st.to_inf, st.saturated, st.flushed, st.nan, st.max_abs_error,
                   st.max_rel_error)


class QuantStats(NamedTuple):
    """What quantizing one tensor to INT8 or INT4 did (onnxslim_quant_stats):
    ``bits``, ``block_size`` (values per scale), ``rows``, ``blocks``,
    ``saturated`` (always 0: the scales prevent it), the range of the scales
    of blocks not all zero, the largest absolute error of a dequantized
    value, the largest relative error of a row (||error|| / ||row||) and the
    number of rows whose relative error exceeds 1%."""

    bits: int
    block_size: int
    rows: int
    blocks: int
    saturated: int
    scale_min: float
    scale_max: float
    max_abs_error: float
    max_row_rel_error: float
    rows_over_1pct: int

    @classmethod
    def _from_c(cls, q: Any) -> QuantStats:
        return cls(q.bits, q.block_size, q.rows, q.blocks, q.saturated, q.scale_min, q.scale_max,
                   q.max_abs_error, q.max_row_rel_error, q.rows_over_1pct)


class ConvertEntry(NamedTuple):
    """One converted tensor: its value name, the data type names before and
    after (e.g. "FLOAT", "BFLOAT16"), its byte sizes before and after, and its
    :class:`ConvertStats` (only ``count`` is set when the conversion ran with
    ``stats=False``); ``quant``, a :class:`QuantStats` for a tensor quantized
    to INT8 or INT4 (else None)."""

    name: str
    from_dtype: str
    to_dtype: str
    bytes_before: int
    bytes_after: int
    stats: ConvertStats
    quant: Optional[QuantStats] = None


class KeptEntry(NamedTuple):
    """A tensor the conversion kept in its type because some of its values
    are out of the target type's range (``force=False``, the default): its
    value name, its data type name, and a :class:`ConvertStats` of what
    converting it would have done (``to_inf``, or ``saturated`` with
    ``saturate=True``, is not 0)."""

    name: str
    dtype: str
    stats: ConvertStats


class ConvertNote(NamedTuple):
    """What the converted model will do at run time that the caller should
    know (onnxslim_convert_report_note_*()): not an error, the conversion
    succeeded.

    ``code``, a ``CONVERT_NOTE_*`` constant, and ``code_name``, its stable
    name: ``"fold_back"`` (a FLOAT16/BFLOAT16 initializer that only Casts
    to FLOAT read: onnxruntime folds it back into a FLOAT initializer when a
    session is created, so the saving is on disk only),
    ``"storage_only_read"`` or ``"storage_only_gather"`` (``policy=
    "storage-only"``: a node reads the converted tensor where its old type
    is expected; runtimes refuse the model). ``name``, the tensor's value
    name; ``op`` and ``node``, the op type and name (``""`` when unnamed) of
    the node that reads it; ``input``, the input at which it does (None
    when it reads it inside a subgraph); ``bytes``, the tensor's stored
    size; ``message``, one sentence for people.
    """

    code: int
    code_name: str
    name: str
    op: str
    node: str
    input: Optional[int]
    bytes: int
    message: str


class ConvertReport(_base._Entries[ConvertEntry]):
    """The report of :meth:`Model.convert`: a sequence of :class:`ConvertEntry`,
    one per converted tensor, plus totals; :attr:`kept` lists the tensors
    kept in their type."""

    def __init__(self, entries: Iterable[ConvertEntry], stats: ConvertStats, has_stats: bool,
                 kept: Iterable[KeptEntry] = (),
                 notes: Iterable[ConvertNote] = ()) -> None:
        self._entries = list(entries)
        self._stats = stats
        self._has_stats = has_stats
        self._kept = list(kept)
        self._notes = list(notes)

    @property
    def notes(self) -> List[ConvertNote]:
        """What the converted model will do at run time, a list of
        :class:`ConvertNote`: the storage-only notes first, then the
        fold-back notes; empty when there is nothing to say."""
        return list(self._notes)

    @property
    def kept(self) -> List[KeptEntry]:
        """The tensors kept in their type (values out of the target type's
        range), a list of :class:`KeptEntry`; empty with ``force=True``."""
        return list(self._kept)

    @property
    def entries(self) -> List[ConvertEntry]:
        """The entries, a list of :class:`ConvertEntry`."""
        return list(self._entries)

    @property
    def stats(self) -> ConvertStats:
        """The totals over all entries, a :class:`ConvertStats` (counts added, maxima of the
        errors); only ``count`` is set with ``stats=False``."""
        return self._stats

    @property
    def has_stats(self) -> bool:
        """False when the conversion ran with ``stats=False`` (no statistics pass)."""
        return self._has_stats

    @property
    def bytes_before(self) -> int:
        """Total bytes of the converted tensors before the conversion."""
        return sum(e.bytes_before for e in self._entries)

    @property
    def bytes_after(self) -> int:
        """Total bytes of the converted tensors after the conversion."""
        return sum(e.bytes_after for e in self._entries)

    def names(self) -> List[str]:
        """The names of the converted tensors (list of str)."""
        return [e.name for e in self._entries]

    def __repr__(self) -> str:
        return "<libonnxslim.ConvertReport %d tensors, %d -> %d bytes>" % (
            len(self), self.bytes_before, self.bytes_after)


_POLICIES = {
    "cast-after-gather": "CONVERT_POLICY_CAST_AFTER_GATHER",
    "cast-before": "CONVERT_POLICY_CAST_BEFORE",
    "storage-only": "CONVERT_POLICY_STORAGE_ONLY",
}


def _policy(value: Union[None, str, int]) -> int:
    if value is None:
        return _C["CONVERT_POLICY_CAST_AFTER_GATHER"]
    if isinstance(value, str):
        key = _POLICIES.get(value.lower().replace("_", "-"))
        if key is None:
            raise ValueError("unknown policy %r (expected cast-after-gather, cast-before or "
                             "storage-only)" % value)
        return _C[key]
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # a CONVERT_POLICY_* constant; the library checks it
    raise TypeError("policy must be a name or CONVERT_POLICY_* value, not %r" % (value,))


def kernel_flags(rounding: str, saturate: bool, flush_subnormals: bool) -> int:
    """ONNXSLIM_CONVERT_* flags from the keyword arguments."""
    if rounding not in ("nearest", "truncate"):
        raise ValueError("rounding must be 'nearest' or 'truncate', not %r" % (rounding,))
    flags = _C["CONVERT_TRUNCATE"] if rounding == "truncate" else 0
    if _args.flag(saturate, "saturate"):
        flags |= _C["CONVERT_SATURATE"]
    if _args.flag(flush_subnormals, "flush_subnormals"):
        flags |= _C["CONVERT_FLUSH_SUBNORMALS"]
    return flags


def _specs(values: Union[str, Sequence[str]], what: str) -> Tuple[Any, int]:
    if isinstance(values, str):
        values = [values]
    arr, n = _args.names(values, what)
    for i in range(n):
        if not arr[i]:
            raise ValueError("%s entries must not be empty" % what)
    return arr, n


def _report(rep: Any, has_stats: bool) -> ConvertReport:
    entries: List[ConvertEntry] = []
    total = _CStats()
    _check(lib.onnxslim_convert_stats_init(ctypes.byref(total), _C["CONVERT_STATS_VERSION"]))
    for i in range(lib.onnxslim_convert_report_count(rep)):
        name = _str(_need(lib.onnxslim_convert_report_name(rep, i)))
        before, after = ctypes.c_uint64(), ctypes.c_uint64()
        _check(lib.onnxslim_convert_report_bytes_before(rep, i, ctypes.byref(before)))
        _check(lib.onnxslim_convert_report_bytes_after(rep, i, ctypes.byref(after)))
        st = _CStats()
        _check(lib.onnxslim_convert_stats_init(ctypes.byref(st), _C["CONVERT_STATS_VERSION"]))
        _check(lib.onnxslim_convert_report_add_stats(rep, i, ctypes.byref(st)))
        _check(lib.onnxslim_convert_report_add_stats(rep, i, ctypes.byref(total)))
        q = _QStats()
        q.version = _C["QUANT_STATS_VERSION"]
        quant = None
        if lib.onnxslim_quant_report_stats(rep, i, ctypes.byref(q)) == 0:
            quant = QuantStats._from_c(q)
        lib.onnxslim_error_clear()
        entries.append(ConvertEntry(
            name, _args.dtype_name(lib.onnxslim_convert_report_from(rep, i)),
            _args.dtype_name(lib.onnxslim_convert_report_to(rep, i)), before.value, after.value,
            ConvertStats._from_c(st), quant))
    kept: List[KeptEntry] = []
    for i in range(lib.onnxslim_convert_report_kept_count(rep)):
        name = _str(_need(lib.onnxslim_convert_report_kept_name(rep, i)))
        st = _CStats()
        _check(lib.onnxslim_convert_stats_init(ctypes.byref(st), _C["CONVERT_STATS_VERSION"]))
        _check(lib.onnxslim_convert_report_kept_add_stats(rep, i, ctypes.byref(st)))
        kept.append(KeptEntry(name, _args.dtype_name(lib.onnxslim_convert_report_kept_from(rep, i)),
                              ConvertStats._from_c(st)))
    notes = []
    for i in range(lib.onnxslim_convert_report_note_count(rep)):
        code = _check(lib.onnxslim_convert_report_note_code(rep, i))
        nbytes, pos = ctypes.c_uint64(), ctypes.c_size_t()
        _check(lib.onnxslim_convert_report_note_bytes(rep, i, ctypes.byref(nbytes)))
        rc = lib.onnxslim_convert_report_note_input(rep, i, ctypes.byref(pos))
        if rc == _C["ENOTFOUND"]:
            lib.onnxslim_error_clear()  # read inside a subgraph: no input of its own
        else:
            _check(rc)
        notes.append(ConvertNote(
            code, _str(_need(lib.onnxslim_convert_note_code_name(code))),
            _str(_need(lib.onnxslim_convert_report_note_name(rep, i))),
            _str(_need(lib.onnxslim_convert_report_note_op(rep, i))),
            _str(_need(lib.onnxslim_convert_report_note_node(rep, i))),
            None if rc else pos.value, nbytes.value,
            _str(_need(lib.onnxslim_convert_report_note_message(rep, i)))))
    return ConvertReport(entries, ConvertStats._from_c(total), has_stats, kept, notes)


_FORMATS = {"standard": "QUANT_FORMAT_STANDARD", "ort": "QUANT_FORMAT_ORT",
            "nibbles": "QUANT_FORMAT_NIBBLES"}


def _empty_report(want_stats: bool) -> ConvertReport:
    """The report of a conversion that found nothing to convert."""
    return ConvertReport([], ConvertStats(0, 0, 0, 0, 0, 0.0, 0.0), want_stats)


def convert(model: Model, to: Optional[_args.DType] = None,
            gather_to: Optional[_args.DType] = None, select: Union[str, Sequence[str]] = (),
            exclude: Union[str, Sequence[str]] = (), min_size: int = 0,
            policy: Union[None, str, int] = None, rounding: str = "nearest",
            saturate: bool = False, flush_subnormals: bool = False, stats: bool = True,
            progress: Optional[ProgressCallback] = None, block_size: int = 0,
            format: str = "standard", scales: Optional[_args.DType] = None,
            allow_unpacked: bool = False, asymmetric: bool = False,
            clip_percentile: float = 0, force: bool = False,
            quantize: Optional[Callable[..., ConvertReport]] = None,
            scale_method: str = "default") -> ConvertReport:
    """Model.convert(); see there. ``quantize`` is what INT8 and INT4 targets
    go to (_quant.quantize, handed in by Model.convert(): this module sits
    below _quant)."""
    m = model._ptr()
    if (to is None) == (gather_to is None):
        raise ValueError("give exactly one of to= and gather_to=")
    target = _args.dtype(to if to is not None else gather_to, "to" if to is not None else
                         "gather_to")
    quant = target in (_C["DTYPE_INT8"], _C["DTYPE_INT4"])
    if format not in _FORMATS:
        raise ValueError("format must be 'standard', 'ort' or 'nibbles', not %r" % (format,))
    if (isinstance(clip_percentile, bool) or not isinstance(clip_percentile, (int, float)) or
            not (clip_percentile == 0 or 0 < clip_percentile < 100)):
        raise ValueError("clip_percentile must be 0 (no clipping) or a number above 0 and "
                         "below 100, not %r" % (clip_percentile,))
    if not quant and (block_size or format != "standard" or scales is not None or
                      allow_unpacked or asymmetric or clip_percentile or
                      scale_method != "default"):
        raise ValueError("block_size, format, scales, allow_unpacked, asymmetric, "
                         "clip_percentile and scale_method need INT8 or INT4")
    if gather_to is not None:
        if target not in (_C["DTYPE_BFLOAT16"], _C["DTYPE_FLOAT16"]) and not quant:
            raise ValueError("gather_to must be BFLOAT16, FLOAT16, INT8 or INT4")
        if select:
            raise ValueError("select needs to= (gather_to selects the Gather tables itself)")
    flags = kernel_flags(rounding, saturate, flush_subnormals)
    if flags & _C["CONVERT_TRUNCATE"] and target != _C["DTYPE_BFLOAT16"]:
        # the library would round the other conversions to nearest: refuse, as the CLI does
        raise ValueError("rounding='truncate' applies to conversions to BFLOAT16 only")
    pol = _policy(policy)
    forced = _args.flag(force, "force")
    if forced and quant:
        raise ValueError("force applies to floating-point conversions, not to INT8 or INT4")
    size = _args.uint64(min_size, "min_size")
    want_stats = _args.flag(stats, "stats")
    if quant:
        # onnxslim_quantize(): the tables for gather_to, with the selection
        # op:Gather:0 (a model without a Gather table: an empty report)
        if pol != _C["CONVERT_POLICY_CAST_AFTER_GATHER"]:
            raise ValueError("quantization rewrites the graph itself: the policy must be the "
                             "default (cast-after-gather)")
        if quantize is None:
            raise ValueError("INT8 and INT4 are quantizations: Model.quantize()")
        try:
            return quantize(
                model, target, weights=gather_to is None,
                select=["op:Gather:0"] if gather_to is not None else select, exclude=exclude,
                min_size=min_size, format=format, block_size=block_size, scales=scales,
                allow_unpacked=allow_unpacked, asymmetric=asymmetric,
                clip_percentile=clip_percentile, stats=stats, progress=progress,
                scale_method=scale_method)
        except NotFound:
            if gather_to is None:
                raise
            lib.onnxslim_error_clear()
            return _empty_report(want_stats)
    sel, n_sel = _specs(() if gather_to is not None else select, "select")
    exc, n_exc = _specs(exclude, "exclude")
    rep = ctypes.c_void_p()
    prog = _progress.make(progress, model)
    # one road per job: gather_to, the Gather tables; to, the selection
    opts = ConvertOptions()
    _check(lib.onnxslim_convert_options_init(ctypes.byref(opts),
                                             _C["CONVERT_OPTIONS_VERSION"]))
    opts.to = target
    opts.policy = pol
    opts.flags = flags
    opts.select = sel if n_sel else None
    opts.n_select = n_sel
    opts.min_size = size
    opts.exclude = exc if n_exc else None
    opts.n_exclude = n_exc
    opts.report_flags = 0 if want_stats else _C["CONVERT_REPORT_NO_STATS"]
    opts.overflow = _C["CONVERT_OVERFLOW_CONVERT"] if forced else _C["CONVERT_OVERFLOW_KEEP"]
    if prog:
        prog.attach(opts)
    call = (lib.onnxslim_convert_gather_tables_with if gather_to is not None
            else lib.onnxslim_convert_model)
    rc = call(ctypes.byref(rep), m, ctypes.byref(opts))
    if rc == _C["ENOTFOUND"] and gather_to is not None:
        # all the tables there are, and there are none: not an error (as
        # the CLI), an empty report; the model is unchanged
        lib.onnxslim_error_clear()
        return _empty_report(want_stats)
    if prog:
        try:
            prog.check()
        except BaseException:
            lib.onnxslim_convert_report_free(rep)  # NULL unless the last call raised
            raise
    _check(rc)
    try:
        return _report(rep, want_stats)
    finally:
        lib.onnxslim_convert_report_free(rep)


# ---- the kernels -----------------------------------------------------------------

# (from, to) -> (C function, source element type, destination element type, narrowing)
_KERNELS: Dict[Tuple[str, str], Tuple[str, Any, Any, bool]] = {
    ("FLOAT", "BFLOAT16"): ("onnxslim_convert_f32_to_bf16", ctypes.c_float, ctypes.c_uint16, True),
    ("FLOAT", "FLOAT16"): ("onnxslim_convert_f32_to_f16", ctypes.c_float, ctypes.c_uint16, True),
    ("BFLOAT16", "FLOAT"): ("onnxslim_convert_bf16_to_f32", ctypes.c_uint16, ctypes.c_float, False),
    ("FLOAT16", "FLOAT"): ("onnxslim_convert_f16_to_f32", ctypes.c_uint16, ctypes.c_float, False),
    ("DOUBLE", "FLOAT"): ("onnxslim_convert_f64_to_f32", ctypes.c_double, ctypes.c_float, True),
    ("FLOAT", "DOUBLE"): ("onnxslim_convert_f32_to_f64", ctypes.c_float, ctypes.c_double, False),
    ("FLOAT16", "BFLOAT16"): ("onnxslim_convert_f16_to_bf16", ctypes.c_uint16, ctypes.c_uint16,
                              True),
    ("BFLOAT16", "FLOAT16"): ("onnxslim_convert_bf16_to_f16", ctypes.c_uint16, ctypes.c_uint16,
                              True),
}

_NUMPY_OUT = {"FLOAT": "float32", "DOUBLE": "float64", "FLOAT16": "float16", "BFLOAT16": "uint16"}


def convert_values(data: Any, from_dtype: Optional[_args.DType], to_dtype: _args.DType,
                   rounding: str = "nearest", saturate: bool = False,
                   flush_subnormals: bool = False, stats: bool = False) -> Any:
    """Convert an array of floating-point values with the library's kernels.

    ``data``: a numpy array (``from_dtype`` may then be None: float32 is
    FLOAT, float16 FLOAT16, float64 DOUBLE; BFLOAT16 values are uint16 bit
    patterns and need ``from_dtype="BFLOAT16"``) or bytes (little-endian
    values of ``from_dtype``). Kernels: FLOAT -> BFLOAT16, FLOAT16, DOUBLE;
    BFLOAT16 -> FLOAT, FLOAT16; FLOAT16 -> FLOAT, BFLOAT16; DOUBLE -> FLOAT.
    ``rounding`` ("nearest" ties to even, or "truncate": to BFLOAT16 only),
    ``saturate`` (overflow gives the largest finite value) and
    ``flush_subnormals`` apply to the narrowing kernels; the widening ones
    are exact and take none. Returns a numpy array (float32, float64,
    float16, or uint16 for BFLOAT16) for an array, bytes for bytes; with
    ``stats=True`` a pair (result, :class:`ConvertStats`) (narrowing only).
    """
    np = _args.numpy()
    is_array = _args.is_ndarray(data)
    if from_dtype is None:
        if not is_array:
            raise TypeError("from_dtype is needed for bytes")
        from_dtype = data.dtype
    src_name = _args.dtype_name(_args.dtype(from_dtype, "from_dtype"))
    dst_name = _args.dtype_name(_args.dtype(to_dtype, "to_dtype"))
    kernel = _KERNELS.get((src_name, dst_name))
    if kernel is None:
        raise ValueError("no kernel converts %s to %s" % (src_name, dst_name))
    fname, src_t, dst_t, narrowing = kernel
    flags = kernel_flags(rounding, saturate, flush_subnormals)
    want_stats = _args.flag(stats, "stats")
    if not narrowing and (flags or want_stats):
        raise ValueError("%s -> %s is exact: rounding, saturate, flush_subnormals and stats do "
                         "not apply" % (src_name, dst_name))
    if is_array and data.dtype.newbyteorder("=") != np.dtype(_NUMPY_OUT[src_name]):
        raise TypeError("a %s array does not hold %s values (expected %s)"
                        % (data.dtype, src_name, _NUMPY_OUT[src_name]))
    buf = _args.buffer(data)
    size = ctypes.sizeof(src_t)
    if buf.size % size:
        raise ValueError("%d bytes are not a whole number of %s values" % (buf.size, src_name))
    n = buf.size // size
    if is_array:
        result = np.empty(data.shape, dtype=_NUMPY_OUT[dst_name])
        dst = result.ctypes.data_as(ctypes.POINTER(dst_t))
    else:
        out = ctypes.create_string_buffer(max(n * ctypes.sizeof(dst_t), 1))
        dst = ctypes.cast(out, ctypes.POINTER(dst_t))
    fn = getattr(lib, fname)
    src = ctypes.cast(buf.ptr, ctypes.POINTER(src_t))
    st = None
    if narrowing:
        if want_stats:
            st = _CStats()
            _check(lib.onnxslim_convert_stats_init(ctypes.byref(st),
                                                   _C["CONVERT_STATS_VERSION"]))
        _check(fn(dst, src, n, flags, ctypes.byref(st) if st is not None else None))
    else:
        _check(fn(dst, src, n))
    if not is_array:
        result = out.raw[:n * ctypes.sizeof(dst_t)]
    return (result, ConvertStats._from_c(st)) if want_stats else result
