#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""`libonnxslim diff A B`: pairs of models that differ in one aspect each, and
equal pairs in different storage forms.

Builds a base model (python onnx) with named and unnamed nodes, attributes,
an If with subgraphs, initializers of several types (FLOAT, FLOAT16,
INT64, STRING), opsets and metadata; each case changes one thing and
states the exact lines diff must print and its exit status (0 equal, 1
different, 2 usage or load error). Every case is run twice: as text, and
with --json, whose document must conform to docs/json.md (test/json_schema.py)
and carry the same lines in `differences[].text`.

usage: check_cli_diff.py ONNXSLIM WORKDIR
Prints one line per check and "N passed, N failed".
"""
import copy
import json
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from checks import finish, report
from json_schema import Spec

cli, work = sys.argv[1], sys.argv[2]
spec = Spec()


# ---- the models -----------------------------------------------------------------

W = (np.arange(16, dtype=np.float32).reshape(4, 4) / 8).astype(np.float32)
B = np.array([0.5, -1, 2, 0.25], np.float32)
E = ((np.arange(40, dtype=np.float32).reshape(10, 4) - 20) / 4).astype(np.float32)
SHAPE = np.array([-1, 4], np.int64)
HH = np.array([1, 2, 3, 4], np.float16)


def const_node(name, out, values):
    return h.make_node("Constant", [], [out], name=name,
                       value=nh.from_array(np.array(values, np.float32), "v"))


def base():
    then = h.make_graph([const_node("c0", "o_then", [1.0, 2.0])], "then", [],
                        [h.make_tensor_value_info("o_then", T.FLOAT, [2])])
    els = h.make_graph([const_node("c1", "o_else", [3.0, 4.0])], "else", [],
                       [h.make_tensor_value_info("o_else", T.FLOAT, [2])])
    nodes = [
        h.make_node("Gather", ["E", "ids"], ["g"], name="gather"),
        h.make_node("MatMul", ["x", "W"], ["mm"], name="mm"),
        h.make_node("Add", ["mm", "b"], ["a1"]),
        h.make_node("LeakyRelu", ["a1"], ["lr"], alpha=0.1),
        h.make_node("Add", ["lr", "g"], ["a2"]),
        h.make_node("Transpose", ["a2"], ["t"], name="tr", perm=[1, 0]),
        h.make_node("Reshape", ["t", "shape"], ["y"], name="reshape"),
        h.make_node("If", ["cond"], ["y2"], name="if0", then_branch=then, else_branch=els),
        h.make_node("Cast", ["hh"], ["hf"], to=T.FLOAT),
        h.make_node("Identity", ["names"], ["nm"], name="idn"),
    ]
    inits = [nh.from_array(W, "W"), nh.from_array(B, "b"), nh.from_array(E, "E"),
             nh.from_array(SHAPE, "shape"), nh.from_array(HH, "hh"),
             h.make_tensor("names", T.STRING, [2], [b"a", b"bc"])]
    g = h.make_graph(
        nodes, "main",
        [h.make_tensor_value_info("x", T.FLOAT, ["N", 4]),
         h.make_tensor_value_info("ids", T.INT64, ["N"]),
         h.make_tensor_value_info("cond", T.BOOL, [])],
        [h.make_tensor_value_info("y", T.FLOAT, [None, 4]),
         h.make_tensor_value_info("y2", T.FLOAT, [2]),
         h.make_tensor_value_info("hf", T.FLOAT, [4]),
         h.make_tensor_value_info("nm", T.STRING, [2])],
        inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)], producer_name="gen",
                     producer_version="1.0")
    m.ir_version = 8
    h.set_model_props(m, {"author": "me", "ver": "1"})
    return m


def node(m, name):
    return next(n for n in m.graph.node if n.name == name)


def init(m, name):
    return next(t for t in m.graph.initializer if t.name == name)


def set_init(m, name, tensor):
    t = init(m, name)
    t.CopyFrom(tensor)
    t.name = name


def variant(fn):
    m = copy.deepcopy(base())
    fn(m)
    return m


def v_input_type(m):
    m.graph.input[0].CopyFrom(h.make_tensor_value_info("x", T.FLOAT16, ["N", 4]))


def v_input_added(m):
    m.graph.input.append(h.make_tensor_value_info("extra", T.FLOAT, [1]))


def v_output_removed(m):
    del m.graph.output[3]


def v_input_order(m):
    x, ids = copy.deepcopy(m.graph.input[0]), copy.deepcopy(m.graph.input[1])
    m.graph.input[0].CopyFrom(ids)
    m.graph.input[1].CopyFrom(x)


def v_op_type(m):
    node(m, "mm").op_type = "Gemm"


def v_node_input(m):
    node(m, "mm").input[1] = "W2"


def v_unnamed_attr(m):
    m.graph.node[3].attribute[0].f = 0.2


def v_insert_unnamed(m):
    m.graph.node.insert(0, h.make_node("Identity", ["x"], ["x_copy"]))


def v_attr_removed(m):
    del node(m, "tr").attribute[:]


def v_attr_list(m):
    node(m, "tr").attribute[0].ints[:] = [0, 1]


def v_dtype(m):
    set_init(m, "hh", nh.from_array(HH.astype(np.float32), "hh"))


def v_dtype_lossy(m):
    set_init(m, "W", nh.from_array((W + np.float32(1 / 3)).astype(np.float16), "W"))


def v_shape(m):
    set_init(m, "W", nh.from_array(W.reshape(2, 8), "W"))


def v_contents(m):
    e = E.copy()
    e[3, 1] += 0.5
    set_init(m, "E", nh.from_array(e, "E"))


def v_int_contents(m):
    set_init(m, "shape", nh.from_array(np.array([-1, 7], np.int64), "shape"))


def v_string_contents(m):
    set_init(m, "names", h.make_tensor("names", T.STRING, [2], [b"a", b"bd"]))


def v_init_removed(m):
    del m.graph.initializer[1]


def v_opset(m):
    m.opset_import[0].version = 14
    m.opset_import.append(h.make_opsetid("com.example", 1))


def v_metadata(m):
    del m.metadata_props[:]
    h.set_model_props(m, {"author": "you", "new": "x"})


def v_subgraph(m):
    then = next(a.g for a in node(m, "if0").attribute if a.name == "then_branch")
    then.node[0].attribute[0].t.CopyFrom(nh.from_array(np.array([1.0, 2.5], np.float32), "v"))


def v_producer(m):
    m.producer_version = "2.0"


def v_node_order(m):
    a, b = copy.deepcopy(m.graph.node[8]), copy.deepcopy(m.graph.node[9])
    m.graph.node[8].CopyFrom(b)
    m.graph.node[9].CopyFrom(a)


def v_typed_storage(m):
    set_init(m, "W", h.make_tensor("W", T.FLOAT, [4, 4], W.flatten().tolist()))


def save(m, name):
    path = "%s/%s.onnx" % (work, name)
    onnx.save(m, path)
    return path


base_path = save(base(), "base")
copy_path = save(base(), "copy")


def libonnxslim(*args):
    return subprocess.run([cli] + list(args), capture_output=True)


r = libonnxslim("split", base_path, work + "/ext.onnx", "--threshold", "0", "--force-shape-inputs",
             "--constants")
report(r.returncode == 0, "split base into external data", r.stderr.decode())
ext_path = work + "/ext.onnx"
r = libonnxslim("merge", ext_path, work + "/merged.onnx")
merged_path = work + "/merged.onnx"
typed_path = save(variant(v_typed_storage), "typed")

D = r"digest [0-9a-f]{32} -> [0-9a-f]{32}"
cases = [
    # name, A, B, extra args, exit status, expected lines (regular expressions)
    ("equal copies", base_path, copy_path, [], 0, []),
    ("equal: single file vs external data", base_path, ext_path, [], 0, []),
    ("equal: raw_data vs typed float_data", base_path, typed_path, [], 0, []),
    ("equal: merged back from external data", base_path, merged_path, [], 0, []),
    ("--storage: raw_data vs typed", base_path, typed_path, ["--storage"], 1,
     [r"initializer 'W': storage raw_data -> typed", "1 difference"]),
    ("--storage: single file vs external data", base_path, ext_path, ["--storage"], 1,
     # STRING tensors have no byte layout: they stay inline
     [r"initializer '%s': storage raw_data -> external" % n for n in ["W", "b", "E", "shape", "hh"]] +
     [r"node 'if0' attribute '%s': node '%s' attribute 'value': storage raw_data -> external" % x
      for x in [("else_branch", "c1"), ("then_branch", "c0")]] + ["7 differences"]),
    ("input type", base_path, save(variant(v_input_type), "input_type"), [], 1,
     [r"input 'x': type FLOAT\[N, 4\] -> FLOAT16\[N, 4\]", "1 difference"]),
    ("input added", base_path, save(variant(v_input_added), "input_added"), [], 1,
     [r"input 'extra': only in B \(FLOAT\[1\]\)", "1 difference"]),
    ("output removed", base_path, save(variant(v_output_removed), "output_removed"), [], 1,
     [r"output 'nm': only in A \(STRING\[2\]\)", "1 difference"]),
    ("input order", base_path, save(variant(v_input_order), "input_order"), [], 1,
     [r"inputs: order \['x', 'ids', 'cond'\] -> \['ids', 'x', 'cond'\]", "1 difference"]),
    ("named node op type", base_path, save(variant(v_op_type), "op_type"), [], 1,
     [r"node 'mm': op_type MatMul -> Gemm", "1 difference"]),
    ("named node input", base_path, save(variant(v_node_input), "node_input"), [], 1,
     [r"node 'mm': inputs \['x', 'W'\] -> \['x', 'W2'\]", "1 difference"]),
    ("unnamed node attribute", base_path, save(variant(v_unnamed_attr), "unnamed_attr"), [], 1,
     [r"node #3 \(LeakyRelu\) attribute 'alpha': 0.100000001 -> 0.200000003", "1 difference"]),
    ("unnamed node inserted: the others still pair by op and rank", base_path,
     save(variant(v_insert_unnamed), "insert_unnamed"), [], 1,
     [r"node #0 \(Identity\): only in B", "1 difference"]),
    ("attribute removed", base_path, save(variant(v_attr_removed), "attr_removed"), [], 1,
     [r"node 'tr' attribute 'perm': only in A \(\[1, 0\] \(INTS\)\)", "1 difference"]),
    ("attribute list value", base_path, save(variant(v_attr_list), "attr_list"), [], 1,
     [r"node 'tr' attribute 'perm': \[1, 0\] -> \[0, 1\]", "1 difference"]),
    ("initializer dtype (same values)", base_path, save(variant(v_dtype), "dtype"), [], 1,
     [r"initializer 'hh': dtype FLOAT16 -> FLOAT, max abs diff 0", "1 difference"]),
    ("initializer dtype (values rounded)", base_path, save(variant(v_dtype_lossy), "dtype_lossy"), [], 1,
     [r"initializer 'W': dtype FLOAT -> FLOAT16, max abs diff 0.33\d+", "1 difference"]),
    ("initializer shape", base_path, save(variant(v_shape), "shape"), [], 1,
     [r"initializer 'W': shape \[4, 4\] -> \[2, 8\]", "1 difference"]),
    ("initializer contents (float)", base_path, save(variant(v_contents), "contents"), [], 1,
     [r"initializer 'E': contents differ, max abs diff 0.5, " + D, "1 difference"]),
    ("initializer contents (int64)", base_path, save(variant(v_int_contents), "int_contents"), [], 1,
     [r"initializer 'shape': contents differ, max abs diff 3, " + D, "1 difference"]),
    ("initializer contents (string)", base_path, save(variant(v_string_contents), "str_contents"), [], 1,
     [r"initializer 'names': contents differ, " + D, "1 difference"]),
    ("initializer removed", base_path, save(variant(v_init_removed), "init_removed"), [], 1,
     [r"initializer 'b': only in A \(FLOAT\[4\]\)", "1 difference"]),
    ("opsets", base_path, save(variant(v_opset), "opset"), [], 1,
     [r"opset 'ai.onnx': version 13 -> 14", r"opset 'com.example': only in B \(1\)", "2 differences"]),
    ("metadata", base_path, save(variant(v_metadata), "metadata"), [], 1,
     [r"metadata 'author': 'me' -> 'you'", r"metadata 'ver': only in A \('1'\)",
      r"metadata 'new': only in B \('x'\)", "3 differences"]),
    ("subgraph initializer-like Constant", base_path, save(variant(v_subgraph), "subgraph"), [], 1,
     [r"node 'if0' attribute 'then_branch': node 'c0' attribute 'value': contents differ, "
      r"max abs diff 0.5, " + D, "1 difference"]),
    ("model field", base_path, save(variant(v_producer), "producer"), [], 1,
     [r"model producer_version: 1.0 -> 2.0", "1 difference"]),
    ("node order only: reported from the fingerprints", base_path,
     save(variant(v_node_order), "node_order"), [], 1,
     [r"model: differs in what diff does not list \(node order, doc strings, \.\.\.\): "
      r"fingerprint [0-9a-f]{32} -> [0-9a-f]{32}", "1 difference"]),
]

for name, a, b, extra, want_rc, want in cases:
    r = libonnxslim("diff", *extra, a, b)
    lines = r.stdout.decode("utf-8").splitlines()
    ok = r.returncode == want_rc and len(lines) == len(want) and all(
        re.fullmatch(p, l) for p, l in zip(want, lines)) and not r.stderr
    report(ok, "diff %s: exit %d, %d line(s)" % (name, want_rc, len(want)),
           "exit %d\nstdout:\n%s\nstderr:\n%s\nwanted:\n%s"
           % (r.returncode, r.stdout.decode(), r.stderr.decode(), "\n".join(want)))
    digests = [l for l in lines if "digest" in l]
    for l in digests:
        m = re.search(r"digest ([0-9a-f]{32}) -> ([0-9a-f]{32})", l)
        report(bool(m) and m.group(1) != m.group(2), "diff %s: the two digests differ" % name, l)
    rj = libonnxslim("diff", "--json", *extra, a, b)
    doc, problems = spec.check_text(rj.stdout)
    ok = rj.returncode == want_rc and not problems and doc is not None
    if ok:
        texts = [d["text"] for d in doc["differences"]]
        ok = (texts == lines[:-1] if lines else texts == []) and doc["count"] == len(texts) and \
            doc["equal"] == (want_rc == 0) and doc["storage"] == ("--storage" in extra)
    report(ok, "diff --json %s: exit %d, conforms to docs/json.md, same differences as the text"
           % (name, want_rc), "exit %d; %s\n%s" % (rj.returncode, "; ".join(problems),
                                                    rj.stdout.decode()[:2000]))

# structured members of a few differences
rj = libonnxslim("diff", "--json", base_path, work + "/contents.onnx")
d = json.loads(rj.stdout)["differences"][0]
report(d["kind"] == "initializer" and d["name"] == "E" and d["what"] == "contents" and
       d["max_abs_diff"] == 0.5 and len(d["digest_a"]) == 32 and d["a"] is None,
       "diff --json: a contents difference names kind, name, what, max_abs_diff, digests", str(d))
rj = libonnxslim("diff", "--json", base_path, work + "/unnamed_attr.onnx")
d = json.loads(rj.stdout)["differences"][0]
report(d["kind"] == "node" and d["name"] == "" and d["index_a"] == 3 and d["index_b"] == 3 and
       d["attribute"] == "alpha" and d["what"] == "value",
       "diff --json: an unnamed node's attribute: index_a, index_b, attribute", str(d))
rj = libonnxslim("diff", "--json", base_path, work + "/subgraph.onnx")
d = json.loads(rj.stdout)["differences"][0]
report(d["graph"] == "node 'if0' attribute 'then_branch'" and d["name"] == "c0",
       "diff --json: a difference in a subgraph names the graph", str(d))

# usage and load errors: exit 2, nothing on stdout
garbage = work + "/garbage.onnx"
with open(garbage, "wb") as f:
    f.write(b"\x00\x01 not a model")
for args, what in [([base_path], "one model"), ([base_path, base_path, base_path], "three models"),
                   (["--bogus", base_path, base_path], "unknown option"),
                   ([base_path, work + "/missing.onnx"], "missing file"),
                   ([garbage, base_path], "not a model"), (["-", base_path], "'-'")]:
    for j in ([], ["--json"]):
        r = libonnxslim("diff", *(j + args))
        report(r.returncode == 2 and not r.stdout and r.stderr,
               "diff %s%s: exit 2, a message on stderr, nothing on stdout" % (" ".join(j) + " " if j else "", what),
               "exit %d, stdout %r, stderr %r" % (r.returncode, r.stdout[:200], r.stderr[:200]))

for name in spec.schemas:
    if name == "libonnxslim.diff/1":
        unseen = spec.unseen(name)
        report(not unseen, "every member of %s in docs/json.md was printed by a case" % name,
               ", ".join(unseen))
finish()
