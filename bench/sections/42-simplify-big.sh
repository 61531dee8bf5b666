# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# names: about PyPI's OnnxSlim (test/check_names.py): it is one of the peers
# ---- simplify on big models beside cp (issue 28, point 5): `libonnxslim
# simplify IN OUT` with OUT in another directory (so OUT gets its own data
# file: the output is a whole model, as cp's copy is) against `cp` of the
# model and its data file, both followed by a sync of what they wrote; wall
# time best of BENCH_REPS (3), the two interleaved; peak RSS (bench/peak_rss:
# VmHWM, file pages included, with the highest RssAnon / RssFile sampled)
# the largest of the runs. Models: the 1.1 GB reranker (need_reranker) and a
# generated model of BENCH_SBIG_GIB (4) GiB (bench/make_slimmable.c big:
# pseudo-random FP32 tables in external data, Identity, no-op Cast, equal
# Muls, a dead Relu, an unused initializer and a Shape -> Reshape chain),
# then the same model under a memory cgroup (v1) of BENCH_SBIG_LIMIT_MIB
# (1024) MiB, smaller than the model: the "larger than RAM" case. Each
# output is checked: `libonnxslim check`, node counts, the weights
# byte-identical to the input's (bench/sbig_check.py) and, when
# onnxruntime's Python wheel is there, the output of the simplified model
# bit-identical to the original's. onnxsim and OnnxSlim run once on the
# generated model beside (their venv as section peers'), or say why not.
# Targets: within 1.5x of cp's time, at most 64 MiB peak RSS.
# BENCH_SBIG=0 skips the section (about 4 minutes and 3 x BENCH_SBIG_GIB GiB
# of disk, deleted afterwards).
echo "== simplify-big: libonnxslim simplify beside cp on the reranker and a ${BENCH_SBIG_GIB:-4} GiB model, and under a memory limit"
sbig_main() {
  need_peak_rss
  cc -std=c11 -O2 -Iinclude bench/make_slimmable.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench/make_slimmable"
  bb="$Babs/bench/sbig"
  rm -rf "$bb"; mkdir -p "$bb/in" "$bb/out"
  trap 'rm -rf "$bb"; for d in "${cg:-}" "${cgp:-}"; do [ -n "$d" ] && rmdir "$d" 2>/dev/null; done' EXIT INT TERM
  reps=${BENCH_REPS:-3}
  gib=${BENCH_SBIG_GIB:-4}
  limit_mib=${BENCH_SBIG_LIMIT_MIB:-1024}
  free_gib=$(($(df -Pk "$bb" | awk 'NR == 2 { print $4 }') / 1048576))
  if [ $((gib * 3 + 8)) -gt "$free_gib" ]; then
    echo "skipped: $free_gib GiB free, the section needs $((gib * 3 + 8))"
    return 0
  fi
  need_reranker
  case $rr in /*) ;; *) rr=$PWD/$rr ;; esac
  s0=$(date +%s%N)
  "$B/bench/make_slimmable" big "$bb/in/big.onnx" --gib "$gib" | sed "s|$bb/||g; s/^/made: /"
  s1=$(date +%s%N)
  echo "(made in $(secs "$s0" "$s1") s)"
  # a memory cgroup smaller than the model, when the v1 controller is writable
  cg=/sys/fs/cgroup/memory/libonnxslim-sbig-$$
  if mkdir "$cg" 2>/dev/null && echo $((limit_mib << 20)) > "$cg/memory.limit_in_bytes" 2>/dev/null; then :; else
    rmdir "$cg" 2>/dev/null; cg=
  fi
  echo "(RAM $(mib "$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)") MiB; wall: best of $reps, cp and simplify interleaved, each followed by a sync of its outputs;"
  echo " peak: VmHWM, file pages included; heap / file: the highest RssAnon / RssFile sampled; out: a directory apart from the input's)"
  # in_cg CG CMD...: CMD in the memory cgroup CG
  in_cg() { sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$@"; }
  # one LABEL IN: one run of cp (LABEL cp*) or simplify (LABEL simplify*) of
  # IN into $bb/out, under the cgroup for LABELs ending in -cg; appends
  # "wall hwm anon file exit" to $bb/LABEL.runs
  one() {
    label=$1 in=$2
    rm -rf "$bb/out"; mkdir -p "$bb/out"
    case $label in
      cp*) set -- cp "$in" "$in.data" "$bb/out/" ;;
      *) set -- "$B/libonnxslim" simplify "$in" "$bb/out/$(basename "$in")" ;;
    esac
    [ -f "$in.data" ] || [ "${label#cp}" = "$label" ] || set -- cp "$in" "$bb/out/"
    sync
    t0=$(date +%s%N)
    case $label in
      *-cg) echo 0 > "$cg/memory.max_usage_in_bytes"
        in_cg "$cg" "$B/bench/peak_rss" "$@" > "$bb/$label.out" 2> "$bb/$label.err" || true
        echo "$(($(cat "$cg/memory.max_usage_in_bytes") >> 10))" >> "$bb/$label.cgmax" ;;
      *) "$B/bench/peak_rss" "$@" > "$bb/$label.out" 2> "$bb/$label.err" || true ;;
    esac
    for f in "$bb/out"/*; do sync "$f"; done
    t1=$(date +%s%N)
    r=$(grep '^peak_rss:' "$bb/$label.err" | tail -n 1)
    echo "$(secs "$t0" "$t1") $(field "$r" hwm_kb) $(field "$r" anon_peak_kb) $(field "$r" file_peak_kb) $(field "$r" exit)" >> "$bb/$label.runs"
  }
  # row LABEL MODEL CPLABEL: the table row of LABEL; sets row_w row_k
  row() {
    runs=$bb/$1.runs
    row_w=$(awk '$5 == 0 { if (b == "" || $1 < b) b = $1 } END { print b }' "$runs")
    row_k=$(awk '{ if ($2 > k) k = $2 } END { print k + 0 }' "$runs")
    a=$(awk '{ if ($3 > k) k = $3 } END { print k + 0 }' "$runs")
    f=$(awk '{ if ($4 > k) k = $4 } END { print k + 0 }' "$runs")
    bad=$(awk '$5 != 0 { n++ } END { print n + 0 }' "$runs")
    cw=$(awk '$5 == 0 { if (b == "" || $1 < b) b = $1 } END { print b }' "$bb/$3.runs")
    if [ -z "$row_w" ]; then
      printf '%-34s %-9s %8s %7s %10s %10s %10s  FAILED: %s\n' "$2" "$1" n/a n/a n/a n/a n/a "$(grep -v '^peak_rss:' "$bb/$1.err" | tail -n 1)"
      return 0
    fi
    printf '%-34s %-9s %8s %7s %10s %10s %10s%s\n' "$2" "${1%-cg}" "$row_w" "$(ratio "$row_w" "$cw")" "$(mib "$row_k")" \
      "$(mib "$a")" "$(mib "$f")" "$([ "$bad" = 0 ] || echo "  ($bad runs failed)")"
  }
  i=0
  while [ "$i" -lt "$reps" ]; do
    one cp-rr "$rr"; one simplify-rr "$rr"
    one cp-big "$bb/in/big.onnx"; one simplify-big "$bb/in/big.onnx"
    if [ -n "$cg" ]; then one cp-big-cg "$bb/in/big.onnx"; one simplify-big-cg "$bb/in/big.onnx"; fi
    i=$((i + 1))
  done
  printf '%-34s %-9s %8s %7s %10s %10s %10s\n' model tool "wall s" "x cp" "peak MiB" "heap MiB" "file MiB"
  rrl="reranker ($(($(stat -c %s "$rr") / 1000000)) MB inline)"
  bgl="generated, $gib GiB external"
  cgl="same, cgroup limit $limit_mib MiB"
  row cp-rr "$rrl" cp-rr; row simplify-rr "$rrl" cp-rr; w_rr=$row_w k_rr=$row_k
  row cp-big "$bgl" cp-big; row simplify-big "$bgl" cp-big; w_big=$row_w k_big=$row_k
  if [ -n "$cg" ]; then
    row cp-big-cg "$cgl" cp-big-cg; row simplify-big-cg "$cgl" cp-big-cg; w_cg=$row_w k_cg=$row_k
    echo "(cgroup: limit $limit_mib MiB; its highest usage, page cache included: cp $(mib "$(sort -n "$bb/cp-big-cg.cgmax" | tail -n 1)") MiB, simplify $(mib "$(sort -n "$bb/simplify-big-cg.cgmax" | tail -n 1)") MiB; failcnt $(cat "$cg/memory.failcnt"), OOM kills $(sed -n 's/^oom_kill //p' "$cg/memory.oom_control" 2>/dev/null || echo ?))"
  else
    echo "(no memory cgroup could be made under /sys/fs/cgroup/memory (cgroup v1, root): the larger-than-the-limit run not done)"
  fi
  # the checks, on one more simplify of each model
  for m in "$rr" "$bb/in/big.onnx"; do
    rm -rf "$bb/out"; mkdir -p "$bb/out"
    o="$bb/out/$(basename "$m")"
    "$B/libonnxslim" simplify --json "$m" "$o" > "$bb/json" 2>&1 || true
    na=$(sed -n 's/^    "nodes_before": \([0-9]*\),*$/\1/p' "$bb/json" | head -n 1)
    nb=$(sed -n 's/^    "nodes_after": \([0-9]*\),*$/\1/p' "$bb/json" | head -n 1)
    ck=$("$B/libonnxslim" check "$o" 2>&1 | tail -n 1 | sed "s|^$bb/||")
    wt=$(/usr/bin/python3 bench/sbig_check.py weights "$m" "$o" 2>&1 | tail -n 1)
    echo "$(basename "$m"): nodes ${na:-?} -> ${nb:-?}; libonnxslim check: $ck; weights: $wt"
    if [ "$m" != "$rr" ]; then
      need_ort_py
      if [ "$ort_py_ok" = 1 ]; then
        echo "  $ort_py_label: $("$ORT_PY" bench/sbig_check.py ort "$m" "$o" 2>&1 | tail -n 1)"
      fi
    fi
  done
  rm -rf "$bb/out"
  verdict() { # WALL_RATIO PEAK_KB
    awk -v r="$1" -v k="$2" 'BEGIN { printf "%sx cp (%s), %.1f MiB (%s)", r, (r != "n/a" && r <= 1.5) ? "met" : "MISSED", k / 1024, (k > 0 && k <= 65536) ? "met" : "MISSED" }'
  }
  cpw() { awk '$5 == 0 { if (b == "" || $1 < b) b = $1 } END { print b }' "$bb/$1.runs"; }
  echo "target: simplify of the reranker within 1.5x of cp, at most 64 MiB: $(verdict "$(ratio "${w_rr:-0}" "$(cpw cp-rr)")" "${k_rr:-0}")"
  echo "target: simplify of a $gib GiB model within 1.5x of cp, at most 64 MiB: $(verdict "$(ratio "${w_big:-0}" "$(cpw cp-big)")" "${k_big:-0}")"
  if [ -n "$cg" ]; then
    if [ -n "${w_cg:-}" ]; then v="simplified, $(verdict "$(ratio "$w_cg" "$(cpw cp-big-cg)")" "${k_cg:-0}")"; else v="MISSED (failed)"; fi
    echo "target: a model larger than the memory limit ($gib GiB under $limit_mib MiB) simplified: $v"
  fi
  # the peers, once each on the generated model, in the peers' venv
  pv="$Babs/pypi-peers"
  if [ "${BENCH_SBIG_PEERS:-1}" = 0 ]; then
    echo "peers on the $gib GiB model: not run (BENCH_SBIG_PEERS=0)"
  elif ! sh scripts/pypi-venv.sh "$pv" onnx onnx-ir onnxruntime onnxconverter-common onnxsim onnxslim 2> "$bb/venv.err"; then
    echo "peers on the $gib GiB model: not run: $(tail -n 1 "$bb/venv.err" | sed 's/^skip: //')"
  else
    # under a cgroup of BENCH_SBIG_PEER_LIMIT_MIB (10240), so that a peer
    # that decodes the whole model cannot take the machine's memory
    plim=${BENCH_SBIG_PEER_LIMIT_MIB:-10240}
    cgp=/sys/fs/cgroup/memory/libonnxslim-sbig-peers-$$
    if mkdir "$cgp" 2>/dev/null && echo $((plim << 20)) > "$cgp/memory.limit_in_bytes" 2>/dev/null; then
      echo "(peers: once each, under a memory cgroup of $plim MiB, timeout ${BENCH_SBIG_PEER_TIMEOUT:-900} s)"
      prun() { in_cg "$cgp" "$@"; }
    else
      rmdir "$cgp" 2>/dev/null; cgp=
      echo "(peers: once each, no memory cgroup could be made: without a limit, timeout ${BENCH_SBIG_PEER_TIMEOUT:-900} s)"
      prun() { "$@"; }
    fi
    for t in onnxsim onnxslim; do
      rm -rf "$bb/out"; mkdir -p "$bb/out"
      case $t in onnxslim) tn=OnnxSlim ;; *) tn=$t ;; esac
      sync
      t0=$(date +%s%N)
      prun timeout "${BENCH_SBIG_PEER_TIMEOUT:-900}" "$B/bench/peak_rss" "$pv/bin/python" bench/peers.py run simplify "$t" \
        "$bb/in/big.onnx" "$bb/out/big.onnx" > "$bb/peer.out" 2> "$bb/peer.err" || true
      for f in "$bb/out"/*; do if [ -f "$f" ]; then sync "$f"; fi; done
      t1=$(date +%s%N)
      r=$(grep '^peak_rss:' "$bb/peer.err" | tail -n 1)
      if [ "$(field "$r" exit)" = 0 ]; then
        nb=$("$pv/bin/python" bench/peers.py nodes "$bb/out/big.onnx" 2>&1 | tail -n 1)
        echo "peer $tn on the $gib GiB model: $(secs "$t0" "$t1") s ($(ratio "$(secs "$t0" "$t1")" "$(cpw cp-big)")x cp), peak $(mib "$(field "$r" hwm_kb)") MiB (heap $(mib "$(field "$r" anon_peak_kb)"), file $(mib "$(field "$r" file_peak_kb)")), nodes $nb"
      else
        why=$(grep -v '^peak_rss:' "$bb/peer.err" | tail -n 1 | cut -c1-200)
        [ "$(field "$r" exit)" = 137 ] && why="killed (SIGKILL: the cgroup's OOM killer at $plim MiB, or the timeout) $why"
        echo "peer $tn on the $gib GiB model: FAILED (exit $(field "$r" exit)) after $(secs "$t0" "$t1") s, peak $(mib "$(field "$r" hwm_kb)") MiB: $why"
      fi
      if [ -n "$cgp" ]; then
        echo "  (its cgroup: OOM kills $(sed -n 's/^oom_kill //p' "$cgp/memory.oom_control" 2>/dev/null || echo ?) so far)"
      fi
    done
    [ -n "$cgp" ] && rmdir "$cgp" 2>/dev/null
  fi
  rm -rf "$bb"
  [ -n "$cg" ] && rmdir "$cg" 2>/dev/null
  cg=
  trap - EXIT INT TERM
}
if [ "${BENCH_SBIG:-1}" = 0 ]; then
  echo "skipped (BENCH_SBIG=0)"
else
  sbig_main
fi
