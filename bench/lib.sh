# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Shared by bench/run.sh and every bench/sections/*.sh (sourced, POSIX sh).
# Sections run in one shell, in the order of their numbers; a section relies
# only on what this file defines, never on another section's variables.

Babs=$(cd "$B" && pwd)

# field TEXT KEY: the value of KEY=value in a line of key=value pairs
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# ratio A B: A / B with two decimals, n/a when B is not positive
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "n/a"; else printf "%.2f", a / b }'; }
# mib KIB: MiB with one decimal
mib() { awk -v k="$1" 'BEGIN { if (k == "" || k < 0) print "n/a"; else printf "%.1f", k / 1024 }'; }
# secs NS0 NS1: seconds between two `date +%s%N` readings
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }

# need_bert: small and large, two BERT-shaped models that differ only in the
# size of their embedding table (generated once, cached in $B/bench)
need_bert() {
  small="$B/bench/bert-vocab25k.onnx"
  large="$B/bench/bert-vocab250k.onnx"
  [ -f "$small" ] || /usr/bin/python3 test/gen/make_bert.py "$small" --vocab 25000 --hidden 256 --layers 2 --heads 4 --ffn 256 >/dev/null
  [ -f "$large" ] || /usr/bin/python3 test/gen/make_bert.py "$large" --vocab 250000 --hidden 256 --layers 2 --heads 4 --ffn 256 >/dev/null
}

# need_ort: ort_ok=1 when onnxruntime-node 1.30 is in $B/node (installed
# there if missing and npm is present)
need_ort() {
  [ -n "${ort_ok:-}" ] && return 0
  ORT_NODE_MODULES="$Babs/node/node_modules"; export ORT_NODE_MODULES
  ort_ok=0
  if [ -d "$B/node/node_modules/onnxruntime-node" ]; then ort_ok=1
  elif command -v npm >/dev/null 2>&1; then
    mkdir -p "$B/node"
    if (cd "$B/node" && npm install --ignore-scripts onnxruntime-node@1.30.0) > "$B/node/npm-install.log" 2>&1; then ort_ok=1
    else echo "(onnxruntime-node could not be installed, see $B/node/npm-install.log: onnxruntime checks skipped)"; fi
  fi
}

# need_reranker: rr, the 1.1 GB XLM-R-base-shaped reranker (bench/make_reranker.c,
# generated once with the library's edit API and cached), and rr_ref, the
# FP32 logits onnxruntime gives for it (when onnxruntime is there)
need_reranker() {
  cc -std=c11 -O2 -Iinclude bench/make_reranker.c -L"$B" -lonnxslim -lm -Wl,-rpath,"$Babs" -o "$B/bench/make_reranker"
  rr="$B/bench/reranker-xlmr-base.onnx"
  rr_ref="$B/bench/reranker-xlmr-base.logits.json"
  need_ort
  if [ ! -f "$rr" ]; then
    echo "generating $rr with the library's edit API (once; cached) ..."
    "$B/bench/make_reranker" "$rr"
    if /usr/bin/python3 -c "import onnx, sys; onnx.checker.check_model(sys.argv[1])" "$rr"; then
      echo "onnx.checker.check_model: ok"
    else
      rm -f "$rr"; echo "the generated model fails onnx.checker: removed"; exit 1
    fi
    rm -f "$rr_ref"
  fi
  if [ "$ort_ok" = 1 ] && [ ! -f "$rr_ref" ]; then
    node bench/ort_logits.js "$rr" --save "$rr_ref" | sed 's/^/onnxruntime on the FP32 model: /'
  fi
}

# need_peak_rss: $B/bench/peak_rss, which runs a command and prints its
# VmHWM and the highest RssAnon / RssFile sampled
need_peak_rss() {
  cc -std=c11 -O2 -Iinclude bench/peak_rss.c -o "$B/bench/peak_rss"
}

# need_ort_py: ort_py_ok=1 when onnxruntime's Python wheel (the second
# runtime; version pinned in scripts/pypi-pins.txt) is in the venv
# $B/pypi-ort made by scripts/pypi-venv.sh (the one the tests use); sets
# ORT_PY (its python) and ort_py_label; else prints a "skip: ..." line once
need_ort_py() {
  [ -n "${ort_py_ok:-}" ] && return 0
  ort_py_ok=0
  ort_py_label="onnxruntime $(sed -n 's/^onnxruntime==//p' scripts/pypi-pins.txt) (Python wheel)"
  if sh scripts/pypi-venv.sh "$Babs/pypi-ort" onnxruntime numpy 2> "$Babs/pypi-ort.err"; then
    ORT_PY="$Babs/pypi-ort/bin/python"; export ORT_PY
    ort_py_ok=1
  else
    echo "skip: $ort_py_label figures: $(tail -n 1 "$Babs/pypi-ort.err" | sed 's/^skip: //')"
  fi
}

# need_hqq: hq_ok=1 when onnxruntime's HQQ 4-bit quantizer can run: it
# needs torch, Debian's python3-torch (1.13, numpy < 2; `make bench`
# installs it), under a venv of its own over the system's packages
# ($B/pypi-hqq, scripts/pypi-pins-hqq.txt: onnxruntime 1.20.1); sets HQ_PY
# (its python) and hq_label; else hq_ok=0 and hq_skip says why
need_hqq() {
  [ -n "${hq_ok:-}" ] && return 0
  hq_ok=0 hq_skip="" HQ_PY="$Babs/pypi-hqq/bin/python" hq_label=""
  if ! /usr/bin/python3 -c "import torch" 2> /dev/null; then
    hq_skip="Debian's python3-torch is not installed (apt-get install python3-torch; make bench does)"
  elif PYPI_PINS=pypi-pins-hqq.txt PYPI_SYSTEM_SITE=1 sh scripts/pypi-venv.sh "$Babs/pypi-hqq" onnx \
    onnxruntime 2> "$Babs/pypi-hqq.err"; then
    hq_ok=1
    hq_label="onnxruntime $("$HQ_PY" -c 'import onnxruntime; print(onnxruntime.__version__)') with torch $("$HQ_PY" -c 'import torch; print(torch.__version__)')"
  else
    hq_skip=$(tail -n 1 "$Babs/pypi-hqq.err" | sed 's/^skip: //')
  fi
}
