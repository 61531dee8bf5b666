# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python code of the guides runs: every ```python block of
docs/python.md and of the README, each in a fresh interpreter, in a
directory holding model.onnx (test/data/bert-tiny.onnx) and nothing else."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from helpers import BERT, ROOT

DOCS = ["docs/python.md", "README.md"]
PACKAGE_DIR = os.path.join(ROOT, "python")


def blocks(relpath):
    """(first line number, code) of each ```python block of the file."""
    with open(os.path.join(ROOT, relpath)) as f:
        text = f.read()
    out = []
    for m in re.finditer(r"^```python\n(.*?)^```$", text, re.M | re.S):
        out.append((text.count("\n", 0, m.start()) + 2, m.group(1)))
    return out


class TestDocs(unittest.TestCase):
    def test_the_guides_have_python_blocks(self):
        self.assertGreaterEqual(len(blocks("docs/python.md")), 5)
        self.assertGreaterEqual(len(blocks("README.md")), 1)

    def test_python_blocks_run(self):
        env = dict(os.environ)
        env["PYTHONPATH"] = PACKAGE_DIR + os.pathsep + env.get("PYTHONPATH", "")
        for relpath in DOCS:
            for line, code in blocks(relpath):
                with self.subTest(block="%s:%d" % (relpath, line)):
                    tmp = tempfile.mkdtemp()
                    try:
                        shutil.copy(BERT, os.path.join(tmp, "model.onnx"))
                        p = subprocess.run([sys.executable, "-c", code], cwd=tmp, env=env,
                                           capture_output=True, text=True, timeout=120)
                    finally:
                        shutil.rmtree(tmp)
                    self.assertEqual(p.returncode, 0, "%s:%d\n%s%s" % (relpath, line, p.stdout,
                                                                        p.stderr))


if __name__ == "__main__":
    unittest.main()
