# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""onnxslim_infer_shapes() through ctypes, for the test scripts that compare
it with an oracle (check_infer_vs_onnx.py, check_infer_vs_ort.py).

infer(lib, model_bytes) -> ({value name: (dtype, dims or None)}, error)
where a dim is an int, a str (symbol) or None (unknown).
"""
import ctypes

vp, c_sz, i64 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int64
DRY_RUN = 1


class Opts(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("flags", ctypes.c_uint)]


def load(so):
    lib = ctypes.CDLL(so)
    lib.onnxslim_model_from_buffer.argtypes = [ctypes.POINTER(vp), ctypes.c_char_p, c_sz,
                                               ctypes.c_uint, vp]
    lib.onnxslim_model_free.argtypes = [vp]
    lib.onnxslim_error_last.restype = ctypes.c_char_p
    lib.onnxslim_infer_shapes.argtypes = [ctypes.POINTER(vp), vp, ctypes.POINTER(Opts)]
    lib.onnxslim_infer_report_free.argtypes = [vp]
    lib.onnxslim_infer_report_count.argtypes = [vp]
    lib.onnxslim_infer_report_count.restype = c_sz
    lib.onnxslim_infer_report_name.argtypes = [vp, c_sz]
    lib.onnxslim_infer_report_name.restype = ctypes.c_char_p
    lib.onnxslim_infer_report_dtype.argtypes = [vp, c_sz]
    lib.onnxslim_infer_report_rank.argtypes = [vp, c_sz]
    lib.onnxslim_infer_report_rank.restype = i64
    lib.onnxslim_infer_report_dim.argtypes = [vp, c_sz, c_sz, ctypes.POINTER(i64),
                                              ctypes.POINTER(ctypes.c_char_p)]
    return lib


def infer(lib, data):
    m = vp()
    if lib.onnxslim_model_from_buffer(ctypes.byref(m), data, len(data), 0, None):
        return None, lib.onnxslim_error_last().decode()
    rep = vp()
    rc = lib.onnxslim_infer_shapes(ctypes.byref(rep), m, ctypes.byref(Opts(1, DRY_RUN)))
    if rc:
        err = lib.onnxslim_error_last().decode()
        lib.onnxslim_model_free(m)
        return None, err
    out = {}
    for i in range(lib.onnxslim_infer_report_count(rep)):
        name = lib.onnxslim_infer_report_name(rep, i).decode()
        rank = lib.onnxslim_infer_report_rank(rep, i)
        dims = None
        if rank >= 0:
            dims = []
            for k in range(rank):
                v, p = i64(), ctypes.c_char_p()
                kind = lib.onnxslim_infer_report_dim(rep, i, k, ctypes.byref(v), ctypes.byref(p))
                dims.append(v.value if kind == 1 else p.value.decode() if kind == 2 else None)
        out[name] = (lib.onnxslim_infer_report_dtype(rep, i), dims)
    lib.onnxslim_infer_report_free(rep)
    lib.onnxslim_model_free(m)
    return out, None
