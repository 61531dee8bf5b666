# A save over a model with external data is atomic as a pair: `onnxslim
# convert` saving version 2 over version 1 is killed (strace injects SIGKILL)
# at the N-th call of each file-changing system call, for every N, and what
# is on disk afterwards must load and have the fingerprint of version 1 or
# of version 2 - never the old model beside the new data.
# The two versions differ in both files with the same layout: the Gather
# table in BF16 truncated vs rounded (data file), and the graph's doc string
# (model file), so the old model beside the new data loads silently and
# has neither fingerprint.
set -u
B=${B:-build}
PY=/usr/bin/python3
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "skip $1"; }
root=$PWD
cli="$root/$B/onnxslim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m="$root/test/data/bert-tiny.onnx"
if ! command -v strace > /dev/null; then
  skip "strace is missing (make deps installs it)"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 0
fi
if ! strace -f -qq -o /dev/null -e trace=getpid -e inject=getpid:retval=1 true 2> /dev/null; then
  skip "strace cannot trace here (ptrace not allowed)"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 0
fi
"$cli" convert "$m" "$tmp/v1.onnx" --gather-to bf16 --round truncate > /dev/null
"$cli" convert "$m" "$tmp/v2r.onnx" --gather-to bf16 > /dev/null
"$PY" - "$tmp/v2r.onnx" "$tmp/v2.onnx" <<'EOF' || bad "python onnx cannot write version 2"
import sys, onnx
m = onnx.load(sys.argv[1])
m.graph.doc_string = "version 2"
onnx.save(m, sys.argv[2])
EOF
fp1=$("$cli" fingerprint "$tmp/v1.onnx")
fp2=$("$cli" fingerprint "$tmp/v2.onnx")
[ -n "$fp1" ] && [ -n "$fp2" ] && [ "$fp1" != "$fp2" ] && ok "two versions, two fingerprints" ||
  bad "versions: '$fp1' '$fp2'"

# The system calls that change files. strace counts each one separately.
calls="write pwrite64 copy_file_range fsync fdatasync rename renameat renameat2 link linkat unlink unlinkat"
set_calls=$(echo $calls | tr ' ' ',')

# crash NAME SETUP SAVE: for every call C in $calls and every N up to the
# number of C calls SAVE makes: run SETUP in a fresh directory $tmp/d (it
# writes version 1 as d/out.onnx), then SAVE (version 2 over it) killed at
# the N-th C; d/out.onnx must then load and be version 1 or 2. After a kill
# at the last calls of a save (removing the old data files) it is version 2.
crash() {
  name=$1 setup=$2 save=$3
  rm -rf "$tmp/d" && mkdir "$tmp/d" && (cd "$tmp/d" && eval "$setup") > /dev/null 2>&1 ||
    { bad "$name: setup failed"; return; }
  (cd "$tmp/d" && strace -f -qq -o "$tmp/trace" -e trace="$set_calls" sh -c "$save") > /dev/null 2>&1 ||
    { bad "$name: the save does not run under strace"; return; }
  [ "$("$cli" fingerprint "$tmp/d/out.onnx" 2> /dev/null)" = "$fp2" ] ||
    { bad "$name: the save without a kill is not version 2"; return; }
  points=0 old=0 new=0 wrong=0 first_wrong=""
  for c in $calls; do
    n=$(grep -c "^[0-9]* *$c(" "$tmp/trace")
    i=1
    while [ "$i" -le "$n" ]; do
      rm -rf "$tmp/d" && mkdir "$tmp/d" && (cd "$tmp/d" && eval "$setup") > /dev/null 2>&1
      sh -c 'cd "$1" && exec strace -f -qq -o /dev/null -e trace="$2" -e inject="$2:signal=SIGKILL:when=$3" sh -c "$4"' \
        - "$tmp/d" "$c" "$i" "$save" > /dev/null 2>&1
      f=$("$cli" fingerprint "$tmp/d/out.onnx" 2> /dev/null)
      points=$((points + 1))
      if [ "$f" = "$fp1" ]; then old=$((old + 1))
      elif [ "$f" = "$fp2" ]; then new=$((new + 1))
      else
        wrong=$((wrong + 1))
        [ -n "$first_wrong" ] || first_wrong="$c #$i: '$f' $("$cli" fingerprint "$tmp/d/out.onnx" 2>&1 | tail -n 1)"
      fi
      i=$((i + 1))
    done
  done
  echo "$name: $points kill points: $old old pairs, $new new pairs, $wrong neither"
  [ "$points" -gt 0 ] && [ "$wrong" -eq 0 ] && [ "$old" -gt 0 ] && [ "$new" -gt 0 ] &&
    ok "$name: killed at each of $points calls: the old or the new pair, never a mix" ||
    bad "$name: $wrong of $points kills left neither version (first: $first_wrong)"
}

ext="--external-data --threshold 0"
crash "one data file (--location out.bin)" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --location out.bin" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin"
crash "one data file, saved a third time" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin && \"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --location out.bin" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin"
crash "default data file (OUT.data)" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext"
crash "one file per tensor" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --per-tensor" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --per-tensor"
crash "merge over an external-data model" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --location out.bin" \
  "\"$cli\" merge \"$tmp/v2.onnx\" out.onnx"
crash "external data over a single file" \
  "cp \"$tmp/v1.onnx\" out.onnx" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
