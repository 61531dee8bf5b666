# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Ctrl-C leaves nothing behind: `libonnxslim convert|split|merge` getting
# SIGINT or SIGTERM during a large save (a 192 MiB table, bench/make_huge.c)
# cancels it through the progress function: it exits 130 (SIGINT) or 143
# (SIGTERM), OUT and its data files are what they were (sha256 of every
# file, or absent when they were absent) and no hidden temporary is left
# (ls -A). The signal is sent at several points:
#   tmp      as soon as the save's temporary file exists (its start);
#   tmp+32M  once the temporary holds 32 MiB (a sixth of the table: the rest gives a loaded machine time to deliver the signal before the commit; at 96 MiB a run beside two other make checks saw the save commit first);
#   fsync    by strace at the first fsync (the data synced: the save's
#            last progress call, just before its commit, cancels it);
#   sleep    after a fixed delay, wherever the command is then.
# A signal can always land after the commit (the save is done): the command
# then exits 0 and OUT is the new model with nothing else left - the only
# other outcome accepted. The `tmp`, `tmp+32M` and `fsync` points must end
# canceled (the signal is sent before the rename that commits).
# Then SIGKILL, which no program can catch: the temporaries a killed save
# left are removed by the next save to OUT, whatever its layout.
set -u
. test/step-lib.sh
if ! env --default-signal=INT true 2> /dev/null; then
  skip "env --default-signal is missing (coreutils 8.31+)"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 0
fi
w="$tmp/w"
mkdir -p "$w/in"
cc -std=c11 -O2 -Iinclude -Itest bench/make_huge.c -L"$B" -lonnxslim -Wl,-rpath,"$root/$B" \
  -o "$tmp/make_huge" || { bad "build bench/make_huge.c"; echo "$passed passed, $failed failed, $skipped skipped"; exit 1; }
# in.onnx: the table in a sparse in.onnx.data; big.onnx: the same inline
"$tmp/make_huge" "$w/in/in.onnx" --tables 1 --rows 49152 --dim 1024 > /dev/null &&
  "$cli" merge "$w/in/in.onnx" "$w/in/big.onnx" > /dev/null 2>&1 ||
  { bad "make the large models"; echo "$passed passed, $failed failed, $skipped skipped"; exit 1; }
fp_in=$("$cli" fingerprint "$w/in/in.onnx")
have_strace=0
strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:signal=INT:when=1 true 2> /dev/null && have_strace=1

o="$w/o"
# state: every entry of $o (hidden ones too) with its kind, and each file's sha256
state() { (cd "$o" && find . -printf '%p %y\n' | sort && find . -type f -exec sha256sum {} + | sort); }
# wait_tmp MIB: until a temporary file of the save holds MIB MiB (0: exists)
wait_tmp() {
  i=0
  while [ $i -lt 1200 ]; do
    f=$(find "$o" -maxdepth 2 -name '.*.tmp-*' -size +"$1"M 2> /dev/null | head -n 1)
    [ -n "$f" ] && return 0
    kill -0 "$pid" 2> /dev/null || return 1
    sleep 0.05
    i=$((i + 1))
  done
  return 1
}
canceled=0 completed=0
# run LABEL PREV POINT SIG CMD...: OUT ($o/out.onnx) made by PREV first
# ("none": absent), then CMD ... "$o/out.onnx" interrupted at POINT by SIG
run() {
  label=$1 prev=$2 point=$3 sig=$4
  shift 4
  rm -rf "$o" && mkdir -p "$o"
  case $prev in
    none) ;;
    *) "$cli" $prev "$m" "$o/out.onnx" > /dev/null 2>&1 || { bad "$label: setup '$prev'"; return; } ;;
  esac
  before=$(state)
  want=130
  [ "$sig" = TERM ] && want=143
  case $point in
    fsync)
      # the data file's fsync for split (then the model's fsync), the model's otherwise
      env --default-signal=INT,TERM strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:signal="$sig":when=1 \
        "$cli" "$@" "$o/out.onnx" > /dev/null 2> "$tmp/e"
      r=$?
      ;;
    *)
      env --default-signal=INT,TERM "$cli" "$@" "$o/out.onnx" > /dev/null 2> "$tmp/e" &
      pid=$!
      case $point in
        tmp) wait_tmp 0 ;;
        tmp+32M) wait_tmp 32 ;;
        sleep*) sleep "${point#sleep}" ;;
      esac
      kill -"$sig" "$pid" 2> /dev/null
      wait "$pid"
      r=$?
      ;;
  esac
  after=$(state)
  if [ $r -eq $want ] && [ "$before" = "$after" ] && grep -q "interrupted by SIG$sig" "$tmp/e"; then
    canceled=$((canceled + 1))
    ok "$label: SIG$sig at $point: exit $r, OUT and its files as before ($(ls -A "$o" | wc -l) entries), no temporary"
  elif [ $r -eq 0 ] && ! ls -A "$o" | grep -q '^\.' && [ "$("$cli" fingerprint "$o/out.onnx" 2> /dev/null)" = "$fp_in" ]; then
    case $point in
      sleep*)
        completed=$((completed + 1))
        ok "$label: SIG$sig at $point came after the commit: exit 0, the new OUT, no temporary" ;;
      *) bad "$label: SIG$sig at $point (before the commit) did not cancel: exit 0, the new OUT" ;;
    esac
  else
    bad "$label: SIG$sig at $point: exit $r (want $want), $([ "$before" = "$after" ] && echo 'files unchanged' || echo "files CHANGED: $(ls -A "$o" | tr '\n' ' ')"): $(cat "$tmp/e")"
  fi
}

big="$w/in/big.onnx" in="$w/in/in.onnx"
for point in tmp tmp+32M fsync sleep0.3; do
  if [ "$point" = fsync ] && [ $have_strace = 0 ]; then
    skip "signals at fsync: strace cannot inject here"
    continue
  fi
  run "convert (one file, 192 MiB)" none "$point" INT convert "$big"
  run "convert over an existing OUT" convert "$point" TERM convert "$big"
  run "split (external data)" split "$point" INT split "$in" --threshold 0
  run "split --per-tensor" none "$point" TERM split "$in" --per-tensor --threshold 0
  run "merge over an external-data OUT" split "$point" INT merge "$in"
done
echo "canceled: $canceled, completed before the signal: $completed"

# a signal ignored at start (a background job of a script, nohup) stays ignored
rm -rf "$o" && mkdir -p "$o"
"$cli" convert "$big" "$o/out.onnx" > /dev/null 2>&1 &
pid=$!
wait_tmp 0
kill -INT "$pid" 2> /dev/null
wait "$pid"
r=$?
[ $r -eq 0 ] && [ "$("$cli" fingerprint "$o/out.onnx")" = "$fp_in" ] && ! ls -A "$o" | grep -q '^\.' &&
  ok "SIGINT ignored at start (a background job of a script) stays ignored: the save completes" ||
  bad "SIGINT ignored at start: exit $r, files: $(ls -A "$o" | tr '\n' ' ')"

# SIGKILL cannot be caught: the killed save's temporaries stay, and the next
# save to OUT removes them whatever its layout or data file names (they are
# named after OUT, in its directory and in its data files' directories)
# killed_then LABEL KILLED_ARGS -- LATER_ARGS: KILLED_ARGS ... OUT killed
# once its temporary holds 32 MiB, then LATER_ARGS ... OUT completes
killed_then() {
  label=$1
  shift
  k=""
  while [ "$1" != -- ]; do k="$k $1"; shift; done
  shift
  # shellcheck disable=SC2086
  "$cli" $k "$o/out.onnx" > /dev/null 2>&1 &
  pid=$!
  wait_tmp 32
  kill -KILL "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  left=$(find "$o" -name '.*' | wc -l)
  "$cli" "$@" "$o/out.onnx" > /dev/null 2> "$tmp/e"
  r=$?
  hidden=$(find "$o" -name '.*' | sed "s|$o/||" | tr '\n' ' ')
  if [ "$left" -gt 0 ] && [ $r -eq 0 ] && [ -z "$hidden" ]; then
    ok "$label: $left hidden files left by SIGKILL, none after the next save"
  else
    bad "$label: $left hidden files after SIGKILL; next save exit $r, left: $hidden $(cat "$tmp/e")"
  fi
}
rm -rf "$o" && mkdir -p "$o/sub"
killed_then "split --per-tensor killed, then convert (one file)" split "$in" --per-tensor --threshold 0 -- convert "$big"
killed_then "split --location x.bin killed, then merge" split "$in" --threshold 0 --location x.bin -- merge "$in"
killed_then "merge killed, then split" merge "$in" -- split "$in" --threshold 0
"$cli" split "$in" "$o/out.onnx" --threshold 0 --location sub/y.bin > /dev/null 2>&1
killed_then "split --location sub/y.bin killed (OUT reads sub/y.bin), then split --per-tensor" \
  split "$in" --threshold 0 --location sub/y.bin -- split "$in" --per-tensor --threshold 0

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
