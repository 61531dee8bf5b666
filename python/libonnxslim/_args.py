# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Checking and converting Python arguments for the C calls of the edit API.

ctypes converts some wrong arguments silently (an int too large for int64_t
is cut to its low bits, a str is refused only as ``ctypes.ArgumentError``),
so every edit converts its arguments here first: wrong types raise
TypeError, out-of-range values ValueError or OverflowError, before the
library is called.
"""

from __future__ import annotations

import ctypes
import operator
from typing import TYPE_CHECKING, Any, Iterable, Optional, Sequence, Tuple, Type, Union

from ._constants import CONSTANTS as _C

if TYPE_CHECKING:
    from ._base import _Borrowed

#: A data type: a name ("FLOAT", "bf16", "int64"), a DTYPE_* value, or a numpy dtype.
DType = Union[str, int, Any]
#: A C array of char * and its length.
Names = Tuple["ctypes.Array[ctypes.c_char_p]", int]

SIZE_MAX = ctypes.c_size_t(-1).value
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def cstr(value: Union[str, bytes, bytearray], what: str = "name") -> bytes:
    """A str (or bytes) as the NUL-terminated bytes C takes."""
    if isinstance(value, str):
        data = value.encode("utf-8", "surrogateescape")
    elif isinstance(value, (bytes, bytearray)):
        data = bytes(value)
    else:
        raise TypeError("%s must be str, not %s" % (what, type(value).__name__))
    if b"\0" in data:
        raise ValueError("%s must not contain a NUL character" % what)
    return data


def cstr_or_none(value: Union[str, bytes, bytearray, None],
                 what: str = "name") -> Optional[bytes]:
    """As cstr(), None staying None (C NULL)."""
    return None if value is None else cstr(value, what)


def names(values: Iterable[Union[str, bytes, None]], what: str = "names") -> Names:
    """A list of value names (None or "" for an omitted one) as a C array of char *."""
    if isinstance(values, (str, bytes)) or values is None:
        raise TypeError("%s must be a list of str, not %s" % (what, type(values).__name__))
    try:
        items = list(values)
    except TypeError:
        raise TypeError("%s must be a list of str, not %s" % (what, type(values).__name__))
    arr = (ctypes.c_char_p * max(len(items), 1))()
    for i, v in enumerate(items):
        arr[i] = None if v is None else cstr(v, what[:-1] if what.endswith("s") else what)
    return arr, len(items)


def int64(value: Any, what: str = "value") -> int:
    """An int that fits int64_t (bools and numpy integers accepted)."""
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__))
    if not _INT64_MIN <= v <= _INT64_MAX:
        raise OverflowError("%s %d does not fit int64" % (what, v))
    return v


def uint64(value: Any, what: str = "value") -> int:
    """A non-negative int that fits uint64_t."""
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__))
    if not 0 <= v < (1 << 64):
        raise ValueError("%s must be between 0 and 2**64-1, not %d" % (what, v))
    return v


def index(value: Any, what: str = "index", append: bool = True) -> int:
    """A non-negative position (size_t); None means append (SIZE_MAX) when `append`."""
    if value is None and append:
        return SIZE_MAX
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__))
    if not 0 <= v < SIZE_MAX:
        raise ValueError("%s must be >= 0, not %d" % (what, v))
    return v


def flag(value: Any, what: str) -> bool:
    """A keyword that must be a bool (True/False, or 0/1)."""
    if not isinstance(value, (bool, int)) or value not in (0, 1):
        raise TypeError("%s must be True or False, not %r" % (what, value))
    return bool(value)


def handle_of(obj: Any, cls: Type[_Borrowed], what: str) -> int:
    """The C handle of a borrowed object of class `cls` (TypeError for anything else)."""
    if not isinstance(obj, cls):
        raise TypeError("%s must be a %s, not %s" % (what, cls.__name__, type(obj).__name__))
    ptr: int = obj._ptr()
    return ptr


# ---- data types ---------------------------------------------------------------

_ALIASES = {
    "BF16": "BFLOAT16", "FP16": "FLOAT16", "HALF": "FLOAT16", "FP32": "FLOAT",
    "FLOAT32": "FLOAT", "FP64": "DOUBLE", "FLOAT64": "DOUBLE", "COMPLEX": "COMPLEX64",
}

# numpy dtype name -> ONNX data type
_NUMPY = {
    "float32": "FLOAT", "float16": "FLOAT16", "float64": "DOUBLE", "int8": "INT8",
    "int16": "INT16", "int32": "INT32", "int64": "INT64", "uint8": "UINT8", "uint16": "UINT16",
    "uint32": "UINT32", "uint64": "UINT64", "bool": "BOOL", "complex64": "COMPLEX64",
    "complex128": "COMPLEX128",
}
# ONNX data type -> numpy dtype name (BFLOAT16 as its bit patterns)
_TO_NUMPY = {v: k for k, v in _NUMPY.items()}
_TO_NUMPY["BFLOAT16"] = "uint16"


def dtype(value: DType, what: str = "dtype") -> int:
    """An ONNX data type (DTYPE_* value) from an int, a name or a numpy dtype.

    Names are case-insensitive: the DTYPE_* names ("FLOAT", "BFLOAT16"), the
    short forms "bf16", "fp16", "fp32", "fp64", "float32", "float64", and
    numpy's names ("int64", "bool"). numpy dtypes and scalar types map to
    the ONNX type of the same layout.
    """
    if isinstance(value, bool):
        raise TypeError("%s must be a data type name or DTYPE_* value, not bool" % what)
    if isinstance(value, int):
        if not -(1 << 31) <= value < (1 << 31):
            raise ValueError("%s %d is not an int32 value" % (what, value))
        return value
    if isinstance(value, str):
        key = value.upper()
        key = _ALIASES.get(key, key)
        if "DTYPE_" + key not in _C:
            key = _NUMPY.get(value.lower(), key)
        if "DTYPE_" + key in _C:
            return _C["DTYPE_" + key]
        raise ValueError("unknown %s %r (expected a name such as FLOAT, BFLOAT16, bf16, int64)"
                         % (what, value))
    name = getattr(getattr(value, "dtype", value), "name", None)  # numpy dtype or scalar type
    if name is None and isinstance(value, type):
        name = value.__name__
    if isinstance(name, str) and name in _NUMPY:
        return _C["DTYPE_" + _NUMPY[name]]
    raise TypeError("%s must be a data type name, DTYPE_* value or numpy dtype, not %r"
                    % (what, value))


def dtype_name(value: int) -> str:
    """The DTYPE_* name of a data type value ("UNKNOWN" for others)."""
    for key, v in _C.items():
        if key.startswith("DTYPE_") and v == value:
            return key[6:]
    return "UNKNOWN"


def numpy() -> Any:
    """The numpy module, or None when it is not installed (typed Any: numpy is optional)."""
    try:
        import numpy as np
    except ImportError:
        return None
    return np


def is_ndarray(value: object) -> bool:
    np = numpy()
    return np is not None and isinstance(value, np.ndarray)


def numpy_dtype_of(onnx_dtype: int) -> Optional[str]:
    """numpy's dtype name for an ONNX data type value, or None."""
    return _TO_NUMPY.get(dtype_name(onnx_dtype))


def dims(shape: Sequence[int], what: str = "shape") -> Tuple["ctypes.Array[ctypes.c_int64]", int]:
    """A tensor shape (sequence of non-negative ints) as a C int64_t array."""
    if isinstance(shape, (str, bytes)):
        raise TypeError("%s must be a sequence of int, not %s" % (what, type(shape).__name__))
    try:
        items = [int64(d, what + " dim") for d in shape]
    except TypeError as exc:
        if "not iterable" in str(exc) or "object is not" in str(exc):
            raise TypeError("%s must be a sequence of int, not %s" % (what, type(shape).__name__))
        raise
    for d in items:
        if d < 0:
            raise ValueError("%s dims must be >= 0, not %d" % (what, d))
    arr = (ctypes.c_int64 * max(len(items), 1))(*items)
    return arr, len(items)


class Buffer:
    """Bytes the C library reads for the call: a pointer, a size, and what keeps them alive."""

    __slots__ = ("ptr", "size", "keep")

    def __init__(self, ptr: ctypes.c_void_p, size: int, keep: object) -> None:
        self.ptr, self.size, self.keep = ptr, size, keep


def buffer(data: Any, what: str = "data") -> Buffer:
    """A Buffer over bytes, bytearray, memoryview or a numpy array (contiguous, little-endian)."""
    if is_ndarray(data):
        np = numpy()
        arr = data
        if arr.dtype.byteorder == ">":
            arr = arr.astype(arr.dtype.newbyteorder("<"))
        arr = np.ascontiguousarray(arr)
        return Buffer(ctypes.c_void_p(arr.ctypes.data if arr.nbytes else None), arr.nbytes, arr)
    if isinstance(data, bytes):
        return Buffer(ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p), len(data), data)
    if isinstance(data, (bytearray, memoryview)):
        b = bytes(data)
        return Buffer(ctypes.cast(ctypes.c_char_p(b), ctypes.c_void_p), len(b), b)
    raise TypeError("%s must be bytes, bytearray, memoryview or a numpy array, not %s"
                    % (what, type(data).__name__))


def tensor_data(data: Any, dtype_arg: Optional[DType], shape_arg: Optional[Sequence[int]],
                default_dtype: Optional[int] = None,
                default_shape: Optional[Sequence[int]] = None) -> Tuple[int, Tuple[Any, int], Buffer]:
    """(dtype value, (dims array, rank), Buffer) for add_initializer() and set_data().

    A numpy array gives its own dtype and shape unless they are given;
    bytes need both (or the defaults); other values (lists, scalars) are
    made an array of `dtype` with numpy.
    """
    if isinstance(data, str) or data is None:
        raise TypeError("data must be bytes, a numpy array, a list or a number, not %s"
                        % type(data).__name__)
    if not isinstance(data, (bytes, bytearray, memoryview)) and not is_ndarray(data):
        np = numpy()
        if np is None:
            raise TypeError("data must be bytes or a numpy array (numpy is not installed), not %s"
                            % type(data).__name__)
        if dtype_arg is None and default_dtype is None:
            raise TypeError("data given as %s needs dtype=" % type(data).__name__)
        dtype_arg = dtype_arg if dtype_arg is not None else default_dtype
        npname = numpy_dtype_of(dtype(dtype_arg))
        if npname is None:
            raise ValueError("no numpy type for %s: give the data as bytes" % dtype_arg)
        data = np.asarray(data, dtype=npname)
    if is_ndarray(data):
        dt = dtype(dtype_arg) if dtype_arg is not None else dtype(data.dtype, "array dtype")
        shape = data.shape if shape_arg is None else shape_arg
    else:
        if dtype_arg is None and default_dtype is None:
            raise TypeError("data given as bytes needs dtype=")
        if shape_arg is None and default_shape is None:
            raise TypeError("data given as bytes needs shape=")
        dt = dtype(dtype_arg) if dtype_arg is not None else int(default_dtype or 0)
        shape = shape_arg if shape_arg is not None else default_shape
    return dt, dims(shape), buffer(data)
