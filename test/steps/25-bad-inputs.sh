# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Bad input gets a clear error: every file of the committed bad-input corpus
# is refused with a parse/limit/model error that says where.
set -u
sh test/build-prog.sh bad_inputs || exit 1
"$B/bad_inputs" test/fuzz/corpus/*.onnx
