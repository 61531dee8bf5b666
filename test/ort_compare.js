#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Runs original and edited ONNX models in onnxruntime-node on the inputs of
// a libonnx-testdata test (test_data_set_0/input_*.pb) and requires the
// outputs of every edited model to be bitwise identical to the original's.
// Used by test/steps/45-edit-interop.sh.
//
// Usage: node test/ort_compare.js LIST
//   LIST lines: KEY ORIGINAL.onnx DATADIR EDIT=EDITED.onnx [EDIT=EDITED.onnx ...]
// Output, one line per model and edit:
//   RESULT KEY EDIT pass|fail|skip DETAILS
// "skip" means onnxruntime cannot load or run the ORIGINAL model (or its
// inputs cannot be decoded), so the edit cannot be judged.
//
// onnxruntime-node is loaded from $ORT_NODE_MODULES (a node_modules
// directory), else by normal require resolution.
// Outputs are compared by position (the rename edit renames graph outputs).
'use strict';
const fs = require('fs');
const path = require('path');

function loadOrt() {
  const dir = process.env.ORT_NODE_MODULES;
  if (dir) return require(path.resolve(dir, 'onnxruntime-node'));
  return require('onnxruntime-node');
}

// ---- a small protobuf TensorProto decoder ---------------------------------

class Reader {
  constructor(buf) {
    this.b = buf;
    this.p = 0;
  }
  eof() { return this.p >= this.b.length; }
  varint() { // BigInt
    let v = 0n, s = 0n;
    for (;;) {
      if (this.p >= this.b.length) throw new Error('truncated varint');
      const c = this.b[this.p++];
      v |= BigInt(c & 0x7f) << s;
      if (!(c & 0x80)) return v;
      s += 7n;
      if (s > 70n) throw new Error('varint too long');
    }
  }
  bytes() {
    const n = Number(this.varint());
    if (this.p + n > this.b.length) throw new Error('truncated bytes');
    const out = this.b.subarray(this.p, this.p + n);
    this.p += n;
    return out;
  }
  skip(wt) {
    if (wt === 0) this.varint();
    else if (wt === 1) this.p += 8;
    else if (wt === 5) this.p += 4;
    else if (wt === 2) this.bytes();
    else throw new Error('unsupported wire type ' + wt);
  }
}

// Repeated numeric field: packed (wire type 2) or one element.
function readRepeated(r, wt, kind, into) {
  const one = (rr) => {
    if (kind === 'varint') into.push(rr.varint());
    else if (kind === 'f32') { into.push(rr.b.readFloatLE(rr.p)); rr.p += 4; }
    else if (kind === 'f64') { into.push(rr.b.readDoubleLE(rr.p)); rr.p += 8; }
  };
  if (wt === 2) {
    const sub = new Reader(r.bytes());
    while (!sub.eof()) one(sub);
  } else {
    one(r);
  }
}

function decodeTensor(buf) {
  const r = new Reader(buf);
  const t = { dims: [], dataType: 0, name: '', raw: null, f32: [], i32: [], i64: [], f64: [],
              u64: [], str: [], external: false, segment: false };
  while (!r.eof()) {
    const key = Number(r.varint());
    const field = key >>> 3, wt = key & 7;
    switch (field) {
      case 1: readRepeated(r, wt, 'varint', t.dims); break;
      case 2: t.dataType = Number(r.varint()); break;
      case 3: t.segment = true; r.skip(wt); break; // or a SequenceProto/OptionalProto's values
      case 4: readRepeated(r, wt, 'f32', t.f32); break;
      case 5: readRepeated(r, wt, 'varint', t.i32); break;
      case 6: t.str.push(Buffer.from(r.bytes()).toString('utf8')); break;
      case 7: readRepeated(r, wt, 'varint', t.i64); break;
      case 8: t.name = Buffer.from(r.bytes()).toString('utf8'); break;
      case 9: t.raw = Buffer.from(r.bytes()); break;
      case 10: readRepeated(r, wt, 'f64', t.f64); break;
      case 11: readRepeated(r, wt, 'varint', t.u64); break;
      case 13: t.external = true; r.skip(wt); break;
      case 14: t.external = t.external || Number(r.varint()) === 1; break;
      default: r.skip(wt);
    }
  }
  if (t.external) throw new Error('external data not supported');
  // field 3 is TensorProto.segment, but also the values of a SequenceProto
  // or OptionalProto (whose field 1 is a name, not dims): not a plain tensor
  if (t.segment) throw new Error('input is not a plain TensorProto (a sequence or optional?)');
  return t;
}

const TYPES = {
  1: ['float32', Float32Array], 2: ['uint8', Uint8Array], 3: ['int8', Int8Array],
  4: ['uint16', Uint16Array], 5: ['int16', Int16Array], 6: ['int32', Int32Array],
  7: ['int64', BigInt64Array], 8: ['string', null], 9: ['bool', Uint8Array],
  10: ['float16', Uint16Array], 11: ['float64', Float64Array], 12: ['uint32', Uint32Array],
  13: ['uint64', BigUint64Array],
};

// A TensorProto as [ort type, data, dims].
function tensorData(t) {
  const ty = TYPES[t.dataType];
  if (!ty) throw new Error('unsupported input data type ' + t.dataType);
  const dims = t.dims.map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const [name, Arr] = ty;
  if (name === 'string') return [name, t.str, dims];
  let data;
  if (t.raw) {
    const copy = new Uint8Array(t.raw); // aligned copy
    data = new Arr(copy.buffer, 0, copy.byteLength / Arr.BYTES_PER_ELEMENT);
  } else if (t.dataType === 1) {
    data = Float32Array.from(t.f32);
  } else if (t.dataType === 11) {
    data = Float64Array.from(t.f64);
  } else if (t.dataType === 7) {
    data = BigInt64Array.from(t.i64.map((v) => BigInt.asIntN(64, v)));
  } else if (t.dataType === 12) {
    data = Uint32Array.from(t.u64.map(Number));
  } else if (t.dataType === 13) {
    data = BigUint64Array.from(t.u64.map((v) => BigInt.asUintN(64, v)));
  } else {
    // int32_data carries every type of 32 bits or less (float16 as bits)
    data = Arr.from(t.i32.map((v) => Number(BigInt.asIntN(32, v))));
  }
  if (data.length !== count) throw new Error(`input has ${data.length} elements, dims say ${count}`);
  return [name, data, dims];
}

function loadFeeds(ort, session, dataDir) {
  const files = fs.readdirSync(dataDir).filter((f) => /^input_\d+\.pb$/.test(f))
    .sort((a, b) => parseInt(a.slice(6), 10) - parseInt(b.slice(6), 10));
  if (!files.length) throw new Error('no input_*.pb in ' + dataDir);
  const feeds = {};
  files.forEach((f, k) => {
    const t = decodeTensor(fs.readFileSync(path.join(dataDir, f)));
    const [type, data, dims] = tensorData(t);
    let name = t.name && session.inputNames.includes(t.name) ? t.name : session.inputNames[k];
    if (name === undefined) throw new Error(`${f}: no model input #${k}`);
    feeds[name] = new ort.Tensor(type, data, dims);
  });
  return feeds;
}

// ---- comparison -----------------------------------------------------------------

function bytesOf(data) {
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(JSON.stringify(data, (k, v) => (typeof v === 'bigint' ? v.toString() : v)));
}

function compare(a, b, namesA, namesB) {
  if (namesA.length !== namesB.length)
    return `output count ${namesB.length}, original has ${namesA.length}`;
  for (let i = 0; i < namesA.length; i++) {
    const x = a[namesA[i]], y = b[namesB[i]];
    if (!x || !y) return `output #${i} missing`;
    if (x.type !== y.type) return `output #${i} type ${y.type}, original ${x.type}`;
    if (JSON.stringify(x.dims) !== JSON.stringify(y.dims))
      return `output #${i} dims [${y.dims}], original [${x.dims}]`;
    if (!bytesOf(x.data).equals(bytesOf(y.data))) return `output #${i} ('${namesA[i]}') differs`;
  }
  return null;
}

function oneLine(e) {
  return String((e && e.message) || e).split('\n')[0].slice(0, 300);
}

async function main() {
  const list = process.argv[2];
  if (!list) {
    console.error('usage: node ort_compare.js LIST');
    process.exit(2);
  }
  const ort = loadOrt();
  const opts = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
                 logSeverityLevel: 4 };
  const lines = fs.readFileSync(list, 'utf8').split('\n').filter((l) => l.trim());
  for (const line of lines) {
    const [key, orig, dataDir, ...rest] = line.split(' ');
    const edits = rest.map((s) => s.split('='));
    const say = (edit, res, why) => console.log(`RESULT ${key} ${edit} ${res} ${why}`);
    let base, feeds, expected, again;
    // random ops without a seed give other outputs on every run; two runs
    // that happen to agree (a few Bernoulli draws) prove nothing, so a model
    // holding one (as a node's op_type, protobuf field 4) is skipped up front
    const random = randomOp(fs.readFileSync(orig));
    if (random) {
      for (const [edit] of edits) say(edit, 'skip', `original has a random op (${random})`);
      continue;
    }
    try {
      base = await ort.InferenceSession.create(orig, opts);
      feeds = loadFeeds(ort, base, dataDir);
      expected = await base.run(feeds);
      again = await base.run(feeds);
    } catch (e) {
      for (const [edit] of edits) say(edit, 'skip', 'original does not run in onnxruntime: ' + oneLine(e));
      continue;
    }
    // random ops (Bernoulli, RandomUniformLike, ...) without a seed give
    // other outputs on every run: nothing to compare with
    if (compare(expected, again, base.outputNames, base.outputNames)) {
      for (const [edit] of edits) say(edit, 'skip', 'original gives other outputs on every run');
      continue;
    }
    for (const [edit, file] of edits) {
      try {
        const s = await ort.InferenceSession.create(file, opts);
        const got = await s.run(feeds);
        const diff = compare(expected, got, base.outputNames, s.outputNames);
        if (diff) say(edit, 'fail', diff);
        else say(edit, 'pass', `${base.outputNames.length} outputs identical`);
        if (s.release) await s.release();
      } catch (e) {
        say(edit, 'fail', 'edited model does not run: ' + oneLine(e));
      }
    }
    if (base.release) await base.release();
  }
}

const RANDOM_OPS = ['Bernoulli', 'Multinomial', 'RandomNormal', 'RandomNormalLike',
  'RandomUniform', 'RandomUniformLike'];

// The first random op type found as a NodeProto op_type (tag 0x22, a
// one-byte length, the name) anywhere in the model bytes, or null.
function randomOp(buf) {
  for (const op of RANDOM_OPS) {
    const pat = Buffer.concat([Buffer.from([0x22, op.length]), Buffer.from(op, 'latin1')]);
    if (buf.indexOf(pat) >= 0) return op;
  }
  return null;
}

main().catch((e) => {
  console.error('ort_compare.js: ' + oneLine(e));
  process.exit(1);
});
