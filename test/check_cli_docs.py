#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The manual page and the bash completion know every command and option.

The commands and options are read from the command itself, whose help is
printed from its option tables (tools/main.c, tools/cmd-*.c):
`libonnxslim --help` (the commands; "Options:", the global options) and
`libonnxslim COMMAND --help` (the options of COMMAND, with their values). Then:

- man/libonnxslim.1 has a subsection (.SS) per command listing each of its
  options (with its value name) as a .TP tag, and the global options under
  OPTIONS; it documents no option the command lacks; its .TH names the
  version of include/onnxslim/version.h; groff renders it without a warning
  (groff -man -ww -z); the commands of its EXAMPLES run (bert-tiny as
  model.onnx; each must succeed, diff may exit 1);
- completion/libonnxslim.bash, sourced by bash and called the way bash calls
  it (`complete -p libonnxslim`, COMP_WORDS/COMP_CWORD), offers exactly the
  commands and global options after `libonnxslim`, exactly each command's
  options (and --help) after `libonnxslim COMMAND -`, .onnx files and
  directories for the models, and values the command accepts for the
  options that take a word from a list.

  check_cli_docs.py [--libonnxslim BIN] [--man FILE] [--completion FILE]

Prints one line per check and "N passed, N failed"; exit 1 on a failure."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from checks import finish, report

root = Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--libonnxslim", default=str(root / os.environ.get("B", "build") / "libonnxslim"))
ap.add_argument("--man", default=str(root / "man/libonnxslim.1"))
ap.add_argument("--completion", default=str(root / "completion/libonnxslim.bash"))
args = ap.parse_args()
cli = str(Path(args.libonnxslim).resolve())



def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


# ---- the truth: the command's help ------------------------------------------
top = run([cli, "--help"]).stdout
commands = re.findall(r"^  ([a-z][a-z0-9-]*) ", top.split("\nCommands:\n", 1)[-1].split("\nOptions:\n")[0], re.M)
global_opts = re.findall(r"(?<![\w-])(--?[a-z][a-z0-9-]*)",
                         "\n".join(l for l in top.split("\nOptions:\n", 1)[-1].split("\n\n")[0].splitlines()
                                   if l.startswith("  ")))
options = {}  # command -> {option: value name or None}
for c in commands:
    out = run([cli, c, "--help"]).stdout
    options[c] = {m.group(1): m.group(2)
                  for m in re.finditer(r"^      (--[a-z][a-z0-9-]*)(?: ([A-Z][A-Z_]*))?(?:\s|$)", out, re.M)}
report(len(commands) >= 7 and "--version" in global_opts and all(options.get(c) for c in ("convert", "diff")),
       "read %d commands, %d options and the global options %s from %s --help"
       % (len(commands), sum(len(o) for o in options.values()), " ".join(global_opts), os.path.basename(cli)),
       "commands %s, options %s" % (commands, options))

# ---- the manual page ----------------------------------------------------------
src = Path(args.man).read_text()


def plain(line):
    """A roff line as text: requests' quotes, font escapes and \\- gone."""
    line = re.sub(r"\\f(\[[^]]*\]|\(..|.)", "", line)
    line = line.replace("\\-", "-").replace("\\(aq", "'").replace("\\e", "\\").replace("\\c", "")
    line = re.sub(r"\\[&%]", "", line)
    if line.startswith("."):
        req, _, rest = line.partition(" ")
        words = re.findall(r'"([^"]*)"|(\S+)', rest)
        words = [a or b for a, b in words]
        # alternating-font macros join their words; .B/.I/.SS keep the spaces
        line = ("" if req[1:] in ("BR", "RB", "BI", "IB", "IR", "RI") else " ").join(words)
    return line


sections = {}  # ("SH", name) / ("SS", name) -> list of roff lines
cur_sh = cur = None
for line in src.splitlines():
    if line.startswith(".SH "):
        cur_sh = plain(line).strip()
        cur = ("SH", cur_sh)
        sections[cur] = []
    elif line.startswith(".SS "):
        cur = ("SS", cur_sh, plain(line).split()[0])
        sections[cur] = []
    elif cur:
        sections[cur].append(line)


def tags(lines):
    """The .TP tags of a section, as text."""
    return [plain(lines[i + 1]) for i, l in enumerate(lines[:-1]) if l.strip() == ".TP"]


def opt_re(name):
    return re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")


for c in commands:
    lines = sections.get(("SS", "COMMANDS", c))
    if lines is None:
        report(False, "man page: COMMANDS has a subsection for %s" % c)
        continue
    t = tags(lines)
    missing = []
    for o, metavar in options[c].items():
        want = o + (" " + metavar if metavar else "")
        if not any(tag.split() == want.split() for tag in t):
            missing.append(want)
    extra = [tag for tag in t if tag.split()[0] not in options[c]]
    report(not missing and not extra,
           "man page: %s documents its %d options, with their values" % (c, len(options[c])),
           "not documented: %s; not options of %s: %s" % (missing, c, extra))
unknown = [k[2] for k in sections if k[0] == "SS" and k[1] == "COMMANDS" and k[2] not in commands]
report(not unknown, "man page: every command subsection is a command", str(unknown))
gtags = " ".join(tags(sections.get(("SH", "OPTIONS"), [])))
report(all(opt_re(o).search(gtags) for o in global_opts),
       "man page: OPTIONS documents the global options %s" % " ".join(global_opts),
       "missing: %s" % [o for o in global_opts if not opt_re(o).search(gtags)])
syn = " ".join(plain(l) for l in sections.get(("SH", "SYNOPSIS"), []))
report(all(opt_re(o).search(syn) for o in global_opts if o.startswith("--")),
       "man page: the SYNOPSIS shows the global options")
version = re.search(r'#define ONNXSLIM_VERSION_STRING "([^"]*)"',
                    (root / "include/onnxslim/version.h").read_text()).group(1)
th = re.search(r'^\.TH .*"libonnxslim ([^"]*)"', src, re.M)
report(th is not None and th.group(1) == version, "man page: .TH names version %s" % version,
       th.group(1) if th else "no .TH")
for name in ("EXIT STATUS", "EXAMPLES"):
    report(("SH", name) in sections, "man page: has a section %s" % name)
codes = [tag for tag in tags(sections.get(("SH", "EXIT STATUS"), []))]
used = sorted(set(re.findall(r"\b([0-9]) (?:valid|equal|different|problems|usage|MODEL unreadable|on success|on failure)",
                             top.split("Exit status:", 1)[-1])))
report(codes and sorted(codes) == used, "man page: EXIT STATUS lists the statuses the help names (%s)" % ", ".join(used),
       "man page: %s" % codes)

groff = shutil.which("groff")
if groff:
    r = run([groff, "-man", "-ww", "-z", args.man], env=dict(os.environ, LC_ALL="C.UTF-8"))
    report(r.returncode == 0 and not r.stderr.strip(), "man page: groff -man -ww -z renders it without a warning",
           r.stderr.strip()[:2000])
    r = run([groff, "-man", "-Tutf8", "-ww", args.man], env=dict(os.environ, LC_ALL="C.UTF-8"))
    text = re.sub(r".\x08", "", r.stdout)
    report(r.returncode == 0 and all(c in text for c in commands) and "--gather-to" in text.replace("\u2010", "-").replace("\u2212", "-"),
           "man page: groff -Tutf8 renders the commands and options")
else:
    report(False, "man page: groff not found (Debian package groff-base: run 'make deps')")

# the EXAMPLES, run in a directory holding model.onnx (bert-tiny)
ex = sections.get(("SH", "EXAMPLES"), [])
blocks, block = [], None
for line in ex:
    if line.strip() == ".EX":
        block = []
    elif line.strip() == ".EE":
        blocks.append("\n".join(block))
        block = None
    elif block is not None:
        block.append(line.replace("\\-", "-").replace("\\(aq", "'").replace("\\e", "\\"))
with tempfile.TemporaryDirectory() as d:
    shutil.copy(root / "test/data/bert-tiny.onnx", Path(d) / "model.onnx")
    env = dict(os.environ, PATH=os.path.dirname(cli) + os.pathsep + os.environ["PATH"])
    # every command must succeed; diff may also exit 1 (the models differ)
    prelude = ('libonnxslim() { command libonnxslim "$@"; r=$?; '
               '[ "$1" = diff ] && [ $r -eq 1 ] && return 0; return $r; }\nset -e\n')
    for b in blocks:
        r = run(["bash", "-c", prelude + b], cwd=d, env=env)
        report(r.returncode == 0, "man page example runs (exit %d): %s" % (r.returncode, " ".join(b.split())[:90]),
               (r.stdout + r.stderr)[-800:])
report(len(blocks) >= 3, "man page: %d examples" % len(blocks))

# ---- the bash completion --------------------------------------------------------
bash = shutil.which("bash")
comp = str(Path(args.completion).resolve())


def complete(words, cwd=None):
    """COMPREPLY for the command line `words` (the last one being completed),
    computed by the function `complete -p libonnxslim` names."""
    script = r'''
source "$1" || exit 3
spec=$(complete -p libonnxslim) || exit 4
fn=$(printf '%s\n' "$spec" | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
[ -n "$fn" ] || exit 5
shift
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
prev=; [ $COMP_CWORD -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
"$fn" libonnxslim "${COMP_WORDS[COMP_CWORD]}" "$prev"
printf '%s\n' "${COMPREPLY[@]}"
'''
    r = run([bash, "--norc", "--noprofile", "-c", script, "comp", comp] + words, cwd=cwd)
    if r.returncode != 0:
        return None
    return sorted(w for w in r.stdout.splitlines() if w)


r = run([bash, "--norc", "--noprofile", "-c", 'source "$1" && complete -p libonnxslim', "x", comp])
report(r.returncode == 0 and re.match(r"complete -F \S+ libonnxslim$", r.stdout.strip()),
       "completion: sourced by bash, registers a function: %s" % r.stdout.strip(), r.stderr.strip())
got = complete(["libonnxslim", ""])
report(got == sorted(commands + global_opts), "completion: `libonnxslim <TAB>` gives the commands and global options",
       "got %s, want %s" % (got, sorted(commands + global_opts)))
report(complete(["libonnxslim", "co"]) == sorted(c for c in commands if c.startswith("co")),
       "completion: `libonnxslim co<TAB>` gives %s" % " ".join(c for c in commands if c.startswith("co")))
for c in commands:
    want = sorted(set(options[c]) | {"--help"})
    got = complete(["libonnxslim", c, "-"])
    report(got == want, "completion: `libonnxslim %s -<TAB>` gives its %d options and --help" % (c, len(options[c])),
           "only in the completion: %s; missing: %s" % (sorted(set(got or []) - set(want)),
                                                        sorted(set(want) - set(got or []))))

with tempfile.TemporaryDirectory() as d:
    for f in ("a.onnx", "b.onnx", "notes.txt", "sub/c.onnx"):
        (Path(d) / f).parent.mkdir(exist_ok=True)
        (Path(d) / f).write_bytes(b"")
    models = ["a.onnx", "b.onnx", "sub"]
    for words in (["libonnxslim", "info", ""], ["libonnxslim", "convert", "--to", "fp16", "a.onnx", ""],
                  ["libonnxslim", "diff", "--json", ""], ["libonnxslim", "convert", "--also-single-file", ""],
                  ["libonnxslim", "check", "--", ""]):
        got = complete(words, cwd=d)
        report(got == models, "completion: `%s<TAB>` gives .onnx files and directories" % " ".join(words),
               "got %s" % got)
    got = complete(["libonnxslim", "info", "sub/"], cwd=d)
    report(got == ["sub/c.onnx"], "completion: `libonnxslim info sub/<TAB>` gives sub/c.onnx", "got %s" % got)
    got = complete(["libonnxslim", "check", "--", "-"], cwd=d)
    report(got == [], "completion: no options after --", "got %s" % got)

# values: every word offered for an option is accepted by the command
for c in commands:
    for o, metavar in options[c].items():
        if not metavar:
            continue
        got = complete(["libonnxslim", c, o, ""])
        got_eq = complete(["libonnxslim", c, o, "=", ""])
        if got is None or got_eq != got:
            report(False, "completion: `libonnxslim %s %s=<TAB>` as `%s <TAB>`" % (c, o, o), "%s / %s" % (got, got_eq))
            continue
        words = [w for w in got if not os.path.exists(w)]
        if not words:
            continue
        bad_words = [w for w in words if run([cli, c, o, w, "--help"]).returncode != 0]
        refused = run([cli, c, o, "no-such-value", "--help"]).returncode != 0
        report(not bad_words and refused,
               "completion: the values offered for %s %s (%s) are accepted, a wrong one is not" % (c, o, " ".join(words)),
               "refused: %s" % bad_words)

finish()
