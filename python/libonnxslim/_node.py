# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Nodes of a graph."""

from . import _args, _attr, _graph
from ._base import _Borrowed
from ._errors import _check, _enc, _need, _opt, _str
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
            return "<libonnxslim.Node (closed)>"
        return "<libonnxslim.Node %s %r>" % (self.op_type, self.name)

    # ---- edits ------------------------------------------------------------------

    def _set_name(self, value):
        _check(lib.onnxslim_node_set_name(self._ptr(), _args.cstr(value)))

    def _set_op_type(self, value):
        _check(lib.onnxslim_node_set_op_type(self._ptr(), _args.cstr(value, "op_type")))

    def _set_domain(self, value):
        _check(lib.onnxslim_node_set_domain(self._ptr(), _args.cstr(value, "domain")))

    def _set_inputs(self, values):
        arr, n = _args.names(values, "inputs")
        _check(lib.onnxslim_node_set_inputs(self._ptr(), arr, n))

    def _set_outputs(self, values):
        arr, n = _args.names(values, "outputs")
        _check(lib.onnxslim_node_set_outputs(self._ptr(), arr, n))

    name = property(name.fget, _set_name, doc="The node's name (\"\" when absent); settable.")
    op_type = property(op_type.fget, _set_op_type, doc="The operator, e.g. \"MatMul\"; settable.")
    domain = property(domain.fget, _set_domain,
                      doc="The operator's domain (\"\" for the default ONNX domain); settable.")
    inputs = property(inputs.fget, _set_inputs,
                      doc="Input value names (list of str; \"\" for an omitted optional input); "
                          "assign a list to replace them all.")
    outputs = property(outputs.fget, _set_outputs,
                       doc="Output value names (list of str); assign a list to replace them all.")

    def set_input(self, index, name):
        """Set input `index` to value `name` ("" = omitted); index == len(inputs) appends."""
        _check(lib.onnxslim_node_set_input(self._ptr(), _args.index(index),
                                           _args.cstr(name)))

    def set_output(self, index, name):
        """Set output `index` to value `name`; index == len(outputs) appends."""
        _check(lib.onnxslim_node_set_output(self._ptr(), _args.index(index),
                                            _args.cstr(name)))

    def set_attribute(self, name, value, type=None):
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
        from . import _attr_edit
        return _attr_edit.set_attribute(self, name, value, type)

    def remove_attribute(self, name):
        """Remove attribute `name` (:class:`NotFound` if the node has none)."""
        _check(lib.onnxslim_node_remove_attr(self._ptr(), _args.cstr(name)))
