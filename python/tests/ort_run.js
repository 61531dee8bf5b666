#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Runs one ONNX model in onnxruntime-node and prints its outputs as JSON.
// Used by python/tests/test_ort.py.
//
// Usage: node ort_run.js MODEL.onnx INPUTS.json
//   INPUTS.json: {"name": {"type": "float32"|"int64"|..., "dims": [...], "data": [...]}, ...}
//   (int64 data as decimal strings or numbers)
// Output on stdout: {"name": {"type": ..., "dims": [...], "data": [...]}, ...}, float data
// as numbers (NaN/Infinity as strings), int64 as decimal strings.
// Exit status: 0 ok, 1 the model failed to load or run, 3 onnxruntime-node not found.
// onnxruntime-node is loaded from $ORT_NODE_MODULES (a node_modules directory),
// else by normal require resolution.
'use strict';
const fs = require('fs');
const path = require('path');

let ort;
try {
  const dir = process.env.ORT_NODE_MODULES;
  ort = dir ? require(path.resolve(dir, 'onnxruntime-node')) : require('onnxruntime-node');
} catch (e) {
  process.stderr.write('onnxruntime-node not found: ' + e.message + '\n');
  process.exit(3);
}

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, int32: Int32Array, int64: BigInt64Array,
  uint8: Uint8Array, int8: Int8Array, bool: Uint8Array,
};

function toTensor(spec) {
  const Arr = ARRAYS[spec.type];
  if (!Arr) throw new Error('unsupported input type ' + spec.type);
  const data = spec.type === 'int64' ? Arr.from(spec.data.map((v) => BigInt(v))) :
    Arr.from(spec.data);
  return new ort.Tensor(spec.type, data, spec.dims);
}

function fromTensor(t) {
  const data = Array.from(t.data, (v) => {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    return v;
  });
  return { type: t.type, dims: Array.from(t.dims), data };
}

async function main() {
  const [model, inputsPath] = process.argv.slice(2);
  const specs = JSON.parse(fs.readFileSync(inputsPath, 'utf8'));
  const feeds = {};
  for (const [name, spec] of Object.entries(specs)) feeds[name] = toTensor(spec);
  const session = await ort.InferenceSession.create(model);
  const results = await session.run(feeds);
  const out = {};
  for (const name of session.outputNames) out[name] = fromTensor(results[name]);
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
