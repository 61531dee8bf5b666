# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Type and shape inference (onnxslim/infer.h): Model.infer_shapes()."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, List, NamedTuple, Optional, Tuple, Union

from . import _args
from ._constants import CONSTANTS as _C
from ._errors import _check
from ._lib import InferOptions, lib

if TYPE_CHECKING:
    from ._model import Model

#: A dimension: a size, a symbol (dim_param) or None (unknown).
Dim = Union[int, str, None]


class InferredValue(NamedTuple):
    """One entry of onnxslim_infer_shapes()'s report."""

    name: str
    #: "new", "refined", "same" or "conflict" (the existing type was kept)
    status: str
    #: ONNXSLIM_DTYPE_* of what inference found (0: unknown)
    dtype: int
    #: None when the rank is unknown
    shape: Optional[Tuple[Dim, ...]]


_STATUS = {_C["INFER_NEW"]: "new", _C["INFER_REFINED"]: "refined", _C["INFER_SAME"]: "same",
           _C["INFER_CONFLICT"]: "conflict"}


def infer_shapes(model: Model, write: bool = True, strict: bool = False,
                 data_prop: bool = True) -> List[InferredValue]:
    """Model.infer_shapes(); see there."""
    flags = 0
    if not _args.flag(write, "write"):
        flags |= _C["INFER_DRY_RUN"]
    if _args.flag(strict, "strict"):
        flags |= _C["INFER_STRICT"]
    if not _args.flag(data_prop, "data_prop"):
        flags |= _C["INFER_NO_DATA_PROP"]
    opts = InferOptions(_C["INFER_OPTIONS_VERSION"], flags)
    rep = ctypes.c_void_p()
    _check(lib.onnxslim_infer_shapes(ctypes.byref(rep), model._ptr(), ctypes.byref(opts)))
    out: List[InferredValue] = []
    try:
        for i in range(lib.onnxslim_infer_report_count(rep)):
            rank = lib.onnxslim_infer_report_rank(rep, i)
            shape: Optional[Tuple[Dim, ...]] = None
            if rank >= 0:
                dims: List[Dim] = []
                for k in range(rank):
                    v = ctypes.c_int64()
                    p = ctypes.c_char_p()
                    kind = lib.onnxslim_infer_report_dim(rep, i, k, ctypes.byref(v), ctypes.byref(p))
                    dims.append(v.value if kind == _C["DIM_VALUE"] else
                                (p.value or b"").decode("utf-8", "replace")
                                if kind == _C["DIM_PARAM"] else None)
                shape = tuple(dims)
            name = lib.onnxslim_infer_report_name(rep, i)
            out.append(InferredValue(name.decode("utf-8", "replace") if isinstance(name, bytes)
                                     else str(name),
                                     _STATUS.get(lib.onnxslim_infer_report_status(rep, i), "?"),
                                     lib.onnxslim_infer_report_dtype(rep, i), shape))
    finally:
        lib.onnxslim_infer_report_free(rep)
    return out
