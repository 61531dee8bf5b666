# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Sparse tensors (sparse initializers and SPARSE_TENSOR attribute values)."""

from __future__ import annotations

from typing import Optional, Tuple

from . import _tensor
from ._base import _Borrowed, locked
from ._errors import _opt
from ._lib import lib


@locked
class SparseTensor(_Borrowed):
    """A sparse tensor (SparseTensorProto), borrowed from its model: the
    non-zero :attr:`values`, their :attr:`indices` and the dense :attr:`shape`."""

    __slots__ = ()

    @property
    def values(self) -> Optional[_tensor.Tensor]:
        """The values :class:`Tensor` (1-D; its name is the sparse tensor's name), or None."""
        ptr = _opt(lib.onnxslim_sparse_tensor_values, self._ptr())
        return None if ptr is None else _tensor.Tensor(self._model, ptr)

    @property
    def indices(self) -> Optional[_tensor.Tensor]:
        """The indices :class:`Tensor` (INT64, [NNZ] linear or [NNZ, rank]), or None."""
        ptr = _opt(lib.onnxslim_sparse_tensor_indices, self._ptr())
        return None if ptr is None else _tensor.Tensor(self._model, ptr)

    @property
    def name(self) -> str:
        """The name (that of :attr:`values`; "" when there are no values)."""
        values = self.values
        return "" if values is None else values.name

    @property
    def shape(self) -> Tuple[int, ...]:
        """The dense shape, a tuple of int."""
        s = self._ptr()
        return tuple(lib.onnxslim_sparse_tensor_dim(s, i)
                     for i in range(lib.onnxslim_sparse_tensor_rank(s)))

    def __repr__(self) -> str:
        if self._model.closed:
            return "<libonnxslim.SparseTensor (closed)>"
        return "<libonnxslim.SparseTensor %r %s>" % (self.name, self.shape)
