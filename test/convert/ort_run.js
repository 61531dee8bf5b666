#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Runs ONNX models in onnxruntime-node on inputs given as JSON and writes
// their outputs as JSON. Used by test/convert/opset_check.py.
//
// Usage: node test/convert/ort_run.js JOBS.json
//   JOBS.json: [{"model": PATH, "out": PATH,
//                "feeds": {NAME: {"type": "float32"|"int64"|..., "dims": [...], "data": [...]}}}]
//   Each job's "out" receives {"ok": true, "outputs": {NAME: {"type", "dims", "data"}}}
//   or {"ok": false, "error": MESSAGE} when the model does not load or run.
// onnxruntime-node is loaded from $ORT_NODE_MODULES when set.
'use strict';
const fs = require('fs');
const path = require('path');

function loadOrt() {
  const dir = process.env.ORT_NODE_MODULES;
  if (dir) return require(path.resolve(dir, 'onnxruntime-node'));
  return require('onnxruntime-node');
}

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array,
};

function tensorOf(ort, f) {
  if (f.type === 'bool') return new ort.Tensor('bool', Uint8Array.from(f.data), f.dims);
  const A = ARRAYS[f.type];
  if (!A) throw new Error('unsupported input type ' + f.type);
  const data = A === BigInt64Array || A === BigUint64Array ? A.from(f.data.map((v) => BigInt(v)))
                                                           : A.from(f.data);
  return new ort.Tensor(f.type, data, f.dims);
}

function plain(t) {
  const data = Array.from(t.data, (v) => (typeof v === 'bigint' ? Number(v) : v));
  // JSON has no NaN or Inf: write them as strings
  return { type: t.type, dims: Array.from(t.dims),
           data: data.map((v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)) };
}

async function main() {
  const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const ort = loadOrt();
  const opts = { intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 4 };
  for (const job of jobs) {
    let res;
    try {
      const s = await ort.InferenceSession.create(job.model, opts);
      const feeds = {};
      for (const [name, f] of Object.entries(job.feeds)) feeds[name] = tensorOf(ort, f);
      const got = await s.run(feeds);
      const outputs = {};
      for (const name of s.outputNames) outputs[name] = plain(got[name]);
      res = { ok: true, outputs };
      if (s.release) await s.release();
    } catch (e) {
      res = { ok: false, error: String((e && e.message) || e).split('\n')[0].slice(0, 300) };
    }
    fs.writeFileSync(job.out, JSON.stringify(res));
  }
}

main().catch((e) => {
  console.error('ort_run.js: ' + String((e && e.message) || e));
  process.exit(1);
});
