# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""examples/recipe.py on test/data/bert-tiny.onnx: its output loads, and it is the
CLI's recipe (same fingerprint, same bytes as `libonnxslim convert` with the same options)."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import libonnxslim
from helpers import BERT, ROOT

try:
    import onnx
except ImportError:
    onnx = None

RECIPE = os.path.join(ROOT, "examples", "recipe.py")


class TestRecipeExample(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def run_example(self, *args, cwd=None):
        proc = subprocess.run([sys.executable, RECIPE] + list(args), cwd=cwd or self.tmp,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        return proc.stdout.decode()

    def test_output_loads_and_equals_the_cli(self):
        os.mkdir(os.path.join(self.tmp, "py"))
        out = os.path.join(self.tmp, "py", "model.onnx")
        text = self.run_example(BERT, out)
        self.assertIn("roberta.embeddings.word_embeddings.weight: FLOAT -> BFLOAT16", text)
        for name in ("model.onnx", "model.bin", "model_single.onnx"):
            self.assertTrue(os.path.exists(os.path.join(self.tmp, "py", name)), name)
        with libonnxslim.load(out) as m:
            fp = m.fingerprint()
            self.assertEqual(m.check(), [])
            self.assertIn("BFLOAT16", [t.dtype for t in m.graph.initializers])
        self.assertIn(fp, text)
        with libonnxslim.load(os.path.join(self.tmp, "py", "model_single.onnx")) as m:
            self.assertEqual(m.fingerprint(), fp)
        if onnx is not None:
            onnx.checker.check_model(onnx.load(out), full_check=True)

        cli = os.environ.get("LIBONNXSLIM_CLI")
        if not cli or not os.access(cli, os.X_OK):
            self.skipTest("LIBONNXSLIM_CLI (build/libonnxslim) not given")
        os.mkdir(os.path.join(self.tmp, "cli"))
        cli_out = os.path.join(self.tmp, "cli", "model.onnx")
        subprocess.run([cli, "convert", BERT, cli_out, "--gather-to", "bf16", "--round",
                        "truncate", "--external-data", "--threshold", "0", "--location",
                        "model.bin", "--also-single-file",
                        os.path.join(self.tmp, "cli", "model_single.onnx")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        want = subprocess.run([cli, "fingerprint", cli_out], stdout=subprocess.PIPE,
                              check=True).stdout.decode().split()[0]
        self.assertEqual(fp, want)
        for name in ("model.onnx", "model.bin", "model_single.onnx"):
            with open(os.path.join(self.tmp, "py", name), "rb") as a, \
                    open(os.path.join(self.tmp, "cli", name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)

    def test_defaults(self):
        # no arguments: bert-tiny from the tree, output in the working directory;
        # run without PYTHONPATH, as a user would from the source tree
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        proc = subprocess.run([sys.executable, RECIPE], cwd=self.tmp, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        self.assertEqual(sorted(os.listdir(self.tmp)), ["bert-tiny-bf16.bin", "bert-tiny-bf16.onnx",
                                                        "bert-tiny-bf16_single.onnx"])


if __name__ == "__main__":
    unittest.main()
