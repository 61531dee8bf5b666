# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# names: about PyPI's OnnxSlim (test/check_names.py): it is one of the peers
# ---- peers side by side: each job done by each tool that offers it, on the
# same inputs, in one run (bench/peers.py holds the Python peers' side) -----
# Jobs (in this order; BENCH_PEERS_JOBS="recipe fp16 quant ext simplify"
# runs some of them; with BENCH_DOC=merge only those jobs' tables are
# replaced in docs/benchmarks.md, bench/write_doc.py):
#   recipe    the published recipe (Gather table to BF16 by truncation + Cast,
#             external data with every tensor, also one file): onnx + numpy
#             as the seed script does it, onnx-ir, libonnxslim convert
#   fp16      onnxconverter-common convert_float_to_float16(keep_io_types),
#             OnnxSlim's dtype="fp16", onnx-ir (none offered), libonnxslim
#             convert --to fp16
#   quant     onnxruntime's quantize_dynamic (INT8) and MatMulNBitsQuantizer
#             (4 bits, blocks of 32: the default min/max quantizer, with
#             GatherBlockQuantized for the table, HQQ, RTN) beside
#             libonnxslim's --gather-to int8 and --to int8|int4 forms
#   ext       save the model with external data, then load that and save it
#             again in place (onnx issue #6655: the data file grows), then
#             load it back: onnx, onnx-ir (also with max_shard_size_bytes),
#             libonnxslim (its Python package: the command refuses OUT = IN)
#   simplify  onnxsim, OnnxSlim and libonnxslim simplify on
#             test/data/bert-tiny.onnx, the BERT of 25k tokens of section
#             load, and the reranker: time, peak, node counts, check, the
#             output against the original in onnxruntime; then the corpus
#             (peers_simplify_corpus below: each tool once per model)
#   corpus    the corpus part of job simplify alone
# Every conversion: wall time (its outputs synced) best of BENCH_PEERS_REPS
# (3) runs, the tools interleaved within each round; peak RSS (VmHWM, file
# pages included) with its heap (RssAnon) and file (RssFile) parts, the
# highest sampled (bench/peak_rss.c), the largest of the runs. Each output
# once: its bytes (model + data files), onnx.checker.check_model(full_check=
# True), onnxruntime's Python wheel and onnxruntime-node on the same 100
# inputs (bench/ort_logits.js: 50 runs of batch 2, seq 16) with their peak
# RSS and the max |logit - FP32 logit| against the FP32 model in the same
# runtime. The last column: time and peak RSS as multiples of libonnxslim's
# (the row named in brackets). A peer that fails is a row with its error
# line, never a stop of the bench.
# The Python peers live in a venv made (and reused) by scripts/pypi-venv.sh
# at the versions of scripts/pypi-pins.txt; without PyPI the section prints
# a skip line naming what is missing. BENCH_PEERS_SMALL=1 runs it on a
# reranker of 2 layers and 30002 tokens (153 MB) instead of the 1.1 GB one.
echo "== peers: the same jobs done by onnx, onnx-ir, onnxruntime, onnxconverter-common, onnxsim, OnnxSlim and libonnxslim"
peers_main() {
  need_peak_rss
  need_ort
  pv="$Babs/pypi-peers"
  if ! sh scripts/pypi-venv.sh "$pv" onnx onnx-ir onnxruntime onnxconverter-common onnxsim onnxslim \
    2> "$B/bench/pypi-peers.err"; then
    echo "$(tail -n 1 "$B/bench/pypi-peers.err" | sed 's/^skip: //; s/^/skip: section peers: /')"
    return 0
  fi
  py="$pv/bin/python"
  pb="$Babs/bench/peers" # outputs of this section, removed at its end
  rm -rf "$pb"; mkdir -p "$pb"
  # the library's Python package for the in-place re-save of job ext
  PYTHONPATH="$PWD/python" LIBONNXSLIM_LIBRARY="$Babs/libonnxslim.so.0"
  export PYTHONPATH LIBONNXSLIM_LIBRARY
  if [ "${BENCH_PEERS_SMALL:-0}" = 1 ]; then
    cc -std=c11 -O2 -Iinclude bench/make_reranker.c -L"$B" -lonnxslim -lm -Wl,-rpath,"$Babs" -o "$B/bench/make_reranker"
    pm="$Babs/bench/peers-small.onnx" vocab=30002 PEERS_SHARD=$((32 << 20))
    [ -f "$pm" ] || "$B/bench/make_reranker" "$pm" --layers 2 --vocab "$vocab" > /dev/null
    pmlabel="reranker-shaped, 2 layers, vocabulary 30002 (BENCH_PEERS_SMALL=1)"
  else
    need_reranker
    vocab=250002 PEERS_SHARD=$((256 << 20))
    case $rr in /*) pm=$rr ;; *) pm=$PWD/$rr ;; esac
    pmlabel="the 1.1 GB reranker (XLM-R base shaped)"
  fi
  export PEERS_SHARD
  reps=${BENCH_PEERS_REPS:-3}
  jobs=${BENCH_PEERS_JOBS:-recipe fp16 quant ext simplify}
  echo "model: $pm, $(stat -L -c %s "$pm") bytes: $pmlabel"
  echo "peers: $("$py" bench/peers.py versions 2>&1 | tail -n 1); onnxruntime-node $(node -p "require('$Babs/node/node_modules/onnxruntime-node/package.json').version" 2>/dev/null || echo missing)"
  echo "(wall: best of $reps, tools interleaved; peak: VmHWM, file pages included, heap / file the highest RssAnon / RssFile;"
  echo " out: model + data files; check: onnx.checker full_check; ort-py / ort-node: max |logit - FP32 logit| over 100 inputs,"
  echo " and the runtime's peak RSS; x lib: time and peak as multiples of libonnxslim's; the machine may be shared)"
  # the FP32 logits in each runtime: the references
  "$py" bench/peers.py ort "$pm" --vocab "$vocab" --save "$pb/ref-py.json" > "$pb/ref-py.txt" 2>&1 || true
  if [ "$ort_ok" = 1 ]; then
    node bench/ort_logits.js "$pm" --vocab "$vocab" --batch 2 --runs 50 --save "$pb/ref-node.json" --tol 1e9 \
      > "$pb/ref-node.txt" 2>&1 || true
  fi
  rp=$(tail -n 1 "$pb/ref-py.txt") rn=$(tail -n 1 "$pb/ref-node.txt" 2>/dev/null || true)
  agree=$("$py" -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
print("%.2e" % max(abs(x - y) for x, y in zip(a, b)) if len(a) == len(b) else "lengths differ")' \
    "$pb/ref-py.json" "$pb/ref-node.json" 2>/dev/null || echo "n/a")
  echo "FP32 model: onnxruntime (Python) peak $(mib "$(field "$rp" hwm_kb)") MiB, onnxruntime-node peak $(mib "$(field "$rn" hwm_kb)") MiB;" \
    "their logits differ by at most $agree"
  [ -n "$(field "$rp" hwm_kb)" ] || echo "  onnxruntime (Python) on the FP32 model: $(tail -n 1 "$pb/ref-py.txt")"
  for j in $jobs; do
    # each job in a subshell: a job the script itself fails in is a line
    # here, and the next job runs
    case $j in
      recipe | fp16 | quant | ext | simplify)
        (set -e; "peers_$j") || echo "(job $j stopped: exit $?; the rows above are what it measured)" ;;
      corpus) (set -e; peers_simplify_corpus) || echo "(job simplify stopped: exit $?; the rows above are what it measured)" ;;
      *) echo "(unknown job $j in BENCH_PEERS_JOBS)" ;;
    esac
  done
  rm -rf "$pb"
}

# prun NAME CMD...: one timed run of CMD (its outputs in $pb/NAME, emptied
# first); appends "wall hwm anon file exit" to $pb/NAME.runs and keeps its
# stderr in $pb/NAME.err
prun() {
  n=$1; shift
  rm -rf "${pb:?}/$n"; mkdir -p "$pb/$n"
  sync
  t0=$(date +%s%N)
  "$B/bench/peak_rss" "$@" > "$pb/$n.out" 2> "$pb/$n.err" || true
  for f in "$pb/$n"/*; do if [ -f "$f" ]; then sync "$f"; fi; done
  t1=$(date +%s%N)
  r=$(grep '^peak_rss:' "$pb/$n.err" | tail -n 1)
  echo "$(secs "$t0" "$t1") $(field "$r" hwm_kb) $(field "$r" anon_peak_kb) $(field "$r" file_peak_kb) $(field "$r" exit)" >> "$pb/$n.runs"
}
# best NAME: "wall hwm anon file ok" over the runs: the shortest wall of the
# successful runs, the largest memory figures, ok=1 when every run succeeded
best() {
  awk 'BEGIN { w = ""; ok = 1 }
    { if ($5 != 0) ok = 0; else if (w == "" || $1 + 0 < w + 0) w = $1
      if ($2 + 0 > h) h = $2; if ($3 + 0 > a) a = $3; if ($4 + 0 > f) f = $4 }
    END { print (w == "" ? "-" : w), h + 0, a + 0, f + 0, ok }' "$pb/$1.runs" 2> /dev/null || echo "- 0 0 0 0"
}
# errline NAME: the failure's one line (a Python peer's "error: ..." line, or
# the last line before peak_rss's)
errline() {
  e=$(grep '^error: ' "$pb/$1.err" | tail -n 1)
  [ -n "$e" ] || e=$(grep -v '^peak_rss:' "$pb/$1.err" | grep -v '^ *$' | tail -n 1)
  r=$(grep '^peak_rss:' "$pb/$1.err" | tail -n 1)
  echo "${e:-no message} (exit $(field "$r" exit))" | sed 's/^error: //' | cut -c1-220
}
# bytes MODEL: model + external data files
bytes() {
  "$py" bench/peers.py files "$1" 2> /dev/null | awk '{ split($1, a, "="); split($2, b, "="); printf "%.0f\n", a[2] + b[2] }'
}
# verify NAME MODEL: sets v_out (MiB), v_chk, v_py, v_node, v_rt and the
# notes (v_notes: lines to print below the row)
verify() {
  vm=$2 v_notes=""
  vb=$(bytes "$vm"); v_out=$(mib $((${vb:-0} / 1024)))
  if "$py" bench/peers.py check "$vm" > "$pb/$1.chk" 2>&1; then v_chk=ok
  else v_chk=FAIL v_notes="$v_notes|    check: $(grep '^error: ' "$pb/$1.chk" | tail -n 1 | sed 's/^error: //' | cut -c1-200)"; fi
  "$py" bench/peers.py ort "$vm" --vocab "$vocab" --ref "$pb/ref-py.json" > "$pb/$1.py" 2>&1 || true
  l=$(tail -n 1 "$pb/$1.py")
  if [ -n "$(field "$l" max_abs_diff)" ]; then v_py=$(field "$l" max_abs_diff) v_pyk=$(field "$l" hwm_kb)
  else v_py=refused v_pyk="" v_notes="$v_notes|    ort-py: $(echo "$l" | sed 's/^error: //' | cut -c1-200)"; fi
  v_node=n/a v_nk=""
  if [ "$ort_ok" = 1 ]; then
    node bench/ort_logits.js "$vm" --vocab "$vocab" --batch 2 --runs 50 --ref "$pb/ref-node.json" --tol 1e9 \
      > "$pb/$1.node" 2>&1 || true
    l=$(tail -n 1 "$pb/$1.node")
    if [ -n "$(field "$l" max_abs_diff)" ]; then v_node=$(field "$l" max_abs_diff) v_nk=$(field "$l" hwm_kb)
    else v_node=refused v_notes="$v_notes|    ort-node: $(echo "$l" | sed 's/^ort_logits.js: //' | cut -c1-200)"; fi
  fi
  v_rt="$(mib "${v_pyk:--1}")/$(mib "${v_nk:--1}")"
  # the two runtimes' verdicts side by side
  if [ "$ort_ok" = 1 ]; then
    pyok=$([ "$v_py" = refused ] && echo 0 || echo 1) nok=$([ "$v_node" = refused ] && echo 0 || echo 1)
    if [ "$pyok" != "$nok" ]; then
      v_notes="$v_notes|    runtimes differ: onnxruntime (Python) $([ "$pyok" = 1 ] && echo runs it || echo refuses it), onnxruntime-node $([ "$nok" = 1 ] && echo runs it || echo refuses it)"
    elif [ "$pyok" = 1 ] && ! awk -v a="$v_py" -v b="$v_node" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a > b ? a : b); exit !(d <= 1e-4 || d <= 0.1 * m) }'; then
      v_notes="$v_notes|    runtimes differ: |logit difference| $v_py (Python) vs $v_node (node)"
    fi
  fi
}
hdr() {
  printf '%-46s %7s %8s %7s %7s %8s %5s %9s %9s %13s  %s\n' "$1" "wall s" "peak MiB" "heap" "file" "out MiB" \
    "check" "ort-py" "ort-node" "rt MiB py/nd" "x lib (time, peak)"
}
# row NAME LABEL MODEL REF: one table row (and its notes); REF: the
# libonnxslim row the last column divides by
row() {
  set -- "$1" "$2" "$3" "$4" $(best "$1")
  if [ "$9" != 1 ] || [ ! -f "$3" ]; then
    printf '%-46s %7s %8s %7s %7s  FAILED: %s\n' "$2" "${5}" "$(mib "$6")" "$(mib "$7")" "$(mib "$8")" "$(errline "$1")"
    return 0
  fi
  verify "$1" "$3"
  x=""
  if [ -n "$4" ] && [ "$4" != "$1" ]; then
    set -- "$@" $(best "$4")
    [ "${14}" = 1 ] && x="$(ratio "$5" "${10}")x, $(ratio "$6" "${11}")x [$4]"
  fi
  printf '%-46s %7s %8s %7s %7s %8s %5s %9s %9s %13s  %s\n' "$2" "$5" "$(mib "$6")" "$(mib "$7")" "$(mib "$8")" \
    "$v_out" "$v_chk" "$v_py" "$v_node" "$v_rt" "$x"
  [ -z "$v_notes" ] || echo "${v_notes#|}" | tr '|' '\n'
  eval "d_$1=\$v_py dn_$1=\$v_node"
}
# rounds NAME...: BENCH_PEERS_REPS rounds, each running c_NAME for every NAME
rounds() {
  rr_i=0
  while [ "$rr_i" -lt "$reps" ]; do
    rr_i=$((rr_i + 1))
    for n in "$@"; do "c_$n"; done
  done
}
lib() { "$Babs/libonnxslim" "$@"; }

peers_recipe() {
  echo
  echo "-- job recipe: Gather table to BF16 (truncation) + Cast, external data (every tensor) and one file"
  c_r_onnx() { prun r_onnx "$py" bench/peers.py run recipe onnx "$pm" "$pb/r_onnx/m.onnx"; }
  c_r_ir() { prun r_ir "$py" bench/peers.py run recipe onnx-ir "$pm" "$pb/r_ir/m.onnx"; }
  c_r_lib() {
    prun r_lib "$Babs/libonnxslim" convert "$pm" "$pb/r_lib/m.onnx" --gather-to bf16 --round truncate \
      --external-data --threshold 0 --also-single-file "$pb/r_lib/m.single.onnx" -q
  }
  rounds r_onnx r_ir r_lib
  hdr "tool (outputs: ext. data / one file)"
  for t in "r_onnx:onnx + numpy (seed script), onnx.save" "r_ir:onnx-ir (load, edit, save)" "r_lib:libonnxslim convert"; do
    n=${t%%:*}
    row "$n" "${t#*:}: ext. data" "$pb/$n/m.onnx" r_lib
    [ -f "$pb/$n/m.single.onnx" ] && row "$n" "  the same run: one file" "$pb/$n/m.single.onnx" r_lib
  done
  echo "(wall and peak: the whole run, both outputs; the Python peers save with size_threshold 0 as the recipe asks,"
  echo " shape inputs included; libonnxslim keeps those inline, --threshold 0 notwithstanding)"
  s=$(best r_lib) o=$(best r_onnx)
  [ "$(echo "$s" | cut -d' ' -f5)" = 1 ] && [ "$(echo "$o" | cut -d' ' -f5)" = 1 ] &&
    echo "headline: peers, the recipe on $(basename "$pm"): libonnxslim $(echo "$s" | cut -d' ' -f1) s, $(mib "$(echo "$s" | cut -d' ' -f2)") MiB peak; onnx + numpy $(echo "$o" | cut -d' ' -f1) s, $(mib "$(echo "$o" | cut -d' ' -f2)") MiB; onnx-ir $(best r_ir | cut -d' ' -f1) s, $(mib "$(best r_ir | cut -d' ' -f2)") MiB"
  rm -rf "$pb"/r_*
}

peers_fp16() {
  echo
  echo "-- job fp16: the float weights to FP16"
  c_f_occ() { prun f_occ "$py" bench/peers.py run fp16 onnxconverter-common "$pm" "$pb/f_occ/m.onnx"; }
  c_f_slim() { prun f_slim "$py" bench/peers.py run fp16 onnxslim "$pm" "$pb/f_slim/m.onnx"; }
  c_f_ir() { prun f_ir "$py" bench/peers.py run fp16 onnx-ir "$pm" "$pb/f_ir/m.onnx"; }
  c_f_lib() { prun f_lib "$Babs/libonnxslim" convert "$pm" "$pb/f_lib/m.onnx" --to fp16 -q; }
  rounds f_occ f_slim f_ir f_lib
  hdr "tool"
  row f_occ "onnxconverter-common (keep_io_types=True)" "$pb/f_occ/m.onnx" f_lib
  row f_slim "OnnxSlim slim(dtype=\"fp16\")" "$pb/f_slim/m.onnx" f_lib
  row f_ir "onnx-ir" "$pb/f_ir/m.onnx" f_lib
  row f_lib "libonnxslim convert --to fp16" "$pb/f_lib/m.onnx" f_lib
  rm -rf "$pb"/f_*
}

peers_quant() {
  echo
  echo "-- job quant: INT8 / INT4 MatMul weights and Gather tables"
  c_q_dyn() { prun q_dyn "$py" bench/peers.py run quant ort-dynamic-int8 "$pm" "$pb/q_dyn/m.onnx"; }
  c_q_nb() { prun q_nb "$py" bench/peers.py run quant ort-nbits4 "$pm" "$pb/q_nb/m.onnx"; }
  c_q_nbg() { prun q_nbg "$py" bench/peers.py run quant ort-nbits4-gather "$pm" "$pb/q_nbg/m.onnx"; }
  # HQQ needs torch: its own venv over Debian's python3-torch (need_hqq);
  # without it, the row says why
  need_hqq
  if [ "$hq_ok" = 1 ]; then
    echo "(ort MatMulNBits 4-bit, HQQ: $hq_label, in a venv over Debian's python3-torch)"
    c_q_hqq() { prun q_hqq "$HQ_PY" bench/peers.py run quant ort-hqq4 "$pm" "$pb/q_hqq/m.onnx"; }
  else
    echo "skip: ort MatMulNBits 4-bit, HQQ: $hq_skip"
    c_q_hqq() { prun q_hqq "$py" bench/peers.py run quant ort-hqq4 "$pm" "$pb/q_hqq/m.onnx"; }
  fi
  c_q_rtn() { prun q_rtn "$py" bench/peers.py run quant ort-rtn4 "$pm" "$pb/q_rtn/m.onnx"; }
  c_q_l8() {
    prun q_l8 "$Babs/libonnxslim" convert "$pm" "$pb/q_l8/m.onnx" --to int8 --select op:Gather:0 --select op:MatMul:1 \
      --format ort --block-size 32 -q
  }
  c_q_lt8() { prun q_lt8 "$Babs/libonnxslim" convert "$pm" "$pb/q_lt8/m.onnx" --gather-to int8 -q; }
  c_q_l4() {
    prun q_l4 "$Babs/libonnxslim" convert "$pm" "$pb/q_l4/m.onnx" --to int4 --select op:MatMul:1 --format ort \
      --block-size 32 -q
  }
  c_q_l4g() {
    prun q_l4g "$Babs/libonnxslim" convert "$pm" "$pb/q_l4g/m.onnx" --to int4 --select op:Gather:0 \
      --select op:MatMul:1 --format ort --block-size 32 -q
  }
  rounds q_dyn q_l8 q_lt8 q_nb q_l4 q_nbg q_l4g q_hqq q_rtn
  hdr "tool"
  row q_dyn "ort quantize_dynamic (INT8, QInt8)" "$pb/q_dyn/m.onnx" q_l8
  row q_l8 "libonnxslim --to int8 Gather+MatMul (ort, 32)" "$pb/q_l8/m.onnx" q_l8
  row q_lt8 "libonnxslim --gather-to int8 (standard ops)" "$pb/q_lt8/m.onnx" q_lt8
  row q_nb "ort MatMulNBits 4-bit, default (sym., 32)" "$pb/q_nb/m.onnx" q_l4
  row q_hqq "ort MatMulNBits 4-bit, HQQ (32)" "$pb/q_hqq/m.onnx" q_l4
  row q_rtn "ort MatMulNBits 4-bit, RTN config" "$pb/q_rtn/m.onnx" q_l4
  row q_l4 "libonnxslim --to int4 MatMul (ort, 32)" "$pb/q_l4/m.onnx" q_l4
  row q_nbg "ort MatMulNBits 4-bit + GatherBlockQuantized" "$pb/q_nbg/m.onnx" q_l4g
  row q_l4g "libonnxslim --to int4 Gather+MatMul (ort, 32)" "$pb/q_l4g/m.onnx" q_l4g
  echo "(x lib: against the libonnxslim row of the same form, in brackets)"
  echo "(libonnxslim's int4 rows: its default scales, float zero points for the MatMul weights, absmax for the table)"
  rm -rf "$pb"/q_*
}

peers_ext() {
  echo
  echo "-- job ext: save with external data (tensors of 1 KiB or more), then load that and save it again in place, then load it back"
  # each round: the save, then the re-save of its output, per tool
  for t in onnx onnx-ir onnx-ir-shard libonnxslim; do
    eval "c_s_$(echo "$t" | tr - _)() { prun s_$(echo "$t" | tr - _) \"\$py\" bench/peers.py run extsave $t \"\$pm\" \"\$pb/s_$(echo "$t" | tr - _)/m.onnx\"; }"
  done
  c_s_cli() { prun s_cli "$Babs/libonnxslim" split "$pm" "$pb/s_cli/m.onnx" -q; }
  # the re-save: in the save's directory (prun would empty its own)
  resave() { # TOOL KEY
    d="$pb/s_$2" n="x_$2"
    sync; t0=$(date +%s%N)
    "$B/bench/peak_rss" "$py" bench/peers.py run extresave "$1" "$d/m.onnx" "$d/m.onnx" > /dev/null 2> "$pb/$n.err" || true
    for f in "$d"/*; do if [ -f "$f" ]; then sync "$f"; fi; done
    t1=$(date +%s%N)
    r=$(grep '^peak_rss:' "$pb/$n.err" | tail -n 1)
    echo "$(secs "$t0" "$t1") $(field "$r" hwm_kb) $(field "$r" anon_peak_kb) $(field "$r" file_peak_kb) $(field "$r" exit)" >> "$pb/$n.runs"
  }
  rr_i=0
  while [ "$rr_i" -lt "$reps" ]; do
    rr_i=$((rr_i + 1))
    for t in onnx onnx-ir onnx-ir-shard libonnxslim; do
      k=$(echo "$t" | tr - _)
      "c_s_$k"
      "$py" bench/peers.py files "$pb/s_$k/m.onnx" > "$pb/s_$k.files" 2>&1 || true
      resave "$t" "$k"
    done
    c_s_cli
  done
  hdr "tool: save, then re-save in place"
  for t in "onnx:onnx.save_model(save_as_external_data)" "onnx_ir:onnx-ir save" \
    "onnx_ir_shard:onnx-ir save, max_shard_size_bytes $((PEERS_SHARD >> 20)) MiB" "libonnxslim:libonnxslim (Python) save"; do
    k=${t%%:*}
    set -- $(best "s_$k")
    if [ "$5" = 1 ]; then
      f1=$(cat "$pb/s_$k.files")
      mb=$(field "$f1" model_bytes) db=$(field "$f1" data_bytes)
      printf '%-46s %7s %8s %7s %7s %8s  (%s data file(s))\n' "${t#*:}" "$1" "$(mib "$2")" "$(mib "$3")" "$(mib "$4")" \
        "$(mib $(((${mb:-0} + ${db:-0}) / 1024)))" "$(field "$f1" data_files)"
    else
      f1="" && printf '%-46s  FAILED: %s\n' "${t#*:}" "$(errline "s_$k")"
    fi
    row "x_$k" "  re-save in place" "$pb/s_$k/m.onnx" x_libonnxslim
    if [ "$(best "x_$k" | cut -d' ' -f5)" = 1 ]; then
      f2=$("$py" bench/peers.py files "$pb/s_$k/m.onnx" 2>&1)
      g=$(awk -v a="$(field "$f1" data_bytes)" -v b="$(field "$f2" data_bytes)" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "n/a" }')
      echo "    data after the re-save: $(field "$f2" data_bytes) bytes in $(field "$f2" data_files) file(s), ${g}x the first save's$(awk -v g="$g" 'BEGIN { if (g + 0 > 1.01) print ": the data file GREW" }')"
    fi
  done
  row s_cli "libonnxslim split (the command)" "$pb/s_cli/m.onnx" s_cli
  lib split "$pb/s_cli/m.onnx" "$pb/s_cli/m.onnx" -q > /dev/null 2> "$pb/cli-inplace.err" &&
    echo "    libonnxslim split OUT OUT: accepted" ||
    echo "    libonnxslim split OUT OUT (in place): refused: $(head -n 1 "$pb/cli-inplace.err" | sed 's/^libonnxslim: //')"
  echo "(ort-py / ort-node / check: the re-saved model loaded back; x lib: against libonnxslim's re-save)"
  rm -rf "$pb"/s_* "$pb"/x_*
}

peers_simplify() {
  echo
  echo "-- job simplify: onnxsim, OnnxSlim and libonnxslim simplify: node counts and time"
  need_bert
  hdr_y() {
    printf '%-20s %-11s %7s %8s %7s %7s %10s %5s  %-22s %s\n' "model" "tool" "wall s" "peak MiB" "heap" "file" "nodes" \
      "check" "ort-py vs original" "x lib (time, peak)"
  }
  hdr_y
  case $small in /*) ;; *) small=$PWD/$small ;; esac
  for mm in "bert-tiny:$PWD/test/data/bert-tiny.onnx" "bert-vocab25k:$small" "$(basename "$pm" .onnx):$pm"; do
    ml=${mm%%:*} mp=${mm#*:}
    [ -f "$mp" ] || { echo "$ml: missing ($mp)"; continue; }
    n0=$("$py" bench/peers.py nodes "$mp" 2>/dev/null | sed 's/nodes=//')
    c_y_sim() { prun y_sim "$py" bench/peers.py run simplify onnxsim "$mp" "$pb/y_sim/m.onnx"; }
    c_y_slim() { prun y_slim "$py" bench/peers.py run simplify onnxslim "$mp" "$pb/y_slim/m.onnx"; }
    c_y_lib() { prun y_lib "$Babs/libonnxslim" simplify "$mp" "$pb/y_lib/m.onnx" -q; }
    rm -f "$pb"/y_*.runs
    rounds y_sim y_slim y_lib
    for t in y_sim:onnxsim y_slim:OnnxSlim y_lib:libonnxslim; do
      k=${t%%:*}
      set -- $(best "$k")
      if [ "$5" != 1 ]; then printf '%-20s %-11s %7s %8s %7s %7s  FAILED: %s\n' "$ml" "${t#*:}" "$1" "$(mib "$2")" \
        "$(mib "$3")" "$(mib "$4")" "$(errline "$k")"; ml=""; continue; fi
      n1=$("$py" bench/peers.py nodes "$pb/$k/m.onnx" 2>/dev/null | sed 's/nodes=//')
      ck=$("$py" bench/peers.py check "$pb/$k/m.onnx" > "$pb/$k.chk" 2>&1 && echo ok || echo FAIL)
      o=$("$py" bench/peers_corpus.py pair "$mp" "$pb/$k/m.onnx" 2>&1 | tail -n 1 | sed 's/max_abs_diff=/max |d| /')
      x=""
      if [ "$k" != y_lib ]; then
        set -- "$@" $(best y_lib)
        [ "${10}" = 1 ] && x="$(ratio "$1" "$6")x, $(ratio "$2" "$7")x"
      fi
      printf '%-20s %-11s %7s %8s %7s %7s %10s %5s  %-22s %s\n' "$ml" "${t#*:}" "$1" "$(mib "$2")" "$(mib "$3")" \
        "$(mib "$4")" "$n0 -> $n1" "$ck" "$(echo "$o" | cut -c1-22)" "$x"
      [ "$ck" = ok ] || echo "    check: $(grep '^error: ' "$pb/$k.chk" | tail -n 1 | sed 's/^error: //' | cut -c1-200)"
      case $o in same* | close*) ;; *) echo "    ort-py: $(echo "$o" | cut -c1-200)" ;; esac
      if [ "$mp" = "$pm" ]; then
        verify "$k" "$pb/$k/m.onnx"
        echo "    logits against the FP32 model's (100 inputs): ort-py $v_py, ort-node $v_node; runtime peak MiB py/node $v_rt"
        [ -z "$v_notes" ] || echo "${v_notes#|}" | tr '|' '\n'
      fi
      ml=""
    done
  done
  echo "(wall: best of $reps, the three tools interleaved; peak: the largest VmHWM, heap / file its RssAnon / RssFile;"
  echo " nodes: the main graph's; ort-py vs original: onnxruntime (Python) on the output and on the original, the same"
  echo " random inputs, every output compared: same = bit-identical; x lib: time and peak over libonnxslim's)"
  rm -rf "$pb"/y_*
  peers_simplify_corpus
}

# The corpus: the newest onnx's node test models (test/onnx_node_models.py
# with the venv's onnx, their first data set's inputs), the models of
# test/data and those the examples write; each tool once per model, all in
# one Python process per tool (bench/peers_corpus.py)
peers_simplify_corpus() {
  echo
  echo "-- job simplify, the corpus models: each tool once per model (no best of 3), in one Python process per tool"
  cw="$pb/corpus"
  mkdir -p "$cw/in"
  if ! "$py" test/onnx_node_models.py "$cw/in" --inputs > "$cw/node.log" 2>&1; then
    echo "(onnx's node test models: test/onnx_node_models.py failed: $(tail -n 1 "$cw/node.log"))"
  fi
  : > "$cw/list"
  for d in "$cw"/in/node/*/; do
    [ -f "$d/model.onnx" ] || continue
    i="$d/inputs.pkl"; [ -f "$i" ] || i=-
    printf 'node_%s\t%s\t%s\n' "$(basename "$d")" "$d/model.onnx" "$i" >> "$cw/list"
  done
  for f in test/data/*.onnx test/data/*/*.onnx; do
    [ -f "$f" ] || continue
    n=$(echo "${f#test/data/}" | sed 's/\.onnx$//; s|/|_|g')
    printf 'data_%s\t%s\t-\n' "$n" "$PWD/$f" >> "$cw/list"
  done
  # the examples' models: build_model's, and recipe's outputs on bert-tiny
  # (with external data, and one file)
  if make -s B="$B" "$B/examples/build_model" "$B/examples/recipe" > "$cw/examples.log" 2>&1; then
    mkdir -p "$cw/in/examples"
    "$B/examples/build_model" "$cw/in/examples/build_model.onnx" > /dev/null 2>&1 &&
      printf 'examples_build_model\t%s\t-\n' "$cw/in/examples/build_model.onnx" >> "$cw/list"
    if "$B/examples/recipe" test/data/bert-tiny.onnx "$cw/in/examples/recipe.onnx" > /dev/null 2>&1; then
      for f in "$cw"/in/examples/recipe*.onnx; do
        printf 'examples_%s\t%s\t-\n' "$(basename "$f" .onnx)" "$f" >> "$cw/list"
      done
    fi
  else
    echo "(the examples' models left out: make examples failed: $(tail -n 1 "$cw/examples.log"))"
  fi
  for t in onnxsim onnxslim libonnxslim; do
    "$py" bench/peers_corpus.py simplify "$t" "$cw/list" "$cw" > /dev/null 2> "$cw/$t.err" ||
      echo "(corpus, $t: $(tail -n 1 "$cw/$t.err"))"
  done
  if "$py" bench/peers_corpus.py verify "$cw/list" "$cw" onnxsim onnxslim libonnxslim > "$cw/verify.out" 2> "$cw/verify.err"; then
    "$py" bench/peers_corpus.py report "$cw/list" "$cw" onnxsim onnxslim libonnxslim 2>&1
  else
    echo "(corpus: the verification failed: $(tail -n 1 "$cw/verify.err"))"
  fi
  echo "(onnx's node test models: $(tail -n 1 "$cw/node.log"))"
  # keep what the report reads (small), so that it can be printed again:
  # bench/peers_corpus.py report $B/bench/peers-corpus/list DIR TOOLS...
  rm -rf "$Babs/bench/peers-corpus" && mkdir -p "$Babs/bench/peers-corpus" &&
    cp "$cw/list" "$cw"/*.json "$B/bench/peers-corpus/" 2> /dev/null
  rm -rf "$cw"
}

peers_main
