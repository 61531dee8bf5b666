# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The Python package's annotations, with Debian's mypy (make deps):
# `mypy --strict` passes on the package, on examples/*.py and on
# python/tests/typed_usage.py (typed code that uses every public name;
# step 47 runs it and checks it names every entry of __all__), and fails
# on code that misuses the annotated API (so the annotations say
# something: a Graph is no int, save() takes no progress of the wrong
# shape, a Tensor's shape is a tuple).
set -u
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
if ! command -v mypy >/dev/null 2>&1; then
  bad "mypy is not installed (make deps: Debian's mypy)"
  echo "$passed passed, $failed failed"
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# mypy runs with /usr/bin/python3's packages (numpy, onnx)
run_mypy() { MYPYPATH=python mypy --strict --python-executable /usr/bin/python3 \
  --cache-dir "$tmp/cache" "$@"; }

if run_mypy python/libonnxslim examples/*.py python/tests/typed_usage.py >"$tmp/strict.log" 2>&1; then
  ok "mypy --strict: the package, examples/*.py, python/tests/typed_usage.py ($(tail -n 1 "$tmp/strict.log"))"
else
  cat "$tmp/strict.log"
  bad "mypy --strict on the package, examples/*.py and python/tests/typed_usage.py"
fi

# each line misuses the API once: mypy must report an error on each
cat > "$tmp/misuse.py" <<'EOF'
import libonnxslim
m = libonnxslim.load("model.onnx")
g: int = m.graph
s: str = m.graph.initializers[0].shape
m.save("out.onnx", progress=lambda done: None)
n: libonnxslim.Node = m.graph.find_node("x")
e: libonnxslim.ConvertEntry = m.convert(to="bf16")
m.graph.add_node(42)
c: str = libonnxslim.DTYPE_FLOAT
EOF
run_mypy "$tmp/misuse.py" >"$tmp/misuse.log" 2>&1
want=$(grep -c '' "$tmp/misuse.py")
missing=""
for line in $(seq 3 "$want"); do
  grep -q "misuse.py:$line: error" "$tmp/misuse.log" || missing="$missing $line"
done
if [ -z "$missing" ]; then
  ok "mypy --strict reports each of $((want - 2)) misuses of the annotated API"
else
  cat "$tmp/misuse.log"
  bad "mypy --strict does not report the misuse on line(s)$missing of misuse.py"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
