# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""libonnxslim from Python, through ctypes (nothing to compile).

Load a model with :func:`load`; read it through :class:`Model`,
:class:`Graph`, :class:`Node`, :class:`Attribute`, :class:`Tensor`,
:class:`SparseTensor`, :class:`ValueInfo`, :class:`Type` and
:class:`Function`; edit it (nodes, attributes, initializers, value infos,
model fields; :meth:`Model.insert_after` and the other insertions on an
edge; :meth:`Model.toposort`, :meth:`Model.remove_unused`); convert its
tensors (:meth:`Model.convert`, returning a :class:`ConvertReport`;
:func:`convert_values` for arrays); check, fingerprint and save it
(:meth:`Model.save` with external data, returning a :class:`SaveReport`;
:meth:`Model.merge`; :meth:`Model.save_bytes`). Every failure of the C
library raises :class:`Error` (or one of its subclasses, one per error
code) carrying the library's message. docs/python.md is the guide.

Objects borrowed from a model (graphs, nodes, tensors) are valid while the
model is open; using one after :meth:`Model.close` raises :class:`Error`.
Two objects for the same item compare equal. :meth:`Tensor.numpy` gives a
zero-copy read-only view (numpy is optional).

``library_path`` says which shared library was loaded, ``__version__`` is the
library's own version string.
"""

from . import _constants
from ._constants import *  # noqa: F401,F403  (the ONNXSLIM_* constants)
from ._errors import (  # noqa: F401
    _ERRORS, BufferTooSmall, Canceled, Error, InvalidArgument, IoError, LimitError, ModelError,
    NoSpace, NotFound, OutOfMemory, ParseError, RangeError, TypeMismatch, Unsupported, _error)
from ._attr import Attribute
from ._convert import (ConvertEntry, ConvertNote, ConvertReport, ConvertStats, KeptEntry,
                       QuantStats, convert_values)
from ._diff import DiffEntry, DiffReport
from ._function import Function
from ._graph import Graph
from ._lib import lib, library_path
from ._model import Model, check_code_from_name, check_code_is_warning, check_code_name, load
from ._node import Node
from ._save import SaveEntry, SaveReport
from ._simplify import SimplifyChange, SimplifyReport, SimplifyStep
from ._sparse import SparseTensor
from ._tensor import Tensor
from ._types import Type, ValueInfo

__all__ = ["load", "Model", "Graph", "Node", "Attribute", "Tensor", "SparseTensor",
           "ValueInfo", "Type", "Function", "Error", "library_path",
           "__version__"]
__all__ += sorted(_constants.CONSTANTS)  # (type checkers see them through the * import)
# the classes of _ERRORS, written out for type checkers (test_typing checks the list)
__all__ += ["InvalidArgument", "OutOfMemory", "IoError", "ParseError", "LimitError", "NotFound",
            "RangeError", "Unsupported", "BufferTooSmall", "ModelError", "TypeMismatch",
            "NoSpace", "Canceled"]
__all__ += ["convert_values", "ConvertReport", "ConvertEntry", "ConvertStats", "KeptEntry",
            "ConvertNote", "QuantStats", "SaveReport", "SaveEntry", "check_code_name", "check_code_from_name",
            "check_code_is_warning", "DiffReport", "DiffEntry", "SimplifyReport", "SimplifyStep",
            "SimplifyChange"]

#: The version string of the loaded C library, e.g. "0.2.0".
__version__: str = (lib.onnxslim_version_string() or b"").decode()

# The public names are documented (help(), repr) as libonnxslim.X, where users
# find them, not under the private module that defines them.
for _name in __all__:
    _obj = globals().get(_name)
    if isinstance(_obj, type) or callable(_obj):
        try:
            _obj.__module__ = __name__
        except (AttributeError, TypeError):
            pass
del _name, _obj
