# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Insertion of a node on an edge (onnxslim/insert.h): Model.insert_after() and co."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple, Union

from . import _args
from ._errors import _check, _need
from ._graph import Graph
from ._lib import lib
from ._node import Node

if TYPE_CHECKING:
    from ._model import Model

    Consumers = Union[None, Node, Sequence[Node]]


def _graph_of(model: Model, graph: Optional[Graph]) -> Graph:
    if graph is None:
        return model.graph
    if not isinstance(graph, Graph):
        raise TypeError("graph must be a Graph, not %s" % type(graph).__name__)
    if graph.model is not model:
        raise ValueError("graph belongs to another model")
    return graph


def _consumers(consumers: Consumers) -> Tuple[Any, int]:
    if consumers is None:
        return None, 0
    if isinstance(consumers, Node):
        consumers = [consumers]
    handles = [_args.handle_of(c, Node, "consumers entry") for c in consumers]
    return (ctypes.c_void_p * max(len(handles), 1))(*handles), len(handles)


def _node(model: Model, handle: Optional[int]) -> Node:
    return Node(model, _need(handle))


def insert_after(model: Model, value: str, op_type: str, domain: str = "",
                 consumers: Consumers = None, fresh_name: Optional[str] = None,
                 graph: Optional[Graph] = None) -> Node:
    """Model.insert_after(); see there."""
    g = _graph_of(model, graph)
    arr, n = _consumers(consumers)
    out = ctypes.c_void_p()
    _check(lib.onnxslim_insert_after(g._ptr(), _args.cstr(value, "value"),
                                     _args.cstr(op_type, "op_type"),
                                     _args.cstr_or_none(domain, "domain"), arr, n,
                                     _args.cstr_or_none(fresh_name, "fresh_name"),
                                     ctypes.byref(out)))
    return _node(model, out.value)


def insert_before(model: Model, consumer: Node, input_index: int, op_type: str,
                  domain: str = "", fresh_name: Optional[str] = None) -> Node:
    """Model.insert_before(); see there."""
    g, c = _node_graph(model, consumer)
    out = ctypes.c_void_p()
    _check(lib.onnxslim_insert_before(g._ptr(), c, _args.index(input_index, "input_index", False),
                                      _args.cstr(op_type, "op_type"),
                                      _args.cstr_or_none(domain, "domain"),
                                      _args.cstr_or_none(fresh_name, "fresh_name"),
                                      ctypes.byref(out)))
    return _node(model, out.value)


def insert_cast_after(model: Model, value: str, to: _args.DType, consumers: Consumers = None,
                      fresh_name: Optional[str] = None, graph: Optional[Graph] = None) -> Node:
    """Model.insert_cast_after(); see there."""
    g = _graph_of(model, graph)
    arr, n = _consumers(consumers)
    out = ctypes.c_void_p()
    _check(lib.onnxslim_insert_cast_after(g._ptr(), _args.cstr(value, "value"),
                                          _args.dtype(to, "to"), arr, n,
                                          _args.cstr_or_none(fresh_name, "fresh_name"),
                                          ctypes.byref(out)))
    return _node(model, out.value)


def insert_cast_before(model: Model, consumer: Node, input_index: int, to: _args.DType,
                       fresh_name: Optional[str] = None) -> Node:
    """Model.insert_cast_before(); see there."""
    g, c = _node_graph(model, consumer)
    out = ctypes.c_void_p()
    index = _args.index(input_index, "input_index", False)
    _check(lib.onnxslim_insert_cast_before(g._ptr(), c, index, _args.dtype(to, "to"),
                                           _args.cstr_or_none(fresh_name, "fresh_name"),
                                           ctypes.byref(out)))
    return _node(model, out.value)


def _node_graph(model: Model, consumer: Node) -> Tuple[Graph, int]:
    """The graph holding `consumer` (a Node of `model`), and its handle."""
    handle = _args.handle_of(consumer, Node, "consumer")
    if consumer.model is not model:
        raise ValueError("consumer belongs to another model")
    g = lib.onnxslim_node_graph(handle)
    if not g:
        raise ValueError("consumer is a node of a function body, not of a graph")
    return Graph(model, g), handle
