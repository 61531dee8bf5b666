# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The library's errors as Python's: OSError (errno, strerror, filename),
FileNotFoundError, MemoryError, ValueError...; str() is the library's message."""

import errno
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

import libonnxslim
from helpers import BERT, ROOT


def run_child(code):
    """Runs `code` in a child /usr/bin/python3 with this environment; its stdout."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if proc.returncode != 0:
        raise AssertionError("child failed (%d): %s" % (proc.returncode, proc.stderr.decode()))
    return proc.stdout.decode()


class TestOSErrors(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_missing_file(self):
        path = os.path.join(self.tmp, "no such.onnx")
        try:
            libonnxslim.load(path)
        except FileNotFoundError as e:
            err = e
        else:
            self.fail("no FileNotFoundError")
        self.assertIsInstance(err, OSError)
        self.assertIsInstance(err, libonnxslim.IoError)  # the library's class, as before
        self.assertIsInstance(err, libonnxslim.Error)
        self.assertEqual(err.errno, errno.ENOENT)
        self.assertEqual(err.strerror, os.strerror(errno.ENOENT))
        self.assertEqual(err.filename, path)
        self.assertEqual(err.code, libonnxslim.EIO)
        # the message is the library's, without the code's text glued on
        self.assertEqual(str(err), err.message)
        self.assertIn(path, str(err))
        self.assertNotIn("(input/output error)", str(err))
        # a PathLike's name, and a caught plain OSError
        with self.assertRaises(OSError) as cm:
            libonnxslim.load(__import__("pathlib").Path(path))
        self.assertEqual((cm.exception.errno, cm.exception.filename), (errno.ENOENT, path))

    def test_missing_external_data_names_the_data_file(self):
        with libonnxslim.load(BERT) as m:
            m.save(os.path.join(self.tmp, "m.onnx"), external_data="one_file", threshold=0)
        os.remove(os.path.join(self.tmp, "m.onnx.data"))
        with self.assertRaises(FileNotFoundError) as cm:
            with libonnxslim.load(os.path.join(self.tmp, "m.onnx")) as m:
                m.graph.initializers[0].tobytes()
        # the location as the model gives it
        self.assertEqual(cm.exception.filename, "m.onnx.data")
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertIsInstance(cm.exception, libonnxslim.ModelError)  # as before

    def test_directory(self):
        with self.assertRaises(IsADirectoryError) as cm:
            libonnxslim.load(self.tmp)
        self.assertEqual((cm.exception.errno, cm.exception.filename), (errno.EISDIR, self.tmp))
        with libonnxslim.load(BERT) as m, self.assertRaises(OSError) as cm:
            m.save(self.tmp)
        self.assertIsInstance(cm.exception, libonnxslim.IoError)
        self.assertEqual(cm.exception.filename, self.tmp)

    def test_not_a_directory(self):
        with self.assertRaises(NotADirectoryError) as cm:
            libonnxslim.load(os.path.join(BERT, "x.onnx"))
        self.assertEqual(cm.exception.errno, errno.ENOTDIR)

    def test_pickles(self):
        with self.assertRaises(FileNotFoundError) as cm:
            libonnxslim.load(os.path.join(self.tmp, "gone.onnx"))
        back = pickle.loads(pickle.dumps(cm.exception))
        self.assertIs(type(back), type(cm.exception))
        self.assertEqual((back.code, back.message, back.errno, back.filename, str(back)),
                         (cm.exception.code, cm.exception.message, errno.ENOENT,
                          cm.exception.filename, str(cm.exception)))
        parse = libonnxslim.ParseError(libonnxslim.EPARSE, "bad")
        self.assertEqual(str(pickle.loads(pickle.dumps(parse))), "bad")

    def test_file_size_limit(self):
        # RLIMIT_FSIZE below the model's size: NoSpace, an OSError with EFBIG
        out = run_child("""
            import errno, resource, signal, libonnxslim
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            m = libonnxslim.load(%r)
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
            try:
                m.save(%r)
            except OSError as e:
                print(type(e).__name__, isinstance(e, libonnxslim.NoSpace),
                      errno.errorcode.get(e.errno), e.filename)
        """ % (BERT, os.path.join(self.tmp, "big.onnx")))
        self.assertEqual(out.split(), ["NoSpace", "True", "EFBIG",
                                       os.path.join(self.tmp, "big.onnx")])

    def test_no_space(self):
        # a 16 KiB tmpfs (root only) cannot hold the 32 KiB model: ENOSPC
        small = os.path.join(self.tmp, "small")
        os.mkdir(small)
        try:
            rc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", small],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        except OSError:
            rc = 1
        if rc != 0:
            self.skipTest("cannot mount a small tmpfs (needs root)")
        self.addCleanup(subprocess.run, ["umount", small])
        with libonnxslim.load(BERT) as m, self.assertRaises(OSError) as cm:
            m.save(os.path.join(small, "m.onnx"))
        e = cm.exception
        self.assertIsInstance(e, libonnxslim.NoSpace)
        self.assertEqual(e.errno, errno.ENOSPC)
        self.assertEqual(e.strerror, os.strerror(errno.ENOSPC))
        self.assertEqual(e.filename, os.path.join(small, "m.onnx"))
        self.assertEqual(os.listdir(small), [])  # nothing half-written

    def test_out_of_memory_is_memory_error(self):
        # the address-space limit leaves no room for the library's copy of
        # 64 MiB of bytes: OutOfMemory, a MemoryError
        out = run_child("""
            import resource, libonnxslim
            data = bytes(64 << 20)
            with open("/proc/self/status") as f:
                vm = [int(l.split()[1]) for l in f if l.startswith("VmSize:")][0] * 1024
            resource.setrlimit(resource.RLIMIT_AS, (vm + (16 << 20), resource.RLIM_INFINITY))
            try:
                libonnxslim.load(data)
            except MemoryError as e:
                print(type(e).__name__, isinstance(e, libonnxslim.Error), e.code)
        """)
        self.assertEqual(out.split(), ["OutOfMemory", "True", str(libonnxslim.ENOMEM)])


class TestOtherBuiltins(unittest.TestCase):
    def setUp(self):
        self.model = libonnxslim.load(BERT)
        self.addCleanup(self.model.close)

    def test_codes_map_to_builtins(self):
        with self.assertRaises(ValueError) as cm:
            libonnxslim.load(b"\x0a\xff\xff\xff\xff\x0f garbage")
        self.assertIsInstance(cm.exception, libonnxslim.ParseError)
        with self.assertRaises(LookupError) as cm:
            self.model.remove_metadata("no such key")
        self.assertIsInstance(cm.exception, libonnxslim.NotFound)
        node = self.model.graph.nodes[0]
        with self.assertRaises(IndexError) as cm:
            node.set_input(len(node.inputs) + 5, "x")
        self.assertIsInstance(cm.exception, libonnxslim.RangeError)
        self.assertNotIn("(", str(cm.exception)[-1:])

    def test_every_class_is_a_builtin_too(self):
        builtin = {libonnxslim.InvalidArgument: ValueError, libonnxslim.OutOfMemory: MemoryError,
                   libonnxslim.IoError: OSError, libonnxslim.NoSpace: OSError,
                   libonnxslim.NotFound: LookupError, libonnxslim.RangeError: IndexError,
                   libonnxslim.ParseError: ValueError, libonnxslim.ModelError: ValueError,
                   libonnxslim.TypeMismatch: TypeError}
        for cls, base in builtin.items():
            with self.subTest(cls=cls.__name__):
                self.assertTrue(issubclass(cls, base))
                self.assertTrue(issubclass(cls, libonnxslim.Error))
                e = cls(-1, "the message")
                self.assertEqual(str(e), "the message")

    def test_no_space_errno_from_message(self):
        e = libonnxslim.NoSpace(libonnxslim.ENOSPC,
                                "cannot write '/d/m.onnx': 100 bytes needed, 3 bytes free on the "
                                "device")
        self.assertEqual((e.errno, e.filename), (errno.ENOSPC, "/d/m.onnx"))
        e = libonnxslim.NoSpace(libonnxslim.ENOSPC, "cannot write '/d/m.onnx': %s"
                                % os.strerror(errno.EDQUOT))
        self.assertEqual(e.errno, errno.EDQUOT)


if __name__ == "__main__":
    unittest.main()
