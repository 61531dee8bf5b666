#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Copies a model and makes some of its internal values graph outputs too, so
onnxruntime returns them ("probe" models for test/steps/55-convert-ort.sh).
Nothing else changes; a value without a value_info gets a shapeless FLOAT
tensor type.

Usage: add_outputs.py IN.onnx OUT.onnx NAME [NAME ...]
"""

import sys

import onnx
from onnx import TensorProto, helper


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    m = onnx.load(sys.argv[1])
    g = m.graph
    known = {v.name: v for v in list(g.value_info) + list(g.input) + list(g.output)}
    produced = {o for n in g.node for o in n.output}
    for name in sys.argv[3:]:
        if name not in produced:
            sys.exit("add_outputs.py: no node produces %s" % name)
        if any(o.name == name for o in g.output):
            continue
        vi = onnx.ValueInfoProto()
        if name in known:
            vi.CopyFrom(known[name])
        else:
            vi = helper.make_tensor_value_info(name, TensorProto.FLOAT, None)
        g.output.append(vi)
    onnx.save(m, sys.argv[2])


if __name__ == "__main__":
    main()
