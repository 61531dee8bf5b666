# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Paths shared by the tests."""

import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BERT = os.path.join(ROOT, "test", "data", "bert-tiny.onnx")
TESTDATA = "/usr/share/libonnx-testdata/data/node"
TESTDATA_ROOT = os.path.dirname(TESTDATA)
