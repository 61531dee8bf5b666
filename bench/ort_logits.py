#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python onnxruntime twin of bench/ort_logits.js: same arguments, the
same inputs, the same output line and exit status (run with the venv of
test/ort-setup.sh, scripts/pypi-venv.sh).

Usage: ort_logits.py MODEL.onnx [--vocab N] [--batch B] [--seq S] [--runs R]
                     [--save FILE.json] [--ref FILE.json] [--tol X]
Prints: logits=[...] finite=true|false hwm_kb=K anon_kb=K file_kb=K
        [max_abs_diff=X within=true|false]
"""
import json
import math
import sys

import numpy as np
import onnxruntime as ort
from procstat import parse_args, status_kb


def main():
    opt = {"vocab": 250002, "batch": 2, "seq": 16, "runs": 1, "save": None, "ref": None, "tol": 1e-2}
    model = parse_args(sys.argv[1:], opt,
                       "usage: ort_logits.py MODEL [--vocab N] [--batch B] [--seq S] [--runs R] [--save F] "
                       "[--ref F] [--tol X]")
    if model is None:
        print("ort_logits.py: no model given", file=sys.stderr)
        return 2
    try:
        s = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - the runtime's refusal is the result
        print("ort_logits.py: cannot load %s: %s" % (model, str(e).split("\n")[0]), file=sys.stderr)
        return 2
    batch, seq, vocab, runs = int(opt["batch"]), int(opt["seq"]), int(opt["vocab"]), int(opt["runs"])
    logits = []
    for r in range(runs):
        ids = np.zeros((batch, seq), np.int64)
        mask = np.zeros((batch, seq), np.int64)
        for bb in range(batch):
            b = r * batch + bb  # the input's number over all runs
            valid = max(1, seq - (b % 8))
            for t in range(seq):
                tid = 0 if t == 0 else (t * 7919 + b * 104729 + 12345) % (vocab - 3) + 3
                ids[bb, t] = tid if t < valid else 1
                mask[bb, t] = 1 if t < valid else 0
        y = s.run(["logits"], {"input_ids": ids, "attention_mask": mask})[0]
        logits.extend(float(v) for v in np.asarray(y, np.float32).reshape(-1))
    finite = all(math.isfinite(v) for v in logits)
    hwm, anon, fil = status_kb().values()
    line = "logits=[%s] finite=%s hwm_kb=%d anon_kb=%d file_kb=%d" % (
        ",".join("%.7g" % v for v in logits), "true" if finite else "false", hwm, anon, fil)
    ok = finite
    if opt["save"]:
        with open(opt["save"], "w", encoding="ascii") as f:
            json.dump(logits, f)
    if opt["ref"]:
        with open(opt["ref"], encoding="ascii") as f:
            ref = json.load(f)
        d = max((abs(x - y) for x, y in zip(ref, logits)), default=0.0)
        if len(ref) != len(logits):
            d = math.inf
        ok = ok and d <= opt["tol"]
        m, e = ("%.2e" % d).split("e") if math.isfinite(d) else ("Infinity", None)
        ds = m if e is None else "%se%s%d" % (m, "-" if int(e) < 0 else "+", abs(int(e)))
        line += " max_abs_diff=%s within=%s" % (ds, "true" if d <= opt["tol"] else "false")
    print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
