#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// The runtime footprint of a reranker-shaped model (bench/make_reranker.c) in
// onnxruntime-node (CPU): memory after the session is created and after runs
// whose token ids are spread over the whole vocabulary, run time, and the
// logits compared with those of another model (the FP32 original).
//
// Usage: node bench/ort_footprint.js MODEL.onnx [--runs N] [--keep 0|1]
//                                    [--arena 0|1] [--prepack 0|1] [--vocab N]
//                                    [--save F.json] [--ref F.json]
//
// --keep 1 creates the session with the setting that keeps a 16-bit
// conversion's saving: the graph optimizers that turn Cast(initializer) into
// an FP32 initializer (ConstantFolding, FuseFp16InitializerToFp32NodeTransformer)
// are disabled through the session config entry
// optimization.disable_specified_optimizers; every other optimization runs.
// --arena 0 turns the CPU memory arena off (enableCpuMemArena: false), so the
// FP32 copies the Casts make at each run are freed instead of kept.
// --prepack 0 sets session.disable_prepacking: the MatMul weights are used
// where they are (e.g. in the mapped external data file) instead of being
// copied into a packed layout on the heap.
// Run i uses batch 2, sequence 16, token ids offset by i * 7919 (so N runs
// read rows far apart over the table, like real text).
// Prints one line of key=value pairs:
//   status=ok|refused create_s hwm_create_kb anon_create_kb file_create_kb
//   run_s (fastest run but the first) hwm_runs_kb anon_runs_kb file_runs_kb finite
//   [max_abs_diff]
// VmHWM is the peak resident set; RssAnon (heap) and RssFile (mapped file
// pages) are the current parts, read right after creation and after the runs.
// status=refused (exit 0) when onnxruntime does not accept the model, with
// its message in error="...". Exit status: 0 ok or refused, 2 usage.
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
  console.error('ort_footprint.js: cannot load onnxruntime-node (tried ' + tries.join(', ') + ')');
  process.exit(2);
}

// The optimizers that fold Cast(initializer) back into an FP32 initializer.
const FOLDERS = 'ConstantFolding;FuseFp16InitializerToFp32NodeTransformer';

function status() {
  const s = fs.readFileSync('/proc/self/status', 'utf8');
  const f = k => { const m = s.match(new RegExp('^' + k + ':\\s+(\\d+)', 'm')); return m ? Number(m[1]) : -1; };
  return { hwm: f('VmHWM'), anon: f('RssAnon'), file: f('RssFile') };
}

function inputs(ort, run, vocab) {
  const batch = 2, seq = 16;
  const ids = new BigInt64Array(batch * seq), mask = new BigInt64Array(batch * seq);
  for (let b = 0; b < batch; b++) {
    const valid = Math.max(1, seq - b);
    for (let s = 0; s < seq; s++) {
      const i = b * seq + s;
      const id = s === 0 ? 0 : (s * 7919 + b * 104729 + run * 7919 * 16 + 12345) % (vocab - 3) + 3;
      ids[i] = BigInt(s < valid ? id : 1);
      mask[i] = s < valid ? 1n : 0n;
    }
  }
  return {
    input_ids: new ort.Tensor('int64', ids, [batch, seq]),
    attention_mask: new ort.Tensor('int64', mask, [batch, seq]),
  };
}

async function main() {
  const a = process.argv.slice(2);
  const opt = { runs: 4, keep: 0, arena: 1, prepack: 1, vocab: 250002, save: null, ref: null };
  let model = null;
  for (let i = 0; i < a.length; i++) {
    const k = a[i].replace(/^--/, '');
    if (a[i].startsWith('--') && k in opt && i + 1 < a.length) {
      opt[k] = (k === 'save' || k === 'ref') ? a[++i] : Number(a[++i]);
    } else if (!model && !a[i].startsWith('--')) model = a[i];
    else {
      console.error('usage: node ort_footprint.js MODEL [--runs N] [--keep 0|1] [--arena 0|1] [--prepack 0|1] [--vocab N] [--save F] [--ref F]');
      process.exit(2);
    }
  }
  if (!model || !(opt.runs >= 1)) { console.error('ort_footprint.js: no model given, or --runs < 1'); process.exit(2); }
  const ort = loadOrt();
  const so = {};
  if (!opt.arena) so.enableCpuMemArena = false;
  if (opt.keep || !opt.prepack) so.extra = {};
  if (opt.keep) so.extra.optimization = { disable_specified_optimizers: FOLDERS };
  if (!opt.prepack) so.extra.session = { disable_prepacking: '1' };
  let session;
  const t0 = process.hrtime.bigint();
  try {
    session = await ort.InferenceSession.create(model, so);
  } catch (e) {
    const msg = String(e && e.message || e).replace(/\s+/g, ' ').replace(/"/g, "'").slice(0, 300);
    console.log(`status=refused error="${msg}"`);
    process.exit(0);
  }
  const t1 = process.hrtime.bigint();
  const c = status();
  const logits = [];
  let finite = true;
  // the first run is a warm-up for the timing (its memory counts); the
  // fastest of the others is reported (the machine may be shared)
  let tr = -1n;
  for (let r = 0; r < opt.runs; r++) {
    const r0 = process.hrtime.bigint();
    const res = await session.run(inputs(ort, r, opt.vocab));
    const r1 = process.hrtime.bigint();
    if ((r > 0 || opt.runs === 1) && (tr < 0n || r1 - r0 < tr)) tr = r1 - r0;
    for (const v of res.logits.data) { logits.push(v); if (!Number.isFinite(v)) finite = false; }
  }
  const e = status();
  let line = `status=ok create_s=${(Number(t1 - t0) / 1e9).toFixed(2)}` +
    ` hwm_create_kb=${c.hwm} anon_create_kb=${c.anon} file_create_kb=${c.file}` +
    ` run_s=${(Number(tr) / 1e9).toFixed(4)}` +
    ` hwm_runs_kb=${e.hwm} anon_runs_kb=${e.anon} file_runs_kb=${e.file} finite=${finite}`;
  if (opt.save) fs.writeFileSync(opt.save, JSON.stringify(logits));
  if (opt.ref) {
    const ref = JSON.parse(fs.readFileSync(opt.ref, 'utf8'));
    let d = ref.length === logits.length ? 0 : Infinity;
    for (let i = 0; i < ref.length && i < logits.length; i++) d = Math.max(d, Math.abs(ref[i] - logits[i]));
    line += ` max_abs_diff=${d.toExponential(2)}`;
  }
  console.log(line);
  process.exit(0);
}

main().catch(e => { console.error('ort_footprint.js: ' + (e && e.message || e)); process.exit(1); });
