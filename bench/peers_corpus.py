# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# names: about PyPI's OnnxSlim (test/check_names.py): it is one of the peers
"""The corpus of the simplify job of `make bench`'s section peers
(bench/sections/48-peers.sh): every simplifier once on every corpus model,
then the outputs checked and run, then one summary. Run with the venv of
scripts/pypi-venv.sh (and libonnxslim's Python package on PYTHONPATH).

  peers_corpus.py simplify TOOL LIST DIR   TOOL (onnxsim, onnxslim,
        libonnxslim: the functions of bench/peers.py's job simplify) on
        every model of LIST, in one Python process, writing DIR/TOOL/NAME.onnx
        and DIR/TOOL.json (per model: ok, error, seconds; the wall of it all)
  peers_corpus.py verify LIST DIR TOOL...  per model: main-graph node count
        and op types of the original and of each tool's output, the newest
        onnx's checker (full_check, on the loaded proto: no file is written),
        and onnxruntime (the Python wheel) on the same inputs, original and
        output compared; writes DIR/verify.json
  peers_corpus.py report LIST DIR TOOL...  prints the tables from those files
  peers_corpus.py pair ORIG OUT            onnxruntime on ORIG and OUT, the same
        random inputs: prints "same", "close max_abs_diff=D", "differs: why"
        (or "error: ..." and exits 1)

LIST: one model a line, "NAME<TAB>PATH<TAB>INPUTS", INPUTS a pickle of the
inputs to feed (test/onnx_node_models.py --inputs) or "-" (random inputs
from the graph's input types: normal floats, integers in [0, 3), an open
dimension 2).

Each phase runs its work in a child process that takes the models one by
one; a model on which the child crashes, or that takes longer than
$PEERS_CORPUS_TIMEOUT seconds (default 60), is that tool's failure (or
"not run" in verify), and a new child goes on with the next model. The
children's address space is limited to $PEERS_CORPUS_AS_MIB MiB (default
6144), so that a model with absurd dimensions fails instead of taking the
machine's memory.
"""
import collections
import json
import os
import pickle
import resource
import select
import subprocess
import sys
import time
import traceback

TIMEOUT = float(os.environ.get("PEERS_CORPUS_TIMEOUT", 60))
AS_MIB = int(os.environ.get("PEERS_CORPUS_AS_MIB", 6144))
LABEL = {"onnxsim": "onnxsim", "onnxslim": "OnnxSlim", "libonnxslim": "libonnxslim"}
REF = "libonnxslim"


def items(lst):
    out = []
    with open(lst) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) == 3:
                out.append(p)
    return out


def one_line(e):
    return " ".join(("%s: %s" % (type(e).__name__, e)).split())[:240]


# ---- the child: one phase over the models, from START on ---------------------------

def child(phase, args, start):
    """Prints "begin K" before model K and its result as one JSON line after
    it, on the stdout it was given; everything the tools print goes to a log."""
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    limit = AS_MIB << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if phase == "simplify":
        tool, lst, d = args
        log = os.path.join(d, tool + ".log")
    else:
        lst, d = args[0], args[1]
        log = os.path.join(d, "verify.log")
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    import warnings
    warnings.simplefilter("ignore")
    models = items(lst)
    if phase == "simplify":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import peers
        fn = peers.JOBS[("simplify", tool)]
        os.makedirs(os.path.join(d, tool), exist_ok=True)
    for k in range(start, len(models)):
        name, path, inp = models[k]
        proto.write("begin %d\n" % k)
        if phase == "simplify":
            dst = os.path.join(d, tool, name + ".onnx")
            for f in os.listdir(os.path.join(d, tool)):
                if f == name + ".onnx" or f.startswith(name + ".onnx."):
                    os.unlink(os.path.join(d, tool, f))
            t0 = time.perf_counter()
            try:
                fn(path, dst)
                r = {"ok": os.path.exists(dst), "error": "" if os.path.exists(dst) else "no output written"}
            except BaseException as e:  # noqa: BLE001 - a failure is a row
                r = {"ok": False, "error": one_line(e)}
            r["secs"] = time.perf_counter() - t0
            print("%s: %s" % (name, r["error"] or "ok"), flush=True)
        else:
            try:
                r = verify_one(path, inp, [(t, os.path.join(d, t, name + ".onnx")) for t in args[2:]])
            except BaseException as e:  # noqa: BLE001
                traceback.print_exc()
                r = {"error": one_line(e)}
        proto.write(json.dumps(r) + "\n")
    return 0


def drive(phase, args, n):
    """Runs the children until every model has a result; returns the results
    and the wall time of it all."""
    res = [None] * n
    t0 = time.perf_counter()
    k = 0
    while k < n:
        p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "child", phase, str(k)] + list(args),
                             stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
        cur, buf, why = None, b"", ""
        while True:
            r, _, _ = select.select([p.stdout], [], [], TIMEOUT)
            if not r:
                p.kill()
                why = "no result after %d s: stopped" % TIMEOUT
                break
            chunk = os.read(p.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if line.startswith(b"begin "):
                    cur = int(line.split()[1])
                elif cur is not None:
                    res[cur] = json.loads(line)
        rc = p.wait()
        p.stdout.close()
        if cur is None:
            cur = k
        if res[cur] is None:
            why = why or "the process ended on it (exit %d)" % rc
            res[cur] = {"ok": False, "error": why, "secs": None} if phase == "simplify" else {"error": why}
        k = cur + 1
    return res, time.perf_counter() - t0


# ---- verify ---------------------------------------------------------------------

NP = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64", 9: "bool",
      10: "float16", 11: "float64", 12: "uint32", 13: "uint64"}


def op_name(n):
    return (n.domain + ":" if n.domain not in ("", "ai.onnx") else "") + n.op_type


def ops(m):
    return collections.Counter(op_name(n) for n in m.graph.node)


def const_ops(m):
    """The op types of the main graph's nodes whose every input is a
    constant (an initializer that is not a graph input, a Constant node's
    output, or the output of such a node): what a constant folder that
    evaluates every operator could still remove."""
    inputs = {vi.name for vi in m.graph.input}
    known = {t.name for t in m.graph.initializer if t.name not in inputs}
    c = collections.Counter()
    for n in m.graph.node:
        ins = [i for i in n.input if i]
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            known.update(n.output)
        elif ins and all(i in known for i in ins) and not any(a.type in (5, 10) for a in n.attribute):
            c[op_name(n)] += 1  # (5, 10: a subgraph attribute)
            known.update(n.output)
    return c


def feeds(m, inp):
    """The inputs of the model: the node test's first data set, or random."""
    import numpy as np
    inits = {t.name for t in m.graph.initializer}
    names = [vi.name for vi in m.graph.input if vi.name not in inits]
    if inp != "-":
        with open(inp, "rb") as f:
            vals = pickle.load(f)
        return dict(zip([vi.name for vi in m.graph.input], vals))
    rng = np.random.default_rng(7)
    out = {}
    for vi in m.graph.input:
        if vi.name not in names:
            continue
        tt = vi.type.tensor_type
        if not vi.type.HasField("tensor_type") or tt.elem_type not in NP:
            raise ValueError("input %s is not a tensor of a type fed here" % vi.name)
        shape = [d.dim_value if d.HasField("dim_value") else 2 for d in tt.shape.dim]
        dt = np.dtype(NP[tt.elem_type])
        if dt.kind == "f":
            v = rng.standard_normal(shape).astype(dt)
        elif dt.kind == "b":
            v = rng.integers(0, 2, shape).astype(dt)
        else:
            v = rng.integers(0, 3, shape).astype(dt)
        out[vi.name] = v
    return out


def run(path, fd):
    import numpy as np
    import onnxruntime as rt
    so = rt.SessionOptions()
    so.log_severity_level = 4
    so.intra_op_num_threads = 1
    s = rt.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    want = {i.name for i in s.get_inputs()}
    names = [o.name for o in s.get_outputs()]
    got = s.run(names, {k: v for k, v in fd.items() if k in want})
    return names, [v if isinstance(v, np.ndarray) else v for v in got]


def same(a, b):
    """"same" (bit-identical), "close" (max |a - b| within rtol 1e-4 and atol
    1e-5, NaNs where the other has NaNs), or why not."""
    import numpy as np
    na, va = a
    nb, vb = b
    if na != nb:
        return "outputs %s, want %s" % (nb, na)
    worst = "same"
    for n, x, y in zip(na, va, vb):
        if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
            if repr(x) != repr(y):
                return "output %s differs" % n
            continue
        if x.dtype != y.dtype or x.shape != y.shape:
            return "output %s: %s%s, want %s%s" % (n, y.dtype, list(y.shape), x.dtype, list(x.shape))
        if x.tobytes() == y.tobytes():
            continue
        if x.dtype.kind in "fc" and np.allclose(x, y, rtol=1e-4, atol=1e-5, equal_nan=True):
            worst = "close"
            continue
        d = np.abs(x.astype(np.float64) - y.astype(np.float64)) if x.dtype.kind in "fciub" else None
        return "output %s differs%s" % (n, "" if d is None else " (max |diff| %.3g)" % np.nanmax(d))
    return worst


def check(m):
    import onnx
    try:
        onnx.checker.check_model(m, full_check=True)
        return "ok"
    except Exception as e:  # noqa: BLE001
        return one_line(e)


def verify_one(path, inp, outs):
    import onnx
    m = onnx.load(path)
    r = {"nodes": len(m.graph.node), "ops": ops(m), "check": check(m), "tools": {}}
    ref, why = None, ""
    try:
        fd = feeds(m, inp)
        ref = run(path, fd)
        if same(ref, run(path, fd)) != "same":
            ref, why = None, "the original gives other outputs on a second run"
    except Exception as e:  # noqa: BLE001
        why = "the original does not run: " + one_line(e)
    for t, o in outs:
        if not os.path.exists(o):
            continue
        try:
            mo = onnx.load(o)
        except Exception as e:  # noqa: BLE001
            r["tools"][t] = {"nodes": None, "ops": {}, "check": one_line(e), "rt": "output does not load"}
            continue
        tr = {"nodes": len(mo.graph.node), "ops": ops(mo), "const_ops": const_ops(mo), "check": check(mo)}
        if ref is None:
            tr["rt"] = "not run: " + why
        else:
            try:
                tr["rt"] = same(ref, run(o, fd))
            except Exception as e:  # noqa: BLE001
                tr["rt"] = "the output does not run: " + one_line(e)
        r["tools"][t] = tr
    return r


# ---- report -----------------------------------------------------------------------

def report(lst, d, tools):
    models = items(lst)
    with open(os.path.join(d, "verify.json")) as f:
        ver = json.load(f)["results"]
    sim = {}
    for t in tools:
        with open(os.path.join(d, t + ".json")) as f:
            sim[t] = json.load(f)
    n = len(models)
    kinds = collections.Counter(m[0].split("_", 1)[0] if m[0].startswith("node_") else "other" for m in models)
    print("corpus: %d models (%d of onnx's node tests, %d from test/data and examples/); each tool ran once per model"
          " (no best of 3), all models in one Python process per tool" % (n, kinds["node"], n - kinds["node"]))
    # the models every tool simplified: the node totals compare like with like
    common = [k for k in range(n) if all(sim[t]["results"][k].get("ok") for t in tools)
              and "error" not in ver[k] and all(ver[k]["tools"].get(t, {}).get("nodes") is not None for t in tools)]
    print("%-12s %6s %6s %7s %7s %6s %7s %6s %21s %9s  %s" % (
        "tool", "ok", "failed", "differs", "same", "close", "not run", "check", "nodes before -> after", "time s",
        "x lib (time)"))
    for t in tools:
        res = sim[t]["results"]
        ok = sum(1 for r in res if r.get("ok"))
        c = collections.Counter()
        for k in range(n):
            if not res[k].get("ok"):
                continue
            tr = ver[k].get("tools", {}).get(t)
            if tr is None:
                c["unverified"] += 1
                continue
            rt_ = tr["rt"]
            c["same" if rt_ == "same" else "close" if rt_ == "close" else "not run" if rt_.startswith("not run")
              else "differs"] += 1
            if tr["check"] != "ok" and ver[k].get("check") == "ok":
                c["check"] += 1
        b = sum(ver[k]["nodes"] for k in common)
        a = sum(ver[k]["tools"][t]["nodes"] for k in common)
        x = "%.2fx" % (sim[t]["wall"] / sim[REF]["wall"]) if REF in sim and t != REF and sim[REF]["wall"] > 0 else ""
        print("%-12s %6d %6d %7d %7d %6d %7d %6d %21s %9.1f  %s" % (
            LABEL[t], ok, n - ok, c["differs"], c["same"], c["close"], c["not run"] + c["unverified"], c["check"],
            "%d -> %d" % (b, a), sim[t]["wall"], x))
    print("(ok / failed: the tool wrote an output or not; of the outputs, onnxruntime %s (Python) on the same inputs:"
          % ort_version())
    print(" same: every output bit-identical to the original's; close: within rtol 1e-4, atol 1e-5; differs: other"
          " values, or the output does not load or run; not run: the original itself does not run or is not"
          " deterministic; check: outputs the newest onnx.checker (full_check) refuses where it accepts the original;"
          " nodes: main graphs, over the %d models every tool simplified; time: the whole pass, Python start and"
          " imports included)" % len(common))
    for t in tools:
        errs = collections.Counter(r["error"][:110] for r in sim[t]["results"] if not r.get("ok"))
        for e, c in errs.most_common(4):
            print("  %s failed on %d: %s" % (LABEL[t], c, e))
        diffs = [(models[k][0], ver[k]["tools"][t]["rt"]) for k in range(n)
                 if sim[t]["results"][k].get("ok") and t in ver[k].get("tools", {})
                 and ver[k]["tools"][t]["rt"] not in ("same", "close") and not ver[k]["tools"][t]["rt"].startswith("not run")]
        for name, why in diffs[:6]:
            print("  %s differs on %s: %s" % (LABEL[t], name, why[:150]))
        if len(diffs) > 6:
            print("  %s differs on %d more" % (LABEL[t], len(diffs) - 6))
    # where a peer has fewer nodes than libonnxslim
    peers = [t for t in tools if t != REF]
    rows, groups = [], {t: collections.Counter() for t in peers}
    for k in range(n):
        v = ver[k]
        tv = v.get("tools", {})
        if REF not in tv or tv[REF]["nodes"] is None:
            continue
        ours = tv[REF]["nodes"]
        smaller = [t for t in peers if t in tv and tv[t]["nodes"] is not None and tv[t]["nodes"] < ours
                   and (tv[t]["rt"] in ("same", "close") or tv[t]["rt"].startswith("not run"))]
        if not smaller:
            continue
        what = []
        for t in smaller:
            rem = collections.Counter(v["ops"]) - collections.Counter(tv[t]["ops"])
            add = collections.Counter(tv[t]["ops"]) - collections.Counter(v["ops"])
            what.append("%s -%s%s" % (LABEL[t], fmt(rem), " +" + fmt(add) if add else ""))
            for op in rem:
                groups[t][op] += 1
        rows.append((models[k][0], v["nodes"], ours, [tv.get(t, {}).get("nodes") for t in peers], what))
    print()
    print("where a peer has fewer nodes than libonnxslim (%d models; peers' outputs that differ in onnxruntime are"
          " left out): nodes of the original, libonnxslim, %s; the op types the smaller peer removed (-) and"
          " added (+)" % (len(rows), ", ".join(LABEL[t] for t in peers)))
    for name, b, ours, theirs, what in rows:
        print("  %-44s %4d %4d %s  %s" % (name[:44], b, ours, " ".join("%4s" % ("-" if x is None else x) for x in theirs),
                                          "; ".join(what)))
    for t in peers:
        if groups[t]:
            print("%s smaller on %d models; the op types it removed there (models): %s" % (
                LABEL[t], sum(1 for r in rows if any(w.startswith(LABEL[t] + " ") for w in r[4])),
                ", ".join("%s %d" % kv for kv in groups[t].most_common())))
    verdicts(models, ver, common, peers)
    classify(models, ver, peers)


# the operators the fold pass computes (include/onnxslim/simplify.h), some
# only on integer or bool values
FOLDED = set("Shape Size Gather Concat Slice Squeeze Unsqueeze Reshape Flatten Expand Transpose Identity"
             " Where ConstantOfShape Range Neg Abs Add Sub Mul Div Mod Min Max Equal Less Greater"
             " LessOrEqual GreaterOrEqual Not And Or Xor Cast CastLike Constant".split())
# the operators that can be no-ops or cancel out, given the types and
# shapes of their inputs (issue 28's no-op removal)
NOOPS = set("Identity Dropout Cast CastLike Reshape Expand Slice Pad Transpose Squeeze Unsqueeze"
            " Flatten".split())


def verdicts(models, ver, common, peers):
    """One line per peer: on how many models libonnxslim's node count is at
    most the peer's, over the models every tool simplified."""
    print()
    for t in peers:
        c = collections.Counter()
        for k in common:
            ours, theirs = ver[k]["tools"][REF]["nodes"], ver[k]["tools"][t]["nodes"]
            c["fewer" if ours < theirs else "equal" if ours == theirs else "more"] += 1
        print("verdict: libonnxslim nodes <= %s on %d of %d models (fewer on %d, equal on %d, more on %d)" % (
            LABEL[t], c["fewer"] + c["equal"], len(common), c["fewer"], c["equal"], c["more"]))


def causes(rem, add, consts):
    """Why a peer's output has fewer nodes: the op types it removed (rem)
    and added (add) compared with libonnxslim's output, and the op types
    of libonnxslim's nodes that read only constants (consts)."""
    out = []
    if add:
        out.append("fusion or rewrite into " + ",".join(sorted(add)))
    if rem.get("Constant"):
        out.append("Constant nodes to initializers (ours keeps those of subgraphs"
                   " and of ir_version < 4)")
    for op in sorted(rem):
        if op == "Constant":
            continue
        # as many of the removed ones as libonnxslim has reading only
        # constants are counted as folds, the rest as rewrites
        if consts.get(op) and op in FOLDED:
            out.append("fold of %s on constants we leave (float values, or past the cap)" % op)
        elif consts.get(op):
            out.append("fold of %s on constants: an op we do not fold" % op)
        if rem[op] <= consts.get(op, 0):
            continue
        if op in NOOPS:
            out.append("%s of runtime values removed: a no-op given the inferred types/shapes, or"
                       " cancelled by a neighbour" % op)
        elif add:
            out.append("%s of runtime values, gone in the fusion" % op)
        else:
            out.append("%s of runtime values removed: a rewrite (algebra, or a fold after shapes)" % op)
    return out or ["other"]


def classify(models, ver, peers):
    """Every model where a peer has fewer nodes than libonnxslim, by cause,
    from the op types each output has (not by hand)."""
    by = collections.Counter()
    n = 0
    for k in range(len(models)):
        tv = ver[k].get("tools", {})
        if REF not in tv or tv[REF]["nodes"] is None:
            continue
        ours = tv[REF]["nodes"]
        hit = False
        for t in peers:
            if t not in tv or tv[t]["nodes"] is None or tv[t]["nodes"] >= ours:
                continue
            if not (tv[t]["rt"] in ("same", "close") or tv[t]["rt"].startswith("not run")):
                continue
            hit = True
            rem = collections.Counter(tv[REF]["ops"]) - collections.Counter(tv[t]["ops"])
            # a fusion: an op type the peer has more of than the original
            # (Constant nodes aside: those are initializers the peer kept
            # as nodes)
            add = collections.Counter(tv[t]["ops"]) - collections.Counter(ver[k]["ops"])
            add.pop("Constant", None)
            for why in causes(rem, add, collections.Counter(tv[REF].get("const_ops", {}))):
                by[(LABEL[t], why)] += 1
        n += hit
    print("causes, over the %d models where a peer has fewer nodes (a model can have several; models):" % n)
    for (t, why), c in sorted(by.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %-9s %4d  %s" % (t, c, why))


def fmt(c):
    return ",".join(("%s" % op) + ("x%d" % k if k > 1 else "") for op, k in sorted(c.items())) or "nothing"


def ort_version():
    try:
        from importlib import metadata
        return metadata.version("onnxruntime")
    except Exception:  # noqa: BLE001
        return "?"


def pair(orig, out):
    """Prints how OUT's outputs compare with ORIG's in onnxruntime on the
    same random inputs: "same", "close max_abs_diff=D" or "differs: why"."""
    import numpy as np
    import onnx
    fd = feeds(onnx.load(orig, load_external_data=False), "-")
    ref = run(orig, fd)
    got = run(out, fd)
    v = same(ref, got)
    if v == "close":
        d = max(float(np.nanmax(np.abs(x.astype(np.float64) - y.astype(np.float64))))
                for x, y in zip(ref[1], got[1]) if isinstance(x, np.ndarray) and x.dtype.kind == "f")
        v = "close max_abs_diff=%.2e" % d
    elif v != "same":
        v = "differs: " + v
    print(v)


def main(a):
    if a[:1] == ["pair"] and len(a) == 3:
        try:
            pair(a[1], a[2])
        except Exception as e:  # noqa: BLE001
            print("error: " + one_line(e))
            return 1
        return 0
    if a[:1] == ["child"]:
        return child(a[1], a[3:], int(a[2]))
    if a[:1] == ["simplify"] and len(a) == 4:
        tool, lst, d = a[1:]
        os.makedirs(os.path.join(d, tool), exist_ok=True)
        res, wall = drive("simplify", [tool, lst, d], len(items(lst)))
        with open(os.path.join(d, tool + ".json"), "w") as f:
            json.dump({"wall": wall, "results": res}, f)
        print("%s: %d of %d simplified in %.1f s" % (tool, sum(1 for r in res if r.get("ok")), len(res), wall))
        return 0
    if a[:1] == ["verify"] and len(a) >= 4:
        res, wall = drive("verify", a[1:], len(items(a[1])))
        with open(os.path.join(a[2], "verify.json"), "w") as f:
            json.dump({"wall": wall, "results": res}, f)
        print("verified %d models in %.1f s" % (len(res), wall))
        return 0
    if a[:1] == ["report"] and len(a) >= 4:
        report(a[1], a[2], a[3:])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
