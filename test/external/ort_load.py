#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python onnxruntime twin of test/external/ort_load.js (same arguments
and output): creates a session (default options) for each model listed in
LIST (one path a line) and prints "ok PATH" or "error PATH: MESSAGE" (first
line), after a first line "# ready" once onnxruntime is loaded.
Exit status 0 (the results are the output).

Usage: ort_load.py LIST
"""
import sys

import onnxruntime as ort


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        models = [line.rstrip("\n") for line in f if line.strip()]
    print("# ready", flush=True)
    for m in models:
        try:
            s = ort.InferenceSession(m, providers=["CPUExecutionProvider"])
            del s
            print("ok " + m, flush=True)
        except Exception as e:  # noqa: BLE001 - the runtime's refusal is the result
            print("error %s: %s" % (m, str(e).split("\n")[0][:400]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
