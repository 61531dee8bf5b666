#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Runs an ONNX model in onnxruntime-node on one FLOAT input and prints each
// output as one line "NAME DIMS VALUES" (dims and values comma-separated).
// Used by test/steps/53-examples.sh for examples/build_model.c.
//
// Usage: node test/ort_run.js MODEL INPUT DIMS VALUES
//   e.g. node test/ort_run.js tiny.onnx x 2,3 1,-2,3,-1,0.5,-2
// onnxruntime-node is loaded from $ORT_NODE_MODULES (test/ort-setup.sh).
'use strict';
const path = require('path');

async function main() {
  const [model, input, dims, values] = process.argv.slice(2);
  if (!values) {
    console.error('usage: node ort_run.js MODEL INPUT DIMS VALUES');
    process.exit(2);
  }
  const dir = process.env.ORT_NODE_MODULES;
  const ort = require(dir ? path.resolve(dir, 'onnxruntime-node') : 'onnxruntime-node');
  const session = await ort.InferenceSession.create(model, { logSeverityLevel: 3 });
  const shape = dims.split(',').map(Number);
  const data = Float32Array.from(values.split(',').map(Number));
  const out = await session.run({ [input]: new ort.Tensor('float32', data, shape) });
  for (const name of session.outputNames) {
    console.log(`${name} ${out[name].dims.join(',')} ${Array.from(out[name].data).join(',')}`);
  }
}

main().catch((e) => {
  console.error('ort_run.js: ' + String((e && e.message) || e).split('\n')[0]);
  process.exit(1);
});
