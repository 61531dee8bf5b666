# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Graph simplification (onnxslim/simplify.h): Model.simplify()."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Callable, Iterable, List, NamedTuple, Optional, Union

from . import _args, _progress
from ._constants import CONSTANTS as _C
from ._errors import _check
from ._lib import SimplifyOptions, lib

if TYPE_CHECKING:
    from ._model import Model

_KINDS = {
    1: "removed_node",
    2: "merged_node",
    3: "removed_initializer",
    4: "merged_initializer",
    5: "removed_opset",
    6: "removed_function",
    7: "folded_node",
}


class SimplifyStep(NamedTuple):
    """One pass run: its pass ("noop", "cse", "dead"), its round (from 1), and the nodes
    and initializers of every graph before and after it."""
    pass_name: str
    iteration: int
    nodes_before: int
    nodes_after: int
    initializers_before: int
    initializers_after: int


class SimplifyChange(NamedTuple):
    """One change: its pass, its kind ("removed_node", "merged_node",
    "removed_initializer", "merged_initializer", "removed_opset", "removed_function"), what changed (a node's
    name or first output, an initializer's name, a domain), what it was merged into or
    what its readers read now ("" when nothing), and its graph's name."""
    pass_name: str
    kind: str
    name: str
    into: str
    graph: str


class SimplifyReport:
    """What :meth:`Model.simplify` did: ``iterations``, ``steps`` (one
    :class:`SimplifyStep` per pass run) and ``changes`` (one :class:`SimplifyChange` per
    removal or merge); ``nodes_before``/``nodes_after`` and ``initializers_before``/
    ``initializers_after`` over the whole run."""

    def __init__(self, iterations: int, steps: List[SimplifyStep],
                 changes: List[SimplifyChange]) -> None:
        self.iterations = iterations
        self.steps = steps
        self.changes = changes

    @property
    def nodes_before(self) -> int:
        """Nodes of every graph before the first pass run."""
        return self.steps[0].nodes_before if self.steps else 0

    @property
    def nodes_after(self) -> int:
        """Nodes of every graph after the last pass run."""
        return self.steps[-1].nodes_after if self.steps else 0

    @property
    def initializers_before(self) -> int:
        """Initializers of every graph before the first pass run."""
        return self.steps[0].initializers_before if self.steps else 0

    @property
    def initializers_after(self) -> int:
        """Initializers of every graph after the last pass run."""
        return self.steps[-1].initializers_after if self.steps else 0

    def __repr__(self) -> str:
        return "<SimplifyReport %d rounds, nodes %d -> %d, initializers %d -> %d, %d changes>" % (
            self.iterations, self.nodes_before, self.nodes_after, self.initializers_before,
            self.initializers_after, len(self.changes))


def _passes(passes: Union[str, Iterable[str]]) -> int:
    if isinstance(passes, str):
        text = passes
    else:
        items = list(passes)
        if not all(isinstance(p, str) for p in items):
            raise TypeError("passes must be a string or strings, not %r" % (passes,))
        text = ",".join(items)
    bits = ctypes.c_uint()
    _check(lib.onnxslim_simplify_parse_passes(text.encode(), ctypes.byref(bits)))
    return bits.value


def _name(pass_bit: int) -> str:
    s = lib.onnxslim_simplify_pass_name(pass_bit)
    return s.decode() if s else "?"


def _str(p: Optional[bytes]) -> str:
    return p.decode("utf-8", "replace") if p else ""


def simplify(model: Model, passes: Union[str, Iterable[str]] = "all", max_iterations: int = 0,
             progress: Optional[Callable[[int, int], Any]] = None,
             fold_max_bytes: int = 0) -> SimplifyReport:
    """Model.simplify(); see there."""
    m = model._ptr()
    opts = SimplifyOptions()
    _check(lib.onnxslim_simplify_options_init(ctypes.byref(opts), _C["SIMPLIFY_OPTIONS_VERSION"]))
    opts.passes = _passes(passes)
    iters = _args.uint64(max_iterations, "max_iterations")
    if iters > _C["SIMPLIFY_MAX_ITERATIONS"]:
        raise ValueError("max_iterations must be 0 (the default: up to %d) to %d, not %r" %
                         (_C["SIMPLIFY_MAX_ITERATIONS"], _C["SIMPLIFY_MAX_ITERATIONS"],
                          max_iterations))
    opts.max_iterations = iters
    opts.fold_max_bytes = _args.uint64(fold_max_bytes, "fold_max_bytes")
    prog = _progress.make(progress, model)
    if prog:
        prog.attach(opts)
    rep = ctypes.c_void_p()
    rc = lib.onnxslim_simplify(ctypes.byref(rep), m, ctypes.byref(opts))
    if prog:
        try:
            prog.check()
        except BaseException:
            lib.onnxslim_simplify_report_free(rep)
            raise
    _check(rc)
    try:
        steps = []
        for i in range(lib.onnxslim_simplify_report_step_count(rep)):
            v = [ctypes.c_uint(), ctypes.c_uint()] + [ctypes.c_uint64() for _ in range(4)]
            _check(lib.onnxslim_simplify_report_step(rep, i, *[ctypes.byref(x) for x in v]))
            steps.append(SimplifyStep(_name(v[0].value), *[x.value for x in v[1:]]))
        changes = []
        for i in range(lib.onnxslim_simplify_report_change_count(rep)):
            pb, kind = ctypes.c_uint(), ctypes.c_int()
            name, into, graph = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_char_p()
            _check(lib.onnxslim_simplify_report_change(
                rep, i, ctypes.byref(pb), ctypes.byref(kind), ctypes.byref(name),
                ctypes.byref(into), ctypes.byref(graph)))
            changes.append(SimplifyChange(_name(pb.value), _KINDS.get(kind.value, "?"),
                                          _str(name.value), _str(into.value), _str(graph.value)))
        return SimplifyReport(lib.onnxslim_simplify_report_iterations(rep), steps, changes)
    finally:
        lib.onnxslim_simplify_report_free(rep)
