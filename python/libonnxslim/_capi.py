# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""ctypes declarations of the public C API (generated; do not edit).

Written by scripts/gen-python-capi.py from include/onnxslim/*.h:
one CFUNCTYPE per function pointer type, one Structure per options or
statistics structure and FUNCTIONS, name -> (restype, argtypes) for every
public function. python/tests/test_capi.py regenerates it and fails on any
difference.
"""

from ctypes import (CFUNCTYPE, POINTER as P, Structure, c_char_p, c_double, c_float,
                    c_int, c_int32, c_int64, c_size_t, c_uint, c_uint16, c_uint32,
                    c_uint64, c_void_p)
from typing import TYPE_CHECKING

#: An opaque handle (onnxslim_model *, onnxslim_node *, ...).
H = c_void_p

#: onnxslim_progress_fn (common.h).
ProgressFn = CFUNCTYPE(c_int, c_uint64, c_uint64, c_void_p)


class CheckOptions(Structure):
    """onnxslim_check_options (check.h)."""

    _fields_ = [
        ("version", c_uint),
        ("skip", P(c_int)),
        ("n_skip", c_size_t),
        ("flags", c_uint),
        ("baseline", H),
    ]


class CleanupOptions(Structure):
    """onnxslim_cleanup_options (cleanup.h)."""

    _fields_ = [
        ("version", c_uint),
        ("flags", c_uint),
    ]


class ConvertStats(Structure):
    """onnxslim_convert_stats (convert.h)."""

    _fields_ = [
        ("version", c_uint),
        ("count", c_uint64),
        ("to_inf", c_uint64),
        ("saturated", c_uint64),
        ("flushed", c_uint64),
        ("nan", c_uint64),
        ("max_abs_error", c_double),
        ("max_rel_error", c_double),
    ]


class ConvertOptions(Structure):
    """onnxslim_convert_options (convert.h)."""

    _fields_ = [
        ("version", c_uint),
        ("to", c_int32),
        ("policy", c_int),
        ("flags", c_uint),
        ("select", P(c_char_p)),
        ("n_select", c_size_t),
        ("min_size", c_uint64),
        ("exclude", P(c_char_p)),
        ("n_exclude", c_size_t),
        ("report_flags", c_uint),
        ("progress", ProgressFn),
        ("progress_payload", c_void_p),
        ("overflow", c_int),
    ]


class DiffOptions(Structure):
    """onnxslim_diff_options (diff.h)."""

    _fields_ = [
        ("version", c_uint),
        ("flags", c_uint),
    ]


class DiffNumbers(Structure):
    """onnxslim_diff_numbers (diff.h)."""

    _fields_ = [
        ("version", c_uint),
        ("elements", c_uint64),
        ("differing", c_uint64),
        ("nan_mismatches", c_uint64),
        ("max_abs_diff", c_double),
        ("dequantized", c_int),
    ]


class FingerprintOptions(Structure):
    """onnxslim_fingerprint_options (fingerprint.h)."""

    _fields_ = [
        ("version", c_uint),
        ("progress", ProgressFn),
        ("progress_payload", c_void_p),
    ]


class InferOptions(Structure):
    """onnxslim_infer_options (infer.h)."""

    _fields_ = [
        ("version", c_uint),
        ("flags", c_uint),
    ]


class InsertOptions(Structure):
    """onnxslim_insert_options (insert.h)."""

    _fields_ = [
        ("version", c_uint),
        ("consumers", P(H)),
        ("n_consumers", c_size_t),
        ("fresh_name", c_char_p),
    ]


class LoadOptions(Structure):
    """onnxslim_load_options (model.h)."""

    _fields_ = [
        ("version", c_uint),
        ("flags", c_uint),
        ("max_depth", c_uint),
        ("base_dir", c_char_p),
        ("max_memory", c_uint64),
        ("progress", ProgressFn),
        ("progress_payload", c_void_p),
    ]


class QuantOptions(Structure):
    """onnxslim_quant_options (quant.h)."""

    _fields_ = [
        ("version", c_uint),
        ("to", c_int32),
        ("targets", c_uint),
        ("flags", c_uint),
        ("select", P(c_char_p)),
        ("n_select", c_size_t),
        ("exclude", P(c_char_p)),
        ("n_exclude", c_size_t),
        ("min_size", c_uint64),
        ("format", c_int),
        ("block_size", c_uint64),
        ("scale_type", c_int32),
        ("clip_percentile", c_double),
        ("report_flags", c_uint),
        ("progress", ProgressFn),
        ("progress_payload", c_void_p),
        ("scale_method", c_int),
    ]


class QuantStats(Structure):
    """onnxslim_quant_stats (quant.h)."""

    _fields_ = [
        ("version", c_uint),
        ("bits", c_int),
        ("block_size", c_uint64),
        ("rows", c_uint64),
        ("blocks", c_uint64),
        ("saturated", c_uint64),
        ("scale_min", c_double),
        ("scale_max", c_double),
        ("max_abs_error", c_double),
        ("max_row_rel_error", c_double),
        ("rows_over_1pct", c_uint64),
    ]


class SaveOptions(Structure):
    """onnxslim_save_options (save.h)."""

    _fields_ = [
        ("version", c_uint),
        ("flags", c_uint),
        ("layout", c_int),
        ("size_threshold", c_uint64),
        ("align", c_uint64),
        ("location", c_char_p),
        ("progress", ProgressFn),
        ("progress_payload", c_void_p),
    ]


class SimplifyOptions(Structure):
    """onnxslim_simplify_options (simplify.h)."""

    _fields_ = [
        ("version", c_uint),
        ("passes", c_uint),
        ("max_iterations", c_uint),
        ("flags", c_uint),
        ("progress", ProgressFn),
        ("progress_payload", c_void_p),
        ("fold_max_bytes", c_uint64),
    ]


#: name -> (restype, [argtypes]) for every public function.
FUNCTIONS = {
    # check.h
    "onnxslim_check": (c_int, [P(H), H, c_uint]),
    "onnxslim_check_report_count": (c_size_t, [H]),
    "onnxslim_check_report_location": (c_char_p, [H, c_size_t]),
    "onnxslim_check_report_message": (c_char_p, [H, c_size_t]),
    "onnxslim_check_report_code": (c_int, [H, c_size_t]),
    "onnxslim_check_report_note": (c_char_p, [H]),
    "onnxslim_check_options_init": (c_int, [P(CheckOptions), c_uint]),
    "onnxslim_check_with": (c_int, [P(H), H, P(CheckOptions)]),
    "onnxslim_check_code_name": (c_char_p, [c_int]),
    "onnxslim_check_code_description": (c_char_p, [c_int]),
    "onnxslim_check_code_from_name": (c_int, [c_char_p]),
    "onnxslim_check_code_is_warning": (c_int, [c_int]),
    "onnxslim_check_report_free": (None, [H]),
    # cleanup.h
    "onnxslim_cleanup_options_init": (c_int, [P(CleanupOptions), c_uint]),
    "onnxslim_cleanup_toposort_with": (c_int, [H, P(CleanupOptions)]),
    "onnxslim_cleanup_toposort": (c_int, [H, c_uint]),
    "onnxslim_cleanup_remove_unused_with": (c_int, [H, P(CleanupOptions), P(c_size_t)]),
    "onnxslim_cleanup_remove_unused": (c_int, [H, c_uint, P(c_size_t)]),
    # convert.h
    "onnxslim_convert_stats_init": (c_int, [P(ConvertStats), c_uint]),
    "onnxslim_convert_f32_to_bf16": (c_int, [
        P(c_uint16), P(c_float), c_size_t, c_uint, P(ConvertStats)]),
    "onnxslim_convert_f32_to_f16": (c_int, [
        P(c_uint16), P(c_float), c_size_t, c_uint, P(ConvertStats)]),
    "onnxslim_convert_bf16_to_f32": (c_int, [P(c_float), P(c_uint16), c_size_t]),
    "onnxslim_convert_f16_to_f32": (c_int, [P(c_float), P(c_uint16), c_size_t]),
    "onnxslim_convert_f64_to_f32": (c_int, [
        P(c_float), P(c_double), c_size_t, c_uint, P(ConvertStats)]),
    "onnxslim_convert_f32_to_f64": (c_int, [P(c_double), P(c_float), c_size_t]),
    "onnxslim_convert_f16_to_bf16": (c_int, [
        P(c_uint16), P(c_uint16), c_size_t, c_uint, P(ConvertStats)]),
    "onnxslim_convert_bf16_to_f16": (c_int, [
        P(c_uint16), P(c_uint16), c_size_t, c_uint, P(ConvertStats)]),
    "onnxslim_convert_options_init": (c_int, [P(ConvertOptions), c_uint]),
    "onnxslim_convert_model": (c_int, [P(H), H, P(ConvertOptions)]),
    "onnxslim_convert_gather_tables": (c_int, [P(H), H, c_int32, c_uint64, c_uint]),
    "onnxslim_convert_gather_tables_with": (c_int, [P(H), H, P(ConvertOptions)]),
    "onnxslim_convert_report_count": (c_size_t, [H]),
    "onnxslim_convert_report_name": (c_char_p, [H, c_size_t]),
    "onnxslim_convert_report_from": (c_int32, [H, c_size_t]),
    "onnxslim_convert_report_to": (c_int32, [H, c_size_t]),
    "onnxslim_convert_report_bytes_before": (c_int, [H, c_size_t, P(c_uint64)]),
    "onnxslim_convert_report_bytes_after": (c_int, [H, c_size_t, P(c_uint64)]),
    "onnxslim_convert_report_add_stats": (c_int, [H, c_size_t, P(ConvertStats)]),
    "onnxslim_convert_report_kept_count": (c_size_t, [H]),
    "onnxslim_convert_report_kept_name": (c_char_p, [H, c_size_t]),
    "onnxslim_convert_report_kept_from": (c_int32, [H, c_size_t]),
    "onnxslim_convert_report_kept_add_stats": (c_int, [H, c_size_t, P(ConvertStats)]),
    "onnxslim_convert_report_note_count": (c_size_t, [H]),
    "onnxslim_convert_report_note_code": (c_int, [H, c_size_t]),
    "onnxslim_convert_report_note_name": (c_char_p, [H, c_size_t]),
    "onnxslim_convert_report_note_op": (c_char_p, [H, c_size_t]),
    "onnxslim_convert_report_note_node": (c_char_p, [H, c_size_t]),
    "onnxslim_convert_report_note_input": (c_int, [H, c_size_t, P(c_size_t)]),
    "onnxslim_convert_report_note_bytes": (c_int, [H, c_size_t, P(c_uint64)]),
    "onnxslim_convert_report_note_message": (c_char_p, [H, c_size_t]),
    "onnxslim_convert_note_code_name": (c_char_p, [c_int]),
    "onnxslim_convert_report_free": (None, [H]),
    # diff.h
    "onnxslim_diff_options_init": (c_int, [P(DiffOptions), c_uint]),
    "onnxslim_diff": (c_int, [P(H), H, H, P(DiffOptions)]),
    "onnxslim_diff_report_count": (c_size_t, [H]),
    "onnxslim_diff_report_fingerprint": (c_char_p, [H, c_int]),
    "onnxslim_diff_report_kind": (c_int, [H, c_size_t]),
    "onnxslim_diff_report_aspect": (c_int, [H, c_size_t]),
    "onnxslim_diff_report_graph": (c_char_p, [H, c_size_t]),
    "onnxslim_diff_report_name": (c_char_p, [H, c_size_t]),
    "onnxslim_diff_report_label": (c_char_p, [H, c_size_t]),
    "onnxslim_diff_report_attribute": (c_char_p, [H, c_size_t]),
    "onnxslim_diff_report_value": (c_char_p, [H, c_size_t, c_int]),
    "onnxslim_diff_report_text": (c_char_p, [H, c_size_t]),
    "onnxslim_diff_report_digest": (c_char_p, [H, c_size_t, c_int]),
    "onnxslim_diff_report_node_index": (c_int64, [H, c_size_t, c_int]),
    "onnxslim_diff_report_numbers": (c_int, [H, c_size_t, P(DiffNumbers)]),
    "onnxslim_diff_kind_name": (c_char_p, [c_int]),
    "onnxslim_diff_aspect_name": (c_char_p, [c_int]),
    "onnxslim_diff_report_free": (None, [H]),
    # error.h
    "onnxslim_strerror": (c_char_p, [c_int]),
    "onnxslim_error_last": (c_char_p, []),
    "onnxslim_error_last_code": (c_int, []),
    "onnxslim_error_clear": (None, []),
    # fingerprint.h
    "onnxslim_fingerprint_options_init": (c_int, [P(FingerprintOptions), c_uint]),
    "onnxslim_fingerprint_with": (c_int, [c_char_p, c_size_t, H, P(FingerprintOptions)]),
    "onnxslim_fingerprint": (c_int, [c_char_p, c_size_t, H]),
    # graph.h
    "onnxslim_graph_name": (c_char_p, [H]),
    "onnxslim_graph_doc_string": (c_char_p, [H]),
    "onnxslim_graph_model": (H, [H]),
    "onnxslim_graph_parent_node": (H, [H]),
    "onnxslim_graph_node_count": (c_size_t, [H]),
    "onnxslim_graph_node": (H, [H, c_size_t]),
    "onnxslim_graph_input_count": (c_size_t, [H]),
    "onnxslim_graph_input": (H, [H, c_size_t]),
    "onnxslim_graph_output_count": (c_size_t, [H]),
    "onnxslim_graph_output": (H, [H, c_size_t]),
    "onnxslim_graph_value_info_count": (c_size_t, [H]),
    "onnxslim_graph_value_info": (H, [H, c_size_t]),
    "onnxslim_graph_initializer_count": (c_size_t, [H]),
    "onnxslim_graph_initializer": (H, [H, c_size_t]),
    "onnxslim_graph_sparse_initializer_count": (c_size_t, [H]),
    "onnxslim_graph_sparse_initializer": (H, [H, c_size_t]),
    "onnxslim_graph_find_node": (H, [H, c_char_p]),
    "onnxslim_graph_find_initializer": (H, [H, c_char_p]),
    "onnxslim_graph_find_value_info": (H, [H, c_char_p]),
    "onnxslim_graph_producer": (H, [H, c_char_p]),
    "onnxslim_graph_consumer_count": (c_size_t, [H, c_char_p]),
    "onnxslim_graph_consumer": (H, [H, c_char_p, c_size_t]),
    "onnxslim_graph_set_name": (c_int, [H, c_char_p]),
    "onnxslim_graph_add_node": (c_int, [
        H, c_size_t, c_char_p, c_char_p, c_char_p, P(c_char_p), c_size_t, P(c_char_p), c_size_t,
        P(H)]),
    "onnxslim_graph_remove_node": (c_int, [H, H]),
    "onnxslim_graph_move_node": (c_int, [H, H, c_size_t]),
    "onnxslim_graph_add_initializer": (c_int, [
        H, c_char_p, c_int32, P(c_int64), c_size_t, c_void_p, c_size_t, c_uint, P(H)]),
    "onnxslim_graph_add_initializer_copy": (c_int, [H, H, c_char_p, P(H)]),
    "onnxslim_graph_remove_initializer": (c_int, [H, H]),
    "onnxslim_graph_add_input": (c_int, [H, c_char_p, P(H)]),
    "onnxslim_graph_add_output": (c_int, [H, c_char_p, P(H)]),
    "onnxslim_graph_add_value_info": (c_int, [H, c_char_p, P(H)]),
    "onnxslim_graph_remove_value_info": (c_int, [H, H]),
    "onnxslim_graph_reorder_nodes": (c_int, [H, P(H), c_size_t]),
    "onnxslim_graph_rename_value": (c_int, [H, c_char_p, c_char_p]),
    # infer.h
    "onnxslim_infer_options_init": (c_int, [P(InferOptions), c_uint]),
    "onnxslim_infer_shapes": (c_int, [P(H), H, P(InferOptions)]),
    "onnxslim_infer_report_free": (None, [H]),
    "onnxslim_infer_report_count": (c_size_t, [H]),
    "onnxslim_infer_report_conflicts": (c_size_t, [H]),
    "onnxslim_infer_report_name": (c_char_p, [H, c_size_t]),
    "onnxslim_infer_report_status": (c_int, [H, c_size_t]),
    "onnxslim_infer_report_dtype": (c_int32, [H, c_size_t]),
    "onnxslim_infer_report_rank": (c_int64, [H, c_size_t]),
    "onnxslim_infer_report_dim": (c_int, [H, c_size_t, c_size_t, P(c_int64), P(c_char_p)]),
    # insert.h
    "onnxslim_insert_options_init": (c_int, [P(InsertOptions), c_uint]),
    "onnxslim_insert_after_with": (c_int, [
        H, c_char_p, c_char_p, c_char_p, P(InsertOptions), P(H)]),
    "onnxslim_insert_before_with": (c_int, [
        H, H, c_size_t, c_char_p, c_char_p, P(InsertOptions), P(H)]),
    "onnxslim_insert_cast_after_with": (c_int, [H, c_char_p, c_int32, P(InsertOptions), P(H)]),
    "onnxslim_insert_cast_before_with": (c_int, [H, H, c_size_t, c_int32, P(InsertOptions), P(H)]),
    "onnxslim_insert_after": (c_int, [
        H, c_char_p, c_char_p, c_char_p, P(H), c_size_t, c_char_p, P(H)]),
    "onnxslim_insert_before": (c_int, [H, H, c_size_t, c_char_p, c_char_p, c_char_p, P(H)]),
    "onnxslim_insert_cast_after": (c_int, [H, c_char_p, c_int32, P(H), c_size_t, c_char_p, P(H)]),
    "onnxslim_insert_cast_before": (c_int, [H, H, c_size_t, c_int32, c_char_p, P(H)]),
    # model.h
    "onnxslim_load_options_init": (c_int, [P(LoadOptions), c_uint]),
    "onnxslim_model_open": (c_int, [P(H), c_char_p, P(LoadOptions)]),
    "onnxslim_model_from_buffer": (c_int, [P(H), c_void_p, c_size_t, c_uint, P(LoadOptions)]),
    "onnxslim_model_free": (None, [H]),
    "onnxslim_model_ir_version": (c_int64, [H]),
    "onnxslim_model_producer_name": (c_char_p, [H]),
    "onnxslim_model_producer_version": (c_char_p, [H]),
    "onnxslim_model_domain": (c_char_p, [H]),
    "onnxslim_model_version": (c_int64, [H]),
    "onnxslim_model_doc_string": (c_char_p, [H]),
    "onnxslim_model_opset_count": (c_size_t, [H]),
    "onnxslim_model_opset": (c_int, [H, c_size_t, P(c_char_p), P(c_int64)]),
    "onnxslim_model_metadata_count": (c_size_t, [H]),
    "onnxslim_model_metadata": (c_int, [H, c_size_t, P(c_char_p), P(c_char_p)]),
    "onnxslim_model_graph": (H, [H]),
    "onnxslim_model_function_count": (c_size_t, [H]),
    "onnxslim_model_function": (H, [H, c_size_t]),
    "onnxslim_function_name": (c_char_p, [H]),
    "onnxslim_function_domain": (c_char_p, [H]),
    "onnxslim_function_doc_string": (c_char_p, [H]),
    "onnxslim_function_input_count": (c_size_t, [H]),
    "onnxslim_function_input": (c_char_p, [H, c_size_t]),
    "onnxslim_function_output_count": (c_size_t, [H]),
    "onnxslim_function_output": (c_char_p, [H, c_size_t]),
    "onnxslim_function_attribute_count": (c_size_t, [H]),
    "onnxslim_function_attribute": (c_char_p, [H, c_size_t]),
    "onnxslim_function_node_count": (c_size_t, [H]),
    "onnxslim_function_node": (H, [H, c_size_t]),
    "onnxslim_function_opset_count": (c_size_t, [H]),
    "onnxslim_function_opset": (c_int, [H, c_size_t, P(c_char_p), P(c_int64)]),
    "onnxslim_model_file_count": (c_size_t, [H]),
    "onnxslim_model_file": (c_char_p, [H, c_size_t]),
    "onnxslim_model_find_file": (c_int, [H, c_char_p, P(c_size_t)]),
    "onnxslim_model_file_find": (c_int, [H, c_char_p, P(c_size_t)]),
    "onnxslim_model_set_producer": (c_int, [H, c_char_p, c_char_p]),
    "onnxslim_model_set_doc_string": (c_int, [H, c_char_p]),
    "onnxslim_model_set_ir_version": (c_int, [H, c_int64]),
    "onnxslim_model_set_opset": (c_int, [H, c_char_p, c_int64]),
    "onnxslim_model_remove_opset": (c_int, [H, c_char_p]),
    "onnxslim_model_set_metadata": (c_int, [H, c_char_p, c_char_p]),
    "onnxslim_model_remove_metadata": (c_int, [H, c_char_p]),
    "onnxslim_model_unique_name": (c_int, [H, c_char_p, P(c_char_p)]),
    # node.h
    "onnxslim_node_name": (c_char_p, [H]),
    "onnxslim_node_op_type": (c_char_p, [H]),
    "onnxslim_node_domain": (c_char_p, [H]),
    "onnxslim_node_doc_string": (c_char_p, [H]),
    "onnxslim_node_graph": (H, [H]),
    "onnxslim_node_input_count": (c_size_t, [H]),
    "onnxslim_node_input": (c_char_p, [H, c_size_t]),
    "onnxslim_node_output_count": (c_size_t, [H]),
    "onnxslim_node_output": (c_char_p, [H, c_size_t]),
    "onnxslim_node_attr_count": (c_size_t, [H]),
    "onnxslim_node_attr": (H, [H, c_size_t]),
    "onnxslim_node_find_attr": (H, [H, c_char_p]),
    "onnxslim_node_subgraph_count": (c_size_t, [H]),
    "onnxslim_node_subgraph": (H, [H, c_size_t]),
    "onnxslim_node_set_name": (c_int, [H, c_char_p]),
    "onnxslim_attr_name": (c_char_p, [H]),
    "onnxslim_attr_doc_string": (c_char_p, [H]),
    "onnxslim_attr_ref_attr_name": (c_char_p, [H]),
    "onnxslim_attr_type": (c_int, [H]),
    "onnxslim_attr_float": (c_int, [H, P(c_float)]),
    "onnxslim_attr_int": (c_int, [H, P(c_int64)]),
    "onnxslim_attr_string": (c_int, [H, P(c_char_p), P(c_size_t)]),
    "onnxslim_attr_tensor": (H, [H]),
    "onnxslim_attr_graph": (H, [H]),
    "onnxslim_attr_sparse_tensor": (H, [H]),
    "onnxslim_attr_type_proto": (H, [H]),
    "onnxslim_attr_list_count": (c_size_t, [H]),
    "onnxslim_attr_floats": (c_int, [H, P(P(c_float)), P(c_size_t)]),
    "onnxslim_attr_ints": (c_int, [H, P(P(c_int64)), P(c_size_t)]),
    "onnxslim_attr_strings": (c_int, [H, c_size_t, P(c_char_p), P(c_size_t)]),
    "onnxslim_attr_tensors": (H, [H, c_size_t]),
    "onnxslim_attr_graphs": (H, [H, c_size_t]),
    "onnxslim_attr_sparse_tensors": (H, [H, c_size_t]),
    "onnxslim_attr_type_protos": (H, [H, c_size_t]),
    "onnxslim_attr_list_string": (c_int, [H, c_size_t, P(c_char_p), P(c_size_t)]),
    "onnxslim_attr_list_tensor": (H, [H, c_size_t]),
    "onnxslim_attr_list_graph": (H, [H, c_size_t]),
    "onnxslim_attr_list_sparse_tensor": (H, [H, c_size_t]),
    "onnxslim_attr_list_type_proto": (H, [H, c_size_t]),
    "onnxslim_node_set_op_type": (c_int, [H, c_char_p]),
    "onnxslim_node_set_domain": (c_int, [H, c_char_p]),
    "onnxslim_node_set_input": (c_int, [H, c_size_t, c_char_p]),
    "onnxslim_node_set_output": (c_int, [H, c_size_t, c_char_p]),
    "onnxslim_node_set_inputs": (c_int, [H, P(c_char_p), c_size_t]),
    "onnxslim_node_set_outputs": (c_int, [H, P(c_char_p), c_size_t]),
    "onnxslim_node_set_attr_float": (c_int, [H, c_char_p, c_float]),
    "onnxslim_node_set_attr_int": (c_int, [H, c_char_p, c_int64]),
    "onnxslim_node_set_attr_string": (c_int, [H, c_char_p, c_void_p, c_size_t]),
    "onnxslim_node_set_attr_floats": (c_int, [H, c_char_p, P(c_float), c_size_t]),
    "onnxslim_node_set_attr_ints": (c_int, [H, c_char_p, P(c_int64), c_size_t]),
    "onnxslim_node_set_attr_strings": (c_int, [H, c_char_p, P(c_char_p), P(c_size_t), c_size_t]),
    "onnxslim_node_set_attr_tensor": (c_int, [H, c_char_p, H]),
    "onnxslim_node_set_attr_tensors": (c_int, [H, c_char_p, P(H), c_size_t]),
    "onnxslim_node_set_attr_graph": (c_int, [H, c_char_p, H, P(H)]),
    "onnxslim_node_set_attr_graphs": (c_int, [H, c_char_p, P(H), c_size_t]),
    "onnxslim_node_remove_attr": (c_int, [H, c_char_p]),
    # quant.h
    "onnxslim_quant_options_init": (c_int, [P(QuantOptions), c_uint]),
    "onnxslim_quantize": (c_int, [P(H), H, P(QuantOptions)]),
    "onnxslim_quant_report_count": (c_size_t, [H]),
    "onnxslim_quant_report_name": (c_char_p, [H, c_size_t]),
    "onnxslim_quant_report_from": (c_int32, [H, c_size_t]),
    "onnxslim_quant_report_to": (c_int32, [H, c_size_t]),
    "onnxslim_quant_report_bytes_before": (c_int, [H, c_size_t, P(c_uint64)]),
    "onnxslim_quant_report_bytes_after": (c_int, [H, c_size_t, P(c_uint64)]),
    "onnxslim_quant_report_stats": (c_int, [H, c_size_t, P(QuantStats)]),
    "onnxslim_quant_report_free": (None, [H]),
    # save.h
    "onnxslim_save_options_init": (c_int, [P(SaveOptions), c_uint]),
    "onnxslim_save": (c_int, [P(H), H, c_char_p, P(SaveOptions)]),
    "onnxslim_save_size": (c_int, [H, P(c_uint64)]),
    "onnxslim_save_buffer": (c_int, [H, c_void_p, c_size_t, P(c_size_t)]),
    "onnxslim_save_buffer_external": (c_int, [
        P(H), H, c_void_p, c_size_t, P(c_size_t), P(SaveOptions)]),
    "onnxslim_save_report_count": (c_size_t, [H]),
    "onnxslim_save_report_name": (c_char_p, [H, c_size_t]),
    "onnxslim_save_report_placement": (c_int, [H, c_size_t]),
    "onnxslim_save_report_location": (c_char_p, [H, c_size_t]),
    "onnxslim_save_report_offset": (c_int, [H, c_size_t, P(c_uint64)]),
    "onnxslim_save_report_length": (c_int, [H, c_size_t, P(c_uint64)]),
    "onnxslim_save_report_kernel_copied": (c_uint64, [H]),
    "onnxslim_save_report_free": (None, [H]),
    # simplify.h
    "onnxslim_simplify_options_init": (c_int, [P(SimplifyOptions), c_uint]),
    "onnxslim_simplify": (c_int, [P(H), H, P(SimplifyOptions)]),
    "onnxslim_simplify_pass_name": (c_char_p, [c_uint]),
    "onnxslim_simplify_parse_passes": (c_int, [c_char_p, P(c_uint)]),
    "onnxslim_simplify_report_iterations": (c_uint, [H]),
    "onnxslim_simplify_report_step_count": (c_size_t, [H]),
    "onnxslim_simplify_report_step": (c_int, [
        H, c_size_t, P(c_uint), P(c_uint), P(c_uint64), P(c_uint64), P(c_uint64), P(c_uint64)]),
    "onnxslim_simplify_report_change_count": (c_size_t, [H]),
    "onnxslim_simplify_report_change": (c_int, [
        H, c_size_t, P(c_uint), P(c_int), P(c_char_p), P(c_char_p), P(c_char_p)]),
    "onnxslim_simplify_report_free": (None, [H]),
    # tensor.h
    "onnxslim_dtype_name": (c_char_p, [c_int32]),
    "onnxslim_dtype_bits": (c_uint, [c_int32]),
    "onnxslim_tensor_name": (c_char_p, [H]),
    "onnxslim_tensor_doc_string": (c_char_p, [H]),
    "onnxslim_tensor_dtype": (c_int32, [H]),
    "onnxslim_tensor_rank": (c_size_t, [H]),
    "onnxslim_tensor_dim": (c_int64, [H, c_size_t]),
    "onnxslim_tensor_element_count": (c_int64, [H]),
    "onnxslim_tensor_byte_size": (c_int, [H, P(c_uint64)]),
    "onnxslim_tensor_storage": (c_int, [H]),
    "onnxslim_tensor_data": (c_int, [H, P(c_void_p), P(c_size_t)]),
    "onnxslim_tensor_read": (c_int, [H, c_uint64, c_void_p, c_size_t]),
    "onnxslim_tensor_string_count": (c_size_t, [H]),
    "onnxslim_tensor_string": (c_int, [H, c_size_t, P(c_char_p), P(c_size_t)]),
    "onnxslim_sparse_tensor_values": (H, [H]),
    "onnxslim_sparse_tensor_indices": (H, [H]),
    "onnxslim_sparse_tensor_rank": (c_size_t, [H]),
    "onnxslim_sparse_tensor_dim": (c_int64, [H, c_size_t]),
    "onnxslim_tensor_set_name": (c_int, [H, c_char_p]),
    "onnxslim_tensor_set_data": (c_int, [
        H, c_int32, P(c_int64), c_size_t, c_void_p, c_size_t, c_uint]),
    # type.h
    "onnxslim_value_info_name": (c_char_p, [H]),
    "onnxslim_value_info_doc_string": (c_char_p, [H]),
    "onnxslim_value_info_type": (H, [H]),
    "onnxslim_type_kind": (c_int, [H]),
    "onnxslim_type_denotation": (c_char_p, [H]),
    "onnxslim_type_dtype": (c_int32, [H]),
    "onnxslim_type_elem_type": (c_int32, [H]),
    "onnxslim_type_inner": (H, [H]),
    "onnxslim_type_has_shape": (c_int, [H]),
    "onnxslim_type_rank": (c_size_t, [H]),
    "onnxslim_type_dim": (c_int, [H, c_size_t, P(c_int64), P(c_char_p)]),
    "onnxslim_value_info_set_name": (c_int, [H, c_char_p]),
    "onnxslim_value_info_set_type": (c_int, [H, H]),
    "onnxslim_value_info_set_tensor_type": (c_int, [
        H, c_int32, P(c_int64), P(c_char_p), c_size_t]),
    "onnxslim_value_info_set_dtype": (c_int, [H, c_int32]),
    "onnxslim_value_info_set_elem_type": (c_int, [H, c_int32]),
    # version.h
    "onnxslim_version_string": (c_char_p, []),
    "onnxslim_version_number": (c_uint, []),
}

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Optional, Protocol

    class Lib(Protocol):
        """The functions of FUNCTIONS as the type checker sees them (_lib.lib)."""

        def onnxslim_check(self, *args: Any) -> int:
            ...

        def onnxslim_check_report_count(self, *args: Any) -> int:
            ...

        def onnxslim_check_report_location(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_check_report_message(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_check_report_code(self, *args: Any) -> int:
            ...

        def onnxslim_check_report_note(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_check_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_check_with(self, *args: Any) -> int:
            ...

        def onnxslim_check_code_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_check_code_description(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_check_code_from_name(self, *args: Any) -> int:
            ...

        def onnxslim_check_code_is_warning(self, *args: Any) -> int:
            ...

        def onnxslim_check_report_free(self, *args: Any) -> None:
            ...

        def onnxslim_cleanup_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_cleanup_toposort_with(self, *args: Any) -> int:
            ...

        def onnxslim_cleanup_toposort(self, *args: Any) -> int:
            ...

        def onnxslim_cleanup_remove_unused_with(self, *args: Any) -> int:
            ...

        def onnxslim_cleanup_remove_unused(self, *args: Any) -> int:
            ...

        def onnxslim_convert_stats_init(self, *args: Any) -> int:
            ...

        def onnxslim_convert_f32_to_bf16(self, *args: Any) -> int:
            ...

        def onnxslim_convert_f32_to_f16(self, *args: Any) -> int:
            ...

        def onnxslim_convert_bf16_to_f32(self, *args: Any) -> int:
            ...

        def onnxslim_convert_f16_to_f32(self, *args: Any) -> int:
            ...

        def onnxslim_convert_f64_to_f32(self, *args: Any) -> int:
            ...

        def onnxslim_convert_f32_to_f64(self, *args: Any) -> int:
            ...

        def onnxslim_convert_f16_to_bf16(self, *args: Any) -> int:
            ...

        def onnxslim_convert_bf16_to_f16(self, *args: Any) -> int:
            ...

        def onnxslim_convert_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_convert_model(self, *args: Any) -> int:
            ...

        def onnxslim_convert_gather_tables(self, *args: Any) -> int:
            ...

        def onnxslim_convert_gather_tables_with(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_count(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_convert_report_from(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_to(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_bytes_before(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_bytes_after(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_add_stats(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_kept_count(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_kept_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_convert_report_kept_from(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_kept_add_stats(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_note_count(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_note_code(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_note_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_convert_report_note_op(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_convert_report_note_node(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_convert_report_note_input(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_note_bytes(self, *args: Any) -> int:
            ...

        def onnxslim_convert_report_note_message(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_convert_note_code_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_convert_report_free(self, *args: Any) -> None:
            ...

        def onnxslim_diff_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_diff(self, *args: Any) -> int:
            ...

        def onnxslim_diff_report_count(self, *args: Any) -> int:
            ...

        def onnxslim_diff_report_fingerprint(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_report_kind(self, *args: Any) -> int:
            ...

        def onnxslim_diff_report_aspect(self, *args: Any) -> int:
            ...

        def onnxslim_diff_report_graph(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_report_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_report_label(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_report_attribute(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_report_value(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_report_text(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_report_digest(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_report_node_index(self, *args: Any) -> int:
            ...

        def onnxslim_diff_report_numbers(self, *args: Any) -> int:
            ...

        def onnxslim_diff_kind_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_aspect_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_diff_report_free(self, *args: Any) -> None:
            ...

        def onnxslim_strerror(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_error_last(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_error_last_code(self, *args: Any) -> int:
            ...

        def onnxslim_error_clear(self, *args: Any) -> None:
            ...

        def onnxslim_fingerprint_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_fingerprint_with(self, *args: Any) -> int:
            ...

        def onnxslim_fingerprint(self, *args: Any) -> int:
            ...

        def onnxslim_graph_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_graph_doc_string(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_graph_model(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_parent_node(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_node_count(self, *args: Any) -> int:
            ...

        def onnxslim_graph_node(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_input_count(self, *args: Any) -> int:
            ...

        def onnxslim_graph_input(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_output_count(self, *args: Any) -> int:
            ...

        def onnxslim_graph_output(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_value_info_count(self, *args: Any) -> int:
            ...

        def onnxslim_graph_value_info(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_initializer_count(self, *args: Any) -> int:
            ...

        def onnxslim_graph_initializer(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_sparse_initializer_count(self, *args: Any) -> int:
            ...

        def onnxslim_graph_sparse_initializer(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_find_node(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_find_initializer(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_find_value_info(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_producer(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_consumer_count(self, *args: Any) -> int:
            ...

        def onnxslim_graph_consumer(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_graph_set_name(self, *args: Any) -> int:
            ...

        def onnxslim_graph_add_node(self, *args: Any) -> int:
            ...

        def onnxslim_graph_remove_node(self, *args: Any) -> int:
            ...

        def onnxslim_graph_move_node(self, *args: Any) -> int:
            ...

        def onnxslim_graph_add_initializer(self, *args: Any) -> int:
            ...

        def onnxslim_graph_add_initializer_copy(self, *args: Any) -> int:
            ...

        def onnxslim_graph_remove_initializer(self, *args: Any) -> int:
            ...

        def onnxslim_graph_add_input(self, *args: Any) -> int:
            ...

        def onnxslim_graph_add_output(self, *args: Any) -> int:
            ...

        def onnxslim_graph_add_value_info(self, *args: Any) -> int:
            ...

        def onnxslim_graph_remove_value_info(self, *args: Any) -> int:
            ...

        def onnxslim_graph_reorder_nodes(self, *args: Any) -> int:
            ...

        def onnxslim_graph_rename_value(self, *args: Any) -> int:
            ...

        def onnxslim_infer_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_infer_shapes(self, *args: Any) -> int:
            ...

        def onnxslim_infer_report_free(self, *args: Any) -> None:
            ...

        def onnxslim_infer_report_count(self, *args: Any) -> int:
            ...

        def onnxslim_infer_report_conflicts(self, *args: Any) -> int:
            ...

        def onnxslim_infer_report_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_infer_report_status(self, *args: Any) -> int:
            ...

        def onnxslim_infer_report_dtype(self, *args: Any) -> int:
            ...

        def onnxslim_infer_report_rank(self, *args: Any) -> int:
            ...

        def onnxslim_infer_report_dim(self, *args: Any) -> int:
            ...

        def onnxslim_insert_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_insert_after_with(self, *args: Any) -> int:
            ...

        def onnxslim_insert_before_with(self, *args: Any) -> int:
            ...

        def onnxslim_insert_cast_after_with(self, *args: Any) -> int:
            ...

        def onnxslim_insert_cast_before_with(self, *args: Any) -> int:
            ...

        def onnxslim_insert_after(self, *args: Any) -> int:
            ...

        def onnxslim_insert_before(self, *args: Any) -> int:
            ...

        def onnxslim_insert_cast_after(self, *args: Any) -> int:
            ...

        def onnxslim_insert_cast_before(self, *args: Any) -> int:
            ...

        def onnxslim_load_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_model_open(self, *args: Any) -> int:
            ...

        def onnxslim_model_from_buffer(self, *args: Any) -> int:
            ...

        def onnxslim_model_free(self, *args: Any) -> None:
            ...

        def onnxslim_model_ir_version(self, *args: Any) -> int:
            ...

        def onnxslim_model_producer_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_model_producer_version(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_model_domain(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_model_version(self, *args: Any) -> int:
            ...

        def onnxslim_model_doc_string(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_model_opset_count(self, *args: Any) -> int:
            ...

        def onnxslim_model_opset(self, *args: Any) -> int:
            ...

        def onnxslim_model_metadata_count(self, *args: Any) -> int:
            ...

        def onnxslim_model_metadata(self, *args: Any) -> int:
            ...

        def onnxslim_model_graph(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_model_function_count(self, *args: Any) -> int:
            ...

        def onnxslim_model_function(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_function_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_function_domain(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_function_doc_string(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_function_input_count(self, *args: Any) -> int:
            ...

        def onnxslim_function_input(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_function_output_count(self, *args: Any) -> int:
            ...

        def onnxslim_function_output(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_function_attribute_count(self, *args: Any) -> int:
            ...

        def onnxslim_function_attribute(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_function_node_count(self, *args: Any) -> int:
            ...

        def onnxslim_function_node(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_function_opset_count(self, *args: Any) -> int:
            ...

        def onnxslim_function_opset(self, *args: Any) -> int:
            ...

        def onnxslim_model_file_count(self, *args: Any) -> int:
            ...

        def onnxslim_model_file(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_model_find_file(self, *args: Any) -> int:
            ...

        def onnxslim_model_file_find(self, *args: Any) -> int:
            ...

        def onnxslim_model_set_producer(self, *args: Any) -> int:
            ...

        def onnxslim_model_set_doc_string(self, *args: Any) -> int:
            ...

        def onnxslim_model_set_ir_version(self, *args: Any) -> int:
            ...

        def onnxslim_model_set_opset(self, *args: Any) -> int:
            ...

        def onnxslim_model_remove_opset(self, *args: Any) -> int:
            ...

        def onnxslim_model_set_metadata(self, *args: Any) -> int:
            ...

        def onnxslim_model_remove_metadata(self, *args: Any) -> int:
            ...

        def onnxslim_model_unique_name(self, *args: Any) -> int:
            ...

        def onnxslim_node_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_node_op_type(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_node_domain(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_node_doc_string(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_node_graph(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_node_input_count(self, *args: Any) -> int:
            ...

        def onnxslim_node_input(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_node_output_count(self, *args: Any) -> int:
            ...

        def onnxslim_node_output(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_node_attr_count(self, *args: Any) -> int:
            ...

        def onnxslim_node_attr(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_node_find_attr(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_node_subgraph_count(self, *args: Any) -> int:
            ...

        def onnxslim_node_subgraph(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_node_set_name(self, *args: Any) -> int:
            ...

        def onnxslim_attr_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_attr_doc_string(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_attr_ref_attr_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_attr_type(self, *args: Any) -> int:
            ...

        def onnxslim_attr_float(self, *args: Any) -> int:
            ...

        def onnxslim_attr_int(self, *args: Any) -> int:
            ...

        def onnxslim_attr_string(self, *args: Any) -> int:
            ...

        def onnxslim_attr_tensor(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_graph(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_sparse_tensor(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_type_proto(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_list_count(self, *args: Any) -> int:
            ...

        def onnxslim_attr_floats(self, *args: Any) -> int:
            ...

        def onnxslim_attr_ints(self, *args: Any) -> int:
            ...

        def onnxslim_attr_strings(self, *args: Any) -> int:
            ...

        def onnxslim_attr_tensors(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_graphs(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_sparse_tensors(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_type_protos(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_list_string(self, *args: Any) -> int:
            ...

        def onnxslim_attr_list_tensor(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_list_graph(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_list_sparse_tensor(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_attr_list_type_proto(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_node_set_op_type(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_domain(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_input(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_output(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_inputs(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_outputs(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_float(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_int(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_string(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_floats(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_ints(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_strings(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_tensor(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_tensors(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_graph(self, *args: Any) -> int:
            ...

        def onnxslim_node_set_attr_graphs(self, *args: Any) -> int:
            ...

        def onnxslim_node_remove_attr(self, *args: Any) -> int:
            ...

        def onnxslim_quant_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_quantize(self, *args: Any) -> int:
            ...

        def onnxslim_quant_report_count(self, *args: Any) -> int:
            ...

        def onnxslim_quant_report_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_quant_report_from(self, *args: Any) -> int:
            ...

        def onnxslim_quant_report_to(self, *args: Any) -> int:
            ...

        def onnxslim_quant_report_bytes_before(self, *args: Any) -> int:
            ...

        def onnxslim_quant_report_bytes_after(self, *args: Any) -> int:
            ...

        def onnxslim_quant_report_stats(self, *args: Any) -> int:
            ...

        def onnxslim_quant_report_free(self, *args: Any) -> None:
            ...

        def onnxslim_save_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_save(self, *args: Any) -> int:
            ...

        def onnxslim_save_size(self, *args: Any) -> int:
            ...

        def onnxslim_save_buffer(self, *args: Any) -> int:
            ...

        def onnxslim_save_buffer_external(self, *args: Any) -> int:
            ...

        def onnxslim_save_report_count(self, *args: Any) -> int:
            ...

        def onnxslim_save_report_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_save_report_placement(self, *args: Any) -> int:
            ...

        def onnxslim_save_report_location(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_save_report_offset(self, *args: Any) -> int:
            ...

        def onnxslim_save_report_length(self, *args: Any) -> int:
            ...

        def onnxslim_save_report_kernel_copied(self, *args: Any) -> int:
            ...

        def onnxslim_save_report_free(self, *args: Any) -> None:
            ...

        def onnxslim_simplify_options_init(self, *args: Any) -> int:
            ...

        def onnxslim_simplify(self, *args: Any) -> int:
            ...

        def onnxslim_simplify_pass_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_simplify_parse_passes(self, *args: Any) -> int:
            ...

        def onnxslim_simplify_report_iterations(self, *args: Any) -> int:
            ...

        def onnxslim_simplify_report_step_count(self, *args: Any) -> int:
            ...

        def onnxslim_simplify_report_step(self, *args: Any) -> int:
            ...

        def onnxslim_simplify_report_change_count(self, *args: Any) -> int:
            ...

        def onnxslim_simplify_report_change(self, *args: Any) -> int:
            ...

        def onnxslim_simplify_report_free(self, *args: Any) -> None:
            ...

        def onnxslim_dtype_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_dtype_bits(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_tensor_doc_string(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_tensor_dtype(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_rank(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_dim(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_element_count(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_byte_size(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_storage(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_data(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_read(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_string_count(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_string(self, *args: Any) -> int:
            ...

        def onnxslim_sparse_tensor_values(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_sparse_tensor_indices(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_sparse_tensor_rank(self, *args: Any) -> int:
            ...

        def onnxslim_sparse_tensor_dim(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_set_name(self, *args: Any) -> int:
            ...

        def onnxslim_tensor_set_data(self, *args: Any) -> int:
            ...

        def onnxslim_value_info_name(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_value_info_doc_string(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_value_info_type(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_type_kind(self, *args: Any) -> int:
            ...

        def onnxslim_type_denotation(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_type_dtype(self, *args: Any) -> int:
            ...

        def onnxslim_type_elem_type(self, *args: Any) -> int:
            ...

        def onnxslim_type_inner(self, *args: Any) -> Optional[int]:
            ...

        def onnxslim_type_has_shape(self, *args: Any) -> int:
            ...

        def onnxslim_type_rank(self, *args: Any) -> int:
            ...

        def onnxslim_type_dim(self, *args: Any) -> int:
            ...

        def onnxslim_value_info_set_name(self, *args: Any) -> int:
            ...

        def onnxslim_value_info_set_type(self, *args: Any) -> int:
            ...

        def onnxslim_value_info_set_tensor_type(self, *args: Any) -> int:
            ...

        def onnxslim_value_info_set_dtype(self, *args: Any) -> int:
            ...

        def onnxslim_value_info_set_elem_type(self, *args: Any) -> int:
            ...

        def onnxslim_version_string(self, *args: Any) -> Optional[bytes]:
            ...

        def onnxslim_version_number(self, *args: Any) -> int:
            ...
