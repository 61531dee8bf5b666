# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Model.save() with each external_data layout and SAVE_* keyword, the SaveReport,
merge(), save_size(); files read back by the module and by python3-onnx."""

import os
import shutil
import tempfile
import unittest

import libonnxslim
from helpers import BERT

try:
    import numpy as np
    import onnx
    from onnx import numpy_helper
except ImportError:  # python3-onnx and python3-numpy are test dependencies
    onnx = None


def external_keys(tensor):
    return {e.key: e.value for e in tensor.external_data}


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestSave(unittest.TestCase):
    def setUp(self):
        self.m = libonnxslim.load(BERT)
        self.addCleanup(self.m.close)
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.want = {t.name: numpy_helper.to_array(t) for t in onnx.load(BERT).graph.initializer}
        self.fp = self.m.fingerprint()

    def path(self, name):
        return os.path.join(self.tmp, name)

    def check_loads(self, path):
        """python3-onnx and the module read the same tensors as the original's."""
        p = onnx.load(path)  # resolves external data next to path
        onnx.checker.check_model(p)
        got = {t.name: numpy_helper.to_array(t) for t in p.graph.initializer}
        self.assertEqual(set(got), set(self.want))
        for name, arr in self.want.items():
            np.testing.assert_array_equal(got[name], arr)
        with libonnxslim.load(path) as m:
            self.assertEqual(m.fingerprint(), self.fp)
        return p

    def test_as_loaded(self):
        rep = self.m.save(self.path("a.onnx"))
        self.assertIsInstance(rep, libonnxslim.SaveReport)
        self.assertEqual((len(rep), rep.entries), (0, []))
        with open(self.path("a.onnx"), "rb") as f, open(BERT, "rb") as g:
            self.assertEqual(f.read(), g.read())

    def test_one_file(self):
        os.mkdir(self.path("weights"))  # a location's directories must exist
        rep = self.m.save(self.path("o.onnx"), external_data="one_file", threshold=0, align=64,
                          location="weights/o.bin")
        self.assertEqual(rep.locations, ["weights/o.bin"])
        self.assertEqual(len(rep), len(self.want))
        ext = [e for e in rep if e.placement == "external"]
        inline = [e for e in rep if e.placement != "external"]
        self.assertTrue(ext)
        self.assertTrue(all(e.placement == "shape_input" for e in inline))
        self.assertTrue(all(e.location is None and e.length == 0 for e in inline))
        self.assertTrue(all(e.offset % 64 == 0 for e in ext))
        self.check_loads(self.path("o.onnx"))
        p = onnx.load(self.path("o.onnx"), load_external_data=False)
        by_name = {t.name: t for t in p.graph.initializer}
        for e in ext:
            keys = external_keys(by_name[e.name])
            self.assertEqual((keys["location"], int(keys.get("offset", 0)), int(keys["length"])),
                             (e.location, e.offset, e.length))
            self.assertEqual(e.length, self.want[e.name].nbytes)
        self.assertTrue(os.path.exists(self.path("weights/o.bin")))
        self.assertGreaterEqual(rep.kernel_copied, 0)

    def test_true_means_one_file_with_default_location_and_threshold(self):
        rep = self.m.save(self.path("d.onnx"), external_data=True)
        self.assertEqual(rep.locations, ["d.onnx.data"])
        below = {e.name for e in rep if e.placement == "below_threshold"}
        self.assertEqual(below, {n for n, a in self.want.items()
                                 if a.nbytes < libonnxslim.SAVE_DEFAULT_THRESHOLD})
        self.check_loads(self.path("d.onnx"))

    def test_per_tensor_and_flags(self):
        rep = self.m.save(self.path("t.onnx"), external_data="per_tensor", threshold=0,
                          checksum=True, force_shape_inputs=True, no_fsync=True)
        ext = [e for e in rep if e.placement == "external"]
        self.assertEqual(len(ext), len(self.want))  # shape inputs moved out too
        self.assertEqual(len(rep.locations), len(ext))
        self.assertTrue(all(e.offset == 0 for e in ext))
        p = onnx.load(self.path("t.onnx"), load_external_data=False)
        self.assertTrue(all("checksum" in external_keys(t) for t in p.graph.initializer))
        self.check_loads(self.path("t.onnx"))

    def test_check_verify_checksums(self):
        self.m.save(self.path("v.onnx"), external_data="one_file", location="v.bin",
                    checksum=True, no_fsync=True)
        with libonnxslim.load(self.path("v.onnx")) as m:
            self.assertEqual(m.check(verify_checksums=True), [])
        with open(self.path("v.bin"), "r+b") as f:  # one byte changed after the save
            f.write(b"\x7f")
        with libonnxslim.load(self.path("v.onnx")) as m:
            self.assertEqual(m.check(), [])
            got = m.check(verify_checksums=True)
            self.assertEqual([p[0] for p in got], [libonnxslim.CHECK_CHECKSUM])
            self.assertIn("checksum key says", got[0][2])
            self.assertEqual(m.check(skip=["checksum"], verify_checksums=True), [])

    def test_constants_flag_moves_constant_values(self):
        plain = self.m.save(self.path("c0.onnx"), external_data="one_file", threshold=0)
        with_c = self.m.save(self.path("c1.onnx"), external_data="one_file", threshold=0,
                             constants=True)
        self.assertGreater(len(with_c), len(plain))
        self.check_loads(self.path("c1.onnx"))

    def test_merge_and_keep_storage(self):
        self.m.save(self.path("split.onnx"), external_data="one_file", threshold=0)
        with libonnxslim.load(self.path("split.onnx")) as split:
            os.mkdir(self.path("other"))
            with self.assertRaises(libonnxslim.InvalidArgument):  # references would not resolve
                split.save(self.path("other/as_loaded.onnx"))
            rep = split.save(self.path("other/kept.onnx"), external_data="one_file",
                             keep_storage=True)
            self.assertEqual(rep.locations, ["kept.onnx.data"])
            merged = split.merge(self.path("merged.onnx"))
            self.assertTrue(all(e.placement == "below_threshold" for e in merged))
            split.save(self.path("inline.onnx"), external_data=False)
        self.check_loads(self.path("other/kept.onnx"))
        self.check_loads(self.path("merged.onnx"))
        with open(self.path("merged.onnx"), "rb") as f, open(self.path("inline.onnx"), "rb") as g:
            self.assertEqual(f.read(), g.read())
        p = onnx.load(self.path("merged.onnx"), load_external_data=False)
        self.assertFalse(any(t.external_data for t in p.graph.initializer))

    def test_save_size_and_bytes(self):
        self.assertEqual(self.m.save_size(), len(self.m.save_bytes()))
        self.m.graph.add_initializer("extra", np.zeros(100, np.float32))
        self.assertEqual(self.m.save_size(), len(self.m.save_bytes()))
        self.assertGreater(self.m.save_size(), os.path.getsize(BERT) + 400)

    def test_save_bytes_external(self):
        """The model file of save() with the same options, byte for byte, with
        no file written; per tensor, offset 0 and the tensor's own bytes."""
        self.m.convert(gather_to="bf16")
        for layout in ("per_tensor", "one_file"):
            with self.subTest(layout=layout):
                kw = {"external_data": layout, "threshold": 0}
                if layout == "one_file":
                    kw["location"] = "w.bin"
                data, rep = self.m.save_bytes_external(**kw)
                self.assertEqual(os.listdir(self.tmp), [])
                frep = self.m.save(self.path("f.onnx"), **kw)
                with open(self.path("f.onnx"), "rb") as f:
                    self.assertEqual(data, f.read())
                self.assertEqual(rep.entries, frep.entries)
                self.assertEqual(rep.kernel_copied, 0)
                out = [e for e in rep if e.placement == "external"]
                self.assertGreater(len(out), 20)
                inits = {t.name: t for t in self.m.graph.initializers}
                for e in out:
                    if layout == "one_file":
                        self.assertEqual(e.location, "w.bin")
                        continue
                    self.assertEqual((e.offset, e.length), (0, inits[e.name].nbytes))
                    with open(self.path(e.location), "rb") as f:
                        self.assertEqual(f.read(), inits[e.name].tobytes())
                shutil.rmtree(self.tmp)
                os.mkdir(self.tmp)
        data, rep = self.m.save_bytes_external("one_file", threshold=0)  # no file: "model.data"
        self.assertEqual(rep.locations, ["model.data"])
        for kw, exc in [({"external_data": None}, libonnxslim.InvalidArgument),
                        ({"external_data": False}, libonnxslim.InvalidArgument),
                        ({"flags": libonnxslim.SAVE_CHECKSUM}, libonnxslim.InvalidArgument),
                        ({"external_data": "two_files"}, ValueError)]:
            with self.subTest(**{k: repr(v) for k, v in kw.items()}):
                self.assertRaises(exc, self.m.save_bytes_external, **kw)

    def test_errors(self):
        bad = [({"external_data": "two_files"}, ValueError),
               ({"external_data": "one_file", "threshold": -1}, ValueError),
               ({"external_data": "one_file", "location": 5}, TypeError),
               ({"checksum": "yes"}, TypeError),
               ({"external_data": "one_file", "layout": libonnxslim.LAYOUT_ONE_FILE}, ValueError)]
        for kw, exc in bad:
            with self.subTest(**{k: repr(v) for k, v in kw.items()}):
                self.assertRaises(exc, self.m.save, self.path("x.onnx"), **kw)
        lib_bad = [{"external_data": "one_file", "align": 3},      # not a power of two
                   {"checksum": True},                             # AS_LOADED takes no checksum
                   {"external_data": "one_file", "location": "../out.bin"}]
        for kw in lib_bad:
            with self.subTest(**{k: repr(v) for k, v in kw.items()}):
                with self.assertRaises(libonnxslim.InvalidArgument) as cm:
                    self.m.save(self.path("x.onnx"), **kw)
                self.assertTrue(cm.exception.message)
        with self.assertRaises(libonnxslim.IoError):
            self.m.save(self.path("no/such/dir/x.onnx"))
        self.assertFalse(os.path.exists(self.path("x.onnx")))
        self.assertEqual(os.listdir(self.tmp), [])


if __name__ == "__main__":
    unittest.main()
