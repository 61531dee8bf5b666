"""Graphs of a model."""

from . import _node, _tensor
from ._base import _Borrowed
from ._errors import _need, _str
from ._lib import lib


class Graph(_Borrowed):
    """A graph of a model (borrowed from it)."""

    __slots__ = ()

    @property
    def name(self):
        """The graph's name ("" when absent)."""
        return _str(_need(lib.onnxslim_graph_name(self._ptr())))

    @property
    def nodes(self):
        """The nodes in stored order, a list of :class:`Node`."""
        g = self._ptr()
        return [_node.Node(self._model, _need(lib.onnxslim_graph_node(g, i)))
                for i in range(lib.onnxslim_graph_node_count(g))]

    def _value_names(self, count, get):
        g = self._ptr()
        return [_str(_need(lib.onnxslim_value_info_name(_need(get(g, i)))))
                for i in range(count(g))]

    @property
    def inputs(self):
        """The names of the graph inputs (list of str)."""
        return self._value_names(lib.onnxslim_graph_input_count, lib.onnxslim_graph_input)

    @property
    def outputs(self):
        """The names of the graph outputs (list of str)."""
        return self._value_names(lib.onnxslim_graph_output_count, lib.onnxslim_graph_output)

    @property
    def initializers(self):
        """The (dense) initializers, a list of :class:`Tensor`."""
        g = self._ptr()
        return [_tensor.Tensor(self._model, _need(lib.onnxslim_graph_initializer(g, i)))
                for i in range(lib.onnxslim_graph_initializer_count(g))]

    def __repr__(self):
        return "<onnxslim.Graph %r>" % (self.name if not self._model.closed else "(closed)")
