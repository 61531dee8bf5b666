# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The command line never writes over one of its inputs, and every file it
# writes loads on its own:
#  A. every command and every output path (OUT, the data file, the
#     single-file copy) that is an input - the model file or one of its data
#     files, spelled another way, through a symlink or a hard link - is
#     refused with exit 2 and a message naming both, and nothing changes on
#     disk; per-tensor data files never take an input's name;
#  B. every output of every command, into another directory and into the
#     same one, loads in libonnxslim and in python onnx (with its checker) and
#     runs in onnxruntime (when step 45 set it up);
#  C. small things: OUT a directory, '-', a file that is not ONNX, a
#     selection the library refuses, --toposort and check on an unsorted
#     graph, split --constants.
set -u
. test/step-lib.sh
have_ort=0
ort_modules="$root/$B/node/node_modules"
[ -d "$ort_modules/onnxruntime-node" ] && command -v node > /dev/null && have_ort=1
ort() { ORT_NODE_MODULES="$ort_modules" node "$root/test/gen/run_ort.js" "$1" > "$tmp/ort.out" 2>&1; }

# state DIR: every file below DIR with its kind, link target and content digest
state() { (cd "$1" && find . -printf '%p %y %l\n' | sort && find . -type f -exec sha256sum {} + | sort); }

# ---- A. no output lands on an input -------------------------------------------------
a="$tmp/a"
mkdir -p "$a"
cd "$a" || exit 1
cp "$m" m.onnx
"$cli" split m.onnx s.onnx --threshold 0 > /dev/null 2>&1
ln -s m.onnx sym.onnx
ln m.onnx hard.onnx
ln -s s.onnx.data symdata
mkdir other && ln -s ../m.onnx other/up.onnx
# refused ARGS...: exit 2, both names in the message, nothing changed
refused() {
  want_in=$1 want_out=$2
  shift 2
  before=$(state "$a")
  "$cli" "$@" > "$tmp/o" 2> "$tmp/e"
  r=$?
  after=$(state "$a")
  if [ $r -eq 2 ] && [ "$before" = "$after" ] && grep -qF -- "$want_out" "$tmp/e" && grep -qF -- "$want_in" "$tmp/e"; then
    ok "refused (exit 2, files unchanged): libonnxslim $*"
  else
    bad "libonnxslim $*: exit $r, files $([ "$before" = "$after" ] && echo unchanged || echo CHANGED): $(cat "$tmp/e")"
  fi
}
refused m.onnx "'m.onnx'" convert m.onnx m.onnx
refused m.onnx "'./m.onnx'" convert m.onnx ./m.onnx
refused m.onnx "'sym.onnx'" convert m.onnx sym.onnx
refused m.onnx "'hard.onnx'" convert m.onnx hard.onnx
refused m.onnx "'other/up.onnx'" convert m.onnx other/up.onnx
refused m.onnx "'hard.onnx'" convert m.onnx hard.onnx --gather-to bf16
refused m.onnx "'m.onnx'" convert m.onnx out.onnx --external-data --location m.onnx
refused m.onnx "'./hard.onnx'" convert m.onnx out.onnx --external-data --location ./hard.onnx
refused m.onnx "'m.onnx'" split m.onnx out.onnx --location m.onnx
refused m.onnx "'./m.onnx'" split m.onnx out.onnx --location ./m.onnx
refused m.onnx "'./m.onnx'" convert m.onnx out.onnx --also-single-file ./m.onnx
refused m.onnx "'sym.onnx'" convert m.onnx out.onnx --external-data --also-single-file sym.onnx
refused m.onnx "'hard.onnx'" merge m.onnx hard.onnx
refused m.onnx "'sym.onnx'" split sym.onnx m.onnx
refused s.onnx "'s.onnx'" split s.onnx s.onnx
refused s.onnx "'s.onnx.data'" split s.onnx out.onnx --location s.onnx.data
refused s.onnx "'symdata'" split s.onnx out.onnx --location symdata
refused s.onnx "'s.onnx.data'" merge s.onnx s.onnx.data
refused s.onnx "'symdata'" convert s.onnx symdata
refused s.onnx "'s.onnx.data'" convert s.onnx x.onnx --also-single-file s.onnx.data
refused s.onnx "'s.onnx.data'" convert s.onnx x.onnx --to fp16 --external-data --location s.onnx.data
# two outputs on one file
refused "out.onnx.data" "'out.onnx.data'" convert m.onnx out.onnx --gather-to bf16 --external-data --also-single-file out.onnx.data
# per-tensor data files next to per-tensor inputs get other names
"$cli" split m.onnx p.onnx --per-tensor --threshold 0 > /dev/null 2>&1
fp_p=$("$cli" fingerprint p.onnx)
before=$(state "$a")
"$cli" split p.onnx q.onnx --per-tensor --threshold 0 > /dev/null 2> "$tmp/e"; r=$?
# every file that existed is unchanged (new ones were added)
state "$a" > "$tmp/after"
echo "$before" | grep -E '^[0-9a-f]{64} ' | while read -r sum name; do
  grep -qF "$sum  $name" "$tmp/after" || echo "$name"
done > "$tmp/changed"
[ $r -eq 0 ] && [ ! -s "$tmp/changed" ] && [ "$("$cli" fingerprint p.onnx)" = "$fp_p" ] &&
  [ "$("$cli" fingerprint q.onnx)" = "$fp_p" ] &&
  ok "split --per-tensor next to a per-tensor model: its data files untouched, both load" ||
  bad "per-tensor beside per-tensor: exit $r, changed: $(cat "$tmp/changed") $(cat "$tmp/e")"
cd "$root" || exit 1

# ---- B. every output loads on its own ----------------------------------------------
b="$tmp/b"
mkdir -p "$b/in/w"
cp "$m" "$b/in/m.onnx"
"$cli" split "$b/in/m.onnx" "$b/in/s.onnx" --threshold 0 > /dev/null 2>&1
"$cli" split "$b/in/m.onnx" "$b/in/p.onnx" --per-tensor > /dev/null 2>&1
"$cli" split "$b/in/m.onnx" "$b/in/d.onnx" --location w/weights.bin > /dev/null 2>&1
outputs=""
n=0
for in in m s p d; do
  for run in "convert" "convert --gather-to bf16" "convert --to fp16" "convert --toposort" \
             "convert --external-data" "convert --gather-to bf16 --external-data --threshold 0 --also-single-file SINGLE" \
             "split" "split --per-tensor" "split --threshold 0 --location data/all.bin" "merge"; do
    for where in other same; do
      n=$((n + 1))
      if [ $where = other ]; then dir="$b/out$n"; mkdir -p "$dir"; else dir="$b/in"; fi
      out="$dir/o$n.onnx"
      single="$b/single$n/one.onnx"
      mkdir -p "$b/single$n" "$dir/data"
      # shellcheck disable=SC2086
      set -- $run
      cmd=$1
      shift
      args=$(echo "$*" | sed "s|SINGLE|$single|")
      # shellcheck disable=SC2086
      if "$cli" $cmd "$b/in/$in.onnx" "$out" $args > "$tmp/o" 2> "$tmp/e"; then
        outputs="$outputs $out"
        case "$args" in *--also-single-file*) outputs="$outputs $single" ;; esac
      else
        bad "libonnxslim $cmd $in.onnx $where-dir/o$n.onnx $args: $(cat "$tmp/e")"
      fi
    done
  done
done
# the input directory moves away: nothing written may depend on it
# (outputs in the input's own directory are checked where they are)
loaded=0 notload=0
for f in $outputs; do
  if "$cli" check "$f" > "$tmp/o" 2>&1 && "$cli" fingerprint "$f" > /dev/null 2>&1; then
    loaded=$((loaded + 1))
  else
    notload=$((notload + 1))
    echo "does not load: $f: $(cat "$tmp/o")"
  fi
done
[ $notload -eq 0 ] && [ $loaded -gt 70 ] && ok "all $loaded outputs of convert/split/merge load and check in libonnxslim" || bad "$notload of $((loaded + notload)) outputs do not load"
# outputs in other directories, with the input directory renamed: still load
mv "$b/in" "$b/in-moved"
moved_bad=0 moved_n=0
for f in $outputs; do
  case "$f" in "$b/in/"*) continue ;; esac
  moved_n=$((moved_n + 1))
  "$cli" fingerprint "$f" > /dev/null 2>&1 || { moved_bad=$((moved_bad + 1)); echo "needs the input directory: $f"; }
done
[ $moved_bad -eq 0 ] && [ $moved_n -gt 30 ] && ok "$moved_n outputs written elsewhere load with the input's directory gone" || bad "$moved_bad of $moved_n outputs depend on the input's directory"
mv "$b/in-moved" "$b/in"
if "$PY" -c 'import onnx' 2> /dev/null; then
  # shellcheck disable=SC2086
  "$PY" - $outputs > "$tmp/py" 2>&1 <<'EOF'
import sys, onnx
bad = 0
for p in sys.argv[1:]:
    try:
        onnx.checker.check_model(p)   # by path: resolves external data itself
        onnx.load(p)                  # loads every external tensor
    except Exception as e:
        bad += 1
        print("python onnx refuses", p, str(e).splitlines()[0][:200])
print("python-bad", bad, "of", len(sys.argv) - 1)
EOF
  grep -q '^python-bad 0 of' "$tmp/py" && ok "python onnx loads and checks every output ($(tail -n 1 "$tmp/py"))" || { cat "$tmp/py"; bad "python onnx refuses outputs"; }
else
  skip "python onnx not installed"
fi
if [ $have_ort -eq 1 ]; then
  ort "$b/in/m.onnx" || bad "onnxruntime cannot run the input"
  ort_bad=0 ort_n=0
  for f in $outputs; do
    ort_n=$((ort_n + 1))
    ort "$f" || { ort_bad=$((ort_bad + 1)); echo "onnxruntime refuses $f: $(tail -n 2 "$tmp/ort.out")"; }
  done
  [ $ort_bad -eq 0 ] && ok "onnxruntime runs all $ort_n outputs" || bad "onnxruntime refuses $ort_bad of $ort_n outputs"
else
  skip "onnxruntime-node not set up (step 45)"
fi

# ---- C. small things ------------------------------------------------------------------
c="$tmp/c"
mkdir -p "$c/dir"
"$cli" convert "$m" "$c/dir" --to fp16 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && [ -z "$(ls -A "$c/dir")" ] && grep -q 'is a directory' "$tmp/e" && ok "convert IN DIR: exit 2 before any work, nothing written in DIR" || bad "convert IN DIR: exit $r, $(ls -A "$c/dir") $(cat "$tmp/e")"
(cd "$c" && "$cli" convert "$m" - > "$tmp/o" 2> "$tmp/e"); r=$?
[ $r -eq 2 ] && [ ! -e "$c/-" ] && grep -q "'-'" "$tmp/e" && ok "OUT '-': exit 2, no file named '-'" || bad "OUT '-': exit $r"
(cd "$c" && "$cli" convert - x.onnx < "$m" > "$tmp/o" 2> "$tmp/e"); r=$?
[ $r -eq 2 ] && [ ! -e "$c/x.onnx" ] && ok "IN '-': exit 2" || bad "IN '-': exit $r $(cat "$tmp/e")"
"$cli" info - < "$m" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && ok "info -: exit 2" || bad "info -: exit $r"
printf 'name,value\na,1\n' > "$c/table.csv"
"$cli" info "$c/table.csv" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 1 ] && grep -q 'is this an ONNX model?' "$tmp/e" && ok "a file that is not ONNX: exit 1 with a hint" || bad "not ONNX: exit $r $(cat "$tmp/e")"
"$cli" convert "$m" "$c/sel.onnx" --to fp16 --select 'op:' > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && [ ! -e "$c/sel.onnx" ] && ok "--select 'op:' (refused by the library): exit 2" || bad "--select 'op:': exit $r $(cat "$tmp/e")"
"$cli" split "$m" "$c/loc.onnx" --location ../x.data > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && [ ! -e "$c/loc.onnx" ] && ok "--location ../x.data (refused by the library): exit 2" || bad "--location ..: exit $r $(cat "$tmp/e")"
if "$PY" -c 'import onnx' 2> /dev/null; then
  # an unsorted graph: the nodes of bert-tiny reversed
  "$PY" - "$m" "$c/unsorted.onnx" <<'EOF'
import sys, onnx
m = onnx.load(sys.argv[1])
nodes = list(m.graph.node)[::-1]
del m.graph.node[:]
m.graph.node.extend(nodes)
onnx.save(m, sys.argv[2])
EOF
  "$cli" check "$c/unsorted.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && head -n 1 "$tmp/o" | grep -q 'not topologically sorted.*--toposort' && [ "$(wc -l < "$tmp/o")" -gt 2 ] &&
    ok "check on an unsorted graph: one line first says so and how to fix it" || bad "check unsorted: exit $r $(head -n 2 "$tmp/o")"
  "$cli" convert "$c/unsorted.onnx" "$c/sorted.onnx" --toposort > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && "$cli" check "$c/sorted.onnx" > /dev/null && "$PY" -c "import onnx,sys; onnx.checker.check_model(sys.argv[1])" "$c/sorted.onnx" &&
    ok "convert --toposort sorts the graph (libonnxslim check and python's checker pass)" || bad "--toposort: exit $r $(cat "$tmp/e")"
  # Constant nodes with 4 KiB tensors
  "$PY" - "$c/const.onnx" <<'EOF'
import sys, numpy as np, onnx
from onnx import helper, numpy_helper, TensorProto
w = numpy_helper.from_array(np.arange(1024, dtype=np.float32).reshape(32, 32), "w")
n1 = helper.make_node("Constant", [], ["c"], value=w)
n2 = helper.make_node("MatMul", ["x", "c"], ["y"])
g = helper.make_graph([n1, n2], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 32])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32])])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
EOF
  const_ext() { "$PY" -c "import onnx,sys; m=onnx.load(sys.argv[1], load_external_data=False); print(m.graph.node[0].attribute[0].t.data_location)" "$1"; }
  "$cli" split "$c/const.onnx" "$c/k0.onnx" --threshold 0 > /dev/null 2>&1
  "$cli" split "$c/const.onnx" "$c/k1.onnx" --threshold 0 --constants > /dev/null 2>&1
  [ "$(const_ext "$c/k0.onnx")" = 0 ] && [ "$(const_ext "$c/k1.onnx")" = 1 ] &&
    [ "$("$cli" fingerprint "$c/k1.onnx")" = "$("$cli" fingerprint "$c/const.onnx")" ] &&
    ok "split --constants moves Constant tensors out (inline without it), same fingerprint" || bad "split --constants"
  # a model whose weights are all in Constant nodes: split says so instead of
  # writing a copy without a word
  "$cli" split "$c/const.onnx" "$c/k3.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q "^libonnxslim: note: 1 floating-point tensor of at least --threshold bytes (4096 bytes, 4.0 KiB) is in Constant nodes and stayed in the model file; --constants moves them to external data too$" "$tmp/e" &&
    ok "split of a model whose weights are Constants: a note counts them and names --constants" || bad "split Constants note (exit $r): $(cat "$tmp/e")"
  "$cli" split "$c/const.onnx" "$c/k4.onnx" --constants > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && ! grep -q 'Constant nodes' "$tmp/e" && "$cli" split "$c/const.onnx" "$c/k5.onnx" --threshold 8K > "$tmp/o" 2> "$tmp/e" &&
    ! grep -q 'Constant nodes' "$tmp/e" && ok "split --constants, or a threshold above them: no note" || bad "split Constants no note: $(cat "$tmp/e")"
  # MatMul weights held in Constant nodes are quantized as initializers are:
  # the same model as quantizing the weight stored as an initializer
  "$PY" - "$c/const.onnx" "$c/init.onnx" <<'EOF'
import sys, onnx
m = onnx.load(sys.argv[1])
n = m.graph.node[0]
t = n.attribute[0].t
t.name = n.output[0]
m.graph.initializer.append(t)
del m.graph.node[0]
onnx.save(m, sys.argv[2])
EOF
  qok=""
  for a in "--to int8" "--to int4 --format ort" "--to int8 --asymmetric"; do
    # shellcheck disable=SC2086
    "$cli" convert "$c/const.onnx" "$c/qc.onnx" $a > "$tmp/o" 2> "$tmp/e" || qok="$qok [$a: const exit $?: $(cat "$tmp/e")]"
    # shellcheck disable=SC2086
    "$cli" convert "$c/init.onnx" "$c/qi.onnx" $a > "$tmp/o" 2> "$tmp/e" || qok="$qok [$a: init exit $?]"
    [ "$("$cli" fingerprint "$c/qc.onnx")" = "$("$cli" fingerprint "$c/qi.onnx")" ] || qok="$qok [$a: fingerprints differ]"
    "$PY" -c "import onnx,sys; m=onnx.load(sys.argv[1]); onnx.checker.check_model(m); assert 'Constant' not in [n.op_type for n in m.graph.node]" "$c/qc.onnx" || qok="$qok [$a: checker]"
  done
  [ -z "$qok" ] && ok "--to int8/int4 of a MatMul weight in a Constant node: quantized, the same model as from an initializer" || bad "Constant weight quantization:$qok"
  rm -f "$c/qc.onnx"
  "$cli" convert "$c/const.onnx" "$c/qc.onnx" --to int4 > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && [ ! -e "$c/qc.onnx" ] && grep -q 'opset 21' "$tmp/e" &&
    ok "--to int4 of a Constant weight below opset 21: refused, nothing written" || bad "Constant int4 refusal (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$c/const.onnx" "$c/k2.onnx" --constants > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 2 ] && ok "convert --constants without --external-data: exit 2" || bad "convert --constants alone: exit $r"
  # weights inside If branches (a Constant and an initializer of a branch)
  # are not quantized (quantization covers the main graph): the command says
  # so, naming one and its If, instead of "nothing that can be quantized"
  "$PY" - "$c/ifw.onnx" <<'EOF'
import sys, numpy as np, onnx
from onnx import helper as h, numpy_helper as nh, TensorProto as T
w = nh.from_array(np.arange(1024, dtype=np.float32).reshape(32, 32), "w")
v = nh.from_array(np.ones((32, 32), np.float32), "v")
then_g = h.make_graph([h.make_node("Constant", [], ["w"], value=w), h.make_node("MatMul", ["x", "w"], ["a"])],
                      "then", [], [h.make_tensor_value_info("a", T.FLOAT, [1, 32])])
else_g = h.make_graph([h.make_node("MatMul", ["x", "v"], ["b"])], "else", [],
                      [h.make_tensor_value_info("b", T.FLOAT, [1, 32])], [v])
g = h.make_graph([h.make_node("If", ["cond"], ["y"], name="if1", then_branch=then_g, else_branch=else_g)], "g",
                 [h.make_tensor_value_info("x", T.FLOAT, [1, 32]), h.make_tensor_value_info("cond", T.BOOL, [])],
                 [h.make_tensor_value_info("y", T.FLOAT, [1, 32])])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), sys.argv[1])
EOF
  rm -f "$c/qf.onnx"
  "$cli" convert "$c/ifw.onnx" "$c/qf.onnx" --to int8 > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && cmp -s "$c/ifw.onnx" "$c/qf.onnx" &&
    grep -q "^libonnxslim: note: 2 tensors inside subgraphs were left as they were (e.g. '[vw]' in a subgraph of If 'if1'): quantization covers the main graph only$" "$tmp/e" &&
    ok "--to int8 of MatMul weights inside If branches: OUT a copy, a note says why (subgraphs not covered)" || bad "If-branch weights (exit $r): $(cat "$tmp/e")"
  rm -f "$c/qf.onnx"
  "$cli" convert "$c/ifw.onnx" "$c/qf.onnx" --to int8 --select w > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && [ ! -e "$c/qf.onnx" ] && grep -q "^libonnxslim: note: 2 tensors inside subgraphs were left as they were" "$tmp/e" &&
    ok "--to int8 --select of a weight inside an If branch: exit 1, nothing written, the same note" || bad "If-branch --select (exit $r): $(cat "$tmp/e")"
else
  skip "python onnx not installed: unsorted graph, --constants"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
