# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Prints where `make install` puts the Python package for a prefix.

    PYTHON scripts/python-dir.py PREFIX

Run with the interpreter the package is for (the Makefile's PYTHON, default
/usr/bin/python3): the directory is the one that interpreter imports from
for PREFIX when it has one, so the package lands where it is used.

- Debian's python3 (it has the deb_system scheme): PREFIX /usr ->
  /usr/lib/python3/dist-packages; PREFIX /usr/local ->
  /usr/local/lib/python3.X/dist-packages (both on its sys.path).
- any other prefix, and any other python3 (pyenv, a venv's base, ...): the
  interpreter's own layout for the prefix, PREFIX/lib/python3.X/site-packages.

A second line says `on-path` when the interpreter imports from that
directory without help, else `PYTHONPATH`: the caller prints the line to add.
"""
import os
import sys
import sysconfig

prefix = os.path.normpath(sys.argv[1])
schemes = sysconfig.get_scheme_names()
ver = "%d.%d" % sys.version_info[:2]
if "deb_system" in schemes and prefix == "/usr":
    path = "/usr/lib/python3/dist-packages"
elif "deb_system" in schemes and prefix == "/usr/local":
    path = "/usr/local/lib/python%s/dist-packages" % ver
else:
    path = sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix, "platbase": prefix})
print(path)
print("on-path" if os.path.normpath(path) in [os.path.normpath(p) for p in sys.path if p] else "PYTHONPATH")
