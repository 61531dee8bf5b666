#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Writes python/libonnxslim/_capi.py: the ctypes declarations of the public C API.

Reads every prototype (``ONNXSLIM_API ret name(args);``) and every options or
statistics structure (``typedef struct onnxslim_x { fields } onnxslim_x;``) of
include/onnxslim/*.h and writes, for the Python package:

- one ctypes.Structure class per structure, fields in header order;
- FUNCTIONS: name -> (restype, [argtypes]) for every public function;
- for type checkers (under ``if TYPE_CHECKING``), ``Lib``: a Protocol with
  one method per function, returning the Python type ctypes gives for its
  restype (int, float, Optional[bytes] for char *, Optional[int] for a
  handle, None for void), arguments untyped (ctypes takes many forms).

Opaque handles (onnxslim_model *, const onnxslim_tensor *, ...) become
c_void_p, so a 64-bit handle is never cut to a C int. A function pointer
type (``typedef int (*onnxslim_x_fn)(args);``) becomes a ctypes CFUNCTYPE
named after it (onnxslim_progress_fn -> ProgressFn), used for the fields of
that type.

Usage: scripts/gen-python-capi.py [--check]
  With --check nothing is written: exit 1 when _capi.py differs from what the
  headers give (python/tests/test_capi.py runs the same comparison).
"""

import glob
import os
import re
import sys
import textwrap

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "python", "libonnxslim", "_capi.py")

_SCALARS = {
    "void": "None",
    "int": "c_int",
    "unsigned int": "c_uint",
    "int32_t": "c_int32",
    "int64_t": "c_int64",
    "uint16_t": "c_uint16",
    "uint32_t": "c_uint32",
    "uint64_t": "c_uint64",
    "size_t": "c_size_t",
    "float": "c_float",
    "double": "c_double",
}


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _class_name(typedef):
    """onnxslim_load_options -> LoadOptions."""
    return "".join(w.capitalize() for w in typedef[len("onnxslim_"):].split("_"))


def ctype(decl, structs):
    """The ctypes expression for a C type as written in a header."""
    t = " ".join(decl.replace("*", " * ").split())
    stars = t.count("*")
    base = " ".join(w for w in t.split() if w not in ("const", "*"))
    if base == "char" and stars >= 1:
        inner = "c_char_p"
        stars -= 1
    elif base == "void" and stars >= 1:
        inner = "c_void_p"
        stars -= 1
    elif base in structs:
        inner = structs[base]
    elif base.startswith("onnxslim_") and stars >= 1:
        inner = "H"  # an opaque handle
        stars -= 1
    elif base in _SCALARS:
        inner = _SCALARS[base]
    else:
        raise SystemExit("gen-python-capi: no ctypes mapping for %r" % decl)
    for _ in range(stars):
        inner = "P(%s)" % inner
    return inner


def _arg_types(arglist):
    """The C types of a parameter list "int a, const char *b" (names dropped)."""
    args = []
    for a in arglist.split(","):
        a = " ".join(a.split())
        if a == "void":
            continue
        am = re.match(r"(.*?[\s*])(\w+)$", a)
        args.append(am.group(1).strip())
    return args


# ctypes restype -> the Python type of the value a call returns
_PY_RESULTS = {"None": "None", "c_char_p": "Optional[bytes]", "H": "Optional[int]",
               "c_void_p": "Optional[int]", "c_float": "float", "c_double": "float"}


def py_result(ctype_expr):
    """The Python type (as written in an annotation) of a call's result."""
    if ctype_expr in _PY_RESULTS:
        return _PY_RESULTS[ctype_expr]
    if re.match(r"c_u?int(\d+)?$|c_size_t$", ctype_expr):
        return "int"
    return "Any"


def parse(root=ROOT):
    """(structs, callbacks, struct_fields, functions) of the headers under
    root/include/onnxslim."""
    texts = []
    for path in sorted(glob.glob(os.path.join(root, "include", "onnxslim", "*.h"))):
        with open(path) as f:
            # a deprecated function is declared as any other (its attribute dropped)
            text = re.sub(r'\bONNXSLIM_DEPRECATED(?:_ENUMERATOR)?\("[^"]*"\)', "", f.read())
            texts.append((os.path.basename(path), _strip_comments(text)))
    structs = {}  # typedef name -> class name (structures and callbacks)
    callbacks = []  # (header, typedef, restype decl, [arg decls])
    for header, text in texts:
        for m in re.finditer(r"typedef\s+([^;(]*?)\(\s*\*\s*(onnxslim_\w+)\s*\)\s*\(([^;]*?)\)\s*;",
                             text, re.S):
            callbacks.append((header, m.group(2), " ".join(m.group(1).split()),
                              _arg_types(m.group(3))))
            structs[m.group(2)] = _class_name(m.group(2))
    struct_fields = []  # (header, class, [(field, ctype decl)])
    for header, text in texts:
        for m in re.finditer(r"typedef\s+struct\s+(onnxslim_\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text,
                             re.S):
            fields = []
            for stmt in m.group(2).split(";"):
                stmt = " ".join(stmt.split())
                if not stmt:
                    continue
                fm = re.match(r"(.*?)\b(\w+)$", stmt)
                fields.append((fm.group(2), fm.group(1).strip()))
            structs[m.group(3)] = _class_name(m.group(3))
            struct_fields.append((header, m.group(3), fields))
    functions = []  # (header, name, restype decl, [arg decls])
    for header, text in texts:
        for m in re.finditer(r"ONNXSLIM_API\s+([^;(]*?)\b(onnxslim_\w+)\s*\(([^;]*?)\)\s*;", text,
                             re.S):
            functions.append((header, m.group(2), " ".join(m.group(1).split()),
                              _arg_types(m.group(3))))
    return structs, callbacks, struct_fields, functions


def render(root=ROOT):
    structs, callbacks, struct_fields, functions = parse(root)
    out = [
        # REUSE-IgnoreStart
        "# SPDX-FileCopyrightText: 2026 The libonnxslim authors",
        "# SPDX-License-Identifier: MIT",
        # REUSE-IgnoreEnd
        '"""ctypes declarations of the public C API (generated; do not edit).',
        "",
        "Written by scripts/gen-python-capi.py from include/onnxslim/*.h:",
        "one CFUNCTYPE per function pointer type, one Structure per options or",
        "statistics structure and FUNCTIONS, name -> (restype, argtypes) for every",
        "public function. python/tests/test_capi.py regenerates it and fails on any",
        "difference.",
        '"""',
        "",
        "from ctypes import (CFUNCTYPE, POINTER as P, Structure, c_char_p, c_double, c_float,",
        "                    c_int, c_int32, c_int64, c_size_t, c_uint, c_uint16, c_uint32,",
        "                    c_uint64, c_void_p)",
        "from typing import TYPE_CHECKING",
        "",
        "#: An opaque handle (onnxslim_model *, onnxslim_node *, ...).",
        "H = c_void_p",
    ]
    for header, typedef, ret, args in callbacks:
        out += ["", "#: %s (%s)." % (typedef, header),
                "%s = CFUNCTYPE(%s)" % (structs[typedef], ", ".join(
                    [ctype(ret, {})] + [ctype(a, {}) for a in args]))]
    for header, typedef, fields in struct_fields:
        out += ["", "", "class %s(Structure):" % structs[typedef],
                '    """%s (%s)."""' % (typedef, header), "", "    _fields_ = ["]
        for name, decl in fields:
            out.append('        ("%s", %s),' % (name, ctype(decl, structs)))
        out.append("    ]")
    out += ["", "", "#: name -> (restype, [argtypes]) for every public function.", "FUNCTIONS = {"]
    last = None
    for header, name, ret, args in functions:
        if header != last:
            out.append("    # %s" % header)
            last = header
        argl = ", ".join(ctype(a, structs) for a in args)
        line = '    "%s": (%s, [%s]),' % (name, ctype(ret, structs), argl)
        if len(line) > 99:
            line = '    "%s": (%s, [' % (name, ctype(ret, structs))
            line += "\n" + textwrap.fill(argl + "]),", 99, initial_indent=" " * 8,
                                         subsequent_indent=" " * 8, break_on_hyphens=False)
        out.append(line)
    out.append("}")
    out += ["", "if TYPE_CHECKING:  # pragma: no cover",
            "    from typing import Any, Optional, Protocol", "",
            "    class Lib(Protocol):",
            '        """The functions of FUNCTIONS as the type checker sees them (_lib.lib)."""']
    for header, name, ret, args in functions:
        out += ["", "        def %s(self, *args: Any) -> %s:" % (name, py_result(ctype(ret, structs))),
                "            ..."]
    return "\n".join(out) + "\n"


def main(argv):
    text = render()
    if "--check" in argv:
        with open(OUT) as f:
            same = f.read() == text
        if not same:
            print("gen-python-capi: %s differs from the headers; run %s" % (OUT, argv[0]))
        return 0 if same else 1
    with open(OUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
