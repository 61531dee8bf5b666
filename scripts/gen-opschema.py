#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Generates lib/opschema/opschema_data.c: the standard operator schemas
(every domain onnx.defs knows: "", ai.onnx.ml, ai.onnx.preview,
ai.onnx.preview.training) for every opset version, from onnx's own
definitions (onnx.defs.get_all_schemas_with_history()) of the onnx release
pinned in scripts/pypi-pins.txt, installed from PyPI in a venv made by
scripts/pypi-venv.sh. The onnx version is recorded in the generated file
(onnxslim__ops_onnx_version); any other onnx version is refused.

The tables are compact and const: one string pool (NUL-separated) that
records refer to by offset, one array per record kind, identical runs of
records shared between schema versions. lib/opschema/opschema.h describes
the records.

usage: sh scripts/pypi-venv.sh build/pypi-onnx onnx &&
       build/pypi-onnx/bin/python scripts/gen-opschema.py [OUT]
(default OUT: lib/opschema/opschema_data.c)
Test step 36-opschema regenerates into a temporary file and fails on any
difference with the committed file.
"""
import os
import re
import sys

import onnx
from onnx import defs

# "tensor(X)" -> TensorProto.DataType number, X the lower-case name onnx
# gives it ("float", "float8e4m3fn", "int4", ...): every type this onnx knows
DTYPES = {n.lower(): v for n, v in onnx.TensorProto.DataType.items() if v}
assert max(DTYPES.values()) < 32, "dtype masks are 32 bits"


def pinned_onnx():
    """The onnx version scripts/pypi-pins.txt pins."""
    pins = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pypi-pins.txt")
    for line in open(pins):
        m = re.match(r"onnx==(\S+)", line.strip())
        if m:
            return m.group(1)
    sys.exit("gen-opschema: no onnx== line in " + pins)
# onnx.defs AttrType names -> AttributeProto.AttributeType numbers (onnxslim_attr_type)
ATTR = {"FLOAT": 1, "INT": 2, "STRING": 3, "TENSOR": 4, "GRAPH": 5, "FLOATS": 6, "INTS": 7,
        "STRINGS": 8, "TENSORS": 9, "GRAPHS": 10, "SPARSE_TENSOR": 11, "SPARSE_TENSORS": 12,
        "TYPE_PROTO": 13, "TYPE_PROTOS": 14}


def default_text(a):
    """The default value of an attribute as text ("" when it has none)."""
    d = a.default_value
    if d is None or not d.name:
        return ""
    t = d.type
    if t == onnx.AttributeProto.INT:
        return str(d.i)
    if t == onnx.AttributeProto.FLOAT:
        return repr(d.f)
    if t == onnx.AttributeProto.STRING:
        return d.s.decode("utf-8", "replace")
    if t == onnx.AttributeProto.INTS:
        return ",".join(str(x) for x in d.ints)
    if t == onnx.AttributeProto.FLOATS:
        return ",".join(repr(x) for x in d.floats)
    if t == onnx.AttributeProto.STRINGS:
        return ",".join(x.decode("utf-8", "replace") for x in d.strings)
    return "(%s)" % onnx.AttributeProto.AttributeType.Name(t).lower()


def cstr(s):
    out = []
    for ch in s.encode("utf-8"):
        c = chr(ch)
        if c in '"\\':
            out.append("\\" + c)
        elif 32 <= ch < 127:
            out.append(c)
        else:
            out.append("\\%03o" % ch)
    return "".join(out)


class Pool:
    def __init__(self):
        self.off, self.parts, self.size = {}, [], 0

    def __call__(self, s):
        if s not in self.off:
            self.off[s] = self.size
            self.parts.append(s)
            self.size += len(s.encode("utf-8")) + 1
        return self.off[s]


class Runs:
    """An array of records where identical runs are stored once."""

    def __init__(self):
        self.items, self.runs = [], {}

    def add(self, recs):
        key = tuple(recs)
        if not key:
            return 0
        if key not in self.runs:
            self.runs[key] = len(self.items)
            self.items.extend(key)
        return self.runs[key]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "lib/opschema/opschema_data.c"
    if onnx.__version__ != pinned_onnx():
        sys.exit("gen-opschema: onnx %s is imported, scripts/pypi-pins.txt pins %s: run it with "
                 "the venv of scripts/pypi-venv.sh (see the usage)" % (onnx.__version__, pinned_onnx()))
    schemas = sorted(defs.get_all_schemas_with_history(),
                     key=lambda s: (s.domain, s.name, s.since_version))
    pool = Pool()
    types = sorted({t for s in schemas for tc in s.type_constraints for t in tc.allowed_type_strs}
                   | {f.type_str for s in schemas for f in list(s.inputs) + list(s.outputs)
                      if f.type_str not in [tc.type_param_str for tc in s.type_constraints]})
    tidx = {t: i for i, t in enumerate(types)}
    assert len(types) < 255
    domains = sorted({s.domain for s in schemas})
    typelists, formals, constraints, attrs = Runs(), Runs(), Runs(), Runs()
    rows = []
    for s in schemas:
        tcs = [tc.type_param_str for tc in s.type_constraints]
        crec = []
        for tc in s.type_constraints:
            allowed = sorted(tidx[t] for t in tc.allowed_type_strs)
            mask = 0
            for t in tc.allowed_type_strs:
                if t.startswith("tensor(") and t[7:-1] in DTYPES:
                    mask |= 1 << DTYPES[t[7:-1]]
            first = typelists.add(allowed)
            crec.append((pool(tc.type_param_str), first, len(allowed), mask))

        def formal(f):
            opt = int(f.option)  # 0 single, 1 optional, 2 variadic
            if f.type_str in tcs:
                tc, ty = tcs.index(f.type_str), 255
            else:
                tc, ty = 255, tidx[f.type_str]
            return (pool(f.name), opt, int(bool(f.is_homogeneous)), tc, ty)

        fin = [formal(f) for f in s.inputs]
        fout = [formal(f) for f in s.outputs]
        arec = [(pool(n), ATTR[str(a.type).split(".")[-1]], int(a.required), pool(default_text(a)))
                for n, a in sorted(s.attributes.items())]
        assert len(fin) < 256 and len(fout) < 256 and len(arec) < 256 and len(crec) < 16
        rows.append((pool(s.name), domains.index(s.domain), s.since_version, int(s.deprecated),
                     formals.add(fin), len(fin), formals.add(fout), len(fout),
                     constraints.add(crec), len(crec), attrs.add(arec), len(arec),
                     s.min_input, min(s.max_input, 0xFFFF), s.min_output,
                     min(s.max_output, 0xFFFF)))
    assert pool.size < 65536, pool.size
    for d in domains:
        pool(d)
    type_dt = [DTYPES.get(t[7:-1], 0) if t.startswith("tensor(") else 0 for t in types]
    type_names = [pool(t) for t in types]
    assert pool.size < 65536, pool.size

    L = []
    w = L.append
    # the tables are facts taken from onnx's operator definitions (Apache-2.0)
    # REUSE-IgnoreStart
    w("/* SPDX-FileCopyrightText: Copyright (c) ONNX Project Contributors */")
    w("/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */")
    w("/* SPDX-License-Identifier: Apache-2.0 */")
    # REUSE-IgnoreEnd
    w("/* Generated by scripts/gen-opschema.py from onnx %s (onnx.defs): do not edit." % onnx.__version__)
    w(" * %d schemas; regenerate with the usage of scripts/gen-opschema.py. */" % len(rows))
    w("/* clang-format off */")
    w('#include "opschema/opschema.h"')
    w("")
    w("const char onnxslim__ops_pool[] =")
    line = ""
    for p in pool.parts:
        piece = cstr(p) + "\\000"
        if len(line) + len(piece) > 90:
            w('  "%s"' % line)
            line = ""
        line += piece
    w('  "%s";' % line)
    w("")
    w("const char *const onnxslim__ops_domains[%d] = {%s};" %
      (len(domains), ", ".join('"%s"' % d for d in domains)))
    w("const unsigned onnxslim__ops_n_domains = %d;" % len(domains))
    # the newest opset of each domain: onnx's own number for ai.onnx and
    # ai.onnx.ml (an opset may change no operator), else the newest since_version
    maxv = {d: max(s.since_version for s in schemas if s.domain == d) for d in domains}
    maxv[""] = max(maxv[""], defs.onnx_opset_version())
    if "ai.onnx.ml" in maxv:
        maxv["ai.onnx.ml"] = max(maxv["ai.onnx.ml"], defs.onnx_ml_opset_version())
    w('const char onnxslim__ops_onnx_version[] = "%s";' % onnx.__version__)
    w("const unsigned short onnxslim__ops_domain_max[%d] = {%s};" %
      (len(domains), ", ".join(str(maxv[d]) for d in domains)))
    w("")
    w("const unsigned short onnxslim__ops_type_name[%d] = {" % len(types))
    for i in range(0, len(types), 12):
        w("  " + ", ".join(str(x) for x in type_names[i:i + 12]) + ",")
    w("};")
    w("const unsigned char onnxslim__ops_type_dtype[%d] = {" % len(types))
    for i in range(0, len(types), 24):
        w("  " + ", ".join(str(x) for x in type_dt[i:i + 24]) + ",")
    w("};")
    w("const unsigned onnxslim__ops_n_types = %d;" % len(types))
    w("")
    w("const unsigned char onnxslim__ops_typelist[%d] = {" % max(1, len(typelists.items)))
    for i in range(0, len(typelists.items), 24):
        w("  " + ", ".join(str(x) for x in typelists.items[i:i + 24]) + ",")
    w("};")
    w("")
    w("const osl_op_formal onnxslim__ops_formals[%d] = {" % max(1, len(formals.items)))
    for r in formals.items:
        w("  {%d, %d, %d, %d, %d}," % r)
    w("};")
    w("")
    w("const osl_op_constraint onnxslim__ops_constraints[%d] = {" % max(1, len(constraints.items)))
    for r in constraints.items:
        w("  {%d, %d, %d, 0x%xu}," % r)
    w("};")
    w("")
    w("const osl_op_attr onnxslim__ops_attrs[%d] = {" % max(1, len(attrs.items)))
    for r in attrs.items:
        w("  {%d, %d, %d, %d}," % r)
    w("};")
    w("")
    w("const osl_op_schema onnxslim__ops_schemas[%d] = {" % len(rows))
    for r in rows:
        w("  {%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d}," % r)
    w("};")
    w("const unsigned onnxslim__ops_n_schemas = %d;" % len(rows))
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")


main()
