# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The manual page (man/libonnxslim.1) and the bash completion
# (completion/libonnxslim.bash) know every command and option of `libonnxslim
# --help` / `libonnxslim COMMAND --help`, the page renders without a groff
# warning and its examples run, the completion works in bash:
# test/check_cli_docs.py. Then the controls: the check fails on a new
# option that neither documents, on a page or a completion that lacks one
# option, and on a page groff warns about.
set -u
. test/step-lib.sh

$PY test/check_cli_docs.py > "$tmp/docs.log" 2>&1; r=$?
grep -v -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/docs.log"
p=$(grep -c '^ok ' "$tmp/docs.log") f=$(grep -c '^FAIL ' "$tmp/docs.log")
passed=$((passed + p)) failed=$((failed + f))
[ $r -ne 0 ] && [ "$f" -eq 0 ] && bad "test/check_cli_docs.py exit $r"

# control: CONTROL-NAME PATTERN ARGS...: the check must fail, with a FAIL
# line matching PATTERN
control() {
  what=$1 pat=$2; shift 2
  $PY test/check_cli_docs.py "$@" > "$tmp/control.log" 2>&1; cr=$?
  if [ $cr -ne 0 ] && grep '^FAIL ' "$tmp/control.log" | grep -q -e "$pat"; then ok "control: $what fails the check"
  else grep '^FAIL ' "$tmp/control.log"; bad "control: $what (exit $cr) was not caught"; fi
}
# a command whose convert --help lists one more option
cat > "$tmp/libonnxslim" <<EOF
#!/bin/sh
if [ "\$1" = convert ] && [ "\$2" = --help ]; then
  "$cli" "\$@" | sed 's/^      --toposort /      --frobnicate            undocumented\n&/'
else
  exec "$cli" "\$@"
fi
EOF
chmod +x "$tmp/libonnxslim"
"$tmp/libonnxslim" convert --help | grep -q -e '--frobnicate' || bad "the fake libonnxslim lists no --frobnicate"
control "a new convert option --frobnicate" 'frobnicate' --libonnxslim "$tmp/libonnxslim"
# the page without the .TP of split's --checksum
awk '/^\.SS "split/ {s = 1} /^\.SS "merge/ {s = 0}
     s && /^\.TP$/ {getline t; if (t ~ /checksum/) {getline; next} print; print t; next} {print}' \
  man/libonnxslim.1 > "$tmp/no-checksum.1"
cmp -s "$tmp/no-checksum.1" man/libonnxslim.1 && bad "removing split's --checksum from the page changed nothing"
control "a page without split's --checksum" 'split documents' --man "$tmp/no-checksum.1"
# the completion without diff's --storage
sed 's/diff) echo "--storage --json"/diff) echo "--json"/' completion/libonnxslim.bash > "$tmp/comp.bash"
cmp -s "$tmp/comp.bash" completion/libonnxslim.bash && bad "removing diff's --storage from the completion changed nothing"
control "a completion without diff's --storage" 'libonnxslim diff -<TAB>' --completion "$tmp/comp.bash"
# a page groff warns about (an unknown request)
sed 's/^\.SH EXAMPLES$/.XYZZY\n&/' man/libonnxslim.1 > "$tmp/warn.1"
control "a page with an unknown request" 'groff' --man "$tmp/warn.1"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
