// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Runtime proof of the simplification in onnxruntime-node (test step
// 32-simplify-ort; its Python twin is ort_simplified.py: same arguments,
// output lines and exit status).
// usage: node ort_simplified.js MANIFEST
// For each pair of the manifest (test/simplify/prep_inputs.py) runs the
// original and the simplified model on each set of inputs and compares every
// output's type, dims and bytes. Prints per pair "same NAME", "differ NAME:
// why", "error NAME: why" (the simplified model fails where the original
// ran) or "skip NAME: why" (the original itself does not load or run here).
// Exit status: 0 nothing differs, 1 something differs or fails.
'use strict';
const fs = require('fs');
const path = require('path');

function loadOrt() {
  const dir = process.env.ORT_NODE_MODULES;
  if (dir) return require(path.resolve(dir, 'onnxruntime-node'));
  return require('onnxruntime-node');
}

const ARRAYS = {
  float32: Float32Array, uint8: Uint8Array, int8: Int8Array, uint16: Uint16Array,
  int16: Int16Array, int32: Int32Array, int64: BigInt64Array, bool: Uint8Array,
  float16: Uint16Array, float64: Float64Array, uint32: Uint32Array, uint64: BigUint64Array,
};

function bytesOf(t) {
  const d = t.data;
  if (Array.isArray(d)) return Buffer.from(JSON.stringify(d));
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

async function outputs(ort, s, run) {
  const feeds = {};
  for (const i of run) {
    const b = fs.readFileSync(i.file);
    const A = ARRAYS[i.type];
    const copy = new Uint8Array(b.length);
    copy.set(b);
    const data = new A(copy.buffer, 0, b.length / A.BYTES_PER_ELEMENT);
    feeds[i.name] = new ort.Tensor(i.type, data, i.dims);
  }
  const r = await s.run(feeds);
  const names = s.outputNames;
  return names.map((n) => [n, r[n]]);
}

async function main() {
  const ort = loadOrt();
  const entries = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  let status = 0;
  for (const e of entries) {
    if (e.skip) {
      console.log(`skip ${e.name}: ${e.skip}`);
      continue;
    }
    let ref;
    try {
      const so = await ort.InferenceSession.create(e.original, { logSeverityLevel: 3 });
      ref = [];
      for (const r of e.runs) ref.push(await outputs(ort, so, r));
    } catch (x) {
      console.log(`skip ${e.name}: the original does not run: ${String(x.message || x).split('\n')[0].slice(0, 120)}`);
      continue;
    }
    let got;
    try {
      const ss = await ort.InferenceSession.create(e.simplified, { logSeverityLevel: 3 });
      got = [];
      for (const r of e.runs) got.push(await outputs(ort, ss, r));
    } catch (x) {
      console.log(`error ${e.name}: ${String(x.message || x).split('\n')[0].slice(0, 200)}`);
      status = 1;
      continue;
    }
    let why = '';
    for (let k = 0; k < ref.length && !why; k++) {
      const a = ref[k], b = got[k];
      if (a.map((x) => x[0]).join(',') !== b.map((x) => x[0]).join(',')) {
        why = `outputs ${b.map((x) => x[0])}, want ${a.map((x) => x[0])}`;
        break;
      }
      for (let j = 0; j < a.length; j++) {
        const ta = a[j][1], tb = b[j][1];
        if (ta.type !== tb.type || ta.dims.join(',') !== tb.dims.join(',') ||
            !bytesOf(ta).equals(bytesOf(tb))) {
          why = `input set ${k}, output ${a[j][0]} differs`;
          break;
        }
      }
    }
    if (why) {
      console.log(`differ ${e.name}: ${why}`);
      status = 1;
    } else {
      console.log(`same ${e.name}`);
    }
  }
  return status;
}

main().then((s) => process.exit(s), (x) => {
  console.log(`error: ${x.stack || x}`);
  process.exit(1);
});
