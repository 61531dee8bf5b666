#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python onnxruntime twin of bench/ort_footprint.js: same arguments,
inputs, settings and output line (run with the venv of test/ort-setup.sh).

Usage: ort_footprint.py MODEL.onnx [--runs N] [--keep 0|1] [--arena 0|1]
                        [--prepack 0|1] [--vocab N] [--save F.json] [--ref F.json]
Prints one line: status=ok|refused create_s hwm_create_kb anon_create_kb
file_create_kb run_s hwm_runs_kb anon_runs_kb file_runs_kb finite [max_abs_diff]
"""
import json
import math
import re
import sys
import time

import numpy as np
import onnxruntime as ort
from procstat import parse_args, status_kb

# the optimizers that fold Cast(initializer) back into an FP32 initializer
FOLDERS = "ConstantFolding;FuseFp16InitializerToFp32NodeTransformer"


def inputs(run, vocab):
    batch, seq = 2, 16
    ids = np.zeros((batch, seq), np.int64)
    mask = np.zeros((batch, seq), np.int64)
    for b in range(batch):
        valid = max(1, seq - b)
        for s in range(seq):
            i = 0 if s == 0 else (s * 7919 + b * 104729 + run * 7919 * 16 + 12345) % (vocab - 3) + 3
            ids[b, s] = i if s < valid else 1
            mask[b, s] = 1 if s < valid else 0
    return {"input_ids": ids, "attention_mask": mask}


def e2(d):
    m, e = ("%.2e" % d).split("e")
    return "%se%s%d" % (m, "-" if int(e) < 0 else "+", abs(int(e)))


def main():
    opt = {"runs": 4, "keep": 0, "arena": 1, "prepack": 1, "vocab": 250002, "save": None, "ref": None}
    model = parse_args(sys.argv[1:], opt,
                       "usage: ort_footprint.py MODEL [--runs N] [--keep 0|1] [--arena 0|1] [--prepack 0|1] "
                       "[--vocab N] [--save F] [--ref F]")
    if model is None or opt["runs"] < 1:
        print("ort_footprint.py: no model given, or --runs < 1", file=sys.stderr)
        return 2
    so = ort.SessionOptions()
    if not opt["arena"]:
        so.enable_cpu_mem_arena = False
    if opt["keep"]:
        so.add_session_config_entry("optimization.disable_specified_optimizers", FOLDERS)
    if not opt["prepack"]:
        so.add_session_config_entry("session.disable_prepacking", "1")
    t0 = time.perf_counter()
    try:
        s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - the runtime's refusal is the result
        msg = re.sub(r"\s+", " ", str(e)).replace('"', "'")[:300]
        print('status=refused error="%s"' % msg)
        return 0
    t1 = time.perf_counter()
    c = list(status_kb().values())
    logits = []
    tr = -1.0
    for r in range(opt["runs"]):
        r0 = time.perf_counter()
        y = s.run(["logits"], inputs(r, opt["vocab"]))[0]
        r1 = time.perf_counter()
        # the first run is a warm-up for the timing; the fastest other one counts
        if (r > 0 or opt["runs"] == 1) and (tr < 0 or r1 - r0 < tr):
            tr = r1 - r0
        logits.extend(float(v) for v in np.asarray(y, np.float32).reshape(-1))
    e = list(status_kb().values())
    finite = all(math.isfinite(v) for v in logits)
    line = ("status=ok create_s=%.2f hwm_create_kb=%d anon_create_kb=%d file_create_kb=%d run_s=%.4f"
            " hwm_runs_kb=%d anon_runs_kb=%d file_runs_kb=%d finite=%s" % (
                t1 - t0, c[0], c[1], c[2], tr, e[0], e[1], e[2], "true" if finite else "false"))
    if opt["save"]:
        with open(opt["save"], "w", encoding="ascii") as f:
            json.dump(logits, f)
    if opt["ref"]:
        with open(opt["ref"], encoding="ascii") as f:
            ref = json.load(f)
        d = 0.0 if len(ref) == len(logits) else math.inf
        for x, y in zip(ref, logits):
            d = max(d, abs(x - y))
        line += " max_abs_diff=%s" % (e2(d) if math.isfinite(d) else "Infinity")
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
