# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Graph cleanup (onnxslim/cleanup.h): Model.toposort() and Model.remove_unused()."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Optional

from . import _args
from ._constants import CONSTANTS as _C
from ._errors import _check
from ._insert import _graph_of
from ._lib import lib

if TYPE_CHECKING:
    from ._graph import Graph
    from ._model import Model


def _flags(recursive: bool) -> int:
    return _C["CLEANUP_RECURSIVE"] if _args.flag(recursive, "recursive") else 0


def toposort(model: Model, graph: Optional[Graph] = None, recursive: bool = True) -> None:
    """Model.toposort(); see there."""
    g = _graph_of(model, graph)
    _check(lib.onnxslim_cleanup_toposort(g._ptr(), _flags(recursive)))


def remove_unused(model: Model, graph: Optional[Graph] = None, recursive: bool = True) -> int:
    """Model.remove_unused(); see there."""
    g = _graph_of(model, graph)
    removed = ctypes.c_size_t()
    _check(lib.onnxslim_cleanup_remove_unused(g._ptr(), _flags(recursive), ctypes.byref(removed)))
    return removed.value
