#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Random inputs for the runtime proof of the simplification (test step
32-simplify-ort), written once so that every runtime runs both models of a
pair on the same bytes.

usage: prep_inputs.py LIST OUT_DIR MANIFEST
LIST has one line per pair: NAME ORIGINAL.onnx SIMPLIFIED.onnx. For each,
the original's graph inputs (those without an initializer) get values of
their type: normal floats, integers in [0, 3), random booleans; a dimension
the model does not fix gets SIZE (2, then 3 for the second size). Inputs are
drawn from 3 seeds x 2 sizes. Writes OUT_DIR/NAME.S.K.bin files and the
MANIFEST (JSON): [{"name", "original", "simplified", "runs": [[{"name",
"type", "dims", "file"}...]...]} or {"name", "skip": why}]. Prints "pairs N,
skipped M".
"""
import json
import os
import sys

import numpy as np
import onnx

TYPES = {  # onnx element type -> (ort type name, numpy dtype)
    1: ("float32", np.float32), 2: ("uint8", np.uint8), 3: ("int8", np.int8),
    4: ("uint16", np.uint16), 5: ("int16", np.int16), 6: ("int32", np.int32),
    7: ("int64", np.int64), 9: ("bool", np.bool_), 10: ("float16", np.float16),
    11: ("float64", np.float64), 12: ("uint32", np.uint32), 13: ("uint64", np.uint64),
}


def main():
    lst, out, manifest = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    entries, skipped = [], 0
    for line in open(lst):
        parts = line.split()
        if len(parts) != 3:
            continue
        name, orig, simp = parts
        try:
            m = onnx.load(orig, load_external_data=False)
        except Exception as e:  # noqa: BLE001
            entries.append({"name": name, "skip": "onnx cannot load it: %s" % str(e)[:80]})
            skipped += 1
            continue
        inits = {t.name for t in m.graph.initializer}
        ins, why = [], ""
        for vi in m.graph.input:
            if vi.name in inits:
                continue
            tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
            if tt is None or tt.elem_type not in TYPES:
                why = "input %s is not a tensor of a type the runners feed" % vi.name
                break
            dims = None
            if tt.HasField("shape"):
                dims = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
            if dims is None:
                why = "input %s has no shape" % vi.name
                break
            ins.append((vi.name, tt.elem_type, dims))
        if why:
            entries.append({"name": name, "skip": why})
            skipped += 1
            continue
        runs = []
        for seed in range(3):
            for size in (2, 3):
                rng = np.random.default_rng(1000 * seed + size)
                run = []
                for k, (iname, et, dims) in enumerate(ins):
                    shape = [d if d >= 0 else size for d in dims]
                    tname, dt = TYPES[et]
                    if et in (1, 10, 11):
                        v = rng.standard_normal(shape).astype(dt)
                    elif et == 9:
                        v = rng.integers(0, 2, shape).astype(dt)
                    else:
                        v = rng.integers(0, 3, shape).astype(dt)
                    f = os.path.join(out, "%s.%d.%d.%d.bin" % (name, seed, size, k))
                    with open(f, "wb") as fh:
                        fh.write(np.ascontiguousarray(v).tobytes())
                    run.append({"name": iname, "type": tname, "dims": shape, "file": f})
                runs.append(run)
                if all(d >= 0 for _, _, d2 in ins for d in d2):
                    break  # fixed shapes: one size is enough
        entries.append({"name": name, "original": orig, "simplified": simp, "runs": runs})
    with open(manifest, "w") as f:
        json.dump(entries, f)
    print("pairs %d, skipped %d" % (len(entries) - skipped, skipped))


if __name__ == "__main__":
    main()
