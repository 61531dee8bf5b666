# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The README's platform table says what the tests run, no more.

README.md's "## Platforms" table has one row per platform: system,
architecture, compiler, and the make target that tests it. For each row:

- the target is a rule of the Makefile;
- CI runs it: it is reachable from .ci/run, following `make TARGET` and
  `$(MAKE) TARGET` in the recipes, the scripts those recipes run
  (`sh FILE`), and test/run.sh's steps (every test/steps/*.sh, run by the
  target whose recipe calls test/run.sh with no step list);
- a cross build's compiler (`CROSS=PREFIX` in the recipe or in a script
  it runs, `sh FILE`) is named in the compiler column, as is the recipe's
  `PLATFORM=NAME`. A target whose recipe only runs scripts counts as run
  when CI runs those scripts.

And every check-* target whose recipe (or a script it runs) builds for
another platform (CROSS= or PLATFORM=) has its row. Run from the top of the tree; prints ok/FAIL
lines and "N passed, N failed"; exit 1 on a failure.
"""
import os
import re
import sys

passed = failed = 0


def ok(msg):
    global passed
    passed += 1
    print("ok   " + msg)


def bad(msg):
    global failed
    failed += 1
    print("FAIL " + msg)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def table_rows():
    text = read("README.md")
    m = re.search(r"^## Platforms\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not m:
        bad("README.md has no '## Platforms' section")
        return []
    rows = []
    for line in m.group(1).splitlines():
        if not line.startswith("|") or re.match(r"^\|\s*-", line):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0].lower() == "system":
            continue
        if len(cells) != 4:
            bad("README platform row without 4 cells: %s" % line)
            continue
        rows.append(cells)
    if not rows:
        bad("README.md's platform table has no row")
    return rows


def makefile_rules():
    """{target: recipe text} of the Makefile's explicit rules."""
    rules, cur = {}, None
    for line in read("Makefile").splitlines():
        if line.startswith("\t") and cur is not None:
            for t in cur:
                rules[t] += line[1:] + "\n"
            continue
        m = re.match(r"^([A-Za-z0-9_.\- ]+):(?!=)", line)
        cur = None
        if m and not line.startswith((" ", "#")):
            cur = m.group(1).split()
            for t in cur:
                rules.setdefault(t, "")
    return rules


MAKE_CALL = re.compile(r"(?:\bmake|\$\(MAKE\))((?:\s+(?:-\S+|[A-Z_]+=\S+))*)\s+([a-z][a-z0-9-]*)\b")
SCRIPT_CALL = re.compile(r"\bsh\s+((?:test|scripts|\.ci)/[\w./-]+\.sh)")


def code(path):
    """What a script runs, not what its comments say."""
    return "\n".join(l for l in read(path).splitlines() if not l.lstrip().startswith("#"))


def recipe_and_scripts(rules, t):
    """Target t's recipe and the code of the scripts it runs (sh FILE)."""
    text = rules[t]
    for f in SCRIPT_CALL.findall(rules[t]):
        if os.path.exists(f):
            text += code(f)
    return text


def reachable(rules):
    """The targets CI runs: from .ci/run through recipes, scripts and steps."""
    seen_t, seen_f = set(), set()
    todo = [("file", ".ci/run")]
    steps = sorted("test/steps/" + f for f in os.listdir("test/steps") if f.endswith(".sh"))
    while todo:
        kind, name = todo.pop()
        if kind == "target":
            if name in seen_t or name not in rules:
                continue
            seen_t.add(name)
            text = rules[name]
            # test/run.sh with no step list runs every step
            if re.search(r"test/run\.sh\s*$", text, re.M):
                todo += [("file", s) for s in steps]
        else:
            if name in seen_f or not os.path.exists(name):
                continue
            seen_f.add(name)
            text = code(name)
        for m in MAKE_CALL.finditer(text):
            todo.append(("target", m.group(2)))
        for m in SCRIPT_CALL.finditer(text):
            todo.append(("file", m.group(1)))
    return seen_t, seen_f


def main():
    rows = table_rows()
    rules = makefile_rules()
    ci, ci_files = reachable(rules)
    named = set()
    for system, arch, compiler, how in rows:
        label = "%s %s" % (system, arch)
        m = re.search(r"`make ([a-z][a-z0-9-]*)`", how)
        if not m:
            bad("%s: the last cell names no `make TARGET`: %r" % (label, how))
            continue
        t = m.group(1)
        named.add(t)
        if t not in rules:
            bad("%s: `make %s` is no rule of the Makefile" % (label, t))
            continue
        ok("%s: `make %s` is a rule of the Makefile" % (label, t))
        scripts = SCRIPT_CALL.findall(rules[t])
        if t in ci:
            ok("%s: CI runs `make %s` (reached from .ci/run)" % (label, t))
        elif scripts and all(f in ci_files for f in scripts):
            ok("%s: CI runs what `make %s` runs (%s, reached from .ci/run)" % (label, t, ", ".join(scripts)))
        else:
            bad("%s: `make %s` is not reached from .ci/run: CI does not test it" % (label, t))
        recipe = recipe_and_scripts(rules, t)
        for var, what in (("CROSS", "compiler"), ("PLATFORM", "platform")):
            for v in sorted(set(re.findall(r"\b%s=([\w.-]+)" % var, recipe))):
                shown = v + "gcc" if var == "CROSS" else v
                if shown in compiler or shown in system.lower() or v in compiler:
                    ok("%s: the %s of `make %s` (%s=%s) is in the row" % (label, what, t, var, v))
                else:
                    bad("%s: `make %s` builds with %s=%s, not named in the row (%r)" % (label, t, var, v, compiler))
    # a script a row's target runs is that row's (check-long runs several)
    covered = {f for t in named if t in rules for f in SCRIPT_CALL.findall(rules[t])}
    cross = re.compile(r"\b(CROSS|PLATFORM)=")
    for t in sorted(rules):
        if not t.startswith("check-") or t in named:
            continue
        own = cross.search(rules[t]) or any(
            os.path.exists(f) and cross.search(code(f)) for f in SCRIPT_CALL.findall(rules[t]) if f not in covered)
        if own:
            bad("`make %s` builds for another platform but has no row in README.md's platform table" % t)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
