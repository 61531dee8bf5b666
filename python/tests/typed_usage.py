# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Typed code that uses every public name of libonnxslim.

Test step 44-python-typing type-checks it with ``mypy --strict`` (with
examples/*.py and the package); python/tests/test_typing.py runs it and
checks that it names every entry of ``libonnxslim.__all__``. The
annotations on the variables are what a type checker must infer.

Usage: python3 typed_usage.py MODEL.onnx TMPDIR
"""

import errno
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

import libonnxslim as lo


def walk(graph: lo.Graph, depth: int = 0) -> int:
    """Reads every node, attribute and subgraph; returns the node count."""
    count = 0
    for node in graph.nodes:
        count += 1
        op: str = node.op_type
        ins: List[str] = node.inputs
        outs: List[str] = node.outputs
        holder: Optional[lo.Graph] = node.graph
        assert op and isinstance(ins, list) and isinstance(outs, list) and holder is not None
        attrs: Dict[str, Any] = node.attributes
        for name in attrs:
            attr: Optional[lo.Attribute] = node.find_attribute(name)
            assert attr is not None
            kind: str = attr.type
            value: Any = attr.value
            if isinstance(value, lo.Tensor):
                arr: npt.NDArray[Any] = np.asarray(value)
                assert arr.shape == value.shape, kind
        sub: lo.Graph
        for sub in node.subgraphs:
            count += walk(sub, depth + 1)
    return count


def read(model: lo.Model) -> None:
    g: lo.Graph = model.graph
    assert walk(g) > 0
    opsets: Dict[str, int] = model.opsets
    ir: int = model.ir_version
    meta: Dict[str, str] = model.metadata
    files: List[str] = model.files
    assert opsets and ir > 0 and isinstance(meta, dict) and files
    fns: List[lo.Function] = model.functions
    for fn in fns:
        body: List[lo.Node] = fn.nodes
        assert fn.name and isinstance(body, list)
    vi: lo.ValueInfo
    for vi in g.inputs + g.outputs:
        t: Optional[lo.Type] = vi.type
        if t is not None:
            shape: Optional[Tuple[Union[int, str, None], ...]] = t.shape
            elem: str = t.dtype
            assert elem and (shape is None or isinstance(shape, tuple))
    sparse: List[lo.SparseTensor] = g.sparse_initializers
    for sp in sparse:
        dense: Tuple[int, ...] = sp.shape
        values: Optional[lo.Tensor] = sp.values
        assert dense and values is not None
    table: lo.Tensor = max(g.initializers, key=lambda x: x.size)
    view: npt.NDArray[Any] = table.numpy()
    copy: npt.NDArray[Any] = np.array(table)
    total: float = float(np.sum(table))
    assert view.shape == copy.shape and total == float(copy.sum())
    del view
    raw: bytes = table.tobytes()
    assert len(raw) == table.nbytes
    problems: List[Tuple[int, str, str]] = model.check()
    for code, where, message in problems:
        assert lo.check_code_is_warning(code) or where or message
    assert lo.check_code_from_name(lo.check_code_name(lo.CHECK_UNDEFINED_INPUT)) == \
        lo.CHECK_UNDEFINED_INPUT
    fp: str = model.fingerprint()
    assert len(fp) == 32


def edit_and_save(model: lo.Model, tmp: str) -> None:
    g = model.graph
    x: lo.ValueInfo = g.add_input("extra_x", "FLOAT", ["batch", 4])
    g.add_output("extra_y", np.float32, [None, 4])
    n: lo.Node = g.add_node("Relu", [x.name], ["extra_y"], name="extra_relu")
    n.name = "extra_relu2"
    n.set_attribute("note", "typed")
    w: lo.Tensor = g.add_initializer("extra_w", np.ones((2, 2), dtype=np.float32))
    w.set_data(np.zeros((2, 2), dtype=np.float32))
    cast: lo.Node = model.insert_cast_after("extra_y", "FLOAT16")
    assert cast.op_type == "Cast"
    g.remove_node(cast)
    g.remove_node(n)
    g.remove_input("extra_x")
    g.remove_output("extra_y")
    model.producer_name = "typed_usage"
    removed: int = model.remove_unused()
    assert removed >= 0
    model.toposort()

    report: lo.ConvertReport = model.convert(gather_to="bf16", rounding="truncate")
    entry: lo.ConvertEntry
    for entry in report:
        st: lo.ConvertStats = entry.stats
        q: Optional[lo.QuantStats] = entry.quant
        assert entry.bytes_after < entry.bytes_before and st.count > 0 and q is None
    kept: List[lo.KeptEntry] = report.kept
    assert isinstance(kept, list)
    note: lo.ConvertNote
    for note in report.notes:
        assert note.code in (lo.CONVERT_NOTE_FOLD_BACK, lo.CONVERT_NOTE_STORAGE_ONLY_READ,
                             lo.CONVERT_NOTE_STORAGE_ONLY_GATHER)
        assert note.code <= lo.CONVERT_NOTE_CODE_MAX and note.code_name and note.bytes > 0


    path = os.path.join(tmp, "typed.onnx")
    saved: lo.SaveReport = model.save(path, external_data="one_file", threshold=0,
                                      progress=lambda done, total: None)
    placed: lo.SaveEntry
    for placed in saved:
        assert (placed.location is not None) == (placed.placement == "external")
    size: int = model.save_size()
    data: bytes = model.save_bytes()
    assert size == len(data)

    quant = lo.load(data, base_dir=tmp)
    with quant:
        rep = quant.convert(gather_to="int8")
        stats: Sequence[Optional[lo.QuantStats]] = [e.quant for e in rep]
        assert all(s is not None and s.bits == 8 for s in stats)

    proto: Any = model.to_onnx()  # an onnx.ModelProto (onnx ships no annotations)
    with lo.load(proto, base_dir=tmp) as again:
        assert len(again.graph.nodes) == len(model.graph.nodes)

    halves: Any = lo.convert_values(np.array([1.0, 2.5], dtype=np.float32), None, "FLOAT16")
    assert list(halves) == [1.0, 2.5]


def errors(tmp: str) -> None:
    missing = os.path.join(tmp, "missing.onnx")
    try:
        lo.load(missing)
    except FileNotFoundError as e:
        assert e.errno == errno.ENOENT and e.filename == missing
        assert isinstance(e, lo.IoError) and e.code == lo.EIO
    try:
        lo.load(b"\x0a\xff\xff\xff\xff\x0f garbage")
    except lo.Error as e:
        code: int = e.code
        message: str = e.message
        assert isinstance(e, lo.ParseError) and code == lo.EPARSE and message
    classes: Tuple[type, ...] = (
        lo.InvalidArgument, lo.OutOfMemory, lo.IoError, lo.ParseError, lo.LimitError,
        lo.NotFound, lo.RangeError, lo.Unsupported, lo.BufferTooSmall, lo.ModelError,
        lo.TypeMismatch, lo.NoSpace, lo.Canceled)
    assert all(issubclass(c, lo.Error) for c in classes)


def constants() -> List[int]:
    """Every ONNXSLIM_* constant, as an int."""
    return [
        lo.ATTR_FLOAT, lo.ATTR_FLOATS, lo.ATTR_GRAPH, lo.ATTR_GRAPHS, lo.ATTR_INT,
        lo.ATTR_INTS, lo.ATTR_SPARSE_TENSOR, lo.ATTR_SPARSE_TENSORS, lo.ATTR_STRING,
        lo.ATTR_STRINGS, lo.ATTR_TENSOR, lo.ATTR_TENSORS, lo.ATTR_TYPE_PROTO,
        lo.ATTR_TYPE_PROTOS, lo.ATTR_UNDEFINED, lo.BORROW, lo.CHECK_ARITY,
        lo.CHECK_ATTR_MISSING, lo.CHECK_ATTR_TYPE, lo.CHECK_ATTR_UNKNOWN, lo.CHECK_CHECKSUM,
        lo.CHECK_CODE_MAX, lo.CHECK_DUPLICATE_OUTPUT, lo.CHECK_EMPTY_NAME,
        lo.CHECK_EXTERNAL_LOAD_INPUT, lo.CHECK_FUNCTION, lo.CHECK_OPSET,
        lo.CHECK_OPTIONS_VERSION, lo.CHECK_ORDER, lo.CHECK_OUTPUT_NOT_PRODUCED,
        lo.CHECK_TENSOR_SIZE, lo.CHECK_TYPE, lo.CHECK_TYPE_CONSTRAINT,
        lo.CHECK_UNDEFINED_INPUT, lo.CHECK_UNKNOWN_OP, lo.CHECK_UNTYPED_IO,
        lo.CHECK_VERIFY_CHECKSUMS, lo.CLEANUP_OPTIONS_VERSION, lo.CLEANUP_RECURSIVE,
        lo.INFER_CONFLICT, lo.INFER_DRY_RUN, lo.INFER_NEW, lo.INFER_NO_DATA_PROP,
        lo.INFER_OPTIONS_VERSION, lo.INFER_REFINED, lo.INFER_SAME, lo.INFER_STRICT,
        lo.CONVERT_FLUSH_SUBNORMALS,
        lo.CONVERT_OPTIONS_VERSION, lo.CONVERT_OVERFLOW_CONVERT, lo.CONVERT_OVERFLOW_KEEP,
        lo.CONVERT_POLICY_CAST_AFTER_GATHER, lo.CONVERT_POLICY_CAST_BEFORE,
        lo.CONVERT_POLICY_STORAGE_ONLY, lo.CONVERT_REPORT_NO_STATS, lo.CONVERT_SATURATE,
        lo.CONVERT_STATS_VERSION, lo.CONVERT_TRUNCATE, lo.COPY, lo.DEFAULT_MAX_DEPTH,
        lo.DIM_PARAM, lo.DIM_UNKNOWN, lo.DIM_VALUE, lo.DTYPE_BFLOAT16, lo.DTYPE_BOOL,
        lo.DTYPE_COMPLEX128, lo.DTYPE_COMPLEX64, lo.DTYPE_DOUBLE, lo.DTYPE_FLOAT,
        lo.DTYPE_FLOAT16, lo.DTYPE_FLOAT4E2M1, lo.DTYPE_FLOAT8E4M3FN, lo.DTYPE_FLOAT8E4M3FNUZ,
        lo.DTYPE_FLOAT8E5M2, lo.DTYPE_FLOAT8E5M2FNUZ, lo.DTYPE_INT16, lo.DTYPE_INT32,
        lo.DTYPE_INT4, lo.DTYPE_INT64, lo.DTYPE_INT8, lo.DTYPE_STRING, lo.DTYPE_UINT16,
        lo.DTYPE_UINT32, lo.DTYPE_UINT4, lo.DTYPE_UINT64, lo.DTYPE_UINT8, lo.DTYPE_UNDEFINED,
        lo.EBUFSIZE, lo.ECANCELED, lo.EINVAL, lo.EIO, lo.ELIMIT, lo.EMODEL, lo.ENOMEM,
        lo.ENOSPC, lo.ENOTFOUND, lo.EPARSE, lo.ERANGE, lo.ETYPE, lo.EUNSUPPORTED,
        lo.FINGERPRINT_SIZE, lo.LAYOUT_AS_LOADED, lo.LAYOUT_INLINE, lo.LAYOUT_ONE_FILE,
        lo.LAYOUT_PER_TENSOR, lo.LOAD_OPTIONS_VERSION, lo.MAX_DEPTH_LIMIT, lo.OK,
        lo.PLACEMENT_BELOW_THRESHOLD,
        lo.PLACEMENT_EXTERNAL, lo.PLACEMENT_NO_LAYOUT, lo.PLACEMENT_SHAPE_INPUT,
        lo.POLICY_CAST_AFTER_GATHER, lo.POLICY_CAST_BEFORE, lo.POLICY_STORAGE_ONLY,
        lo.QUANT_ALLOW_UNPACKED, lo.QUANT_ASYMMETRIC, lo.QUANT_FLOAT_ZERO_POINTS,
        lo.QUANT_FORMAT_NIBBLES,
        lo.QUANT_FORMAT_ORT, lo.QUANT_FORMAT_STANDARD, lo.QUANT_STATS_VERSION,
        lo.QUANT_OPTIONS_VERSION, lo.QUANT_REPORT_NO_STATS, lo.QUANT_TABLES, lo.QUANT_WEIGHTS,
        lo.QUANT_SCALES_ABSMAX, lo.QUANT_SCALES_DEFAULT, lo.QUANT_SCALES_MSE,
        lo.SAVE_ALLOW_LARGE, lo.SAVE_CHECKSUM, lo.SAVE_CONSTANTS, lo.SAVE_DEFAULT_ALIGN,
        lo.SAVE_DEFAULT_THRESHOLD, lo.SAVE_FORCE_SHAPE_INPUTS, lo.SAVE_KEEP_STORAGE,
        lo.SAVE_NO_FSYNC, lo.SAVE_OPTIONS_VERSION, lo.SAVE_PLACEMENT_BELOW_THRESHOLD,
        lo.SAVE_PLACEMENT_EXTERNAL, lo.SAVE_PLACEMENT_NO_LAYOUT, lo.SAVE_PLACEMENT_SHAPE_INPUT,
        lo.STORAGE_EXTERNAL, lo.STORAGE_NONE,
        lo.STORAGE_RAW, lo.STORAGE_TYPED, lo.TYPE_MAP, lo.TYPE_OPTIONAL, lo.TYPE_SEQUENCE,
        lo.TYPE_SPARSE_TENSOR, lo.TYPE_TENSOR, lo.TYPE_UNKNOWN
    ]


def quantize(model_path: str) -> None:
    with lo.load(model_path) as m:
        rep: lo.ConvertReport = m.quantize("int8", weights=False, block_size=0)
        q: Optional[lo.QuantStats]
        for e in rep:
            q = e.quant
            assert q is not None and e.to_dtype == "INT8"


def diff(model_path: str) -> None:
    with lo.load(model_path) as a, lo.load(model_path) as b:
        same: lo.DiffReport = a.diff(b)
        assert same.equal and same.fingerprint_a == same.fingerprint_b
        b.convert(gather_to="bf16")
        other: lo.DiffReport = a.diff(b, storage=True)
        assert not other.equal
        dentry: lo.DiffEntry
        for dentry in other:
            assert dentry.kind_code <= lo.DIFF_KIND_MAX and dentry.what_code <= lo.DIFF_ASPECT_MAX
            assert str(dentry) == dentry.text
    diff_constants: List[int] = [lo.DIFF_KIND_MODEL, lo.DIFF_KIND_OPSET, lo.DIFF_KIND_METADATA, lo.DIFF_KIND_FUNCTION, lo.DIFF_KIND_GRAPH, lo.DIFF_KIND_INPUT, lo.DIFF_KIND_OUTPUT, lo.DIFF_KIND_VALUE_INFO, lo.DIFF_KIND_INITIALIZER, lo.DIFF_KIND_SPARSE_INITIALIZER, lo.DIFF_KIND_NODE, lo.DIFF_PRESENCE, lo.DIFF_VALUE, lo.DIFF_VERSION, lo.DIFF_NAME, lo.DIFF_TYPE, lo.DIFF_ORDER, lo.DIFF_INPUTS, lo.DIFF_OUTPUTS, lo.DIFF_ATTRIBUTES, lo.DIFF_OP_TYPE, lo.DIFF_DTYPE, lo.DIFF_SHAPE, lo.DIFF_CONTENTS, lo.DIFF_STORAGE, lo.DIFF_INDICES, lo.DIFF_OTHER, lo.DIFF_DEQUANT_NONE, lo.DIFF_DEQUANT_DEQUANTIZE_LINEAR, lo.DIFF_DEQUANT_CAST_MUL, lo.DIFF_DEQUANT_GATHER_BLOCK_QUANTIZED, lo.DIFF_DEQUANT_MATMUL_NBITS, lo.DIFF_KIND_MAX, lo.DIFF_ASPECT_MAX, lo.DIFF_A, lo.DIFF_B, lo.DIFF_COMPARE_STORAGE, lo.DIFF_OPTIONS_VERSION, lo.DIFF_NUMBERS_VERSION]
    assert all(isinstance(c, int) for c in diff_constants)


def simplify(model_path: str) -> None:
    with lo.load(model_path) as m:
        rep: lo.SimplifyReport = m.simplify(passes=["noop", "cse", "fold", "dead"], max_iterations=0,
                                            fold_max_bytes=1 << 20)
        assert rep.nodes_after <= rep.nodes_before
        assert rep.initializers_after <= rep.initializers_before and rep.iterations >= 1
        step: lo.SimplifyStep
        for step in rep.steps:
            assert step.pass_name in ("noop", "cse", "fold", "dead") and step.iteration >= 1
        change: lo.SimplifyChange
        for change in rep.changes:
            assert isinstance(change.kind, str) and isinstance(change.into, str)
    simplify_constants: List[int] = [lo.SIMPLIFY_NOOP, lo.SIMPLIFY_CSE, lo.SIMPLIFY_DEAD, lo.SIMPLIFY_FOLD, lo.SIMPLIFY_ALL, lo.SIMPLIFY_FOLD_MAX_BYTES, lo.SIMPLIFY_FOLDED_NODE, lo.SIMPLIFY_OPTIONS_VERSION, lo.SIMPLIFY_MAX_ITERATIONS, lo.SIMPLIFY_REMOVED_NODE, lo.SIMPLIFY_MERGED_NODE, lo.SIMPLIFY_REMOVED_INITIALIZER, lo.SIMPLIFY_MERGED_INITIALIZER, lo.SIMPLIFY_REMOVED_OPSET, lo.SIMPLIFY_REMOVED_FUNCTION]
    assert all(isinstance(c, int) for c in simplify_constants)


def main(model_path: str, tmp: str) -> None:
    lib: str = lo.library_path
    version: str = lo.__version__
    assert lib and version.count(".") == 2
    with lo.load(model_path) as model:
        read(model)
        edit_and_save(model, tmp)
    diff(model_path)
    simplify(model_path)
    quantize(model_path)
    errors(tmp)
    assert all(isinstance(c, int) for c in constants())
    print("typed_usage: ok")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
