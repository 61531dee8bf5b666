# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# ---- beyond RAM: a model with external weights larger than RAM, in a sparse
# file (bench/make_huge.c), converted and saved by the library (bench/recipe_lib.c)
echo "== beyond RAM: convert a model whose external weights are larger than RAM (sparse file)"
if [ "${BENCH_HUGE:-1}" = 0 ]; then
  echo "skipped (BENCH_HUGE=0)"
else
  echo "(about 1.5 minutes and 16 GiB of writes, deleted afterwards; BENCH_HUGE=0 skips this section,"
  echo " BENCH_HUGE_GIB=N sets the model size, default 32)"
  cc -std=c11 -O2 -Iinclude bench/make_huge.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench/make_huge"
  hb="$B/bench/huge"
  rm -rf "$hb"; mkdir -p "$hb"
  trap 'rm -rf "$hb"' EXIT INT TERM
  ram_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
  free_kb=$(df -Pk "$hb" | awk 'NR == 2 { print $4 }')
  gib=${BENCH_HUGE_GIB:-32}
  free_gib=$((free_kb / 1048576))
  # the output is at most the model's size (a round trip) and half of it when
  # the tables are converted; keep 8 GiB spare. Tables: 4, of gib/4 GiB each.
  if [ "$free_gib" -lt 40 ] || [ $((gib + 8)) -gt "$free_gib" ]; then
    new=$((free_gib - 8)); [ "$new" -gt "$gib" ] && new=$gib
    echo "only $free_gib GiB free on $(df -P "$hb" | awk 'NR == 2 { print $6 }'): scaling the model down from $gib to $new GiB"
    gib=$new
  fi
  if [ "$gib" -lt 4 ]; then
    echo "skipped: not enough free disk space ($free_gib GiB)"
  else
    rows=$((gib * 262144 / 4))   # 4 tables of rows x 1024 FP32 = gib GiB
    [ $((gib * 1048576)) -gt "$ram_kb" ] && cmp_ram="larger than" || cmp_ram="NOT larger than"
    echo "RAM $(mib "$ram_kb") MiB, $free_gib GiB free disk; model: 4 tables of $rows x 1024 FP32 ($gib GiB, $cmp_ram RAM), each read by a Gather"
    h="$hb/huge.onnx"
    s0=$(date +%s%N)
    "$B/bench/make_huge" "$h" --tables 4 --rows "$rows" | sed 's/^/  made: /'
    s1=$(date +%s%N)
    echo "  made in $(secs "$s0" "$s1") s; data file on disk: $(du -k "$h.data" | cut -f1) KiB (sparse)"
    hrun() { # LABEL OUT ARGS...: one timed recipe_lib run; sets hrc, hres, ht, hm
      label=$1 out=$2; shift 2
      sync
      s0=$(date +%s%N)
      hrc=0
      /usr/bin/time -f "%M" -o "$hb/time" "$B/bench/recipe_lib" "$h" "$out" --external --reload "$@" \
        > "$hb/out" 2> "$hb/err" || hrc=$?
      s1=$(date +%s%N)
      ht=$(secs "$s0" "$s1"); hm=$(tail -n 1 "$hb/time" | tr -cd 0-9); hres=$(cat "$hb/out")
    }
    hrun convert "$hb/huge_bf16.onnx"
    mode="convert all 4 tables to BF16 (truncate), save external data, reload"
    if [ "$hrc" = 3 ]; then
      echo "  conversion: NOT SUPPORTED by this library version: $(cat "$hb/err" | sed 's/^recipe_lib: //')"
      echo "  measuring the round trip instead (load, save with external data, reload), $gib GiB written ..."
      mode="round trip without conversion: load, save external data (threshold 0), reload"
      hrun roundtrip "$hb/huge_bf16.onnx" --no-convert
    fi
    if [ "$hrc" = 0 ]; then
      outb=$(( $(stat -c %s "$hb/huge_bf16.onnx") + $(stat -c %s "$hb/huge_bf16.onnx.data") ))
      echo "  $mode:"
      echo "    wall $ht s (open $(field "$hres" open_s) s, convert $(field "$hres" convert_s) s, save $(field "$hres" save_s) s, reload $(field "$hres" reload_s) s)"
      echo "    peak RSS $(mib "$hm") MiB for a $gib GiB model ($(ratio "$((gib * 1048576))" "$hm")x smaller than the model; RAM/peak RSS $(ratio "$ram_kb" "$hm"))"
      if [ "${hm:-0}" -le 65536 ]; then verdict="met ($(mib "$hm") MiB)"; else verdict="MISSED ($(mib "$hm") MiB)"; fi
      echo "target: converting a model larger than RAM ($gib GiB) peaks at <= 64 MiB: $verdict"
      echo "    output $outb bytes ($(awk -v b="$outb" -v t="$ht" 'BEGIN { printf "%.0f", b / t / 1048576 }') MiB/s); kernel-copied $(field "$hres" kernel_copied) bytes"
      echo "    reload: $(field "$hres" reloaded_initializers) initializers, $(field "$hres" reloaded_external) external, $(field "$hres" reloaded_bf16) BF16"
      if /usr/bin/python3 -c "import onnx, sys; onnx.checker.check_model(sys.argv[1])" "$hb/huge_bf16.onnx" 2> "$hb/err"; then
        echo "    onnx.checker.check_model(output): ok"
      else
        echo "    onnx.checker.check_model(output): FAILED: $(tail -n 1 "$hb/err")"
      fi
    else
      echo "  FAILED (exit $hrc): $(cat "$hb/err")"
    fi
  fi
  rm -rf "$hb"
  trap - EXIT INT TERM
fi
