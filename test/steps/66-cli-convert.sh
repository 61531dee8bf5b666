# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim convert with dtype conversion: --gather-to (the published recipe),
# --to with --select, --min-size, --policy, --round, --saturate,
# --flush-subnormals, --report, --simplify; each result is inspected with python onnx
# (dtypes of initializers, Casts after Gathers, onnx.checker) and with
# `libonnxslim check`. Usage errors exit 2; a failure exits 1 with the library's
# message on stderr.
set -u
. test/step-lib.sh
m=test/data/bert-tiny.onnx
WE=roberta.embeddings.word_embeddings.weight

have_py=0
"$PY" -c 'import onnx, numpy' 2>/dev/null && have_py=1

# py SCRIPT ARGS...: runs python with the helpers below; exit 0 = pass.
cat > "$tmp/h.py" <<'EOF'
import sys, onnx, numpy as np
from onnx import numpy_helper
def load(p): return onnx.load(p)
def inits(m): return {t.name: t for t in m.graph.initializer}
def dtypes(m): return {t.name: t.data_type for t in m.graph.initializer}
def check(p): onnx.checker.check_model(p)
def bits16(t): return np.frombuffer(t.raw_data, dtype=np.uint16)
def f32(t): return numpy_helper.to_array(t).astype(np.float32).ravel()
def casts_after_gathers(m, tables):
    """Each Gather reading one of `tables` writes X_bf16/X_fp16 read only by a
    Cast(to=FLOAT) that produces the Gather's original output name."""
    nodes = list(m.graph.node)
    found = 0
    for n in nodes:
        if n.op_type != "Gather" or n.input[0] not in tables: continue
        out = n.output[0]
        readers = [c for c in nodes if out in c.input]
        assert len(readers) == 1 and readers[0].op_type == "Cast", (out, readers)
        to = [a.i for a in readers[0].attribute if a.name == "to"]
        assert to == [onnx.TensorProto.FLOAT], to
        assert out.rsplit("_", 1)[0] == readers[0].output[0], (out, readers[0].output)
        found += 1
    return found
EOF
py() { s=$1; shift; "$PY" -c "exec(open('$tmp/h.py').read())
$s" "$@"; }

# ---- help ---------------------------------------------------------------------
"$cli" convert --help > "$tmp/help" 2>&1; r=$?
miss=""
for o in --gather-to --to --select --exclude --min-size --policy --round --force --saturate --flush-subnormals \
         --report --external-data --threshold --align --location --per-tensor --checksum \
         --force-shape-inputs --also-single-file --allow-large; do
  grep -q -- "$o" "$tmp/help" || miss="$miss $o"
done
[ $r -eq 0 ] && [ -z "$miss" ] && ok "convert --help lists every option" || bad "convert --help exit $r, missing:$miss"

# ---- --gather-to (the recipe) ------------------------------------------------------
"$cli" convert "$m" "$tmp/g.onnx" --gather-to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/o" ] && [ ! -s "$tmp/e" ] && ok "--gather-to bf16: exit 0, quiet" || bad "--gather-to bf16 exit $r: $(cat "$tmp/o" "$tmp/e")"
"$cli" check "$tmp/g.onnx" > /dev/null 2>&1 && ok "--gather-to bf16: libonnxslim check passes" || bad "--gather-to bf16: check"
if [ $have_py -eq 1 ]; then
  py '
m = load(sys.argv[1]); d = dtypes(m)
assert d[sys.argv[2]] == 16, d[sys.argv[2]]
tables = {n.input[0] for n in m.graph.node if n.op_type == "Gather" and n.input[0] in d and d[n.input[0]] == 16}
assert casts_after_gathers(m, tables) == len(tables) >= 1
check(sys.argv[1])' "$tmp/g.onnx" "$WE" && ok "--gather-to bf16: word embedding is BF16 (16), Cast(FLOAT) after each Gather, checker ok" || bad "--gather-to bf16 content"
  py '
o, g = inits(load(sys.argv[1])), inits(load(sys.argv[2]))
for k in o:
    if g[k].data_type == 16: continue
    assert o[k].SerializeToString() == g[k].SerializeToString(), k
assert len(g[sys.argv[3]].raw_data) * 2 == len(numpy_helper.to_array(o[sys.argv[3]]).tobytes())' "$m" "$tmp/g.onnx" "$WE" &&
    ok "--gather-to bf16: table halves, other initializers unchanged" || bad "--gather-to bf16: other tensors"
else
  skip "python3-onnx not available at $PY"
fi

"$cli" convert "$m" "$tmp/g16.onnx" --gather-to fp16 && "$cli" check "$tmp/g16.onnx" > /dev/null &&
  { [ $have_py -eq 0 ] || py 'assert dtypes(load(sys.argv[1]))[sys.argv[2]] == 10' "$tmp/g16.onnx" "$WE"; } &&
  ok "--gather-to fp16: table is FLOAT16 (10)" || bad "--gather-to fp16"

"$cli" convert "$m" "$tmp/sel.onnx" --to bf16 --select op:Gather:0 &&
  [ "$("$cli" fingerprint "$tmp/sel.onnx")" = "$("$cli" fingerprint "$tmp/g.onnx")" ] &&
  ok "--to bf16 --select op:Gather:0 equals --gather-to bf16 (fingerprint)" || bad "op:Gather:0 vs --gather-to"

# ---- --round --------------------------------------------------------------------
"$cli" convert "$m" "$tmp/trunc.onnx" --gather-to bf16 --round truncate || bad "--round truncate exit"
"$cli" convert "$m" "$tmp/near.onnx" --gather-to bf16 --round nearest || bad "--round nearest exit"
if [ $have_py -eq 1 ]; then
  py '
src = f32(inits(load(sys.argv[1]))[sys.argv[4]]).view(np.uint32)
t = bits16(inits(load(sys.argv[2]))[sys.argv[4]]); n = bits16(inits(load(sys.argv[3]))[sys.argv[4]])
assert (t == (src >> 16)).all()
rne = ((src + 0x7FFF + ((src >> 16) & 1)) >> 16).astype(np.uint16)
assert (n == rne).all() and (n != t).any()' "$m" "$tmp/trunc.onnx" "$tmp/near.onnx" "$WE" &&
    ok "--round truncate keeps the top 16 bits; nearest rounds to even (default)" || bad "--round bits"
  cmp -s "$tmp/near.onnx" "$tmp/g.onnx" && ok "--round nearest is the default" || bad "--round nearest differs from default"
fi

# ---- --to, --select, --min-size, --policy ------------------------------------------------
if [ $have_py -eq 1 ]; then
  "$cli" convert "$m" "$tmp/all16.onnx" --to fp16 &&
    py '
o, c = dtypes(load(sys.argv[1])), dtypes(load(sys.argv[2]))
assert [k for k in o if o[k] == 1] and all(c[k] == 10 for k in o if o[k] == 1), c
assert all(c[k] == o[k] for k in o if o[k] != 1)
check(sys.argv[2])' "$m" "$tmp/all16.onnx" && ok "--to fp16 without --select: every FLOAT initializer, checker ok" || bad "--to fp16 all"

  "$cli" convert "$m" "$tmp/one.onnx" --to fp16 --select classifier.dense.weight &&
    py '
o, c = dtypes(load(sys.argv[1])), dtypes(load(sys.argv[2]))
assert {k for k in o if o[k] != c[k]} == {"classifier.dense.weight"} and c["classifier.dense.weight"] == 10
check(sys.argv[2])' "$m" "$tmp/one.onnx" && ok "--select NAME converts that tensor only" || bad "--select NAME"

  "$cli" convert "$m" "$tmp/glob.onnx" --to bf16 --select 'roberta.encoder.*.weight' --select classifier.out_proj.bias &&
    py '
import fnmatch
o, c = dtypes(load(sys.argv[1])), dtypes(load(sys.argv[2]))
want = {k for k in o if o[k] == 1 and (fnmatch.fnmatchcase(k, "roberta.encoder.*.weight") or k == "classifier.out_proj.bias")}
assert want and {k for k in o if o[k] != c[k]} == want, ({k for k in o if o[k] != c[k]} ^ want)' "$m" "$tmp/glob.onnx" &&
    ok "--select GLOB, repeated: union of the matches" || bad "--select glob"

  "$cli" convert "$m" "$tmp/min.onnx" --to fp16 --min-size 2K &&
    py '
o, c = inits(load(sys.argv[1])), dtypes(load(sys.argv[2]))
big = {k for k, t in o.items() if t.data_type == 1 and numpy_helper.to_array(t).nbytes >= 2048}
assert big and {k for k in o if o[k].data_type != c[k]} == big' "$m" "$tmp/min.onnx" &&
    ok "--min-size 2K: only tensors of at least 2048 bytes" || bad "--min-size"

  "$cli" convert "$m" "$tmp/cb.onnx" --gather-to bf16 --policy cast-before &&
    py '
m = load(sys.argv[1]); prod = {o: n for n in m.graph.node for o in n.output}
g = [n for n in m.graph.node if n.op_type == "Gather" and n.input[0] in prod and prod[n.input[0]].op_type == "Cast"]
assert g and all(prod[n.input[0]].input[0] == sys.argv[2] or dtypes(m)[prod[n.input[0]].input[0]] == 16 for n in g)
assert dtypes(m)[sys.argv[2]] == 16
check(sys.argv[1])' "$tmp/cb.onnx" "$WE" && ok "--policy cast-before: Cast(FLOAT) feeds the Gather" || bad "--policy cast-before"

  # storage-only where the Gathers pass the converted rows on: the library
  # refuses it (schema check), also with --no-verify; nothing written
  "$cli" convert "$m" "$tmp/so.onnx" --gather-to bf16 --policy storage-only --no-verify 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && [ ! -e "$tmp/so.onnx" ] &&
    grep -q "^libonnxslim: cannot convert '$m': storage-only conversion to BFLOAT16 refused: .*node\[0\] '/embeddings/word_embeddings/Gather' output\[0\] .*'output' of Gather is FLOAT, but T is BFLOAT16 .*\[type_constraint\] (and 1 more problem); the policies cast-before and cast-after-gather insert Casts instead$" "$tmp/e" &&
    ok "--policy storage-only --no-verify: refused by the conversion (the check's message), nothing written" || bad "--policy storage-only --no-verify (exit $r): $(cat "$tmp/e")"

  "$cli" convert "$m" "$tmp/cag.onnx" --gather-to bf16 --policy cast-after-gather && cmp -s "$tmp/cag.onnx" "$tmp/g.onnx" &&
    ok "--policy cast-after-gather is the default" || bad "--policy cast-after-gather"

  # ---- --saturate, --flush-subnormals on a model with extreme values ---------------
  "$PY" - "$tmp/x.onnx" <<'EOF'
import sys, numpy as np
from onnx import TensorProto as T, helper as h, numpy_helper
w = numpy_helper.from_array(np.array([1e6, -1e6, 3e-6, 1.5, np.nan], dtype=np.float32), "W")
g = h.make_graph([h.make_node("Add", ["X", "W"], ["Y"])], "g",
                 [h.make_tensor_value_info("X", T.FLOAT, [5])], [h.make_tensor_value_info("Y", T.FLOAT, [5])], [w])
open(sys.argv[1], "wb").write(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]).SerializeToString())
EOF
  wbits() { py 'print(" ".join("%04x" % b for b in bits16(inits(load(sys.argv[1]))["W"])[:4]))' "$1"; }
  "$cli" convert "$tmp/x.onnx" "$tmp/xk.onnx" --to fp16 --report > "$tmp/rk" 2> "$tmp/e" &&
    py 'assert dtypes(load(sys.argv[1]))["W"] == 1' "$tmp/xk.onnx" && grep -q "^libonnxslim: note: kept 'W' as FLOAT: 2 of its 5 values are beyond FLOAT16's range (+-65504) and would become +-Inf; --force converts it anyway$" "$tmp/e" &&
    ok "fp16 default: a tensor with values beyond FP16's range stays FLOAT, a note names it" || bad "fp16 default keep: $(cat "$tmp/e")"
  "$cli" convert "$tmp/x.onnx" "$tmp/x0.onnx" --to fp16 --force --report > "$tmp/r0" &&
    [ "$(wbits "$tmp/x0.onnx")" = "7c00 fc00 0032 3e00" ] && ok "fp16 --force: overflow is Inf, subnormal kept" || bad "fp16 --force: $(wbits "$tmp/x0.onnx")"
  "$cli" convert "$tmp/x.onnx" "$tmp/x1.onnx" --to fp16 --force --saturate --report > "$tmp/r1" &&
    [ "$(wbits "$tmp/x1.onnx")" = "7bff fbff 0032 3e00" ] && ok "--force --saturate: overflow gives +-65504" || bad "--saturate: $(wbits "$tmp/x1.onnx")"
  "$cli" convert "$tmp/x.onnx" "$tmp/x2.onnx" --to fp16 --force --flush-subnormals --report > "$tmp/r2" &&
    [ "$(wbits "$tmp/x2.onnx")" = "7c00 fc00 0000 3e00" ] && ok "--flush-subnormals: subnormal result becomes 0" || bad "--flush-subnormals: $(wbits "$tmp/x2.onnx")"
  # the report row of W: elements, bytes, to_inf, saturated, flushed, nan
  r0=$(grep -E '^ +W ' "$tmp/r0" | sed 's/  */ /g'); r1=$(grep -E '^ +W ' "$tmp/r1" | sed 's/  */ /g'); r2=$(grep -E '^ +W ' "$tmp/r2" | sed 's/  */ /g')
  echo "$r0" | grep -q 'W FLOAT -> FLOAT16 5 20 -> 10 2 0 0 1 ' &&
    echo "$r1" | grep -q 'W FLOAT -> FLOAT16 5 20 -> 10 0 2 0 1 ' &&
    echo "$r2" | grep -q 'W FLOAT -> FLOAT16 5 20 -> 10 2 0 1 1 ' &&
    ok "--report counts to_inf / saturated / flushed / nan" || bad "report counts: '$r0' '$r1' '$r2'"
else
  skip "python checks of --to, --select, --min-size, --policy, --saturate, --flush-subnormals"
fi

# ---- values the conversion damages: warnings on stderr, --exclude -------------------
if [ $have_py -eq 1 ]; then
  # BatchNorm variances of 1e7 (FP16 overflow), a mean of 1e-9 (flushed), a
  # Constant 2^20 (overflow); "cast" is read only by a Cast (storage-only is fine)
  "$PY" - "$tmp/dmg.onnx" "$tmp/dmg99.onnx" <<'EOF'
import sys, numpy as np
from onnx import TensorProto as T, helper as h, numpy_helper as nh
f = lambda v, n: nh.from_array(np.array(v, dtype=np.float32), n)
nodes = [h.make_node("BatchNormalization", ["X", "bn.scale", "bn.bias", "bn.mean", "bn.var"], ["B"]),
         h.make_node("Constant", [], ["big"], value=f([2.0 ** 20], "big")),
         h.make_node("Div", ["B", "big"], ["D"]),
         h.make_node("Cast", ["cast"], ["C"], to=T.FLOAT),
         h.make_node("Add", ["D", "C"], ["Y"])]
g = h.make_graph(nodes, "g", [h.make_tensor_value_info("X", T.FLOAT, [1, 4, 2])],
                 [h.make_tensor_value_info("Y", T.FLOAT, [1, 4, 2])],
                 [f([1, 1, 1, 1], "bn.scale"), f([0, 0, 0, 0], "bn.bias"), f([1e-9, 0, 0.5, 0], "bn.mean"),
                  f([1e7, 2.0, 1e7, 0.5], "bn.var"), f([[0.25, 0.5]] * 4, "cast")])
open(sys.argv[1], "wb").write(h.make_model(g, opset_imports=[h.make_opsetid("", 15)]).SerializeToString())
# the same at opset 99, newer than the schema tables (onnx 1.23.2: 28): nothing checks the types
open(sys.argv[2], "wb").write(h.make_model(g, opset_imports=[h.make_opsetid("", 99)]).SerializeToString())
EOF
  # by default the tensors that would overflow keep their type: a note
  # names each; the flushed mean is counted by --report only
  "$cli" convert "$tmp/dmg.onnx" "$tmp/dk.onnx" --to fp16 > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && [ ! -s "$tmp/o" ] && ! grep -q 'warning: converting' "$tmp/e" && ! grep -q 'flushed' "$tmp/e" &&
    grep -q "^libonnxslim: note: kept 'bn.var' as FLOAT: 2 of its 4 values are beyond FLOAT16's range (+-65504) and would become +-Inf; --force converts it anyway$" "$tmp/e" &&
    grep -q "^libonnxslim: note: kept 'big' as FLOAT: 1 of its 1 value is beyond FLOAT16's range" "$tmp/e" &&
    py '
m = load(sys.argv[1]); d = dtypes(m)
assert d["bn.var"] == 1 and d["bn.mean"] == 10 and d["bn.scale"] == 10, d
k = [n.attribute[0].t.data_type for n in m.graph.node if n.op_type == "Constant"]
assert k == [1], k
check(sys.argv[1])' "$tmp/dk.onnx" &&
    ok "--to fp16: bn.var and the 2^20 Constant keep FLOAT, a note names each, no warning for a flushed value" || bad "keep notes (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/dk2.onnx" --to fp16 --saturate > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q "^libonnxslim: note: kept 'bn.var' as FLOAT: 2 of its 4 values are beyond FLOAT16's range (+-65504) and would saturate;" "$tmp/e" &&
    cmp -s "$tmp/dk.onnx" "$tmp/dk2.onnx" && ok "--saturate without --force: the same tensors kept (65504 is no repair)" || bad "--saturate keep (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/dk3.onnx" --to fp16 --report > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q '^kept 2 tensors in their type (values out of the target type.s range; --force converts them):$' "$tmp/o" &&
    grep -Eq '^ +bn.var +FLOAT +4 +2 +0$' "$tmp/o" && grep -Eq '^ +big +FLOAT +1 +1 +0$' "$tmp/o" &&
    grep -Eq '^ +bn.mean +FLOAT -> FLOAT16 +4 +16 -> 8 +0 +0 +1 ' "$tmp/o" &&
    ok "--report: the kept tensors listed with their would-be Inf counts; the flushed value counted" || bad "--report kept (exit $r): $(cat "$tmp/o")"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/dk4.onnx" --to fp16 --json > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && py '
import json
c = json.load(open(sys.argv[1]))["conversion"]
assert [(k["name"], k["type"], k["elements"], k["to_inf"], k["saturated"]) for k in c["kept"]] == [("bn.var", "FLOAT", 4, 2, 0), ("big", "FLOAT", 1, 1, 0)], c["kept"]
assert "bn.var" not in [t["name"] for t in c["tensors"]]' "$tmp/o" && ok "--json: conversion.kept lists them" || bad "--json kept (exit $r): $(cat "$tmp/o" "$tmp/e")"
  # --force: the old behaviour, with the strong warning
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d0.onnx" --to fp16 --force > "$tmp/o" 2> "$tmp/e"; r=$?
  cat "$tmp/e"
  [ $r -eq 0 ] && [ ! -s "$tmp/o" ] && grep -q '^libonnxslim: warning: converting to FLOAT16 changed values beyond rounding in 2 tensors: 3 became +-Inf$' "$tmp/e" &&
    grep -q '^  bn.var (4 values): 2 became +-Inf$' "$tmp/e" && grep -q '^  big (1 value): 1 became +-Inf$' "$tmp/e" &&
    ! grep -q 'bn.mean' "$tmp/e" && grep -q -- 'outputs may change a lot: without --force' "$tmp/e" &&
    ok "--to fp16 --force: warning names the Inf tensors and counts, not the flushed one" ||
    bad "damage warning (exit $r)"
  [ "$(grep -n '^  [^ ]* ([0-9]* values*):' "$tmp/e" | cut -d' ' -f3 | tr '\n' ' ')" = "bn.var big " ] &&
    ok "damage warning: worst tensors first" || bad "damage warning order: $(grep '^  ' "$tmp/e" | tr '\n' '|')"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d1.onnx" --to fp16 --force --saturate > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q 'in 2 tensors: 3 saturated to +-65504$' "$tmp/e" &&
    ok "--force --saturate: the warning counts saturated values" || bad "--saturate warning: $(cat "$tmp/e")"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d2.onnx" --to fp16 --exclude bn.var --exclude 'b?g' --exclude 'op:BatchNormalization:3' > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && ! grep -q 'changed values' "$tmp/e" && ! grep -q -- 'kept' "$tmp/e" &&
    py '
m = load(sys.argv[1]); d = dtypes(m)
assert d["bn.var"] == 1 and d["bn.mean"] == 1 and d["bn.scale"] == 10 and d["cast"] == 10, d
k = [n.attribute[0].t.data_type for n in m.graph.node if n.op_type == "Constant"]
assert k == [1], k
check(sys.argv[1])' "$tmp/d2.onnx" && ok "--exclude NAME / GLOB / op:TYPE:INDEX: those stay FLOAT, no warning" || bad "--exclude (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d3.onnx" --to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && ! grep -q 'changed values' "$tmp/e" && ok "--to bf16 of the same model: nothing beyond rounding, no warning" || bad "bf16 warning: $(cat "$tmp/e")"
  # storage-only at an opset the schema tables do not know (nothing refuses
  # it): the command warns when a converted tensor is read where FLOAT is expected
  "$cli" convert "$tmp/dmg99.onnx" "$tmp/d4.onnx" --to bf16 --policy storage-only --select bn.scale --no-verify > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q '^libonnxslim: warning: --policy storage-only: 1 converted tensor now BFLOAT16 is read where FLOAT is expected' "$tmp/e" &&
    grep -q "^  e.g. 'bn.scale' at input 1 of BatchNormalization" "$tmp/e" &&
    ok "--policy storage-only at opset 99 (schemas unchecked): warns, naming a node that reads the tensor" || bad "storage-only warning (exit $r): $(cat "$tmp/e")"
  # a converted tensor an If's branches capture: the If reads it, inside a subgraph
  "$PY" - "$tmp/cap99.onnx" <<'EOF'
import sys, numpy as np
from onnx import TensorProto as T, helper as h, numpy_helper as nh
br = lambda n: h.make_graph([h.make_node("Relu", ["s"], [n])], n, [], [h.make_tensor_value_info(n, T.FLOAT, [2])])
g = h.make_graph([h.make_node("If", ["cond"], ["Y"], name="if1", then_branch=br("a"), else_branch=br("b"))], "g",
                 [h.make_tensor_value_info("cond", T.BOOL, [])], [h.make_tensor_value_info("Y", T.FLOAT, [2])],
                 [nh.from_array(np.array([1, 2], dtype=np.float32), "s")])
open(sys.argv[1], "wb").write(h.make_model(g, opset_imports=[h.make_opsetid("", 99)]).SerializeToString())
EOF
  "$cli" convert "$tmp/cap99.onnx" "$tmp/cap.onnx" --to bf16 --policy storage-only --no-verify > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q "^  e.g. 's' read inside a subgraph of If if1$" "$tmp/e" &&
    ok "--policy storage-only of a tensor a subgraph captures: the warning names the If" || bad "storage-only capture warning (exit $r): $(cat "$tmp/e")"
  # a storage-only conversion whose readers expect FLOAT at a checked opset:
  # the conversion refuses it with the check's message, exit 1, nothing written
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d6.onnx" --to bf16 --policy storage-only --select bn.scale > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && [ ! -e "$tmp/d6.onnx" ] && grep -q "^libonnxslim: cannot convert '.*dmg.onnx': storage-only conversion to BFLOAT16 refused: .*graph 'g' node\[0\] (BatchNormalization) input\[[0-9]\] .*\[type_constraint\]" "$tmp/e" &&
    ! grep -q -- '--verify:' "$tmp/e" &&
    ok "storage-only conversion a schema forbids: refused by the conversion with the check's message, nothing written" || bad "storage-only refused (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d7.onnx" --to bf16 --policy storage-only --select bn.scale --no-verify > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && [ ! -e "$tmp/d7.onnx" ] && grep -q "storage-only conversion to BFLOAT16 refused" "$tmp/e" &&
    ok "--no-verify does not make such a storage-only model writable" || bad "storage-only --no-verify (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$m" "$tmp/so3.onnx" --gather-to bf16 --policy storage-only --external-data --threshold 0 > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && [ ! -e "$tmp/so3.onnx" ] && [ ! -e "$tmp/so3.onnx.data" ] && grep -q "refused" "$tmp/e" &&
    ok "refused storage-only with --external-data: neither the model nor its data file written" || bad "storage-only external (exit $r): $(ls "$tmp" | grep so3) $(cat "$tmp/e")"
  "$cli" convert "$m" "$tmp/v.onnx" --gather-to bf16 --verify > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && cmp -s "$tmp/v.onnx" "$tmp/g.onnx" && ok "--verify on the recipe conversion: passes, same output" || bad "--verify recipe (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d5.onnx" --to bf16 --policy storage-only --select cast > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && ! grep -q 'storage-only' "$tmp/e" && py 'check(sys.argv[1])' "$tmp/d5.onnx" &&
    ok "--policy storage-only of a tensor only a Cast reads: no storage-only warning, checker ok" || bad "storage-only Cast (exit $r): $(cat "$tmp/e")"
  grep -q "^libonnxslim: warning: 1 16-bit initializer (16 B) is read only by a Cast to FLOAT" "$tmp/e" && grep -q "^  e.g. 'cast'$" "$tmp/e" &&
    ok "--policy storage-only of a tensor only a Cast to FLOAT reads: the fold-back warning names it" || bad "storage-only fold-back: $(cat "$tmp/e")"
  rm -f "$tmp/d4.onnx"
  "$cli" convert "$tmp/dmg99.onnx" "$tmp/d4.onnx" --to bf16 --policy storage-only --select bn.scale --no-verify > "$tmp/o" 2> "$tmp/e"
  [ -e "$tmp/d4.onnx" ] && ! grep -q 'read only by a Cast' "$tmp/e" && ok "a 16-bit tensor a BatchNormalization reads: no fold-back warning" || bad "fold-back on BatchNormalization: $(cat "$tmp/e")"
  # --gather-to on a model without a Gather table: "all the tables" found
  # none, which is not an error (batch scripts over many models): exit 0, OUT
  # a copy, a note on stderr, --report and --json say 0
  rm -f "$tmp/d6.onnx"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d6.onnx" --gather-to bf16 --report > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q '^libonnxslim: note: nothing converted: .*no Gather table' "$tmp/e" && cmp -s "$tmp/dmg.onnx" "$tmp/d6.onnx" &&
    grep -q '^converted 0 tensors:$' "$tmp/o" &&
    ok "--gather-to on a model without a Gather table: exit 0, a note, OUT a copy, --report says 0" || bad "--gather-to no table (exit $r): $(cat "$tmp/o" "$tmp/e")"
  rm -f "$tmp/d6.onnx"
  # (the note, as for bf16, says the model has no Gather table: the user gave
  # no selection, so it names none)
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d6.onnx" --gather-to int8 --json > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q '^libonnxslim: note: nothing converted: .*no Gather table that can be quantized to INT8' "$tmp/e" &&
    ! grep -q 'selection' "$tmp/e" && cmp -s "$tmp/dmg.onnx" "$tmp/d6.onnx" &&
    py '
import json
c = json.load(open(sys.argv[1]))["conversion"]
assert c["tensors"] == [] and c["total"]["tensors"] == 0 and c["kept"] == [], c' "$tmp/o" &&
    ok "--gather-to int8 without a Gather table: exit 0, OUT a copy, --json conversion with 0 tensors" || bad "--gather-to int8 no table (exit $r): $(cat "$tmp/o" "$tmp/e")"
  rm -f "$tmp/d6.onnx"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d6.onnx" --to int4 --allow-unpacked > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q "^libonnxslim: note: nothing converted: '.*dmg.onnx' has no tensor that can be quantized" "$tmp/e" && cmp -s "$tmp/dmg.onnx" "$tmp/d6.onnx" &&
    ok "--to int4 on a model with nothing to quantize: exit 0, a note, OUT a copy" || bad "--to int4 nothing (exit $r): $(cat "$tmp/e")"
  rm -f "$tmp/d6.onnx"
  "$cli" convert "$tmp/dmg.onnx" "$tmp/d6.onnx" --to int8 --select bn.var > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && grep -q "selection 'bn.var' matches no tensor that can be quantized" "$tmp/e" && [ ! -e "$tmp/d6.onnx" ] &&
    ok "--to int8 --select NAME that cannot be quantized: exit 1, nothing written" || bad "--to int8 --select (exit $r): $(cat "$tmp/e")"
else
  skip "python checks of conversion warnings and --exclude"
fi

# ---- values beyond FP16's range, run in onnxruntime: kept (default) vs --force ---------
# A BatchNorm variance of 9.8e7 and a 2^20 Constant inside an If branch: by
# default both stay FLOAT and the outputs match FP32; --force turns them into
# Inf, as before. A model whose only damage is one subnormal: no warning.
if [ $have_py -eq 1 ] && command -v node >/dev/null 2>&1 && . test/ort-setup.sh && ort_setup >/dev/null; then
  "$PY" - "$tmp/bn.onnx" "$tmp/sub.onnx" <<'EOF'
import sys, numpy as np
from onnx import TensorProto as T, helper as h, numpy_helper as nh
f = lambda v, n: nh.from_array(np.array(v, dtype=np.float32), n)
C = 4
then_g = h.make_graph([h.make_node("Constant", [], ["k"], value=f([2.0 ** 20], "k")),
                       h.make_node("Mul", ["B", "k"], ["Z1"])], "then_g", [],
                      [h.make_tensor_value_info("Z1", T.FLOAT, [1, C, 3])])
else_g = h.make_graph([h.make_node("Identity", ["B"], ["Z2"])], "else_g", [],
                      [h.make_tensor_value_info("Z2", T.FLOAT, [1, C, 3])])
nodes = [h.make_node("BatchNormalization", ["X", "bn.scale", "bn.bias", "bn.mean", "bn.var"], ["B"]),
         h.make_node("If", ["cond"], ["Y"], then_branch=then_g, else_branch=else_g)]
g = h.make_graph(nodes, "g", [h.make_tensor_value_info("X", T.FLOAT, [1, C, 3]),
                              h.make_tensor_value_info("cond", T.BOOL, [])],
                 [h.make_tensor_value_info("Y", T.FLOAT, [1, C, 3])],
                 [f([1.0, 0.5, 2.0, 1.0], "bn.scale"), f([0.1, 0, -0.2, 0.3], "bn.bias"),
                  f([2000.0, 0.0, 0.5, 1.0], "bn.mean"), f([9.8e7, 2.0, 0.25, 1.0], "bn.var")])
open(sys.argv[1], "wb").write(h.make_model(g, opset_imports=[h.make_opsetid("", 15)]).SerializeToString())
g = h.make_graph([h.make_node("Add", ["X", "W"], ["Y"])], "g", [h.make_tensor_value_info("X", T.FLOAT, [4])],
                 [h.make_tensor_value_info("Y", T.FLOAT, [4])], [f([1e-7, 0.5, 1.5, -2.0], "W")])
open(sys.argv[2], "wb").write(h.make_model(g, opset_imports=[h.make_opsetid("", 15)]).SerializeToString())
EOF
  "$cli" convert "$tmp/bn.onnx" "$tmp/bn16.onnx" --to fp16 > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q "^libonnxslim: note: kept 'bn.var' as FLOAT: 1 of its 4 values is beyond FLOAT16's range" "$tmp/e" &&
    grep -q "^libonnxslim: note: kept 'k' as FLOAT: 1 of its 1 value is beyond FLOAT16's range (+-65504) and would become +-Inf" "$tmp/e" &&
    ! grep -q 'warning: converting' "$tmp/e" && ok "BatchNorm variance 9.8e7 and If-branch 2^20 to fp16: both kept, a note names each" || bad "bn keep (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$tmp/bn.onnx" "$tmp/bn16f.onnx" --to fp16 --force > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -q 'changed values beyond rounding in 2 tensors: 2 became +-Inf' "$tmp/e" && ok "--force: both converted, the warning says Inf" || bad "bn --force (exit $r): $(cat "$tmp/e")"
  jobs=""
  for c in 1 0; do
    for v in bn bn16 bn16f; do
      jobs="$jobs{\"model\": \"$tmp/$v.onnx\", \"out\": \"$tmp/$v.$c.json\", \"feeds\": {\"X\": {\"type\": \"float32\", \"dims\": [1, 4, 3], \"data\": [12000, 2100, -7000, 0.5, 1, -1, 0.25, 0.5, 1, 3, 1, -2]}, \"cond\": {\"type\": \"bool\", \"dims\": [], \"data\": [$c]}}},"
    done
  done
  echo "[${jobs%,}]" > "$tmp/jobs.json"
  if node test/convert/ort_run.js "$tmp/jobs.json" 2> "$tmp/e"; then
    "$PY" - "$tmp" <<'EOF' > "$tmp/ortcmp" 2>&1; r=$?
import sys, json, numpy as np
d = sys.argv[1]
def out(v, c):
    j = json.load(open("%s/%s.%d.json" % (d, v, c)))
    assert j["ok"], j
    return np.array([float(x) for x in j["outputs"]["Y"]["data"]])
for c in (1, 0):
    ref, keep, force = out("bn", c), out("bn16", c), out("bn16f", c)
    rel = np.max(np.abs(keep - ref) / np.maximum(np.abs(ref), 1e-3))
    assert rel < 2e-3, (c, rel, ref, keep)
    # variance Inf: channel 0 becomes its bias, 0.1 (x 2^20 in the then branch)
    assert abs(force[0] - ref[0]) > 0.5 * abs(ref[0]) and abs(ref[0]) > 0.5, (c, ref, force)
    print("cond %d: max rel difference kept %.2e, channel 0: fp32 %g, kept %g, --force %g" % (c, rel, ref[0], keep[0], force[0]))
EOF
    cat "$tmp/ortcmp"
    [ $r -eq 0 ] && ok "onnxruntime: the default fp16 model's outputs match FP32 (both If branches); --force's do not" || bad "onnxruntime outputs: $(cat "$tmp/ortcmp")"
  else
    bad "onnxruntime run: $(cat "$tmp/e")"
  fi
  "$cli" convert "$tmp/sub.onnx" "$tmp/sub16.onnx" --to fp16 --flush-subnormals > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && ! grep -q 'warning: converting\|may change a lot\|kept\|flushed' "$tmp/e" && ok "one flushed subnormal: no warning on stderr" || bad "subnormal warning (exit $r): $(cat "$tmp/e")"
  "$cli" convert "$tmp/sub.onnx" "$tmp/sub16r.onnx" --to fp16 --flush-subnormals --report > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -Eq '^ +W +FLOAT -> FLOAT16 +4 +16 -> 8 +0 +0 +1 +0 ' "$tmp/o" && ok "one flushed subnormal: --report counts it" || bad "subnormal report (exit $r): $(cat "$tmp/o")"
else
  skip "onnxruntime checks of values beyond FP16's range (needs python3-onnx, node, onnxruntime-node)"
fi

# ---- --format ort without --block-size: onnxruntime's default, 128 ---------------------
if [ $have_py -eq 1 ]; then
  "$PY" - "$tmp/wide.onnx" <<'EOF'
import sys, numpy as np
from onnx import TensorProto as T, helper as h, numpy_helper as nh
w = nh.from_array(np.sin(np.arange(8 * 768, dtype=np.float32)).reshape(8, 768), "E")
g = h.make_graph([h.make_node("Gather", ["E", "ids"], ["Y"])], "g",
                 [h.make_tensor_value_info("ids", T.INT64, [3])],
                 [h.make_tensor_value_info("Y", T.FLOAT, [3, 768])], [w])
open(sys.argv[1], "wb").write(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]).SerializeToString())
EOF
  "$cli" convert "$tmp/wide.onnx" "$tmp/wide8.onnx" --gather-to int8 --format ort --report > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 0 ] && grep -Eq '^ +E +8 +128 ' "$tmp/o" && grep -q "^block size: --format ort without --block-size quantizes in blocks of 128 values, onnxruntime's default" "$tmp/o" &&
    py '
m = load(sys.argv[1])
n = [n for n in m.graph.node if n.op_type == "GatherBlockQuantized"]
assert len(n) == 1 and [a.i for a in n[0].attribute if a.name == "block_size"] == [128], n' "$tmp/wide8.onnx" &&
    ok "--format ort without --block-size on a 768-wide table: blocks of 128, --report says so" || bad "ort default block (exit $r): $(cat "$tmp/o" "$tmp/e")"
fi

# ---- the fold-back warning: a 16-bit initializer only a Cast to FLOAT reads ------------
fold='warning: [0-9]* 16-bit initializers* (.*) [a-z]* read only by a Cast to FLOAT'
"$cli" convert "$m" "$tmp/fb.onnx" --gather-to bf16 --policy cast-before > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/o" ] &&
  grep -q "^libonnxslim: warning: 2 16-bit initializers (.*) are read only by a Cast to FLOAT: onnxruntime's graph optimizations turn them back into FLOAT initializers" "$tmp/e" &&
  grep -q "^  e.g. '$WE'$" "$tmp/e" &&
  grep -q 'keeps the saving with the session config entry optimization.disable_specified_optimizers=ConstantFolding;FuseFp16InitializerToFp32NodeTransformer and the CPU memory arena off' "$tmp/e" &&
  grep -q 'docs/recipe.md' "$tmp/e" &&
  ok "--policy cast-before: warns that onnxruntime folds the Casts back, names the largest tensor and the session setting" ||
  bad "cast-before fold-back warning (exit $r): $(cat "$tmp/e")"
"$cli" convert "$m" "$tmp/fbq.onnx" --gather-to bf16 --policy cast-before -q > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/o" ] && [ ! -s "$tmp/e" ] && cmp -s "$tmp/fb.onnx" "$tmp/fbq.onnx" &&
  ok "-q: no fold-back warning, same output" || bad "-q fold-back (exit $r): $(cat "$tmp/e")"
"$cli" convert "$m" "$tmp/fbx.onnx" --gather-to fp16 --policy cast-before --external-data --threshold 0 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && grep -q "$fold" "$tmp/e" && ok "--gather-to fp16 --policy cast-before, external data: warns too" || bad "cast-before fp16 external (exit $r): $(cat "$tmp/e")"
nofold=""
for a in "--gather-to bf16" "--gather-to fp16" "--gather-to bf16 --policy cast-after-gather" \
         "--gather-to bf16 --round truncate --external-data --threshold 0"; do
  # shellcheck disable=SC2086
  "$cli" convert "$m" "$tmp/nf.onnx" $a > "$tmp/o" 2> "$tmp/e" || nofold="$nofold [$a: exit $?]"
  grep -q "$fold" "$tmp/e" && nofold="$nofold [$a: $(cat "$tmp/e")]"
  rm -f "$tmp/nf.onnx" "$tmp/nf.onnx.data"
done
[ -z "$nofold" ] && ok "the recipe and --policy cast-after-gather of Gather tables (1 file, external data): no warning" || bad "fold-back warning where none is due:$nofold"
"$cli" convert "$m" "$tmp/fa.onnx" --to fp16 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && grep -q "$fold" "$tmp/e" && ! grep -q "e.g. '$WE'" "$tmp/e" &&
  ok "--to fp16 (Cast after the Gathers, before the other readers): warns about the non-Gather tensors" || bad "--to fp16 fold-back (exit $r): $(cat "$tmp/e")"

# ---- --report ----------------------------------------------------------------------
"$cli" convert "$m" "$tmp/rep.onnx" --gather-to bf16 --report > "$tmp/o" 2> "$tmp/e"; r=$?
cat "$tmp/o"
[ $r -eq 0 ] && [ ! -s "$tmp/e" ] && grep -q '^converted [0-9]* tensors*:' "$tmp/o" &&
  grep -Eq '^ +tensor +from -> to +elements +bytes before -> after +to_inf +saturated +flushed +nan +max_abs_err +max_rel_err$' "$tmp/o" &&
  ok "--report: table header on stdout" || bad "--report header (exit $r)"
grep -Eq "^ +$WE +FLOAT -> BFLOAT16 +1600 +6400 -> 3200 +0 +0 +0 +0 " "$tmp/o" && grep -Eq '^ +total \([0-9]+\) ' "$tmp/o" &&
  ok "--report: row of the word embedding and a totals row" || bad "--report rows"
cmp -s "$tmp/rep.onnx" "$tmp/g.onnx" && ok "--report does not change the output" || bad "--report output differs"

# ---- plain saving is unchanged --------------------------------------------------------
"$cli" convert "$m" "$tmp/plain.onnx" --also-single-file "$tmp/plain2.onnx" && cmp -s "$m" "$tmp/plain.onnx" &&
  [ "$("$cli" fingerprint "$tmp/plain2.onnx")" = "$("$cli" fingerprint "$m")" ] &&
  ok "no conversion + --also-single-file: OUT byte-identical, second copy same fingerprint" || bad "plain + --also-single-file"
# a --select entry that matches nothing is an error, not a silent copy
"$cli" convert "$m" "$tmp/none.onnx" --to fp16 --select classifier.dense.weight --select no.such.tensor > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 1 ] && grep -q "selection 'no.such.tensor' matches no tensor" "$tmp/e" && [ ! -e "$tmp/none.onnx" ] &&
  ok "--select matching nothing: exit 1, names the entry, nothing written" || bad "--select matching nothing: exit $r: $(cat "$tmp/e")"
"$cli" convert "$m" "$tmp/none.onnx" --to fp16 --select 'op:Conv' > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 1 ] && grep -q "selection 'op:Conv' matches no tensor" "$tmp/e" && [ ! -e "$tmp/none.onnx" ] &&
  ok "--select op:TYPE of an op the model lacks: exit 1, nothing written" || bad "--select op:Conv exit $r"

# ---- sizes ---------------------------------------------------------------------------
"$cli" convert "$m" "$tmp/k.onnx" --to fp16 --min-size 1k && "$cli" convert "$m" "$tmp/b.onnx" --to fp16 --min-size 1024 &&
  cmp -s "$tmp/k.onnx" "$tmp/b.onnx" && ok "--min-size 1k = 1024" || bad "--min-size 1k"
"$cli" convert "$m" "$tmp/g1.onnx" --to fp16 --min-size 1G 2> "$tmp/e" && cmp -s "$m" "$tmp/g1.onnx" &&
  grep -q "^libonnxslim: note: nothing converted: '.*' has no floating-point tensor that converts to FLOAT16 of at least the --min-size$" "$tmp/e" &&
  ok "--min-size 1G: nothing that large, exit 0, a note" || bad "--min-size 1G: $(cat "$tmp/e")"

# ---- usage errors: exit 2, message on stderr, OUT not written --------------------------------
while IFS= read -r args; do
  rm -f "$tmp/u.onnx"
  # shellcheck disable=SC2086
  "$cli" convert "$m" "$tmp/u.onnx" $args > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 2 ] && [ -s "$tmp/e" ] && [ ! -e "$tmp/u.onnx" ] && ok "usage error '$args' exits 2" || bad "usage error '$args' exit $r"
done <<'EOF'
--to bf17
--to int16
--gather-to fp32
--gather-to
--to
--gather-to bf16 --to fp16
--to bf16 --policy sideways
--to bf16 --policy
--to bf16 --round up
--to fp16 --round truncate
--to bf16 --min-size 12Q
--to bf16 --min-size 1KB
--to bf16 --min-size -1
--to bf16 --min-size 1.5K
--to bf16 --min-size 99999999999999999999
--to bf16 --min-size 17179869184G
--to bf16 --min-size
--select classifier.dense.weight
--gather-to bf16 --select classifier.dense.weight
--exclude classifier.dense.weight
--to bf16 --exclude
--min-size 1K
--policy storage-only
--saturate
--flush-subnormals
--round nearest
--threshold 0
--align 64
--location x.bin
--per-tensor
--checksum
--force-shape-inputs
--external-data --align 3
--external-data --align 0
--external-data --threshold 1X
--external-data --per-tensor --location x.bin
--report=yes
--gather-to=fp8
EOF
"$cli" convert "$m" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && ok "convert with one argument exits 2" || bad "convert one argument exit $r"
"$cli" convert "$m" "$tmp/eq.onnx" --gather-to=bf16 && cmp -s "$tmp/eq.onnx" "$tmp/g.onnx" && ok "--gather-to=bf16 form" || bad "--opt=value form"
"$cli" convert "$m" "$tmp/cs.onnx" --gather-to BF16 && cmp -s "$tmp/cs.onnx" "$tmp/g.onnx" && ok "type names are case-insensitive" || bad "BF16 upper case"

# ---- failures: exit 1 (not 2), library message on stderr, nothing written ------------------
"$cli" convert /nonexistent.onnx "$tmp/f.onnx" --gather-to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -ne 0 ] && [ $r -ne 2 ] && grep -q "cannot load '/nonexistent.onnx'" "$tmp/e" && [ ! -e "$tmp/f.onnx" ] &&
  ok "unreadable input: exit $r, message on stderr" || bad "unreadable input exit $r"
"$cli" convert test/fuzz/corpus/len_past_end_top_graph.onnx "$tmp/f.onnx" --gather-to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -ne 0 ] && [ $r -ne 2 ] && grep -q 'truncated' "$tmp/e" && ok "malformed input: exit $r, library message" || bad "malformed input exit $r"
"$cli" split "$m" "$tmp/ext.onnx" > /dev/null 2>&1
"$cli" convert "$tmp/ext.onnx" "$tmp/f.onnx" --gather-to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
"$cli" convert "$m" "$tmp/f_inline.onnx" --gather-to bf16 > /dev/null 2>&1
# a table held in external data converts from its mapped file; the plain
# save stores it inline, so the result equals converting the inline model
[ $r -eq 0 ] && [ "$("$cli" fingerprint "$tmp/f.onnx")" = "$("$cli" fingerprint "$tmp/f_inline.onnx")" ] &&
  ok "converting a tensor held in external data gives the same model as inline" || bad "external input exit $r: $(cat "$tmp/e")"
"$cli" convert "$m" "$tmp/nodir/f.onnx" --gather-to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 1 ] && grep -q "cannot save" "$tmp/e" && ok "unwritable output: exit 1" || bad "unwritable output exit $r"

# a Gather without outputs (issue [attack] 2, point 1: strlen(NULL) while
# naming the Cast, SIGSEGV): every conversion that casts the rows back is
# refused (exit 1, the table and the missing output named), nothing
# written; `check` reports the node
g0=test/fuzz/regressions/gather_no_outputs.onnx
for opts in "--gather-to bf16" "--gather-to fp16" "--to fp16" "--to bf16" "--gather-to bf16 --round truncate"; do
  rm -f "$tmp/g0.onnx"
  # shellcheck disable=SC2086
  "$cli" convert "$g0" "$tmp/g0.onnx" $opts > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 1 ] && grep -q "Gather node reading table 'T' has no output" "$tmp/e" && [ ! -e "$tmp/g0.onnx" ] &&
    ok "convert $opts, a Gather without outputs: exit 1, refused, nothing written" ||
    bad "convert $opts, a Gather without outputs: exit $r: $(cat "$tmp/e")"
done
"$cli" check "$g0" > "$tmp/o" 2>&1; r=$?
[ $r -eq 1 ] && grep -q "Gather-13 has 1 to 1 outputs, the node has 0" "$tmp/o" &&
  ok "check reports the Gather without outputs" || bad "check on a Gather without outputs: exit $r: $(cat "$tmp/o")"

# ---- --simplify: simplify first, then convert: the same bytes as the two
# commands one after the other, fewer nodes than converting alone -----------------
"$cli" convert "$m" "$tmp/cs.onnx" --simplify --gather-to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
"$cli" simplify "$m" "$tmp/s1.onnx" > /dev/null 2>&1 && "$cli" convert "$tmp/s1.onnx" "$tmp/s2.onnx" --gather-to bf16 > /dev/null 2>&1 &&
  "$cli" convert "$m" "$tmp/c0.onnx" --gather-to bf16 > /dev/null 2>&1
if [ $r -eq 0 ] && cmp -s "$tmp/cs.onnx" "$tmp/s2.onnx"; then
  ok "convert --simplify --gather-to bf16: exit 0, the bytes of simplify then convert"
else
  bad "convert --simplify --gather-to bf16: exit $r, $(cmp "$tmp/cs.onnx" "$tmp/s2.onnx" 2>&1) $(cat "$tmp/e")"
fi
ns=$("$cli" info "$tmp/cs.onnx" 2>/dev/null | awk '/^nodes:/ {print $2; exit}')
n0=$("$cli" info "$tmp/c0.onnx" 2>/dev/null | awk '/^nodes:/ {print $2; exit}')
[ -n "$ns" ] && [ -n "$n0" ] && [ "$ns" -lt "$n0" ] && "$cli" check "$tmp/cs.onnx" > /dev/null 2>&1 &&
  ok "convert --simplify: $ns nodes against $n0 without it, check passes" ||
  bad "convert --simplify: nodes '$ns' against '$n0' without it, or check fails"

rm -rf "$tmp"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
