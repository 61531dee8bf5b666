# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Sourced by the test steps that run models in onnxruntime.
# ort_setup: makes sure onnxruntime-node $ORT_VERSION (default 1.30.0) is
# installed from the npm registry into $ORT_DIR (default $B/node, kept
# between runs) and exports ORT_NODE_MODULES. Returns non-zero on failure.
ORT_VERSION=${ORT_VERSION:-1.30.0}
ORT_DIR=${ORT_DIR:-$B/node}

ort_setup() {
  ort_pkg="$ORT_DIR/node_modules/onnxruntime-node/package.json"
  if [ ! -f "$ort_pkg" ] || ! grep -q "\"version\": \"$ORT_VERSION\"" "$ort_pkg"; then
    mkdir -p "$ORT_DIR" || return 1
    [ -f "$ORT_DIR/package.json" ] ||
      echo '{"name": "libonnxslim-test-ort", "private": true}' >"$ORT_DIR/package.json"
    echo "installing onnxruntime-node@$ORT_VERSION into $ORT_DIR"
    (cd "$ORT_DIR" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
      "onnxruntime-node@$ORT_VERSION") || return 1
  fi
  case $ORT_DIR in
  /*) ORT_NODE_MODULES="$ORT_DIR/node_modules" ;;
  *) ORT_NODE_MODULES="$PWD/$ORT_DIR/node_modules" ;;
  esac
  export ORT_NODE_MODULES
}

# ---- the second runtime: onnxruntime's Python wheel -------------------------------
# Every runtime check runs once per runtime of $ORT_RUNTIMES (default "node
# python"): onnxruntime-node (above) and the onnxruntime wheel from PyPI, in
# the venv scripts/pypi-venv.sh makes at $ORT_PY_VENV (default $B/pypi-ort,
# kept between runs; the version pinned in scripts/pypi-pins.txt). Each
# node runner SCRIPT.js has a Python twin SCRIPT.py beside it, with the
# same arguments, output and exit status, so a step runs
#   for rt in $ORT_RUNTIMES; do ort_cmd "$rt" test/external/ort_same.js ARGS; done
# and names the runtime in its check lines with $(ort_label "$rt").
ORT_RUNTIMES=${ORT_RUNTIMES:-node python}
ORT_PY_VENV=${ORT_PY_VENV:-$B/pypi-ort}
ORT_PY_VERSION=$(sed -n 's/^onnxruntime==//p' scripts/pypi-pins.txt)

# ort_py_setup: makes (or reuses) the venv with the onnxruntime wheel and
# exports ORT_PY (its python). Returns 77 when PyPI cannot be reached (or the
# wheel not installed), with ORT_PY_SKIP saying what is missing; other
# non-zero: a real error (ORT_PY_SKIP says it too).
ort_py_setup() {
  [ -n "${ORT_PY:-}" ] && [ -x "$ORT_PY" ] && return 0
  case $ORT_PY_VENV in /*) ;; *) ORT_PY_VENV="$PWD/$ORT_PY_VENV" ;; esac
  mkdir -p "$(dirname "$ORT_PY_VENV")"
  sh scripts/pypi-venv.sh "$ORT_PY_VENV" onnxruntime numpy 2>"$ORT_PY_VENV.err"
  ort_py_rc=$?
  if [ $ort_py_rc -ne 0 ]; then
    ORT_PY_SKIP="onnxruntime $ORT_PY_VERSION (Python wheel): $(tail -n 1 "$ORT_PY_VENV.err" | sed 's/^skip: //')"
    return $ort_py_rc
  fi
  ORT_PY="$ORT_PY_VENV/bin/python"
  export ORT_PY
}

# ort_runtimes_setup: sets up each runtime of $ORT_RUNTIMES; ort_have RT is
# then true for those that can run. A runtime that cannot be set up leaves
# ORT_SKIP_node / ORT_SKIP_python (the line a step prints with "skip:" and
# for which it counts its checks in that runtime as skipped, never passed).
# Returns non-zero when no runtime at all can run.
ort_runtimes_setup() {
  ORT_HAVE=""
  for rt in $ORT_RUNTIMES; do
    case $rt in
    node)
      if command -v node >/dev/null 2>&1 && ort_setup; then ORT_HAVE="$ORT_HAVE node"
      else ORT_SKIP_node="onnxruntime-node $ORT_VERSION: node or npm install failed (test/ort-setup.sh)"; fi ;;
    python)
      if ort_py_setup; then ORT_HAVE="$ORT_HAVE python"
      else ORT_SKIP_python=$ORT_PY_SKIP; fi ;;
    *) echo "ort-setup.sh: unknown runtime '$rt' in ORT_RUNTIMES (node, python)" >&2; return 2 ;;
    esac
  done
  [ -n "$ORT_HAVE" ]
}

# ort_have RT: true when runtime RT was set up by ort_runtimes_setup
ort_have() { case " $ORT_HAVE " in *" $1 "*) return 0 ;; esac; return 1; }

# ort_skip_reason RT: why RT cannot run (empty when it can)
ort_skip_reason() { eval "echo \"\${ORT_SKIP_$1:-}\""; }

# ort_label RT: "[node 1.30.0]" or "[python 1.32.0]", for the check lines
ort_label() {
  case $1 in node) echo "[node $ORT_VERSION]" ;; python) echo "[python $ORT_PY_VERSION]" ;; *) echo "[$1]" ;; esac
}

# ort_cmd [-t SECS] RT SCRIPT.js ARGS...: runs the runner in runtime RT:
# node SCRIPT.js, or the venv's python with the twin SCRIPT.py (under
# `timeout SECS` with -t)
ort_cmd() {
  ort_t=""
  if [ "$1" = -t ]; then ort_t="timeout $2"; shift 2; fi
  ort_rt=$1 ort_script=$2
  shift 2
  case $ort_rt in
  node) $ort_t node "$ort_script" "$@" ;;
  python) $ort_t "$ORT_PY" "${ort_script%.js}.py" "$@" ;;
  *) echo "ort_cmd: unknown runtime $ort_rt" >&2; return 2 ;;
  esac
}

# ort_say_runtimes: one line naming the runtimes the checks run in, and a
# "skip: ..." line for each runtime of $ORT_RUNTIMES that cannot run
ort_say_runtimes() {
  ort_l=""
  for rt in $ORT_HAVE; do ort_l="$ort_l $(ort_label "$rt")"; done
  echo "onnxruntime checks run in:${ort_l:- none}"
  for rt in $ORT_RUNTIMES; do
    ort_have "$rt" || echo "skip: $(ort_label "$rt") checks: $(ort_skip_reason "$rt")"
  done
}

# ort_step_setup: what a step that runs models in onnxruntime needs first
# (steps 32 and 33): Debian's onnx and numpy at $PY, a runtime of
# $ORT_RUNTIMES (named by ort_say_runtimes) and the command built in $B.
# Returns 1 with the reason in ORT_SETUP_ERROR.
ort_step_setup() {
  ORT_SETUP_ERROR=""
  if ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
    ORT_SETUP_ERROR="python3-onnx and python3-numpy are needed at $PY"
    return 1
  fi
  if ! ort_runtimes_setup; then
    ORT_SETUP_ERROR="no onnxruntime can run (test/ort-setup.sh)"
    return 1
  fi
  ort_say_runtimes
  if ! { [ -x "$B/libonnxslim" ] || make -s B="$B" all >/dev/null; }; then
    ORT_SETUP_ERROR="make all"
    return 1
  fi
}
