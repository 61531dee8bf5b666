# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Insertion of a node on an edge (onnxslim/insert.h): Model.insert_after() and co."""

import ctypes

from . import _args
from ._errors import _check
from ._lib import lib


def _graph_of(model, graph):
    from ._graph import Graph
    if graph is None:
        return model.graph
    if not isinstance(graph, Graph):
        raise TypeError("graph must be a Graph, not %s" % type(graph).__name__)
    if graph.model is not model:
        raise ValueError("graph belongs to another model")
    return graph


def _consumers(consumers):
    from ._node import Node
    if consumers is None:
        return None, 0
    if isinstance(consumers, Node):
        consumers = [consumers]
    handles = [_args.handle_of(c, Node, "consumers entry") for c in consumers]
    return (ctypes.c_void_p * max(len(handles), 1))(*handles), len(handles)


def _node(model, handle):
    from ._node import Node
    return Node(model, handle)


def insert_after(model, value, op_type, domain="", consumers=None, fresh_name=None, graph=None):
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


def insert_before(model, consumer, input_index, op_type, domain="", fresh_name=None):
    """Model.insert_before(); see there."""
    g, c = _node_graph(model, consumer)
    out = ctypes.c_void_p()
    _check(lib.onnxslim_insert_before(g._ptr(), c, _args.index(input_index, "input_index", False),
                                      _args.cstr(op_type, "op_type"),
                                      _args.cstr_or_none(domain, "domain"),
                                      _args.cstr_or_none(fresh_name, "fresh_name"),
                                      ctypes.byref(out)))
    return _node(model, out.value)


def insert_cast_after(model, value, to, consumers=None, fresh_name=None, graph=None):
    """Model.insert_cast_after(); see there."""
    g = _graph_of(model, graph)
    arr, n = _consumers(consumers)
    out = ctypes.c_void_p()
    _check(lib.onnxslim_insert_cast_after(g._ptr(), _args.cstr(value, "value"),
                                          _args.dtype(to, "to"), arr, n,
                                          _args.cstr_or_none(fresh_name, "fresh_name"),
                                          ctypes.byref(out)))
    return _node(model, out.value)


def insert_cast_before(model, consumer, input_index, to, fresh_name=None):
    """Model.insert_cast_before(); see there."""
    g, c = _node_graph(model, consumer)
    out = ctypes.c_void_p()
    index = _args.index(input_index, "input_index", False)
    _check(lib.onnxslim_insert_cast_before(g._ptr(), c, index, _args.dtype(to, "to"),
                                           _args.cstr_or_none(fresh_name, "fresh_name"),
                                           ctypes.byref(out)))
    return _node(model, out.value)


def _node_graph(model, consumer):
    """The graph holding `consumer` (a Node of `model`), and its handle."""
    from ._graph import Graph
    from ._node import Node
    handle = _args.handle_of(consumer, Node, "consumer")
    if consumer.model is not model:
        raise ValueError("consumer belongs to another model")
    g = lib.onnxslim_node_graph(handle)
    if not g:
        raise ValueError("consumer is a node of a function body, not of a graph")
    return Graph(model, g), handle
