# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# names: about PyPI's OnnxSlim (test/check_names.py)
# PyPI's OnnxSlim (distribution, import package and command `onnxslim`)
# installed beside libonnxslim: both work, neither replaces the other.
# - one venv holds both Python packages; pip keeps both installed whatever
#   the order; `import onnxslim` gives OnnxSlim's (onnxslim.slim works on a
#   model), `import libonnxslim` ours;
# - with our `make install` prefix and the venv both on PATH, `onnxslim` runs
#   OnnxSlim's program and `libonnxslim` ours, and pip installing OnnxSlim
#   into our prefix leaves our command as it was.
# OnnxSlim comes from PyPI at the version scripts/pypi-pins.txt pins; when
# PyPI cannot be reached the step says so and counts a skip.
set -u
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
B=${B:-build}
root=$PWD
venv="$root/$B/pypi-onnxslim"
sh scripts/pypi-venv.sh "$venv" onnxslim 2> "$B/pypi-onnxslim.err"; rc=$?
if [ $rc -eq 77 ]; then
  tail -n 1 "$B/pypi-onnxslim.err"
  echo "0 passed, 0 failed, 1 skipped"; exit 0
elif [ $rc -ne 0 ]; then
  cat "$B/pypi-onnxslim.err"; bad "scripts/pypi-venv.sh $venv onnxslim"; echo "$passed passed, $failed failed"; exit 1
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
lib="$root/$B/libonnxslim.so.0"
m="$root/test/data/bert-tiny.onnx"
theirs=$("$venv/bin/pip" show onnxslim 2>/dev/null | sed -n 's/^Version: //p')
# our package into the same venv (a copy: pip may write beside the sources)
cp -r python "$tmp/pysrc"
if "$venv/bin/pip" install -q --no-index --force-reinstall "$tmp/pysrc" > "$tmp/pip.log" 2>&1; then
  ok "pip install ./python into the venv that has OnnxSlim $theirs"
else
  cat "$tmp/pip.log"; bad "pip install ./python beside OnnxSlim"
fi
# pip keeps both, in either order
"$venv/bin/pip" install -q --no-index --no-deps --force-reinstall \
  "$("$venv/bin/pip" download -q --no-deps -d "$tmp/dl" -c scripts/pypi-pins.txt onnxslim > /dev/null 2>&1; ls "$tmp"/dl/onnxslim-*.whl 2>/dev/null || echo none)" \
  > "$tmp/pip2.log" 2>&1 || cat "$tmp/pip2.log"
list=$("$venv/bin/pip" list --format=freeze 2>/dev/null)
if printf '%s\n' "$list" | grep -qx "onnxslim==$theirs" && printf '%s\n' "$list" | grep -q '^libonnxslim==' &&
   "$venv/bin/pip" check > "$tmp/check.log" 2>&1; then
  ok "pip keeps both installed after reinstalling OnnxSlim: $(printf '%s\n' "$list" | grep -E '^(lib)?onnxslim==' | tr '\n' ' ')"
else
  cat "$tmp/check.log"; printf '%s\n' "$list"; bad "pip list after installing both"
fi
# each import gives its own package
out=$(cd "$tmp" && LIBONNXSLIM_LIBRARY="$lib" "$venv/bin/python" - "$m" 2>&1 <<'PY'
import os, sys
import onnxslim, libonnxslim
assert os.path.dirname(onnxslim.__file__) != os.path.dirname(libonnxslim.__file__)
slimmed = onnxslim.slim(sys.argv[1])            # OnnxSlim's API: a ModelProto back
print("onnxslim.slim:", type(slimmed).__name__, len(slimmed.graph.node), "nodes")
with libonnxslim.load(sys.argv[1]) as model:   # ours
    print("libonnxslim.load:", len(model.graph.nodes), "nodes,", model.fingerprint())
print(onnxslim.__file__); print(libonnxslim.__file__)
PY
)
if [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q '^onnxslim.slim: ModelProto' &&
   printf '%s\n' "$out" | grep -q '^libonnxslim.load: 58 nodes'; then
  ok "import onnxslim (OnnxSlim's slim() runs) and import libonnxslim (ours) in one interpreter"
  printf '%s\n' "$out" | sed 's/^/  /'
else
  printf '%s\n' "$out"; bad "both imports in one interpreter"
fi
# the commands: our install and the venv on one PATH
prefix="$tmp/prefix"
if make -s install PREFIX="$prefix" > "$tmp/install.log" 2>&1; then
  sum=$(sha256sum "$prefix/bin/libonnxslim" | cut -d' ' -f1)
  # OnnxSlim's own install into our prefix (its console script lands in bin/)
  PYTHONUSERBASE= "$venv/bin/pip" install -q --no-index --no-deps --ignore-installed --prefix "$prefix" "$tmp"/dl/onnxslim-*.whl > "$tmp/pip3.log" 2>&1 ||
    cat "$tmp/pip3.log"
  [ "$(sha256sum "$prefix/bin/libonnxslim" | cut -d' ' -f1)" = "$sum" ] && [ -e "$prefix/bin/onnxslim" ] &&
    ok "pip install onnxslim --prefix into our prefix: our bin/libonnxslim unchanged beside its bin/onnxslim" ||
    bad "pip install onnxslim into our prefix touched our command"
  out1=$(PATH="$prefix/bin:$venv/bin:$PATH" libonnxslim --version 2>&1)
  out2=$(PATH="$prefix/bin:$venv/bin:$PATH" onnxslim --help 2>&1 | head -n 1)
  case $out1 in libonnxslim*) ok "libonnxslim --version: $out1" ;; *) echo "$out1"; bad "libonnxslim on PATH" ;; esac
  case $out2 in "usage: onnxslim"*) ok "onnxslim --help is OnnxSlim's: $out2" ;; *) echo "$out2"; bad "onnxslim on PATH" ;; esac
else
  cat "$tmp/install.log"; bad "make install PREFIX=$prefix"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
