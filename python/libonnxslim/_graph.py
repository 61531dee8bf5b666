# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Graphs of a model."""

from __future__ import annotations

import ctypes
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

from . import _args, _node, _sparse, _tensor, _types
from ._base import _Borrowed, locked
from ._constants import CONSTANTS as _C
from ._errors import NotFound, _check, _enc, _need, _opt, _str
from ._lib import lib

#: set_value_type(): shape not given, keep it
_KEEP: Any = object()

#: A shape for add_input() and co: per dim an int, a symbolic name or None (unknown).
Shape = Optional[Sequence[Union[int, str, None]]]


@locked
class Graph(_Borrowed):
    """A graph of a model (borrowed from it)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        """The graph's name ("" when absent); settable."""
        return _str(_need(lib.onnxslim_graph_name(self._ptr())))

    @name.setter
    def name(self, value: str) -> None:
        _check(lib.onnxslim_graph_set_name(self._ptr(), _args.cstr(value)))

    @property
    def nodes(self) -> List[_node.Node]:
        """The nodes in stored order, a list of :class:`Node`."""
        g = self._ptr()
        return [_node.Node(self._model, _need(lib.onnxslim_graph_node(g, i)))
                for i in range(lib.onnxslim_graph_node_count(g))]

    def _value_infos(self, count: Callable[[int], int],
                     get: Callable[[int, int], Optional[int]]) -> List[_types.ValueInfo]:
        g = self._ptr()
        return [_types.ValueInfo(self._model, _need(get(g, i))) for i in range(count(g))]

    @property
    def inputs(self) -> List[_types.ValueInfo]:
        """The graph inputs, a list of :class:`ValueInfo`."""
        return self._value_infos(lib.onnxslim_graph_input_count, lib.onnxslim_graph_input)

    @property
    def outputs(self) -> List[_types.ValueInfo]:
        """The graph outputs, a list of :class:`ValueInfo`."""
        return self._value_infos(lib.onnxslim_graph_output_count, lib.onnxslim_graph_output)

    @property
    def initializers(self) -> List[_tensor.Tensor]:
        """The (dense) initializers, a list of :class:`Tensor`."""
        g = self._ptr()
        return [_tensor.Tensor(self._model, _need(lib.onnxslim_graph_initializer(g, i)))
                for i in range(lib.onnxslim_graph_initializer_count(g))]

    @property
    def doc_string(self) -> str:
        """The graph's doc string ("" when absent)."""
        return _str(_need(lib.onnxslim_graph_doc_string(self._ptr())))

    @property
    def parent_node(self) -> Optional[_node.Node]:
        """The :class:`Node` whose attribute holds this subgraph; None for the main graph."""
        ptr = _opt(lib.onnxslim_graph_parent_node, self._ptr())
        return None if ptr is None else _node.Node(self._model, ptr)

    @property
    def value_info(self) -> List[_types.ValueInfo]:
        """The value_info entries (types of intermediate values), a list of :class:`ValueInfo`."""
        return self._value_infos(lib.onnxslim_graph_value_info_count,
                                 lib.onnxslim_graph_value_info)

    @property
    def sparse_initializers(self) -> List[_sparse.SparseTensor]:
        """The sparse initializers, a list of :class:`SparseTensor`."""
        g = self._ptr()
        get = lib.onnxslim_graph_sparse_initializer
        return [_sparse.SparseTensor(self._model, _need(get(g, i)))
                for i in range(lib.onnxslim_graph_sparse_initializer_count(g))]

    def find_node(self, name: str) -> Optional[_node.Node]:
        """The first :class:`Node` named `name` (a node name, not a value name), or None.

        Lookups search this graph only, not its subgraphs.
        """
        ptr = _opt(lib.onnxslim_graph_find_node, self._ptr(), _enc(name))
        return None if ptr is None else _node.Node(self._model, ptr)

    def find_initializer(self, name: str) -> Optional[_tensor.Tensor]:
        """The initializer (:class:`Tensor`) named `name`, or None."""
        ptr = _opt(lib.onnxslim_graph_find_initializer, self._ptr(), _enc(name))
        return None if ptr is None else _tensor.Tensor(self._model, ptr)

    def find_value_info(self, name: str) -> Optional[_types.ValueInfo]:
        """The :class:`ValueInfo` of value `name`: the graph input, else the
        output, else the value_info entry of that name; None when there is none."""
        ptr = _opt(lib.onnxslim_graph_find_value_info, self._ptr(), _enc(name))
        return None if ptr is None else _types.ValueInfo(self._model, ptr)

    def producer(self, value: str) -> Optional[_node.Node]:
        """The :class:`Node` of this graph that outputs value `value`, or None
        (a graph input, an initializer, or an unknown name)."""
        ptr = _opt(lib.onnxslim_graph_producer, self._ptr(), _enc(value))
        return None if ptr is None else _node.Node(self._model, ptr)

    def consumers(self, value: str) -> List[_node.Node]:
        """The nodes of this graph that use value `value`, in node order: nodes
        listing it as an input and nodes whose subgraphs capture it from this
        scope; each node once. A list of :class:`Node` (empty when none)."""
        g = self._ptr()
        name = _enc(value)
        return [_node.Node(self._model, _need(lib.onnxslim_graph_consumer(g, name, i)))
                for i in range(lib.onnxslim_graph_consumer_count(g, name))]

    def __repr__(self) -> str:
        return "<libonnxslim.Graph %r>" % (self.name if not self._model.closed else "(closed)")

    # ---- edits ------------------------------------------------------------------

    def add_node(self, op_type: str, inputs: Iterable[Optional[str]] = (),
                 outputs: Iterable[Optional[str]] = (), name: Optional[str] = None,
                 domain: str = "", attributes: Optional[Dict[str, Any]] = None,
                 index: Optional[int] = None) -> _node.Node:
        """Create a node and return it (a :class:`Node`).

        ``inputs`` and ``outputs`` are lists of value names ("" or None for an
        omitted optional input). ``attributes`` is a dict name -> value set
        with :meth:`Node.set_attribute` (types inferred from the values).
        ``index`` is the node position (default: append). On any failure the
        graph is left without the node.
        """
        g = self._ptr()
        op = _args.cstr(op_type, "op_type")
        ins, n_in = _args.names(inputs, "inputs")
        outs, n_out = _args.names(outputs, "outputs")
        if attributes is not None and not isinstance(attributes, dict):
            raise TypeError("attributes must be a dict, not %s" % type(attributes).__name__)
        out = ctypes.c_void_p()
        _check(lib.onnxslim_graph_add_node(g, _args.index(index), op,
                                           _args.cstr_or_none(domain, "domain"),
                                           _args.cstr_or_none(name), ins, n_in, outs, n_out,
                                           ctypes.byref(out)))
        node = _node.Node(self._model, _need(out.value))
        try:
            for key, value in (attributes or {}).items():
                node.set_attribute(key, value)
        except BaseException:
            lib.onnxslim_graph_remove_node(g, out.value)
            raise
        return node

    def remove_node(self, node: _node.Node) -> None:
        """Remove `node` (a :class:`Node` of this graph); it becomes unusable."""
        _check(lib.onnxslim_graph_remove_node(self._ptr(), _args.handle_of(node, _node.Node,
                                                                             "node")))

    def move_node(self, node: _node.Node, index: int) -> None:
        """Move `node` to position `index` (counted after it is taken out)."""
        _check(lib.onnxslim_graph_move_node(self._ptr(), _args.handle_of(node, _node.Node, "node"),
                                            _args.index(index)))

    def reorder_nodes(self, nodes: Iterable[_node.Node]) -> None:
        """Put the nodes in the order of `nodes`, which lists every node of the graph once."""
        if isinstance(nodes, (str, bytes)):
            raise TypeError("nodes must be a list of Node")
        handles = [_args.handle_of(n, _node.Node, "nodes entry") for n in nodes]
        arr = (ctypes.c_void_p * max(len(handles), 1))(*handles)
        _check(lib.onnxslim_graph_reorder_nodes(self._ptr(), arr, len(handles)))

    def add_initializer(self, name: str, data: Any, dtype: Optional[_args.DType] = None,
                        shape: Optional[Sequence[int]] = None) -> _tensor.Tensor:
        """Append an initializer and return it (a :class:`Tensor`); the data is copied.

        ``data`` is a numpy array (its dtype and shape are used unless
        ``dtype``/``shape`` are given, e.g. ``dtype="BFLOAT16"`` for a uint16
        array of bit patterns), bytes (little-endian, the raw_data layout;
        ``dtype`` and ``shape`` required), a list or scalar (made an array of
        ``dtype`` with numpy), or a :class:`Tensor` of any model (copied,
        renamed to `name`). Does not add a graph input.
        """
        g = self._ptr()
        cname = _args.cstr(name)
        out = ctypes.c_void_p()
        if isinstance(data, _tensor.Tensor):
            if dtype is not None or shape is not None:
                raise TypeError("dtype and shape cannot be given with a Tensor to copy")
            _check(lib.onnxslim_graph_add_initializer_copy(g, data._ptr(), cname,
                                                           ctypes.byref(out)))
        else:
            dt, (dims, rank), buf = _args.tensor_data(data, dtype, shape)
            _check(lib.onnxslim_graph_add_initializer(g, cname, dt, dims, rank, buf.ptr, buf.size,
                                                      _C["COPY"], ctypes.byref(out)))
        return _tensor.Tensor(self._model, _need(out.value))

    def remove_initializer(self, tensor: Union[_tensor.Tensor, str]) -> None:
        """Remove an initializer, given as a :class:`Tensor` or by name."""
        g = self._ptr()
        if isinstance(tensor, str):
            handle = lib.onnxslim_graph_find_initializer(g, _args.cstr(tensor))
            _need(handle)
        else:
            handle = _args.handle_of(tensor, _tensor.Tensor, "tensor")
        _check(lib.onnxslim_graph_remove_initializer(g, handle))

    def rename_value(self, old: str, new: str) -> None:
        """Rename value `old` to `new` everywhere in this graph (nodes, inputs, outputs,
        value_info, initializers, captures in subgraphs). `new` is not checked for use."""
        _check(lib.onnxslim_graph_rename_value(self._ptr(), _args.cstr(old), _args.cstr(new)))

    # value infos: graph inputs, outputs and value_info entries, by value name

    _VI_LISTS: Dict[str, Any] = {
        "input": ("onnxslim_graph_input_count", "onnxslim_graph_input"),
        "output": ("onnxslim_graph_output_count", "onnxslim_graph_output"),
        "value_info": ("onnxslim_graph_value_info_count", "onnxslim_graph_value_info"),
    }

    def _vi_handles(self, name: str, where: Optional[str]) -> List[int]:
        """Handles of the entries named `name` in the lists `where` names (None: all three)."""
        lists: Sequence[str]
        if where is None:
            lists = ("input", "output", "value_info")
        elif where in self._VI_LISTS:
            lists = (where,)
        else:
            raise ValueError("where must be None, 'input', 'output' or 'value_info', not %r"
                             % (where,))
        want = _args.cstr(name)
        g = self._ptr()
        found: List[int] = []
        for key in lists:
            count, get = (getattr(lib, f) for f in self._VI_LISTS[key])
            for i in range(count(g)):
                vi: int = _need(get(g, i))
                if _need(lib.onnxslim_value_info_name(vi)) == want:
                    found.append(vi)
        if not found:
            raise NotFound(_C["ENOTFOUND"], "no %s named '%s' in graph '%s'" % (
                "graph input, output or value_info entry" if where is None else
                {"input": "graph input", "output": "graph output",
                 "value_info": "value_info entry"}[where], name, self.name))
        return found

    def _add_vi(self, fn: Callable[..., int], name: str, dtype: Optional[_args.DType],
                shape: Shape) -> _types.ValueInfo:
        if dtype is None and shape is not None:
            raise TypeError("a shape needs a dtype")
        out = ctypes.c_void_p()
        _check(fn(self._ptr(), _args.cstr(name), ctypes.byref(out)))
        if dtype is not None:
            try:
                _set_tensor_type(_need(out.value), dtype, shape)
            except BaseException:
                lib.onnxslim_graph_remove_value_info(self._ptr(), out.value)
                raise
        return _types.ValueInfo(self._model, _need(out.value))

    def add_input(self, name: str, dtype: Optional[_args.DType] = None,
                  shape: Shape = None) -> _types.ValueInfo:
        """Append a graph input `name` with a tensor type of `dtype` and `shape`.

        ``dtype``: a name ("FLOAT", "int64", "bf16"), a ``DTYPE_*`` value or a
        numpy dtype; None: no type. ``shape``: a sequence whose entries are
        an int (a fixed size), a str (a symbolic size such as "batch") or None
        (unknown); None (the default): no shape. Returns the new :class:`ValueInfo`.
        """
        return self._add_vi(lib.onnxslim_graph_add_input, name, dtype, shape)

    def add_output(self, name: str, dtype: Optional[_args.DType] = None,
                   shape: Shape = None) -> _types.ValueInfo:
        """Append a graph output; as :meth:`add_input`."""
        return self._add_vi(lib.onnxslim_graph_add_output, name, dtype, shape)

    def add_value_info(self, name: str, dtype: Optional[_args.DType] = None,
                       shape: Shape = None) -> _types.ValueInfo:
        """Append a value_info entry; as :meth:`add_input`."""
        return self._add_vi(lib.onnxslim_graph_add_value_info, name, dtype, shape)

    def remove_input(self, name: str) -> None:
        """Remove the graph input `name` (the value stays; see :meth:`remove_unused`)."""
        g = self._ptr()
        _check(lib.onnxslim_graph_remove_value_info(g, self._vi_handles(name, "input")[0]))

    def remove_output(self, name: str) -> None:
        """Remove the graph output `name`."""
        g = self._ptr()
        _check(lib.onnxslim_graph_remove_value_info(g, self._vi_handles(name, "output")[0]))

    def remove_value_info(self, name: str) -> None:
        """Remove the value_info entry `name` (not graph inputs or outputs)."""
        g = self._ptr()
        _check(lib.onnxslim_graph_remove_value_info(g, self._vi_handles(name, "value_info")[0]))

    def set_value_type(self, name: str, type: Union[_args.DType, _types.Type, None],
                       shape: Shape = _KEEP, where: Optional[str] = None) -> None:
        """Set the type of value `name` in this graph's inputs, outputs and value_info.

        ``type``: a data type (as for :meth:`add_input`) for a tensor type;
        with ``shape`` omitted only the element type changes and the shape is
        kept, ``shape=None`` means no shape, else a sequence of int | str |
        None per dim. ``type`` may also be a Type object read from any model
        (copied), or None to remove the type. ``where`` limits the change to
        "input", "output" or "value_info" (default: every entry named
        `name`; :class:`NotFound` when there is none).
        """
        handles = self._vi_handles(name, where)
        if type is None or isinstance(type, _Borrowed):
            if shape is not _KEEP:
                raise TypeError("shape cannot be given with a Type or None")
            src = None if type is None else type._ptr()
            for vi in handles:
                _check(lib.onnxslim_value_info_set_type(vi, src))
        elif shape is _KEEP:
            dt = _args.dtype(type, "type")
            for vi in handles:
                _check(lib.onnxslim_value_info_set_dtype(vi, dt))
        else:
            for vi in handles:
                _set_tensor_type(vi, type, shape)

    def rename_value_info(self, name: str, new_name: str, where: Optional[str] = None) -> None:
        """Rename only the value-info entries named `name` (see :meth:`rename_value`)."""
        new = _args.cstr(new_name)
        for vi in self._vi_handles(name, where):
            _check(lib.onnxslim_value_info_set_name(vi, new))


def _set_tensor_type(vi: int, dtype: _args.DType, shape: Shape) -> None:
    """onnxslim_value_info_set_tensor_type() from Python values."""
    dt = _args.dtype(dtype)
    if shape is None:
        _check(lib.onnxslim_value_info_set_tensor_type(vi, dt, None, None, _args.SIZE_MAX))
        return
    if isinstance(shape, (str, bytes)):
        raise TypeError("shape must be a sequence of int | str | None, not %s"
                        % type(shape).__name__)
    dims = list(shape)
    values = (ctypes.c_int64 * max(len(dims), 1))()
    params = (ctypes.c_char_p * max(len(dims), 1))()
    for i, d in enumerate(dims):
        if d is None:
            values[i] = -1
        elif isinstance(d, str):
            params[i] = _args.cstr(d, "dim")
        else:
            v = _args.int64(d, "dim")
            if v < 0:
                raise ValueError("dims must be >= 0 (None for unknown), not %d" % v)
            values[i] = v
    _check(lib.onnxslim_value_info_set_tensor_type(vi, dt, values, params, len(dims)))
