# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Misuse of the Python API, run as a child of test_handles.py (a crash kills
this process only): python3 -X faulthandler handles_misuse.py BERT_MODEL

Each case must either raise an expected exception ("raises") or, for bytes
that may or may not parse, load and walk cleanly or raise libonnxslim.Error
("parses or raises"). A case whose method does not exist is skipped, so the
cases grow with the API. Prints one line per case that went wrong and the
summary "misuse: N cases, N wrong"; exits 0 unless the process crashed.
"""

import os
import random
import shutil
import sys
import tempfile

import libonnxslim

# what misuse may raise: the library's errors and Python's own for bad
# arguments (TypeError for a wrong type, ValueError, IndexError, OverflowError)
EXPECTED = (libonnxslim.Error, TypeError, ValueError, LookupError, OverflowError, BufferError)

cases = 0
wrong = 0


def fail(label, why):
    global wrong
    wrong += 1
    print("WRONG %s: %s" % (label, why), flush=True)


def raises(label, fn, *args, **kwargs):
    """fn(*args) must raise one of EXPECTED."""
    global cases
    cases += 1
    try:
        fn(*args, **kwargs)
    except EXPECTED:
        return
    except Exception as exc:  # e.g. ctypes.ArgumentError, AttributeError
        fail(label, "raised %s: %s" % (type(exc).__name__, exc))
        return
    fail(label, "did not raise")


def method(obj, name):
    """The bound method, or None when the API has no such method (yet)."""
    return getattr(obj, name, None)


def walk(m):
    """Read everything reachable the way a program would."""
    for g in [m.graph]:
        g.name
        for n in g.nodes:
            (n.name, n.op_type, n.domain, n.inputs, n.outputs)
            if hasattr(n, "attributes"):
                n.attributes
        for t in g.initializers:
            (t.name, t.dtype, t.shape)
            try:
                t.tobytes()
            except libonnxslim.Error:
                pass
        g.inputs, g.outputs


def parses_or_raises(label, data):
    """Bytes that are not (quite) a model: a clean load and walk, or libonnxslim.Error."""
    global cases
    cases += 1
    try:
        with libonnxslim.load(data) as m:
            walk(m)
            m.check()
            m.fingerprint()
            m.save_bytes()
    except libonnxslim.Error:
        pass
    except Exception as exc:
        fail(label, "raised %s: %s" % (type(exc).__name__, exc))


def main():
    bert = os.path.abspath(sys.argv[1])
    with open(bert, "rb") as f:
        good = f.read()
    tmp = tempfile.mkdtemp()
    os.chdir(tmp)
    # a real model under the name a path with a NUL byte would be cut to
    shutil.copy(bert, "a")

    # ---- load: wrong types, None, paths that are not models
    for label, arg in [("None", None), ("int", 42), ("float", 1.5), ("list", [good]),
                       ("dict", {}), ("object", object())]:
        raises("load(%s)" % label, libonnxslim.load, arg)
    raises("load(path, base_dir=42)", libonnxslim.load, bert, base_dir=42)
    raises("load(bytes, base_dir=[])", libonnxslim.load, good, base_dir=[])
    raises("load('a\\0b') (embedded NUL)", libonnxslim.load, "a\0b")
    raises("load(b'a\\0b'.decode() as PathLike)", libonnxslim.load, PathLikeNul())
    for label, path in [("''", ""), ("directory", tmp), ("/dev/null", "/dev/null"),
                        ("missing", os.path.join(tmp, "missing.onnx")),
                        ("/proc/self/status", "/proc/self/status")]:
        raises("load(%s)" % label, libonnxslim.load, path)

    # ---- bytes that are not a model (seeded, so a failure repeats)
    rng = random.Random(9)
    parses_or_raises("empty bytes", b"")
    parses_or_raises("bytearray of text", bytearray(b"not a model at all"))
    parses_or_raises("memoryview", memoryview(good)[: len(good) // 2])
    for size in (1, 2, 7, 100, 4096):
        parses_or_raises("random %d bytes" % size, bytes(rng.getrandbits(8) for _ in range(size)))
    for cut in (1, 10, 100, 1000, len(good) // 2, len(good) - 1):
        parses_or_raises("model cut at %d" % cut, good[:cut])
    for i in range(40):
        data = bytearray(good)
        for _ in range(1 + i % 4):
            data[rng.randrange(len(data))] = rng.getrandbits(8)
        parses_or_raises("model with flipped bytes #%d" % i, bytes(data))

    # ---- an open model, wrong arguments
    m = libonnxslim.load(bert)
    g = m.graph
    node = g.nodes[0]
    for name, bad_args in [
            ("save", [(None,), (42,), (b"\0".decode() + "x",), ("out\0.onnx",),
                      (os.path.join(tmp, "no", "such", "dir.onnx"),), (tmp,)]),
            ("find_node", [(None,), (42,)]),
            ("find_initializer", [(None,), (42,)]),
            ("find_value_info", [(None,), (42,)]),
            ("producer", [(None,), (42,)]),
            ("consumers", [(None,), (42,)]),
            ("unique_name", [(None,), (42,)]),
            ("set_opset", [(None, 13), ("", "13"), ("", -1), ("", 2 ** 70)]),
    ]:
        for obj in (m, g, node):
            fn = method(obj, name)
            if fn is None:
                continue
            for args in bad_args:
                raises("%s.%s%r" % (type(obj).__name__, name, args), fn, *args)
    if os.path.exists("out"):
        fail("save('out\\0.onnx')", "wrote the file 'out'")
    for name, bad_args in [
            ("find_attribute", [(None,), (42,)]),
            ("set_input", [(-1, "x"), (2 ** 64, "x"), (2 ** 70, "x"), (10 ** 6, "x"), (0, None),
                           (None, "x"), ("0", "x")]),
            ("set_attribute", [(None, 1), ("a", object())]),
            ("remove_attribute", [(None,), ("no_such_attribute",)]),
    ]:
        fn = method(node, name)
        if fn is None:
            continue
        for args in bad_args:
            raises("Node.%s%r" % (name, args), fn, *args)
    for name, args in [("remove_node", (None,)), ("remove_node", (42,)),
                       ("remove_initializer", ("no_such_tensor",)),
                       ("rename_value", (None, "x")), ("rename_value", ("x", None)),
                       ("reorder_nodes", (None,)), ("reorder_nodes", ([None],)),
                       ("add_node", (None, [], [])), ("add_node", ("Relu", None, ["y"])),
                       ("add_node", ("Relu", [42], ["y"])),
                       ("add_initializer", ("w", None)), ("add_initializer", ("w", object())),
                       ("add_initializer", ("w", b"\0\0\0", "FLOAT", (1,))),
                       ("add_initializer", ("w", b"\0\0\0\0", "FLOAT", (-1,))),
                       ("add_initializer", ("w", b"\0\0\0\0", "NO_SUCH_TYPE", (1,))),
                       ("add_input", ("x", "NO_SUCH_TYPE", (1,))),
                       ("add_input", ("x", "FLOAT", (-2,)))]:
        fn = method(g, name)
        if fn is not None:
            raises("Graph.%s%r" % (name, args), fn, *args)
    # a node of another model
    other = libonnxslim.load(bert)
    fn = method(g, "remove_node")
    if fn is not None:
        raises("Graph.remove_node(a node of another model)", fn, other.graph.nodes[0])
    other.close()
    # an index past the end through the list API, and a negative one
    raises("graph.nodes[10**6]", lambda: g.nodes[10 ** 6])
    m.close()

    # ---- a closed model: everything raises, close stays idempotent
    for label, fn in [("graph", lambda: m.graph), ("check", m.check), ("fingerprint", m.fingerprint),
                      ("save_bytes", m.save_bytes), ("save", lambda: m.save(os.path.join(tmp, "c.onnx"))),
                      ("node.inputs", lambda: node.inputs), ("graph.nodes", lambda: g.nodes)]:
        raises("closed model: %s" % label, fn)
    m.close()
    if os.path.exists(os.path.join(tmp, "c.onnx")):
        fail("closed model: save", "wrote a file")

    shutil.rmtree(tmp)
    print("misuse: %d cases, %d wrong" % (cases, wrong), flush=True)


class PathLikeNul:
    def __fspath__(self):
        return "a\0b"


if __name__ == "__main__":
    main()
