# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Finding the shared library: LIBONNXSLIM_LIBRARY, the build tree, the install's
LIBDIR, the system; library_path and __version__; the package's own version.

Each case imports libonnxslim in a fresh interpreter (the search runs once, at
import), with LIBONNXSLIM_LIBRARY and LD_LIBRARY_PATH taken out of the
environment unless the case sets them.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import libonnxslim
from helpers import ROOT

BUILD = os.path.join(ROOT, os.environ.get("B", "build"))
TREE_LIB = os.path.join(ROOT, "build", "libonnxslim.so.0")
PRINT = "import libonnxslim; print(libonnxslim.__version__); print(libonnxslim.library_path)"


def header_version():
    with open(os.path.join(ROOT, "include", "onnxslim", "version.h")) as f:
        return re.search(r'#define ONNXSLIM_VERSION_STRING "([^"]+)"', f.read()).group(1)


def run_python(code, pythonpath, env=None, cwd="/"):
    """Runs `code` with sys.executable from `cwd`; returns (rc, stdout, stderr)."""
    e = {k: v for k, v in os.environ.items()
         if k not in ("LIBONNXSLIM_LIBRARY", "LD_LIBRARY_PATH", "LIBRARY_PATH", "PYTHONPATH")}
    e["PYTHONPATH"] = pythonpath
    e.update(env or {})
    p = subprocess.run([sys.executable, "-c", code], env=e, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class TestLibrarySearch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def copy_package(self):
        """A copy of the package outside the tree (no build tree next to it)."""
        dst = os.path.join(self.tmp, "site")
        shutil.copytree(os.path.join(ROOT, "python", "libonnxslim"), os.path.join(dst, "libonnxslim"),
                        ignore=shutil.ignore_patterns("__pycache__", "_installed.py"))
        return dst

    def test_version_is_the_library_s(self):
        self.assertEqual(libonnxslim.__version__, header_version())

    def test_pyproject_version_is_the_library_s(self):
        with open(os.path.join(ROOT, "python", "pyproject.toml")) as f:
            m = re.search(r'^version = "([^"]+)"', f.read(), re.M)
        self.assertIsNotNone(m)
        self.assertEqual(m.group(1), header_version())

    @unittest.skipUnless(os.path.exists(TREE_LIB), "no build/libonnxslim.so.0")
    def test_build_tree_without_install(self):
        # the command: python3 -c "import libonnxslim; print(libonnxslim.__version__)"
        rc, out, err = run_python(PRINT, os.path.join(ROOT, "python"))
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), [header_version(), TREE_LIB])

    def test_environment_variable_first(self):
        lib = os.path.join(self.tmp, "renamed-libonnxslim.so")
        shutil.copy(os.path.join(BUILD, "libonnxslim.so.0"), lib)
        rc, out, err = run_python(PRINT, os.path.join(ROOT, "python"), {"LIBONNXSLIM_LIBRARY": lib})
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines()[1], lib)

    def test_environment_variable_that_does_not_load_is_not_skipped(self):
        bad = os.path.join(self.tmp, "nothing.so")
        rc, out, err = run_python(PRINT, os.path.join(ROOT, "python"), {"LIBONNXSLIM_LIBRARY": bad})
        self.assertNotEqual(rc, 0)
        self.assertIn("ImportError", err)
        self.assertIn(bad, err)
        self.assertIn("LIBONNXSLIM_LIBRARY", err)

    def test_a_library_without_the_functions_is_refused(self):
        libc = "libc.so.6"
        rc, out, err = run_python(PRINT, os.path.join(ROOT, "python"), {"LIBONNXSLIM_LIBRARY": libc})
        self.assertNotEqual(rc, 0)
        self.assertIn("ImportError", err)
        self.assertIn("older than this package", err)

    def test_system_through_find_library(self):
        # outside the tree, nothing recorded: ctypes.util.find_library, here
        # through LD_LIBRARY_PATH; library_path is the file the loader mapped
        site = self.copy_package()
        rc, out, err = run_python(PRINT, site, {"LD_LIBRARY_PATH": BUILD})
        self.assertEqual(rc, 0, err)
        self.assertTrue(os.path.isabs(out.splitlines()[1]), out)
        self.assertTrue(os.path.samefile(out.splitlines()[1], os.path.join(BUILD, "libonnxslim.so.0")))

    def test_not_found_says_how_to_fix(self):
        import ctypes.util
        if ctypes.util.find_library("onnxslim"):
            self.skipTest("a libonnxslim is installed on this system")
        rc, out, err = run_python(PRINT, self.copy_package())
        self.assertNotEqual(rc, 0)
        self.assertIn("ImportError", err)
        self.assertIn("set LIBONNXSLIM_LIBRARY", err)

    def write_installed(self, site, libdir, rel):
        with open(os.path.join(site, "libonnxslim", "_installed.py"), "w") as f:
            f.write('LIBDIR = "%s"\nLIBDIR_FROM_PACKAGE = "%s"\n' % (libdir, rel))

    def test_installed_libdir_relative_to_the_package(self):
        # as make install writes it: PREFIX/lib/python3.X/dist-packages/libonnxslim -> ../../..
        prefix = os.path.join(self.tmp, "prefix")
        site = os.path.join(prefix, "lib", "python3", "dist-packages")
        os.makedirs(site)
        shutil.copytree(os.path.join(self.copy_package(), "libonnxslim"), os.path.join(site, "libonnxslim"))
        shutil.copy(os.path.join(BUILD, "libonnxslim.so.0"), os.path.join(prefix, "lib"))
        self.write_installed(site, "/nonexistent/lib", "../../..")
        rc, out, err = run_python(PRINT, site)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines()[1], os.path.join(prefix, "lib", "libonnxslim.so.0"))

    def test_installed_libdir_absolute(self):
        site = self.copy_package()
        libdir = os.path.join(self.tmp, "libdir")
        os.makedirs(libdir)
        shutil.copy(os.path.join(BUILD, "libonnxslim.so.0"), libdir)
        self.write_installed(site, libdir, "../nonexistent")
        rc, out, err = run_python(PRINT, site)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines()[1], os.path.join(libdir, "libonnxslim.so.0"))

    def test_import_does_not_run_find_library_when_a_library_is_found_first(self):
        # find_library starts subprocesses (ldconfig, gcc, ld): tens of ms at import
        rc, out, err = run_python("import libonnxslim, sys; print('ctypes.util' in sys.modules)",
                                  os.path.join(ROOT, "python"),
                                  {"LIBONNXSLIM_LIBRARY": os.path.join(BUILD, "libonnxslim.so.0")})
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.strip(), "False")


if __name__ == "__main__":
    unittest.main()
