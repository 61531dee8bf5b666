# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Loading libonnxslim and declaring the C functions the package uses.

The shared library is looked for, in order; the first that exists is loaded:

1. the path in the environment variable ``LIBONNXSLIM_LIBRARY`` (when set, only
   that: a file that does not load raises ImportError, nothing else is tried);
2. the build tree this package sits in (``../../build/libonnxslim.so.0``
   relative to the package directory), for ``PYTHONPATH=python``;
3. the library installed with the package by ``make install``, which records
   its LIBDIR in ``_installed.py`` (first relative to the package, so a
   DESTDIR-staged or moved prefix still works, then as the absolute path);
4. the system, through ``ctypes.util.find_library("onnxslim")`` (ldconfig's
   cache, then LIBRARY_PATH / LD_LIBRARY_PATH).

``library_path`` is the file that was loaded (for 4, the path the dynamic
loader resolved, from dladdr(), or the bare name when that is unknown).

Every C function is declared in ``_capi.FUNCTIONS`` (name, restype,
argtypes), generated from the headers by scripts/gen-python-capi.py, and
nowhere else: a function missing from the table is not reachable from
``lib``, so no call can fall back to ctypes' default ``int`` restype (which
would cut 64-bit handles).
"""

import ctypes
import os
from typing import TYPE_CHECKING, Iterator, List, Tuple, cast

from ._capi import FUNCTIONS
from ._capi import CheckOptions as CheckOptions, ConvertOptions as ConvertOptions  # noqa: F401
from ._capi import ConvertStats as ConvertStats, LoadOptions as LoadOptions  # noqa: F401
from ._capi import ProgressFn as ProgressFn, QuantStats as QuantStats  # noqa: F401
from ._capi import QuantOptions as QuantOptions  # noqa: F401
from ._capi import DiffNumbers as DiffNumbers, DiffOptions as DiffOptions  # noqa: F401
from ._capi import SaveOptions as SaveOptions  # noqa: F401
from ._capi import InferOptions as InferOptions  # noqa: F401
from ._capi import SimplifyOptions as SimplifyOptions  # noqa: F401

if TYPE_CHECKING:
    from ._capi import Lib

_SONAME = "libonnxslim.so.0"


def _installed_dirs(here: str) -> List[str]:
    """The LIBDIRs make install recorded beside the package ([] when not installed so)."""
    try:
        from . import _installed  # type: ignore[attr-defined]  # written by make install
    except ImportError:
        return []
    dirs: List[str] = []
    rel = getattr(_installed, "LIBDIR_FROM_PACKAGE", None)
    if rel:
        dirs.append(os.path.normpath(os.path.join(here, rel)))
    absolute = getattr(_installed, "LIBDIR", None)
    if absolute and absolute not in dirs:
        dirs.append(absolute)
    return dirs


def _candidates() -> Iterator[Tuple[str, str]]:
    """(path, where) pairs to try, in order; lazily, so that find_library (a
    subprocess or two, and the import of ctypes.util: tens of ms) runs only
    when nothing before it exists."""
    env = os.environ.get("LIBONNXSLIM_LIBRARY")
    if env:
        yield env, "LIBONNXSLIM_LIBRARY"
        return
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.normpath(os.path.join(here, "..", "..", "build", _SONAME))
    if os.path.exists(tree):
        yield tree, "build tree"
    for d in _installed_dirs(here):
        path = os.path.join(d, _SONAME)
        if os.path.exists(path):
            yield path, "installed"
    import ctypes.util
    system = ctypes.util.find_library("onnxslim")
    if system:
        yield system, "system"


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _loaded_path(cdll: ctypes.CDLL, fallback: str) -> str:
    """The file the dynamic loader mapped for `cdll` (dladdr), else `fallback`."""
    try:
        dladdr = ctypes.CDLL(None).dladdr
    except (OSError, AttributeError):
        return fallback
    dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
    dladdr.restype = ctypes.c_int
    info = _DlInfo()
    addr = ctypes.cast(cdll.onnxslim_version_string, ctypes.c_void_p)
    if dladdr(addr, ctypes.byref(info)) and info.dli_fname:
        return os.fsdecode(info.dli_fname)
    return fallback


def _load() -> Tuple[ctypes.CDLL, str]:
    tried: List[str] = []
    for path, where in _candidates():
        try:
            cdll = ctypes.CDLL(path)
        except OSError as exc:
            tried.append("%s (%s: %s)" % (path, where, exc))
            continue
        if where == "system":
            path = _loaded_path(cdll, path)
        return cdll, path
    raise ImportError("libonnxslim: cannot load libonnxslim (looked at LIBONNXSLIM_LIBRARY, the build "
                      "tree, the install's LIBDIR and ctypes.util.find_library('onnxslim')); "
                      "set LIBONNXSLIM_LIBRARY to the path of libonnxslim.so.0"
                      + ("; tried: " + ", ".join(tried) if tried else ""))


class _Lib:
    """The declared functions of the loaded library, as attributes."""

    def __init__(self, cdll: ctypes.CDLL) -> None:
        for name, (restype, argtypes) in FUNCTIONS.items():
            try:
                fn = getattr(cdll, name)
            except AttributeError:
                raise ImportError("libonnxslim: %s has no %s: the library is older than this package"
                                  % (library_path, name)) from None
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)


_cdll, library_path = _load()
#: The declared C functions (those of ``_capi.FUNCTIONS``).
lib = cast("Lib", _Lib(_cdll))
