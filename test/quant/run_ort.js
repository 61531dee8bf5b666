#!/usr/bin/env node
// Runs a model with one int64 input in onnxruntime-node and writes its
// first output's values, raw little-endian FLOAT, to OUT (so a caller can
// compare them bit for bit). Used by test/quant/check_quant.py.
//
// Usage: node test/quant/run_ort.js MODEL INPUT DIMS IDS OUT
//   DIMS and IDS comma-separated; onnxruntime-node from $ORT_NODE_MODULES.
// Exit status: 0 ok, 1 the session failed (its message on stderr).
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
  const [model, input, dims, ids, out] = process.argv.slice(2);
  if (!out) {
    console.error('usage: node run_ort.js MODEL INPUT DIMS IDS OUT');
    process.exit(2);
  }
  const dir = process.env.ORT_NODE_MODULES;
  const ort = require(dir ? path.resolve(dir, 'onnxruntime-node') : 'onnxruntime-node');
  const session = await ort.InferenceSession.create(model, { logSeverityLevel: 3 });
  const shape = dims.split(',').map(Number);
  const data = BigInt64Array.from(ids.split(',').map((v) => BigInt(v)));
  const res = await session.run({ [input]: new ort.Tensor('int64', data, shape) });
  const y = res[session.outputNames[0]];
  if (y.type !== 'float32') throw new Error('output type ' + y.type);
  fs.writeFileSync(out, Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength));
}

main().catch((e) => {
  console.error('run_ort.js: ' + String((e && e.message) || e).split('\n')[0]);
  process.exit(1);
});
