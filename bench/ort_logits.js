#!/usr/bin/env node
// Runs a reranker-shaped model (bench/make_reranker.c) in onnxruntime-node and
// prints its logits; optionally compares them with logits saved earlier.
//
// Usage: node bench/ort_logits.js MODEL.onnx [--vocab N] [--batch B] [--seq S]
//                                 [--save FILE.json] [--ref FILE.json] [--tol X]
//
// Token ids are spread over the whole vocabulary (so the embedding table is
// read far apart, like real text); row b has its last b tokens padded.
// onnxruntime-node is found through $ORT_NODE_MODULES (a node_modules dir),
// else build/node/node_modules, else normal resolution.
// Prints: logits=[...] finite=true|false [max_abs_diff=X within=true|false]
// Exit status: 0 ok, 1 non-finite or beyond --tol, 2 usage or load error.
'use strict';
const fs = require('fs');
const path = require('path');

function loadOrt() {
  const tries = [];
  if (process.env.ORT_NODE_MODULES) tries.push(path.resolve(process.env.ORT_NODE_MODULES, 'onnxruntime-node'));
  tries.push(path.resolve(__dirname, '..', 'build', 'node', 'node_modules', 'onnxruntime-node'));
  tries.push('onnxruntime-node');
  for (const t of tries) {
    try { return require(t); } catch (e) { /* next */ }
  }
  console.error('ort_logits.js: cannot load onnxruntime-node (tried ' + tries.join(', ') + ')');
  process.exit(2);
}

async function main() {
  const a = process.argv.slice(2);
  const opt = { vocab: 250002, batch: 2, seq: 16, save: null, ref: null, tol: 1e-2 };
  let model = null;
  for (let i = 0; i < a.length; i++) {
    const k = a[i].replace(/^--/, '');
    if (a[i].startsWith('--') && k in opt && i + 1 < a.length) {
      opt[k] = (k === 'save' || k === 'ref') ? a[++i] : Number(a[++i]);
    } else if (!model && !a[i].startsWith('--')) model = a[i];
    else { console.error('usage: node ort_logits.js MODEL [--vocab N] [--batch B] [--seq S] [--save F] [--ref F] [--tol X]'); process.exit(2); }
  }
  if (!model) { console.error('ort_logits.js: no model given'); process.exit(2); }
  const ort = loadOrt();
  let session;
  try {
    session = await ort.InferenceSession.create(model);
  } catch (e) {
    console.error('ort_logits.js: cannot load ' + model + ': ' + e.message);
    process.exit(2);
  }
  const { batch, seq, vocab } = opt;
  const ids = new BigInt64Array(batch * seq), mask = new BigInt64Array(batch * seq);
  for (let b = 0; b < batch; b++) {
    const valid = Math.max(1, seq - b);
    for (let s = 0; s < seq; s++) {
      const i = b * seq + s;
      const id = s === 0 ? 0 : (s * 7919 + b * 104729 + 12345) % (vocab - 3) + 3;
      ids[i] = BigInt(s < valid ? id : 1);
      mask[i] = s < valid ? 1n : 0n;
    }
  }
  const res = await session.run({
    input_ids: new ort.Tensor('int64', ids, [batch, seq]),
    attention_mask: new ort.Tensor('int64', mask, [batch, seq]),
  });
  const logits = Array.from(res.logits.data);
  const finite = logits.every(Number.isFinite);
  let line = `logits=[${logits.map(v => v.toPrecision(7)).join(',')}] finite=${finite}`;
  let ok = finite;
  if (opt.save) fs.writeFileSync(opt.save, JSON.stringify(logits));
  if (opt.ref) {
    const ref = JSON.parse(fs.readFileSync(opt.ref, 'utf8'));
    let d = 0;
    for (let i = 0; i < ref.length; i++) d = Math.max(d, Math.abs(ref[i] - logits[i]));
    if (ref.length !== logits.length) d = Infinity;
    ok = ok && d <= opt.tol;
    line += ` max_abs_diff=${d.toExponential(2)} within=${d <= opt.tol}`;
  }
  console.log(line);
  process.exit(ok ? 0 : 1);
}

main().catch(e => { console.error('ort_logits.js: ' + (e && e.message || e)); process.exit(1); });
