# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# External data interop. test/external/ext_tool.c (the public API) saves
# test/data/bert-tiny.onnx and a bigger make_bert.py model with external data
# (threshold 0, align 4096; also one file per tensor with checksums, Constant
# values out with align 64, merged back into one file, and the published BF16
# recipe as single-file and external variants).
# Each saved model must
#   - load in python onnx (onnx.load resolves the external data) and pass
#     onnx.checker.check_model(path), with aligned offsets, locations inside
#     the model's directory, data files ending at their last tensor, and the
#     same graph and tensor bytes as the single-file model
#     (test/external/check_onnx.py);
#   - give IDENTICAL outputs to the single-file model in each onnxruntime of
#     test/ort-setup.sh's $ORT_RUNTIMES: onnxruntime-node
#     (test/external/ort_same.js) and the Python wheel (its twin ort_same.py);
#     a runtime that cannot be set up (PyPI unreachable) counts skips;
#   - have the fingerprint of the model it was saved from.
# Also: int64 tensors that feed shape inputs stay inline even with threshold
# 0, so onnxruntime loads the model (test/external/make_shape_models.py: a
# Constant read as Reshape's shape, an initializer read as Reshape's shape
# inside If branches; test/external/ort_shape.js); python onnx's own
# external-data files load in the library with the same fingerprint; and
# (when strace is installed) onnxruntime maps the aligned .data file with
# mmap instead of reading it.
set -u
B=${B:-build}
PY=/usr/bin/python3
work="$B/external"
passed=0 failed=0 skipped=0

pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
skip() { echo "SKIP $*"; skipped=$((skipped + 1)); }
finish() {
  echo "$passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ] && exit 0
  exit 1
}

if ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
  echo "python3-onnx and python3-numpy are needed at $PY"
  fail "prerequisites"
  finish
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node and npm are needed (Debian package nodejs)"
  fail "prerequisites"
  finish
fi

. test/ort-setup.sh
if ! ort_runtimes_setup || ! ort_have node; then
  fail "npm install onnxruntime-node@$ORT_VERSION"
  finish
fi
ort_say_runtimes

[ -f "$B/libonnxslim.so" ] || make -s all >/dev/null || { fail "make all"; finish; }
cc -std=c11 -O2 -Wall -Wextra -Werror -Iinclude test/external/ext_tool.c -L"$B" -lonnxslim \
  -Wl,-rpath,"$PWD/$B" -o "$B/ext_tool" || { fail "build $B/ext_tool"; finish; }

rm -rf "$work"
mkdir -p "$work"

# ---- models ------------------------------------------------------------------------
cp test/data/bert-tiny.onnx "$work/tiny.onnx"
vocab_tiny=100
# word embeddings 5000 x 128 FP32 = 2.5 MB: over the 1 MiB kernel-copy cut-off
vocab_mid=5000
if ! "$PY" test/gen/make_bert.py "$work/mid.onnx" --vocab $vocab_mid --hidden 128 --layers 2 \
     --heads 4 --ffn 256 --seq 64 >"$work/make_bert.log" 2>&1; then
  cat "$work/make_bert.log"
  fail "make_bert.py"
fi

# ext NAME DIR ARGS...: runs ext_tool ARGS (ending IN OUT), log in $work/NAME.DIR.log
ext() {
  ext_log="$work/$1.$2.log"
  shift 2
  if "$B/ext_tool" "$@" >"$ext_log" 2>&1; then
    return 0
  fi
  echo "ext_tool $*:"
  tail -n 3 "$ext_log"
  return 1
}
fp_of() { sed -n "s/^$2 //p" "$1" | head -n 1; }

for name in tiny mid; do
  src="$work/$name.onnx"
  [ -f "$src" ] || continue
  eval vocab=\$vocab_$name
  d="$work/$name"
  mkdir -p "$d/ext" "$d/per" "$d/const" "$d/merged" "$d/bf16-single" "$d/bf16-ext" "$d/single"
  ok=1
  ext "$name" ext --threshold 0 --align 4096 "$src" "$d/ext/model.onnx" || ok=0
  ext "$name" per --mode per --threshold 0 --checksum "$src" "$d/per/model.onnx" || ok=0
  ext "$name" const --threshold 0 --align 64 --constants --checksum "$src" "$d/const/model.onnx" || ok=0
  ext "$name" merged --mode none "$d/ext/model.onnx" "$d/merged/model.onnx" || ok=0
  ext "$name" single --mode single "$src" "$d/single/model.onnx" || ok=0
  ext "$name" bf16-single --convert --mode single "$src" "$d/bf16-single/model.onnx" || ok=0
  ext "$name" bf16-ext --convert --threshold 0 --align 4096 "$src" "$d/bf16-ext/model.onnx" || ok=0
  if [ $ok -eq 1 ]; then pass "$name: ext_tool saved 7 variants"; else fail "$name: ext_tool"; fi

  # fingerprints: the saved model has the fingerprint of the model in memory,
  # every FP32 variant the original's, both BF16 variants one other value
  f0=$(fp_of "$work/$name.ext.log" fingerprint)
  fb=$(fp_of "$work/$name.bf16-single.log" fingerprint)
  bad=""
  for v in ext per const merged single bf16-single bf16-ext; do
    log="$work/$name.$v.log"
    want=$f0
    case $v in bf16-*) want=$fb ;; esac
    [ -n "$want" ] && [ "$(fp_of "$log" fingerprint)" = "$want" ] &&
      [ "$(fp_of "$log" saved_fingerprint)" = "$want" ] || bad="$bad $v"
  done
  [ -n "$fb" ] && [ "$fb" != "$f0" ] || bad="$bad bf16-differs"
  if [ -z "$bad" ]; then pass "$name: fingerprints ($f0 FP32, $fb BF16)"; else fail "$name: fingerprints:$bad"; fi
  if [ "$name" = mid ]; then
    kc=$(fp_of "$work/$name.ext.log" kernel_copied)
    # a build without copy_file_range (make PLATFORM=posix) writes every byte
    if grep -q 'ONNXSLIM_HAVE_COPY_FILE_RANGE 1' "$B/config/onnxslim_config.h"; then
      if [ "${kc:-0}" -gt 0 ]; then pass "$name: $kc bytes copied in the kernel"; else fail "$name: kernel_copied ${kc:-?}"; fi
    else
      if [ "${kc:-x}" = 0 ]; then pass "$name: no copy_file_range in this build, 0 bytes copied by the kernel"; else fail "$name: kernel_copied ${kc:-?} without copy_file_range"; fi
    fi
  fi

  # python onnx: load, checker, layout, same tensors
  for v in "ext $src" "per $src" "const $src --align 64" "merged $src --expect-external 0" \
           "bf16-ext $d/bf16-single/model.onnx"; do
    set -- $v
    variant=$1 ref=$2
    shift 2
    if "$PY" test/external/check_onnx.py "$ref" "$d/$variant/model.onnx" "$@" \
         >"$work/$name.$variant.py.txt" 2>&1; then
      pass "$name/$variant: python onnx load + checker + layout + tensors"
    else
      fail "$name/$variant: python onnx: $(grep -m 3 -E '^FAIL|Error' "$work/$name.$variant.py.txt" | tr '\n' ' ')"
    fi
  done

  # onnxruntime: identical outputs, in each runtime
  for rt in $ORT_RUNTIMES; do
    L=$(ort_label "$rt")
    if ! ort_have "$rt"; then
      skip "$L $name: onnxruntime FP32 and BF16 outputs: $(ort_skip_reason "$rt")"
      continue
    fi
    if ort_cmd -t 300 "$rt" test/external/ort_same.js --vocab $vocab "$src" "$d/ext/model.onnx" \
         "$d/per/model.onnx" "$d/const/model.onnx" "$d/merged/model.onnx" >"$work/$name.ort-$rt.txt" 2>&1; then
      pass "$L $name: onnxruntime outputs identical (original, external, per tensor, Constants out, merged)"
    else
      fail "$L $name: onnxruntime FP32: $(grep -E '^(differ|error)' "$work/$name.ort-$rt.txt" | head -n 3 | tr '\n' ' ')"
    fi
    if ort_cmd -t 300 "$rt" test/external/ort_same.js --vocab $vocab "$d/bf16-single/model.onnx" \
         "$d/bf16-ext/model.onnx" >"$work/$name.ort-bf16-$rt.txt" 2>&1; then
      pass "$L $name: onnxruntime outputs identical (BF16 recipe single file vs external)"
    else
      fail "$L $name: onnxruntime BF16: $(grep -E '^(differ|error)' "$work/$name.ort-bf16-$rt.txt" | head -n 3 | tr '\n' ' ')"
    fi
  done
  # the runtimes side by side (not a test: each is judged against itself)
  if ort_have node && ort_have python; then
    a=$(grep '^outputs ' "$work/$name.ort-node.txt") b=$(grep '^outputs ' "$work/$name.ort-python.txt")
    if [ "$a" = "$b" ]; then
      echo "note (not a test): $name: $(ort_label node) and $(ort_label python) print the same outputs (first 4 values, 6 digits)"
    else
      echo "note (not a test): $name: the runtimes DIFFER: $(ort_label node) $a; $(ort_label python) $b"
    fi
  fi
done

# ---- shape inputs stay inline, so onnxruntime can load the model -------------------------
# threshold 0 (and Constants out) must still keep int64 tensors that feed
# shape inputs inline: a Constant's value read as Reshape's shape, and an
# initializer read as Reshape's shape inside If branches
mkdir -p "$work/shape"
if "$PY" test/external/make_shape_models.py "$work/shape" >"$work/shape/make.log" 2>&1; then
  for k in const if; do
    mkdir -p "$work/shape/$k"
    if ! ext shape "$k" --threshold 0 --constants "$work/shape/$k.onnx" "$work/shape/$k/model.onnx"; then
      fail "shape/$k: ext_tool"
      continue
    fi
    for rt in $ORT_RUNTIMES; do
      L=$(ort_label "$rt")
      if ! ort_have "$rt"; then skip "$L shape/$k: $(ort_skip_reason "$rt")"; continue; fi
      if ort_cmd -t 120 "$rt" test/external/ort_shape.js "$work/shape/$k.onnx" "$work/shape/$k/model.onnx" \
           >"$work/shape/$k.ort-$rt.txt" 2>&1; then
        pass "$L shape/$k: onnxruntime loads it, same output ($(grep '^tensor shape ' "$work/shape.$k.log" | cut -d' ' -f3))"
      else
        fail "$L shape/$k: shape tensor $(grep '^tensor shape ' "$work/shape.$k.log" | cut -d' ' -f3): $(grep -E '^(error|differ)' "$work/shape/$k.ort-$rt.txt" | head -n 1)"
      fi
    done
  done
else
  fail "make_shape_models.py: $(tail -n 1 "$work/shape/make.log")"
fi

# ---- python onnx's external data, read by the library ---------------------------------
if [ -f "$work/mid.onnx" ]; then
  mkdir -p "$work/pyext"
  if "$PY" - "$work/mid.onnx" "$work/pyext/model.onnx" >"$work/pyext.log" 2>&1 <<'EOF'
import sys, onnx
m = onnx.load(sys.argv[1])
onnx.save_model(m, sys.argv[2], save_as_external_data=True, all_tensors_to_one_file=True,
                location="weights.bin", size_threshold=0)
EOF
  then
    f_py=$("$B/ext_tool" "$work/pyext/model.onnx" 2>>"$work/pyext.log" | sed -n 's/^fingerprint //p')
    f0=$(fp_of "$work/mid.ext.log" fingerprint)
    if [ -n "$f_py" ] && [ "$f_py" = "$f0" ]; then
      pass "python onnx external data loads in the library, same fingerprint"
    else
      fail "python onnx external data: fingerprint '${f_py}' want '$f0' ($(tail -n 1 "$work/pyext.log"))"
    fi
  else
    fail "python onnx save_model with external data: $(tail -n 1 "$work/pyext.log")"
  fi
fi

# ---- onnxruntime maps the aligned data file --------------------------------------------
if ! command -v strace >/dev/null 2>&1; then
  skip "strace not installed: mmap of the .data file not checked"
elif [ -f "$work/mid/ext/model.onnx" ]; then
  data="$work/mid/ext/model.onnx.data"
  timeout 300 strace -f -qq -e trace=openat,mmap -o "$work/strace.txt" \
    node test/external/ort_same.js --vocab $vocab_mid "$work/mid/ext/model.onnx" \
    "$work/mid/ext/model.onnx" >"$work/strace-ort.txt" 2>&1
  # "PID openat(..., ".../model.onnx.data", ...) = FD" then "PID mmap(..., FD, OFF) = ADDR"
  mapped=$(awk -v f="model.onnx.data\"" '
    index($0, f) && /openat\(/ && $NF ~ /^[0-9]+$/ { fd[$NF] = 1; next }
    /mmap\(/ {
      s = $0; sub(/\) = .*/, "", s); n = split(s, a, ", ")
      if (n >= 6 && (a[5] in fd)) { print "mmap of fd " a[5] ": " $0; exit }
    }' "$work/strace.txt")
  if [ -n "$mapped" ]; then
    pass "onnxruntime mmaps $data (${mapped%%:*})"
  elif grep -q 'model.onnx.data' "$work/strace.txt"; then
    fail "onnxruntime opened $data but did not mmap it (see $work/strace.txt)"
  else
    skip "strace saw no open of $data (see $work/strace.txt)"
  fi
fi

finish
