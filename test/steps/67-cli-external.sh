# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# libonnxslim split / merge / fingerprint and convert --external-data: the
# published recipe in one command (BF16 Gather table, every tensor in one
# external file, plus a single-file copy), alignment of offsets, one file per
# tensor, checksums, the size threshold, shape inputs kept inline, merging
# back byte-identically, and usage errors (exit 2).
# External-data entries are read with python onnx; the outputs are loaded by
# each onnxruntime of test/ort-setup.sh: onnxruntime-node and the Python wheel.
set -u
B=${B:-build}
PY=/usr/bin/python3
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "skip $1"; }
cli="$B/libonnxslim"
tmp=$(mktemp -d)
m=test/data/bert-tiny.onnx
fp() { "$cli" fingerprint "$1"; }
fp_m=$(fp "$m")

have_py=0
"$PY" -c 'import onnx' 2>/dev/null && have_py=1
# the outputs run in each onnxruntime of test/ort-setup.sh (onnxruntime-node
# and the Python wheel); a runtime that cannot be set up counts skips
. test/ort-setup.sh
ort_runtimes_setup > "$tmp/ort-setup.log" 2>&1
ort_say_runtimes
# ort RT MODEL: runs MODEL in runtime RT (test/gen/run_ort.js or its twin)
ort() { ort_cmd "$1" test/gen/run_ort.js "$2" > "$tmp/ort.out" 2>&1; }

# ext MODEL: one line per tensor of the main graph: name location offset length checksum
# ("-" for inline tensors), read with python onnx (no external data loaded).
ext() {
  "$PY" - "$1" <<'EOF'
import sys, onnx
m = onnx.load(sys.argv[1], load_external_data=False)
for t in m.graph.initializer:
    e = {x.key: x.value for x in t.external_data}
    if t.data_location == onnx.TensorProto.EXTERNAL:
        print(t.name, e["location"], e.get("offset", "0"), e["length"], e.get("checksum", "-"))
    else:
        print(t.name, "-", "-", "-", "-")
EOF
}

# ---- fingerprint ------------------------------------------------------------------
echo "$fp_m" | grep -Eq '^[0-9a-f]{32}$' && ok "fingerprint prints 32 hex digits" || bad "fingerprint '$fp_m'"
"$cli" convert "$m" "$tmp/g.onnx" --gather-to bf16
[ "$(fp "$tmp/g.onnx")" != "$fp_m" ] && ok "a converted model has another fingerprint" || bad "fingerprint unchanged by conversion"
"$cli" fingerprint /nonexistent.onnx > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -ne 0 ] && [ $r -ne 2 ] && grep -q 'nonexistent.onnx' "$tmp/e" && [ ! -s "$tmp/o" ] && ok "fingerprint of a missing file: exit $r" || bad "fingerprint missing exit $r"

# ---- split / merge ----------------------------------------------------------------
"$cli" split "$m" "$tmp/s.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ -f "$tmp/s.onnx.data" ] && ok "split: exit 0, data file OUT.data" || bad "split exit $r: $(cat "$tmp/e")"
[ "$(fp "$tmp/s.onnx")" = "$fp_m" ] && ok "split: same fingerprint" || bad "split fingerprint"
"$cli" check "$tmp/s.onnx" > /dev/null && ok "split: libonnxslim check passes" || bad "split check"
"$cli" merge "$tmp/s.onnx" "$tmp/sm.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ "$(fp "$tmp/sm.onnx")" = "$fp_m" ] && ok "split then merge: same fingerprint as the original" || bad "merge exit $r / fingerprint"
cmp -s "$m" "$tmp/sm.onnx" && ok "split then merge: byte-identical to $m" || bad "merge not byte-identical"
"$cli" merge "$m" "$tmp/mm.onnx" && cmp -s "$m" "$tmp/mm.onnx" && ok "merge of a single-file model is a byte-identical copy" || bad "merge single-file"
if [ $have_py -eq 1 ]; then
  ext "$tmp/s.onnx" > "$tmp/s.ext"
  "$PY" -c 'import onnx, sys; onnx.checker.check_model(sys.argv[1]); m = onnx.load(sys.argv[1])' "$tmp/s.onnx" &&
    ok "split: python onnx loads it (external data) and the checker passes" || bad "split: python onnx"
  # default threshold 1K: exactly the tensors of >= 1024 bytes are external
  "$PY" - "$m" "$tmp/s.onnx" <<'EOF' && ok "split: default threshold 1K" || bad "split threshold"
import sys, onnx
from onnx import numpy_helper
o = {t.name: numpy_helper.to_array(t).nbytes for t in onnx.load(sys.argv[1]).graph.initializer}
s = {t.name: t.data_location for t in onnx.load(sys.argv[2], load_external_data=False).graph.initializer}
ext = {k for k, v in s.items() if v == onnx.TensorProto.EXTERNAL}
assert ext and ext == {k for k, n in o.items() if n >= 1024}, ext
EOF
  awk '$2 != "-" && $3 % 4096 != 0 {bad = 1} END {exit bad}' "$tmp/s.ext" && ok "split: offsets aligned to 4096 by default" || bad "default alignment"
  [ "$(awk '$2 != "-" {print $2}' "$tmp/s.ext" | sort -u)" = "s.onnx.data" ] && ok "split: location is OUT's name + .data" || bad "default location"
  for an in 1:1 64:64 256K:262144; do
    a=${an%:*} n=${an#*:}
    "$cli" split "$m" "$tmp/a.onnx" --threshold 0 --force-shape-inputs --align "$a" --location a.bin || bad "split --align $a exit"
    ext "$tmp/a.onnx" > "$tmp/a.ext"
    [ "$(awk '$2 != "-"' "$tmp/a.ext" | wc -l)" -gt 20 ] &&
      awk -v al="$n" '$2 != "-" && $3 % al != 0 {bad = 1} END {exit bad}' "$tmp/a.ext" &&
      ok "--align $a: every offset is a multiple of $n" || bad "--align $a: $(awk '{print $3}' "$tmp/a.ext" | tr '\n' ' ')"
  done
  # --align 1: no padding, the data file is the sum of the lengths
  "$cli" split "$m" "$tmp/p.onnx" --threshold 0 --align 1 --location p.bin
  sum=$(ext "$tmp/p.onnx" | awk '$2 != "-" {s += $4} END {print s}')
  [ "$(stat -c %s "$tmp/p.bin")" = "$sum" ] && ok "--align 1: packed data file ($sum bytes)" || bad "--align 1 size"
  # --threshold 2K: tensors under 2048 bytes stay inline
  "$cli" split "$m" "$tmp/t.onnx" --threshold 2K
  ext "$tmp/t.onnx" | awk '$2 != "-" && $4 < 2048 {bad = 1} $2 != "-" {n++} END {exit bad || n == 0}' &&
    ok "--threshold 2K: only tensors of >= 2048 bytes go out" || bad "--threshold 2K"
  # --per-tensor
  rm -rf "$tmp/pt" && mkdir "$tmp/pt"
  "$cli" split "$m" "$tmp/pt/m.onnx" --per-tensor --threshold 0 > "$tmp/o" 2> "$tmp/e"; r=$?
  ext "$tmp/pt/m.onnx" > "$tmp/pt.ext"
  n_ext=$(awk '$2 != "-"' "$tmp/pt.ext" | wc -l)
  n_loc=$(awk '$2 != "-" {print $2}' "$tmp/pt.ext" | sort -u | wc -l)
  n_files=$(find "$tmp/pt" -type f ! -name m.onnx | wc -l)
  [ $r -eq 0 ] && [ "$n_ext" -gt 20 ] && [ "$n_loc" -eq "$n_ext" ] && [ "$n_files" -eq "$n_ext" ] &&
    ok "--per-tensor: one file per tensor ($n_files files)" || bad "--per-tensor: $n_ext tensors, $n_loc locations, $n_files files"
  bad_sizes=$(awk '$2 != "-" {print $2, $3, $4}' "$tmp/pt.ext" | while read -r loc off len; do
    [ "$off" = 0 ] && [ "$(stat -c %s "$tmp/pt/$loc")" = "$len" ] || echo "$loc"; done)
  [ -z "$bad_sizes" ] && ok "--per-tensor: each file holds its tensor at offset 0" || bad "--per-tensor files: $bad_sizes"
  [ "$(fp "$tmp/pt/m.onnx")" = "$fp_m" ] && "$cli" check "$tmp/pt/m.onnx" > /dev/null && ok "--per-tensor: same fingerprint, check passes" || bad "--per-tensor fingerprint"
  # --checksum: SHA-1 of each tensor's bytes
  "$cli" split "$m" "$tmp/c.onnx" --checksum
  "$PY" - "$tmp/c.onnx" "$tmp" <<'EOF' && ok "--checksum: SHA-1 of each external tensor's bytes" || bad "--checksum"
import sys, os, hashlib, onnx
m = onnx.load(sys.argv[1], load_external_data=False)
n = 0
for t in m.graph.initializer:
    if t.data_location != onnx.TensorProto.EXTERNAL: continue
    e = {x.key: x.value for x in t.external_data}
    with open(os.path.join(sys.argv[2], e["location"]), "rb") as f:
        f.seek(int(e.get("offset", 0))); data = f.read(int(e["length"]))
    assert hashlib.sha1(data).hexdigest() == e["checksum"], t.name
    n += 1
assert n > 0
EOF
  ext "$tmp/s.onnx" | awk '$5 != "-" {exit 1}' && ok "no checksum key without --checksum" || bad "checksum key written unasked"
else
  skip "python3-onnx not available at $PY: external_data entries not inspected"
fi

# ---- shape inputs -----------------------------------------------------------------------
"$cli" split "$m" "$tmp/sh.onnx" --threshold 0 > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] && grep -Eq 'kept [0-9]+ shape-input tensors? inline' "$tmp/e" &&
  ok "--threshold 0: one line on stderr about shape inputs kept inline" || bad "shape-input note exit $r: $(cat "$tmp/o" "$tmp/e")"
"$cli" split "$m" "$tmp/shr.onnx" --threshold 0 --report > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/e" ] && grep -q 'shape inputs kept inline' "$tmp/o" &&
  grep -Eq '^ +roberta.encoder.layer.0.attention.self.key_heads_shape$' "$tmp/o" &&
  ok "--report: the shape inputs kept inline, one per line on stdout" || bad "--report shape inputs: $(cat "$tmp/e")"
"$cli" split "$m" "$tmp/shf.onnx" --threshold 0 --force-shape-inputs > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/e" ] && [ "$(fp "$tmp/shf.onnx")" = "$fp_m" ] && ok "--force-shape-inputs: quiet, same fingerprint" || bad "--force-shape-inputs exit $r"
if [ $have_py -eq 1 ]; then
  [ "$(ext "$tmp/sh.onnx" | awk '$2 == "-"' | wc -l)" -gt 0 ] && [ "$(ext "$tmp/shf.onnx" | awk '$2 == "-"' | wc -l)" -eq 0 ] &&
    ok "--force-shape-inputs moves the shape inputs out too" || bad "--force-shape-inputs inline count"
fi
for rt in $ORT_RUNTIMES; do
  L=$(ort_label "$rt")
  if ! ort_have "$rt"; then skip "$L split model: $(ort_skip_reason "$rt")"; continue; fi
  ort "$rt" "$tmp/sh.onnx" && ok "$L onnxruntime runs the split model (shape inputs inline)" || bad "$L ort split: $(cat "$tmp/ort.out")"
  if ! ort "$rt" "$tmp/shf.onnx"; then
    echo "note (not a test): $L onnxruntime refuses external shape inputs: $(tail -n 1 "$tmp/ort.out")"
  else
    echo "note (not a test): $L onnxruntime runs the model with external shape inputs"
  fi
done

# ---- the published recipe in one command ---------------------------------------------------
rm -rf "$tmp/r" && mkdir "$tmp/r"
"$cli" convert "$m" "$tmp/r/out.onnx" --gather-to bf16 --external-data --threshold 0 --location out.bin \
  --also-single-file "$tmp/r/out_single.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/o" ] && [ "$(ls "$tmp/r" | tr '\n' ' ')" = "out.bin out.onnx out_single.onnx " ] &&
  ok "recipe: exit 0, writes out.onnx, out.bin, out_single.onnx" || bad "recipe exit $r: $(ls "$tmp/r") $(cat "$tmp/e")"
f1=$(fp "$tmp/r/out.onnx"); f2=$(fp "$tmp/r/out_single.onnx")
[ -n "$f1" ] && [ "$f1" = "$f2" ] && [ "$f1" = "$(fp "$tmp/g.onnx")" ] &&
  ok "recipe: both models have the fingerprint of the converted model" || bad "recipe fingerprints $f1 $f2"
"$cli" check "$tmp/r/out.onnx" > /dev/null && "$cli" check "$tmp/r/out_single.onnx" > /dev/null &&
  ok "recipe: libonnxslim check passes on both" || bad "recipe check"
cmp -s "$tmp/r/out_single.onnx" "$tmp/g.onnx" && ok "recipe: the single file equals a plain --gather-to conversion" || bad "single file differs from plain conversion"
"$cli" merge "$tmp/r/out.onnx" "$tmp/r2.onnx" && cmp -s "$tmp/r2.onnx" "$tmp/r/out_single.onnx" &&
  ok "recipe: merging the external model gives the single file" || bad "merge of recipe output"
if [ $have_py -eq 1 ]; then
  "$PY" - "$tmp/r/out.onnx" "$tmp/r/out_single.onnx" <<'EOF' && ok "recipe: python onnx checker; BF16 table in out.bin; single file has no external data" || bad "recipe python"
import sys, onnx
onnx.checker.check_model(sys.argv[1]); onnx.checker.check_model(sys.argv[2])
e = onnx.load(sys.argv[1], load_external_data=False); s = onnx.load(sys.argv[2], load_external_data=False)
w = {t.name: t for t in e.graph.initializer}["roberta.embeddings.word_embeddings.weight"]
assert w.data_type == 16 and w.data_location == onnx.TensorProto.EXTERNAL
assert {x.key: x.value for x in w.external_data}["location"] == "out.bin"
assert all(t.data_location != onnx.TensorProto.EXTERNAL for t in s.graph.initializer)
EOF
fi
for rt in $ORT_RUNTIMES; do
  L=$(ort_label "$rt")
  if ! ort_have "$rt"; then skip "$L recipe: $(ort_skip_reason "$rt")"; continue; fi
  ort "$rt" "$tmp/r/out.onnx" && a=$(cat "$tmp/ort.out") && ort "$rt" "$tmp/r/out_single.onnx" && [ "$a" = "$(cat "$tmp/ort.out")" ] &&
    ok "$L recipe: onnxruntime runs both, same logits" || bad "$L recipe ort: $(cat "$tmp/ort.out")"
done
"$cli" convert "$m" "$tmp/r/out.onnx" --gather-to bf16 --external-data --threshold 0 --location out.bin \
  --also-single-file "$tmp/r/out_single.onnx" --report > "$tmp/o" 2> "$tmp/e"; r=$?
# saved again over itself: the new data goes to out_1.bin (out.onnx read
# out.bin until the new out.onnx replaced it), then out.bin is removed
[ $r -eq 0 ] && grep -q '^converted ' "$tmp/o" && grep -q "^external data: .* in 'out_1.bin'" "$tmp/o" &&
  grep -q '^files written:' "$tmp/o" && grep -q 'out_1.bin' "$tmp/o" && grep -q 'out_single.onnx' "$tmp/o" &&
  [ "$(fp "$tmp/r/out.onnx")" = "$f1" ] && [ ! -e "$tmp/r/out.bin" ] &&
  ok "recipe --report: conversion table, external data, files; saved again: out_1.bin, out.bin removed" || bad "recipe --report exit $r"
sz1=$(stat -c %s "$tmp/r/out_1.bin")
"$cli" convert "$m" "$tmp/r/out.onnx" --gather-to bf16 --external-data --threshold 0 --location out.bin
[ "$(stat -c %s "$tmp/r/out.bin")" = "$sz1" ] && [ ! -e "$tmp/r/out_1.bin" ] &&
  ok "saving a third time: out.bin again, rewritten (no append), out_1.bin removed" || bad "data file grew"

# ---- shared data files ([attack] point 4) -------------------------------------------------
# A data file another model of the directory reads is never replaced or
# removed: a second split asking for the same location gets a free name,
# and a plain convert next to the original keeps its data through re-saves.
mkdir "$tmp/sh"
"$cli" split "$m" "$tmp/sh/a.onnx" --location shared.bin --checksum &&
  "$cli" split "$tmp/g.onnx" "$tmp/sh/b.onnx" --location shared.bin --checksum --report > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && [ "$(fp "$tmp/sh/a.onnx")" = "$fp_m" ] && [ "$(fp "$tmp/sh/b.onnx")" = "$(fp "$tmp/g.onnx")" ] &&
  grep -q "in 'shared_1.bin'" "$tmp/o" &&
  ok "two splits asking for one --location: the second writes shared_1.bin, each model keeps its weights" ||
  bad "shared --location exit $r: $(fp "$tmp/sh/a.onnx") $(cat "$tmp/o" "$tmp/e")"
"$cli" split "$m" "$tmp/sh/in.onnx" && "$cli" convert "$tmp/sh/in.onnx" "$tmp/sh/out.onnx" &&
  "$cli" split "$tmp/g.onnx" "$tmp/sh/in.onnx" && "$cli" split "$m" "$tmp/sh/in.onnx" &&
  "$cli" split "$tmp/g.onnx" "$tmp/sh/in.onnx"; r=$?
[ $r -eq 0 ] && [ "$(fp "$tmp/sh/out.onnx")" = "$fp_m" ] && [ "$(fp "$tmp/sh/in.onnx")" = "$(fp "$tmp/g.onnx")" ] &&
  "$cli" check "$tmp/sh/out.onnx" > /dev/null &&
  ok "a convert next to its input: three re-saves of the input leave the copy's data alone" ||
  bad "tied models exit $r: out $(fp "$tmp/sh/out.onnx") in $(fp "$tmp/sh/in.onnx"); $(ls "$tmp/sh" | tr '\n' ' ')"

"$cli" check --verify-checksums "$tmp/sh/a.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 0 ] && grep -q ': ok$' "$tmp/o" && ok "check --verify-checksums: the split model's data matches its checksums" ||
  bad "check --verify-checksums exit $r: $(cat "$tmp/o" "$tmp/e")"
# one byte of the data file rewritten in place: plain check cannot see it
printf '\177' | dd of="$tmp/sh/shared.bin" bs=1 seek=0 conv=notrunc 2> /dev/null
"$cli" check "$tmp/sh/a.onnx" > "$tmp/o" 2> "$tmp/e"; r1=$?
"$cli" check --verify-checksums "$tmp/sh/a.onnx" > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r1 -eq 0 ] && [ $r -eq 1 ] && [ "$(grep -c 'its checksum key says' "$tmp/o")" -eq 1 ] && grep -q "'shared.bin'" "$tmp/o" &&
  ok "a data file changed after the save: check exit 0, check --verify-checksums exit 1 naming the tensor" ||
  bad "tampered data: check exit $r1, --verify-checksums exit $r: $(cat "$tmp/o" "$tmp/e")"
"$cli" check --json --verify-checksums "$tmp/sh/a.onnx" > "$tmp/o" 2> /dev/null
grep -q '"code_name": *"checksum"' "$tmp/o" && ok "check --json --verify-checksums: code_name checksum" || bad "json checksum: $(cat "$tmp/o")"
"$cli" check --list-checks | grep -q '^checksum ' && ok "--list-checks lists checksum" || bad "--list-checks checksum"

# ---- a save removes the data files of the model it replaces --------------------------------
rp="$tmp/rp"
mkdir -p "$rp/sub"
"$cli" split "$m" "$rp/out.onnx" --location out.bin && [ -f "$rp/out.bin" ] &&
  "$cli" convert "$m" "$rp/out.onnx"; r=$?
[ $r -eq 0 ] && [ ! -e "$rp/out.bin" ] && [ "$(ls "$rp")" = "$(printf 'out.onnx\nsub')" ] && [ "$(fp "$rp/out.onnx")" = "$fp_m" ] &&
  ok "split OUT --location out.bin, then convert to OUT as one file: out.bin is gone" ||
  bad "single-file save over a split OUT: exit $r, left $(ls "$rp" | tr '\n' ' ')"
"$cli" split "$m" "$rp/out.onnx" --location w.bin && [ -f "$rp/w.bin" ] && "$cli" merge "$tmp/s.onnx" "$rp/out.onnx"; r=$?
[ $r -eq 0 ] && [ ! -e "$rp/w.bin" ] && [ "$(ls "$rp")" = "$(printf 'out.onnx\nsub')" ] && cmp -s "$m" "$rp/out.onnx" &&
  ok "split OUT --location w.bin, then merge a split model to OUT: w.bin is gone" || bad "merge over a split OUT: exit $r, left $(ls "$rp" | tr '\n' ' ')"
"$cli" split "$m" "$rp/out.onnx" --location out.bin && "$cli" convert "$rp/out.onnx" "$rp/other.onnx" &&
  "$cli" convert "$m" "$rp/out.onnx"; r=$?
[ $r -eq 0 ] && [ -f "$rp/out.bin" ] && [ "$(fp "$rp/other.onnx")" = "$fp_m" ] && "$cli" check "$rp/other.onnx" > /dev/null &&
  ok "the same when another model of the directory reads out.bin: it stays" ||
  bad "other model's data: exit $r, left $(ls "$rp" | tr '\n' ' ')"
rm -f "$rp/other.onnx" "$rp/out.bin"
# 4 processes x 8 saves with mixed options to one OUT, then one plain save:
# no data file is left
for t in 1 2 3 4; do
  (
    for i in 1 2 3 4 5 6 7 8; do
      case $(((i + t) % 6)) in
        0) "$cli" split "$m" "$rp/out.onnx" ;;
        1) "$cli" split "$m" "$rp/out.onnx" --location x.bin ;;
        2) "$cli" split "$m" "$rp/out.onnx" --location sub/y.bin ;;
        3) "$cli" split "$m" "$rp/out.onnx" --per-tensor ;;
        4) "$cli" merge "$m" "$rp/out.onnx" ;;
        *) "$cli" convert "$m" "$rp/out.onnx" ;;
      esac || echo "save $t.$i failed" >> "$tmp/rp.err"
    done
  ) &
done
wait
"$cli" convert "$m" "$rp/out.onnx" || echo "final save failed" >> "$tmp/rp.err"
[ ! -s "$tmp/rp.err" ] && [ "$(ls -A "$rp")" = "$(printf 'out.onnx\nsub')" ] && [ -z "$(ls -A "$rp/sub")" ] && cmp -s "$m" "$rp/out.onnx" &&
  ok "32 saves by 4 processes with mixed layouts to one OUT, then a plain save: only OUT is left" ||
  bad "mixed saves: $(cat "$tmp/rp.err" 2> /dev/null) left $(ls -A "$rp" "$rp/sub" | tr '\n' ' ')"

# ---- locations --------------------------------------------------------------------------
"$cli" split "$m" "$tmp/l.onnx" --location ../escape.bin > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && grep -q 'refused' "$tmp/e" && [ ! -e "$tmp/l.onnx" ] && [ ! -e "$(dirname "$tmp")/escape.bin" ] &&
  ok "--location with '..': exit 2 (usage), library message, nothing written" || bad "--location .. exit $r: $(cat "$tmp/e")"
"$cli" split "$m" "$tmp/l.onnx" --location /tmp/abs.bin > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && [ -s "$tmp/e" ] && [ ! -e "$tmp/l.onnx" ] && ok "absolute --location: exit 2" || bad "absolute --location exit $r"
echo keep > "$tmp/keep.onnx"
"$cli" split "$m" "$tmp/keep.onnx" --location keep.onnx > "$tmp/o" 2> "$tmp/e"; r=$?
[ $r -eq 2 ] && [ "$(cat "$tmp/keep.onnx")" = keep ] && ok "--location naming OUT itself: exit 2, OUT untouched" || bad "--location = OUT exit $r"

# ---- usage errors -------------------------------------------------------------------------
while IFS= read -r args; do
  rm -f "$tmp/u.onnx"
  # shellcheck disable=SC2086
  "$cli" $args > "$tmp/o" 2> "$tmp/e"; r=$?
  [ $r -eq 2 ] && [ -s "$tmp/e" ] && [ ! -e "$tmp/u.onnx" ] && ok "usage error '$args' exits 2" || bad "usage error '$args' exit $r"
done <<EOF
split $m
split $m $tmp/u.onnx extra
split $m $tmp/u.onnx --gather-to bf16
split $m $tmp/u.onnx --external-data
split $m $tmp/u.onnx --threshold
split $m $tmp/u.onnx --threshold -5
split $m $tmp/u.onnx --threshold 1T
split $m $tmp/u.onnx --align 0
split $m $tmp/u.onnx --align 48
split $m $tmp/u.onnx --align 3K
split $m $tmp/u.onnx --per-tensor --location x.bin
split $m $tmp/u.onnx --location
merge $m
merge $m $tmp/u.onnx --threshold 0
merge $m $tmp/u.onnx --per-tensor
fingerprint
fingerprint $m $m
fingerprint --bogus $m
convert $m $tmp/u.onnx --external-data --also-single-file $tmp/u.onnx
convert $m $tmp/u.onnx --also-single-file
EOF
"$cli" split --help > "$tmp/o" && grep -q -- '--per-tensor' "$tmp/o" && "$cli" merge --help | grep -q -- '--allow-large' &&
  "$cli" fingerprint --help | grep -q 'fingerprint MODEL' && ok "split/merge/fingerprint --help" || bad "command help"
"$cli" --help | grep -q '^  split IN OUT' && "$cli" --help | grep -q '^  merge IN OUT' && "$cli" --help | grep -q '^  fingerprint MODEL' &&
  ok "--help lists split, merge, fingerprint" || bad "--help commands"
"$cli" merge "$tmp/s.onnx" "$tmp/big.onnx" --allow-large && cmp -s "$tmp/big.onnx" "$m" && ok "merge --allow-large" || bad "merge --allow-large"

rm -rf "$tmp"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
