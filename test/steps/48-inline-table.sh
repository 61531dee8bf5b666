# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The inputs onnxruntime reads when it loads a model stay inline: the table
# lib/passes/load_inputs.c against onnxruntime-node 1.30 itself.
#
# 1. The sweep (test/external/inline_sweep.py prepare): every model of the
#    node test data (every op, every opset it has; about 900 load) with its
#    tensor inputs made initializers, then each of them in turn alone in
#    external data; plus a few models for opsets the test data (onnx 1.12)
#    lacks. Each is loaded in onnxruntime (test/external/ort_load.js; a
#    crash of onnxruntime is recorded and the rest goes on). The results
#    are cached in $B/inline-sweep, keyed by the scripts, the onnxruntime
#    version and the test data (about 90 s when made, none when cached).
# 2. The table check (inline_sweep.py compare): an input onnxruntime needs
#    inline that the table lacks, a row covering an input onnxruntime
#    loads from external data, a row neither observed nor explained: FAIL.
#    And docs/external-data.md names every op of the table.
#    `libonnxslim check` of each variant warns external_load_input exactly
#    when onnxruntime refused it for its external tensor (about 15 s).
# 3. The rule: `libonnxslim split --threshold 0 --constants` of every model
#    that loads all inline must load in onnxruntime (about 30 s).
set -u
. test/step-lib.sh
work="$B/inline-sweep"
sweep="test/external/inline_sweep.py"
node_dir=/usr/share/libonnx-testdata/data/node

if ! "$PY" -c 'import onnx, numpy' 2>/dev/null || [ ! -d "$node_dir" ] || ! command -v node >/dev/null 2>&1; then
  bad "prerequisites: python3-onnx, python3-numpy, libonnx-testdata and node are needed"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 1
fi
. test/ort-setup.sh
if ! ort_setup; then
  bad "npm install onnxruntime-node@$ORT_VERSION"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 1
fi
[ -x "$B/libonnxslim" ] || make -s all >/dev/null || { bad "make all"; echo "$passed passed, $failed failed, $skipped skipped"; exit 1; }

# ort_load_all LIST RESULTS: ort_load.js over LIST; after a crash of
# onnxruntime, the model it died on is recorded and the rest goes on.
ort_load_all() {
  : >"$2"
  cp "$1" "$2.todo"
  while [ -s "$2.todo" ]; do
    node test/external/ort_load.js "$2.todo" >"$2.part" 2>>"$2.stderr"
    if [ "$(head -n 1 "$2.part")" != "# ready" ]; then
      echo "ort_load.js did not start: $(tail -n 3 "$2.stderr")"
      rm -f "$2.todo" "$2.part"
      return 1
    fi
    sed 1d "$2.part" >>"$2"
    n=$(($(wc -l <"$2.part") - 1))
    [ "$n" -ge "$(wc -l <"$2.todo")" ] && break
    echo "error $(sed -n "$((n + 1))p" "$2.todo"): onnxruntime crashed" >>"$2"
    tail -n +"$((n + 2))" "$2.todo" >"$2.todo2" && mv "$2.todo2" "$2.todo"
  done
  rm -f "$2.todo" "$2.part"
}

# ---- 1. the sweep (cached) ---------------------------------------------------------
key=$( (cat "$sweep" test/external/ort_load.js; echo "$ORT_VERSION"; ls -l "$node_dir") | sha1sum | cut -c1-16)
if [ -f "$work/results.txt" ] && [ "$(cat "$work/stamp" 2>/dev/null)" = "$key" ]; then
  ok "sweep: cached in $work/results.txt ($(wc -l <"$work/results.txt") models)"
else
  rm -rf "$work"
  mkdir -p "$work"
  if "$PY" "$sweep" prepare "$work" >"$work/prepare.log" 2>&1 &&
     find "$work" -name '*.onnx' | sort >"$work/list.txt" &&
     ort_load_all "$work/list.txt" "$work/results.txt"; then
    echo "$key" >"$work/stamp"
    ok "sweep: $(cat "$work/prepare.log"), $(wc -l <"$work/results.txt") loaded in onnxruntime $ORT_VERSION"
  else
    bad "sweep: $(tail -n 2 "$work/prepare.log")"
  fi
fi

# ---- 2. the table against the sweep -------------------------------------------------
if [ -f "$work/stamp" ]; then
  "$PY" "$sweep" compare "$work" "$work/results.txt" lib/passes/load_inputs.c >"$work/compare.txt" 2>&1
  rc=$?
  grep -E '^(FAIL|ok   row|[0-9]+ models)' "$work/compare.txt"
  line=$(tail -n 1 "$work/compare.txt")
  case $line in
  *" passed, "*" failed")
    p=${line%% passed*} f=${line#*passed, }
    f=${f%% failed*}
    passed=$((passed + p)) failed=$((failed + f))
    [ $rc -eq 0 ] || [ "$f" -gt 0 ] || bad "compare exit $rc"
    ;;
  *) bad "inline_sweep.py compare: $line" ;;
  esac
fi

# ---- 2a. libonnxslim check warns exactly where onnxruntime refuses -----------------------
if [ -f "$work/stamp" ]; then
  "$PY" "$sweep" checkwarn "$work" "$work/results.txt" "$cli" >"$work/checkwarn.txt" 2>&1
  rc=$?
  grep -E '^(FAIL|check warns)' "$work/checkwarn.txt" | head -n 30
  line=$(tail -n 1 "$work/checkwarn.txt")
  case $line in
  *" passed, "*" failed")
    p=${line%% passed*} f=${line#*passed, }
    f=${f%% failed*}
    passed=$((passed + p)) failed=$((failed + f))
    [ $rc -eq 0 ] || [ "$f" -gt 0 ] || bad "checkwarn exit $rc"
    ;;
  *) bad "inline_sweep.py checkwarn: $line" ;;
  esac
fi

# ---- 2b. docs/external-data.md names every op of the table -------------------------------
missing=""
for op in $(sed -n 's/^ *{"\([A-Za-z0-9]*\)", "[a-z.]*", [0-9].*/\1/p' lib/passes/load_inputs.c | sort -u); do
  grep -q "\b$op\b" docs/external-data.md || missing="$missing $op"
done
nops=$(sed -n 's/^ *{"\([A-Za-z0-9]*\)", "[a-z.]*", [0-9].*/\1/p' lib/passes/load_inputs.c | sort -u | wc -l)
if [ "$nops" -gt 0 ] && [ -z "$missing" ]; then
  ok "docs/external-data.md names the $nops ops of the table"
else
  bad "docs/external-data.md lacks ops of lib/passes/load_inputs.c:$missing ($nops ops)"
fi

# ---- 3. the rule: split with threshold 0, load in onnxruntime -------------------------
if [ -f "$work/stamp" ]; then
  : >"$work/split-list.txt"
  nsplit=0 split_bad=""
  for base in $(sed -n 's|^ok \(.*/base\.onnx\)$|\1|p' "$work/results.txt"); do
    d=$(dirname "$base")/split
    rm -rf "$d" && mkdir -p "$d"
    if "$cli" split "$base" "$d/model.onnx" --threshold 0 --constants --quiet >"$d/log" 2>&1; then
      echo "$d/model.onnx" >>"$work/split-list.txt"
      nsplit=$((nsplit + 1))
    else
      split_bad="$split_bad $base"
    fi
  done
  if [ -z "$split_bad" ]; then ok "split --threshold 0 --constants: $nsplit models"; else bad "split failed:$split_bad"; fi
  if ort_load_all "$work/split-list.txt" "$work/split-results.txt"; then
    nbad=$(grep -c '^error' "$work/split-results.txt")
    if [ "$nbad" -eq 0 ]; then
      ok "onnxruntime loads all $nsplit split models"
    else
      grep '^error' "$work/split-results.txt" | cut -c1-300 | head -n 20
      bad "onnxruntime refuses $nbad of $nsplit split models"
    fi
  else
    bad "ort_load.js over the split models"
  fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
