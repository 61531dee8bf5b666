# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Tensors (initializers and attribute values) and their numpy views."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from . import _args
from ._base import _Borrowed, locked
from ._constants import CONSTANTS as _C
from ._errors import TypeMismatch, Unsupported, _check, _need, _str
from ._lib import lib

if TYPE_CHECKING:
    from types import ModuleType

    import numpy.typing as npt

#: STORAGE_* value -> the name :attr:`Tensor.storage` returns.
STORAGES: Dict[int, str] = {_C["STORAGE_NONE"]: "none", _C["STORAGE_RAW"]: "raw",
            _C["STORAGE_TYPED"]: "typed", _C["STORAGE_EXTERNAL"]: "external"}

#: DTYPE_* value -> the numpy dtype of :meth:`Tensor.numpy` (little-endian, as
#: stored). Types numpy lacks give their raw bits: BFLOAT16 as uint16, the
#: FLOAT8 types as uint8.
NUMPY_DTYPES: Dict[int, str] = {
    _C["DTYPE_FLOAT"]: "<f4", _C["DTYPE_UINT8"]: "u1", _C["DTYPE_INT8"]: "i1",
    _C["DTYPE_UINT16"]: "<u2", _C["DTYPE_INT16"]: "<i2", _C["DTYPE_INT32"]: "<i4",
    _C["DTYPE_INT64"]: "<i8", _C["DTYPE_BOOL"]: "?", _C["DTYPE_FLOAT16"]: "<f2",
    _C["DTYPE_DOUBLE"]: "<f8", _C["DTYPE_UINT32"]: "<u4", _C["DTYPE_UINT64"]: "<u8",
    _C["DTYPE_COMPLEX64"]: "<c8", _C["DTYPE_COMPLEX128"]: "<c16",
    _C["DTYPE_BFLOAT16"]: "<u2", _C["DTYPE_FLOAT8E4M3FN"]: "u1",
    _C["DTYPE_FLOAT8E4M3FNUZ"]: "u1", _C["DTYPE_FLOAT8E5M2"]: "u1",
    _C["DTYPE_FLOAT8E5M2FNUZ"]: "u1",
}
#: 4-bit types: :meth:`Tensor.numpy` gives their packed bytes (two elements a
#: byte, the first in the low nibble) as a flat uint8 array.
PACKED_DTYPES = (_C["DTYPE_UINT4"], _C["DTYPE_INT4"], _C["DTYPE_FLOAT4E2M1"])


def _numpy() -> ModuleType:
    try:
        import numpy
    except ImportError as exc:
        raise ImportError("libonnxslim: Tensor.numpy() needs numpy, which cannot be imported "
                          "(Debian: apt install python3-numpy); Tensor.tobytes() works "
                          "without it") from exc
    return numpy


@locked
class Tensor(_Borrowed):
    """A dense tensor (an initializer, a TENSOR attribute's value, a sparse
    tensor's values or indices), borrowed from its model."""

    __slots__ = ()

    @property
    def name(self) -> str:
        """The tensor's name; settable (uses elsewhere keep the old name: see
        Graph.rename_value)."""
        return _str(_need(lib.onnxslim_tensor_name(self._ptr())))

    @name.setter
    def name(self, value: str) -> None:
        _check(lib.onnxslim_tensor_set_name(self._ptr(), _args.cstr(value)))

    @property
    def dtype(self) -> str:
        """The data type's name, e.g. "FLOAT", "INT64" (onnxslim_dtype_name())."""
        return _str(lib.onnxslim_dtype_name(lib.onnxslim_tensor_dtype(self._ptr())))

    @property
    def shape(self) -> Tuple[int, ...]:
        """The dims, a tuple of int (() for a scalar)."""
        t = self._ptr()
        return tuple(lib.onnxslim_tensor_dim(t, i) for i in range(lib.onnxslim_tensor_rank(t)))

    def tobytes(self) -> bytes:
        """The data as packed little-endian bytes (a copy; raises for STRING tensors)."""
        t = self._ptr()
        data = ctypes.c_void_p()
        size = ctypes.c_size_t()
        _check(lib.onnxslim_tensor_data(t, ctypes.byref(data), ctypes.byref(size)))
        if size.value == 0:
            return b""
        return ctypes.string_at(_need(data.value), size.value)

    @property
    def elem_type(self) -> int:
        """The data type as stored, a ``DTYPE_*`` int (0 when absent; values newer
        than the library are kept)."""
        return lib.onnxslim_tensor_dtype(self._ptr())

    @property
    def doc_string(self) -> str:
        """The tensor's doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_tensor_doc_string(self._ptr())))

    @property
    def size(self) -> int:
        """The number of elements (the product of :attr:`shape`; 1 for a scalar)."""
        return lib.onnxslim_tensor_element_count(self._ptr())

    @property
    def nbytes(self) -> int:
        """The data's size in bytes as implied by shape and type (4-bit types
        rounded up to whole bytes); raises :class:`Unsupported` for STRING and
        unknown types."""
        out = ctypes.c_uint64()
        _check(lib.onnxslim_tensor_byte_size(self._ptr(), ctypes.byref(out)))
        return out.value

    @property
    def storage(self) -> str:
        """Where the data lives: "none", "raw" (raw_data), "typed" (float_data,
        int64_data, ...) or "external" (an external-data file)."""
        return STORAGES.get(lib.onnxslim_tensor_storage(self._ptr()), "none")

    @property
    def strings(self) -> List[bytes]:
        """The elements of a STRING tensor, a list of bytes (as stored); raises
        :class:`TypeMismatch` for other types."""
        t = self._ptr()
        if lib.onnxslim_tensor_dtype(t) != _C["DTYPE_STRING"]:
            raise TypeMismatch(_C["ETYPE"], "tensor '%s' is %s, not STRING"
                               % (self.name, self.dtype))
        data = ctypes.c_char_p()
        size = ctypes.c_size_t()
        out: List[bytes] = []
        for i in range(lib.onnxslim_tensor_string_count(t)):
            _check(lib.onnxslim_tensor_string(t, i, ctypes.byref(data), ctypes.byref(size)))
            out.append(ctypes.string_at(_need(ctypes.cast(data, ctypes.c_void_p).value),
                                        size.value)
                       if size.value else b"")
        return out

    def numpy(self) -> npt.NDArray[Any]:
        """The data as a read-only numpy array of :attr:`shape`, without a copy.

        The array is a view of the library's memory (the mapped model or
        external-data file for raw and external data, the model's decoded
        cache for typed fields); it keeps the :class:`Model` alive, and
        :meth:`Model.close` raises BufferError while such a view (or an array
        derived from it) exists. Editing the tensor later does not change the
        view (it keeps the old data).

        dtypes: the numpy type of the same name (little-endian). BFLOAT16 gives
        its raw bits as uint16 (``(a.astype("u4") << 16).view("f4")`` gives
        float32), the FLOAT8 types their bits as uint8, and the 4-bit types
        (INT4, UINT4, FLOAT4E2M1) their packed bytes as a flat uint8 array (two
        elements a byte, the first in the low nibble). STRING tensors give an
        object array of bytes (a copy). Unknown types raise
        :class:`Unsupported`. Raises ImportError when numpy is not installed
        (:meth:`tobytes` works without it).
        """
        np = _numpy()
        t = self._ptr()
        code = lib.onnxslim_tensor_dtype(t)
        shape = self.shape
        if code == _C["DTYPE_STRING"]:
            strings = self.strings
            arr = np.empty(len(strings), dtype=object)
            arr[:] = strings
            arr = arr.reshape(shape)
            arr.flags.writeable = False
            strs: npt.NDArray[Any] = arr
            return strs
        dims: Optional[Tuple[int, ...]] = shape
        if code in PACKED_DTYPES:
            dtype, dims = "u1", None
        elif code in NUMPY_DTYPES:
            dtype = NUMPY_DTYPES[code]
        else:
            raise Unsupported(_C["EUNSUPPORTED"], "tensor '%s': no numpy type for %s (%d)"
                              % (self.name, self.dtype, code))
        data = ctypes.c_void_p()
        size = ctypes.c_size_t()
        _check(lib.onnxslim_tensor_data(t, ctypes.byref(data), ctypes.byref(size)))
        if size.value == 0:
            arr = np.empty(dims if dims is not None else (0,), dtype=dtype)
        else:
            buf: Any = (ctypes.c_char * size.value).from_address(_need(data.value))
            buf._model = self._model  # the memory lives as long as the model
            self._model._views[id(buf)] = buf
            arr = np.frombuffer(memoryview(buf).toreadonly(), dtype=dtype)
            if dims is not None:
                arr = arr.reshape(dims)
        arr.flags.writeable = False
        result: npt.NDArray[Any] = arr
        return result

    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> npt.NDArray[Any]:
        """numpy's array protocol: ``np.asarray(tensor)`` is :meth:`numpy` (a
        read-only view of the library's memory), ``np.array(tensor)`` a
        writable copy; ``dtype`` converts (a copy)."""
        arr = self.numpy()
        if dtype is not None and arr.dtype != _numpy().dtype(dtype):
            if copy is False:
                raise ValueError("tensor '%s': a %s array of %s data needs a copy (copy=False)"
                                 % (self.name, _numpy().dtype(dtype), arr.dtype))
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def __repr__(self) -> str:
        if self._model.closed:
            return "<libonnxslim.Tensor (closed)>"
        return "<libonnxslim.Tensor %r %s %s>" % (self.name, self.dtype, self.shape)

    # ---- edits ------------------------------------------------------------------

    def set_data(self, data: Any, dtype: Optional[_args.DType] = None,
                 shape: Optional[Sequence[int]] = None) -> None:
        """Replace the tensor's data type, shape and data (copied, stored as raw_data).

        ``data`` as for :meth:`Graph.add_initializer`: a numpy array (its
        dtype and shape unless given), bytes (dtype and shape default to the
        tensor's current ones), or a list/scalar with numpy.
        """
        t = self._ptr()
        cur_shape = tuple(lib.onnxslim_tensor_dim(t, i) for i in range(lib.onnxslim_tensor_rank(t)))
        dt, (dims, rank), buf = _args.tensor_data(data, dtype, shape,
                                                  default_dtype=lib.onnxslim_tensor_dtype(t),
                                                  default_shape=cur_shape)
        _check(lib.onnxslim_tensor_set_data(t, dt, dims, rank, buf.ptr, buf.size, _C["COPY"]))
