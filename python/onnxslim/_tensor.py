"""Tensors (initializers and attribute values)."""

import ctypes

from . import _args
from ._base import _Borrowed
from ._constants import CONSTANTS as _C
from ._errors import _check, _need, _str
from ._lib import lib


class Tensor(_Borrowed):
    """A dense tensor (initializer), borrowed from its model."""

    __slots__ = ()

    @property
    def name(self):
        """The tensor's name."""
        return _str(_need(lib.onnxslim_tensor_name(self._ptr())))

    @property
    def dtype(self):
        """The data type's name, e.g. "FLOAT", "INT64" (onnxslim_dtype_name())."""
        return _str(lib.onnxslim_dtype_name(lib.onnxslim_tensor_dtype(self._ptr())))

    @property
    def shape(self):
        """The dims, a tuple of int (() for a scalar)."""
        t = self._ptr()
        return tuple(lib.onnxslim_tensor_dim(t, i) for i in range(lib.onnxslim_tensor_rank(t)))

    def tobytes(self):
        """The data as packed little-endian bytes (a copy; raises for STRING tensors)."""
        t = self._ptr()
        data = ctypes.c_void_p()
        size = ctypes.c_size_t()
        _check(lib.onnxslim_tensor_data(t, ctypes.byref(data), ctypes.byref(size)))
        if size.value == 0:
            return b""
        return ctypes.string_at(data.value, size.value)

    def __repr__(self):
        if self._model.closed:
            return "<onnxslim.Tensor (closed)>"
        return "<onnxslim.Tensor %r %s %s>" % (self.name, self.dtype, self.shape)

    # ---- edits ------------------------------------------------------------------

    def _set_name(self, value):
        _check(lib.onnxslim_tensor_set_name(self._ptr(), _args.cstr(value)))

    name = property(name.fget, _set_name,
                    doc="The tensor's name; settable (uses elsewhere keep the old name: "
                        "see Graph.rename_value).")

    def set_data(self, data, dtype=None, shape=None):
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
