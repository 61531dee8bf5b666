#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Breaks every libonnx-testdata model in one known way per problem kind of
onnxslim_check(), for test/steps/35-check.sh.

Usage: make_check_mutants.py DATA_DIR OUT_DIR

Writes OUT_DIR/<code>-<kind>/<n>.onnx, where <code> is the ONNXSLIM_CHECK_*
value the check must report for every model in that directory. A model is
only mutated when the mutation is certain to break it (e.g. reversing the
nodes only when one node consumes another's output). Prints one line per
kind with the number of models written."""
import glob
import os
import sys

import onnx
from onnx import TensorProto, helper

data_dir, out_dir = sys.argv[1], sys.argv[2]
paths = sorted(glob.glob(os.path.join(data_dir, "**", "*.onnx"), recursive=True))


def order(m):
    """Reverse the main graph's nodes when one consumes another's output."""
    g = m.graph
    produced = {o for n in g.node for o in n.output if o}
    if len(g.node) < 2 or not any(i in produced for n in g.node for i in n.input):
        return False
    nodes = list(g.node)[::-1]
    del g.node[:]
    g.node.extend(nodes)
    return True


def undefined(m):
    """Remove a graph input that a node consumes (and no initializer defines)."""
    g = m.graph
    used = {i for n in g.node for i in n.input}
    inits = {t.name for t in g.initializer}
    produced = {o for n in g.node for o in n.output}
    for vi in g.input:
        if vi.name in used and vi.name not in inits and vi.name not in produced:
            g.input.remove(vi)
            return True
    return False


def duplicate(m):
    """Append a copy of the first node that has an output."""
    g = m.graph
    for n in g.node:
        if any(n.output):
            c = g.node.add()
            c.CopyFrom(n)
            c.name = "onnxslim_dup"
            return True
    return False


def not_produced(m):
    m.graph.output.append(helper.make_tensor_value_info("onnxslim_ghost", TensorProto.FLOAT, None))
    return True


def opset(m):
    if not m.graph.node:
        return False
    m.graph.node[0].domain = "com.example.not.imported"
    return True


def type_conflict(m):
    """Record an initializer with another element type in value_info."""
    for t in m.graph.initializer:
        if t.data_type in (0, TensorProto.STRING):
            continue
        other = TensorProto.INT8 if t.data_type != TensorProto.INT8 else TensorProto.UINT8
        m.graph.value_info.append(helper.make_tensor_value_info(t.name, other, None))
        return True
    return False


def tensor_size(m):
    """Drop the last byte of an initializer's raw_data."""
    for t in m.graph.initializer:
        if t.raw_data:
            t.raw_data = t.raw_data[:-1]
            return True
    return False


KINDS = [
    (1, "undefined", undefined),
    (2, "duplicate", duplicate),
    (3, "order", order),
    (4, "tensor_size", tensor_size),
    (5, "opset", opset),
    (6, "not_produced", not_produced),
    (7, "type", type_conflict),
]

for code, kind, mutate in KINDS:
    d = os.path.join(out_dir, "%d-%s" % (code, kind))
    os.makedirs(d, exist_ok=True)
    written = 0
    for n, p in enumerate(paths):
        m = onnx.load(p)
        if mutate(m):
            onnx.save(m, os.path.join(d, "%d.onnx" % n))
            written += 1
    print("%d-%s: %d models" % (code, kind, written))
