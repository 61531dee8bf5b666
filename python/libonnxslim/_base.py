# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The base of the objects borrowed from a model, and the model's lock.

The threading rule of the Python objects (docs/python.md, "Threads"): a
:class:`Model` and every object borrowed from it may be used from any
number of threads. Each model has a lock (an RLock); every method and
property of the model and of its borrowed objects holds it for the whole
of its C calls (and the locks of the models of objects passed to it, as
the tensor add_initializer() copies), so calls on one model run one at a
time (the C rule: one model, one thread at a time) and close() waits for
a call in flight. A
progress callback runs inside such a call: there the model can be neither
used nor closed (RuntimeError, which stops the operation).
"""

from __future__ import annotations

import functools
import inspect
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Sequence,
                    Tuple, TypeVar, overload)

if TYPE_CHECKING:
    from ._model import Model

_T = TypeVar("_T")
_C = TypeVar("_C", bound=type)


def _busy_error(what: str) -> RuntimeError:
    return RuntimeError("libonnxslim: cannot %s the model inside a progress callback of a "
                        "call on it (the call is still using it; close it after the call "
                        "returns)" % what)


def _others(model: Model, args: Tuple[Any, ...],
            kwargs: Dict[str, Any]) -> Optional[List[Model]]:
    """The models other than `model` that objects among the arguments (or in
    list, tuple or dict arguments) are borrowed from: a copy from another
    model reads it."""
    others: Optional[List[Model]] = None
    for a in args + tuple(kwargs.values()) if kwargs else args:
        items = a.values() if isinstance(a, dict) else a if isinstance(a, (list, tuple)) else (a,)
        for x in items:
            if isinstance(x, _Borrowed) and x._model is not model:
                others = others or []
                if x._model not in others:
                    others.append(x._model)
    return others


def _call_holding(models: List[Model], fn: Callable[..., _T], self: Any,
                  args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> _T:
    """fn(self, ...) holding the locks of every model of `models`, taken in
    one order (by id) so that two threads copying between the same models in
    opposite directions cannot deadlock."""
    models = sorted(models, key=id)
    taken = []
    try:
        for m in models:
            m._lock.acquire()
            taken.append(m)
            if m._in_callback:
                raise _busy_error("use")
        return fn(self, *args, **kwargs)
    finally:
        for m in reversed(taken):
            m._lock.release()


def _wrap(fn: Callable[..., _T], getter: bool, of_model: bool) -> Callable[..., _T]:
    """fn(obj, ...) run holding the lock of obj's model (obj itself for a
    Model, obj._model for a borrowed object), and of the models of objects
    passed as arguments; `getter`: fn takes obj only."""
    locked: Callable[..., _T]
    if getter:
        def locked_getter(self: Any) -> _T:
            model = self if of_model else self._model
            with model._lock:
                if model._in_callback:
                    raise _busy_error("use")
                return fn(self)
        locked = locked_getter
    else:
        def locked(self: Any, *args: Any, **kwargs: Any) -> _T:
            model = self if of_model else self._model
            others = _others(model, args, kwargs) if args or kwargs else None
            if others:
                return _call_holding([model] + others, fn, self, args, kwargs)
            with model._lock:
                if model._in_callback:
                    raise _busy_error("use")
                return fn(self, *args, **kwargs)
    return functools.wraps(fn)(locked)


# members that read no handle, or take the lock themselves
_NOT_LOCKED = frozenset(("__init__", "__eq__", "__ne__", "__hash__", "__enter__", "__exit__",
                         "_ptr", "_check_open", "close", "closed", "model"))


#: class name -> class, for every class decorated with @locked (see _kind())
_KINDS: Dict[str, Any] = {}


def _kind(name: str) -> Any:
    """The class `name` (e.g. "Graph"), registered by @locked when its module
    was imported (the package imports them all). A module makes objects of a
    class defined above it (a Node its Graph) through this, so that the
    modules import one another in one direction only (no import cycle)."""
    return _KINDS[name]


def locked(cls: _C) -> _C:
    """Class decorator: every method and property (getter and setter) defined
    in `cls`, but those of _NOT_LOCKED, holds the model's lock while it runs;
    registers `cls` for _kind()."""
    _KINDS[cls.__name__] = cls
    of_model = cls.__name__ == "Model"
    for name, member in list(vars(cls).items()):
        if name in _NOT_LOCKED:
            continue
        if isinstance(member, property):
            setattr(cls, name, property(member.fget and _wrap(member.fget, True, of_model),
                                        member.fset and _wrap(member.fset, False, of_model),
                                        member.fdel, member.__doc__))
        elif inspect.isfunction(member) and (not name.startswith("__") or name == "__repr__"):
            setattr(cls, name, _wrap(member, False, of_model))
    return cls


class _Borrowed:
    """An object borrowed from a model: valid while the model is open."""

    __slots__ = ("_model", "_handle")

    def __init__(self, model: Model, handle: int) -> None:
        self._model = model
        self._handle = handle

    def _ptr(self) -> int:
        self._model._ptr()
        return self._handle

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, _Borrowed) and \
            other._handle == self._handle

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self), self._handle))

    @property
    def model(self) -> Model:
        """The :class:`Model` this object belongs to."""
        return self._model


class _Entries(Sequence[_T]):
    """A report read-only as a sequence of its entries (``self._entries``)."""

    __slots__ = ()
    _entries: List[_T]

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[_T]:
        return iter(self._entries)

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> List[_T]: ...

    def __getitem__(self, index: Any) -> Any:
        return self._entries[index]
