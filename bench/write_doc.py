#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Writes docs/benchmarks.md from the log of a full `make bench` run.

Usage: write_doc.py BENCH_LOG OUT_MD [README]
       write_doc.py --merge BENCH_LOG OUT_MD [README]

With --merge (a run of some sections: BENCH_ONLY=... BENCH_DOC=merge make
bench), the sections of the log replace those of the same name in OUT_MD
(or are appended), the other sections stay as they were, a line under the
title says which sections were measured when, at which commit and on which
host (with the rows of the machine table that differ: the table stays the
one of the document, the full run's machine), and the headline and targets
are collected again from every section. A section whose output is split
into jobs ("-- job NAME: ..." lines, section peers) and of which the log
has only some jobs (BENCH_PEERS_JOBS=...) keeps its other jobs: only the
blocks of the jobs run are replaced (a block: from a "-- job NAME:" line
to the next with another NAME), after a line "(job NAME measured
separately on ...)" with the lines of that run's header that differ.
BENCH_COMMIT=REV names the commit measured when the log is written into
the document later (default: HEAD, and whether the tree has changes).

The document holds the machine the figures were measured on, the headline
lines the sections print ("headline: ..."), every verdict line
("target: ..."), and each section's output verbatim. It is generated: edit
the sections (bench/sections/*.sh), not the document; a section's
hand-written notes (what its figures mean) are bench/notes/NAME.md, NAME
the section's title up to the colon, placed after its output. With README, the
headline lines also replace the list between README's markers
"<!-- bench-headline" and "<!-- /bench-headline -->", so the README quotes
the document it links to.
"""
import datetime
import os
import platform
import re
import subprocess
import sys


def run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return ""


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def machine():
    cpu = re.search(r"^model name\s*:\s*(.*)$", read("/proc/cpuinfo"), re.M)
    flags = re.search(r"^flags\s*:\s*(.*)$", read("/proc/cpuinfo"), re.M)
    simd = []
    if flags:
        have = set(flags.group(1).split())
        simd = [f for f in ("sse4_2", "f16c", "avx2", "fma", "avx512f", "avx512bw", "avx512vl",
                            "avx512_bf16", "avx512_fp16") if f in have]
    mem = re.search(r"^MemTotal:\s*(\d+)", read("/proc/meminfo"), re.M)
    osr = re.search(r'^PRETTY_NAME="?([^"\n]*)', read("/etc/os-release"), re.M)
    fs = run(["df", "-PT", "."]).splitlines()
    rows = [
        ("CPU", cpu.group(1) if cpu else platform.processor() or "unknown"),
        ("cores (online)", str(os.cpu_count())),
        ("SIMD features", " ".join(simd) or "none detected"),
        ("RAM", "%.1f GiB" % (int(mem.group(1)) / 1048576) if mem else "unknown"),
        ("OS", osr.group(1) if osr else platform.system()),
        ("kernel", platform.release()),
        ("file system of the build directory", fs[1].split()[1] if len(fs) > 1 else "unknown"),
        ("compiler", (run(["cc", "--version"]).splitlines() or ["unknown"])[0]),
        ("node", run(["node", "--version"]) or "not installed"),
    ]
    return rows


def sections(log):
    """[(title, [lines])] split at the "== title" lines."""
    out, cur = [], None
    for line in log.splitlines():
        if line.startswith("== "):
            cur = (line[3:].strip(), [])
            out.append(cur)
        elif cur is not None:
            cur[1].append(line)
    return out


def doc_sections(md):
    """The (title, [lines]) of a document this script wrote; its notes of
    sections measured separately; its machine table rows."""
    out, notes, rows, cur, inside, table = [], [], [], None, False, False
    for line in md.splitlines():
        if line.startswith("## "):
            table = line == "## The machine"
        if line.startswith("Measured separately: "):
            notes.append(line)
        elif table and cur is None:
            m = re.match(r"^\| (.+?) \| (.*) \|$", line)
            if m:
                rows.append((m.group(1), m.group(2)))
        elif line.startswith("### "):
            cur = (line[4:].strip(), [])
            out.append(cur)
            inside = False
        elif cur is not None and line == "```":
            inside = not inside
        elif cur is not None and inside:
            cur[1].append(line)
    return out, notes, rows


def job_name(block, blocks):
    """The job a block of section peers belongs to ("simplify, the corpus
    models": job simplify), or the block's whole name when the job's own
    block did not run (BENCH_PEERS_JOBS=corpus)."""
    job = block.split(",")[0].split()[0]
    return job if job in blocks else block


def note_names(note):
    """The sections a "Measured separately: A, B (job x, y) on ..." line
    names: ["A", "B (job x, y)"] (commas inside brackets kept)."""
    text = note[len("Measured separately: "):].split(" on ")[0]
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + [cur.strip()] if cur.strip() else out


def host_note(rows, table):
    """Where a partial run was measured, for its "Measured separately"
    line: this host's name and, when the document's machine table (the
    full run's, kept) describes another machine, the rows of this one that
    differ; the load average at the end of the run."""
    name = platform.node() or "unknown"
    load = read("/proc/loadavg").split()
    load = "; load average %s over the run's last 15 minutes" % load[2] if len(load) > 2 else ""
    differ = [(k, v) for k, v in rows if (k, v) not in table]
    if not table or not differ:
        return "on host %s, the machine of the table below%s" % (name, load)
    return "on host %s (%s; the table below describes the full run's machine)%s" % (
        name, ", ".join("%s %s" % (k, v) for k, v in differ), load)


def key(title):
    """A section's name: its title up to the colon."""
    return title.split(":")[0].strip()


def main():
    args = sys.argv[1:]
    merge = bool(args) and args[0] == "--merge"
    if merge:
        args = args[1:]
    if len(args) not in (2, 3):
        sys.exit("usage: write_doc.py [--merge] BENCH_LOG OUT_MD [README]")
    sys.argv[1:] = args
    log = read(sys.argv[1])
    secs = sections(log)
    if not secs:
        sys.exit("write_doc.py: no section in " + sys.argv[1])
    commit = os.environ.get("BENCH_COMMIT") or run(["git", "rev-parse", "--short", "HEAD"]) or "unknown"
    if not os.environ.get("BENCH_COMMIT") and run(["git", "status", "--porcelain", "--untracked-files=no"]):
        commit += " (with uncommitted changes)"
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    old = read(sys.argv[2]) if merge else ""
    notes, rows = [], machine()
    if merge and old:
        olds, notes, kept = doc_sections(old)
        new = {key(t): (t, ls) for t, ls in secs}
        names = []
        for t, ls in secs:
            part = None
            for ot, ols in olds:
                if key(ot) == key(t):
                    # a run of some jobs of a section (BENCH_PEERS_JOBS=...)
                    # replaces those jobs' tables only, under the old title
                    mls, part = merge_jobs(ls, ols, now, commit)
                    if part is not None:
                        new[key(t)] = (ot, mls)
            names.append(key(t) + ("" if part is None else " (job %s)" % ", ".join(
                dict.fromkeys(job_name(p, part) for p in part))))
        # an older note goes when this run measured again every section (and
        # job) it names
        notes = [n for n in notes if not set(note_names(n)) <= set(names)]
        names = ", ".join(names)
        notes.append("Measured separately: %s on %s at commit %s, %s (`BENCH_ONLY=... BENCH_DOC=merge make bench`)."
                     % (names, now, commit, host_note(rows, kept)))
        # the table stays the full run's machine: the note names this one
        if kept:
            rows = kept
        merged = [new.pop(key(t), (t, ls)) for t, ls in olds]
        merged += [(t, ls) for t, ls in secs if key(t) in new]
        secs = merged
        first = re.search(r"^Written by .*$", old, re.M)
        intro = first.group(0) if first else None
    else:
        intro = None
    # REUSE-IgnoreStart
    md = ["<!-- SPDX-FileCopyrightText: 2026 The libonnxslim authors -->",
          "<!-- SPDX-License-Identifier: MIT -->", "# Benchmarks", "",
    # REUSE-IgnoreEnd
          intro or
          "Written by `make bench` (bench/run.sh, bench/sections/, bench/write_doc.py) on %s at commit %s. "
          "Do not edit: run `make bench` again. Every figure is measured side by side in that one run; "
          "the machine is shared, so single timings vary from run to run, and memory figures are peak "
          "RSS (VmHWM) with mapped file pages included unless a row says otherwise." % (now, commit)]
    for n in notes:
        md += ["", n]
    md += ["", "## The machine", "", "| | |", "|---|---|"]
    md += ["| %s | %s |" % r for r in rows]
    heads = [(t, l[len("headline:"):].strip()) for t, ls in secs for l in ls if l.startswith("headline:")]
    if heads:
        md += ["", "## Headline", ""] + ["- %s" % h for _, h in heads]
    verdicts = [(t, l.strip()) for t, ls in secs for l in ls if l.strip().startswith("target:")]
    if verdicts:
        md += ["", "## Targets", "", "| section | target and verdict |", "|---|---|"]
        md += ["| %s | %s |" % (t.split(":")[0], v[len("target:"):].strip().replace("|", "\\|"))
               for t, v in verdicts]
    md += ["", "## Sections"]
    for title, lines in secs:
        while lines and not lines[-1].strip():
            lines.pop()
        md += ["", "### " + title, "", "```"] + lines + ["```"]
        md += notes_of(key(title))
    tmp = sys.argv[2] + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    os.replace(tmp, sys.argv[2])
    if len(sys.argv) == 4 and heads:
        quote_headline(sys.argv[3], ["- %s" % h for _, h in heads])


JOB = re.compile(r"^-- job ([^:]+)")
JOB_NOTE = re.compile(r"^\(job (.+?) measured ")


def job_blocks(lines):
    """A section's lines split at its jobs (bench/sections/48-peers.sh's
    "-- job NAME: ..." lines, NAME the block's key; a line "(job NAME
    measured ...)" opens the block NAME): (the lines before the first job,
    [(NAME, [lines])])."""
    head, blocks = [], []
    for line in lines:
        m = JOB_NOTE.match(line) or JOB.match(line)
        if m and (not blocks or blocks[-1][0] != m.group(1).strip()):
            blocks.append((m.group(1).strip(), []))
        (blocks[-1][1] if blocks else head).append(line)
    return head, blocks


def merge_jobs(new, old, now, commit):
    """The lines of a section of which the log measured only some jobs: the
    old section's with those jobs' blocks replaced (after a line saying
    when they were measured, and the lines of their run's header that
    differ from the old header's). Returns (lines, [jobs]) or, when the log
    has every job of the old section (or no jobs), (new, None)."""
    nh, nb = job_blocks(new)
    oh, ob = job_blocks(old)
    names = [j for j, _ in nb]
    if not nb or not ob or set(j for j, _ in ob) <= set(names):
        return new, None
    fresh = dict(nb)
    out, prev = list(oh), False
    for j, ls in ob + [(j, None) for j in names if j not in dict(ob)]:
        if j not in fresh:
            if prev and out and out[-1].strip():
                out.append("")
            out += ls
            prev = False
            continue
        if not prev:
            if out and out[-1].strip():
                out.append("")
            differ = ["  " + l for l in nh if l not in oh and l.strip()]
            out.append("(job %s measured separately on %s at commit %s (blocks: %s); the other blocks from the"
                       " run above%s)" % (j, now, commit, "; ".join(names), "; that run's header:" if differ else ""))
            out += differ
        body = list(fresh[j])
        while body and not body[-1].strip():
            body.pop()
        out += body
        prev = True
    while out and not out[-1].strip():
        out.pop()
    return out, names


def notes_of(name):
    """The hand-written notes on a section, bench/notes/NAME.md without its
    SPDX lines, as paragraphs after the section's output (they say what the
    figures mean; the figures themselves stay the run's). Plain paragraphs
    and lists: a "### " heading or a ``` fence in them would be read back
    as a section by a later --merge."""
    text = read(os.path.join(os.path.dirname(os.path.abspath(__file__)), "notes", name + ".md"))
    lines = [l for l in text.splitlines() if not l.startswith("<!-- SPDX-")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return [""] + lines if lines else []


def quote_headline(readme, bullets):
    """Replaces the list between README's bench-headline markers."""
    text = read(readme)
    m = re.search(r"(<!-- bench-headline[^\n]*-->\n)(.*?)(<!-- /bench-headline -->)", text, re.S)
    if not m:
        sys.exit("write_doc.py: no bench-headline markers in " + readme)
    text = text[:m.start(2)] + "\n".join(bullets) + "\n" + text[m.end(2):]
    tmp = readme + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, readme)


main()
