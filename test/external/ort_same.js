#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Runs several make_bert.py-shaped models (inputs input_ids, attention_mask)
// in onnxruntime-node on the same inputs and requires the outputs of every
// model to be bitwise identical to those of the first.
//
// Usage: node test/external/ort_same.js [--vocab N] [--batch B] [--seq S] A.onnx B.onnx [...]
//   token ids are taken modulo N (default 100, the vocabulary of bert-tiny)
// Prints "same A B" or "differ A B: why" per model after the first, and
// "outputs NAME dims=[...] first=[...]" for the first model.
// onnxruntime-node is loaded from $ORT_NODE_MODULES (a node_modules dir),
// else by normal require resolution.
// Exit status: 0 all identical, 1 some differ, 2 a model cannot be loaded or run.
'use strict';
const path = require('path');

function loadOrt() {
  const dir = process.env.ORT_NODE_MODULES;
  if (dir) return require(path.resolve(dir, 'onnxruntime-node'));
  return require('onnxruntime-node');
}

function bytesOf(t) {
  const d = t.data;
  if (Array.isArray(d)) return Buffer.from(JSON.stringify(d)); // string tensors
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

async function run(ort, model, batch, seq, vocab) {
  const session = await ort.InferenceSession.create(model);
  const n = batch * seq;
  const ids = new BigInt64Array(n);
  const mask = new BigInt64Array(n);
  for (let b = 0; b < batch; b++) {
    const valid = Math.max(1, seq - b); // row b has its last b tokens padded
    for (let s = 0; s < seq; s++) {
      const i = b * seq + s;
      ids[i] = s === 0 ? 0n : BigInt(((7 * s + 13 * b + 3) % (vocab - 2)) + 2);
      mask[i] = s < valid ? 1n : 0n;
      if (s >= valid) ids[i] = 1n;
    }
  }
  const feeds = {};
  for (const name of session.inputNames) {
    if (name === 'input_ids') feeds[name] = new ort.Tensor('int64', ids, [batch, seq]);
    else if (name === 'attention_mask') feeds[name] = new ort.Tensor('int64', mask, [batch, seq]);
    else throw new Error('unexpected input ' + name);
  }
  const results = await session.run(feeds);
  return session.outputNames.map((name) => ({ name, t: results[name] }));
}

async function main() {
  const args = process.argv.slice(2);
  let vocab = 100, batch = 2, seq = 8;
  const models = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--vocab') vocab = parseInt(args[++i], 10);
    else if (args[i] === '--batch') batch = parseInt(args[++i], 10);
    else if (args[i] === '--seq') seq = parseInt(args[++i], 10);
    else models.push(args[i]);
  }
  if (models.length < 2) {
    console.error('usage: node ort_same.js [--vocab N] [--batch B] [--seq S] A.onnx B.onnx [...]');
    process.exit(2);
  }
  const ort = loadOrt();
  let ref;
  try {
    ref = await run(ort, models[0], batch, seq, vocab);
  } catch (e) {
    console.log(`error ${models[0]}: ${e && e.message || e}`);
    process.exit(2);
  }
  for (const o of ref) {
    const v = Array.from(o.t.data).slice(0, 4).map((x) => Number(x).toPrecision(6));
    console.log(`outputs ${o.name} type=${o.t.type} dims=[${o.t.dims.join(',')}] first=[${v.join(', ')}]`);
  }
  let status = 0;
  for (const m of models.slice(1)) {
    let out;
    try {
      out = await run(ort, m, batch, seq, vocab);
    } catch (e) {
      console.log(`error ${m}: ${e && e.message || e}`);
      status = 2;
      continue;
    }
    let why = '';
    if (out.length !== ref.length) why = `${out.length} outputs, want ${ref.length}`;
    for (let k = 0; !why && k < ref.length; k++) {
      const a = ref[k].t, b = out[k].t;
      if (a.type !== b.type) why = `output ${k}: type ${b.type}, want ${a.type}`;
      else if (a.dims.join(',') !== b.dims.join(',')) why = `output ${k}: dims [${b.dims}], want [${a.dims}]`;
      else if (!bytesOf(a).equals(bytesOf(b))) {
        const x = Array.from(a.data), y = Array.from(b.data);
        const j = x.findIndex((v, i) => !Object.is(v, y[i]));
        why = `output ${k}: element ${j} is ${y[j]}, want ${x[j]}`;
      }
    }
    if (why) {
      console.log(`differ ${models[0]} ${m}: ${why}`);
      if (status === 0) status = 1;
    } else {
      console.log(`same ${models[0]} ${m}`);
    }
  }
  process.exit(status);
}

main().catch((e) => { console.log('error: ' + (e && e.message || e)); process.exit(2); });
