# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# No user-facing name of the old scheme (`onnxslim` command, Python package,
# pkg-config and CMake names, ONNXSLIM_* environment variables) is left
# outside the CHANGELOG's table of renames: test/check_names.py.
set -u
python3 test/check_names.py .
