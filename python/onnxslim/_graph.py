"""Graphs of a model."""

from . import _node, _sparse, _tensor, _types
from ._base import _Borrowed
from ._errors import _enc, _need, _opt, _str
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

    def _value_infos(self, count, get):
        g = self._ptr()
        return [_types.ValueInfo(self._model, _need(get(g, i))) for i in range(count(g))]

    @property
    def inputs(self):
        """The graph inputs, a list of :class:`ValueInfo`."""
        return self._value_infos(lib.onnxslim_graph_input_count, lib.onnxslim_graph_input)

    @property
    def outputs(self):
        """The graph outputs, a list of :class:`ValueInfo`."""
        return self._value_infos(lib.onnxslim_graph_output_count, lib.onnxslim_graph_output)

    @property
    def initializers(self):
        """The (dense) initializers, a list of :class:`Tensor`."""
        g = self._ptr()
        return [_tensor.Tensor(self._model, _need(lib.onnxslim_graph_initializer(g, i)))
                for i in range(lib.onnxslim_graph_initializer_count(g))]

    @property
    def doc_string(self):
        """The graph's doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_graph_doc_string(self._ptr())))

    @property
    def parent_node(self):
        """The :class:`Node` whose attribute holds this subgraph; None for the main graph."""
        ptr = _opt(lib.onnxslim_graph_parent_node, self._ptr())
        return None if ptr is None else _node.Node(self._model, ptr)

    @property
    def value_info(self):
        """The value_info entries (types of intermediate values), a list of :class:`ValueInfo`."""
        return self._value_infos(lib.onnxslim_graph_value_info_count,
                                 lib.onnxslim_graph_value_info)

    @property
    def sparse_initializers(self):
        """The sparse initializers, a list of :class:`SparseTensor`."""
        g = self._ptr()
        get = lib.onnxslim_graph_sparse_initializer
        return [_sparse.SparseTensor(self._model, _need(get(g, i)))
                for i in range(lib.onnxslim_graph_sparse_initializer_count(g))]

    def find_node(self, name):
        """The first :class:`Node` named `name` (a node name, not a value name), or None.

        Lookups search this graph only, not its subgraphs.
        """
        ptr = _opt(lib.onnxslim_graph_find_node, self._ptr(), _enc(name))
        return None if ptr is None else _node.Node(self._model, ptr)

    def find_initializer(self, name):
        """The initializer (:class:`Tensor`) named `name`, or None."""
        ptr = _opt(lib.onnxslim_graph_find_initializer, self._ptr(), _enc(name))
        return None if ptr is None else _tensor.Tensor(self._model, ptr)

    def find_value_info(self, name):
        """The :class:`ValueInfo` of value `name`: the graph input, else the
        output, else the value_info entry of that name; None when there is none."""
        ptr = _opt(lib.onnxslim_graph_find_value_info, self._ptr(), _enc(name))
        return None if ptr is None else _types.ValueInfo(self._model, ptr)

    def producer(self, value):
        """The :class:`Node` of this graph that outputs value `value`, or None
        (a graph input, an initializer, or an unknown name)."""
        ptr = _opt(lib.onnxslim_graph_producer, self._ptr(), _enc(value))
        return None if ptr is None else _node.Node(self._model, ptr)

    def consumers(self, value):
        """The nodes of this graph that use value `value`, in node order: nodes
        listing it as an input and nodes whose subgraphs capture it from this
        scope; each node once. A list of :class:`Node` (empty when none)."""
        g = self._ptr()
        name = _enc(value)
        return [_node.Node(self._model, _need(lib.onnxslim_graph_consumer(g, name, i)))
                for i in range(lib.onnxslim_graph_consumer_count(g, name))]

    def __repr__(self):
        return "<onnxslim.Graph %r>" % (self.name if not self._model.closed else "(closed)")
