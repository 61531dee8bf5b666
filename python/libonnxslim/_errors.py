# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Errors: :class:`Error`, one subclass per error code, and the call helpers."""

import errno as _errno
import os
import re
from typing import Any, Callable, Dict, Optional, Tuple, Type, TypeVar, Union

from ._constants import CONSTANTS as _C
from ._lib import lib


def _str(raw: Optional[bytes]) -> str:
    """A borrowed C string as str (bytes that are not UTF-8 are kept, escaped;
    NULL, for functions that never return it, as "")."""
    return "" if raw is None else raw.decode("utf-8", "surrogateescape")


def _enc(name: str) -> bytes:
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


def _path(path: "Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]") -> bytes:
    """A path (str, bytes or os.PathLike) as bytes for C; ValueError on a NUL
    byte, which C would take for the end (and open or write another file)."""
    raw = os.fsencode(path)
    if b"\0" in raw:
        raise ValueError("embedded null byte in path %r" % (path,))
    return raw


class Error(Exception):
    """A failure reported by libonnxslim.

    ``code`` is the library's error code (an ``E*`` constant, negative),
    ``message`` the library's message (onnxslim_error_last()), which is
    also ``str(error)``. Each code has its subclass, which also subclasses
    the builtin exception that fits: :class:`IoError` and :class:`NoSpace`
    are OSErrors (a missing file a FileNotFoundError), :class:`OutOfMemory`
    a MemoryError, :class:`InvalidArgument` a ValueError, and so on.
    """

    code: int
    message: str

    def __init__(self, code: int, message: str) -> None:
        Exception.__init__(self, code, message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidArgument(Error, ValueError):
    """ONNXSLIM_EINVAL: an argument is invalid, or the model is closed."""


class OutOfMemory(Error, MemoryError):
    """ONNXSLIM_ENOMEM: memory allocation failed (a MemoryError)."""


def _errno_of(message: str) -> Tuple[Optional[int], Optional[str]]:
    """(errno, strerror) of a library message that ends with the operating
    system's message (strerror(): the same libc and locale as os.strerror()),
    e.g. "cannot open '/m.onnx': No such file or directory"; (None, None)
    when it does not."""
    for code in sorted(_errno.errorcode):
        text = os.strerror(code)
        if text and message.endswith(": " + text):
            return code, text
    return None, None


def _filename_of(message: str) -> Optional[str]:
    """The file a library message names: its last '...' that starts the
    message or a word (None when there is none)."""
    m = re.match(r".*(?:^|\s)'(.*?)'(?:$|[\s:,])", message, re.S)
    return m.group(1) if m else None


class _OSErrorBase(Error, OSError):
    """An Error that is an OSError too: ``errno``, ``strerror`` and
    ``filename`` are set from the library's message (``filename``, when the
    message names no file, from the path the call was given)."""

    def __init__(self, code: int, message: str, filename: Optional[str] = None) -> None:
        Error.__init__(self, code, message)
        num, text = _errno_of(message)
        named = _filename_of(message)
        if num is None:
            num = self._guess_errno(message)
        self.errno = num  # type: ignore[assignment]  # None when unknown, as OSError's
        self.strerror = text if text is not None else (  # type: ignore[assignment]
            os.strerror(num) if num is not None else None)
        self.filename = named if named is not None else filename

    @classmethod
    def _guess_errno(cls, message: str) -> Optional[int]:
        """The errno of a message that ends with no operating-system message."""
        return None

    def __reduce__(self) -> Tuple[Any, ...]:
        # pickle as constructed (OSError's own would pass its fields)
        return (type(self), (self.code, self.message, self.filename), self.__dict__)


class IoError(_OSErrorBase):
    """ONNXSLIM_EIO: an operating-system call failed (an OSError).

    ``errno`` is the operating system's error (None when the library's
    message does not give one), ``strerror`` its text, ``filename`` the
    file. A missing file raises a subclass that is also a
    FileNotFoundError; likewise PermissionError, FileExistsError,
    IsADirectoryError and NotADirectoryError.
    """

    @classmethod
    def _guess_errno(cls, message: str) -> Optional[int]:
        return _errno.EISDIR if message.endswith("it is a directory") else None


class _IoFileNotFoundError(IoError, FileNotFoundError):
    """IoError for ENOENT."""


class _IoPermissionError(IoError, PermissionError):
    """IoError for EACCES and EPERM."""


class _IoFileExistsError(IoError, FileExistsError):
    """IoError for EEXIST."""


class _IoIsADirectoryError(IoError, IsADirectoryError):
    """IoError for EISDIR."""


class _IoNotADirectoryError(IoError, NotADirectoryError):
    """IoError for ENOTDIR."""


#: errno -> the IoError subclass that is also the builtin OSError subclass for it
_IO_BY_ERRNO: Dict[int, Type[IoError]] = {
    _errno.ENOENT: _IoFileNotFoundError, _errno.EACCES: _IoPermissionError,
    _errno.EPERM: _IoPermissionError, _errno.EEXIST: _IoFileExistsError,
    _errno.EISDIR: _IoIsADirectoryError, _errno.ENOTDIR: _IoNotADirectoryError,
}


class ParseError(Error, ValueError):
    """ONNXSLIM_EPARSE: the bytes are not a well-formed ONNX protobuf message."""


class LimitError(Error):
    """ONNXSLIM_ELIMIT: a limit (depth, size, count) was exceeded."""


class NotFound(Error, LookupError):
    """ONNXSLIM_ENOTFOUND: a looked-up item does not exist."""


class RangeError(Error, IndexError):
    """ONNXSLIM_ERANGE: an index is out of range."""


class Unsupported(Error):
    """ONNXSLIM_EUNSUPPORTED: the operation is not supported for this input."""


class BufferTooSmall(Error):
    """ONNXSLIM_EBUFSIZE: a buffer is too small."""


class ModelError(Error, ValueError):
    """ONNXSLIM_EMODEL: the model is well-formed protobuf but semantically invalid.

    A model whose external-data file is missing raises a subclass that is
    also a FileNotFoundError (``errno``, ``filename``: the location as the
    model gives it).
    """


class _ModelFileNotFoundError(ModelError, _OSErrorBase, FileNotFoundError):
    """ModelError for a missing external-data file (ENOENT)."""


class TypeMismatch(Error, TypeError):
    """ONNXSLIM_ETYPE: the item has another type than the one asked for."""


class NoSpace(_OSErrorBase):
    """ONNXSLIM_ENOSPC: no space left on the device, or the file-size limit
    (an OSError: ``errno`` ENOSPC, EFBIG for the file-size limit, EDQUOT for
    a quota; ``filename`` the file being written)."""

    @classmethod
    def _guess_errno(cls, message: str) -> Optional[int]:
        return _errno.EFBIG if "file size limit" in message else _errno.ENOSPC


class Canceled(Error):
    """ONNXSLIM_ECANCELED: the progress function stopped the work; nothing changed.

    The ``progress=`` functions of :func:`load`, :meth:`Model.convert` and
    :meth:`Model.save` stop the work by raising an exception: that exception
    is re-raised, not this one. A C progress function gets this one.
    """


_ERRORS: Dict[int, Type[Error]] = {
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


def _error(code: Optional[int] = None, filename: Optional[str] = None) -> Error:
    """The exception for `code` (default: the last error), with the library's
    message; `filename`: the path the call was given (for OSErrors whose
    message names no file)."""
    if code is None:
        code = lib.onnxslim_error_last_code()
    message = _str(lib.onnxslim_error_last()) or _str(lib.onnxslim_strerror(code))
    cls = _ERRORS.get(code, Error)
    if cls is IoError:
        num = _errno_of(message)[0]
        cls = _IO_BY_ERRNO.get(num if num is not None else IoError._guess_errno(message) or 0,
                               IoError)
    elif cls is ModelError and _errno_of(message)[0] == _errno.ENOENT:
        cls = _ModelFileNotFoundError
    if issubclass(cls, _OSErrorBase):
        return cls(code, message, filename)
    return cls(code, message)


def _check(rc: int, filename: Optional[str] = None) -> int:
    """rc, or raise the error of a negative rc (`filename` as for _error())."""
    if rc < 0:
        raise _error(rc, filename)
    return rc


_T = TypeVar("_T")


def _need(ptr: Optional[_T]) -> _T:
    """A returned pointer or C string; NULL means the call failed."""
    if ptr is None:
        raise _error()
    return ptr


def _opt(call: Callable[..., Optional[_T]], *args: Any) -> Optional[_T]:
    """call(*args) for a function whose NULL may mean "absent": the pointer,
    None when it is NULL without an error or with ONNXSLIM_ENOTFOUND, else raise."""
    lib.onnxslim_error_clear()
    ptr = call(*args)
    if ptr is None:
        code = lib.onnxslim_error_last_code()
        if code not in (0, _C["ENOTFOUND"]):
            raise _error(code)
    return ptr
