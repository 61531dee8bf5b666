# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Node attributes and their typed values."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Callable, Dict, List

from . import _sparse, _tensor, _types
from ._base import _Borrowed, _kind, locked
from ._constants import CONSTANTS as _C
from ._errors import _check, _need, _str
from ._lib import lib

if TYPE_CHECKING:
    from ._model import Model

#: ATTR_* value -> its name without the prefix ("FLOAT", "INTS", ...).
ATTR_NAMES: Dict[int, str] = {v: k[len("ATTR_"):] for k, v in _C.items() if k.startswith("ATTR_")}


def _bytes_at(ptr: Any, size: int) -> bytes:
    """size bytes at a returned C string (which may hold NULs)."""
    if size == 0:
        return b""
    return ctypes.string_at(_need(ctypes.cast(ptr, ctypes.c_void_p).value), size)


def _string(a: int) -> bytes:
    data = ctypes.c_char_p()
    size = ctypes.c_size_t()
    _check(lib.onnxslim_attr_string(a, ctypes.byref(data), ctypes.byref(size)))
    return _bytes_at(data, size.value)


def _list_string(a: int, i: int) -> bytes:
    data = ctypes.c_char_p()
    size = ctypes.c_size_t()
    _check(lib.onnxslim_attr_strings(a, i, ctypes.byref(data), ctypes.byref(size)))
    return _bytes_at(data, size.value)


def _numbers(a: int, get: Callable[..., int], ctype: Any) -> List[Any]:
    values = ctypes.POINTER(ctype)()
    count = ctypes.c_size_t()
    _check(get(a, ctypes.byref(values), ctypes.byref(count)))
    return list(values[:count.value]) if count.value else []


def _value(model: Model, a: int) -> Any:
    """The Python value of attribute handle `a` (see :attr:`Attribute.value`)."""
    kind = lib.onnxslim_attr_type(a)
    if kind == _C["ATTR_FLOAT"]:
        out = ctypes.c_float()
        _check(lib.onnxslim_attr_float(a, ctypes.byref(out)))
        return out.value
    if kind == _C["ATTR_INT"]:
        iout = ctypes.c_int64()
        _check(lib.onnxslim_attr_int(a, ctypes.byref(iout)))
        return iout.value
    if kind == _C["ATTR_STRING"]:
        return _string(a)
    if kind == _C["ATTR_TENSOR"]:
        return _tensor.Tensor(model, _need(lib.onnxslim_attr_tensor(a)))
    if kind == _C["ATTR_GRAPH"]:
        return _kind("Graph")(model, _need(lib.onnxslim_attr_graph(a)))
    if kind == _C["ATTR_SPARSE_TENSOR"]:
        return _sparse.SparseTensor(model, _need(lib.onnxslim_attr_sparse_tensor(a)))
    if kind == _C["ATTR_TYPE_PROTO"]:
        return _types.Type(model, _need(lib.onnxslim_attr_type_proto(a)))
    if kind == _C["ATTR_FLOATS"]:
        return _numbers(a, lib.onnxslim_attr_floats, ctypes.c_float)
    if kind == _C["ATTR_INTS"]:
        return _numbers(a, lib.onnxslim_attr_ints, ctypes.c_int64)
    n = lib.onnxslim_attr_list_count(a)
    if kind == _C["ATTR_STRINGS"]:
        return [_list_string(a, i) for i in range(n)]
    lists: Dict[int, Any] = {
        _C["ATTR_TENSORS"]: (lib.onnxslim_attr_tensors, _tensor.Tensor),
        _C["ATTR_GRAPHS"]: (lib.onnxslim_attr_graphs, _kind("Graph")),
        _C["ATTR_SPARSE_TENSORS"]: (lib.onnxslim_attr_sparse_tensors,
                                    _sparse.SparseTensor),
        _C["ATTR_TYPE_PROTOS"]: (lib.onnxslim_attr_type_protos, _types.Type),
    }
    if kind in lists:
        get, cls = lists[kind]
        return [cls(model, _need(get(a, i))) for i in range(n)]
    return None  # UNDEFINED, or a type newer than the library


@locked
class Attribute(_Borrowed):
    """An attribute of a node (AttributeProto), borrowed from its model."""

    __slots__ = ()

    @property
    def name(self) -> str:
        """The attribute's name."""
        return _str(_need(lib.onnxslim_attr_name(self._ptr())))

    @property
    def type(self) -> str:
        """The type's name as in ONNX's AttributeType: "FLOAT", "INT", "STRING",
        "TENSOR", "GRAPH", "FLOATS", "INTS", "STRINGS", "TENSORS", "GRAPHS",
        "SPARSE_TENSOR", "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS", or
        "UNDEFINED"; "UNKNOWN" for a type newer than the library. When a (very
        old) model does not store the type, it is inferred from the value."""
        return ATTR_NAMES.get(lib.onnxslim_attr_type(self._ptr()), "UNKNOWN")

    @property
    def value(self) -> Any:
        """The value, typed: FLOAT -> float, INT -> int, STRING -> bytes (as
        stored, like onnx), TENSOR -> :class:`Tensor`, GRAPH -> :class:`Graph`,
        SPARSE_TENSOR -> :class:`SparseTensor`, TYPE_PROTO -> :class:`Type`;
        the list types give lists of those; None for UNDEFINED or UNKNOWN."""
        return _value(self._model, self._ptr())

    @property
    def ref_attr_name(self) -> str:
        """The name of the function attribute this one refers to (inside a
        function body); "" when it is not a reference."""
        return _str(_need(lib.onnxslim_attr_ref_attr_name(self._ptr())))

    @property
    def doc_string(self) -> str:
        """The doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_attr_doc_string(self._ptr())))

    def __repr__(self) -> str:
        if self._model.closed:
            return "<libonnxslim.Attribute (closed)>"
        return "<libonnxslim.Attribute %r %s>" % (self.name, self.type)
