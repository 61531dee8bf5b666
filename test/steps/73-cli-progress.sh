# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Progress and --quiet of the libonnxslim command, on a real terminal: under
# script(1) (a pty) a load, a conversion and a save of a 128 MiB model each
# draw updating lines on stderr ("\r", percent, bytes done of total, rate,
# time left) and erase them; with stderr a file nothing of it is printed;
# -q/--quiet (before or after the command) leaves only errors, on the pty
# too; warnings and notes go with it. The model is made here (bert-tiny plus
# 32 tensors of 4 MiB and one that overflows FP16) and removed at the end.
. test/step-lib.sh
set -u

if ! command -v script >/dev/null 2>&1; then
  skip "script(1) (util-linux/bsdutils) is not installed"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 0
fi
lib="$root/$B/libonnxslim.so.0"
if ! PYTHONPATH="$root/python" LIBONNXSLIM_LIBRARY="$lib" "$PY" - "$m" "$tmp/big.onnx" <<'EOF'
import sys
import numpy as np
import libonnxslim
with libonnxslim.load(sys.argv[1]) as m:
    for i in range(32):
        m.graph.add_initializer("big%d" % i,
                                np.random.default_rng(i).standard_normal(1 << 20, dtype=np.float32))
    m.graph.add_initializer("huge", np.full(1024, 1e6, dtype=np.float32))
    m.save(sys.argv[2], no_fsync=True)
EOF
then
  bad "cannot make the test model"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 1
fi
cd "$tmp" || exit 1

# Runs the command line "$1" on a pty (stdout and stderr both go to it);
# the typescript goes to "$2".
on_tty() { script -qec "$1" /dev/null < /dev/null > "$2" 2>&1; }
# The progress lines of a typescript: the pieces between carriage returns.
segments() { tr '\r' '\n' < "$1"; }
line_re='^(loading|converting|saving)( [^:]+)?: +[0-9]+%  [0-9.]+ (B|KiB|MiB|GiB) of [0-9.]+ (B|KiB|MiB|GiB)  ([0-9.]+ (B|KiB|MiB|GiB)|--)/s  [0-9:-]+ left *$'
count() { segments "$1" | grep -Ec "^$2"; }

# --force: "huge" (1e6, beyond FP16's range) is converted, so the Inf warning shows
conv="--to fp16 --select 'big*' --select huge --force --external-data --threshold 0 --location data.bin"
mkdir a b

# ---- on a terminal: progress for each phase ----------------------------------
on_tty "'$cli' convert big.onnx a/out.onnx $conv" tty.txt; r=$?
[ $r -eq 0 ] && ok "convert on a pty exits 0" || bad "convert on a pty exit $r"
nl=$(count tty.txt 'loading big.onnx: ') nc=$(count tty.txt 'converting: ') ns=$(count tty.txt 'saving a/out.onnx: ')
[ "$nl" -ge 3 ] && [ "$nc" -ge 10 ] && [ "$ns" -ge 10 ] &&
  ok "progress lines: $nl loading, $nc converting, $ns saving" || bad "progress lines: $nl loading, $nc converting, $ns saving"
bad_lines=$(segments tty.txt | grep -E '^(loading|converting|saving)' | grep -Evc "$line_re")
[ "$bad_lines" -eq 0 ] && ok "every progress line has percent, bytes of total, rate, time left" ||
  { bad "$bad_lines malformed progress lines"; segments tty.txt | grep -E '^(loading|converting|saving)' | grep -Ev "$line_re" | head -3; }
segments tty.txt | grep -Eq '^saving a/out.onnx: +[0-9]+%  [0-9.]+ MiB of 64\.[0-9] MiB  [0-9.]+ (KiB|MiB|GiB)/s' &&
  ok "a saving line shows MiB of the total and a rate" || bad "no saving line with a rate"
# the percent goes up within a phase, and each phase's line is erased (a
# blank run of spaces) before the next thing is printed
pcts=$(segments tty.txt | sed -n 's/^converting: *\([0-9]*\)%.*/\1/p' | tr '\n' ' ')
echo "$pcts" | awk '{for (i = 2; i <= NF; i++) if ($i + 0 <= $(i - 1) + 0) exit 1}' &&
  ok "converting percent increases" || bad "converting percent not increasing: $pcts"
erased=$(segments tty.txt | grep -Ec '^ {20,}$')
[ "$erased" -ge 3 ] && ok "each progress line erased ($erased)" || bad "progress lines erased: $erased"
segments tty.txt | grep -q "kept 8 shape-input tensors inline" && ok "notes still printed without --quiet" ||
  bad "note missing on the pty"
segments tty.txt | grep -q "warning: converting to FLOAT16 changed values" &&
  ok "warnings still printed without --quiet" || bad "warning missing on the pty"
on_tty "'$cli' info big.onnx" info.txt; r=$?
[ $r -eq 0 ] && [ "$(count info.txt 'loading big.onnx: ')" -ge 3 ] && segments info.txt | grep -q '^file: ' &&
  ok "info on a pty: load progress, then the summary" || bad "info on a pty (exit $r)"

# ---- stderr not a terminal: no progress at all --------------------------------
eval "'$cli' convert big.onnx b/out.onnx $conv" > out.txt 2> err.txt; r=$?
[ $r -eq 0 ] && ! grep -q "$(printf '\r')" err.txt && ! grep -Eq 'loading|converting:|saving|%' err.txt &&
  ok "stderr to a file: no progress" || bad "stderr to a file (exit $r): $(head -c 200 err.txt)"
grep -q "kept 8 shape-input" err.txt && grep -q "warning: converting" err.txt &&
  ok "stderr to a file: the notes and warnings" || bad "stderr to a file: notes/warnings missing"
cmp -s a/out.onnx b/out.onnx && cmp -s a/data.bin b/data.bin && ok "the same files with and without progress" ||
  bad "files differ with progress"
# stdout a file, stderr the pty: progress still drawn
on_tty "'$cli' info big.onnx > info-out.txt" info2.txt
[ "$(count info2.txt 'loading big.onnx: ')" -ge 3 ] && grep -q '^file: ' info-out.txt &&
  ok "stdout redirected, stderr a pty: progress" || bad "stdout redirected: no progress"

# ---- --quiet: only errors, on the pty too --------------------------------------
on_tty "'$cli' convert big.onnx q1.onnx $conv --quiet" q1.txt; r=$?
[ $r -eq 0 ] && [ ! -s q1.txt ] && [ -s q1.onnx ] && ok "convert --quiet on a pty prints nothing" ||
  bad "convert --quiet on a pty (exit $r): $(segments q1.txt | head -3)"
on_tty "'$cli' -q convert big.onnx q2.onnx $conv" q2.txt; r=$?
[ $r -eq 0 ] && [ ! -s q2.txt ] && ok "-q before the command: nothing" || bad "-q before the command (exit $r)"
eval "'$cli' convert big.onnx q3.onnx $conv -q" > q3.out 2> q3.err; r=$?
[ $r -eq 0 ] && [ ! -s q3.err ] && ok "-q silences warnings and notes" || bad "-q with stderr to a file: $(head -c 200 q3.err)"
on_tty "'$cli' -q info big.onnx" q4.txt; r=$?
[ $r -eq 0 ] && [ "$(count q4.txt loading)" -eq 0 ] && segments q4.txt | grep -q '^file: ' &&
  ok "-q info on a pty: the summary, no progress" || bad "-q info on a pty (exit $r)"
on_tty "'$cli' -q convert missing.onnx q5.onnx" q5.txt; r=$?
[ $r -eq 1 ] && grep -q "cannot load 'missing.onnx'" q5.txt && ok "-q keeps errors (exit 1)" ||
  bad "-q error (exit $r): $(cat q5.txt)"
on_tty "'$cli' convert big.onnx q6.onnx --bogus -q" q6.txt; r=$?
[ $r -eq 2 ] && grep -q "unknown option '--bogus'" q6.txt && ok "-q keeps usage errors (exit 2)" ||
  bad "-q usage error (exit $r)"
"$cli" --help | grep -q -- '-q, --quiet' && "$cli" convert --help | grep -q -- '--quiet' &&
  ok "--help documents -q, --quiet" || bad "--help lacks --quiet"

cd "$root" || exit 1
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
