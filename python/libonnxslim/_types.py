# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Value infos (graph inputs, outputs, value_info) and their types."""

from __future__ import annotations

import ctypes
from typing import List, Optional, Tuple, Union

from ._base import _Borrowed, locked
from ._constants import CONSTANTS as _C
from ._errors import _check, _need, _opt, _str
from ._lib import lib

#: ONNXSLIM_TYPE_* value -> the name :attr:`Type.kind` returns.
KINDS = {
    _C["TYPE_UNKNOWN"]: "unknown",
    _C["TYPE_TENSOR"]: "tensor",
    _C["TYPE_SEQUENCE"]: "sequence",
    _C["TYPE_MAP"]: "map",
    _C["TYPE_OPTIONAL"]: "optional",
    _C["TYPE_SPARSE_TENSOR"]: "sparse_tensor",
}


@locked
class Type(_Borrowed):
    """A value's type (TypeProto), borrowed from its model.

    A tensor type has an element type and maybe a shape; a sequence or
    optional type has an :attr:`inner` element type; a map type has a key
    type (:attr:`elem_type`) and a value type (:attr:`inner`).
    """

    __slots__ = ()

    @property
    def kind(self) -> str:
        """The kind: "tensor", "sequence", "map", "optional", "sparse_tensor" or "unknown"."""
        return KINDS.get(lib.onnxslim_type_kind(self._ptr()), "unknown")

    @property
    def elem_type(self) -> int:
        """The element type (a ``DTYPE_*`` int) of a tensor or sparse-tensor type,
        the key type of a map; 0 for other kinds or when absent."""
        return lib.onnxslim_type_dtype(self._ptr())

    @property
    def dtype(self) -> str:
        """The name of :attr:`elem_type`, e.g. "FLOAT" ("UNDEFINED" when absent)."""
        return _str(lib.onnxslim_dtype_name(self.elem_type))

    @property
    def shape(self) -> Optional[Tuple[Union[int, str, None], ...]]:
        """The shape of a tensor or sparse-tensor type: a tuple with one entry per
        dim, an int for a fixed size, a str for a symbolic one ("batch"), None
        for an unknown one; None when the type has no shape (rank unknown)."""
        t = self._ptr()
        if not lib.onnxslim_type_has_shape(t):
            return None
        value = ctypes.c_int64()
        param = ctypes.c_char_p()
        dims: List[Union[int, str, None]] = []
        for i in range(lib.onnxslim_type_rank(t)):
            kind = _check(lib.onnxslim_type_dim(t, i, ctypes.byref(value), ctypes.byref(param)))
            if kind == _C["DIM_VALUE"]:
                dims.append(value.value)
            elif kind == _C["DIM_PARAM"]:
                dims.append(_str(param.value))
            else:
                dims.append(None)
        return tuple(dims)

    @property
    def denotation(self) -> str:
        """The type's denotation ("" when absent)."""
        return _str(_need(lib.onnxslim_type_denotation(self._ptr())))

    @property
    def inner(self) -> Optional[Type]:
        """The element type of a sequence or optional, the value type of a map
        (a :class:`Type`); None for other kinds or when absent."""
        ptr = _opt(lib.onnxslim_type_inner, self._ptr())
        return None if ptr is None else Type(self._model, ptr)

    def __repr__(self) -> str:
        if self._model.closed:
            return "<libonnxslim.Type (closed)>"
        kind = self.kind
        if kind in ("tensor", "sparse_tensor"):
            return "<libonnxslim.Type %s %s %s>" % (kind, self.dtype, self.shape)
        if kind == "map":
            return "<libonnxslim.Type map %s -> %r>" % (self.dtype, self.inner)
        return "<libonnxslim.Type %s %r>" % (kind, self.inner)


@locked
class ValueInfo(_Borrowed):
    """A graph input, output or value_info entry (ValueInfoProto): a value's
    name, :class:`Type` and doc string."""

    __slots__ = ()

    @property
    def name(self) -> str:
        """The value's name."""
        return _str(_need(lib.onnxslim_value_info_name(self._ptr())))

    @property
    def doc_string(self) -> str:
        """The doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_value_info_doc_string(self._ptr())))

    @property
    def type(self) -> Optional[Type]:
        """The value's :class:`Type`, None when it has none."""
        ptr = _opt(lib.onnxslim_value_info_type, self._ptr())
        return None if ptr is None else Type(self._model, ptr)

    def __repr__(self) -> str:
        if self._model.closed:
            return "<libonnxslim.ValueInfo (closed)>"
        return "<libonnxslim.ValueInfo %r %r>" % (self.name, self.type)
