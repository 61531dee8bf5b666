#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""libonnxslim check against onnx.checker.check_model(full_check=True).

Every model under DATA_DIR (libonnx-testdata with Debian's onnx 1.12; onnx's
node test models and the wheel's backend/test/data with the pinned onnx of
scripts/pypi-pins.txt, test step 37-check-vs-onnx), and mutated copies of each (a generator in
this file: a graph input given another type, a required attribute
dropped, an input added past the schema's maximum, an op renamed, the
default opset lowered below an op's first version), is checked by both;
the verdicts (valid / invalid) must agree, except for the differences
listed with a reason in test/check_vs_onnx_known.txt (lines
"MUTATION VERDICT PATH-GLOB  # reason"; VERDICT is onnx-only when only onnx
rejects, slim-only when only libonnxslim does). Prints the agreement table
and "N passed, N failed". onnx checks ModelProtos (the mutants are written
to TMP_DIR for libonnxslim only): it never sees, so never rewrites, a file
under test.

usage: check_vs_onnx.py ONNXSLIM DATA_DIR KNOWN_FILE TMP_DIR
"""
import copy
import fnmatch
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import onnx
from onnx import checker, defs, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import finish, report  # noqa: E402

cli, data, known_file, tmp = sys.argv[1:5]
MAX_OPSET = defs.onnx_opset_version()
FIRST = {}
for _s in defs.get_all_schemas_with_history():
    if _s.domain == "":
        FIRST[_s.name] = min(FIRST.get(_s.name, 999), _s.since_version)


def schema(node, opset):
    try:
        return defs.get_schema(node.op_type, opset, node.domain)
    except Exception:
        return None


def model_opset(m):
    for o in m.opset_import:
        if o.domain in ("", "ai.onnx"):
            return o.version
    return None


def mutants(m):
    """(name, mutated model) pairs; a mutation that does not apply is skipped."""
    g = m.graph
    opset = model_opset(m)
    out = []
    # types: the first typed graph input that is not an initializer becomes STRING
    # (BOOL when it was STRING)
    inits = {t.name for t in g.initializer}
    for i, vi in enumerate(g.input):
        if vi.name in inits or not vi.type.HasField("tensor_type") or not vi.type.tensor_type.elem_type:
            continue
        mm = copy.deepcopy(m)
        et = mm.graph.input[i].type.tensor_type
        et.elem_type = onnx.TensorProto.BOOL if et.elem_type == onnx.TensorProto.STRING else onnx.TensorProto.STRING
        out.append(("types", mm))
        break
    if opset is not None:
        # drop a required attribute
        for k, n in enumerate(g.node):
            s = schema(n, opset) if n.domain in ("", "ai.onnx") else None
            req = [a.name for a in n.attribute if s and a.name in s.attributes and s.attributes[a.name].required]
            if req:
                mm = copy.deepcopy(m)
                nn = mm.graph.node[k]
                keep = [a for a in nn.attribute if a.name != req[0]]
                del nn.attribute[:]
                nn.attribute.extend(keep)
                out.append(("drop-attr", mm))
                break
        # add an input past the maximum
        for k, n in enumerate(g.node):
            s = schema(n, opset) if n.domain in ("", "ai.onnx") else None
            if s and s.max_input < 100 and len(n.input) == s.max_input and n.input:
                mm = copy.deepcopy(m)
                mm.graph.node[k].input.append(n.input[0])
                out.append(("add-input", mm))
                break
        # lower the opset below the first version of the newest op used
        firsts = []
        for n in g.node:
            if n.domain in ("", "ai.onnx") and n.op_type in FIRST:
                firsts.append(FIRST[n.op_type])
        if firsts and max(firsts) > 1 and opset <= MAX_OPSET:
            mm = copy.deepcopy(m)
            for o in mm.opset_import:
                if o.domain in ("", "ai.onnx"):
                    o.version = max(firsts) - 1
            out.append(("lower-opset", mm))
    # a graph output without element type
    for i, vi in enumerate(g.output):
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type:
            mm = copy.deepcopy(m)
            mm.graph.output[i].type.tensor_type.elem_type = 0
            out.append(("untype-out", mm))
            break
    # an attribute of another type (INT <-> FLOAT), an unknown attribute
    for k, n in enumerate(g.node):
        for j, a in enumerate(n.attribute):
            if a.type in (onnx.AttributeProto.INT, onnx.AttributeProto.FLOAT) and n.domain in ("", "ai.onnx"):
                mm = copy.deepcopy(m)
                aa = mm.graph.node[k].attribute[j]
                if a.type == onnx.AttributeProto.INT:
                    v = aa.i
                    aa.ClearField("i")
                    aa.f = float(v)
                    aa.type = onnx.AttributeProto.FLOAT
                else:
                    v = aa.f
                    aa.ClearField("f")
                    aa.i = int(v)
                    aa.type = onnx.AttributeProto.INT
                out.append(("attr-type", mm))
                break
        else:
            continue
        break
    for k, n in enumerate(g.node):
        if n.domain in ("", "ai.onnx"):
            mm = copy.deepcopy(m)
            mm.graph.node[k].attribute.append(helper.make_attribute("zz_bogus", 1))
            out.append(("attr-unknown", mm))
            break
    # rename an op
    if g.node:
        mm = copy.deepcopy(m)
        mm.graph.node[0].op_type += "Zz"
        out.append(("rename-op", mm))
    return out


def onnx_verdict(m):
    try:
        checker.check_model(m, full_check=True)
        return "valid", ""
    except Exception as e:  # onnx raises ValidationError, InferenceError, ...
        return "invalid", str(e).splitlines()[0][:200] if str(e) else type(e).__name__


NOTED = []  # originals libonnxslim checked without schemas (its note says so)


def slim_verdict(path, original=False):
    r = subprocess.run([cli, "check", "--json", path], capture_output=True, text=True)
    if original and r.returncode in (0, 1) and "schemas not checked" in json.loads(r.stdout)["note"]:
        NOTED.append(path)
    if r.returncode == 0:
        return "valid", ""
    if r.returncode == 1:
        d = json.loads(r.stdout)
        p = d["problems"][0]
        return "invalid", "%s: %s" % (p["code_name"], p["message"][:160])
    return "error", r.stderr.strip()[:200]


known = []
for line in open(known_file):
    line = line.split("#", 1)[0].split()
    if len(line) >= 3:
        known.append((line[0], line[1], line[2]))


def is_known(mut, verdict, path):
    return any(k[0] in (mut, "*") and k[1] == verdict and fnmatch.fnmatch(path, k[2]) for k in known)


cases = []
for root, _, files in os.walk(data):
    for f in sorted(files):
        if f.endswith(".onnx"):
            cases.append(os.path.join(root, f))
cases.sort()

os.makedirs(tmp, exist_ok=True)
jobs = []
for idx, path in enumerate(cases):
    rel = os.path.relpath(path, data)
    try:
        m = onnx.load(path)
    except Exception as e:
        print("skip %s: onnx cannot load it (%s)" % (rel, e))
        continue
    jobs.append(("original", rel, path, m))
    for name, mm in mutants(m):
        p = os.path.join(tmp, "%d-%s.onnx" % (idx, name))
        with open(p, "wb") as fh:
            fh.write(mm.SerializeToString())
        jobs.append((name, rel, p, mm))


def run(job):
    mut, rel, p, m = job
    return (mut, rel, onnx_verdict(m), slim_verdict(p, mut == "original"))


with ThreadPoolExecutor(max_workers=2) as ex:
    results = list(ex.map(run, jobs))

table = {}
unexplained = []
for mut, rel, (ov, omsg), (sv, smsg) in results:
    row = table.setdefault(mut, [0, 0, 0, 0])
    row[0] += 1
    if sv == "error":
        unexplained.append("%s %s: libonnxslim check failed: %s" % (mut, rel, smsg))
        continue
    if ov == sv:
        row[1] += 1
        continue
    verdict = "onnx-only" if ov == "invalid" else "slim-only"
    if is_known(mut, verdict, rel):
        row[2] += 1
    else:
        row[3] += 1
        unexplained.append("%s %s %s: onnx: %s | libonnxslim: %s" % (mut, verdict, rel, omsg or "valid", smsg or "valid"))

print("onnx %s checker.check_model(full_check=True) vs libonnxslim check: %d models under %s"
      % (onnx.__version__, len(cases), data))
print("%-12s %7s %7s %11s %11s" % ("cases", "total", "agree", "documented", "unexplained"))
tot = [0, 0, 0, 0]
for mut in ["original", "types", "untype-out", "drop-attr", "attr-type", "attr-unknown", "add-input",
            "rename-op", "lower-opset"]:
    row = table.get(mut, [0, 0, 0, 0])
    tot = [a + b for a, b in zip(tot, row)]
    print("%-12s %7d %7d %11d %11d" % (mut, *row))
print("%-12s %7d %7d %11d %11d" % ("all", *tot))
with open(os.path.join(tmp, "disagreements.txt"), "w") as fh:
    fh.write("".join(u + "\n" for u in unexplained))
for u in unexplained[:60]:
    print("  " + u)
if len(unexplained) > 60:
    print("  ... all %d in %s" % (len(unexplained), os.path.join(tmp, "disagreements.txt")))
report(not NOTED, "onnx %s: libonnxslim applied the operator schemas to every model (none past its tables)"
       % onnx.__version__, "%d models only checked structurally: %s" % (len(NOTED), NOTED[:5]))
report(tot[0] > 3000, "onnx %s: %d cases checked by both (test models and mutants)" % (onnx.__version__, tot[0]), "too few cases")
report(not unexplained, "onnx %s: every disagreement is documented (%d agree, %d documented differences)"
       % (onnx.__version__, tot[1], tot[2]),
       "%d undocumented disagreements (test/check_vs_onnx_known.txt)" % len(unexplained))
finish()
