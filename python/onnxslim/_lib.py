"""Loading libonnxslim and declaring the C functions the package uses.

The shared library is looked for, in order:

1. the path in the environment variable ``ONNXSLIM_LIBRARY``;
2. the build tree this package sits in (``../../build/libonnxslim.so.0``
   relative to the package directory);
3. the system, through ``ctypes.util.find_library("onnxslim")``.

Every C function is declared in ``_capi.FUNCTIONS`` (name, restype,
argtypes), generated from the headers by scripts/gen-python-capi.py, and
nowhere else: a function missing from the table is not reachable from
``lib``, so no call can fall back to ctypes' default ``int`` restype (which
would cut 64-bit handles).
"""

import ctypes
import ctypes.util
import os

from ._capi import FUNCTIONS, ConvertOptions, ConvertStats, LoadOptions, SaveOptions  # noqa: F401


def _candidates():
    env = os.environ.get("ONNXSLIM_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.normpath(os.path.join(here, "..", "..", "build", "libonnxslim.so.0"))
    found = []
    if os.path.exists(tree):
        found.append(tree)
    system = ctypes.util.find_library("onnxslim")
    if system:
        found.append(system)
    return found


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as exc:
            tried.append("%s (%s)" % (path, exc))
    raise ImportError("onnxslim: cannot load libonnxslim; set ONNXSLIM_LIBRARY to its path"
                      + ("; tried: " + ", ".join(tried) if tried else ""))


class _Lib:
    """The declared functions of the loaded library, as attributes."""

    def __init__(self, cdll):
        for name, (restype, argtypes) in FUNCTIONS.items():
            fn = getattr(cdll, name)
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)


_cdll, library_path = _load()
#: The declared C functions (those of ``_capi.FUNCTIONS``).
lib = _Lib(_cdll)
