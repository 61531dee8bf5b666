"""Nodes of a graph."""

from ._base import _Borrowed
from ._errors import _need, _str
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

    def __repr__(self):
        if self._model.closed:
            return "<onnxslim.Node (closed)>"
        return "<onnxslim.Node %s %r>" % (self.op_type, self.name)
