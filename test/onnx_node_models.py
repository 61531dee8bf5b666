#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Writes onnx's node test models (onnx.backend.test.case.node, the cases
behind backend/test/data/node) into OUT_DIR/node/NAME/model.onnx; with
--inputs also the inputs of each case's first data set, pickled (a list of
numpy arrays, or lists and None for sequence and optional inputs, in the
order of the graph's inputs) into OUT_DIR/node/NAME/inputs.pkl
(bench/peers.py's corpus feeds them to onnxruntime).

The onnx wheels on PyPI ship the generators of the node tests but not
their generated data directory; this writes the models as onnx's own
`backend-test-tools generate-data` would (the models only: the check needs
no input or output tensors). Run it with the onnx to compare against
(test step 37-check-vs-onnx: the venv of scripts/pypi-venv.sh).

usage: onnx_node_models.py OUT_DIR [--inputs]
"""
import os
import pickle
import sys
import warnings

import onnx
from onnx.backend.test.case import node

out = sys.argv[1]
with_inputs = sys.argv[2:] == ["--inputs"]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the generators compute with inf and nan on purpose
    cases = node.collect_testcases()
n = 0
for case in cases:
    if case.model is None:
        continue
    d = os.path.join(out, case.kind, case.name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.onnx"), "wb") as f:
        f.write(case.model.SerializeToString())
    if with_inputs and case.data_sets:
        with open(os.path.join(d, "inputs.pkl"), "wb") as f:
            pickle.dump(list(case.data_sets[0][0]), f)
    n += 1
print("onnx %s: %d node test models written to %s" % (onnx.__version__, n, out))
