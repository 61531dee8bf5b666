#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Run a make_bert.py model with onnxruntime-node and check the outputs are finite.
//
// Usage: node test/gen/run_ort.js MODEL.onnx [BATCH] [SEQ]
//
// onnxruntime-node is looked up in $ORT_NODE_MODULES (a node_modules dir,
// e.g. after `cd /tmp && npm install --ignore-scripts onnxruntime-node@1.30.0`
// use ORT_NODE_MODULES=/tmp/node_modules), else by normal require resolution
// from this script, else from the current directory.
// Exit status: 0 ok, 1 non-finite output or run failure, 2 usage/load error.
'use strict';
const path = require('path');

function loadOrt() {
  const dir = process.env.ORT_NODE_MODULES;
  try {
    if (dir) return require(path.resolve(dir, 'onnxruntime-node'));
    try {
      return require('onnxruntime-node');
    } catch (e) {
      // Fall back to ./node_modules of the current directory.
      return require(require.resolve('onnxruntime-node', { paths: [process.cwd()] }));
    }
  } catch (e) {
    console.error('run_ort.js: cannot load onnxruntime-node' +
                  (dir ? ' from ' + dir : '') + ': ' + e.message);
    process.exit(2);
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length < 1) {
    console.error('usage: node run_ort.js MODEL.onnx [BATCH] [SEQ]');
    process.exit(2);
  }
  const model = args[0];
  const batch = parseInt(args[1] || '2', 10);
  const seq = parseInt(args[2] || '8', 10);
  const ort = loadOrt();

  const session = await ort.InferenceSession.create(model);
  const n = batch * seq;
  const ids = new BigInt64Array(n);
  const mask = new BigInt64Array(n);
  for (let b = 0; b < batch; b++) {
    // Row b has its last b tokens masked out (padding), so masking is exercised.
    const valid = Math.max(1, seq - b);
    for (let s = 0; s < seq; s++) {
      const i = b * seq + s;
      ids[i] = s === 0 ? 0n : BigInt((7 * s + 13 * b + 3) % 997 + 2);
      mask[i] = s < valid ? 1n : 0n;
      if (s >= valid) ids[i] = 1n;  // pad token id
    }
  }
  const feeds = {};
  for (const name of session.inputNames) {
    if (name === 'input_ids') feeds[name] = new ort.Tensor('int64', ids, [batch, seq]);
    else if (name === 'attention_mask') feeds[name] = new ort.Tensor('int64', mask, [batch, seq]);
    else { console.error('run_ort.js: unexpected input ' + name); process.exit(2); }
  }
  const results = await session.run(feeds);
  let ok = true;
  for (const name of session.outputNames) {
    const t = results[name];
    const vals = Array.from(t.data);
    const finite = vals.every(Number.isFinite);
    ok = ok && finite;
    console.log(`${name}: type=${t.type} dims=[${t.dims.join(',')}] ` +
                `first=[${vals.slice(0, 8).map(v => v.toPrecision(6)).join(', ')}] ` +
                `finite=${finite}`);
  }
  process.exit(ok ? 0 : 1);
}

main().catch(e => { console.error('run_ort.js: ' + (e && e.message || e)); process.exit(1); });
