#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Loads and runs the models of test/external/make_shape_models.py in
// onnxruntime-node (x = 0..15, cond = true) and requires every model's
// output y to be bitwise identical to the first model's.
// Usage: node test/external/ort_shape.js ORIGINAL.onnx OTHER.onnx [...]
// Prints "same A B", "differ A B: why" or "error M: message".
// Exit status: 0 all identical, 1 otherwise. onnxruntime-node from
// $ORT_NODE_MODULES, else by normal require resolution.
'use strict';
const path = require('path');
const dir = process.env.ORT_NODE_MODULES;
const ort = dir ? require(path.resolve(dir, 'onnxruntime-node')) : require('onnxruntime-node');

async function run(model) {
  const s = await ort.InferenceSession.create(model);
  const x = new Float32Array(16).map((_, i) => i - 7.5);
  const feeds = { x: new ort.Tensor('float32', x, [16]) };
  if (s.inputNames.includes('cond')) feeds.cond = new ort.Tensor('bool', [true], []);
  const r = await s.run(feeds);
  return r.y;
}

(async () => {
  const models = process.argv.slice(2);
  let status = 0, ref;
  for (const m of models) {
    let y;
    try {
      y = await run(m);
    } catch (e) {
      console.log(`error ${m}: ${String(e && e.message || e).split('\n')[0].slice(0, 300)}`);
      status = 1;
      continue;
    }
    if (!ref) { ref = y; console.log(`ran ${m}: dims [${y.dims}]`); continue; }
    const same = y.dims.join(',') === ref.dims.join(',') &&
      Buffer.compare(Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength),
                     Buffer.from(ref.data.buffer, ref.data.byteOffset, ref.data.byteLength)) === 0;
    console.log(same ? `same ${models[0]} ${m}` : `differ ${models[0]} ${m}: dims [${y.dims}]`);
    if (!same) status = 1;
  }
  process.exit(status);
})();
