#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Checks a model saved with external data against a single-file reference
with python onnx (Debian's python3-onnx). Used by test/steps/56-external.sh.

Usage: check_onnx.py REF.onnx EXT.onnx [--align N] [--expect-external N]

  - onnx.load(EXT) must load the external data, and
    onnx.checker.check_model(EXT) (by path, so the checker resolves the
    external files itself) must pass;
  - every external tensor's offset is a multiple of N (default 4096), its
    location is a plain relative path inside the model's directory, its
    "checksum" key (when present) is the SHA-1 of its bytes (hashlib), and
    each data file ends exactly at its last tensor (no orphaned bytes);
  - the graph (nodes, inputs, outputs) and every initializer and Constant
    value (name, data type, dims, bytes) equal those of REF;
  - at least --expect-external tensors (default 1) are external.
Prints "ok ..." or "FAIL ..." lines; exit status 0 when all pass.
"""

import hashlib
import os
import sys

import onnx
from onnx import TensorProto, numpy_helper


def tensor_bytes(t):
    if t.HasField("raw_data"):
        return t.raw_data
    return numpy_helper.to_array(t).tobytes()


def tensors(model):
    """(key, TensorProto) of every initializer and Constant value, subgraphs included."""
    out = []

    def walk(g, prefix):
        for t in g.initializer:
            out.append((prefix + "init:" + t.name, t))
        for i, n in enumerate(g.node):
            for a in n.attribute:
                if a.type == onnx.AttributeProto.TENSOR:
                    out.append((prefix + "attr:%d:%s:%s" % (i, n.name, a.name), a.t))
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g, prefix + "%s/%s/" % (n.name, a.name))
                for k, sg in enumerate(a.graphs):
                    walk(sg, prefix + "%s/%s/%d/" % (n.name, a.name, k))

    walk(model.graph, "")
    return out


def main():
    args = sys.argv[1:]
    align, expect = 4096, 1
    if "--align" in args:
        i = args.index("--align")
        align = int(args[i + 1])
        del args[i : i + 2]
    if "--expect-external" in args:
        i = args.index("--expect-external")
        expect = int(args[i + 1])
        del args[i : i + 2]
    ref_path, ext_path = args
    fails = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            fails.append(what)

    # 1. layout of the external data, read without loading it
    bare = onnx.load(ext_path, load_external_data=False)
    base = os.path.realpath(os.path.dirname(os.path.abspath(ext_path)))
    ends = {}
    n_ext = 0
    n_sum = [0]
    bad = []
    for key, t in tensors(bare):
        if t.data_location != TensorProto.EXTERNAL:
            continue
        n_ext += 1
        kv = {e.key: e.value for e in t.external_data}
        loc = kv.get("location", "")
        off = int(kv.get("offset", "0"))
        length = int(kv["length"]) if "length" in kv else None
        full = os.path.realpath(os.path.join(base, loc))
        if os.path.isabs(loc) or ".." in loc.split("/") or not full.startswith(base + os.sep):
            bad.append("%s: location %r" % (key, loc))
        if off % align:
            bad.append("%s: offset %d not a multiple of %d" % (key, off, align))
        if length is None:
            bad.append("%s: no length key" % key)
            continue
        ends[full] = max(ends.get(full, 0), off + length)
        if "checksum" in kv:
            n_sum[0] += 1
            try:
                with open(full, "rb") as f:
                    f.seek(off)
                    digest = hashlib.sha1(f.read(length)).hexdigest()
            except OSError as e:
                digest = str(e)
            if digest != kv["checksum"]:
                bad.append("%s: checksum %s, sha1 of the bytes %s" % (key, kv["checksum"], digest))
    check(n_ext >= expect, "%s: %d external tensors (want >= %d)" % (ext_path, n_ext, expect))
    check(not bad, "%s: locations, offsets, checksums (%s)"
          % (ext_path, "; ".join(bad[:5]) or "aligned to %d, %d SHA-1 checksums match" % (align, n_sum[0])))
    for f, end in sorted(ends.items()):
        size = os.path.getsize(f) if os.path.exists(f) else -1
        check(size == end, "%s: size %d == last offset+length %d" % (os.path.basename(f), size, end))

    # 2. python onnx loads it and the checker accepts it
    try:
        ext = onnx.load(ext_path)
        check(True, "onnx.load(%s) with external data" % ext_path)
    except Exception as e:  # noqa: BLE001
        check(False, "onnx.load(%s): %s" % (ext_path, e))
        return 1
    try:
        onnx.checker.check_model(ext_path)
        check(True, "onnx.checker.check_model(%s)" % ext_path)
    except Exception as e:  # noqa: BLE001
        check(False, "onnx.checker.check_model(%s): %s" % (ext_path, " ".join(str(e).split())[:300]))

    # 3. same graph and tensors as the reference
    ref = onnx.load(ref_path)
    rg, eg = ref.graph, ext.graph
    sig = lambda g: [(n.op_type, n.name, n.domain, list(n.input), list(n.output)) for n in g.node]
    check(sig(rg) == sig(eg), "nodes equal the reference's (%d)" % len(rg.node))
    check([i.name for i in rg.input] == [i.name for i in eg.input]
          and [o.name for o in rg.output] == [o.name for o in eg.output], "graph inputs and outputs")
    rt, et = tensors(ref), tensors(ext)
    diff = []
    if [k for k, _ in rt] != [k for k, _ in et]:
        diff.append("tensor lists differ")
    else:
        for (k, a), (_, b) in zip(rt, et):
            if a.data_type != b.data_type or list(a.dims) != list(b.dims):
                diff.append("%s: type/dims" % k)
            elif tensor_bytes(a) != tensor_bytes(b):
                diff.append("%s: bytes" % k)
    check(not diff, "%d tensors: names, types, dims, bytes (%s)" % (len(rt), "; ".join(diff[:5]) or "equal"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
