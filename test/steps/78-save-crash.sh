# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# A. A save over a model with external data is atomic as a pair: `libonnxslim
# convert` saving version 2 over version 1 is killed (strace injects SIGKILL)
# at the N-th call of each file-changing system call, for every N, and what
# is on disk afterwards must load and have the fingerprint of version 1 or
# of version 2 - never the old model beside the new data.
# B. Nothing is left behind: 20 saves in a row into one directory, each
# killed at a random call (seeded), then one save that completes: no
# temporary file remains and the directory holds exactly OUT and the files
# it reads.
# C. A save that fails (strace makes the N-th call of each kind fail with
# EIO) leaves the old or the new version and no file of its own behind.
# The two versions differ in both files with the same layout: the Gather
# table in BF16 truncated vs rounded (data file), and the graph's doc string
# (model file), so the old model beside the new data loads silently and
# has neither fingerprint.
set -u
. test/step-lib.sh
if ! strace_ready; then
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
calls="write pwrite64 copy_file_range splice fsync fdatasync rename renameat renameat2 link linkat unlink unlinkat"
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
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin" "keep out.bin x.bin"
crash "one data file, saved a third time" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin && \"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --location out.bin" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin" "keep out.bin x.bin"
crash "default data file (OUT.data)" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext"
crash "one file per tensor" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --per-tensor" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --per-tensor"
crash "merge over an external-data model" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --location out.bin" \
  "\"$cli\" merge \"$tmp/v2.onnx\" out.onnx"
crash "one file over an external-data model (it removes out.bin)" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --location out.bin" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx"
crash "external data over a single file" \
  "cp \"$tmp/v1.onnx\" out.onnx" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin" "keep out.bin x.bin"

# ---- B. kill 20 times at random, then save once ---------------------------------

# reads MODEL: the external data files MODEL reads (python onnx, not loaded)
reads() {
  "$PY" - "$1" <<'EOF'
import sys, onnx
m = onnx.load(sys.argv[1], load_external_data=False)
locs = set()
def graph(g):
    for t in list(g.initializer) + [s.values for s in g.sparse_initializer]:
        tensor(t)
    for n in g.node:
        for a in n.attribute:
            for t in ([a.t] if a.HasField("t") else []) + list(a.tensors):
                tensor(t)
            for sg in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                graph(sg)
def tensor(t):
    if t.data_location == onnx.TensorProto.EXTERNAL:
        locs.add({e.key: e.value for e in t.external_data}["location"])
graph(m.graph)
for l in sorted(locs):
    print(l)
EOF
}

# chain NAME OPTIONS: 20 saves of version 1 and 2 in turn with OPTIONS
# into $tmp/c/out.onnx, each killed at a random one of the calls a save
# makes, each leaving version 1 or 2 on disk; then a save that completes.
chain() {
  name=$1 opts=$2
  rm -rf "$tmp/c" && mkdir "$tmp/c"
  (cd "$tmp/c" && strace -f -qq -o "$tmp/trace" -e trace="$set_calls" "$cli" convert "$tmp/v1.onnx" out.onnx $opts) > /dev/null 2>&1
  for c in $calls; do echo "$c $(grep -c "^[0-9]* *$c(" "$tmp/trace")"; done > "$tmp/counts"
  awk -v seed="$3" 'BEGIN { srand(seed) } { c[NR] = $1; n[NR] = $2; t += $2 }
    END { for (k = 0; k < 20; k++) { r = int(rand() * t) + 1
      for (i = 1; i <= NR; i++) { if (r <= n[i]) { print c[i], r; break } r -= n[i] } } }' "$tmp/counts" > "$tmp/points"
  k=0 mixed=0 left=0
  while read -r c i; do
    k=$((k + 1)) v=$((k % 2 + 1))
    sh -c 'cd "$1" && exec strace -f -qq -o /dev/null -e trace="$2" -e inject="$2:signal=SIGKILL:when=$3" "$4" convert "$5" out.onnx $6' \
      - "$tmp/c" "$c" "$i" "$cli" "$tmp/v$v.onnx" "$opts" > /dev/null 2>&1
    f=$("$cli" fingerprint "$tmp/c/out.onnx" 2> /dev/null)
    [ "$f" = "$fp1" ] || [ "$f" = "$fp2" ] || mixed=$((mixed + 1))
    left=$((left + $(ls -A "$tmp/c" | grep -c '^\.')))
  done < "$tmp/points"
  echo "$name: 20 kills ($(awk '{print $1 "#" $2}' "$tmp/points" | tr '\n' ' ')), $left temporary files seen after them in all"
  [ "$mixed" -eq 0 ] && ok "$name: 20 kills in a row: each left version 1 or 2" || bad "$name: $mixed kills left neither version"
  (cd "$tmp/c" && "$cli" convert "$tmp/v2.onnx" out.onnx $opts) > /dev/null 2>&1 &&
    [ "$("$cli" fingerprint "$tmp/c/out.onnx")" = "$fp2" ] || bad "$name: the save after the kills failed"
  hidden=$(ls -A "$tmp/c" | grep '^\.' | tr '\n' ' ' | cut -c1-400)
  [ -z "$hidden" ] && ok "$name: then one save: no temporary file remains" || bad "$name: left behind: $hidden"
  have=$(ls "$tmp/c" | sort | tr '\n' ' ')
  want=$( (echo out.onnx; reads "$tmp/c/out.onnx") | sort | tr '\n' ' ')
  [ "$have" = "$want" ] && ok "$name: and the directory is OUT and the files it reads" ||
    bad "$name: the directory holds '$(echo "$have" | cut -c1-400)', OUT reads '$(echo "$want" | cut -c1-400)'"
}
chain "one data file" "$ext --location out.bin" 14
chain "one file per tensor" "$ext --per-tensor" 15

# ---- C. a failed save leaves nothing of its own -----------------------------------
# fail_each NAME SETUP SAVE [EXTRA]: EXTRA, files that stay besides OUT and
# the files it reads; a file "keep" is a copy of out.bin, which a failed
# save must leave as it was.
fail_each() {
  name=$1 setup=$2 save=$3 extra=${4:-}
  rm -rf "$tmp/d" && mkdir "$tmp/d" && (cd "$tmp/d" && eval "$setup") > /dev/null 2>&1
  (cd "$tmp/d" && strace -f -qq -o "$tmp/trace" -e trace="$set_calls" sh -c "$save") > /dev/null 2>&1
  points=0 failed_saves=0 wrong=0 first=""
  for c in write fsync rename renameat renameat2 link linkat; do
    n=$(grep -c "^[0-9]* *$c(" "$tmp/trace")
    i=1
    while [ "$i" -le "$n" ]; do
      rm -rf "$tmp/d" && mkdir "$tmp/d" && (cd "$tmp/d" && eval "$setup") > /dev/null 2>&1
      sh -c 'cd "$1" && exec strace -f -qq -o /dev/null -e trace="$2" -e inject="$2:error=EIO:when=$3" sh -c "$4"' \
        - "$tmp/d" "$c" "$i" "$save" > /dev/null 2>&1 || failed_saves=$((failed_saves + 1))
      points=$((points + 1))
      f=$("$cli" fingerprint "$tmp/d/out.onnx" 2> /dev/null)
      have=$(ls -A "$tmp/d" | sort | tr '\n' ' ')
      want=$( (echo out.onnx; reads "$tmp/d/out.onnx"; for x in $extra; do echo "$x"; done) | sort -u | tr '\n' ' ')
      kept=1
      [ -e "$tmp/d/keep" ] && [ "$f" = "$fp1" ] && ! cmp -s "$tmp/d/keep" "$tmp/d/out.bin" && kept=0
      if { [ "$f" != "$fp1" ] && [ "$f" != "$fp2" ]; } || [ "$have" != "$want" ] || [ $kept -eq 0 ]; then
        wrong=$((wrong + 1))
        [ -n "$first" ] || first="$c #$i: '$f', holds '$have', reads '$want'"
      fi
      i=$((i + 1))
    done
  done
  echo "$name: $points failing calls, $failed_saves saves failed"
  [ "$points" -gt 0 ] && [ "$wrong" -eq 0 ] && [ "$failed_saves" -gt 0 ] &&
    ok "$name: a save failing at each of $points calls leaves one version and nothing else" ||
    bad "$name: $wrong of $points failures left something ($(echo "$first" | cut -c1-300))"
}
fail_each "fail: one data file" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --location out.bin" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin"
# x.bin, which the replaced OUT read, stays only while OUT reads it: a save
# that committed removes it (before 0.2.0 it stayed, a name the save would
# not write).
fail_each "fail: one data file, over a stale out.bin" \
  "\"$cli\" convert \"$tmp/v1.onnx\" out.onnx $ext --location x.bin && echo stale > out.bin && cp out.bin keep" \
  "\"$cli\" convert \"$tmp/v2.onnx\" out.onnx $ext --location out.bin" "keep out.bin"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
