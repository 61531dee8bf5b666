#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Which node inputs must stay inline for onnxruntime to load a model: the
sweep behind lib/passes/load_inputs.c, for test/steps/48-inline-table.sh.

  inline_sweep.py prepare OUTDIR [TESTDATA_NODE_DIR]
      For every model of the node test data (every op, every opset): each
      tensor graph input becomes an initializer holding test_data_set_0's
      input_N.pb (removed from the graph inputs from IR 4 on, so it is a
      constant onnxruntime may read), saved as OUTDIR/NAME/base.onnx. Then,
      for each of those tensors T, OUTDIR/NAME/tK.onnx is the same model
      with T alone in external data (tK.bin). OUTDIR/manifest.json says,
      per model, the opset of each domain and, per variant, T's consumers
      as (domain, op_type, input index), subgraphs included.

  inline_sweep.py compare OUTDIR RESULTS TABLE.c
      RESULTS has one line per loaded model from test/external/ort_load.js
      ("ok FILE" or "error FILE: MESSAGE"). A model whose base.onnx loads
      and whose tK.onnx fails with onnxruntime's "Cannot parse data from
      external tensors ... for tensor: T" needs T inline: its consumer
      (domain, op, opset, index) is needed. One that loads with T external
      shows that (domain, op, opset, index) is not needed. Compares with
      the table in TABLE.c (the rows of osl_load_inputs[]):
        - a needed input the table lacks: FAIL
        - a table row (domain, op, since, index) that covers an observed
          input onnxruntime does not need (and none it needs): FAIL
        - a row that covers no observed input must give a reason (its
          last field, e.g. the opsets the test data lacks); a row with a
          reason that the sweep did observe: FAIL (drop the reason)
        - a tensor with several consumers that fails: at least one of them
          must be in the table
      Other load errors of a variant whose base loads: FAIL.
      Prints one line per finding and "N passed, N failed".

  inline_sweep.py checkwarn OUTDIR RESULTS CLI
      `CLI check --json` of every variant: the external_load_input warning
      (severity "warning", naming the tensor) exactly when onnxruntime
      refused the variant for its external tensor.
"""
import glob
import json
import os
import re
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

NODE_DIR = "/usr/share/libonnx-testdata/data/node"
EXT_ERR = "Cannot parse data from external tensors"
# If's constant folding resolves an external condition from the working directory
EXT_DIR_ERR = "External data path for model loaded from bytes escapes working directory"


def domain_of(d):
    return "" if d in ("", "ai.onnx") else d


def consumers(graph, name, opsets, out):
    """(domain, op, index) of every node reading `name`, in subgraphs too."""
    for node in graph.node:
        for k, i in enumerate(node.input):
            if i == name:
                out.add((domain_of(node.domain), node.op_type, k))
        for a in node.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                consumers(a.g, name, opsets, out)
            elif a.type == onnx.AttributeProto.GRAPHS:
                for g in a.graphs:
                    consumers(g, name, opsets, out)
    return out


def to_raw(t):
    """T with its bytes in raw_data (numeric types), or None."""
    if t.data_type in (TensorProto.STRING, TensorProto.UNDEFINED):
        return None
    if t.HasField("raw_data"):
        return t
    r = numpy_helper.from_array(numpy_helper.to_array(t), t.name)
    if r.data_type != t.data_type:
        return None
    return r


def emit(out, test, m, inits, extra=False):
    """Saves m (inits already among its initializers) as OUT/TEST/base.onnx
    and one variant per tensor of inits stored externally; the manifest
    entry."""
    opsets = {domain_of(o.domain): o.version for o in m.opset_import}
    d = os.path.join(out, test)
    os.makedirs(d, exist_ok=True)
    onnx.save(m, os.path.join(d, "base.onnx"))
    names = [t.name for t in inits]
    variants = []
    for k, name in enumerate(names):
        v = onnx.ModelProto()
        v.CopyFrom(m)
        vt = [t for t in v.graph.initializer if t.name == name][0]
        data = vt.raw_data
        with open(os.path.join(d, "t%d.bin" % k), "wb") as f:
            f.write(data)
        vt.ClearField("raw_data")
        vt.data_location = TensorProto.EXTERNAL
        del vt.external_data[:]
        for key, val in (("location", "t%d.bin" % k), ("offset", "0"), ("length", str(len(data)))):
            e = vt.external_data.add()
            e.key, e.value = key, val
        onnx.save(v, os.path.join(d, "t%d.onnx" % k))
        variants.append({"file": "t%d.onnx" % k, "tensor": name, "length": len(data),
                         "consumers": sorted(consumers(m.graph, name, opsets, set()))})
    return {"test": test, "opsets": opsets, "variants": variants, "extra": extra}


def from_test_data(path):
    """The node test model at path with its tensor inputs as initializers
    (test_data_set_0's values), and those initializers; (None, None) when it
    has none."""
    m = onnx.load(path)
    g = m.graph
    inits = []
    keep_inputs = []
    for k, vi in enumerate(g.input):
        pb = os.path.join(os.path.dirname(path), "test_data_set_0", "input_%d.pb" % k)
        t = None
        if vi.type.HasField("tensor_type") and os.path.exists(pb):
            t = TensorProto()
            with open(pb, "rb") as f:
                t.ParseFromString(f.read())
            t.name = vi.name
            t = to_raw(t)
        if t is None:
            keep_inputs.append(vi)
        else:
            inits.append(t)
            if m.ir_version < 4:
                keep_inputs.append(vi)
    if not inits:
        return None, None
    del g.input[:]
    g.input.extend(keep_inputs)
    g.initializer.extend(inits)
    return m, inits


def extras():
    """(name, model, initializers): ops, inputs and opsets the node test
    data of onnx 1.12 lacks (opsets 18 and 20, Resize-10, DFT's
    dft_length), built here with every input an initializer. The model
    with every input inline must load in onnxruntime (else the step fails)."""
    f32 = lambda *v: np.array(v, dtype=np.float32)
    i64 = lambda *v: np.array(v, dtype=np.int64)
    cases = []

    def case(name, op, opset, inputs, ir=8, **attrs):
        inits = [numpy_helper.from_array(a, "in%d" % k) for k, a in enumerate(inputs) if a is not None]
        node = helper.make_node(op, ["in%d" % k if a is not None else "" for k, a in enumerate(inputs)],
                                ["y"], **attrs)
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
        g = helper.make_graph([node], name, [], [y], initializer=inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = ir
        cases.append(("extra_" + name, m, inits))

    x4 = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    case("resize10", "Resize", 10, [x4, f32(1, 1, 2, 2)], ir=5)
    sig = np.arange(8, dtype=np.float32).reshape(1, 8, 1)
    s64 = lambda v: np.array(v, dtype=np.int64)  # a scalar
    case("dft17_length", "DFT", 17, [sig, s64(8)], axis=1)
    case("dft20_axis", "DFT", 20, [sig, s64(8), s64(1)], ir=9)
    data = np.arange(6, dtype=np.float32).reshape(2, 3) + 1
    for op in ("ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
               "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare"):
        case(op.lower() + "18", op, 18, [data, i64(1)])
    case("pad18_axes", "Pad", 18, [data, i64(1, 1), None, i64(1)])
    case("col2im18", "Col2Im", 18, [np.arange(16, dtype=np.float32).reshape(1, 4, 4), i64(3, 3), i64(2, 2)])
    case("centercroppad18", "CenterCropPad", 18, [np.arange(16, dtype=np.float32).reshape(4, 4), i64(2, 2)])
    theta = np.array([[[1, 0, 0], [0, 1, 0]]], dtype=np.float32)
    case("affinegrid20", "AffineGrid", 20, [theta, i64(1, 1, 2, 2)], ir=9)
    return cases


def prepare(out, node_dir):
    manifest = []
    for path in sorted(glob.glob(os.path.join(node_dir, "*", "model.onnx"))):
        m, inits = from_test_data(path)
        if m is not None:
            manifest.append(emit(out, os.path.basename(os.path.dirname(path)), m, inits))
    for name, m, inits in extras():
        manifest.append(emit(out, name, m, inits, extra=True))
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=0)
    print("prepared %d models, %d variants" % (len(manifest), sum(len(x["variants"]) for x in manifest)))


# {"Resize", "", 11, 0, 2, NULL},  or  {"Resize", "", 10, 11, 1, "why" MACRO},
ROW = re.compile(r'^\s*\{"([A-Za-z0-9_]+)",\s*"([a-z.]*)",\s*(\d+),\s*(\d+),\s*(\d+),\s*(.+)\},\s*$')


def read_table(path):
    """Rows (domain, op, since, until, index, why) of osl_load_inputs[]."""
    rows = []
    with open(path) as f:
        inside = False
        for line in f:
            if "osl_load_inputs[] = {" in line:
                inside = True
                continue
            if inside and line.strip().startswith("};"):
                break
            mt = ROW.match(line) if inside else None
            if mt:
                why = None if mt.group(6).strip() == "NULL" else mt.group(6).strip()
                rows.append((mt.group(2), mt.group(1), int(mt.group(3)), int(mt.group(4)),
                             int(mt.group(5)), why))
    return rows


def covers(r, key):
    dom, op, opset, index = key
    return (r[0] == dom and r[1] == op and r[4] == index and r[2] <= opset
            and (r[3] == 0 or opset < r[3]))


def label(key):
    return "%s %s opset %d input %d" % (key[0] or "ai.onnx", key[1], key[2], key[3])


def observe(out, results_path):
    """needed {key: test}, unneeded {key: test}, ambiguous, other problems,
    counts; key = (domain, op, opset, index)."""
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    res = {}
    with open(results_path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("ok "):
                res[os.path.normpath(line[3:])] = None
            elif line.startswith("error "):
                p, _, msg = line[6:].partition(": ")
                res[os.path.normpath(p)] = msg
    needed, unneeded, ambiguous, problems, empty = {}, {}, [], [], []
    nbase = nvar = 0
    for e in manifest:
        d = os.path.normpath(os.path.join(out, e["test"]))
        b = res.get(os.path.join(d, "base.onnx"), "not run")
        if b is not None:
            if e.get("extra"):
                problems.append("%s/base.onnx (all inline) does not load: %s" % (e["test"], b))
            continue
        nbase += 1
        for v in e["variants"]:
            nvar += 1
            r = res.get(os.path.join(d, v["file"]), "not run")
            keys = [(c[0], c[1], e["opsets"].get(c[0], 0), c[2]) for c in v["consumers"]]
            if v["length"] == 0:
                # onnxruntime 1.30 aborts on (or refuses) any empty tensor in
                # external data: the library keeps empty tensors inline
                empty.append((e["test"], v["tensor"], r))
            elif r is None:
                for k in keys:
                    unneeded.setdefault(k, e["test"])
            elif (EXT_ERR in r and r.rstrip().endswith(v["tensor"])) or EXT_DIR_ERR in r:
                if len(keys) == 1:
                    needed.setdefault(keys[0], e["test"])
                else:
                    ambiguous.append((e["test"], v["tensor"], keys))
            else:
                problems.append("%s/%s (tensor %s external): %s" % (e["test"], v["file"], v["tensor"], r))
    return needed, unneeded, ambiguous, problems, empty, (len(manifest), nbase, nvar)


def compare(out, results_path, table_path):
    needed, unneeded, ambiguous, problems, empty, counts = observe(out, results_path)
    rows = read_table(table_path)
    passed = failed = 0
    print("%d models prepared, %d load with their inputs as initializers (the others are "
          "skipped), %d variants with one tensor external; %d empty tensors not attributed" %
          (counts[0], counts[1], counts[2], len(empty)))
    for p in problems:
        print("FAIL other load error: " + p)
        failed += 1
    for k, test in sorted(needed.items()):
        if any(covers(r, k) for r in rows):
            passed += 1
        else:
            print("FAIL needed inline but not in the table: %s (%s)" % (label(k), test))
            failed += 1
    for k, test in sorted(unneeded.items()):
        if k in needed:
            continue  # needed in another model: it stays
        hit = [r for r in rows if covers(r, k)]
        if hit:
            print("FAIL in the table but onnxruntime loads it from external data: %s (%s)" % (label(k), test))
            failed += 1
        else:
            passed += 1
    for test, tensor, keys in ambiguous:
        if any(covers(r, k) for r in rows for k in keys):
            passed += 1
        else:
            print("FAIL %s: tensor %s needed inline, none of its readers %s in the table" % (test, tensor, keys))
            failed += 1
    for r in rows:
        seen = sorted({k[2] for k in needed if covers(r, k)})
        name = "%s%s-%d%s input %d" % (r[0] + "." if r[0] else "", r[1], r[2],
                                       "..%d" % (r[3] - 1) if r[3] else "", r[4])
        if seen and r[5]:
            print("FAIL row %s gives a reason but the sweep observed it (opset %s): make it NULL" %
                  (name, ",".join(map(str, seen))))
            failed += 1
        elif not seen and not r[5]:
            print("FAIL row %s: no model needs it inline and it gives no reason" % name)
            failed += 1
        else:
            passed += 1
            print("ok   row %s: %s" % (name, "observed at opset %s" % ",".join(map(str, seen))
                                        if seen else "not observed, kept: " + r[5]))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


def checkwarn(out, results_path, cli):
    """`CLI check --json` of every variant whose model loads all inline: it
    warns external_load_input exactly when onnxruntime refused the variant
    for its external tensor (empty tensors aside)."""
    import subprocess
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    res = {}
    with open(results_path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("ok "):
                res[os.path.normpath(line[3:])] = None
            elif line.startswith("error "):
                p, _, msg = line[6:].partition(": ")
                res[os.path.normpath(p)] = msg
    passed = failed = 0
    nwarn = 0
    for e in manifest:
        d = os.path.normpath(os.path.join(out, e["test"]))
        if res.get(os.path.join(d, "base.onnx"), "not run") is not None:
            continue
        for v in e["variants"]:
            if v["length"] == 0:
                continue
            path = os.path.join(d, v["file"])
            r = res.get(path, "not run")
            refused = r is not None and ((EXT_ERR in r and r.rstrip().endswith(v["tensor"])) or EXT_DIR_ERR in r)
            p = subprocess.run([cli, "check", "--json", path], capture_output=True, text=True)
            try:
                doc = json.loads(p.stdout)
            except ValueError:
                print("FAIL %s: check --json exit %d: %s" % (path, p.returncode, p.stderr.strip()[:200]))
                failed += 1
                continue
            warned = [q for q in doc["problems"] if q["code_name"] == "external_load_input"]
            ok = (bool(warned) == refused and all(q["severity"] == "warning" for q in warned)
                  and (not warned or v["tensor"] in warned[0]["message"]))
            nwarn += bool(warned)
            if ok:
                passed += 1
            else:
                print("FAIL %s: onnxruntime %s, check %s" % (path, "refused it" if refused else "loads it",
                                                           "warns" if warned else "does not warn"))
                failed += 1
    print("check warns on %d variants, as onnxruntime refuses them" % nwarn)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else NODE_DIR)
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "compare":
        return compare(sys.argv[2], sys.argv[3], sys.argv[4])
    if len(sys.argv) == 5 and sys.argv[1] == "checkwarn":
        return checkwarn(sys.argv[2], sys.argv[3], sys.argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
