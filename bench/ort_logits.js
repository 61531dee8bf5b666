#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Runs a reranker-shaped model (bench/make_reranker.c) in onnxruntime-node and
// prints its logits; optionally compares them with logits saved earlier.
//
// Usage: node bench/ort_logits.js MODEL.onnx [--vocab N] [--batch B] [--seq S]
//                                 [--runs R] [--save FILE.json] [--ref FILE.json]
//                                 [--tol X]
//
// R runs (default 1) of B inputs each (B * R inputs in all, every one
// different): input n (counted over all runs) has token ids spread over the
// whole vocabulary (so the embedding table is read far apart, like real text)
// and its last n % 8 tokens padded.
// onnxruntime-node is found through $ORT_NODE_MODULES (a node_modules dir),
// else build/node/node_modules, else normal resolution.
// Prints: logits=[...] finite=true|false hwm_kb=K anon_kb=K file_kb=K
//         [max_abs_diff=X within=true|false]
// hwm_kb is the process's peak resident set (VmHWM) after the runs; anon_kb
// (RssAnon: heap) and file_kb (RssFile: mapped file pages, the binaries and
// any external data onnxruntime maps) are its parts at that moment.
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

// half H: the value of the IEEE binary16 bits H
function half(h) {
  const e = (h >> 10) & 31, m = h & 1023, s = h & 0x8000 ? -1 : 1;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

async function main() {
  const a = process.argv.slice(2);
  const opt = { vocab: 250002, batch: 2, seq: 16, runs: 1, save: null, ref: null, tol: 1e-2 };
  let model = null;
  for (let i = 0; i < a.length; i++) {
    const k = a[i].replace(/^--/, '');
    if (a[i].startsWith('--') && k in opt && i + 1 < a.length) {
      opt[k] = (k === 'save' || k === 'ref') ? a[++i] : Number(a[++i]);
    } else if (!model && !a[i].startsWith('--')) model = a[i];
    else { console.error('usage: node ort_logits.js MODEL [--vocab N] [--batch B] [--seq S] [--runs R] [--save F] [--ref F] [--tol X]'); process.exit(2); }
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
  const { batch, seq, vocab, runs } = opt;
  const logits = [];
  for (let r = 0; r < runs; r++) {
    const ids = new BigInt64Array(batch * seq), mask = new BigInt64Array(batch * seq);
    for (let bb = 0; bb < batch; bb++) {
      const b = r * batch + bb; // the input's number over all runs
      const valid = Math.max(1, seq - (b % 8));
      for (let s = 0; s < seq; s++) {
        const i = bb * seq + s;
        const id = s === 0 ? 0 : (s * 7919 + b * 104729 + 12345) % (vocab - 3) + 3;
        ids[i] = BigInt(s < valid ? id : 1);
        mask[i] = s < valid ? 1n : 0n;
      }
    }
    const res = await session.run({
      input_ids: new ort.Tensor('int64', ids, [batch, seq]),
      attention_mask: new ort.Tensor('int64', mask, [batch, seq]),
    });
    // FP16 logits (a model converted without keeping its I/O types) come
    // as their bits
    const f16 = res.logits.type === 'float16' && res.logits.data instanceof Uint16Array;
    for (const v of res.logits.data) logits.push(f16 ? half(v) : v);
  }
  const finite = logits.every(Number.isFinite);
  const st = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = k => { const m = st.match(new RegExp('^' + k + ':\\s+(\\d+)', 'm')); return m ? Number(m[1]) : -1; };
  let line = `logits=[${logits.map(v => v.toPrecision(7)).join(',')}] finite=${finite}` +
    ` hwm_kb=${kb('VmHWM')} anon_kb=${kb('RssAnon')} file_kb=${kb('RssFile')}`;
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
