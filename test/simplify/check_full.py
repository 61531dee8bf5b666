#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""onnx's full checker on each simplified model whose original passes it
(test step 32-simplify-ort).

usage: check_full.py PAIRS
PAIRS has one line per model: NAME ORIGINAL SIMPLIFIED. Each file is read
into memory and onnx.checker.check_model(proto, full_check=True) runs on
the proto (never on a path: nothing is written). Prints one line a model:
"pass NAME", "fail NAME: why" (the original passes, the simplified model
does not) or "skip NAME: why" (the original does not pass), then
"checker: onnx VERSION". Exit 0 unless the script itself fails.
"""
import sys

import onnx


def check(path):
    with open(path, "rb") as f:
        m = onnx.ModelProto.FromString(f.read())
    try:
        onnx.checker.check_model(m, full_check=True)
    except Exception as e:  # the checker's and shape inference's errors
        return str(e).strip().splitlines()[0][:200] if str(e).strip() else type(e).__name__
    return None


def main():
    with open(sys.argv[1]) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3:
                continue
            name, orig, simp = parts
            why = check(orig)
            if why is not None:
                print("skip %s: the original fails: %s" % (name, why))
                continue
            why = check(simp)
            print("pass %s" % name if why is None else "fail %s: %s" % (name, why))
            sys.stdout.flush()
    print("checker: onnx %s" % onnx.__version__)


if __name__ == "__main__":
    main()
