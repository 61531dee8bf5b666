# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# dtype conversion and the model's opset (issue 15, point 4): BFLOAT16 is
# accepted by Cast, Gather, Constant and most ops only from opset 13, so
# `libonnxslim convert --to bf16` / `--gather-to bf16` on a model importing an
# older ai.onnx opset must exit 1 with a message naming both opsets and write
# nothing; FP16 works at every opset. Models: gadd-9/11/12/13 (a Gather table,
# a MatMul weight and a Constant, built by test/convert/opset_check.py) and
# libonnx-testdata models at opsets 11, 12 and 13. Every conversion that
# succeeds is checked by test/convert/opset_check.py: python onnx's checker
# (full_check), the new type present, and onnxruntime-node runs the original
# and the converted model on the same inputs with outputs within a tolerance.
set -u
B=${B:-build}
PY=/usr/bin/python3
cli="$B/libonnxslim"
work="$B/convert-opset"
D=/usr/share/libonnx-testdata/data
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; exit $?; }

if ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
  bad "setup: python3-onnx and python3-numpy are needed at $PY"
  finish
fi
[ -x "$cli" ] || make -s B="$B" all >/dev/null || { bad "setup: make all"; finish; }
rm -rf "$work"
mkdir -p "$work"
"$PY" test/convert/opset_check.py make "$work" || { bad "setup: opset_check.py make"; finish; }

# KEY OPSET MODEL DATADIR GATHER(1: has a Gather table)
models="gadd-9 9 $work/gadd-9.onnx $work/gadd-9/test_data_set_0 1
gadd-11 11 $work/gadd-11.onnx $work/gadd-11/test_data_set_0 1
gadd-12 12 $work/gadd-12.onnx $work/gadd-12/test_data_set_0 1
gadd-13 13 $work/gadd-13.onnx $work/gadd-13/test_data_set_0 1
dql-11 11 $D/node/test_dynamicquantizelinear_expanded/model.onnx $D/node/test_dynamicquantizelinear_expanded/test_data_set_0 0
celu-12 12 $D/node/test_celu_expanded/model.onnx $D/node/test_celu_expanded/test_data_set_0 0
mvn-13 13 $D/node/test_mvn_expanded/model.onnx $D/node/test_mvn_expanded/test_data_set_0 0
nll-13 13 $D/node/test_nllloss_NCd1_weight_ii_expanded/model.onnx $D/node/test_nllloss_NCd1_weight_ii_expanded/test_data_set_0 0"

list="$work/list"
: > "$list"
echo "$models" | while read -r key opset model data gather; do
  [ -f "$model" ] || { echo "FAIL $key: $model missing (libonnx-testdata)"; continue; }
  for conv in "to-bf16:--to bf16" "gather-bf16:--gather-to bf16" "so-bf16:--to bf16 --policy storage-only" \
              "to-fp16:--to fp16" "gather-fp16:--gather-to fp16"; do
    name=${conv%%:*} args=${conv#*:}
    case $name in gather-*) [ "$gather" = 1 ] || continue ;; esac
    case $name in so-*) [ "$opset" -lt 13 ] || continue ;; esac
    out="$work/$key.$name.onnx"
    # shellcheck disable=SC2086
    "$cli" convert "$model" "$out" $args > "$work/o" 2> "$work/e"; r=$?
    case $name in
    *bf16)
      if [ "$opset" -lt 13 ]; then
        if [ $r -eq 1 ] && [ ! -e "$out" ] && grep -q 'BFLOAT16 needs opset 13 or later' "$work/e" &&
           grep -q "imports ai.onnx opset $opset" "$work/e"; then
          echo "ok   $key $args: exit 1, nothing written: $(cat "$work/e")"
        else
          echo "FAIL $key $args at opset $opset: exit $r, written: $([ -e "$out" ] && echo yes || echo no), stderr: $(head -c 300 "$work/e")"
        fi
        continue
      fi
      dt=16 tol=0.03 ;;
    *) dt=10 tol=0.005 ;;
    esac
    if [ $r -eq 0 ] && [ -f "$out" ]; then
      echo "$key:$name $model $data $out $dt $tol" >> "$list"
    else
      echo "FAIL $key $args: exit $r: $(head -c 300 "$work/e")"
    fi
  done
done > "$work/cli.txt"
cat "$work/cli.txt"
passed=$((passed + $(grep -c '^ok' "$work/cli.txt")))
failed=$((failed + $(grep -c '^FAIL' "$work/cli.txt")))

# ---- the converted models: python onnx checker and onnxruntime ---------------------
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  bad "setup: node and npm are needed (Debian package nodejs)"
  finish
fi
. test/ort-setup.sh
if ! ort_setup; then
  bad "setup: npm install onnxruntime-node@$ORT_VERSION"
  finish
fi
n=$(wc -l < "$list")
[ "$n" -ge 10 ] && ok "$n conversions to check" || bad "only $n conversions succeeded"
"$PY" test/convert/opset_check.py run "$work" "$list" > "$work/run.txt" 2>&1
cat "$work/run.txt"
passed=$((passed + $(grep -c '^ok' "$work/run.txt")))
failed=$((failed + $(grep -c '^FAIL' "$work/run.txt")))
[ "$(grep -c '^ok\|^FAIL' "$work/run.txt")" -eq "$n" ] || bad "opset_check.py run: $(tail -n 3 "$work/run.txt")"
finish
