# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Errors of quantized weights against the FP32 model they came from, for
libonnxslim's forms and onnxruntime's 4-bit quantizer alike (bench section
47-qpeers; runs in the venv of scripts/pypi-venv.sh: onnx, numpy,
onnxruntime).

Usage:
  quant_errors.py ort ALGO SRC.onnx DST.onnx
      quantize SRC's MatMul weights with onnxruntime's MatMulNBitsQuantizer,
      4 bits, blocks of 32: ALGO rtn (its default, symmetric: MLAS
      blockwise round to nearest) or hqq (needs torch; exit 77 and a
      "skip:" line without it); rtn-gather, hqq-gather: the Gather tables
      too (GatherBlockQuantized)
  quant_errors.py errors FP32.onnx LABEL=Q.onnx... [--seeds N] [--runs R]
      per quantized model: every weight it quantized (DequantizeLinear of
      an initializer, MatMulNBits, GatherBlockQuantized), dequantized here
      with numpy, against the FP32 tensor: per row ||W - deq(W)|| / ||W||
      (a table's rows; a MatMul weight [K, N]: its N columns, the blocks
      running along K), mean and max over the rows of all its tensors; with
      --seeds N, also the logits of the model in onnxruntime against the
      FP32 model's on R runs (default 50) of batch 2, seq 16 for each of N
      input sets (set 0: bench/ort_logits.py's inputs): max and mean
      |logit diff| per set.
"""
import sys
import time

import numpy as np


def ort_nbits():
    """onnxruntime's 4-bit weight quantizer: its module (the configs) and
    its quantizer class, under the names of 1.21 on or of the releases
    before (the HQQ venv's 1.20.1). bench/peers.py uses it too."""
    try:
        from onnxruntime.quantization import matmul_nbits_quantizer as mq
    except ImportError:  # its name before onnxruntime 1.21
        from onnxruntime.quantization import matmul_4bits_quantizer as mq
    return mq, getattr(mq, "MatMulNBitsQuantizer", None) or mq.MatMul4BitsQuantizer


def ort_quantize(algo, src, dst):
    import onnx
    mq, cls = ort_nbits()
    ops = ("MatMul", "Gather") if algo.endswith("-gather") else ("MatMul",)
    algo = algo.replace("-gather", "")
    if algo == "hqq":
        try:
            import torch  # noqa: F401 - HQQ's own requirement
        except ImportError:
            print("skip: onnxruntime HQQ needs torch, which is not installed in the venv")
            return 77
        cfg = mq.HQQWeightOnlyQuantConfig(block_size=32, bits=4, op_types_to_quantize=ops)
    else:
        cfg = mq.DefaultWeightOnlyQuantConfig(block_size=32, is_symmetric=True, op_types_to_quantize=ops)
    t0 = time.time()
    q = cls(onnx.load(src), algo_config=cfg)
    q.process()
    q.model.save_model_to_file(dst, use_external_data_format=False)
    print("quantized in %.2f s" % (time.time() - t0))
    return 0


def arr(inits, name):
    from onnx import numpy_helper
    return numpy_helper.to_array(inits[name]) if name in inits else None


def attr(node, name, default):
    import onnx
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def unpack4(b):
    """UINT8 bytes holding two 4-bit values each, low nibble first."""
    b = np.asarray(b, np.uint8)
    out = np.empty(b.shape[:-1] + (b.shape[-1] * 2,), np.int32)
    out[..., 0::2] = b & 15
    out[..., 1::2] = b >> 4
    return out


def dequantized(fp, q):
    """{original weight name: (dequantized float64 array as the original's
    shape, kind)} for the weights q quantized."""
    import onnx
    inits = {t.name: t for t in q.graph.initializer}
    orig = {t.name for t in fp.graph.initializer}
    out_to_weight = {}
    for n in fp.graph.node:
        if n.op_type in ("MatMul", "Gather") and len(n.input) > 1:
            out_to_weight[n.output[0]] = n.input[1] if n.op_type == "MatMul" else n.input[0]
    res = {}
    for n in q.graph.node:
        if n.op_type == "DequantizeLinear" and n.input[0] in inits and n.input[0] in orig:
            x = arr(inits, n.input[0]).astype(np.float64)
            s = arr(inits, n.input[1]).astype(np.float64)
            zp = arr(inits, n.input[2]).astype(np.float64) if len(n.input) > 2 and n.input[2] else 0
            axis, bs = attr(n, "axis", 1), attr(n, "block_size", 0)
            axis = axis % x.ndim
            if bs:
                s = np.repeat(s, bs, axis=axis)
                if not np.isscalar(zp):
                    zp = np.repeat(zp, bs, axis=axis)
            elif s.ndim == 1 and x.ndim == 2:
                shp = [1, 1]
                shp[axis] = -1
                s = s.reshape(shp)
                if not np.isscalar(zp):
                    zp = zp.reshape(shp)
            res[n.input[0]] = ((x - zp) * s, "table" if n.input[0] in out_to_weight.values() and
                               any(m.op_type == "Gather" and m.input[0] == n.input[0]
                                   for m in fp.graph.node) else "matmul")
        elif n.op_type == "MatMulNBits":
            w = out_to_weight.get(n.output[0])
            if w is None:
                continue
            K, N, bits, bs = attr(n, "K", 0), attr(n, "N", 0), attr(n, "bits", 4), attr(n, "block_size", 0)
            b = arr(inits, n.input[1])
            nblk = (K + bs - 1) // bs
            qv = unpack4(b).reshape(N, nblk, bs) if bits == 4 else b.reshape(N, nblk, bs).astype(np.int32)
            s = arr(inits, n.input[2]).astype(np.float64).reshape(N, nblk, 1)
            if len(n.input) > 3 and n.input[3]:
                z = arr(inits, n.input[3])
                if z.dtype.kind == "f":  # zero points in the scales' type (HQQ's)
                    zp = z.astype(np.float64).reshape(N, nblk, 1)
                else:  # UINT8, 4-bit ones two a byte along each of the N rows
                    z = z.reshape(N, -1)
                    zp = (unpack4(z)[:, :nblk] if bits == 4 else z.astype(np.int32)).reshape(N, nblk, 1)
            else:
                zp = 8 if bits == 4 else 128
            d = ((qv - zp) * s).reshape(N, nblk * bs)[:, :K]
            res[w] = (d.T, "matmul")
        elif n.op_type == "GatherBlockQuantized":
            name = n.input[0]
            base = name if name in orig else name.rsplit("_", 1)[0]
            if base not in orig:
                continue
            bits, bs = attr(n, "bits", 4), attr(n, "block_size", 128)
            d = arr(inits, name)
            qv = unpack4(d) if bits == 4 else d.astype(np.int32)
            rows = qv.shape[0]
            s = arr(inits, n.input[2]).astype(np.float64).reshape(rows, -1)
            if len(n.input) > 3 and n.input[3]:
                z = arr(inits, n.input[3])
                zp = unpack4(z)[:, :s.shape[1]] if bits == 4 else z.astype(np.int32)
            else:
                zp = np.full(s.shape, 8 if bits == 4 else 128)
            res[base] = ((qv - np.repeat(zp, bs, axis=1)) * np.repeat(s, bs, axis=1), "table")
    return res


def row_errors(w, d, kind):
    w = np.asarray(w, np.float64)
    if kind == "matmul":  # [K, N]: a row is a column, along the blocks
        w, d = w.T, d.T
    num = np.sqrt(((w - d) ** 2).sum(axis=1))
    den = np.sqrt((w ** 2).sum(axis=1))
    keep = den > 0
    return num[keep] / den[keep]


def logits(path, seed, runs, vocab):
    import onnxruntime as ort
    s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    batch, seq, out = 2, 16, []
    for r in range(runs):
        ids = np.zeros((batch, seq), np.int64)
        mask = np.zeros((batch, seq), np.int64)
        for bb in range(batch):
            b = r * batch + bb
            valid = max(1, seq - (b % 8))
            for t in range(seq):
                # set 0 is ort_logits.py's; the others shift the token ids
                tid = 0 if t == 0 else (t * 7919 + b * 104729 + 12345 + seed * 7654321) % (vocab - 3) + 3
                ids[bb, t] = tid if t < valid else 1
                mask[bb, t] = 1 if t < valid else 0
        out.append(np.asarray(s.run(["logits"], {"input_ids": ids, "attention_mask": mask})[0], np.float64))
    return np.concatenate([o.reshape(-1) for o in out])


def errors(args):
    import onnx
    seeds, runs, pairs, i = 0, 50, [], 0
    fp_path = args[0]
    rest = args[1:]
    while i < len(rest):
        if rest[i] == "--seeds":
            seeds, i = int(rest[i + 1]), i + 2
        elif rest[i] == "--runs":
            runs, i = int(rest[i + 1]), i + 2
        else:
            pairs.append(rest[i].split("=", 1))
            i += 1
    fp = onnx.load(fp_path)
    fpw = {t.name: t for t in fp.graph.initializer}
    vocab = 250002
    for t in fp.graph.initializer:
        if t.name.endswith("word_embeddings.weight"):
            vocab = t.dims[0]
    ref = [logits(fp_path, sd, runs, vocab) for sd in range(seeds)]
    print("%-22s %-7s %7s %8s %12s %12s %12s" % ("model", "kind", "tensors", "rows", "mean row err",
                                                 "max row err", "rel. Frob."))
    for label, path in pairs:
        q = onnx.load(path)
        by_kind = {}
        for name, (d, kind) in dequantized(fp, q).items():
            from onnx import numpy_helper
            w = numpy_helper.to_array(fpw[name]).astype(np.float64)
            if d.shape != w.shape:
                print("%s: %s: shape %s, not %s" % (label, name, d.shape, w.shape))
                continue
            e = by_kind.setdefault(kind, [[], 0, 0.0, 0.0])
            e[0].append(row_errors(w, d, kind))
            e[1] += 1
            e[2] += ((w - d) ** 2).sum()
            e[3] += (w ** 2).sum()
        for kind in sorted(by_kind):
            r, n, e2, n2 = by_kind[kind]
            r = np.concatenate(r)
            print("%-22s %-7s %7d %8d %12.5f %12.5f %12.5f" % (label, kind, n, r.size, r.mean(), r.max(),
                                                              np.sqrt(e2 / n2)))
        if not by_kind:
            print("%-22s (no quantized weights found)" % label)
        for sd in range(seeds):
            y = logits(path, sd, runs, vocab)
            dd = np.abs(y - ref[sd])
            print("%-22s logits, input set %d (%d inputs): max |diff| %.3e, mean |diff| %.3e" % (
                label, sd, runs * 2, dd.max(), dd.mean()))
    return 0


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "ort":
        return ort_quantize(sys.argv[2], sys.argv[3], sys.argv[4])
    if len(sys.argv) >= 3 and sys.argv[1] == "errors":
        return errors(sys.argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
