# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Quantization to INT8 and INT4 (onnxslim/quant.h): Model.quantize()."""

import ctypes
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from . import _args, _progress
from ._constants import CONSTANTS as _C
from ._convert import _FORMATS, ConvertReport, _report, _specs
from ._errors import _check
from ._lib import QuantOptions, lib


_SCALE_METHODS = {"default": "QUANT_SCALES_DEFAULT", "mse": "QUANT_SCALES_MSE",
                  "absmax": "QUANT_SCALES_ABSMAX"}


def quantize(model: Any, to: Union[str, int] = "int8", *, tables: bool = True,
             weights: bool = True, select: Union[str, Sequence[str]] = (),
             exclude: Union[str, Sequence[str]] = (), min_size: int = 0,
             format: str = "standard", block_size: int = 0,
             scales: Optional[Union[str, int]] = None, allow_unpacked: bool = False,
             asymmetric: bool = False, clip_percentile: float = 0, stats: bool = True,
             progress: Optional[Callable[[int, int], Any]] = None,
             scale_method: str = "default",
             zero_point: Optional[str] = None) -> ConvertReport:
    """Model.quantize(); see there."""
    m = model._ptr()
    target = _args.dtype(to, "to")
    if target not in (_C["DTYPE_INT8"], _C["DTYPE_INT4"]):
        raise ValueError("to must be INT8 or INT4, not %r" % (to,))
    if format not in _FORMATS:
        raise ValueError("format must be 'standard', 'ort' or 'nibbles', not %r" % (format,))
    if (isinstance(clip_percentile, bool) or not isinstance(clip_percentile, (int, float)) or
            not (clip_percentile == 0 or 0 < clip_percentile < 100)):
        raise ValueError("clip_percentile must be 0 (no clipping) or a number above 0 and "
                         "below 100, not %r" % (clip_percentile,))
    if scale_method not in _SCALE_METHODS:
        raise ValueError("scale_method must be 'default', 'mse' or 'absmax', not %r"
                         % (scale_method,))
    if zero_point not in (None, "int", "float"):
        raise ValueError("zero_point must be None (the default), 'int' or 'float', not %r"
                         % (zero_point,))
    if zero_point == "int" and scale_method == "default":
        # the default gives INT4 MatMulNBits weights float zero points: not those
        scale_method = "absmax"
    targets = ((_C["QUANT_TABLES"] if _args.flag(tables, "tables") else 0) |
               (_C["QUANT_WEIGHTS"] if _args.flag(weights, "weights") else 0))
    if not targets:
        raise ValueError("tables=False and weights=False: nothing to quantize")
    want_stats = _args.flag(stats, "stats")
    sel, n_sel = _specs(select, "select")
    exc, n_exc = _specs(exclude, "exclude")
    opts = QuantOptions()
    _check(lib.onnxslim_quant_options_init(ctypes.byref(opts), _C["QUANT_OPTIONS_VERSION"]))
    opts.to = target
    opts.targets = targets
    opts.flags = ((_C["QUANT_ALLOW_UNPACKED"] if _args.flag(allow_unpacked, "allow_unpacked")
                   else 0) |
                  (_C["QUANT_ASYMMETRIC"] if _args.flag(asymmetric, "asymmetric") else 0) |
                  (_C["QUANT_FLOAT_ZERO_POINTS"] if zero_point == "float" else 0))
    opts.select = sel if n_sel else None
    opts.n_select = n_sel
    opts.exclude = exc if n_exc else None
    opts.n_exclude = n_exc
    opts.min_size = _args.uint64(min_size, "min_size")
    opts.format = _C[_FORMATS[format]]
    opts.block_size = _args.uint64(block_size, "block_size")
    opts.scale_type = 0 if scales is None else _args.dtype(scales, "scales")
    opts.clip_percentile = float(clip_percentile)
    opts.scale_method = _C[_SCALE_METHODS[scale_method]]
    opts.report_flags = 0 if want_stats else _C["QUANT_REPORT_NO_STATS"]
    prog = _progress.make(progress, model)
    if prog:
        prog.attach(opts)
    rep = ctypes.c_void_p()
    rc = lib.onnxslim_quantize(ctypes.byref(rep), m, ctypes.byref(opts))
    if prog:
        try:
            prog.check()
        except BaseException:
            lib.onnxslim_quant_report_free(rep)  # NULL unless the last call raised
            raise
    _check(rc)
    try:
        return _report(rep, want_stats)
    finally:
        lib.onnxslim_quant_report_free(rep)
