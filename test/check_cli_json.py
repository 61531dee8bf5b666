#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""--json of info, check, fingerprint, diff, convert, split, merge, simplify and infer.

Every document printed is parsed with python's json module (NaN and
Infinity refused, UTF-8 required) and checked against the tables of
docs/json.md (test/json_schema.py): undocumented members, missing ones,
other types and another order fail. At the end every member of every table
must have been printed by some command here, so the page cannot list what
the commands do not print. The documents also say what the text output
says (same fingerprint, same problems, same counts), and names with control
characters and bytes that are not UTF-8 come out escaped as docs/json.md
says.

usage: check_cli_json.py ONNXSLIM WORKDIR
Prints one line per check and "N passed, N failed".
"""
import json
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from json_schema import ROOT, Spec
from checks import finish, report

cli, work = sys.argv[1], sys.argv[2]
spec = Spec()
TESTDATA = "/usr/share/libonnx-testdata/data"


def run(*args):
    return subprocess.run([cli] + [str(a) for a in args], capture_output=True)


def doc_of(what, args, want_rc=0):
    """Runs the command, checks exit status and the document; returns it."""
    r = run(*args)
    doc, problems = spec.check_text(r.stdout)
    report(r.returncode == want_rc and doc is not None and not problems,
           "%s: exit %d, conforms to docs/json.md" % (what, want_rc),
           "exit %d; %s\nstdout: %s\nstderr: %s" % (r.returncode, "; ".join(problems or []),
                                                    r.stdout[:1500], r.stderr[:500]))
    return doc if doc is not None else {}


# ---- models -------------------------------------------------------------------
bert = ROOT / "test/data/bert-tiny.onnx"
models = [bert, ROOT / "test/data/odd/absurd_dims_raw_mismatch.onnx"]
for name in ["node/test_if", "node/test_loop11", "node/test_sequence_map_identity_1_sequence",
             "node/test_optional_has_element_optional_input", "simple/test_sequence_model1"]:
    p = "%s/%s/model.onnx" % (TESTDATA, name)
    if os.path.exists(p):
        models.append(p)

# a model with a local function, a map-typed input and a value with no type
map_type = onnx.TypeProto()
map_type.map_type.key_type = T.INT64
map_type.map_type.value_type.CopyFrom(h.make_tensor_type_proto(T.FLOAT, []))
fn = h.make_function("local", "AddTwice", ["a", "b"], ["c"],
                     [h.make_node("Add", ["a", "b"], ["t"]), h.make_node("Add", ["t", "b"], ["c"])],
                     [h.make_opsetid("", 13)])
g = h.make_graph([h.make_node("AddTwice", ["x", "x"], ["y"], domain="local", name="f")], "with_fn",
                 [h.make_tensor_value_info("x", T.FLOAT, [2, None]),
                  h.make_value_info("m", map_type),
                  h.ValueInfoProto(name="untyped")],
                 [h.make_tensor_value_info("y", T.FLOAT, None)])
mf = h.make_model(g, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("local", 1)],
                  functions=[fn])
mf.ir_version = 8
onnx.save(mf, work + "/functions.onnx")
models.append(work + "/functions.onnx")
# a model with a STRING initializer (unsized), a typed one and external data
g = h.make_graph([h.make_node("Identity", ["s"], ["o"], name="i")], "g", [],
                 [h.make_tensor_value_info("o", T.STRING, [1])],
                 [h.make_tensor("s", T.STRING, [1], [b"x"]), h.make_tensor("t", T.FLOAT, [2], [1.0, 2.0]),
                  nh.from_array(np.arange(2048, dtype=np.float32), "big")])
ms = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
ms.ir_version = 8
onnx.save_model(ms, work + "/ext.onnx", save_as_external_data=True, location="ext.bin", size_threshold=1024)
models.append(work + "/ext.onnx")

# names with control characters, UTF-8 and bytes that are not UTF-8
N1 = b'ctl\x01\x02\x1f\x7f\t\n\r"\\end'
N2 = "utf8 \u00e9 \u2028 \U0001F600".encode("utf-8")
N3 = b"bad \xff \xc3\x28 \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82"
ph = [b"P1" + b"_" * (len(N1) - 2), b"P2" + b"_" * (len(N2) - 2), b"P3" + b"_" * (len(N3) - 2)]
g = h.make_graph([h.make_node("Add", [ph[0].decode(), "missing"], ["out"], name=ph[2].decode())], "names",
                 [h.make_tensor_value_info(ph[0].decode(), T.FLOAT, [2])],
                 [h.make_tensor_value_info("out", T.FLOAT, [2])],
                 [nh.from_array(np.ones(2, np.float32), ph[1].decode())])
raw = h.make_model(g, opset_imports=[h.make_opsetid("", 13)]).SerializeToString()
for p, n in zip(ph, [N1, N2, N3]):
    raw = raw.replace(p, n)
with open(work + "/names.onnx", "wb") as f:
    f.write(raw)


def expected_text(b):
    """docs/json.md: well-formed UTF-8 kept, every other byte U+FFFD."""
    out, i = [], 0
    while i < len(b):
        for k in range(1, 5):
            try:
                out.append(b[i:i + k].decode("utf-8"))
                i += k
                break
            except UnicodeDecodeError:
                pass
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


# ---- info -----------------------------------------------------------------------
for m in models + [work + "/names.onnx"]:
    d = doc_of("info --json %s" % os.path.basename(os.path.dirname(m)) + "/" + os.path.basename(m),
               ["info", "--json", m])
    t = run("info", m).stdout.decode("utf-8", "replace")
    if not d:
        continue
    facts = []
    if d.get("graph"):
        gj = d["graph"]
        mm = re.search(r"^nodes:\s+(\d+)", t, re.M)
        facts.append(bool(mm) and int(mm.group(1)) == gj["nodes"])
        mm = re.search(r"^inputs:\s+(\d+)", t, re.M)
        facts.append(bool(mm) and int(mm.group(1)) == len(gj["inputs"]))
        mm = re.search(r"^op_types:\s+(\d+) distinct", t, re.M)
        facts.append(bool(mm) and int(mm.group(1)) == len(gj["op_types"]))
        facts.append(sum(o["count"] for o in gj["op_types"]) == gj["nodes"])
    else:
        facts.append(re.search(r"^graph:\s+\(none\)", t, re.M) is not None)
    mm = re.search(r"^opset_import:\s+(\d+)", t, re.M)
    facts.append(bool(mm) and int(mm.group(1)) == len(d["opset_import"]))
    report(all(facts), "info --json %s says what the text says (nodes, inputs, op types, opsets)"
           % os.path.basename(m), t[:800])

d = json.loads(run("info", "--json", bert).stdout)
inp = d["graph"]["inputs"][0]
report(inp["name"] == "input_ids" and inp["type"] == "INT64[batch, seq]" and inp["kind"] == "tensor" and
       inp["elem_type"] == "INT64" and inp["shape"] == ["batch", "seq"],
       "info --json: an input's name, type, kind, elem_type and symbolic shape", inp)
big = d["graph"]["largest_initializers"][0]
report(big["name"] == "roberta.embeddings.word_embeddings.weight" and big["dims"] == [100, 16] and
       big["bytes"] == 6400 and big["dtype"] == "FLOAT" and big["storage"] == "raw_data",
       "info --json: the largest initializer's name, dims, bytes, dtype, storage", big)
d = json.loads(run("info", "--json", work + "/names.onnx").stdout)
report(d["graph"]["inputs"][0]["name"] == expected_text(N1) and
       d["graph"]["largest_initializers"][0]["name"] == expected_text(N2),
       "info --json: control characters escaped, UTF-8 kept",
       (d["graph"]["inputs"][0]["name"], d["graph"]["largest_initializers"][0]["name"]))
raw_out = run("info", "--json", work + "/names.onnx").stdout
report(all(c >= 0x20 or c == 0x0A for c in raw_out) and b"\\u007f" in raw_out and b"\\u0001" in raw_out,
       "info --json: no raw control character in the output (\\u0001, \\u007f escaped)", raw_out[:600])

# ---- check -----------------------------------------------------------------------
for m, rc in [(bert, 0), (ROOT / "test/data/odd/absurd_dims_raw_mismatch.onnx", 1),
              (work + "/names.onnx", 1)]:
    d = doc_of("check --json %s" % os.path.basename(m), ["check", "--json", m], rc)
    t = run("check", m)
    lines = [l for l in t.stdout.decode("utf-8", "replace").splitlines()
             if "is not topologically sorted" not in l]
    if d:
        report(t.returncode == rc and d["ok"] == (rc == 0) and
               (len(d["problems"]) == len(lines) if rc else lines[0].endswith(": ok")),
               "check --json %s: the problems of the text output" % os.path.basename(m), t.stdout[:500])
d = json.loads(run("check", "--json", work + "/names.onnx").stdout)
locs = [p["location"] for p in d["problems"]]
report(any(expected_text(N3) in l for l in locs) and all(p["code_name"] != "unknown" for p in d["problems"]),
       "check --json: a node name with bytes that are not UTF-8 comes out with U+FFFD per byte", locs)
# a graph that is not sorted: unsorted_uses
g = h.make_graph([h.make_node("Neg", ["a"], ["b"], name="late"), h.make_node("Relu", ["x"], ["a"], name="r")],
                 "unsorted", [h.make_tensor_value_info("x", T.FLOAT, [1])],
                 [h.make_tensor_value_info("b", T.FLOAT, [1])])
mu = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
onnx.save(mu, work + "/unsorted.onnx")
d = doc_of("check --json unsorted graph", ["check", "--json", work + "/unsorted.onnx"], 1)
report(d.get("unsorted_uses") == 1 and d["problems"][0]["code_name"] == "order",
       "check --json: unsorted_uses counts the uses before definition", d)
r = run("check", "--json", work + "/missing.onnx")
report(r.returncode == 3 and not r.stdout, "check --json of a missing file: exit 3, nothing on stdout",
       r.returncode)

# ---- fingerprint ---------------------------------------------------------------------
for m in [bert, work + "/ext.onnx"]:
    d = doc_of("fingerprint --json %s" % os.path.basename(m), ["fingerprint", "--json", m])
    t = run("fingerprint", m).stdout.decode().strip()
    report(d.get("fingerprint") == t and d.get("file") == str(m),
           "fingerprint --json %s: the text's digest" % os.path.basename(m), (d, t))

# ---- convert, split, merge ---------------------------------------------------------------
out = work + "/out"
os.makedirs(out, exist_ok=True)
# a BatchNorm variance FLOAT16 cannot hold: kept FLOAT, listed in conversion.kept
bn = out + "/bn.onnx"
_g = h.make_graph([h.make_node("BatchNormalization", ["X", "s", "b", "m", "v"], ["Y"])], "g",
                  [h.make_tensor_value_info("X", T.FLOAT, [1, 2])],
                  [h.make_tensor_value_info("Y", T.FLOAT, [1, 2])],
                  [nh.from_array(np.array(v, np.float32), n) for v, n in
                   (([1, 1], "s"), ([0, 0], "b"), ([0, 0], "m"), ([9.8e7, 1], "v"))])
with open(bn, "wb") as f:
    f.write(h.make_model(_g, opset_imports=[h.make_opsetid("", 15)]).SerializeToString())
runs = [
    ("convert --to fp16 (kept)", ["convert", bn, out + "/bn16.onnx", "--to", "fp16", "--json"]),
    ("convert recipe", ["convert", bert, out + "/r.onnx", "--gather-to", "bf16", "--round", "truncate",
                        "--external-data", "--threshold", "0", "--location", "r.bin",
                        "--also-single-file", out + "/rs.onnx", "--json"]),
    ("convert --to fp16", ["convert", bert, out + "/h.onnx", "--to", "fp16", "--json"]),
    ("convert --gather-to int4", ["convert", bert, out + "/q.onnx", "--gather-to", "int4",
                                  "--format", "ort", "--block-size", "16", "--json"]),
    ("convert (copy)", ["convert", bert, out + "/c.onnx", "--json", "--report"]),
    ("split --per-tensor", ["split", bert, out + "/s.onnx", "--per-tensor", "--json"]),
    ("merge", ["merge", out + "/r.onnx", out + "/m.onnx", "--json"]),
    ("simplify", ["simplify", bert, out + "/simp.onnx", "--json"]),
]
docs = {}
for what, args in runs:
    d = docs[what] = doc_of(what + " --json", args)
    if not d:
        continue
    files_ok = all(os.path.getsize(f["path"]) == f["bytes"] for f in d["files"])
    report(d["command"] == args[0] and d["output"] == args[2] and files_ok,
           "%s --json: command, output, the files written with their sizes" % what, d["files"])
d = docs["convert --to fp16 (kept)"]
report(bool(d) and d["conversion"]["kept"] == [{"name": "v", "type": "FLOAT", "elements": 2, "to_inf": 1,
                                                "saturated": 0}] and
       sorted(e["name"] for e in d["conversion"]["tensors"]) == ["b", "m", "s"],
       "convert --json: a tensor FLOAT16 cannot hold is in conversion.kept, not in tensors",
       d and d["conversion"])
d = docs["convert --to fp16"]
notes = d["conversion"]["notes"] if d else []
report(bool(notes) and all(n["code"] == "fold_back" and n["op"] == "Cast" and n["input"] == 0 and
                           n["bytes"] > 0 and n["name"] in n["message"] for n in notes) and
       not docs["convert recipe"]["conversion"]["notes"],
       "convert --json: conversion.notes lists the fold-back tensors of --to fp16 (Cast after the "
       "Gathers only), none for the recipe", notes)
d = docs["convert recipe"]
os.makedirs(out + "/text", exist_ok=True)
t = run(*[a.replace(out, out + "/text") if isinstance(a, str) else a for a in runs[1][1] if a != "--json"]
        + ["--report"]).stdout.decode()
mm = re.search(r"converted (\d+) tensor", t)
report(bool(mm) and int(mm.group(1)) == d["conversion"]["total"]["tensors"] == len(d["conversion"]["tensors"])
       and d["external_data"]["location"] == "r.bin" and d["layout"] == "one_file" and
       d["single_file"] == out + "/rs.onnx" and len(d["external_data"]["shape_inputs_kept"]) ==
       d["external_data"]["shape_inputs"],
       "convert --json: the conversion and external data of the text report", t[:600])
d = docs["convert --gather-to int4"]
qs = [e["quantization"] for e in d["conversion"]["tensors"]] if d else []
report(bool(qs) and all(q and q["bits"] == 4 and q["block_size"] == 16 and q["saturated"] == 0 and
                        0 < q["scale_min"] <= q["scale_max"] and q["max_row_rel_error"] > 0
                        for q in qs) and
       all(e["quantization"] is None for e in docs["convert --to fp16"]["conversion"]["tensors"]),
       "convert --json: quantization statistics for INT4 tables, null for FP16", qs)
d = docs["split --per-tensor"]
report(d["layout"] == "per_tensor" and d["external_data"]["location"] is None and
       d["external_data"]["files"] > 1 and d["conversion"] is None,
       "split --per-tensor --json: layout, no single location, several data files", d["external_data"])
d = docs["merge"]
report(d["layout"] == "inline" and d["external_data"] is None and len(d["files"]) == 1,
       "merge --json: layout inline, no external data, one file", d)
d = docs["simplify"]


def _kinds(sm, *kinds):
    return sum(c["kind"] in kinds for c in sm["changes"])


sm = d["simplification"] if d else None
report(bool(sm) and sm["steps"] and sm["nodes_before"] == sm["steps"][0]["nodes_before"] and
       sm["initializers_after"] == sm["steps"][-1]["initializers_after"] and
       sm["initializers_after"] < sm["initializers_before"] and
       # every node folded in bert-tiny is a Constant: one node out, one initializer in
       _kinds(sm, "merged_initializer", "removed_initializer") - _kinds(sm, "folded_node") ==
       sm["initializers_before"] - sm["initializers_after"] and
       _kinds(sm, "removed_node", "merged_node", "folded_node") ==
       sm["nodes_before"] - sm["nodes_after"] > 0 and
       docs["merge"]["simplification"] is None,
       "simplify --json: the simplification's totals, steps and one change per merged, removed "
       "or folded node and initializer (bert-tiny); null for merge", sm)

# ---- infer -----------------------------------------------------------------------------------
# a value whose stated type disagrees: lenient keeps it (a conflict entry),
# --strict fails and writes nothing
_g = h.make_graph([h.make_node("Relu", ["X"], ["R"]), h.make_node("Neg", ["R"], ["Y"])], "g",
                  [h.make_tensor_value_info("X", T.FLOAT, ["n", 3])],
                  [h.make_tensor_value_info("Y", T.FLOAT, None)],
                  value_info=[h.make_tensor_value_info("R", T.FLOAT, ["n", 4])])
conflict = out + "/conflict.onnx"
with open(conflict, "wb") as f:
    f.write(h.make_model(_g, opset_imports=[h.make_opsetid("", 17)]).SerializeToString())
d = doc_of("infer --json (conflict)", ["infer", "--json", conflict])
vals = {v["name"]: v for v in d.get("values", [])}
report(d.get("output") is None and d.get("conflicts") == 1 and vals.get("R", {}).get("status") == "conflict"
       and vals["R"]["shape"] == ["n", 3] and vals.get("Y", {}).get("shape") == ["n", 4] and
       d.get("refined") == 1 and vals["Y"]["status"] == "refined",
       "infer --json: a conflict reports what inference found and keeps the stated type for what "
       "follows", d)
r = run("infer", "--strict", conflict, out + "/strict.onnx")
report(r.returncode == 1 and b"'R'" in r.stderr and not os.path.exists(out + "/strict.onnx"),
       "infer --strict: exit 1 naming the value, nothing written", (r.returncode, r.stderr[:300]))
d = doc_of("infer --json MODEL OUT", ["infer", "--json", bert, out + "/inf.onnx"])
d2 = doc_of("infer --json OUT", ["infer", "--json", out + "/inf.onnx"])
report(d.get("output") == out + "/inf.onnx" and d.get("new", 0) > 0 and
       len(d.get("values", [])) == d["new"] + d["refined"] + d["same"] + d["conflicts"] and
       d2.get("same") == len(d2.get("values", [])) == len(d["values"]) and
       [v["shape"] for v in d2["values"]] == [v["shape"] for v in d["values"]],
       "infer --json MODEL OUT: the counts add up; OUT has every value typed as reported", (d, d2))

# ---- diff (its cases are in step 62; here: the schema is covered) ------------------------
doc_of("diff --json equal", ["diff", "--json", bert, out + "/c.onnx"], 0)
doc_of("diff --json converted", ["diff", "--json", bert, out + "/r.onnx"], 1)
doc_of("diff --json --storage", ["diff", "--json", "--storage", bert, out + "/s.onnx"], 1)
doc_of("diff --json unnamed nodes", ["diff", "--json", work + "/functions.onnx", work + "/unsorted.onnx"], 1)
tl = "%s/node/test_loop11/model.onnx" % TESTDATA
if os.path.exists(tl):
    # the Loop's body: a difference in a subgraph
    ml = onnx.load(tl)
    body = next(a.g for a in ml.graph.node[0].attribute if a.name == "body")
    body.node[-1].op_type = "Neg" if body.node[-1].op_type != "Neg" else "Abs"
    onnx.save(ml, work + "/loop_changed.onnx")
    doc_of("diff --json subgraph", ["diff", "--json", tl, work + "/loop_changed.onnx"], 1)
# a difference with a digest and an unnamed node: functions model against a changed copy
mf2 = onnx.load(work + "/functions.onnx")
mf2.functions[0].node[0].op_type = "Sub"
mf2.functions[0].node[0].name = ""
onnx.save(mf2, work + "/functions2.onnx")
d = doc_of("diff --json function nodes", ["diff", "--json", work + "/functions.onnx", work + "/functions2.onnx"], 1)
report(any(x["graph"] == "function 'local:AddTwice'" for x in d.get("differences", [])),
       "diff --json: nodes of a function are compared, graph 'function ...'", d.get("differences"))
e = np.arange(2048, dtype=np.float32)
e[5] = 9
mc = onnx.load(work + "/ext.onnx")
next(t for t in mc.graph.initializer if t.name == "big").CopyFrom(nh.from_array(e, "big"))
onnx.save(mc, work + "/ext_changed.onnx")
doc_of("diff --json contents", ["diff", "--json", work + "/ext.onnx", work + "/ext_changed.onnx"], 1)

# ---- every member of every table was printed -------------------------------------
for name in spec.schemas:
    unseen = spec.unseen(name)
    report(not unseen, "every member of %s in docs/json.md was printed here" % name, ", ".join(unseen))
report(set(spec.schemas) == {"libonnxslim.info/1", "libonnxslim.check/1", "libonnxslim.fingerprint/1",
                             "libonnxslim.diff/1", "libonnxslim.convert/1", "libonnxslim.infer/1"},
       "docs/json.md documents the six schemas", sorted(spec.schemas))
finish()
