# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Errors: :class:`Error`, one subclass per error code, and the call helpers."""

import os

from ._constants import CONSTANTS as _C
from ._lib import lib


def _str(raw):
    """A borrowed C string as str (bytes that are not UTF-8 are kept, escaped)."""
    return raw.decode("utf-8", "surrogateescape")


def _enc(name):
    """A str argument as the C string the library expects (the inverse of _str).

    TypeError for a non-str; ValueError for a NUL character, where C would
    end the string (and name another value or file).
    """
    if not isinstance(name, str):
        raise TypeError("expected a str, not %s" % type(name).__name__)
    raw = name.encode("utf-8", "surrogateescape")
    if b"\0" in raw:
        raise ValueError("%r must not contain a NUL character" % (name,))
    return raw


def _path(path):
    """A path (str, bytes or os.PathLike) as bytes for C; ValueError on a NUL
    byte, which C would take for the end (and open or write another file)."""
    raw = os.fsencode(path)
    if b"\0" in raw:
        raise ValueError("embedded null byte in path %r" % (path,))
    return raw


class Error(Exception):
    """A failure reported by libonnxslim.

    ``code`` is the library's error code (an ``E*`` constant, negative),
    ``message`` the library's message (onnxslim_error_last()).
    """

    def __init__(self, code, message):
        Exception.__init__(self, code, message)
        self.code = code
        self.message = message

    def __str__(self):
        return "%s (%s)" % (self.message, _str(lib.onnxslim_strerror(self.code)))


class InvalidArgument(Error, ValueError):
    """ONNXSLIM_EINVAL: an argument is invalid, or the model is closed."""


class OutOfMemory(Error):
    """ONNXSLIM_ENOMEM: memory allocation failed."""


class IoError(Error):
    """ONNXSLIM_EIO: an operating-system call failed."""


class ParseError(Error):
    """ONNXSLIM_EPARSE: the bytes are not a well-formed ONNX protobuf message."""


class LimitError(Error):
    """ONNXSLIM_ELIMIT: a limit (depth, size, count) was exceeded."""


class NotFound(Error, LookupError):
    """ONNXSLIM_ENOTFOUND: a looked-up item does not exist."""


class RangeError(Error):
    """ONNXSLIM_ERANGE: an index is out of range."""


class Unsupported(Error):
    """ONNXSLIM_EUNSUPPORTED: the operation is not supported for this input."""


class BufferTooSmall(Error):
    """ONNXSLIM_EBUFSIZE: a buffer is too small."""


class ModelError(Error):
    """ONNXSLIM_EMODEL: the model is well-formed protobuf but semantically invalid."""


class TypeMismatch(Error, TypeError):
    """ONNXSLIM_ETYPE: the item has another type than the one asked for."""


class NoSpace(Error):
    """ONNXSLIM_ENOSPC: no space left on the device, or the file-size limit."""


class Canceled(Error):
    """ONNXSLIM_ECANCELED: the progress function stopped the work; nothing changed.

    The ``progress=`` functions of :func:`load`, :meth:`Model.convert` and
    :meth:`Model.save` stop the work by raising an exception: that exception
    is re-raised, not this one. A C progress function gets this one.
    """


_ERRORS = {
    _C["EINVAL"]: InvalidArgument,
    _C["ENOMEM"]: OutOfMemory,
    _C["EIO"]: IoError,
    _C["EPARSE"]: ParseError,
    _C["ELIMIT"]: LimitError,
    _C["ENOTFOUND"]: NotFound,
    _C["ERANGE"]: RangeError,
    _C["EUNSUPPORTED"]: Unsupported,
    _C["EBUFSIZE"]: BufferTooSmall,
    _C["EMODEL"]: ModelError,
    _C["ETYPE"]: TypeMismatch,
    _C["ENOSPC"]: NoSpace,
    _C["ECANCELED"]: Canceled,
}


def _error(code=None):
    """The exception for `code` (default: the last error), with the library's message."""
    if code is None:
        code = lib.onnxslim_error_last_code()
    message = _str(lib.onnxslim_error_last()) or _str(lib.onnxslim_strerror(code))
    return _ERRORS.get(code, Error)(code, message)


def _check(rc):
    if rc < 0:
        raise _error(rc)
    return rc


def _need(ptr):
    """A returned pointer or C string; NULL means the call failed."""
    if ptr is None:
        raise _error()
    return ptr


def _opt(call, *args):
    """call(*args) for a function whose NULL may mean "absent": the pointer,
    None when it is NULL without an error or with ONNXSLIM_ENOTFOUND, else raise."""
    lib.onnxslim_error_clear()
    ptr = call(*args)
    if ptr is None:
        code = lib.onnxslim_error_last_code()
        if code not in (0, _C["ENOTFOUND"]):
            raise _error(code)
    return ptr
