#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Write models that call model-local functions (ModelProto.functions) into
DIR, for step 31's comparison of onnxslim_infer_shapes() with onnx's
inference: a body with broadcasting and a shape read back out of it
(Reshape by the function's Shape output: data propagation), a call nested
in another function, a function called twice with other shapes, and one
whose Cast reads an attribute reference (onnx resolves it; libonnxslim
leaves such a body's outputs unknown).

Usage: make_local_functions.py DIR   (any onnx with helper; newest in the
step's venv)
"""
import os
import sys

from onnx import TensorProto as T, helper as h, save

F = T.FLOAT
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
OPS = [h.make_opsetid("", 18), h.make_opsetid("custom", 1)]


def fn(name, ins, outs, nodes, attrs=()):
    return h.make_function("custom", name, ins, outs, nodes, OPS, list(attrs))


add_relu = fn("AddRelu", ["X", "Y"], ["Z", "S"], [
    h.make_node("Add", ["X", "Y"], ["s"]),
    h.make_node("Relu", ["s"], ["Z"]),
    h.make_node("Shape", ["Z"], ["S"]),
])
outer = fn("Outer", ["P", "Q"], ["R"], [
    h.make_node("AddRelu", ["P", "Q"], ["r", "sh"], domain="custom"),
    h.make_node("Transpose", ["r"], ["R"], perm=[1, 0]),
])
cast = h.make_node("Cast", ["X"], ["Y"])
cast.attribute.append(h.make_attribute_ref("to", 2))
cast_to = fn("CastTo", ["X"], ["Y"], [cast], attrs=["to"])


def model(name, nodes, inputs, functions):
    g = h.make_graph(nodes, name, inputs, [h.make_tensor_value_info(nodes[-1].output[0], 0, None)])
    m = h.make_model(g, opset_imports=OPS, functions=functions, ir_version=9)
    save(m, os.path.join(out, name + ".onnx"))


A = h.make_tensor_value_info("A", F, [2, "n"])
B = h.make_tensor_value_info("B", F, ["n"])
C = h.make_tensor_value_info("C", F, ["m", 4, 1])
D = h.make_tensor_value_info("D", F, [3, 4, "k"])
model("fn_add_relu", [
    h.make_node("AddRelu", ["A", "B"], ["Z", "S"], domain="custom"),
    h.make_node("Reshape", ["A", "S"], ["RS"]),
], [A, B], [add_relu])
model("fn_nested", [h.make_node("Outer", ["A", "B"], ["W"], domain="custom")], [A, B],
      [add_relu, outer])
model("fn_twice", [
    h.make_node("AddRelu", ["A", "B"], ["Z1", "S1"], domain="custom"),
    h.make_node("AddRelu", ["C", "D"], ["Z2", "S2"], domain="custom"),
    h.make_node("Concat", ["S1", "S2"], ["SS"], axis=0),
], [A, B, C, D], [add_relu])
ct = h.make_node("CastTo", ["A"], ["CA"], domain="custom")
ct.attribute.append(h.make_attribute("to", T.INT64))
model("fn_attr_ref", [ct], [A], [cast_to])
print("make_local_functions.py: 4 models in %s" % out)
