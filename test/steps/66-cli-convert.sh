# onnxslim convert with dtype conversion: --gather-to (the published recipe),
# --to with --select, --min-size, --policy, --round, --saturate,
# --flush-subnormals, --report; each result is inspected with python onnx
# (dtypes of initializers, Casts after Gathers, onnx.checker) and with
# `onnxslim check`. Usage errors exit 2; a failure exits 1 with the library's
# message on stderr.
set -u
B=${B:-build}
PY=/usr/bin/python3
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "skip $1"; }
cli="$B/onnxslim"
tmp=$(mktemp -d)
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
for o in --gather-to --to --select --min-size --policy --round --saturate --flush-subnormals \
         --report --external-data --threshold --align --location --per-tensor --checksum \
         --force-shape-inputs --also-single-file --allow-large; do
  grep -q -- "$o" "$tmp/help" || miss="$miss $o"
done
[ $r -eq 0 ] && [ -z "$miss" ] && ok "convert --help lists every option" || bad "convert --help exit $r, missing:$miss"

# ---- --gather-to (the recipe) ------------------------------------------------------
"$cli" convert "$m" "$tmp/g.onnx" --gather-to bf16 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/o" ] && [ ! -s "$tmp/e" ] && ok "--gather-to bf16: exit 0, quiet" || bad "--gather-to bf16 exit $r: $(cat "$tmp/o" "$tmp/e")"
"$cli" check "$tmp/g.onnx" > /dev/null 2>&1 && ok "--gather-to bf16: onnxslim check passes" || bad "--gather-to bf16: check"
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

  "$cli" convert "$m" "$tmp/so.onnx" --gather-to bf16 --policy storage-only &&
    py '
o, c = load(sys.argv[1]), load(sys.argv[2])
assert [n.op_type for n in o.graph.node] == [n.op_type for n in c.graph.node]
assert dtypes(c)[sys.argv[3]] == 16' "$m" "$tmp/so.onnx" "$WE" && ok "--policy storage-only: type changes, no Cast added" || bad "--policy storage-only"

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
  "$cli" convert "$tmp/x.onnx" "$tmp/x0.onnx" --to fp16 --report > "$tmp/r0" &&
    [ "$(wbits "$tmp/x0.onnx")" = "7c00 fc00 0032 3e00" ] && ok "fp16 default: overflow is Inf, subnormal kept" || bad "fp16 default: $(wbits "$tmp/x0.onnx")"
  "$cli" convert "$tmp/x.onnx" "$tmp/x1.onnx" --to fp16 --saturate --report > "$tmp/r1" &&
    [ "$(wbits "$tmp/x1.onnx")" = "7bff fbff 0032 3e00" ] && ok "--saturate: overflow gives +-65504" || bad "--saturate: $(wbits "$tmp/x1.onnx")"
  "$cli" convert "$tmp/x.onnx" "$tmp/x2.onnx" --to fp16 --flush-subnormals --report > "$tmp/r2" &&
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
"$cli" convert "$m" "$tmp/none.onnx" --to fp16 --select no.such.tensor > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && grep -q 'nothing converted' "$tmp/e" && cmp -s "$m" "$tmp/none.onnx" &&
  ok "selection matching nothing: exit 0, note on stderr, output identical" || bad "empty selection exit $r"

# ---- sizes ---------------------------------------------------------------------------
"$cli" convert "$m" "$tmp/k.onnx" --to fp16 --min-size 1k && "$cli" convert "$m" "$tmp/b.onnx" --to fp16 --min-size 1024 &&
  cmp -s "$tmp/k.onnx" "$tmp/b.onnx" && ok "--min-size 1k = 1024" || bad "--min-size 1k"
"$cli" convert "$m" "$tmp/g1.onnx" --to fp16 --min-size 1G 2> /dev/null && cmp -s "$m" "$tmp/g1.onnx" &&
  ok "--min-size 1G: nothing that large" || bad "--min-size 1G"

# ---- usage errors: exit 2, message on stderr, OUT not written --------------------------------
while IFS= read -r args; do
  rm -f "$tmp/u.onnx"
  # shellcheck disable=SC2086
  "$cli" convert "$m" "$tmp/u.onnx" $args > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 2 ] && [ -s "$tmp/e" ] && [ ! -e "$tmp/u.onnx" ] && ok "usage error '$args' exits 2" || bad "usage error '$args' exit $r"
done <<'EOF'
--to bf17
--to int8
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

rm -rf "$tmp"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
