# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Checks of a simplified big model, for bench/sections/42-simplify-big.sh.

  sbig_check.py weights IN OUT
      (needs onnx) every initializer of OUT whose name IN has too holds the
      same bytes (raw_data or external data, read 16 MiB at a time), and
      has the same data type and dims; prints one line: "N byte-identical
      (B bytes), M only in OUT" or the first mismatch, exit 1.
  sbig_check.py ort IN OUT
      (needs onnxruntime and numpy) runs both models on the same inputs (for
      each graph input: int64 values 0..7 cycled, floats from a fixed seed;
      symbolic dims 2) and compares their outputs bit for bit; prints
      "outputs bit-identical (K values)" or the first difference, exit 1.
"""
import os
import sys

PIECE = 16 << 20


def _inits(path):
    import onnx
    m = onnx.load(path, load_external_data=False)
    base = os.path.dirname(os.path.abspath(path))
    out = {}
    for t in m.graph.initializer:
        ext = {e.key: e.value for e in t.external_data}
        if t.data_location == onnx.TensorProto.EXTERNAL:
            src = (os.path.join(base, ext["location"]), int(ext.get("offset", 0)), int(ext["length"]))
        elif t.HasField("raw_data"):
            src = (None, t.raw_data, len(t.raw_data))
        else:  # typed fields: compare their serialized form
            src = (None, t.SerializeToString(), 0)
        out[t.name] = (t.data_type, tuple(t.dims), src)
    return out


def _pieces(src):
    path, where, length = src
    if path is None:
        data = where
        for i in range(0, len(data), PIECE):
            yield data[i:i + PIECE]
        return
    with open(path, "rb") as f:
        f.seek(where)
        left = length
        while left:
            b = f.read(min(PIECE, left))
            if not b:
                raise IOError("%s: short read at %d" % (path, where + length - left))
            left -= len(b)
            yield b


def weights(a, b):
    ia, ib = _inits(a), _inits(b)
    same = nbytes = only = 0
    for name, (dt, dims, src) in ib.items():
        if name not in ia:
            only += 1
            continue
        dta, dimsa, srca = ia[name]
        if (dt, dims) != (dta, dimsa):
            print("MISMATCH: %s: type/dims %s %s vs %s %s" % (name, dta, dimsa, dt, dims))
            return 1
        pa, pb = _pieces(srca), _pieces(src)
        buf_a = buf_b = b""
        while True:
            if not buf_a:
                buf_a = next(pa, b"")
            if not buf_b:
                buf_b = next(pb, b"")
            if not buf_a or not buf_b:
                if buf_a or buf_b:
                    print("MISMATCH: %s: lengths differ" % name)
                    return 1
                break
            n = min(len(buf_a), len(buf_b))
            if buf_a[:n] != buf_b[:n]:
                print("MISMATCH: %s: bytes differ near %d" % (name, nbytes))
                return 1
            nbytes += n
            buf_a, buf_b = buf_a[n:], buf_b[n:]
        same += 1
    print("%d byte-identical (%d bytes), %d only in OUT" % (same, nbytes, only))
    return 0


def ort(a, b):
    import numpy as np
    import onnxruntime as rt
    so = rt.SessionOptions()
    so.graph_optimization_level = rt.GraphOptimizationLevel.ORT_DISABLE_ALL
    sa = rt.InferenceSession(a, so, providers=["CPUExecutionProvider"])
    feed = {}
    rng = np.random.default_rng(1)
    types = {"tensor(int64)": np.int64, "tensor(int32)": np.int32, "tensor(float)": np.float32}
    for i in sa.get_inputs():
        shape = [d if isinstance(d, int) else 2 for d in i.shape]
        ty = types.get(i.type)
        if ty is None:
            print("not run: input %s of type %s" % (i.name, i.type))
            return 0
        if ty == np.float32:
            feed[i.name] = rng.standard_normal(shape).astype(np.float32)
        else:
            feed[i.name] = (np.arange(int(np.prod(shape))) % 8).astype(ty).reshape(shape)
    ya = sa.run(None, feed)
    names = [o.name for o in sa.get_outputs()]
    del sa
    sb = rt.InferenceSession(b, so, providers=["CPUExecutionProvider"])
    yb = sb.run(names, feed)
    k = 0
    for n, x, y in zip(names, ya, yb):
        if x.shape != y.shape or x.dtype != y.dtype or x.tobytes() != y.tobytes():
            print("DIFFER: output %s" % n)
            return 1
        k += x.size
    print("outputs bit-identical (%d values)" % k)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] in ("weights", "ort"):
        sys.exit((weights if sys.argv[1] == "weights" else ort)(sys.argv[2], sys.argv[3]))
    sys.stderr.write(__doc__)
    sys.exit(2)
