#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Reference point for bench/run.sh: onnx.load (python3-onnx) of MODEL.
Prints load_ms=<best of REPEATS> rss_kb=<resident growth of one load>."""
import sys
import time

import onnx


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


path, reps = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
best, growth = float("inf"), -1
for r in range(reps):
    before = rss_kb()
    t0 = time.monotonic()
    m = onnx.load(path)
    n = sum(len(node.op_type) + len(node.name) for node in m.graph.node)
    t = (time.monotonic() - t0) * 1e3
    if r == 0:
        growth = rss_kb() - before
    best = min(best, t)
    del m
print("load_ms=%.3f rss_kb=%d walked=%d" % (best, growth, n))
