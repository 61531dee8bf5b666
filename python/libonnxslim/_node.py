# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Nodes of a graph."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Union, cast

from . import _args, _attr, _attr_edit
from ._base import _Borrowed, _kind, locked
from ._errors import _check, _enc, _need, _opt, _str
from ._lib import lib

if TYPE_CHECKING:
    from ._graph import Graph


@locked
class Node(_Borrowed):
    """A node of a graph (borrowed from its model)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        """The node's name ("" when absent); settable."""
        return _str(_need(lib.onnxslim_node_name(self._ptr())))

    @name.setter
    def name(self, value: str) -> None:
        _check(lib.onnxslim_node_set_name(self._ptr(), _args.cstr(value)))

    @property
    def op_type(self) -> str:
        """The operator, e.g. "MatMul"; settable."""
        return _str(_need(lib.onnxslim_node_op_type(self._ptr())))

    @op_type.setter
    def op_type(self, value: str) -> None:
        _check(lib.onnxslim_node_set_op_type(self._ptr(), _args.cstr(value, "op_type")))

    @property
    def domain(self) -> str:
        """The operator's domain ("" for the default ONNX domain); settable."""
        return _str(_need(lib.onnxslim_node_domain(self._ptr())))

    @domain.setter
    def domain(self, value: str) -> None:
        _check(lib.onnxslim_node_set_domain(self._ptr(), _args.cstr(value, "domain")))

    @property
    def inputs(self) -> List[str]:
        """Input value names (list of str; "" for an omitted optional input); assign a
        list to replace them all."""
        n = self._ptr()
        return [_str(_need(lib.onnxslim_node_input(n, i)))
                for i in range(lib.onnxslim_node_input_count(n))]

    @inputs.setter
    def inputs(self, values: Iterable[Optional[str]]) -> None:
        arr, n = _args.names(values, "inputs")
        _check(lib.onnxslim_node_set_inputs(self._ptr(), arr, n))

    @property
    def outputs(self) -> List[str]:
        """Output value names (list of str); assign a list to replace them all."""
        n = self._ptr()
        return [_str(_need(lib.onnxslim_node_output(n, i)))
                for i in range(lib.onnxslim_node_output_count(n))]

    @outputs.setter
    def outputs(self, values: Iterable[Optional[str]]) -> None:
        arr, n = _args.names(values, "outputs")
        _check(lib.onnxslim_node_set_outputs(self._ptr(), arr, n))

    @property
    def doc_string(self) -> str:
        """The node's doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_node_doc_string(self._ptr())))

    @property
    def graph(self) -> Optional[Graph]:
        """The :class:`Graph` holding the node; None for a node of a function body."""
        ptr = _opt(lib.onnxslim_node_graph, self._ptr())
        return None if ptr is None else cast("Graph", _kind("Graph")(self._model, ptr))

    @property
    def attributes(self) -> Dict[str, Any]:
        """The attributes as a dict name -> typed value, in stored order (see
        :attr:`Attribute.value` for the types; :meth:`find_attribute` gives
        the type name, doc string and ref_attr_name too)."""
        n = self._ptr()
        out: Dict[str, Any] = {}
        for i in range(lib.onnxslim_node_attr_count(n)):
            a = _need(lib.onnxslim_node_attr(n, i))
            out[_str(_need(lib.onnxslim_attr_name(a)))] = _attr._value(self._model, a)
        return out

    def find_attribute(self, name: str) -> Optional[_attr.Attribute]:
        """The :class:`Attribute` named `name`, or None when the node has none."""
        ptr = _opt(lib.onnxslim_node_find_attr, self._ptr(), _enc(name))
        return None if ptr is None else _attr.Attribute(self._model, ptr)

    @property
    def subgraphs(self) -> List[Graph]:
        """The graphs of the node's GRAPH and GRAPHS attributes (e.g. If's
        then_branch and else_branch), in attribute order: a list of :class:`Graph`."""
        n = self._ptr()
        graph = _kind("Graph")
        return [graph(self._model, _need(lib.onnxslim_node_subgraph(n, i)))
                for i in range(lib.onnxslim_node_subgraph_count(n))]

    def __repr__(self) -> str:
        if self._model.closed:
            return "<libonnxslim.Node (closed)>"
        return "<libonnxslim.Node %s %r>" % (self.op_type, self.name)

    # ---- edits ------------------------------------------------------------------

    def set_input(self, index: int, name: str) -> None:
        """Set input `index` to value `name` ("" = omitted); index == len(inputs) appends."""
        _check(lib.onnxslim_node_set_input(self._ptr(), _args.index(index),
                                           _args.cstr(name)))

    def set_output(self, index: int, name: str) -> None:
        """Set output `index` to value `name`; index == len(outputs) appends."""
        _check(lib.onnxslim_node_set_output(self._ptr(), _args.index(index),
                                            _args.cstr(name)))

    def set_attribute(self, name: str, value: Any,
                      type: Union[None, int, str] = None) -> Optional[Graph]:
        """Set attribute `name` (replacing one of that name in place, else appending).

        The attribute type is inferred from `value`: int (and bool) -> INT,
        float -> FLOAT, str (UTF-8) or bytes -> STRING, :class:`Tensor` or
        numpy array -> TENSOR, :class:`Graph` -> GRAPH (a copy), a list of
        ints -> INTS, of numbers with a float -> FLOATS, of str/bytes ->
        STRINGS, of tensors/arrays -> TENSORS, of graphs -> GRAPHS. ``type``
        (an ``ATTR_*`` value or name such as "INTS") says it where the value
        does not, e.g. ``set_attribute("pads", [], type="INTS")``, or
        ``set_attribute("body", None, type="GRAPH")`` for a new empty graph.
        Returns the attribute's :class:`Graph` for GRAPH attributes (to be
        filled with the graph edits), else None.
        """
        return _attr_edit.set_attribute(self, name, value, type)

    def remove_attribute(self, name: str) -> None:
        """Remove attribute `name` (:class:`NotFound` if the node has none)."""
        _check(lib.onnxslim_node_remove_attr(self._ptr(), _args.cstr(name)))
