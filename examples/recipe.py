#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The published recipe with libonnxslim's Python module.

Stores every embedding table (a tensor read as input 0 of a Gather) as
BFLOAT16, truncated, with a Cast back to FLOAT after each Gather, then saves
the model with all its tensors in one external data file, plus a single-file
copy. The same as:

  libonnxslim convert IN OUT --gather-to bf16 --round truncate --external-data \\
      --threshold 0 --location OUT_STEM.bin --also-single-file OUT_STEM_single.onnx

Usage: python3 examples/recipe.py [IN [OUT]]
       (default IN: test/data/bert-tiny.onnx, OUT: bert-tiny-bf16.onnx)
"""

import os
import sys

tree = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
try:
    import libonnxslim
except ImportError:  # run from the source tree without installing
    sys.path.insert(0, os.path.join(tree, "python"))
    import libonnxslim

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tree, "test", "data", "bert-tiny.onnx")
dst = sys.argv[2] if len(sys.argv) > 2 else "bert-tiny-bf16.onnx"
stem = os.path.splitext(os.path.basename(dst))[0]

with libonnxslim.load(src) as model:
    report = model.convert(gather_to="bf16", rounding="truncate")
    for e in report:
        print("%s: %s -> %s, %d -> %d bytes, max error %.3g"
              % (e.name, e.from_dtype, e.to_dtype, e.bytes_before, e.bytes_after,
                 e.stats.max_abs_error))
    saved = model.save(dst, external_data="one_file", threshold=0, location=stem + ".bin")
    model.merge(os.path.join(os.path.dirname(dst), stem + "_single.onnx"))
    print("wrote %s (+ %s) and %s_single.onnx; fingerprint %s"
          % (dst, ", ".join(saved.locations), stem, model.fingerprint()))
