# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The base of the objects borrowed from a model, and the model's lock.

The threading rule of the Python objects (docs/python.md, "Threads"): a
:class:`Model` and every object borrowed from it may be used from any
number of threads. Each model has a lock (an RLock); every method and
property of the model and of its borrowed objects holds it for the whole
of its C calls, so calls on one model run one at a time (the C rule: one
model, one thread at a time) and close() waits for a call in flight. A
progress callback runs inside such a call: there the model can be neither
used nor closed (RuntimeError, which stops the operation).
"""

import functools
import inspect


def _busy_error(what):
    return RuntimeError("libonnxslim: cannot %s the model inside a progress callback of a "
                        "call on it (the call is still using it; close it after the call "
                        "returns)" % what)


def _wrap_model(fn, getter):
    """fn(model, ...) run holding model._lock (`getter`: fn takes self only)."""
    if getter:
        def locked(self):
            with self._lock:
                if self._in_callback:
                    raise _busy_error("use")
                return fn(self)
    else:
        def locked(self, *args, **kwargs):
            with self._lock:
                if self._in_callback:
                    raise _busy_error("use")
                return fn(self, *args, **kwargs)
    return functools.wraps(fn)(locked)


def _wrap_borrowed(fn, getter):
    """fn(borrowed, ...) run holding its model's _lock."""
    if getter:
        def locked(self):
            model = self._model
            with model._lock:
                if model._in_callback:
                    raise _busy_error("use")
                return fn(self)
    else:
        def locked(self, *args, **kwargs):
            model = self._model
            with model._lock:
                if model._in_callback:
                    raise _busy_error("use")
                return fn(self, *args, **kwargs)
    return functools.wraps(fn)(locked)


# members that read no handle, or take the lock themselves
_NOT_LOCKED = frozenset(("__init__", "__eq__", "__ne__", "__hash__", "__enter__", "__exit__",
                         "_ptr", "_check_open", "close", "closed", "model"))


def locked(cls):
    """Class decorator: every method and property (getter and setter) defined
    in `cls`, but those of _NOT_LOCKED, holds the model's lock while it runs."""
    wrap = _wrap_model if cls.__name__ == "Model" else _wrap_borrowed
    for name, member in list(vars(cls).items()):
        if name in _NOT_LOCKED:
            continue
        if isinstance(member, property):
            setattr(cls, name, property(member.fget and wrap(member.fget, True),
                                        member.fset and wrap(member.fset, False),
                                        member.fdel, member.__doc__))
        elif inspect.isfunction(member) and (not name.startswith("__") or name == "__repr__"):
            setattr(cls, name, wrap(member, False))
    return cls


class _Borrowed:
    """An object borrowed from a model: valid while the model is open."""

    __slots__ = ("_model", "_handle")

    def __init__(self, model, handle):
        self._model = model
        self._handle = handle

    def _ptr(self):
        self._model._ptr()
        return self._handle

    def __eq__(self, other):
        return type(other) is type(self) and other._handle == self._handle

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self), self._handle))

    @property
    def model(self):
        """The :class:`Model` this object belongs to."""
        return self._model


class _Entries:
    """A report read-only as a sequence of its entries (``self._entries``)."""

    __slots__ = ()

    def __len__(self):
        return len(self._entries)

    def __iter__(self):
        return iter(self._entries)

    def __getitem__(self, index):
        return self._entries[index]
