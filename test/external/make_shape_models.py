#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Two small models whose int64 shape tensors are easy to move to external
data by mistake, for test/steps/56-external.sh:

  const.onnx  a Constant node's value (int64 [2]) is Reshape's shape
  if.onnx     an initializer (int64 [2]) is Reshape's shape inside both
              branches of an If (captured from the outer scope)

Both take x: float [16] (and cond: bool for if.onnx) and give y = x as 4x4.
onnxruntime 1.30 refuses to load such models when the shape tensor is in
external data ("Cannot parse data from external tensors").

Usage: make_shape_models.py OUTDIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(nodes, inputs, inits=()):
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 4])
    g = helper.make_graph(nodes, "g", inputs, [y], initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    shape = np.array([4, 4], dtype=np.int64)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [16])
    c = helper.make_node("Constant", [], ["shape"], name="shape_const",
                         value=numpy_helper.from_array(shape))
    r = helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")
    onnx.save(model([c, r], [x]), os.path.join(out, "const.onnx"))

    cond = helper.make_tensor_value_info("cond", TensorProto.BOOL, [])
    branches = {}
    for b in ("then", "else"):
        yb = "y_" + b
        branches[b] = helper.make_graph(
            [helper.make_node("Reshape", ["x", "shape"], [yb], name=b + "_reshape")], b, [],
            [helper.make_tensor_value_info(yb, TensorProto.FLOAT, [4, 4])])
    ifn = helper.make_node("If", ["cond"], ["y"], name="if", then_branch=branches["then"],
                           else_branch=branches["else"])
    onnx.save(model([ifn], [x, cond], [numpy_helper.from_array(shape, "shape")]),
              os.path.join(out, "if.onnx"))


if __name__ == "__main__":
    main()
