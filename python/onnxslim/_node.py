"""Nodes of a graph."""

from . import _attr, _graph
from ._base import _Borrowed
from ._errors import _enc, _need, _opt, _str
from ._lib import lib


class Node(_Borrowed):
    """A node of a graph (borrowed from its model)."""

    __slots__ = ()

    @property
    def name(self):
        """The node's name ("" when absent)."""
        return _str(_need(lib.onnxslim_node_name(self._ptr())))

    @property
    def op_type(self):
        """The operator, e.g. "MatMul"."""
        return _str(_need(lib.onnxslim_node_op_type(self._ptr())))

    @property
    def domain(self):
        """The operator's domain ("" for the default ONNX domain)."""
        return _str(_need(lib.onnxslim_node_domain(self._ptr())))

    @property
    def inputs(self):
        """Input value names (list of str; "" for an omitted optional input)."""
        n = self._ptr()
        return [_str(_need(lib.onnxslim_node_input(n, i)))
                for i in range(lib.onnxslim_node_input_count(n))]

    @property
    def outputs(self):
        """Output value names (list of str)."""
        n = self._ptr()
        return [_str(_need(lib.onnxslim_node_output(n, i)))
                for i in range(lib.onnxslim_node_output_count(n))]

    @property
    def doc_string(self):
        """The node's doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_node_doc_string(self._ptr())))

    @property
    def graph(self):
        """The :class:`Graph` holding the node; None for a node of a function body."""
        ptr = _opt(lib.onnxslim_node_graph, self._ptr())
        return None if ptr is None else _graph.Graph(self._model, ptr)

    @property
    def attributes(self):
        """The attributes as a dict name -> typed value, in stored order (see
        :attr:`Attribute.value` for the types; :meth:`find_attribute` gives
        the type name, doc string and ref_attr_name too)."""
        n = self._ptr()
        out = {}
        for i in range(lib.onnxslim_node_attr_count(n)):
            a = _need(lib.onnxslim_node_attr(n, i))
            out[_str(_need(lib.onnxslim_attr_name(a)))] = _attr._value(self._model, a)
        return out

    def find_attribute(self, name):
        """The :class:`Attribute` named `name`, or None when the node has none."""
        ptr = _opt(lib.onnxslim_node_find_attr, self._ptr(), _enc(name))
        return None if ptr is None else _attr.Attribute(self._model, ptr)

    @property
    def subgraphs(self):
        """The graphs of the node's GRAPH and GRAPHS attributes (e.g. If's
        then_branch and else_branch), in attribute order: a list of :class:`Graph`."""
        n = self._ptr()
        return [_graph.Graph(self._model, _need(lib.onnxslim_node_subgraph(n, i)))
                for i in range(lib.onnxslim_node_subgraph_count(n))]

    def __repr__(self):
        if self._model.closed:
            return "<onnxslim.Node (closed)>"
        return "<onnxslim.Node %s %r>" % (self.op_type, self.name)
