# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Node.set_attribute(): the attribute type from the Python value, and the C setter for it."""

from __future__ import annotations

import ctypes
import numbers
from typing import TYPE_CHECKING, Any, List, Optional, Union, cast

from . import _args
from ._base import _kind
from ._constants import CONSTANTS as _C
from ._errors import _check, _need
from ._lib import lib
from ._tensor import Tensor

if TYPE_CHECKING:
    from ._graph import Graph
    from ._node import Node

# ModelProto with an empty graph: a scratch model holding tensors made from
# numpy arrays until the setter copies them (the C setters take tensor handles).
_EMPTY_MODEL = b"\x3a\x00"

_SETTABLE = ("FLOAT", "INT", "STRING", "TENSOR", "GRAPH", "FLOATS", "INTS", "STRINGS", "TENSORS",
             "GRAPHS")


def _attr_type(value: Union[int, str]) -> int:
    """ATTR_* value of an explicit type= (an int or a name such as "INTS")."""
    if isinstance(value, str):
        key = "ATTR_" + value.upper()
        if key not in _C:
            raise ValueError("unknown attribute type %r" % value)
        return _C[key]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TypeError("type must be an ATTR_* value or name, not %r" % (value,))


def _is_int(v: object) -> bool:
    return isinstance(v, numbers.Integral)


def _is_float(v: object) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, numbers.Integral)


def _is_str(v: object) -> bool:
    return isinstance(v, (str, bytes, bytearray))


def _is_tensor(v: object) -> bool:
    return isinstance(v, Tensor) or _args.is_ndarray(v)


def _is_graph(v: object) -> bool:
    return isinstance(v, _kind("Graph"))


def _infer(value: Any) -> str:
    """The ATTR_* name for a value without an explicit type."""
    if _is_int(value):
        return "INT"
    if _is_float(value):
        return "FLOAT"
    if _is_str(value):
        return "STRING"
    if _is_tensor(value):
        return "TENSOR"
    if _is_graph(value):
        return "GRAPH"
    if isinstance(value, (list, tuple)):
        items = list(value)
        if not items:
            raise TypeError("the type of an empty list is ambiguous: give type= "
                            "(e.g. type=\"INTS\")")
        if all(_is_int(v) for v in items):
            return "INTS"
        if all(_is_int(v) or _is_float(v) for v in items):
            return "FLOATS"
        if all(_is_str(v) for v in items):
            return "STRINGS"
        if all(_is_tensor(v) for v in items):
            return "TENSORS"
        if all(_is_graph(v) for v in items):
            return "GRAPHS"
        raise TypeError("cannot infer an attribute type for a list of %s"
                        % ", ".join(sorted({type(v).__name__ for v in items})))
    if value is None:
        raise TypeError("None needs type=\"GRAPH\" (a new empty graph)")
    raise TypeError("cannot infer an attribute type for %s" % type(value).__name__)


def _float(v: object) -> float:
    if not isinstance(v, numbers.Real):
        raise TypeError("FLOAT values must be numbers, not %s" % type(v).__name__)
    return float(v)


def _bytes(v: object) -> bytes:
    if isinstance(v, str):
        return v.encode("utf-8", "surrogateescape")
    if isinstance(v, (bytes, bytearray)):
        return bytes(v)
    raise TypeError("STRING values must be str or bytes, not %s" % type(v).__name__)


def _list(value: Any, kind: str) -> List[Any]:
    if _args.is_ndarray(value):
        items: List[Any] = value.reshape(-1).tolist()
        return items
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, range)):
        raise TypeError("%s needs a list, not %s" % (kind, type(value).__name__))
    return list(value)


class _Scratch:
    """Tensors made from numpy arrays, in a model freed after the call."""

    def __init__(self) -> None:
        self.model: Optional[int] = None  # the C handle

    def tensor(self, value: Any) -> int:
        if isinstance(value, Tensor):
            ptr: int = value._ptr()
            return ptr
        if self.model is None:
            handle = ctypes.c_void_p()
            _check(lib.onnxslim_model_from_buffer(ctypes.byref(handle), _EMPTY_MODEL,
                                                  len(_EMPTY_MODEL), _C["COPY"], None))
            self.model = _need(handle.value)
        dt, (dims, rank), buf = _args.tensor_data(value, None, None)
        out = ctypes.c_void_p()
        _check(lib.onnxslim_graph_add_initializer(_need(lib.onnxslim_model_graph(self.model)), b"",
                                                  dt, dims, rank, buf.ptr, buf.size, _C["COPY"],
                                                  ctypes.byref(out)))
        return _need(out.value)

    def close(self) -> None:
        if self.model is not None:
            lib.onnxslim_model_free(self.model)
            self.model = None


def set_attribute(node: Node, name: str, value: Any,
                  type: Union[None, int, str] = None) -> Optional[Graph]:
    """Node.set_attribute(); see there."""
    n = node._ptr()
    cname = _args.cstr(name)
    kind = _infer(value) if type is None else None
    if type is not None:
        t = _attr_type(type)
        kinds = {_C["ATTR_" + k]: k for k in _SETTABLE}
        if t not in kinds:
            raise ValueError("attributes of type %s cannot be set (the C API has no setter)"
                             % next((k[5:] for k, v in _C.items()
                                     if k.startswith("ATTR_") and v == t), t))
        kind = kinds[t]
    scratch = _Scratch()
    items: List[Any]
    try:
        if kind == "INT":
            _check(lib.onnxslim_node_set_attr_int(n, cname, _args.int64(value, "INT value")))
        elif kind == "FLOAT":
            _check(lib.onnxslim_node_set_attr_float(n, cname, _float(value)))
        elif kind == "STRING":
            data = _bytes(value)
            _check(lib.onnxslim_node_set_attr_string(n, cname, data, len(data)))
        elif kind == "TENSOR":
            if not _is_tensor(value):
                raise TypeError("TENSOR values must be a Tensor or numpy array, not %s"
                                % _typename(value))
            _check(lib.onnxslim_node_set_attr_tensor(n, cname, scratch.tensor(value)))
        elif kind == "GRAPH":
            if value is not None and not _is_graph(value):
                raise TypeError("GRAPH values must be a Graph or None, not %s"
                                % _typename(value))
            out = ctypes.c_void_p()
            _check(lib.onnxslim_node_set_attr_graph(n, cname,
                                                    None if value is None else value._ptr(),
                                                    ctypes.byref(out)))
            return cast("Graph", _kind("Graph")(node._model, _need(out.value)))
        elif kind == "FLOATS":
            items = [_float(v) for v in _list(value, kind)]
            floats = (ctypes.c_float * max(len(items), 1))(*items)
            _check(lib.onnxslim_node_set_attr_floats(n, cname, floats, len(items)))
        elif kind == "INTS":
            items = [_args.int64(v, "INTS value") for v in _list(value, kind)]
            ints = (ctypes.c_int64 * max(len(items), 1))(*items)
            _check(lib.onnxslim_node_set_attr_ints(n, cname, ints, len(items)))
        elif kind == "STRINGS":
            items = [_bytes(v) for v in _list(value, kind)]
            strs = (ctypes.c_char_p * max(len(items), 1))(*items)
            sizes = (ctypes.c_size_t * max(len(items), 1))(*[len(v) for v in items])
            _check(lib.onnxslim_node_set_attr_strings(n, cname, strs, sizes, len(items)))
        elif kind == "TENSORS":
            items = list(value) if isinstance(value, (list, tuple)) else _list(value, kind)
            for v in items:
                if not _is_tensor(v):
                    raise TypeError("TENSORS values must be Tensors or numpy arrays, not %s"
                                    % _typename(v))
            handles = [scratch.tensor(v) for v in items]
            arr = (ctypes.c_void_p * max(len(handles), 1))(*handles)
            _check(lib.onnxslim_node_set_attr_tensors(n, cname, arr, len(handles)))
        elif kind == "GRAPHS":
            items = _list(value, kind)
            for v in items:
                if not _is_graph(v):
                    raise TypeError("GRAPHS values must be Graphs, not %s" % _typename(v))
            handles = [v._ptr() for v in items]
            arr = (ctypes.c_void_p * max(len(handles), 1))(*handles)
            _check(lib.onnxslim_node_set_attr_graphs(n, cname, arr, len(handles)))
        return None
    finally:
        scratch.close()


def _typename(v: object) -> str:
    return v.__class__.__name__
