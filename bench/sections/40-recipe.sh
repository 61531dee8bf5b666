# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- the published recipe on a reranker-shaped model (bench/make_reranker.c,
# bench/recipe_lib.c, bench/python_recipe.py, bench/compare_recipe.py,
# bench/ort_logits.js) ---------------------------------------------------------
echo "== recipe: convert 1.1 GB reranker to BF16 (Gather table) and save"
need_reranker
cc -std=c11 -O2 -Iinclude bench/recipe_lib.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench/recipe_lib"
rb="$B/bench/recipe"   # outputs of this section, removed at its end
mkdir -p "$rb"
# timed NAME REPS OUT [OUT2] -- CMD...: runs CMD REPS times; wall time of CMD
# plus `sync` of its outputs (every run starts after a global sync, from a warm
# page cache), best of the runs, and the highest peak RSS. Sets t_NAME (s),
# m_NAME (KiB), ok_NAME (1/0); CMD's output goes to $rb/NAME.log.
timed() {
  name=$1 n_runs=$2 o1=$3 o2=$4; shift 5
  best="" peak=0 ok=1 r=0
  while [ "$r" -lt "$n_runs" ]; do
    r=$((r + 1))
    sync
    s0=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$rb/$name.rss" "$@" > "$rb/$name.log" 2>&1 || ok=0
    for f in "$o1" "$o2"; do if [ -n "$f" ] && [ -f "$f" ]; then sync "$f"; fi; done
    s1=$(date +%s%N)
    t=$(secs "$s0" "$s1"); k=$(tail -n 1 "$rb/$name.rss" | tr -cd 0-9)
    best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
    [ "${k:-0}" -gt "$peak" ] && peak=${k:-0}
  done
  eval "t_$name=$best m_$name=$peak ok_$name=$ok"
}
reps=${BENCH_REPS:-3} py_reps=${BENCH_PY_REPS:-1}
cat "$rr" > /dev/null
timed cp "$reps" "$rb/cp.onnx" "" -- cp "$rr" "$rb/cp.onnx"
cli_ok=0 clix_ok=0
help=$("$B/libonnxslim" convert --help 2>&1 || true)
case $help in *--gather-to*) case $help in *--round*) cli_ok=1 ;; esac ;; esac
case $help in *--external-data*) case $help in *--threshold*) clix_ok=$cli_ok ;; esac ;; esac
if [ "$cli_ok" = 1 ]; then
  timed cli "$reps" "$rb/cli.onnx" "" -- "$B/libonnxslim" convert "$rr" "$rb/cli.onnx" --gather-to bf16 --round truncate
else
  echo "(libonnxslim convert has no --gather-to/--round: CLI rows skipped; the library API rows stand in)"
fi
if [ "$clix_ok" = 1 ]; then
  timed clix "$reps" "$rb/clix.onnx" "$rb/clix.onnx.data" -- "$B/libonnxslim" convert "$rr" "$rb/clix.onnx" \
    --gather-to bf16 --round truncate --external-data --threshold 0
elif [ "$cli_ok" = 1 ]; then
  echo "(libonnxslim convert has no --external-data/--threshold: external-data CLI row skipped)"
fi
timed lib "$reps" "$rb/lib.onnx" "" -- "$B/bench/recipe_lib" "$rr" "$rb/lib.onnx"
timed libx "$reps" "$rb/libx.onnx" "$rb/libx.onnx.data" -- "$B/bench/recipe_lib" "$rr" "$rb/libx.onnx" --external
timed py "$py_reps" "$rb/py.onnx" "" -- /usr/bin/python3 bench/python_recipe.py "$rr" "$rb/py.onnx"
sz() { if [ -f "$1" ]; then stat -c %s "$1"; else echo 0; fi; }
row() { # NAME LABEL OUTPUT-BYTES
  eval "ok=\${ok_$1:-0} t=\${t_$1:-} m=\${m_$1:-}"
  if [ "$ok" = 1 ]; then printf '%-46s %9s %15s %14s\n' "$2" "$t" "$(mib "$m")" "$3"
  else printf '%-46s %9s %15s %14s\n' "$2" "FAILED" "-" "see $rb/$1.log"; fi
}
echo "model: $rr, $(stat -L -c %s "$rr") bytes; word embedding 250002 x 768 FP32 (733 MiB) read by a Gather"
echo "wall time: best of $reps runs (python: $py_reps; BENCH_REPS / BENCH_PY_REPS), each including sync of its output"
printf '%-46s %9s %15s %14s\n' "" "wall (s)" "peak RSS (MiB)" "output bytes"
row cp "cp + sync" "$(sz "$rb/cp.onnx")"
[ "$cli_ok" = 1 ] && row cli "libonnxslim convert --gather-to bf16 (1 file)" "$(sz "$rb/cli.onnx")"
[ "$clix_ok" = 1 ] && row clix "  ... --external-data --threshold 0" "$(( $(sz "$rb/clix.onnx") + $(sz "$rb/clix.onnx.data") ))"
row lib "library API, 1 file (bench/recipe_lib)" "$(sz "$rb/lib.onnx")"
row libx "library API, external data, threshold 0" "$(( $(sz "$rb/libx.onnx") + $(sz "$rb/libx.onnx.data") ))"
row py "python onnx + numpy (bench/python_recipe.py)" "$(sz "$rb/py.onnx")"
# the libonnxslim figures quoted: the CLI's when it supports the recipe, else the library API's
if [ "$cli_ok" = 1 ]; then o=cli; on="libonnxslim convert"; else o=lib; on="library API"; fi
eval "o_ok=\${ok_$o:-0} ot=\${t_$o:-0} om=\${m_$o:-0}"
if [ "$o_ok" = 1 ] && [ "$ok_cp" = 1 ] && [ "$ok_py" = 1 ]; then
  echo "ratios: $on time / cp time = $(ratio "$ot" "$t_cp"); python time / $on time = $(ratio "$t_py" "$ot"); python peak RSS / $on peak RSS = $(ratio "$m_py" "$om")"
  echo "headline: the BF16 recipe on the 1.1 GB reranker ($on, 1 file): $ot s, $(ratio "$ot" "$t_cp")x the time of cp, peak RSS $(mib "$om") MiB; python onnx + numpy: $t_py s, $(mib "$m_py") MiB"
fi
if [ "$clix_ok" = 1 ] && [ "${ok_clix:-0}" = 1 ] && [ "$ok_cp" = 1 ] && [ "$ok_py" = 1 ]; then
  echo "        external-data variant: time / cp time = $(ratio "$t_clix" "$t_cp"); python peak RSS / its peak RSS = $(ratio "$m_py" "$m_clix")"
fi
worst=0 n_ok=0
for k in cli clix lib libx; do
  eval "ok=\${ok_$k:-0} m=\${m_$k:-0}"
  if [ "$ok" = 1 ]; then n_ok=$((n_ok + 1)); [ "$m" -gt "$worst" ] && worst=$m; fi
done
if [ "$n_ok" = 0 ]; then verdict="not measured (every libonnxslim run failed)"
elif [ "$worst" -le 65536 ]; then verdict="met (highest $(mib "$worst") MiB)"
else verdict="MISSED (highest $(mib "$worst") MiB)"; fi
echo "target: libonnxslim peak RSS <= 64 MiB (every libonnxslim row that ran): $verdict"
echo "published figures for comparison: python 7.8 s and 2.9 GB peak RSS, cp 2.2 s (1.06 GiB model, another machine)"
if [ "${ok_lib:-0}" = 1 ]; then
  ph=$(cat "$rb/lib.log")
  echo "library API phases (1 file): open $(field "$ph" open_s) s, convert $(field "$ph" convert_s) s (statistics pass), save $(field "$ph" save_s) s; VmHWM after open / convert / save: $(mib "$(field "$ph" hwm_open_kb)") / $(mib "$(field "$ph" hwm_convert_kb)") / $(mib "$(field "$ph" hwm_save_kb)") MiB (after convert: mapped file pages $(mib "$(field "$ph" file_convert_kb)") MiB, heap $(mib "$(field "$ph" anon_convert_kb)") MiB); converted $(field "$ph" converted) tables, $(field "$ph" bytes_before) -> $(field "$ph" bytes_after) bytes"
fi
for k in cli clix lib libx py; do
  eval "ok=\${ok_$k:-1}"
  [ "$ok" = 1 ] || { echo "FAILED: $k:"; sed 's/^/  /' "$rb/$k.log"; }
done
# equivalence: every output passes onnx.checker and equals the python output bit for bit
set -- "$rb/py.onnx"
for k in cli clix lib libx; do
  eval "ok=\${ok_$k:-0}"
  if [ "$ok" = 1 ]; then set -- "$@" "$rb/$k.onnx"; fi
done
if [ "$ok_py" != 1 ] || [ $# -lt 2 ]; then
  echo "outputs: not compared (the python run or every libonnxslim run failed)"
elif /usr/bin/python3 bench/compare_recipe.py "$rr" "$@" > "$rb/compare.log" 2>&1; then
  echo "outputs: EQUIVALENT (python onnx loads all; initializers bit for bit, same nodes):"
else
  echo "outputs: NOT EQUIVALENT (or check failed):"
fi
[ -f "$rb/compare.log" ] && sed 's/^/  /' "$rb/compare.log"
need_ort_py
if [ "$ort_ok" = 1 ]; then
  echo "onnxruntime-node 1.30 and, below each, $ort_py_label (batch 2, seq 16, token ids spread over the"
  echo "vocabulary), logits vs the FP32 model run in the same runtime:"
  set --
  [ "$ok_py" = 1 ] && set -- "$@" py "python output"
  [ "${ok_cli:-0}" = 1 ] && set -- "$@" cli "libonnxslim 1 file"
  [ "${ok_clix:-0}" = 1 ] && set -- "$@" clix "libonnxslim external data"
  if [ "$cli_ok" != 1 ]; then
    [ "${ok_lib:-0}" = 1 ] && set -- "$@" lib "library API 1 file"
    [ "${ok_libx:-0}" = 1 ] && set -- "$@" libx "library API external data"
  fi
  # rt_row LABEL RUNNER... : the runner's peak RSS (/usr/bin/time) and its line
  rt_row() {
    l=$1; shift
    r=$( /usr/bin/time -f "%M" -o "$rb/ort.rss" "$@" 2>&1 || true)
    printf '  %-26s peak RSS %7s MiB  %s\n' "$l" "$(mib "$(tail -n 1 "$rb/ort.rss" | tr -cd 0-9)")" "$r"
  }
  rt_row "FP32 original" node bench/ort_logits.js "$rr" --ref "$rr_ref"
  [ "$ort_py_ok" = 1 ] && rt_row "  [python]" "$ORT_PY" bench/ort_logits.py "$rr" --save "$rb/ref-py.json"
  while [ $# -ge 2 ]; do
    rt_row "$2" node bench/ort_logits.js "$rb/$1.onnx" --ref "$rr_ref"
    [ "$ort_py_ok" = 1 ] && rt_row "  [python]" "$ORT_PY" bench/ort_logits.py "$rb/$1.onnx" --ref "$rb/ref-py.json"
    shift 2
  done
fi
rm -rf "$rb"
