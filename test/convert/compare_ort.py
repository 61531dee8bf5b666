#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python onnxruntime twin of test/convert/compare_ort.js: same
arguments, the same 10 inputs (the same PRNG), the same checks and bounds
(derived in compare_ort.js's header), the same PASS/FAIL/INFO lines and exit
status. Run with the venv of test/ort-setup.sh.

Usage: compare_ort.py VOCAB MAX_SEQ ORIG.onnx ORIG_PROBE.onnx MODE=CONV.onnx,CONV_PROBE.onnx ...
"""
import math
import sys

import numpy as np
import onnxruntime as ort

WORD = "/embeddings/word_embeddings/Gather_output_0"
POS = "/embeddings/position_embeddings/Gather_output_0"
WT = "/embeddings/Add_output_0"
SUM = "/embeddings/Add_1_output_0"
U = {"gather-bf16": 2.0 ** -8, "gather-bf16-trunc": 2.0 ** -7, "all-fp16": 2.0 ** -11,
     "all-bf16": 2.0 ** -8}
LOGIT_FACTOR = {"gather-bf16": 2, "gather-bf16-trunc": 2, "all-fp16": 8, "all-bf16": 8}
M32 = 0xFFFFFFFF
passed = failed = 0


def e3(x):
    """x as JavaScript's x.toExponential(3) writes it (2.020e-4, not 2.020e-04)."""
    m, e = ("%.3e" % x).split("e")
    return "%se%s%d" % (m, "-" if int(e) < 0 else "+", abs(int(e)))


def say(ok, mode, check, details):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print("%s %s %s: %s" % ("PASS" if ok else "FAIL", mode, check, details))


def rng(seed):
    """compare_ort.js's mulberry32, on unsigned 32-bit values (the same bits)."""
    state = [seed & M32]

    def imul(a, b):
        return (a * b) & M32

    def r():
        state[0] = (state[0] + 0x6D2B79F5) & M32
        t = state[0]
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & M32
        return ((t ^ (t >> 14)) & M32) / 4294967296.0
    return r


def make_inputs(vocab, max_seq):
    r = rng(20240611)
    seqs = [min(s, max_seq) for s in (16, 24, 32, 40, 48, 56, 64, 17, 33, 64)]
    cases = []
    for k, S in enumerate(seqs):
        B = 2 + (k % 3)
        ids = np.zeros((B, S), np.int64)
        mask = np.zeros((B, S), np.int64)
        for b in range(B):
            length = S if (b == 0 or k == 3) else 1 + math.floor(r() * S)
            for s in range(S):
                i = math.floor(r() * vocab)
                if k == 5:
                    i = vocab - 1 if (s + b) % 2 else 0
                ids[b, s] = i if s < length else 1
                mask[b, s] = 1 if s < length else 0
        cases.append((B, S, ids, mask))
    return cases


def run_all(fname, cases, names):
    s = ort.InferenceSession(fname, providers=["CPUExecutionProvider"])
    have = {o.name for o in s.get_outputs()}
    for n in names:
        if n not in have:
            raise RuntimeError("%s: no output %s" % (fname, n))
    outs = []
    for (_, _, ids, mask) in cases:
        res = s.run(names, {"input_ids": ids, "attention_mask": mask})
        outs.append({n: np.asarray(v, np.float32) for n, v in zip(names, res)})
    return outs


def bf16(a, trunc):
    u = np.ascontiguousarray(a, np.float32).view(np.uint32).astype(np.uint64)
    if trunc:
        u = u & 0xFFFF0000
    else:
        u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return (u & M32).astype(np.uint32).view(np.float32)


def rounder(mode):
    if mode == "all-fp16":
        # numpy's FP32 -> FP16 rounds to nearest even, subnormals included,
        # overflow to Inf at 65520: the same as compare_ort.js's fp16()
        return lambda a: np.asarray(a, np.float32).astype(np.float16).astype(np.float32)
    trunc = mode.endswith("-trunc")
    return lambda a: bf16(a, trunc)


def main():
    args = sys.argv[1:]
    if len(args) < 5:
        print("usage: compare_ort.py VOCAB MAX_SEQ ORIG.onnx ORIG_PROBE.onnx MODE=CONV.onnx,CONV_PROBE.onnx ...",
              file=sys.stderr)
        return 2
    vocab, max_seq = int(args[0]), int(args[1])
    cases = make_inputs(vocab, max_seq)
    print("INFO %d inputs: %s" % (len(cases), " ".join("%dx%d" % (c[0], c[1]) for c in cases)))
    probe_names = ["logits", WORD, POS, WT, SUM]
    base = run_all(args[2], cases, ["logits"])
    base_probe = run_all(args[3], cases, probe_names)
    L = max(float(np.abs(o["logits"]).max()) for o in base)
    print("INFO original: max |logit| L = %.6g" % L)
    if not (L > 1e-6) or not math.isfinite(L):
        say(False, "original", "runs", "degenerate logits (max |logit| %s)" % L)
        print("%d passed, %d failed" % (passed, failed))
        return 1
    mean_sum_err, mean_logit_err = {}, {}
    for spec in args[4:]:
        mode, files = spec.split("=", 1)
        fname, probe = files.split(",")
        u = U.get(mode)
        if u is None:
            say(False, mode, "runs", "unknown mode " + mode)
            continue
        try:
            conv = run_all(fname, cases, ["logits"])
            conv_probe = run_all(probe, cases, probe_names)
        except Exception as e:  # noqa: BLE001 - the runtime's refusal is the result
            say(False, mode, "runs", str(e)[:300])
            continue
        shapes_ok = all(c["logits"].shape == b["logits"].shape for c, b in zip(conv, base))
        finite = all(bool(np.isfinite(c["logits"]).all()) for c in conv)
        say(shapes_ok and finite, mode, "runs", "%d inputs, logits shapes %s, %s" % (
            len(cases), "match" if shapes_ok else "DIFFER", "all finite" if finite else "NON-FINITE values"))
        maxd = tot = 0.0
        n = n_diff = 0
        worst_case = 0.0
        for c, b in zip(conv, base):
            a, y = b["logits"].astype(np.float64), c["logits"].astype(np.float64)
            d = np.abs(y - a)
            n_diff += int((y != a).sum())
            maxd = max(maxd, float(d.max()))
            worst_case = max(worst_case, float(d.max()) / (u * float(np.abs(a).max())))
            tot += float(d.sum())
            n += d.size
        mean_logit_err[mode] = tot / n
        bound = LOGIT_FACTOR[mode] * u * L
        print("INFO %s logits: max |diff| %s = %.3f u L, mean |diff| %s, worst input %.3f u L_input; "
              "%d of %d logits differ" % (mode, e3(maxd), maxd / (u * L), e3(tot / n), worst_case, n_diff, n))
        say(n_diff > 0, mode, "differs", "%d of %d logits differ from the original's" % (n_diff, n))
        say(maxd <= bound, mode, "logits-bound", "max |diff| %s <= %d u L = %s (u = %s, L = %.4g)" % (
            e3(maxd), LOGIT_FACTOR[mode], e3(bound), u, L))
        rnd = rounder(mode)
        bad = total = 0
        first_bad = ""
        for k in range(len(cases)):
            for name in (WORD, POS):
                a, y = base_probe[k][name], conv_probe[k][name]
                if a.shape != y.shape:
                    bad += 1
                    first_bad = first_bad or name + " shape"
                    continue
                want = rnd(a)
                total += a.size
                # bit for bit (as Object.is: -0 differs from +0)
                wrong = y.reshape(-1).view(np.uint32) != want.reshape(-1).view(np.uint32)
                if wrong.any():
                    if not first_bad:
                        i = int(np.flatnonzero(wrong)[0])
                        first_bad = "%s[%d] of input %d: %r for %r, want %r" % (
                            name, i, k, float(y.reshape(-1)[i]), float(a.reshape(-1)[i]), float(want.reshape(-1)[i]))
                    bad += int(wrong.sum())
        say(bad == 0 and total > 0, mode, "embedding-rows",
            "%d of %d values wrong, first %s" % (bad, total, first_bad) if bad else
            "%d gathered word and position values equal the %s of the original's, bit for bit" % (
                total, "truncation" if mode.endswith("-trunc") else "rounding"))
        if mode.startswith("gather"):
            worst = esum = 0.0
            en = viol = 0
            for k, (B, S, _, _) in enumerate(cases):
                P, Q = base_probe[k], conv_probe[k]
                s, s2 = P[SUM].astype(np.float64), Q[SUM].astype(np.float64)
                w, wt = P[WORD].astype(np.float64), P[WT].astype(np.float64)
                p = P[POS].astype(np.float64).reshape(-1)
                H = p.size // S
                per_row = S * H
                pi = np.tile(p[:per_row], s.size // per_row).reshape(s.shape)
                d = np.abs(s2 - s)
                lim = u * (np.abs(w) + np.abs(pi)) + 2.0 ** -22 * (np.abs(wt) + np.abs(s))
                viol += int((d > lim).sum())
                worst = max(worst, float((d / lim).max()))
                esum += float(d.sum())
                en += d.size
            mean_sum_err[mode] = esum / en
            say(viol == 0, mode, "embedding-sum-bound",
                "%d of %d values outside u(|w|+|p|) + 2^-22(|w+t|+|s|); largest |diff| / bound %.3f; "
                "mean |diff| %s" % (viol, en, worst, e3(esum / en)))
    a, b = mean_sum_err.get("gather-bf16"), mean_sum_err.get("gather-bf16-trunc")
    if a is not None and b is not None:
        say(b >= a, "gather-bf16-trunc", "trunc-vs-nearest",
            "mean |error| of the embedding sum: truncation %s, nearest %s (ratio %.2f)" % (e3(b), e3(a), b / a))
        la, lb = mean_logit_err["gather-bf16"], mean_logit_err["gather-bf16-trunc"]
        print("INFO mean |logit error|: truncation %s, nearest %s (ratio %.2f; not asserted, see the header)"
              % (e3(lb), e3(la), lb / la))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # noqa: BLE001
        print("FAIL compare_ort.py: %s" % e)
        print("%d passed, %d failed" % (passed, failed + 1))
        sys.exit(1)
