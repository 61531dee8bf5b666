#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python onnxruntime twin of test/external/ort_same.js: same arguments,
output lines and exit status (run with the venv of test/ort-setup.sh).

Runs several make_bert.py-shaped models (inputs input_ids, attention_mask)
on the same inputs and requires the outputs of every model to be bitwise
identical to those of the first.

Usage: ort_same.py [--vocab N] [--batch B] [--seq S] A.onnx B.onnx [...]
Prints "same A B" or "differ A B: why" per model after the first, and
"outputs NAME type=T dims=[...] first=[...]" for the first model.
Exit status: 0 all identical, 1 some differ, 2 a model cannot be loaded or run.
"""
import sys

import numpy as np
import onnxruntime as ort


def run(model, batch, seq, vocab):
    s = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    ids = np.zeros((batch, seq), np.int64)
    mask = np.zeros((batch, seq), np.int64)
    for b in range(batch):
        valid = max(1, seq - b)  # row b has its last b tokens padded
        for t in range(seq):
            ids[b, t] = 0 if t == 0 else ((7 * t + 13 * b + 3) % (vocab - 2)) + 2
            mask[b, t] = 1 if t < valid else 0
            if t >= valid:
                ids[b, t] = 1
    feeds = {}
    for i in s.get_inputs():
        if i.name == "input_ids":
            feeds[i.name] = ids
        elif i.name == "attention_mask":
            feeds[i.name] = mask
        else:
            raise RuntimeError("unexpected input " + i.name)
    names = [o.name for o in s.get_outputs()]
    return list(zip(names, s.run(names, feeds)))


def main():
    args = sys.argv[1:]
    vocab, batch, seq, models = 100, 2, 8, []
    i = 0
    while i < len(args):
        if args[i] in ("--vocab", "--batch", "--seq") and i + 1 < len(args):
            v = int(args[i + 1])
            if args[i] == "--vocab":
                vocab = v
            elif args[i] == "--batch":
                batch = v
            else:
                seq = v
            i += 2
            continue
        models.append(args[i])
        i += 1
    if len(models) < 2:
        print("usage: ort_same.py [--vocab N] [--batch B] [--seq S] A.onnx B.onnx [...]", file=sys.stderr)
        return 2
    try:
        ref = run(models[0], batch, seq, vocab)
    except Exception as e:  # noqa: BLE001 - any failure of the runtime is the result
        print("error %s: %s" % (models[0], str(e).split("\n")[0]))
        return 2
    for name, t in ref:
        first = ", ".join("%#.6g" % float(x) for x in t.reshape(-1)[:4])  # as toPrecision(6)
        print("outputs %s type=%s dims=[%s] first=[%s]" % (name, t.dtype, ",".join(map(str, t.shape)), first))
    status = 0
    for m in models[1:]:
        try:
            out = run(m, batch, seq, vocab)
        except Exception as e:  # noqa: BLE001
            print("error %s: %s" % (m, str(e).split("\n")[0]))
            status = 2
            continue
        why = ""
        if len(out) != len(ref):
            why = "%d outputs, want %d" % (len(out), len(ref))
        for k in range(len(ref)):
            if why:
                break
            a, b = ref[k][1], out[k][1]
            if a.dtype != b.dtype:
                why = "output %d: type %s, want %s" % (k, b.dtype, a.dtype)
            elif a.shape != b.shape:
                why = "output %d: dims %s, want %s" % (k, list(b.shape), list(a.shape))
            elif a.tobytes() != b.tobytes():
                j = int(np.flatnonzero(a.reshape(-1).view(np.uint8) != b.reshape(-1).view(np.uint8))[0]) // a.itemsize
                why = "output %d: element %d is %r, want %r" % (k, j, b.reshape(-1)[j], a.reshape(-1)[j])
        if why:
            print("differ %s %s: %s" % (models[0], m, why))
            status = status or 1
        else:
            print("same %s %s" % (models[0], m))
    return status


if __name__ == "__main__":
    sys.exit(main())
