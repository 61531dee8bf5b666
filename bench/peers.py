# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# names: about PyPI's OnnxSlim (test/check_names.py): it is one of the peers
"""The Python peers of `make bench`'s section peers (bench/sections/48-peers.sh),
run with the venv of scripts/pypi-venv.sh (pins: scripts/pypi-pins.txt).

Each call does one thing in its own process, so the section can time it and
take its peak RSS from outside (bench/peak_rss.c):

  peers.py run JOB TOOL IN OUT        one peer's job, IN -> OUT
  peers.py check MODEL                onnx.checker.check_model(full_check=True)
  peers.py ort MODEL [--vocab N] [--save F] [--ref F]
                                      onnxruntime (the Python wheel) on the
                                      100 inputs of bench/ort_logits.js
                                      (--batch 2 --runs 50)
  peers.py nodes MODEL                the number of nodes of MODEL's graph
  peers.py files OUT                  OUT's bytes with its data files
  peers.py versions                   the peers' versions

JOB and TOOL (what each tool's documentation offers for the job):
  recipe    onnx, onnx-ir   Gather tables to BF16 (truncation) + Cast after
                            the Gather; OUT with external data (OUT.data,
                            every tensor) and OUT's name + .single.onnx as
                            one file
  fp16      onnxconverter-common, onnxslim, onnx-ir
  quant     ort-dynamic-int8, ort-nbits4, ort-nbits4-gather, ort-hqq4, ort-rtn4
  extsave   onnx, onnx-ir, onnx-ir-shard (max_shard_size_bytes: $PEERS_SHARD,
            default 256 MiB), libonnxslim (its Python package, from
            $PYTHONPATH): save IN with external data as OUT
  extresave the same tools: load OUT (a model with external data) and save
            it again in place
  simplify  onnxsim, onnxslim

A peer that fails prints "error: TYPE: MESSAGE" as its last line on stderr
and exits 1; "error: not offered: ..." when the tool has no such function.
Prints nothing else on stdout but one key=value line where stated.
"""
import json
import os
import sys
import traceback

from procstat import status_kb

TRUNC_BF16 = 16
SHARD = int(os.environ.get("PEERS_SHARD", 256 << 20))  # onnx-ir's max_shard_size_bytes


class NotOffered(Exception):
    pass


# ---- the recipe -------------------------------------------------------------

def tables_of(graph_inits, nodes, is_float):
    """Names of float initializers read as input 0 of a standard Gather."""
    out = []
    for n in nodes:
        if n[0] == "Gather" and n[1] in ("", "ai.onnx") and n[2] and n[2][0] in graph_inits \
                and is_float(graph_inits[n[2][0]]) and n[2][0] not in out:
            out.append(n[2][0])
    return out


def recipe_onnx(src, dst):
    """As bench/python_recipe.py does it (onnx + numpy, everything in memory),
    then saved twice: with external data and as one file."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    m = onnx.load(src)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    nodes = [(n.op_type, n.domain, list(n.input)) for n in g.node]
    names = tables_of(inits, nodes, lambda t: t.data_type == TensorProto.FLOAT)
    for name in names:
        t = inits[name]
        w = numpy_helper.to_array(t)
        bf = (w.view(np.uint32) >> TRUNC_BF16).astype(np.uint16)
        t.ClearField("float_data")
        t.data_type = TensorProto.BFLOAT16
        t.raw_data = bf.tobytes()
        del w, bf
    new = []
    for i, n in enumerate(g.node):
        new.append(n)
        if n.op_type == "Gather" and n.domain in ("", "ai.onnx") and n.input and n.input[0] in names:
            out = n.output[0]
            n.output[0] = out + "_bf16"
            new.append(helper.make_node("Cast", [out + "_bf16"], [out], name="%s_cast%d" % (n.name, i),
                                        to=TensorProto.FLOAT))
    del g.node[:]
    g.node.extend(new)
    onnx.save(m, single_of(dst))
    onnx.save_model(m, dst, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=os.path.basename(dst) + ".data", size_threshold=0)


def recipe_ir(src, dst):
    """onnx-ir: load (tensors stay in the file until read), replace the
    tables with BF16 tensors, add the Casts, save with external data and as
    one file."""
    import ml_dtypes
    import numpy as np
    import onnx_ir as ir
    m = ir.load(src)
    g = m.graph
    done = {}
    for node in list(g):
        if node.op_type != "Gather" or node.domain not in ("", "ai.onnx") or not node.inputs:
            continue
        v = node.inputs[0]
        if v is None or not v.is_initializer() or v.const_value is None:
            continue
        if v.name not in done:
            if v.const_value.dtype != ir.DataType.FLOAT:
                continue
            a = v.const_value.numpy()
            bf = (a.view(np.uint32) >> TRUNC_BF16).astype(np.uint16).view(ml_dtypes.bfloat16)
            v.const_value = ir.tensor(bf, name=v.name)
            v.dtype = ir.DataType.BFLOAT16
            done[v.name] = True
            del a
        out = node.outputs[0]
        uses = list(out.uses())
        cast = ir.node("Cast", [out], attributes={"to": ir.DataType.FLOAT})
        # the Cast takes the Gather's consumers and its place among the
        # graph's outputs, if any
        for user, idx in uses:
            user.replace_input_with(idx, cast.outputs[0])
        for i, o in enumerate(g.outputs):
            if o is out:
                g.outputs[i] = cast.outputs[0]
        name = out.name
        out.name = name + "_bf16"
        cast.outputs[0].name = name
        cast.outputs[0].type = ir.TensorType(ir.DataType.FLOAT)
        cast.outputs[0].shape = out.shape
        out.dtype = ir.DataType.BFLOAT16
        g.insert_after(node, cast)
    ir.save(m, single_of(dst))
    ir.save(m, dst, external_data=os.path.basename(dst) + ".data", size_threshold_bytes=0)


def single_of(dst):
    return dst[:-5] + ".single.onnx" if dst.endswith(".onnx") else dst + ".single.onnx"


# ---- FP16 -------------------------------------------------------------------

def fp16_occ(src, dst):
    import onnx
    from onnxconverter_common import float16
    m = onnx.load(src)
    m = float16.convert_float_to_float16(m, keep_io_types=True)
    onnx.save(m, dst)


def fp16_onnxslim(src, dst):
    import onnxslim
    if onnxslim.slim(src, dst, dtype="fp16") is None and not os.path.exists(dst):
        raise RuntimeError("onnxslim.slim returned None and wrote nothing")


def fp16_ir(src, dst):
    import onnx_ir
    raise NotOffered("onnx-ir %s has no FP16 conversion (no such pass in onnx_ir.passes)"
                     % onnx_ir.__version__)


# ---- INT8 / INT4 --------------------------------------------------------------

def q_dynamic(src, dst):
    from onnxruntime.quantization import QuantType, quantize_dynamic
    quantize_dynamic(src, dst, weight_type=QuantType.QInt8)


def q_nbits(src, dst, algo, gather=False):
    import onnx
    from quant_errors import ort_nbits  # the HQQ venv's onnxruntime names it otherwise
    mq, cls = ort_nbits()
    ops = ("MatMul", "Gather") if gather else ("MatMul",)
    if algo == "default":
        cfg = mq.DefaultWeightOnlyQuantConfig(block_size=32, is_symmetric=True, op_types_to_quantize=ops)
    elif algo == "hqq":
        cfg = mq.HQQWeightOnlyQuantConfig(block_size=32, bits=4, op_types_to_quantize=ops)
    else:
        cfg = mq.RTNWeightOnlyQuantConfig(op_types_to_quantize=ops)
    q = cls(onnx.load(src), algo_config=cfg)
    q.process()
    q.model.save_model_to_file(dst, use_external_data_format=False)


# ---- external data ---------------------------------------------------------------

def ext_onnx(src, dst):
    import onnx
    m = onnx.load(src)  # with its external data, if any
    onnx.save_model(m, dst, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=os.path.basename(dst) + ".data", size_threshold=1024)


def ext_ir(src, dst, shard=None):
    import onnx_ir as ir
    m = ir.load(src)
    kw = {"max_shard_size_bytes": shard} if shard else {}
    ir.save(m, dst, external_data=os.path.basename(dst) + ".data", size_threshold_bytes=1024, **kw)


def ext_libonnxslim(src, dst):
    """The library through its Python package (the command refuses OUT = IN)."""
    import libonnxslim
    with libonnxslim.load(src) as m:
        m.save(dst, external_data="one_file", threshold=1024)


# ---- simplification -----------------------------------------------------------

def simp_onnxsim(src, dst):
    import onnx
    import onnxsim
    m, ok = onnxsim.simplify(src)
    if not ok:
        raise RuntimeError("onnxsim.simplify: the simplified model failed its own check")
    if m.ByteSize() > 2000000000:
        onnx.save_model(m, dst, save_as_external_data=True, location=os.path.basename(dst) + ".data")
    else:
        onnx.save(m, dst)


def simp_onnxslim(src, dst):
    import onnxslim
    if onnxslim.slim(src, dst) is None and not os.path.exists(dst):
        raise RuntimeError("onnxslim.slim returned None and wrote nothing")


def simp_libonnxslim(src, dst):
    """The library's simplification (every pass, to a fixed point, as
    `libonnxslim simplify` does) through its Python package; saved without
    fsync, as the Python peers save. Saved as onnxsim saves: every tensor
    inline (a model whose tensors are in external data relative to SRC's
    directory, such as the recipe example's, cannot keep those references
    from DST's), or, over protobuf's 2 GiB, with external data in one file."""
    import libonnxslim
    with libonnxslim.load(src) as m:
        m.simplify()
        try:
            m.save(dst, external_data=False, no_fsync=True)
        except libonnxslim.LimitError:
            m.save(dst, external_data="one_file", no_fsync=True)


JOBS = {
    ("recipe", "onnx"): recipe_onnx,
    ("recipe", "onnx-ir"): recipe_ir,
    ("fp16", "onnxconverter-common"): fp16_occ,
    ("fp16", "onnxslim"): fp16_onnxslim,
    ("fp16", "onnx-ir"): fp16_ir,
    ("quant", "ort-dynamic-int8"): q_dynamic,
    ("quant", "ort-nbits4"): lambda s, d: q_nbits(s, d, "default"),
    ("quant", "ort-nbits4-gather"): lambda s, d: q_nbits(s, d, "default", gather=True),
    ("quant", "ort-hqq4"): lambda s, d: q_nbits(s, d, "hqq"),
    ("quant", "ort-rtn4"): lambda s, d: q_nbits(s, d, "rtn"),
    ("extsave", "onnx"): ext_onnx,
    ("extsave", "onnx-ir"): ext_ir,
    ("extsave", "onnx-ir-shard"): lambda s, d: ext_ir(s, d, SHARD),
    ("extsave", "libonnxslim"): ext_libonnxslim,
    ("extresave", "libonnxslim"): ext_libonnxslim,
    ("extresave", "onnx"): ext_onnx,
    ("extresave", "onnx-ir"): ext_ir,
    ("extresave", "onnx-ir-shard"): lambda s, d: ext_ir(s, d, SHARD),
    ("simplify", "onnxsim"): simp_onnxsim,
    ("simplify", "onnxslim"): simp_onnxslim,
    ("simplify", "libonnxslim"): simp_libonnxslim,
}


# ---- oracles --------------------------------------------------------------------

def check(path):
    import onnx
    onnx.checker.check_model(path, full_check=True)
    print("checker=ok")


def inputs(vocab, batch=2, seq=16, runs=50):
    """The inputs of bench/ort_logits.js (same formula: the same token ids)."""
    import numpy as np
    for r in range(runs):
        ids = np.zeros((batch, seq), np.int64)
        mask = np.zeros((batch, seq), np.int64)
        for bb in range(batch):
            b = r * batch + bb
            valid = max(1, seq - b % 8)
            for s in range(seq):
                i = 0 if s == 0 else (s * 7919 + b * 104729 + 12345) % (vocab - 3) + 3
                ids[bb, s] = i if s < valid else 1
                mask[bb, s] = 1 if s < valid else 0
        yield ids, mask


def ort(path, vocab, save=None, ref=None):
    import numpy as np
    import onnxruntime as rt
    s = rt.InferenceSession(path, providers=["CPUExecutionProvider"])
    out = []
    for ids, mask in inputs(vocab):
        (y,) = s.run(["logits"], {"input_ids": ids, "attention_mask": mask})
        out.extend(float(v) for v in np.asarray(y, np.float64).ravel())
    kb = status_kb()
    line = "finite=%s hwm_kb=%d anon_kb=%d file_kb=%d" % (
        str(bool(np.isfinite(out).all())).lower(), kb["VmHWM"], kb["RssAnon"], kb["RssFile"])
    if save:
        with open(save, "w") as f:
            json.dump(out, f)
    if ref:
        with open(ref) as f:
            r = json.load(f)
        d = max(abs(a - b) for a, b in zip(r, out)) if len(r) == len(out) else float("inf")
        line += " max_abs_diff=%.2e" % d
    print(line)


def nodes(path):
    import onnx
    m = onnx.load(path, load_external_data=False)
    print("nodes=%d" % len(m.graph.node))


def files(path):
    import onnx
    m = onnx.load(path, load_external_data=False)
    locs = set()

    def walk(g):
        for t in g.initializer:
            for e in t.external_data:
                if e.key == "location":
                    locs.add(e.value)
        for n in g.node:
            for a in n.attribute:
                if a.g is not None:
                    walk(a.g)
                for sg in a.graphs:
                    walk(sg)
    walk(m.graph)
    d = os.path.dirname(path)
    data = sum(os.path.getsize(os.path.join(d, x)) for x in locs if os.path.exists(os.path.join(d, x)))
    print("model_bytes=%d data_bytes=%d data_files=%d" % (os.path.getsize(path), data, len(locs)))


def versions():
    from importlib import metadata
    out = []
    for p in ("onnx", "onnx-ir", "onnxruntime", "onnxconverter-common", "onnxsim", "onnxslim", "numpy"):
        try:
            out.append("%s %s" % ("OnnxSlim" if p == "onnxslim" else p, metadata.version(p)))
        except metadata.PackageNotFoundError:
            out.append("%s missing" % p)
    print(", ".join(out))


def main(a):
    try:
        if a[:1] == ["run"] and len(a) == 5:
            fn = JOBS.get((a[1], a[2]))
            if fn is None:
                raise NotOffered("no tool %s for job %s in bench/peers.py" % (a[2], a[1]))
            fn(a[3], a[4])
        elif a[:1] == ["check"] and len(a) == 2:
            check(a[1])
        elif a[:1] == ["ort"] and len(a) >= 2:
            opt = {"--vocab": "250002", "--save": None, "--ref": None}
            for i in range(2, len(a) - 1, 2):
                opt[a[i]] = a[i + 1]
            ort(a[1], int(opt["--vocab"]), opt["--save"], opt["--ref"])
        elif a[:1] == ["nodes"] and len(a) == 2:
            nodes(a[1])
        elif a[:1] == ["files"] and len(a) == 2:
            files(a[1])
        elif a == ["versions"]:
            versions()
        else:
            sys.stderr.write(__doc__)
            return 2
    except NotOffered as e:
        sys.stderr.write("error: not offered: %s\n" % e)
        return 1
    except BaseException as e:  # the section prints this line in its table
        if os.environ.get("PEERS_TRACE"):
            traceback.print_exc()
        msg = " ".join(str(e).split())
        sys.stderr.write("error: %s: %s\n" % (type(e).__name__, msg[:300]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
