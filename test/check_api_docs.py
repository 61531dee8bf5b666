#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Every public function is documented, versioned and exported.

For each ONNXSLIM_API declaration in include/: the comment right before it
must carry "@since X.Y.Z", and abi/onnxslim.symbols must list the function
with that same version. Every symbol of the list must be declared.
Prints "N passed, N failed" (one test per function)."""
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
listed = {}
for line in (root / "abi/onnxslim.symbols").read_text().splitlines():
    line = line.strip()
    if line and not line.startswith("#"):
        name, ver = line.split()
        listed[name] = ver

# (a deprecated function carries ONNXSLIM_DEPRECATED("use NEW") after ONNXSLIM_API)
decl = re.compile(r'ONNXSLIM_API\s+(?:ONNXSLIM_DEPRECATED\("[^"]*"\)\s*)?[^;(]*?\b(onnxslim_\w+)\s*\(', re.S)
passed = failed = 0
seen = set()
for header in sorted((root / "include").rglob("*.h")):
    text = header.read_text()
    for m in decl.finditer(text):
        name = m.group(1)
        seen.add(name)
        before = text[: m.start()].rstrip()
        doc = ""
        if before.endswith("*/"):
            doc = before[before.rfind("/*"):]
        since = re.search(r"@since\s+(\d+\.\d+\.\d+)", doc)
        problems = []
        if not since:
            problems.append("no @since in its doc comment")
        if name not in listed:
            problems.append("missing from abi/onnxslim.symbols")
        elif since and listed[name] != since.group(1):
            problems.append("version %s in the list, %s in the header" % (listed[name], since.group(1)))
        if problems:
            failed += 1
            print("FAIL %s (%s): %s" % (name, header.name, "; ".join(problems)))
        else:
            passed += 1
for name in sorted(set(listed) - seen):
    failed += 1
    print("FAIL %s: listed but not declared in any header" % name)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
