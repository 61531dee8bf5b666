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
