# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# lib/ calls and includes one way only:
#   base (lib/base/, lib/opschema/) <- kernels (lib/kernels/) <- wire (lib/wire/)
#     <- handles (lib/*.c) <- passes (lib/passes/)
# read from the objects (nm) and the sources' #include lines; see
# test/check_layers.py and docs/contributing.md.
set -u
/usr/bin/python3 test/check_layers.py "${B:-build}"
