# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Model.convert() with every option, its report, the CLI's results, and convert_values().

The converted bytes are checked against numpy's own conversions (and bit
arithmetic for BF16), the graph edits through python3-onnx, and the files
against `libonnxslim convert` with the same options (LIBONNXSLIM_CLI).
"""

import os
import shutil
import subprocess
import tempfile
import unittest

import libonnxslim
from helpers import BERT

try:
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper, TensorProto
except ImportError:  # python3-onnx and python3-numpy are test dependencies
    onnx = None

TABLES = ["roberta.embeddings.word_embeddings.weight",
          "roberta.embeddings.position_embeddings.weight"]


def proto(model):
    return onnx.ModelProto.FromString(model.save_bytes())


def bf16_nearest(f32):
    """FP32 -> BF16 bit patterns, round to nearest even (finite and Inf inputs)."""
    u = np.asarray(f32, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_truncate(f32):
    return (np.asarray(f32, np.float32).view(np.uint32) >> 16).astype(np.uint16)


def cli():
    path = os.environ.get("LIBONNXSLIM_CLI")
    return path if path and os.access(path, os.X_OK) else None


def model_with(arrays, opset=17):
    """A model whose graph output is Identity of each initializer in `arrays` (dict)."""
    nodes, outs, inits = [], [], []
    for name, arr in arrays.items():
        inits.append(numpy_helper.from_array(arr, name))
        nodes.append(helper.make_node("Identity", [name], [name + "_out"], name="id_" + name))
        outs.append(helper.make_tensor_value_info(name + "_out", TensorProto.FLOAT, arr.shape))
    g = helper.make_graph(nodes, "g", [], outs, initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return libonnxslim.load(m.SerializeToString())


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestConvert(unittest.TestCase):
    def setUp(self):
        self.ref = onnx.load(BERT)
        self.m = libonnxslim.load(BERT)
        self.addCleanup(self.m.close)
        self.orig = {t.name: numpy_helper.to_array(t) for t in self.ref.graph.initializer}

    def test_gather_to_bf16_is_the_recipe(self):
        for rounding, want_fn in (("nearest", bf16_nearest), ("truncate", bf16_truncate)):
            with self.subTest(rounding=rounding), libonnxslim.load(BERT) as m:
                rep = m.convert(gather_to="bf16", rounding=rounding)
                self.assertIsInstance(rep, libonnxslim.ConvertReport)
                self.assertEqual(rep.names(), TABLES)
                e = rep[0]
                self.assertEqual((e.from_dtype, e.to_dtype, e.bytes_before, e.bytes_after),
                                 ("FLOAT", "BFLOAT16", 6400, 3200))
                self.assertEqual(e.stats.count, 1600)
                self.assertEqual(rep.stats.count, 1600 + 256)
                self.assertEqual((rep.bytes_before, rep.bytes_after), (7424, 3712))
                self.assertGreater(e.stats.max_abs_error, 0)
                self.assertEqual(rep.stats.max_abs_error,
                                 max(x.stats.max_abs_error for x in rep))
                p = proto(m)
                onnx.checker.check_model(p, full_check=True)
                inits = {t.name: t for t in p.graph.initializer}
                for name in TABLES:
                    self.assertEqual(inits[name].data_type, TensorProto.BFLOAT16)
                    got = np.frombuffer(inits[name].raw_data, np.uint16)
                    np.testing.assert_array_equal(got, want_fn(self.orig[name]).ravel())
                gathers = [n for n in p.graph.node
                           if n.op_type == "Gather" and n.input[0] in TABLES]
                casts = {n.input[0]: n for n in p.graph.node if n.op_type == "Cast"}
                for gnode in gathers:
                    self.assertEqual(casts[gnode.output[0]].attribute[0].i, TensorProto.FLOAT)

    def test_gather_without_outputs_refused(self):
        # issue [attack] 2, point 1: a Gather with no outputs crashed the
        # conversions that cast its rows back (SIGSEGV); now refused,
        # ModelError, the model unchanged
        path = os.path.join(os.path.dirname(BERT), "..", "fuzz", "regressions",
                            "gather_no_outputs.onnx")
        with libonnxslim.load(path) as m:
            before = m.save_bytes()
            for kw in ({"gather_to": "bf16"}, {"gather_to": "fp16"}, {"to": "fp16"}):
                with self.subTest(**kw):
                    with self.assertRaisesRegex(libonnxslim.ModelError,
                                                "reading table 'T' has no output"):
                        m.convert(**kw)
                    self.assertEqual(m.save_bytes(), before)

    def test_gather_to_int8_int4(self):
        # the bytes themselves are checked against numpy by test step 59-quant
        with libonnxslim.load(BERT) as m:
            rep = m.convert(gather_to="int8")
            self.assertEqual(rep.names(), TABLES)
            e = rep[0]
            self.assertEqual((e.from_dtype, e.to_dtype, e.bytes_before, e.bytes_after),
                             ("FLOAT", "INT8", 6400, 1600 + 100 * 4))
            q = e.quant
            self.assertIsInstance(q, libonnxslim.QuantStats)
            self.assertEqual((q.bits, q.block_size, q.rows, q.blocks, q.saturated),
                             (8, 16, 100, 100, 0))
            self.assertTrue(0 < q.scale_min <= q.scale_max)
            self.assertTrue(0 < q.max_abs_error <= q.scale_max / 2)
            self.assertTrue(0 < q.max_row_rel_error < 0.01)
            self.assertEqual(q.rows_over_1pct, 0)
            p = proto(m)
            onnx.checker.check_model(p, full_check=True)
            inits = {t.name: t for t in p.graph.initializer}
            self.assertEqual(inits[TABLES[0]].data_type, TensorProto.INT8)
            self.assertIn(TABLES[0] + "_scale", inits)
            ops = [n.op_type for n in p.graph.node]
            self.assertIn("Mul", ops)  # opset 17: Cast and Mul
        with libonnxslim.load(BERT) as m:
            rep = m.convert(gather_to="int4", allow_unpacked=True, scales="fp16")
            e = rep[0]
            self.assertEqual((e.to_dtype, e.bytes_after), ("INT4", 1600 + 100 * 2))
            self.assertEqual(e.quant.bits, 4)
            self.assertGreater(e.quant.max_row_rel_error, 0.01)
        with libonnxslim.load(BERT) as m:
            rep = m.convert(gather_to="int8", asymmetric=True)
            e = rep[0]
            # UINT8 values, FLOAT scales and UINT8 zero points, one per row
            self.assertEqual(e.bytes_after, 1600 + 100 * 4 + 100)
            self.assertEqual(e.quant.saturated, 0)
            p = proto(m)
            onnx.checker.check_model(p, full_check=True)
            inits = {t.name: t for t in p.graph.initializer}
            self.assertEqual(inits[TABLES[0]].data_type, TensorProto.UINT8)
            self.assertEqual(inits[TABLES[0] + "_zero_point"].data_type, TensorProto.UINT8)
            self.assertIn("Sub", [n.op_type for n in p.graph.node])
        with libonnxslim.load(BERT) as m:
            rep = m.convert(gather_to="int4", block_size=16, format="nibbles", asymmetric=True)
            # UINT8 pairs, FLOAT scales and UINT8 zero points per block
            self.assertEqual(rep[0].bytes_after, 800 + 100 * 4 + 100)
            p = proto(m)
            onnx.checker.check_model(p, full_check=True)
            ops = [n.op_type for n in p.graph.node]
            gathered = [n.input[0] for n in p.graph.node if n.op_type == "Gather"]
            for suffix in ("", "_scale", "_zero_point"):
                self.assertIn(TABLES[0] + suffix, gathered)
            self.assertNotIn("DequantizeLinear", ops)
            self.assertIn("Floor", ops)
        with libonnxslim.load(BERT) as m:
            with self.assertRaises(libonnxslim.InvalidArgument):
                m.convert(gather_to="int8", format="nibbles")
            with self.assertRaises(ValueError):
                m.convert(gather_to="int4", format="packed")
        with libonnxslim.load(BERT) as m:
            rep = m.convert(to="int8", select=["op:MatMul:1"], asymmetric=True)
            self.assertGreater(len(rep), 0)
            inits = {t.name: t for t in proto(m).graph.initializer}
            for e in rep:
                self.assertEqual(inits[e.name].data_type, TensorProto.UINT8)
                self.assertEqual(inits[e.name + "_zero_point"].data_type, TensorProto.UINT8)
            with self.assertRaises(ValueError):
                m.convert(gather_to="bf16", asymmetric=True)
            with self.assertRaises(TypeError):
                m.convert(gather_to="int8", asymmetric="yes")
        with libonnxslim.load(BERT) as m:
            rep = m.convert(gather_to="int4", block_size=16, format="ort")
            self.assertEqual(rep[0].bytes_after, 800 + 100 * 4)
            p = proto(m)
            self.assertIn("GatherBlockQuantized", [n.op_type for n in p.graph.node])
        with libonnxslim.load(BERT) as m:
            with self.assertRaises(libonnxslim.ModelError):
                m.convert(gather_to="int4")  # opset 17 has no INT4
            with self.assertRaises(ValueError):
                m.convert(gather_to="bf16", block_size=32)
            with self.assertRaises(ValueError):
                m.convert(gather_to="int8", format="tflite")

    def test_clip_percentile(self):
        # the bytes and counts are checked against numpy by test step 49-quant-clip
        with libonnxslim.load(BERT) as m:
            q = m.convert(gather_to="int8", clip_percentile=50)[0].quant
            self.assertGreater(q.saturated, 0)
            self.assertGreater(q.max_abs_error, 0)
        with libonnxslim.load(BERT) as m:
            q = m.convert(gather_to="int8", clip_percentile=99.999)[0].quant
            self.assertEqual(q.saturated, 0)  # rank n: the largest magnitude
        with libonnxslim.load(BERT) as m:
            q = m.convert(gather_to="int8", asymmetric=True, clip_percentile=50)[0].quant
            self.assertGreater(q.saturated, 0)
        with libonnxslim.load(BERT) as m:
            for bad in (-1, 100, 150, float("nan"), "50", True):
                with self.assertRaises(ValueError):
                    m.convert(gather_to="int8", clip_percentile=bad)
            with self.assertRaises(ValueError):
                m.convert(gather_to="bf16", clip_percentile=99)

    def test_scale_method(self):
        # the bytes are checked against numpy by test step 59-quant
        with libonnxslim.load(BERT) as m:
            qa = m.convert(gather_to="int4", format="ort", block_size=16)[0].quant
            self.assertEqual(qa.saturated, 0)  # the default: absmax
        with libonnxslim.load(BERT) as m:
            qm = m.convert(gather_to="int4", format="ort", block_size=16,
                           scale_method="mse")[0].quant
            self.assertLess(qm.max_row_rel_error, qa.max_row_rel_error)
        with libonnxslim.load(BERT) as m:
            qm = m.quantize("int8", scale_method="mse", asymmetric=True)[0].quant
            self.assertEqual(qm.bits, 8)
            with self.assertRaises(ValueError):
                m.convert(gather_to="int8", scale_method="minmax")
            with self.assertRaises(ValueError):
                m.convert(gather_to="bf16", scale_method="mse")

    def test_float_zero_points(self):
        # the bytes and onnxruntime's results are checked by test step 59-quant
        with libonnxslim.load(BERT) as a, libonnxslim.load(BERT) as b:
            ra = a.quantize("int4", tables=False, block_size=16, format="ort",
                            zero_point="float")
            rb = b.quantize("int4", tables=False, block_size=16, format="ort",
                            asymmetric=True)
            self.assertEqual(ra.names(), rb.names())
            self.assertGreater(len(ra), 0)
            inits = {t.name: t for t in proto(a).graph.initializer}
            for e, f in zip(ra, rb):
                zp = inits[e.name + "_zero_point"]
                self.assertEqual(zp.data_type, TensorProto.FLOAT)
                self.assertEqual(list(zp.dims), list(inits[e.name + "_scale"].dims))
                # searched from the range's integer zero point (--asymmetric):
                # no block reads back worse, so no row does
                self.assertLessEqual(e.quant.max_row_rel_error,
                                     f.quant.max_row_rel_error * (1 + 1e-9))
        with libonnxslim.load(BERT) as m:
            fp = m.fingerprint()
            for kw in (dict(to="int8", format="ort", tables=False),
                       dict(to="int4", format="standard", tables=False),
                       dict(to="int4", format="ort")):  # the tables too
                with self.assertRaises(libonnxslim.InvalidArgument):
                    m.quantize(kw.pop("to"), zero_point="float", block_size=16, **kw)
            with self.assertRaises(ValueError):
                m.quantize("int4", zero_point="half")
            self.assertEqual(m.fingerprint(), fp)

    def test_default_scales(self):
        # 0.3.0's default: float zero points for the INT4 "ort" weights, the
        # tables of the same call absmax's scales (test_quant.c's
        # default_per_kind has the other kinds and formats)
        def inits(m):
            return {t.name: t for t in proto(m).graph.initializer}

        with libonnxslim.load(BERT) as d, libonnxslim.load(BERT) as e, \
                libonnxslim.load(BERT) as i, libonnxslim.load(BERT) as a:
            rd = d.quantize("int4", block_size=16, format="ort")
            e.quantize("int4", weights=False, block_size=16, format="ort", scale_method="absmax")
            e.quantize("int4", tables=False, block_size=16, format="ort", zero_point="float")
            i.quantize("int4", block_size=16, format="ort", zero_point="int")
            a.quantize("int4", block_size=16, format="ort", scale_method="absmax")
            di, ei, ii, ai = inits(d), inits(e), inits(i), inits(a)
            kinds = set()
            for name in rd.names():
                for suffix in ("", "_scale", "_zero_point"):
                    self.assertEqual(di.get(name + suffix), ei.get(name + suffix), name + suffix)
                    self.assertEqual(ii.get(name + suffix), ai.get(name + suffix), name + suffix)
                zp = di.get(name + "_zero_point")
                kinds.add(zp.data_type if zp is not None else None)
                self.assertNotIn(name + "_zero_point", ii)
            self.assertEqual(kinds, {None, TensorProto.FLOAT})  # tables, weights
        with libonnxslim.load(BERT) as m:
            r = m.convert(to="int4", select=["op:MatMul:1"], block_size=16, format="ort")
            self.assertGreater(len(r), 0)
            zps = [inits(m)[n + "_zero_point"].data_type for n in r.names()]
            self.assertEqual(set(zps), {TensorProto.FLOAT})
            with self.assertRaises(ValueError):
                m.quantize("int4", zero_point="auto")

    def test_quantize(self):
        # Model.quantize() is the road convert(to="int8") takes: the same bytes
        with libonnxslim.load(BERT) as a, libonnxslim.load(BERT) as b:
            ra = a.quantize("int4", tables=False, block_size=16, format="ort")
            rb = b.convert(to="int4", select=["op:MatMul:1"], block_size=16, format="ort")
            self.assertEqual(ra.names(), rb.names())
            self.assertGreater(len(ra), 0)
            self.assertTrue(all(e.quant.bits == 4 and e.quant.block_size == 16 for e in ra))
            self.assertEqual(a.fingerprint(), b.fingerprint())
        with libonnxslim.load(BERT) as m:
            rep = m.quantize(weights=False)
            self.assertEqual(rep.names(), TABLES)
            self.assertEqual(rep[0].quant.bits, 8)
        with libonnxslim.load(BERT) as m:
            fp = m.fingerprint()
            self.assertRaises(ValueError, m.quantize, "fp16")
            self.assertRaises(ValueError, m.quantize, tables=False, weights=False)
            self.assertRaises(libonnxslim.NotFound, m.quantize, tables=False, select=TABLES[:1])
            self.assertRaises(ValueError, m.convert, gather_to="int8", policy="cast-before")
            self.assertEqual(m.fingerprint(), fp)

    def test_gather_routes_agree(self):
        # gather_tables() (stats) and convert_model(select op:Gather:0) (no stats, or exclude)
        fps = []
        for kw in ({}, {"stats": False}, {"exclude": ["no-such-tensor"]}):
            with libonnxslim.load(BERT) as m:
                rep = m.convert(gather_to="bf16", **kw)
                self.assertEqual(rep.names(), TABLES)
                self.assertEqual(rep.has_stats, kw.get("stats", True))
                fps.append(m.fingerprint())
        self.assertEqual(len(set(fps)), 1)

    def test_stats_false(self):
        rep = self.m.convert(to="fp16", select=TABLES[:1], stats=False)
        self.assertFalse(rep.has_stats)
        self.assertEqual(rep.stats.count, 1600)
        self.assertEqual(rep.stats.max_abs_error, 0.0)

    def test_to_select_exclude_min_size_policy(self):
        rep = self.m.convert(to="FLOAT16", select=["op:MatMul", "*.bias"],
                             exclude=["*layer.0.attention.self.query*"], min_size=256,
                             policy="cast-before")
        matmul_inputs = {i for node in self.ref.graph.node if node.op_type == "MatMul"
                         for i in node.input}
        want = sorted(n for n, a in self.orig.items() if a.dtype == np.float32 and a.nbytes >= 256
                      and "layer.0.attention.self.query" not in n
                      and (n.endswith(".bias") or n in matmul_inputs))
        self.assertEqual(sorted(rep.names()), want)
        self.assertTrue(want)
        p = proto(self.m)
        onnx.checker.check_model(p, full_check=True)
        inits = {t.name: t for t in p.graph.initializer}
        for name in want:
            self.assertEqual(inits[name].data_type, TensorProto.FLOAT16)
            np.testing.assert_array_equal(numpy_helper.to_array(inits[name]),
                                          self.orig[name].astype(np.float16))
            casts = [n for n in p.graph.node if n.op_type == "Cast" and n.input == [name]]
            self.assertEqual(len(casts), 1, name)

    def test_storage_only_refused_where_readers_expect_the_old_type(self):
        before = proto(self.m).SerializeToString()
        for policy in ("storage-only", libonnxslim.CONVERT_POLICY_STORAGE_ONLY):
            with self.assertRaises(libonnxslim.ModelError) as cm:
                self.m.convert(to="fp16", select=TABLES[1:], policy=policy)
            msg = str(cm.exception)
            self.assertIn("storage-only conversion to FLOAT16 refused", msg)
            self.assertIn("'output' of Gather is FLOAT, but T is FLOAT16", msg)
            self.assertIn("[type_constraint]", msg)
            self.assertEqual(proto(self.m).SerializeToString(), before)

    def test_storage_only_inserts_no_cast(self):
        # a tensor only a Cast reads: valid with the new type
        w = np.array([0.5, -1.25, 3.0], np.float32)
        g = helper.make_graph(
            [helper.make_node("Cast", ["w"], ["y"], name="c", to=TensorProto.FLOAT)], "g", [],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
            initializer=[numpy_helper.from_array(w, "w")])
        pm = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        pm.ir_version = 8
        with libonnxslim.load(pm.SerializeToString()) as m:
            rep = m.convert(to="fp16", select=["w"], policy="storage-only")
            self.assertEqual(rep.names(), ["w"])
            p = proto(m)
            self.assertEqual([n.op_type for n in p.graph.node], ["Cast"])
            self.assertEqual(p.graph.initializer[0].data_type, TensorProto.FLOAT16)
            np.testing.assert_array_equal(numpy_helper.to_array(p.graph.initializer[0]),
                                          w.astype(np.float16))
            onnx.checker.check_model(p, full_check=True)
            self.assertEqual(m.check(), [])

    def test_notes(self):
        # a weight read by a MatMul (a Cast before it: onnxruntime folds it
        # back) and a Gather table (a Cast after the Gather: no note)
        T = TensorProto
        w, e = np.arange(4, dtype=np.float32).reshape(2, 2), np.ones((4, 2), np.float32)

        def build(opset, nodes, outs):
            g = helper.make_graph(
                nodes, "g", [helper.make_tensor_value_info("X", T.FLOAT, [2, 2]),
                             helper.make_tensor_value_info("I", T.INT64, [2])],
                [helper.make_tensor_value_info(n, T.FLOAT, [2, 2]) for n in outs],
                initializer=[numpy_helper.from_array(w, "w"), numpy_helper.from_array(e, "e")])
            pm = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
            pm.ir_version = 8
            m = libonnxslim.load(pm.SerializeToString())
            self.addCleanup(m.close)
            return m

        m = build(17, [helper.make_node("MatMul", ["X", "w"], ["Y"], name="mm"),
                       helper.make_node("Gather", ["e", "I"], ["Z"], name="ga")], ["Y", "Z"])
        notes = m.convert(to="fp16").notes
        self.assertEqual(len(notes), 1)
        n = notes[0]
        self.assertIsInstance(n, libonnxslim.ConvertNote)
        self.assertEqual((n.code, n.code_name, n.name, n.op, n.input, n.bytes),
                         (libonnxslim.CONVERT_NOTE_FOLD_BACK, "fold_back", "w", "Cast", 0, 8))
        self.assertIn("'w'", n.message)
        self.assertIn("FLOAT16", n.message)
        # only the Gather table: nothing to say
        m = build(17, [helper.make_node("MatMul", ["X", "w"], ["Y"], name="mm"),
                       helper.make_node("Gather", ["e", "I"], ["Z"], name="ga")], ["Y", "Z"])
        self.assertEqual(m.convert(to="fp16", select=["e"]).notes, [])
        self.assertEqual(self.m.convert(gather_to="bf16").notes, [])  # the recipe
        # storage-only at opset 99 (past the schema tables: nothing refuses it): the
        # Add reads w at input 1, the Gather passes e's rows on to a Relu
        m = build(99, [helper.make_node("Add", ["X", "w"], ["Y"], name="add"),
                       helper.make_node("Gather", ["e", "I"], ["G"]),
                       helper.make_node("Relu", ["G"], ["Z"], name="relu")], ["Y", "Z"])
        notes = m.convert(to="fp16", policy="storage-only").notes
        self.assertEqual([(n.code_name, n.name, n.op, n.node, n.input, n.bytes) for n in notes],
                         [("storage_only_read", "w", "Add", "add", 1, 8),
                          ("storage_only_gather", "e", "Gather", "", 0, 16)])
        self.assertEqual(notes[1].code, libonnxslim.CONVERT_NOTE_STORAGE_ONLY_GATHER)

    def test_saturate_flush_nan_counts(self):
        big = np.array([1e5, -1e5, 1.0, np.inf], np.float32)
        tiny = np.array([1e-6, -1e-6, 1e-9, 0.0], np.float32)
        nan = np.array([np.nan, 2.0], np.float32)
        cases = [({}, dict(to_inf=2, saturated=0, flushed=1, nan=1)),
                 ({"saturate": True}, dict(to_inf=0, saturated=2, flushed=1, nan=1)),
                 ({"flush_subnormals": True}, dict(to_inf=2, saturated=0, flushed=3, nan=1))]
        for kw, want in cases:
            with self.subTest(**kw):
                m = model_with({"big": big, "tiny": tiny, "nan": nan})
                self.addCleanup(m.close)
                rep = m.convert(to="fp16", force=True, **kw)
                self.assertEqual(rep.kept, [])
                self.assertEqual(rep.stats.count, 10)
                got = {k: getattr(rep.stats, k) for k in want}
                self.assertEqual(got, want)
                inits = {t.name: numpy_helper.to_array(t) for t in proto(m).graph.initializer}
                if kw.get("saturate"):
                    self.assertEqual(list(inits["big"][:2]), [65504, -65504])
                else:
                    self.assertTrue(np.isinf(inits["big"][0]))
                self.assertEqual(inits["tiny"][0] == 0, bool(kw.get("flush_subnormals")))
                self.assertTrue(np.isnan(inits["nan"][0]))

    def test_overflow_keeps_tensor_unless_forced(self):
        # a BatchNorm-like variance of 9.8e7 does not fit FLOAT16: kept FLOAT
        # by default, listed in report.kept; a lone subnormal does not keep
        var = np.array([9.8e7, 0.5], np.float32)
        tiny = np.array([1e-7, 0.25], np.float32)
        for sat in (False, True):
            with self.subTest(saturate=sat):
                m = model_with({"var": var, "tiny": tiny})
                self.addCleanup(m.close)
                rep = m.convert(to="fp16", saturate=sat)
                self.assertEqual(rep.names(), ["tiny"])
                self.assertEqual([(k.name, k.dtype) for k in rep.kept], [("var", "FLOAT")])
                st = rep.kept[0].stats
                self.assertEqual((st.count, st.to_inf, st.saturated),
                                 (2, 0, 1) if sat else (2, 1, 0))
                inits = {t.name: t.data_type for t in proto(m).graph.initializer}
                self.assertEqual(inits, {"var": TensorProto.FLOAT, "tiny": TensorProto.FLOAT16})
        m = model_with({"var": var, "tiny": tiny})
        self.addCleanup(m.close)
        rep = m.convert(to="fp16", force=True)
        self.assertEqual((sorted(rep.names()), rep.kept), (["tiny", "var"], []))
        v = {t.name: numpy_helper.to_array(t) for t in proto(m).graph.initializer}["var"]
        self.assertTrue(np.isinf(v[0]))
        self.assertRaises(ValueError, m.convert, to="int8", force=True)

    def test_nothing_to_convert_is_not_an_error(self):
        # all of a kind, none found: an empty report, the model unchanged; a
        # select entry matching nothing raises NotFound
        for kw in ({"gather_to": "bf16"}, {"gather_to": "int8"}, {"to": "int8"},
                   {"gather_to": "fp16", "force": True}):
            with self.subTest(**kw):
                m = model_with({"w": np.array([1.0, 2.0], np.float32)})
                self.addCleanup(m.close)
                before = m.save_bytes()
                rep = m.convert(**kw)
                self.assertEqual((len(rep), rep.kept), (0, []))
                self.assertEqual(m.save_bytes(), before)
        m = model_with({"w": np.array([1.0, 2.0], np.float32)})
        self.addCleanup(m.close)
        self.assertRaises(libonnxslim.NotFound, m.convert, to="int8", select=["w"])

    def test_errors_leave_the_model_unchanged(self):
        before = self.m.save_bytes()
        with self.assertRaises(libonnxslim.NotFound) as cm:
            self.m.convert(to="bf16", select=["no_such_tensor"])
        self.assertIn("no_such_tensor", cm.exception.message)
        with self.assertRaises(libonnxslim.InvalidArgument):
            self.m.convert(to="fp16", policy=99)
        with self.assertRaises(libonnxslim.InvalidArgument):
            self.m.convert(to="fp16", select=["op:"])
        self.assertEqual(self.m.save_bytes(), before)
        bad = [({}, ValueError), ({"to": "fp16", "gather_to": "bf16"}, ValueError),
               ({"gather_to": "fp32"}, ValueError), ({"to": "int8x"}, ValueError),
               ({"to": "fp16", "policy": "sideways"}, ValueError),
               ({"to": "fp16", "rounding": "up"}, ValueError),
               ({"to": "fp16", "rounding": "truncate"}, ValueError),  # to BF16 only, as the CLI
               ({"to": "fp16", "min_size": -1}, ValueError),
               ({"to": "fp16", "select": [""]}, ValueError),
               ({"to": "fp16", "select": [3]}, TypeError),
               ({"to": "fp16", "saturate": "yes"}, TypeError),
               ({"gather_to": "bf16", "select": ["x"]}, ValueError)]
        for kw, exc in bad:
            with self.subTest(**{k: repr(v) for k, v in kw.items()}):
                self.assertRaises(exc, self.m.convert, **kw)
        self.assertEqual(self.m.save_bytes(), before)

    def test_bf16_needs_opset_13(self):
        m = model_with({"w": np.ones(4, np.float32)}, opset=12)
        self.addCleanup(m.close)
        with self.assertRaises(libonnxslim.ModelError) as cm:
            m.convert(to="bf16")
        self.assertIn("13", cm.exception.message)

    def test_select_as_single_string(self):
        rep = self.m.convert(to="fp16", select=TABLES[0])
        self.assertEqual(rep.names(), TABLES[:1])


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestAgainstCli(unittest.TestCase):
    """The same options through Python and through `libonnxslim convert` give the same files."""

    def setUp(self):
        if not cli():
            self.skipTest("LIBONNXSLIM_CLI (build/libonnxslim) not given")
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def run_cli(self, *args):
        proc = subprocess.run([cli(), "convert", BERT] + list(args), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())

    def fingerprint(self, path):
        out = subprocess.run([cli(), "fingerprint", path], stdout=subprocess.PIPE, check=True)
        return out.stdout.decode().split()[0]

    def read(self, name):
        with open(os.path.join(self.tmp, name), "rb") as f:
            return f.read()

    def test_recipe_with_external_data(self):
        # the same file names in two directories: the files must be byte-identical
        cli_dir, py_dir = os.path.join(self.tmp, "cli"), os.path.join(self.tmp, "py")
        os.mkdir(cli_dir)
        os.mkdir(py_dir)
        self.run_cli(os.path.join(cli_dir, "out.onnx"), "--gather-to", "bf16", "--round",
                     "truncate", "--external-data", "--threshold", "0", "--location", "out.bin")
        with libonnxslim.load(BERT) as m:
            m.convert(gather_to="bf16", rounding="truncate")
            rep = m.save(os.path.join(py_dir, "out.onnx"), external_data="one_file", threshold=0,
                         location="out.bin")
            mem = m.fingerprint()
        self.assertEqual(rep.locations, ["out.bin"])
        want = self.fingerprint(os.path.join(cli_dir, "out.onnx"))
        self.assertEqual(self.fingerprint(os.path.join(py_dir, "out.onnx")), want)
        self.assertEqual(mem, want)
        self.assertNotEqual(want, self.fingerprint(BERT))
        for name in ("out.onnx", "out.bin"):
            self.assertEqual(self.read(os.path.join("py", name)),
                             self.read(os.path.join("cli", name)), name)

    def test_to_with_every_option(self):
        cli_out = os.path.join(self.tmp, "cli.onnx")
        self.run_cli(cli_out, "--to", "fp16", "--select", "op:MatMul", "--select", "*.bias",
                     "--exclude", "*query*", "--min-size", "64", "--policy", "cast-before",
                     "--saturate", "--flush-subnormals", "--toposort")
        py_out = os.path.join(self.tmp, "py.onnx")
        with libonnxslim.load(BERT) as m:
            m.toposort()
            m.convert(to="fp16", select=["op:MatMul", "*.bias"], exclude=["*query*"],
                      min_size=64, policy="cast-before", saturate=True, flush_subnormals=True)
            m.save(py_out)
        self.assertEqual(self.read("py.onnx"), self.read("cli.onnx"))


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestConvertValues(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(1)
        self.f32 = np.concatenate([
            rng.standard_normal(1000).astype(np.float32) * 100,
            np.array([0.0, -0.0, 1e-40, -1e-42, 65504, 65520, 1e30, np.inf, -np.inf, 3.4e38],
                     np.float32)])

    def test_against_numpy(self):
        with np.errstate(over="ignore"):  # numpy warns about the values that overflow FP16
            self.check_against_numpy(self.f32)

    def check_against_numpy(self, f32):
        np.testing.assert_array_equal(libonnxslim.convert_values(f32, None, "FLOAT16"),
                                      f32.astype(np.float16))
        f16 = f32.astype(np.float16)
        np.testing.assert_array_equal(libonnxslim.convert_values(f16, None, "FLOAT"),
                                      f16.astype(np.float32))
        f64 = f32.astype(np.float64) * 1.000001
        np.testing.assert_array_equal(libonnxslim.convert_values(f64, None, "fp32"),
                                      f64.astype(np.float32))
        np.testing.assert_array_equal(libonnxslim.convert_values(f32, "FLOAT", "DOUBLE"),
                                      f32.astype(np.float64))
        finite = f32[np.abs(f32) < 3.38e38]
        bf = libonnxslim.convert_values(finite, None, "bf16")
        self.assertEqual(bf.dtype, np.uint16)
        np.testing.assert_array_equal(bf, bf16_nearest(finite))
        np.testing.assert_array_equal(libonnxslim.convert_values(finite, None, "bf16",
                                                              rounding="truncate"),
                                      bf16_truncate(finite))
        back = libonnxslim.convert_values(bf, "BFLOAT16", "FLOAT")
        np.testing.assert_array_equal(back.view(np.uint32), bf.astype(np.uint32) << 16)
        np.testing.assert_array_equal(libonnxslim.convert_values(f16, None, "BFLOAT16"),
                                      bf16_nearest(f16.astype(np.float32)))
        np.testing.assert_array_equal(libonnxslim.convert_values(bf, "BFLOAT16", "FLOAT16"),
                                      back.astype(np.float16))

    def test_shape_bytes_stats_and_flags(self):
        a = np.arange(6, dtype=np.float32).reshape(2, 3)
        self.assertEqual(libonnxslim.convert_values(a, None, "fp16").shape, (2, 3))
        raw = libonnxslim.convert_values(a.tobytes(), "FLOAT", "FLOAT16")
        self.assertIsInstance(raw, bytes)
        self.assertEqual(raw, a.astype(np.float16).tobytes())
        out, st = libonnxslim.convert_values(np.array([1e5, 1.0, np.nan], np.float32), None, "fp16",
                                          saturate=True, stats=True)
        self.assertIsInstance(st, libonnxslim.ConvertStats)
        self.assertEqual((st.count, st.saturated, st.nan, st.to_inf), (3, 1, 1, 0))
        self.assertEqual(out[0], 65504)
        _, st = libonnxslim.convert_values(np.array([1e-6], np.float32), None, "fp16",
                                        flush_subnormals=True, stats=True)
        self.assertEqual(st.flushed, 1)
        self.assertEqual(libonnxslim.convert_values(b"", "FLOAT", "BFLOAT16"), b"")

    def test_misuse(self):
        f = np.ones(3, np.float32)
        self.assertRaises(ValueError, libonnxslim.convert_values, f, None, "INT8")
        self.assertRaises(ValueError, libonnxslim.convert_values, f, "FLOAT", "FLOAT")
        self.assertRaises(ValueError, libonnxslim.convert_values, f, None, "fp64", saturate=True)
        self.assertRaises(ValueError, libonnxslim.convert_values, f, None, "fp16", rounding="up")
        self.assertRaises(ValueError, libonnxslim.convert_values, b"\0" * 5, "FLOAT", "FLOAT16")
        self.assertRaises(TypeError, libonnxslim.convert_values, b"\0" * 4, None, "FLOAT16")
        self.assertRaises(TypeError, libonnxslim.convert_values, np.ones(3, np.int64), "DOUBLE",
                          "FLOAT")
        self.assertRaises(TypeError, libonnxslim.convert_values, np.ones(3, np.float32), "BFLOAT16",
                          "FLOAT")
        self.assertRaises(TypeError, libonnxslim.convert_values, "text", "FLOAT", "FLOAT16")
        self.assertRaises(TypeError, libonnxslim.convert_values, [1.0], "FLOAT", "FLOAT16")
        with self.assertRaises(libonnxslim.InvalidArgument):  # the kernel refuses truncation
            libonnxslim.convert_values(f, None, "fp16", rounding="truncate")


if __name__ == "__main__":
    unittest.main()
