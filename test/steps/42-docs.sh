# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The guides say what the code does. test/check_docs.py: packages and
# run-time dependencies in docs/building.md, public structs and the call
# cycle in docs/design.md, owned objects in docs/handles.md. Here: the
# README's word that a model with external data converts without a merge.
# The commands of docs/building.md are compiled and run by step 50-install.
set -u
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

/usr/bin/python3 test/check_docs.py > "$tmp/docs.log" 2>&1; r=$?
grep -v -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/docs.log"
p=$(grep -c '^ok ' "$tmp/docs.log") f=$(grep -c '^FAIL ' "$tmp/docs.log")
passed=$((passed + p)) failed=$((failed + f))
[ $r -ne 0 ] && [ "$f" -eq 0 ] && bad "test/check_docs.py exit $r"

# ---- README's platform table: each row tested by a target CI runs -----------
/usr/bin/python3 test/check_platforms.py > "$tmp/plat.log" 2>&1; r=$?
grep -v -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/plat.log"
p=$(grep -c '^ok ' "$tmp/plat.log") f=$(grep -c '^FAIL ' "$tmp/plat.log")
passed=$((passed + p)) failed=$((failed + f))
[ $r -ne 0 ] && [ "$f" -eq 0 ] && bad "test/check_platforms.py exit $r"

# ---- the API reference (docs/reference/, scripts/gen-reference.py) ----------
# The pages are what the headers give, and every public function's doc
# comment follows the rule of docs/contributing.md ("Documenting a public
# function"): description, @since, errors, ownership.
/usr/bin/python3 scripts/gen-reference.py --check > "$tmp/ref.log" 2>&1; r=$?
cat "$tmp/ref.log"
p=$(grep -c '^ok ' "$tmp/ref.log") f=$(grep -c '^FAIL ' "$tmp/ref.log")
passed=$((passed + p)) failed=$((failed + f))
[ $r -ne 0 ] && [ "$f" -eq 0 ] && bad "scripts/gen-reference.py --check exit $r"
# Read without the generator: every function of abi/onnxslim.symbols has a
# heading on a page, with its version under **Since**.
if out=$(/usr/bin/python3 - <<'PY'
import re, pathlib
pages = "".join(p.read_text() for p in sorted(pathlib.Path("docs/reference").glob("*.md")))
since = dict(re.findall(r"^### (onnxslim_\w+)\n(?:.*\n)*?- \*\*Since:\*\* (\S+)", pages, re.M))
bad = []
for line in open("abi/onnxslim.symbols"):
    f = line.split()
    if f and not f[0].startswith("#") and since.get(f[0]) != f[1]:
        bad.append("%s (%s)" % (f[0], since.get(f[0], "no heading")))
print("%d listed functions; wrong or missing: %s" % (len(since), bad) if bad else len(since))
raise SystemExit(1 if bad else 0)
PY
); then ok "docs/reference/ has every function of abi/onnxslim.symbols ($out), with its version"
else bad "docs/reference/ against abi/onnxslim.symbols: $out"; fi

# controls, on a copy of the headers, the symbol list and the pages: each
# break must fail the check with a FAIL line matching the pattern
ref_control() { # WHAT PATTERN SHELL-COMMAND (run in the copy)
  rm -rf "$tmp/tree" && mkdir -p "$tmp/tree/docs" && cp -r include abi "$tmp/tree/" &&
    cp -r docs/reference "$tmp/tree/docs/" || { bad "copy the tree for a control"; return; }
  (cd "$tmp/tree" && sh -c "$3") || { bad "control: $1: could not break the copy"; return; }
  /usr/bin/python3 scripts/gen-reference.py --check --root "$tmp/tree" > "$tmp/control.log" 2>&1; cr=$?
  if [ $cr -ne 0 ] && grep '^FAIL ' "$tmp/control.log" | grep -q -e "$2"; then ok "control: $1 fails the check"
  else grep '^FAIL ' "$tmp/control.log"; bad "control: $1 (exit $cr) was not caught"; fi
}
# (each sed must change the file: grep -q checks the result)
ref_control "a function without its doc comment" 'onnxslim_graph_set_name.*no /\*\* \*/ doc comment' \
  "perl -0pi -e 's{/\\*\\*\\n \\* Sets the graph.s name \\(copied\\)\\. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM\\.\\n \\* \\@since 0\\.1\\.0\\n \\*/\\n}{}' include/onnxslim/graph.h && ! grep -q 'Sets the graph.s name' include/onnxslim/graph.h"
ref_control "an int function without Errors" 'onnxslim_model_set_doc_string.*names no error' \
  "sed -i 's/Sets the model.s doc_string (copied)\. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM\./Sets the model doc_string (copied)./' include/onnxslim/model.h && grep -q 'Sets the model doc_string (copied)\.\$' include/onnxslim/model.h"
ref_control "onnxslim_save not naming the function that frees its report" 'onnxslim_save .*owned and freed' \
  "sed -i 's/ (free it with onnxslim_save_report_free())//' include/onnxslim/save.h && ! grep -q 'free it with onnxslim_save_report_free' include/onnxslim/save.h"
ref_control "a function without @since" 'onnxslim_node_name.*no @since' \
  "sed -i 's|absent; NULL only on error. @since 0.1.0 \*/\$|absent; NULL only on error. */|' include/onnxslim/node.h && grep -q 'NULL only on error. \*/' include/onnxslim/node.h && grep -c 'NULL only on error. \*/' include/onnxslim/node.h | grep -qx 1"
ref_control "a @since the symbol list contradicts" 'onnxslim_fingerprint.*abi/onnxslim.symbols says' \
  "sed -i 's/^onnxslim_fingerprint 0.1.0\$/onnxslim_fingerprint 0.2.0/' abi/onnxslim.symbols && grep -q 'onnxslim_fingerprint 0.2.0' abi/onnxslim.symbols"
ref_control "a header changed without regenerating the pages" 'docs/reference/cleanup.md differs' \
  "sed -i 's/Sorts the graph.s nodes topologically/Sorts the nodes of the graph topologically/' include/onnxslim/cleanup.h && grep -q 'Sorts the nodes of the graph' include/onnxslim/cleanup.h"
ref_control "a listed function no header declares" 'onnxslim_graph_frobnicate.*declared in no header' \
  "echo 'onnxslim_graph_frobnicate 0.1.0' >> abi/onnxslim.symbols"
ref_control "a page not generated from any header" 'docs/reference/stale.md is not generated' \
  "echo stale > docs/reference/stale.md"

# bench/write_doc.py --merge: a run of one job of section peers
# (BENCH_PEERS_JOBS=simplify) replaces that job's block only; a run of every
# job replaces the whole section; the machine table stays the document's
# (the full run's), the note of the partial run names its host and commit
if out=$(cd "$tmp" && /usr/bin/python3 - "$OLDPWD/bench/write_doc.py" <<'PY'
import os, platform, subprocess, sys
old = """<!-- x -->
# Benchmarks

Written by `make bench` on a day at commit abc.

Measured separately: peers on a day at commit def (`BENCH_ONLY=... BENCH_DOC=merge make bench`).

## The machine

| | |
|---|---|
| CPU | The Full Run's CPU |
| cores (online) | 97 |

## Sections

### load: one

```
load row 1
```

### peers: the jobs

```
model: /old/m.onnx
peers: onnx 1
-- job recipe: the recipe
recipe row OLD-R
headline: peers, the recipe: 1 s

(job simplify measured on another day)
-- job simplify: node counts
simplify row OLD-S
-- job simplify, the corpus models: corpus
corpus row OLD-C
```
"""
def merge(log):
    open("doc.md", "w").write(old)
    open("log", "w").write(log)
    subprocess.run([sys.executable, sys.argv[1], "--merge", "log", "doc.md"], check=True,
                   env={"BENCH_COMMIT": "c0ffee", "PATH": "/usr/bin:/bin"})
    return open("doc.md").read()
one = merge("== peers: the jobs\nmodel: /new/m.onnx\npeers: onnx 1\n\n-- job simplify: node counts\n"
            "simplify row NEW-S\n-- job simplify, the corpus models: corpus\ncorpus row NEW-C\n")
bad = [w for w, ok in [
    ("the recipe's row kept", "recipe row OLD-R" in one and "headline: peers, the recipe: 1 s" in one),
    ("the old simplify rows gone", "OLD-S" not in one and "OLD-C" not in one and "another day" not in one),
    ("the new rows in", "simplify row NEW-S\n-- job simplify, the corpus models: corpus\ncorpus row NEW-C" in one),
    ("the job's line with the header that differs", "(job simplify measured separately on " in one and "at commit c0ffee (blocks: simplify; simplify, the corpus models)" in one and "  model: /new/m.onnx" in one
     and "  peers: onnx 1" not in one),
    ("the other section kept", "load row 1" in one),
    ("the notes", "Measured separately: peers (job simplify) on " in one and "Measured separately: peers on a day" in one),
    ("the headline collected", "- peers, the recipe: 1 s" in one),
    ("the machine table kept", "| CPU | The Full Run's CPU |\n| cores (online) | 97 |\n\n" in one),
    ("the partial run's host and commit named", "at commit c0ffee, on host %s (" % platform.node() in one
     and "cores (online) %d" % os.cpu_count() in one)] if not ok]
corpus = merge("== peers: the jobs\nmodel: /old/m.onnx\n\n-- job simplify, the corpus models: corpus\n"
               "corpus row NEW-C\n")
if "simplify row OLD-S" not in corpus or "OLD-C" in corpus or "corpus row NEW-C" not in corpus:
    bad.append("a run of the corpus alone replaces the corpus block only")
if "Measured separately: peers (job simplify, the corpus models) on " not in corpus:
    bad.append("a run of the corpus alone is named so")
full = merge("== peers: the jobs\nmodel: /new/m.onnx\n-- job recipe: the recipe\nrecipe row NEW-R\n"
             "-- job simplify: node counts\nsimplify row NEW-S\n")
if "OLD-R" in full or "NEW-R" not in full or "load row 1" not in full:
    bad.append("control: a run of every job replaces the whole section")
print("; ".join(bad) or "11 checks and a control")
raise SystemExit(1 if bad else 0)
PY
); then ok "bench/write_doc.py --merge of one job of section peers keeps the other jobs ($out)"
else bad "bench/write_doc.py --merge of one job: $out"; fi

# README: "A model whose tensors are in external data needs no merge first"
cli="$B/libonnxslim"
fp() { "$cli" fingerprint "$1" 2>/dev/null; }
if "$cli" split test/data/bert-tiny.onnx "$tmp/s.onnx" --threshold 0 > /dev/null 2>&1 &&
   "$cli" convert "$tmp/s.onnx" "$tmp/c.onnx" --to fp16 > /dev/null &&
   "$cli" convert test/data/bert-tiny.onnx "$tmp/ref.onnx" --to fp16 > /dev/null &&
   [ -n "$(fp "$tmp/c.onnx")" ] && [ "$(fp "$tmp/c.onnx")" = "$(fp "$tmp/ref.onnx")" ]; then
  ok "README: a model with external data converts as it is, like its inline twin"
else
  bad "README: converting a model with external data"
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
