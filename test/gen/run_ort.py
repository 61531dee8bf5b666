#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python onnxruntime twin of test/gen/run_ort.js (same arguments, output
and exit status): runs a make_bert.py model and checks its outputs are finite.

Usage: run_ort.py MODEL.onnx [BATCH] [SEQ]
Prints "NAME: type=T dims=[..] first=[..] finite=true|false" per output.
Exit status: 0 ok, 1 non-finite output or run failure, 2 usage/load error.
"""
import sys

import numpy as np
import onnxruntime as ort


def main():
    a = sys.argv[1:]
    if not a:
        print("usage: run_ort.py MODEL.onnx [BATCH] [SEQ]", file=sys.stderr)
        return 2
    batch = int(a[1]) if len(a) > 1 else 2
    seq = int(a[2]) if len(a) > 2 else 8
    try:
        s = ort.InferenceSession(a[0], providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - the runtime's refusal is the result
        print("run_ort.py: " + str(e).split("\n")[0], file=sys.stderr)
        return 1
    ids = np.zeros((batch, seq), np.int64)
    mask = np.zeros((batch, seq), np.int64)
    for b in range(batch):
        valid = max(1, seq - b)  # row b has its last b tokens masked out
        for t in range(seq):
            ids[b, t] = 0 if t == 0 else (7 * t + 13 * b + 3) % 997 + 2
            mask[b, t] = 1 if t < valid else 0
            if t >= valid:
                ids[b, t] = 1  # pad token id
    feeds = {}
    for i in s.get_inputs():
        if i.name == "input_ids":
            feeds[i.name] = ids
        elif i.name == "attention_mask":
            feeds[i.name] = mask
        else:
            print("run_ort.py: unexpected input " + i.name, file=sys.stderr)
            return 2
    names = [o.name for o in s.get_outputs()]
    try:
        outs = s.run(names, feeds)
    except Exception as e:  # noqa: BLE001
        print("run_ort.py: " + str(e).split("\n")[0], file=sys.stderr)
        return 1
    ok = True
    for name, t in zip(names, outs):
        finite = bool(np.isfinite(t).all())
        ok = ok and finite
        first = ", ".join("%.6g" % float(v) for v in t.reshape(-1)[:8])
        print("%s: type=%s dims=[%s] first=[%s] finite=%s" %
              (name, t.dtype, ",".join(map(str, t.shape)), first, "true" if finite else "false"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
