# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The ONNXSLIM_* constants of the C headers, in one table.

``CONSTANTS`` maps each name (without the ``ONNXSLIM_`` prefix) to its value
in include/onnxslim/*.h. python/tests/test_constants.py parses the headers and
compares every entry, so the table cannot drift from the C library.
"""

import typing as _typing

#: Name (without ``ONNXSLIM_``) -> value, as in include/onnxslim/*.h.
CONSTANTS: _typing.Dict[str, int] = {
    # common.h: copy or borrow caller bytes
    "COPY": 0,
    "BORROW": 1,
    # error.h: result codes
    "OK": 0,
    "EINVAL": -1,
    "ENOMEM": -2,
    "EIO": -3,
    "EPARSE": -4,
    "ELIMIT": -5,
    "ENOTFOUND": -6,
    "ERANGE": -7,
    "EUNSUPPORTED": -8,
    "EBUFSIZE": -9,
    "EMODEL": -10,
    "ETYPE": -11,
    "ENOSPC": -12,
    "ECANCELED": -13,
    # model.h: load options
    "LOAD_OPTIONS_VERSION": 4,
    "DEFAULT_MAX_DEPTH": 100,
    "MAX_DEPTH_LIMIT": 500,
    # tensor.h: data types
    "DTYPE_UNDEFINED": 0,
    "DTYPE_FLOAT": 1,
    "DTYPE_UINT8": 2,
    "DTYPE_INT8": 3,
    "DTYPE_UINT16": 4,
    "DTYPE_INT16": 5,
    "DTYPE_INT32": 6,
    "DTYPE_INT64": 7,
    "DTYPE_STRING": 8,
    "DTYPE_BOOL": 9,
    "DTYPE_FLOAT16": 10,
    "DTYPE_DOUBLE": 11,
    "DTYPE_UINT32": 12,
    "DTYPE_UINT64": 13,
    "DTYPE_COMPLEX64": 14,
    "DTYPE_COMPLEX128": 15,
    "DTYPE_BFLOAT16": 16,
    "DTYPE_FLOAT8E4M3FN": 17,
    "DTYPE_FLOAT8E4M3FNUZ": 18,
    "DTYPE_FLOAT8E5M2": 19,
    "DTYPE_FLOAT8E5M2FNUZ": 20,
    "DTYPE_UINT4": 21,
    "DTYPE_INT4": 22,
    "DTYPE_FLOAT4E2M1": 23,
    # tensor.h: where a tensor's data is stored
    "STORAGE_NONE": 0,
    "STORAGE_RAW": 1,
    "STORAGE_TYPED": 2,
    "STORAGE_EXTERNAL": 3,
    # node.h: attribute types
    "ATTR_UNDEFINED": 0,
    "ATTR_FLOAT": 1,
    "ATTR_INT": 2,
    "ATTR_STRING": 3,
    "ATTR_TENSOR": 4,
    "ATTR_GRAPH": 5,
    "ATTR_FLOATS": 6,
    "ATTR_INTS": 7,
    "ATTR_STRINGS": 8,
    "ATTR_TENSORS": 9,
    "ATTR_GRAPHS": 10,
    "ATTR_SPARSE_TENSOR": 11,
    "ATTR_SPARSE_TENSORS": 12,
    "ATTR_TYPE_PROTO": 13,
    "ATTR_TYPE_PROTOS": 14,
    # type.h: kinds of type and of dimension
    "TYPE_UNKNOWN": 0,
    "TYPE_TENSOR": 1,
    "TYPE_SEQUENCE": 2,
    "TYPE_MAP": 3,
    "TYPE_OPTIONAL": 4,
    "TYPE_SPARSE_TENSOR": 5,
    "DIM_UNKNOWN": 0,
    "DIM_VALUE": 1,
    "DIM_PARAM": 2,
    # check.h: problem kinds
    "CHECK_UNDEFINED_INPUT": 1,
    "CHECK_DUPLICATE_OUTPUT": 2,
    "CHECK_ORDER": 3,
    "CHECK_TENSOR_SIZE": 4,
    "CHECK_OPSET": 5,
    "CHECK_OUTPUT_NOT_PRODUCED": 6,
    "CHECK_TYPE": 7,
    "CHECK_EMPTY_NAME": 8,
    "CHECK_UNKNOWN_OP": 9,
    "CHECK_ARITY": 10,
    "CHECK_ATTR_MISSING": 11,
    "CHECK_ATTR_UNKNOWN": 12,
    "CHECK_ATTR_TYPE": 13,
    "CHECK_TYPE_CONSTRAINT": 14,
    "CHECK_UNTYPED_IO": 15,
    "CHECK_CHECKSUM": 16,
    "CHECK_FUNCTION": 17,
    "CHECK_EXTERNAL_LOAD_INPUT": 18,
    "CHECK_CODE_MAX": 18,
    "CHECK_OPTIONS_VERSION": 2,
    "CHECK_VERIFY_CHECKSUMS": 1,
    # fingerprint.h
    "FINGERPRINT_SIZE": 33,
    # save.h: layouts, flags, defaults, placements
    "LAYOUT_AS_LOADED": 0,
    "LAYOUT_ONE_FILE": 1,
    "LAYOUT_PER_TENSOR": 2,
    "LAYOUT_INLINE": 3,
    "SAVE_NO_FSYNC": 1,
    "SAVE_ALLOW_LARGE": 2,
    "SAVE_CONSTANTS": 4,
    "SAVE_CHECKSUM": 8,
    "SAVE_FORCE_SHAPE_INPUTS": 16,
    "SAVE_KEEP_STORAGE": 32,
    "SAVE_OPTIONS_VERSION": 2,
    "SAVE_DEFAULT_THRESHOLD": 1024,
    "SAVE_DEFAULT_ALIGN": 4096,
    "PLACEMENT_EXTERNAL": 0,
    "PLACEMENT_BELOW_THRESHOLD": 1,
    "PLACEMENT_SHAPE_INPUT": 2,
    "PLACEMENT_NO_LAYOUT": 3,
    # convert.h: kernel flags, statistics, options, policies
    "CONVERT_TRUNCATE": 1,
    "CONVERT_SATURATE": 2,
    "CONVERT_FLUSH_SUBNORMALS": 4,
    "CONVERT_STATS_VERSION": 1,
    "CONVERT_REPORT_NO_STATS": 1,
    "CONVERT_OPTIONS_VERSION": 6,
    "OVERFLOW_KEEP": 0,
    "OVERFLOW_CONVERT": 1,
    "QUANT_FORMAT_STANDARD": 0,
    "QUANT_FORMAT_ORT": 1,
    "QUANT_FORMAT_NIBBLES": 2,
    "QUANT_ALLOW_UNPACKED": 1,
    "QUANT_ASYMMETRIC": 2,
    "QUANT_STATS_VERSION": 1,
    "POLICY_CAST_AFTER_GATHER": 1,
    "POLICY_CAST_BEFORE": 2,
    "POLICY_STORAGE_ONLY": 3,
    # convert.h: the kinds of the report's notes
    "CONVERT_NOTE_FOLD_BACK": 1,
    "CONVERT_NOTE_STORAGE_ONLY_READ": 2,
    "CONVERT_NOTE_STORAGE_ONLY_GATHER": 3,
    "CONVERT_NOTE_CODE_MAX": 3,
    # cleanup.h
    "CLEANUP_RECURSIVE": 1,
}

#: Name prefixes whose every header constant must be in CONSTANTS (the test
#: checks completeness for these families, not only the values).
FAMILIES = ("E", "DTYPE_", "ATTR_", "LAYOUT_", "SAVE_", "STORAGE_", "TYPE_", "DIM_",
            "CHECK_", "PLACEMENT_", "CONVERT_", "POLICY_", "CLEANUP_", "QUANT_", "OVERFLOW_")

globals().update(CONSTANTS)

if _typing.TYPE_CHECKING:
    # The names globals().update() defines, for type checkers, in CONSTANTS'
    # order (python/tests/test_typing.py checks the list against CONSTANTS).
    COPY: int
    BORROW: int
    OK: int
    EINVAL: int
    ENOMEM: int
    EIO: int
    EPARSE: int
    ELIMIT: int
    ENOTFOUND: int
    ERANGE: int
    EUNSUPPORTED: int
    EBUFSIZE: int
    EMODEL: int
    ETYPE: int
    ENOSPC: int
    ECANCELED: int
    LOAD_OPTIONS_VERSION: int
    DEFAULT_MAX_DEPTH: int
    MAX_DEPTH_LIMIT: int
    DTYPE_UNDEFINED: int
    DTYPE_FLOAT: int
    DTYPE_UINT8: int
    DTYPE_INT8: int
    DTYPE_UINT16: int
    DTYPE_INT16: int
    DTYPE_INT32: int
    DTYPE_INT64: int
    DTYPE_STRING: int
    DTYPE_BOOL: int
    DTYPE_FLOAT16: int
    DTYPE_DOUBLE: int
    DTYPE_UINT32: int
    DTYPE_UINT64: int
    DTYPE_COMPLEX64: int
    DTYPE_COMPLEX128: int
    DTYPE_BFLOAT16: int
    DTYPE_FLOAT8E4M3FN: int
    DTYPE_FLOAT8E4M3FNUZ: int
    DTYPE_FLOAT8E5M2: int
    DTYPE_FLOAT8E5M2FNUZ: int
    DTYPE_UINT4: int
    DTYPE_INT4: int
    DTYPE_FLOAT4E2M1: int
    STORAGE_NONE: int
    STORAGE_RAW: int
    STORAGE_TYPED: int
    STORAGE_EXTERNAL: int
    ATTR_UNDEFINED: int
    ATTR_FLOAT: int
    ATTR_INT: int
    ATTR_STRING: int
    ATTR_TENSOR: int
    ATTR_GRAPH: int
    ATTR_FLOATS: int
    ATTR_INTS: int
    ATTR_STRINGS: int
    ATTR_TENSORS: int
    ATTR_GRAPHS: int
    ATTR_SPARSE_TENSOR: int
    ATTR_SPARSE_TENSORS: int
    ATTR_TYPE_PROTO: int
    ATTR_TYPE_PROTOS: int
    TYPE_UNKNOWN: int
    TYPE_TENSOR: int
    TYPE_SEQUENCE: int
    TYPE_MAP: int
    TYPE_OPTIONAL: int
    TYPE_SPARSE_TENSOR: int
    DIM_UNKNOWN: int
    DIM_VALUE: int
    DIM_PARAM: int
    CHECK_UNDEFINED_INPUT: int
    CHECK_DUPLICATE_OUTPUT: int
    CHECK_ORDER: int
    CHECK_TENSOR_SIZE: int
    CHECK_OPSET: int
    CHECK_OUTPUT_NOT_PRODUCED: int
    CHECK_TYPE: int
    CHECK_EMPTY_NAME: int
    CHECK_UNKNOWN_OP: int
    CHECK_ARITY: int
    CHECK_ATTR_MISSING: int
    CHECK_ATTR_UNKNOWN: int
    CHECK_ATTR_TYPE: int
    CHECK_TYPE_CONSTRAINT: int
    CHECK_UNTYPED_IO: int
    CHECK_CHECKSUM: int
    CHECK_FUNCTION: int
    CHECK_EXTERNAL_LOAD_INPUT: int
    CHECK_CODE_MAX: int
    CHECK_OPTIONS_VERSION: int
    CHECK_VERIFY_CHECKSUMS: int
    FINGERPRINT_SIZE: int
    LAYOUT_AS_LOADED: int
    LAYOUT_ONE_FILE: int
    LAYOUT_PER_TENSOR: int
    LAYOUT_INLINE: int
    SAVE_NO_FSYNC: int
    SAVE_ALLOW_LARGE: int
    SAVE_CONSTANTS: int
    SAVE_CHECKSUM: int
    SAVE_FORCE_SHAPE_INPUTS: int
    SAVE_KEEP_STORAGE: int
    SAVE_OPTIONS_VERSION: int
    SAVE_DEFAULT_THRESHOLD: int
    SAVE_DEFAULT_ALIGN: int
    PLACEMENT_EXTERNAL: int
    PLACEMENT_BELOW_THRESHOLD: int
    PLACEMENT_SHAPE_INPUT: int
    PLACEMENT_NO_LAYOUT: int
    CONVERT_TRUNCATE: int
    CONVERT_SATURATE: int
    CONVERT_FLUSH_SUBNORMALS: int
    CONVERT_STATS_VERSION: int
    CONVERT_REPORT_NO_STATS: int
    CONVERT_OPTIONS_VERSION: int
    OVERFLOW_KEEP: int
    OVERFLOW_CONVERT: int
    QUANT_FORMAT_STANDARD: int
    QUANT_FORMAT_ORT: int
    QUANT_FORMAT_NIBBLES: int
    QUANT_ALLOW_UNPACKED: int
    QUANT_ASYMMETRIC: int
    QUANT_STATS_VERSION: int
    POLICY_CAST_AFTER_GATHER: int
    POLICY_CAST_BEFORE: int
    POLICY_STORAGE_ONLY: int
    CONVERT_NOTE_FOLD_BACK: int
    CONVERT_NOTE_STORAGE_ONLY_READ: int
    CONVERT_NOTE_STORAGE_ONLY_GATHER: int
    CONVERT_NOTE_CODE_MAX: int
    CLEANUP_RECURSIVE: int
