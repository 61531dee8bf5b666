#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Runs a model with one int64 input in onnxruntime-node and writes its
// first output's values, raw little-endian FLOAT (or FLOAT16), to OUT (so a
// caller can compare them bit for bit). Used by test/quant/check_quant.py.
//
// Usage: node test/quant/run_ort.js MODEL INPUT DIMS IDS OUT [float32]
//   DIMS and IDS comma-separated (DIMS "-": a scalar); with float32 the
//   input is FLOAT (IDS its values), with float16 FLOAT16 (IDS the values'
//   bit patterns); a FLOAT16 output is written as its raw bit patterns;
//   onnxruntime-node from $ORT_NODE_MODULES.
// Exit status: 0 ok, 1 the session failed (its message on stderr).
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
  const [model, input, dims, ids, out, type] = process.argv.slice(2);
  if (!out) {
    console.error('usage: node run_ort.js MODEL INPUT DIMS IDS OUT');
    process.exit(2);
  }
  const dir = process.env.ORT_NODE_MODULES;
  const ort = require(dir ? path.resolve(dir, 'onnxruntime-node') : 'onnxruntime-node');
  const opts = { logSeverityLevel: 3 };
  if (process.env.ORT_OPT) opts.graphOptimizationLevel = process.env.ORT_OPT;
  // onnxruntime fuses DequantizeLinear -> MatMul into MatMulNBits with
  // accuracy_level 4 (A quantized to INT8) unless told otherwise
  if (process.env.ORT_QDQ_ACCURACY) {
    opts.extra = { session: { qdq_matmulnbits_accuracy_level: process.env.ORT_QDQ_ACCURACY } };
  }
  const session = await ort.InferenceSession.create(model, opts);
  const shape = dims === '-' ? [] : dims.split(',').map(Number);
  let tensor;
  if (type === 'float32') {
    tensor = new ort.Tensor('float32', Float32Array.from(ids.split(',').map(Number)), shape);
  } else if (type === 'float16') {
    tensor = new ort.Tensor('float16', Uint16Array.from(ids.split(',').map(Number)), shape);
  } else {
    tensor = new ort.Tensor('int64', BigInt64Array.from(ids.split(',').map((v) => BigInt(v))), shape);
  }
  const res = await session.run({ [input]: tensor });
  const y = res[session.outputNames[0]];
  if (y.type !== 'float32' && y.type !== 'float16') throw new Error('output type ' + y.type);
  fs.writeFileSync(out, Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength));
}

main().catch((e) => {
  console.error('run_ort.js: ' + String((e && e.message) || e).split('\n')[0]);
  process.exit(1);
});
