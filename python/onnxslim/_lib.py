"""Loading libonnxslim and declaring the C functions the package uses.

The shared library is looked for, in order:

1. the path in the environment variable ``ONNXSLIM_LIBRARY``;
2. the build tree this package sits in (``../../build/libonnxslim.so.0``
   relative to the package directory);
3. the system, through ``ctypes.util.find_library("onnxslim")``.

Every C function is declared in ``_FUNCTIONS`` (name, restype, argtypes) and
nowhere else: a function missing from the table is not reachable from
``lib``, so no call can fall back to ctypes' default ``int`` restype (which
would cut 64-bit handles).
"""

import ctypes
import ctypes.util
import os

c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
c_size_t = ctypes.c_size_t
c_int = ctypes.c_int
c_uint = ctypes.c_uint
c_int32 = ctypes.c_int32
c_int64 = ctypes.c_int64
c_uint64 = ctypes.c_uint64
POINTER = ctypes.POINTER


class LoadOptions(ctypes.Structure):
    """struct onnxslim_load_options (model.h)."""

    _fields_ = [
        ("version", c_uint),
        ("flags", c_uint),
        ("max_depth", c_uint),
        ("base_dir", c_char_p),
        ("max_memory", c_uint64),
    ]


class SaveOptions(ctypes.Structure):
    """struct onnxslim_save_options (save.h)."""

    _fields_ = [
        ("version", c_uint),
        ("flags", c_uint),
        ("layout", c_int),
        ("size_threshold", c_uint64),
        ("align", c_uint64),
        ("location", c_char_p),
    ]


# Opaque handles are plain void pointers: ctypes returns them as int or None.
_H = c_void_p

#: name -> (restype, argtypes) for every C function the package calls.
_FUNCTIONS = {
    # version.h, error.h
    "onnxslim_version_string": (c_char_p, []),
    "onnxslim_strerror": (c_char_p, [c_int]),
    "onnxslim_error_last": (c_char_p, []),
    "onnxslim_error_last_code": (c_int, []),
    "onnxslim_error_clear": (None, []),
    # model.h
    "onnxslim_load_options_init": (c_int, [POINTER(LoadOptions), c_uint]),
    "onnxslim_model_open": (c_int, [POINTER(_H), c_char_p, POINTER(LoadOptions)]),
    "onnxslim_model_from_buffer": (c_int, [POINTER(_H), c_char_p, c_size_t, c_uint,
                                           POINTER(LoadOptions)]),
    "onnxslim_model_free": (None, [_H]),
    "onnxslim_model_graph": (_H, [_H]),
    # graph.h
    "onnxslim_graph_name": (c_char_p, [_H]),
    "onnxslim_graph_node_count": (c_size_t, [_H]),
    "onnxslim_graph_node": (_H, [_H, c_size_t]),
    "onnxslim_graph_input_count": (c_size_t, [_H]),
    "onnxslim_graph_input": (_H, [_H, c_size_t]),
    "onnxslim_graph_output_count": (c_size_t, [_H]),
    "onnxslim_graph_output": (_H, [_H, c_size_t]),
    "onnxslim_graph_initializer_count": (c_size_t, [_H]),
    "onnxslim_graph_initializer": (_H, [_H, c_size_t]),
    # type.h
    "onnxslim_value_info_name": (c_char_p, [_H]),
    # node.h
    "onnxslim_node_name": (c_char_p, [_H]),
    "onnxslim_node_op_type": (c_char_p, [_H]),
    "onnxslim_node_domain": (c_char_p, [_H]),
    "onnxslim_node_input_count": (c_size_t, [_H]),
    "onnxslim_node_input": (c_char_p, [_H, c_size_t]),
    "onnxslim_node_output_count": (c_size_t, [_H]),
    "onnxslim_node_output": (c_char_p, [_H, c_size_t]),
    # tensor.h
    "onnxslim_dtype_name": (c_char_p, [c_int32]),
    "onnxslim_tensor_name": (c_char_p, [_H]),
    "onnxslim_tensor_dtype": (c_int32, [_H]),
    "onnxslim_tensor_rank": (c_size_t, [_H]),
    "onnxslim_tensor_dim": (c_int64, [_H, c_size_t]),
    "onnxslim_tensor_data": (c_int, [_H, POINTER(c_void_p), POINTER(c_size_t)]),
    # check.h
    "onnxslim_check": (c_int, [POINTER(_H), _H, c_uint]),
    "onnxslim_check_report_count": (c_size_t, [_H]),
    "onnxslim_check_report_code": (c_int, [_H, c_size_t]),
    "onnxslim_check_report_location": (c_char_p, [_H, c_size_t]),
    "onnxslim_check_report_message": (c_char_p, [_H, c_size_t]),
    "onnxslim_check_report_free": (None, [_H]),
    # fingerprint.h
    "onnxslim_fingerprint": (c_int, [c_char_p, c_size_t, _H]),
    # save.h
    "onnxslim_save_options_init": (c_int, [POINTER(SaveOptions), c_uint]),
    "onnxslim_save": (c_int, [POINTER(_H), _H, c_char_p, POINTER(SaveOptions)]),
    "onnxslim_save_buffer": (c_int, [_H, c_void_p, c_size_t, POINTER(c_size_t)]),
    "onnxslim_save_report_free": (None, [_H]),
}


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
        for name, (restype, argtypes) in _FUNCTIONS.items():
            fn = getattr(cdll, name)
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)


_cdll, library_path = _load()
#: The declared C functions (only those of ``_FUNCTIONS``).
lib = _Lib(_cdll)
