# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# --json of info, check, fingerprint, diff, convert, split and merge: every
# document parsed by python's json module and checked against the tables of
# docs/json.md both ways (no undocumented member, none missing, types and
# order as documented, every documented member printed by some command);
# the documents agree with the text output; names with control characters
# and bytes that are not UTF-8 come out escaped (test/check_cli_json.py).
. test/step-lib.sh
if ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
  skip "python3-onnx or numpy missing (make deps)"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 0
fi
(cd test && "$PY" check_cli_json.py "$cli" "$tmp")
