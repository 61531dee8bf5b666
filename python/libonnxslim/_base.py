# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The base of the objects borrowed from a model."""

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
