# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Model-local functions (FunctionProto)."""

from __future__ import annotations

import ctypes
from typing import Callable, Dict, List, Optional

from . import _node
from ._base import _Borrowed, locked
from ._errors import _check, _need, _str
from ._lib import lib


def _opsets(handle: int, count: Callable[[int], int], get: Callable[..., int]) -> Dict[str, int]:
    """opset_import entries as a dict domain -> version ("" = the ONNX domain)."""
    domain = ctypes.c_char_p()
    version = ctypes.c_int64()
    out: Dict[str, int] = {}
    for i in range(count(handle)):
        _check(get(handle, i, ctypes.byref(domain), ctypes.byref(version)))
        out[_str(domain.value or b"")] = version.value
    return out


@locked
class Function(_Borrowed):
    """A function defined in the model (FunctionProto), borrowed from it: nodes
    whose (domain, op_type) equals the function's (domain, name) call it."""

    __slots__ = ()

    def _strings(self, count: Callable[[int], int],
                 get: Callable[[int, int], Optional[bytes]]) -> List[str]:
        f = self._ptr()
        return [_str(_need(get(f, i))) for i in range(count(f))]

    @property
    def name(self) -> str:
        """The function's name (the op_type its callers use)."""
        return _str(_need(lib.onnxslim_function_name(self._ptr())))

    @property
    def domain(self) -> str:
        """The function's domain."""
        return _str(_need(lib.onnxslim_function_domain(self._ptr())))

    @property
    def doc_string(self) -> str:
        """The doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_function_doc_string(self._ptr())))

    @property
    def inputs(self) -> List[str]:
        """The formal input names (list of str)."""
        return self._strings(lib.onnxslim_function_input_count, lib.onnxslim_function_input)

    @property
    def outputs(self) -> List[str]:
        """The formal output names (list of str)."""
        return self._strings(lib.onnxslim_function_output_count, lib.onnxslim_function_output)

    @property
    def attributes(self) -> List[str]:
        """The names of the attributes the function declares (list of str)."""
        return self._strings(lib.onnxslim_function_attribute_count,
                             lib.onnxslim_function_attribute)

    @property
    def nodes(self) -> List[_node.Node]:
        """The body's nodes, a list of :class:`Node` (their ``graph`` is None)."""
        f = self._ptr()
        return [_node.Node(self._model, _need(lib.onnxslim_function_node(f, i)))
                for i in range(lib.onnxslim_function_node_count(f))]

    @property
    def opsets(self) -> Dict[str, int]:
        """The function's opset_import, a dict domain -> version."""
        return _opsets(self._ptr(), lib.onnxslim_function_opset_count,
                       lib.onnxslim_function_opset)

    def __repr__(self) -> str:
        if self._model.closed:
            return "<libonnxslim.Function (closed)>"
        return "<libonnxslim.Function %r %r>" % (self.domain, self.name)
