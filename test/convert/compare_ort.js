#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Runs a make_bert.py model and its libonnxslim conversions in onnxruntime-node
// on the same inputs and checks the converted outputs against bounds derived
// from the precision of the stored weights. For test/steps/55-convert-ort.sh.
//
// Usage:
//   node compare_ort.js VOCAB MAX_SEQ ORIG.onnx ORIG_PROBE.onnx MODE=CONV.onnx,CONV_PROBE.onnx ...
// MODE is gather-bf16, gather-bf16-trunc, all-fp16 or all-bf16 (convert_model.c).
// *_PROBE.onnx are the same models with the embedding values as extra graph
// outputs (add_outputs.py): word rows, position rows, word + token type, and
// the embedding sum that enters the first LayerNorm.
//
// Prints "PASS|FAIL MODE CHECK: details" lines, "INFO ..." lines with the
// measured numbers, and "N passed, N failed". Exit status 1 on any failure.
//
// onnxruntime-node is loaded from $ORT_NODE_MODULES (a node_modules directory).
//
// ---- the bounds -------------------------------------------------------------------
// A format with p significand bits stores x as fl(x) with
//   |fl(x) - x| <= 2^-p |x|        round to nearest (the unit roundoff u = 2^-p)
//   |fl(x) - x| <  2^-(p-1) |x|    truncation (BF16 only)
// (half an ulp relative to the smallest value of the binade; not 2^-(p+1)).
//   BF16, p = 8:  u = 2^-8  = 0.0039  (truncation: 2^-7 = 0.0078)
//   FP16, p = 11: u = 2^-11 = 0.00049 (normal range; below 2^-14 the error is
//                 at most 2^-25 absolute)
// The library's report confirms this on this model: max relative error
// 0.00389 for BF16 nearest, 0.00775 for truncation (check_models.py).
//
// 1. Embedding rows (checked exactly, probe models): the Cast after the Gather
//    must give exactly fl(w) for every gathered row, bit for bit, fl being the
//    mode's rounding (computed here in JS from the original model's rows).
// 2. Embedding sum s = (w + t) + p (cast-after-gather modes: only w and p are
//    rounded): |s' - s| <= u (|w| + |p|) + 2^-22 (|w + t| + |s|), the last term
//    for the FP32 rounding of the two Adds. Elementwise, no slack needed.
// 3. Logits. LayerNorm normalizes: with y = (x - mean)/sigma, the Jacobian is
//    (1/sigma) times a projection, so ||dy|| <= ||dx|| / sigma: the relative
//    perturbation of the encoder input is at most u ||w + p|| / ||x - mean||,
//    about 0.8 u here (w, p, t are i.i.d. N(0, 0.02^2)). Each encoder layer is
//    residual + LayerNorm with small random weights (gain 0.02 sqrt(H) ~ 0.23
//    per linear map), so a relative perturbation passes through with gain
//    about 1, and the classifier (dense, tanh near its linear range, dense)
//    turns a relative perturbation of its input into one of the same size in
//    the logits. So |d logit| <~ u * L, L = max |logit| over the inputs. We
//    require
//        cast after Gather (BF16):  max |d logit| <= 2 u L   (u = 2^-8, 2^-7 trunc)
//    For cast-before of every tensor, each of the ~27 rounding sites
//    (embeddings, 6 linear maps and 2 LayerNorms per layer x 3, head,
//    constants) adds an independent relative perturbation <~ u, adding up
//    in quadrature: sqrt(27) u ~ 5 u. We require
//        all tensors (FP16, BF16):  max |d logit| <= 8 u L   (FP16: 2^-8 L)
//    Measured on this model (ORT 1.30, the 10 inputs below): 0.32 u L (BF16
//    nearest), 0.20 u L (truncation, u = 2^-7), 0.62 u L (FP16), 0.64 u L
//    (all BF16): margins of 6x to 13x. Per input (L of that input alone) the
//    worst is 1.25 u L, which is why L is taken over all inputs. (A bound of
//    the form 0.02 * max(1, max|logit|) would be 0.02 here, 100x the BF16
//    error: it could not tell a correct conversion from a broken one.)
// 4. The converted logits must differ from the original's (else nothing was
//    converted), and truncation must give larger errors than rounding to
//    nearest on average. The latter is asserted on the embedding sum, where
//    it is a property of the formats (mean |error| of truncation ~ ulp/2, of
//    nearest ~ ulp/4); in the logits the ratio is only printed: truncation's
//    error is mostly a common shrink of each row (every value is rounded
//    toward zero), which the LayerNorm right after the embeddings removes, so
//    what reaches the logits is about as large for both modes.
'use strict';
const path = require('path');

const WORD = '/embeddings/word_embeddings/Gather_output_0';
const POS = '/embeddings/position_embeddings/Gather_output_0';
const WT = '/embeddings/Add_output_0';
const SUM = '/embeddings/Add_1_output_0';

const U = {
  'gather-bf16': 2 ** -8,
  'gather-bf16-trunc': 2 ** -7,
  'all-fp16': 2 ** -11,
  'all-bf16': 2 ** -8,
};
const LOGIT_FACTOR = { 'gather-bf16': 2, 'gather-bf16-trunc': 2, 'all-fp16': 8, 'all-bf16': 8 };

let passed = 0, failed = 0;
function say(ok, mode, check, details) {
  if (ok) passed++; else failed++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${mode} ${check}: ${details}`);
}

function loadOrt() {
  const dir = process.env.ORT_NODE_MODULES;
  return dir ? require(path.resolve(dir, 'onnxruntime-node')) : require('onnxruntime-node');
}

// Deterministic PRNG (mulberry32).
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// 10 inputs: batch 2..4, seq 16..64 (<= MAX_SEQ), random token ids over the
// whole vocabulary, row 0 unpadded, other rows padded (id 1, mask 0) after a
// random length; one input without padding, one with the first and last ids.
function makeInputs(vocab, maxSeq) {
  const r = rng(20240611);
  const seqs = [16, 24, 32, 40, 48, 56, 64, 17, 33, 64].map(s => Math.min(s, maxSeq));
  const cases = [];
  for (let k = 0; k < seqs.length; k++) {
    const B = 2 + (k % 3), S = seqs[k];
    const ids = new BigInt64Array(B * S), mask = new BigInt64Array(B * S);
    for (let b = 0; b < B; b++) {
      const len = b === 0 || k === 3 ? S : 1 + Math.floor(r() * S);
      for (let s = 0; s < S; s++) {
        const i = b * S + s;
        let id = Math.floor(r() * vocab);
        if (k === 5) id = (s + b) % 2 ? vocab - 1 : 0;
        ids[i] = s < len ? BigInt(id) : 1n;
        mask[i] = s < len ? 1n : 0n;
      }
    }
    cases.push({ B, S, ids, mask });
  }
  return cases;
}

async function runAll(ort, file, cases, names) {
  const sess = await ort.InferenceSession.create(file);
  const outs = [];
  for (const c of cases) {
    const res = await sess.run({
      input_ids: new ort.Tensor('int64', c.ids, [c.B, c.S]),
      attention_mask: new ort.Tensor('int64', c.mask, [c.B, c.S]),
    });
    const o = {};
    for (const n of names) {
      if (!res[n]) throw new Error(`${file}: no output ${n}`);
      o[n] = { data: Float32Array.from(res[n].data), dims: res[n].dims.join('x') };
    }
    outs.push(o);
  }
  return outs;
}

// Rounding of FP32 values to BF16 / FP16, back in FP32 (for finite inputs).
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
function bf16(x, trunc) {
  f32[0] = x;
  const u = u32[0];
  u32[0] = trunc ? (u & 0xFFFF0000) >>> 0 : (((u + 0x7FFF + ((u >>> 16) & 1)) >>> 16) << 16) >>> 0;
  return f32[0];
}
function fp16(x) {
  // Round the exact value of x to 11 significant bits (nearest even), with
  // FP16's fixed spacing 2^-24 below 2^-14 and overflow at 65520.
  const a = Math.abs(x);
  if (a === 0 || !Number.isFinite(a)) return x;
  if (a >= 65520) return x > 0 ? Infinity : -Infinity;
  let e = Math.floor(Math.log2(a));
  while (2 ** e > a) e--;
  while (2 ** (e + 1) <= a) e++;
  if (e < -14) e = -14;
  const ulp = 2 ** (e - 10);
  const q = a / ulp, fl = Math.floor(q), d = q - fl; // exact: ulp is a power of two
  const n = d > 0.5 || (d === 0.5 && fl % 2 === 1) ? fl + 1 : fl;
  return (x < 0 ? -1 : 1) * n * ulp;
}
function rounder(mode) {
  if (mode === 'all-fp16') return fp16;
  const trunc = mode.endsWith('-trunc');
  return x => bf16(x, trunc);
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length < 5) {
    console.error('usage: node compare_ort.js VOCAB MAX_SEQ ORIG.onnx ORIG_PROBE.onnx MODE=CONV.onnx,CONV_PROBE.onnx ...');
    process.exit(2);
  }
  const vocab = parseInt(args[0], 10), maxSeq = parseInt(args[1], 10);
  const ort = loadOrt();
  const cases = makeInputs(vocab, maxSeq);
  console.log(`INFO ${cases.length} inputs: ` + cases.map(c => `${c.B}x${c.S}`).join(' '));
  const probeNames = ['logits', WORD, POS, WT, SUM];
  const base = await runAll(ort, args[2], cases, ['logits']);
  const baseProbe = await runAll(ort, args[3], cases, probeNames);
  let L = 0;
  for (const o of base) for (const v of o.logits.data) L = Math.max(L, Math.abs(v));
  console.log(`INFO original: max |logit| L = ${L.toPrecision(6)}`);
  if (!(L > 1e-6) || !Number.isFinite(L)) {
    say(false, 'original', 'runs', `degenerate logits (max |logit| ${L})`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(1);
  }
  const meanSumErr = {}, meanLogitErr = {};
  for (const spec of args.slice(4)) {
    const [mode, files] = spec.split('=');
    const [file, probe] = files.split(',');
    const u = U[mode];
    if (u === undefined) {
      say(false, mode, 'runs', `unknown mode ${mode}`);
      continue;
    }
    let conv, convProbe;
    try {
      conv = await runAll(ort, file, cases, ['logits']);
      convProbe = await runAll(ort, probe, cases, probeNames);
    } catch (e) {
      say(false, mode, 'runs', String(e && e.message || e).slice(0, 300));
      continue;
    }
    // ---- runs: same shapes, finite ------------------------------------------------
    let shapesOk = true, finite = true;
    for (let k = 0; k < cases.length; k++) {
      if (conv[k].logits.dims !== base[k].logits.dims) shapesOk = false;
      for (const v of conv[k].logits.data) if (!Number.isFinite(v)) finite = false;
    }
    say(shapesOk && finite, mode, 'runs',
        `${cases.length} inputs, logits shapes ${shapesOk ? 'match' : 'DIFFER'}, ${finite ? 'all finite' : 'NON-FINITE values'}`);
    // ---- logits: differ, within the bound ---------------------------------------------
    let maxd = 0, sum = 0, n = 0, nDiff = 0, worstCase = 0;
    for (let k = 0; k < cases.length; k++) {
      const a = base[k].logits.data, b = conv[k].logits.data;
      let lk = 0, dk = 0;
      for (let i = 0; i < a.length; i++) {
        const d = Math.abs(b[i] - a[i]);
        if (b[i] !== a[i]) nDiff++;
        maxd = Math.max(maxd, d);
        dk = Math.max(dk, d);
        lk = Math.max(lk, Math.abs(a[i]));
        sum += d;
        n++;
      }
      worstCase = Math.max(worstCase, dk / (u * lk));
    }
    meanLogitErr[mode] = sum / n;
    const bound = LOGIT_FACTOR[mode] * u * L;
    console.log(`INFO ${mode} logits: max |diff| ${maxd.toExponential(3)} = ${(maxd / (u * L)).toFixed(3)} u L, ` +
                `mean |diff| ${(sum / n).toExponential(3)}, worst input ${worstCase.toFixed(3)} u L_input; ` +
                `${nDiff} of ${n} logits differ`);
    say(nDiff > 0, mode, 'differs', `${nDiff} of ${n} logits differ from the original's`);
    say(maxd <= bound, mode, 'logits-bound',
        `max |diff| ${maxd.toExponential(3)} <= ${LOGIT_FACTOR[mode]} u L = ${bound.toExponential(3)} (u = ${u}, L = ${L.toPrecision(4)})`);
    // ---- embedding rows: exactly the mode's rounding of the original rows ---------------
    const round = rounder(mode);
    let bad = 0, total = 0, firstBad = '';
    for (let k = 0; k < cases.length; k++) {
      for (const name of [WORD, POS]) {
        const a = baseProbe[k][name].data, b = convProbe[k][name].data;
        if (a.length !== b.length) { bad++; firstBad = `${name} shape`; continue; }
        for (let i = 0; i < a.length; i++) {
          total++;
          const want = round(a[i]);
          if (!Object.is(b[i], want)) {
            if (!firstBad) firstBad = `${name}[${i}] of input ${k}: ${b[i]} for ${a[i]}, want ${want}`;
            bad++;
          }
        }
      }
    }
    say(bad === 0 && total > 0, mode, 'embedding-rows',
        bad ? `${bad} of ${total} values wrong, first ${firstBad}` :
              `${total} gathered word and position values equal the ${mode.endsWith('-trunc') ? 'truncation' : 'rounding'} of the original's, bit for bit`);
    // ---- embedding sum (cast after Gather only: w and p rounded, t exact) ---------------
    if (mode.startsWith('gather')) {
      let worst = 0, esum = 0, en = 0, viol = 0;
      for (let k = 0; k < cases.length; k++) {
        const P = baseProbe[k], Q = convProbe[k];
        const s = P[SUM].data, s2 = Q[SUM].data, w = P[WORD].data, wt = P[WT].data, p = P[POS].data;
        const H = p.length / cases[k].S, perRow = cases[k].S * H;
        for (let i = 0; i < s.length; i++) {
          const pi = p[i % perRow];
          const d = Math.abs(s2[i] - s[i]);
          const lim = u * (Math.abs(w[i]) + Math.abs(pi)) + 2 ** -22 * (Math.abs(wt[i]) + Math.abs(s[i]));
          if (d > lim) viol++;
          worst = Math.max(worst, d / lim);
          esum += d;
          en++;
        }
      }
      meanSumErr[mode] = esum / en;
      say(viol === 0, mode, 'embedding-sum-bound',
          `${viol} of ${en} values outside u(|w|+|p|) + 2^-22(|w+t|+|s|); largest |diff| / bound ${worst.toFixed(3)}; mean |diff| ${(esum / en).toExponential(3)}`);
    }
  }
  // ---- truncation vs nearest --------------------------------------------------------------
  const a = meanSumErr['gather-bf16'], b = meanSumErr['gather-bf16-trunc'];
  if (a !== undefined && b !== undefined) {
    say(b >= a, 'gather-bf16-trunc', 'trunc-vs-nearest',
        `mean |error| of the embedding sum: truncation ${b.toExponential(3)}, nearest ${a.toExponential(3)} (ratio ${(b / a).toFixed(2)})`);
    const la = meanLogitErr['gather-bf16'], lb = meanLogitErr['gather-bf16-trunc'];
    console.log(`INFO mean |logit error|: truncation ${lb.toExponential(3)}, nearest ${la.toExponential(3)} (ratio ${(lb / la).toFixed(2)}; not asserted, see the header)`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch(e => {
  console.log(`FAIL compare_ort.js: ${e && e.message || e}`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
