#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Reference point for bench/run.sh: open MODEL from Python and count its nodes.

    python_open.py libonnxslim|onnx MODEL

In one fresh interpreter: the /proc/self/status figures before any import
(the bare interpreter), then import the package, open the model
(libonnxslim.load / onnx.load) and count the graph's nodes, then the figures
again. Prints one line of key=value: nodes, import_ms, open_ms (open + count),
total_ms (import + open + count), hwm_kb (VmHWM minus the interpreter's VmRSS:
the peak above the bare interpreter), anon_kb and file_kb (growth of RssAnon,
the heap and other private memory, and of RssFile, pages of mapped files:
the library, the package's modules, the model when mapped).
"""
import sys
import time

from procstat import status_kb

KEYS = ("VmRSS", "VmHWM", "RssAnon", "RssFile")


def main():
    which, path = sys.argv[1], sys.argv[2]
    s0 = status_kb(KEYS)
    t0 = time.monotonic()
    if which == "libonnxslim":
        import libonnxslim
        t1 = time.monotonic()
        model = libonnxslim.load(path)
        nodes = len(model.graph.nodes)
    else:
        import onnx
        t1 = time.monotonic()
        model = onnx.load(path)
        nodes = len(model.graph.node)
    t2 = time.monotonic()
    s1 = status_kb(KEYS)
    print("nodes=%d import_ms=%.1f open_ms=%.1f total_ms=%.1f hwm_kb=%d anon_kb=%d file_kb=%d"
          % (nodes, (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t2 - t0) * 1e3, s1["VmHWM"] - s0["VmRSS"],
             s1["RssAnon"] - s0["RssAnon"], s1["RssFile"] - s0["RssFile"]))
    del model


if __name__ == "__main__":
    main()
