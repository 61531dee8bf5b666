# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The operator schema tables (lib/opschema/opschema_data.c) are what
# scripts/gen-opschema.py makes from onnx.defs of the onnx release pinned in
# scripts/pypi-pins.txt (installed from PyPI in $B/pypi-onnx by
# scripts/pypi-venv.sh): regenerated into a temporary file, any difference
# fails. Also: the tables hold every operator of every domain that onnx
# defines, with the same versions; each domain's newest opset is onnx's;
# the onnx version is recorded in the file; another onnx is refused.
# Without PyPI (the venv cannot be made offline) the step is a skip line
# naming what is missing.
set -u
B=${B:-build}
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
case $B in /*) venv="$B/pypi-onnx" ;; *) venv="$PWD/$B/pypi-onnx" ;; esac
mkdir -p "$B"
sh scripts/pypi-venv.sh "$venv" onnx 2> "$B/pypi-onnx.err"; rc=$?
if [ $rc -eq 77 ]; then
  tail -n 1 "$B/pypi-onnx.err"
  echo "0 passed, 0 failed, 1 skipped"; exit 0
elif [ $rc -ne 0 ]; then
  cat "$B/pypi-onnx.err"; bad "scripts/pypi-venv.sh $venv onnx"; echo "$passed passed, $failed failed, $skipped skipped"; exit 1
fi
PY="$venv/bin/python"
pinned=$(sed -n 's/^onnx==//p' scripts/pypi-pins.txt)
have=$("$PY" -c 'import onnx; print(onnx.__version__)')
[ "$have" = "$pinned" ] && ok "the venv's onnx is the pinned one ($have)" || bad "venv onnx $have, pinned $pinned"
tmp=$(mktemp -d)
if "$PY" scripts/gen-opschema.py "$tmp/opschema_data.c"; then
  if cmp -s "$tmp/opschema_data.c" lib/opschema/opschema_data.c; then
    ok "lib/opschema/opschema_data.c is what scripts/gen-opschema.py makes ($(sed -n 5p "$tmp/opschema_data.c" | sed 's/^ \* //;s/;.*//') from onnx $have)"
  else
    diff "$tmp/opschema_data.c" lib/opschema/opschema_data.c | head -n 20
    bad "lib/opschema/opschema_data.c differs from a fresh generation: run scripts/gen-opschema.py as its usage says and commit"
  fi
else
  bad "scripts/gen-opschema.py failed"
fi
grep -q "^const char onnxslim__ops_onnx_version\[\] = \"$pinned\";" lib/opschema/opschema_data.c &&
  ok "the tables record the onnx version they come from ($pinned)" || bad "onnxslim__ops_onnx_version is not \"$pinned\""
# refused with another onnx (Debian's), when there is one
if /usr/bin/python3 -c 'import onnx, sys; sys.exit(onnx.__version__ == sys.argv[1])' "$pinned" 2>/dev/null; then
  if /usr/bin/python3 scripts/gen-opschema.py "$tmp/other.c" 2> "$tmp/other.err"; then
    bad "scripts/gen-opschema.py ran with Debian's onnx"
  else
    grep -q "pins $pinned" "$tmp/other.err" && ok "scripts/gen-opschema.py refuses another onnx: $(cat "$tmp/other.err")" ||
      bad "gen-opschema with Debian's onnx: $(cat "$tmp/other.err")"
  fi
fi
"$PY" - <<'PYEOF' && ok "every (domain, op, since_version) of onnx.defs is in the tables; each domain's newest opset is onnx's" || bad "the tables do not hold onnx.defs"
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
doms = re.search(r'onnxslim__ops_domains\[\d+\] = \{(.*?)\};', src).group(1)
doms = re.findall(r'"([^"]*)"', doms)
maxv = [int(x) for x in re.search(r'onnxslim__ops_domain_max\[\d+\] = \{(.*?)\};', src).group(1).split(",")]
if sorted(doms) != sorted({s.domain for s in want}):
    print("domains", doms); sys.exit(1)
if maxv[doms.index("")] != defs.onnx_opset_version() or maxv[doms.index("ai.onnx.ml")] != defs.onnx_ml_opset_version():
    print("newest opsets", maxv); sys.exit(1)
print("  %d schemas; domains %s; newest opsets %s" % (n, ", ".join(d or "ai.onnx" for d in doms), maxv))
PYEOF
rm -rf "$tmp"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
