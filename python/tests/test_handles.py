# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Handles: use after close raises for every kind of object, load/close
cycles keep the resident size flat, the garbage collector frees models, and
misuse (wrong types, None, closed models, bytes that are not a model, bad
indexes) raises instead of crashing.

The misuse cases run in a child interpreter (handles_misuse.py), so that a
crash fails this test instead of killing the runner.
"""

import gc
import os
import subprocess
import sys
import unittest
import weakref

import libonnxslim
from helpers import BERT, TESTDATA

HERE = os.path.dirname(os.path.abspath(__file__))
IF_MODEL = os.path.join(TESTDATA, "test_if", "model.onnx")  # a node with subgraphs

# After close, every public property and these methods (when the class has
# them; called with valid arguments) must raise libonnxslim.Error. Properties
# that do not read the model: `model`, `closed`.
NOT_READING = {"model", "closed"}
CALLS = {
    "tobytes": (), "numpy": (), "check": (), "fingerprint": (), "save_bytes": (),
    "save_size": (), "toposort": (), "remove_unused": (), "convert": (),
    "find_node": ("x",), "find_initializer": ("x",), "find_value_info": ("x",),
    "find_attribute": ("x",), "producer": ("x",), "consumers": ("x",),
    "unique_name": ("x",), "remove_initializer": ("x",), "remove_attribute": ("x",),
    "rename_value": ("x", "y"), "set_attribute": ("x", 1), "set_input": (0, "x"),
    "set_opset": ("", 13), "add_node": ("Relu", ["x"], ["y"]),
    "add_input": ("x", "FLOAT", (1,)), "add_output": ("x", "FLOAT", (1,)),
    "add_value_info": ("x", "FLOAT", (1,)),
    "add_initializer": ("w", b"\0\0\0\0", "FLOAT", (1,)),
}
SETTERS = {"name": "x", "doc_string": "x"}


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def first(seq):
    return seq[0] if seq else None


def objects_of(m):
    """One object of every kind reachable from model `m` (kind name -> object)."""
    out = {"Model": m}
    g = m.graph
    out["Graph"] = g
    nodes = g.nodes
    out["Node"] = nodes[0]
    out["Tensor"] = first(g.initializers)
    vi = first(getattr(g, "inputs", []))
    if vi is not None and not isinstance(vi, str):
        out[type(vi).__name__] = vi
        ty = getattr(vi, "type", None)
        if ty is not None:
            out[type(ty).__name__] = ty
    if hasattr(nodes[0], "find_attribute") and hasattr(nodes[0], "attributes"):
        for n in nodes:
            names = list(n.attributes)
            if names:
                a = n.find_attribute(names[0])
                out[type(a).__name__] = a
                break
    for n in nodes:
        sub = first(getattr(n, "subgraphs", []) or [])
        if sub is not None:
            out["subgraph"] = sub
            break
    f = first(getattr(m, "functions", []) or [])
    if f is not None:
        out[type(f).__name__] = f
    return {k: v for k, v in out.items() if v is not None}


def uses(obj):
    """(label, callable) for every use of `obj` that must fail once its model is closed."""
    cls = type(obj)
    out = []
    for name in sorted(dir(cls)):
        if name.startswith("_") or name in NOT_READING:
            continue
        member = getattr(cls, name)
        if isinstance(member, property):
            out.append((name, lambda name=name: getattr(obj, name)))
            if member.fset is not None and name in SETTERS:
                out.append((name + " =", lambda name=name: setattr(obj, name, SETTERS[name])))
        elif name in CALLS and callable(member):
            out.append((name + "()", lambda name=name: getattr(obj, name)(*CALLS[name])))
    return out


class TestUseAfterClose(unittest.TestCase):
    def check_model(self, path):
        m = libonnxslim.load(path)
        objs = objects_of(m)
        m.close()
        checked = {}
        for kind, obj in objs.items():
            for label, use in uses(obj):
                with self.subTest(kind=kind, use=label):
                    with self.assertRaises(libonnxslim.Error) as cm:
                        use()
                    self.assertEqual(cm.exception.code, libonnxslim.EINVAL)
                    self.assertIn("closed", cm.exception.message)
                checked[kind] = checked.get(kind, 0) + 1
        return checked

    def test_every_kind_of_object(self):
        checked = self.check_model(BERT)
        for kind in ("Model", "Graph", "Node", "Tensor"):
            self.assertGreater(checked.get(kind, 0), 1, "%s: no use checked (%s)" % (kind, checked))

    @unittest.skipUnless(os.path.exists(IF_MODEL), "no libonnx-testdata test_if")
    def test_subgraphs(self):
        # a node's subgraphs (an If's branches), when the Node exposes them
        self.check_model(IF_MODEL)

    def test_close_twice_and_repr_after_close(self):
        m = libonnxslim.load(BERT)
        objs = objects_of(m)
        m.close()
        m.close()
        for kind, obj in objs.items():
            with self.subTest(kind=kind):
                self.assertIn("closed", repr(obj))

    def test_with_block_then_use_raises(self):
        with libonnxslim.load(BERT) as m:
            node = m.graph.nodes[0]
        self.assertRaises(libonnxslim.InvalidArgument, lambda: node.op_type)
        with self.assertRaises(libonnxslim.InvalidArgument):
            with m:
                pass


class TestCycles(unittest.TestCase):
    """10,000 load/close cycles: the resident size stays flat (a leak check,
    not a timing). The bound, 8 MiB, is 0.8 KiB per cycle; one model of
    bert-tiny left open holds about 100 KiB (the control below)."""

    BOUND_KB = 8 * 1024

    def cycle_path(self):
        m = libonnxslim.load(BERT)
        g = m.graph
        nodes = g.nodes
        nodes[0].op_type
        g.initializers[0].tobytes()
        m.close()

    def test_load_close_cycles_keep_rss_flat(self):
        for _ in range(500):  # warm-up: allocator arenas, caches
            self.cycle_path()
        gc.collect()
        before = rss_kb()
        for _ in range(10000):
            self.cycle_path()
        gc.collect()
        growth = rss_kb() - before
        self.assertLess(growth, self.BOUND_KB, "RSS grew by %d KiB over 10,000 cycles" % growth)

    def test_other_calls_keep_rss_flat(self):
        with open(BERT, "rb") as f:
            data = f.read()

        def cycle():
            with libonnxslim.load(data) as m:  # bytes: a copy owned by the model
                m.check()
                m.fingerprint()
                m.save_bytes()

        for _ in range(200):
            cycle()
        gc.collect()
        before = rss_kb()
        for _ in range(2000):
            cycle()
        gc.collect()
        growth = rss_kb() - before
        self.assertLess(growth, self.BOUND_KB, "RSS grew by %d KiB over 2,000 cycles" % growth)

    def test_gc_only_cycles_keep_rss_flat(self):
        # no close(): the garbage collector's finalizer frees each model
        for _ in range(200):
            libonnxslim.load(BERT).graph.nodes
        gc.collect()
        before = rss_kb()
        for _ in range(3000):
            libonnxslim.load(BERT).graph.nodes
        gc.collect()
        growth = rss_kb() - before
        self.assertLess(growth, self.BOUND_KB, "RSS grew by %d KiB over 3,000 cycles" % growth)

    def test_control_the_measure_sees_models_left_open(self):
        # the same measure detects 300 models left open (about 30 MiB)
        kept = []
        gc.collect()
        before = rss_kb()
        for _ in range(300):
            kept.append(libonnxslim.load(BERT))
            kept[-1].graph.nodes
        growth = rss_kb() - before
        for m in kept:
            m.close()
        self.assertGreater(growth, self.BOUND_KB)


class TestGarbageCollection(unittest.TestCase):
    def test_unreferenced_model_is_freed(self):
        m = libonnxslim.load(BERT)
        fired = []
        weakref.finalize(m, fired.append, True)
        internal = m._finalizer
        del m
        gc.collect()
        self.assertEqual(fired, [True])
        self.assertFalse(internal.alive)

    def test_model_in_a_reference_cycle_is_freed(self):
        m = libonnxslim.load(BERT)
        holder = {"model": m}
        holder["self"] = holder
        m.holder = holder if hasattr(m, "__dict__") else None
        internal = m._finalizer
        del m, holder
        gc.collect()
        self.assertFalse(internal.alive)

    def test_borrowed_objects_keep_the_model_until_dropped(self):
        m = libonnxslim.load(BERT)
        internal = m._finalizer
        node = m.graph.nodes[3]
        tensor = m.graph.initializers[0]
        del m
        gc.collect()
        self.assertTrue(internal.alive)
        self.assertTrue(node.op_type)
        del node
        gc.collect()
        self.assertTrue(internal.alive)
        self.assertTrue(tensor.tobytes())
        del tensor
        gc.collect()
        self.assertFalse(internal.alive)

    def test_models_open_at_exit(self):
        code = ("import libonnxslim, sys\n"
                "m = libonnxslim.load(sys.argv[1]); n = m.graph.nodes[0]\n"
                "keep = [libonnxslim.load(sys.argv[1]) for _ in range(3)]\n"
                "print('ok')\n")
        p = subprocess.run([sys.executable, "-c", code, BERT], capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "ok\n", ""))


class TestMisuse(unittest.TestCase):
    def test_misuse_raises_and_never_crashes(self):
        p = subprocess.run([sys.executable, "-X", "faulthandler", os.path.join(HERE, "handles_misuse.py"),
                            BERT], capture_output=True, text=True, timeout=600)
        report = "exit %d\n%s\n%s" % (p.returncode, p.stdout[-4000:], p.stderr[-4000:])
        self.assertEqual(p.returncode, 0, report)
        self.assertRegex(p.stdout, r"(?m)^misuse: \d+ cases, 0 wrong$", report)


if __name__ == "__main__":
    unittest.main()
