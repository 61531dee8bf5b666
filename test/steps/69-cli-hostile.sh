# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The command line on hostile files (issue 14):
#  A. a model path that is a FIFO, a directory or a character device is
#     refused at once (exit 1, the path and what it is named), never waited
#     on: each run is under `timeout`;
#  B. --location through a symlinked subdirectory that leads out of OUT's
#     directory is refused (exit 2, nothing written anywhere); one that
#     stays inside is followed and the result loads;
#  C. --location naming a directory ('.', 'sub/.') is refused with a message
#     that says so (exit 2), nothing written.
set -u
. test/step-lib.sh

# ---- A. special files as the model --------------------------------------------------
mkfifo "$tmp/fifo.onnx"
mkdir "$tmp/dir.onnx"
# special PATH KIND: every reading command refuses PATH naming KIND
special() {
  path=$1 kind=$2
  for cmd in info check fingerprint convert split merge; do
    out=
    case $cmd in convert|split|merge) out="$tmp/out.onnx" ;; esac
    timeout 20 "$cli" $cmd "$path" $out > "$tmp/o" 2> "$tmp/e"
    r=$?
    if [ $r -ne 124 ] && [ $r -ne 0 ] && grep -qF -- "$path" "$tmp/e" && grep -qF -- "$kind" "$tmp/e" &&
       [ ! -e "$tmp/out.onnx" ]; then
      ok "libonnxslim $cmd on $kind: exit $r, refused at once"
    else
      bad "libonnxslim $cmd $path: exit $r$([ $r -eq 124 ] && echo ' (hung: killed by timeout)'): $(cat "$tmp/e")"
    fi
  done
}
special "$tmp/fifo.onnx" "a FIFO"
special "$tmp/dir.onnx" "a directory"
special /dev/null "a character device"

# ---- B. data files written beneath OUT's directory ---------------------------------
w="$tmp/w"
mkdir -p "$w/out/sub" "$w/outside"
ln -s ../outside "$w/out/link"
ln -s "$w/outside" "$w/out/abslink"
ln -s sub "$w/out/subl"
for cmd in split "convert --external-data"; do
  for loc in link/x.data abslink/x.data; do
    # shellcheck disable=SC2086
    "$cli" $cmd "$m" "$w/out/m.onnx" --threshold 0 --location "$loc" > "$tmp/o" 2> "$tmp/e"; r=$?
    if [ $r -eq 2 ] && grep -q symlink "$tmp/e" && grep -qF "$loc" "$tmp/e" && [ ! -e "$w/out/m.onnx" ] &&
       [ -z "$(ls -A "$w/outside")" ]; then
      ok "$cmd --location $loc (a symlink out of OUT's directory): exit 2, nothing written"
    else
      bad "$cmd --location $loc: exit $r, outside: $(ls -A "$w/outside"): $(cat "$tmp/e")"
    fi
  done
done
"$cli" split "$m" "$w/out/m.onnx" --threshold 0 --location subl/x.data > "$tmp/o" 2> "$tmp/e" &&
  [ -f "$w/out/sub/x.data" ] && [ "$("$cli" fingerprint "$w/out/m.onnx")" = "$("$cli" fingerprint "$m")" ] &&
  ok "split --location subl/x.data (a symlink inside): written in sub/, loads, same fingerprint" ||
  bad "split --location subl/x.data: $(cat "$tmp/e")"

# ---- C. --location naming a directory -------------------------------------------------
c="$tmp/c"
mkdir -p "$c/sub"
for loc in . ./ sub/. sub/; do
  "$cli" split "$m" "$c/m.onnx" --location "$loc" > "$tmp/o" 2> "$tmp/e"; r=$?
  if [ $r -eq 2 ] && grep -qE 'directory itself|naming a directory' "$tmp/e" && [ ! -e "$c/m.onnx" ] &&
     [ "$(ls -A "$c")" = sub ] && [ -z "$(ls -A "$c/sub")" ]; then
    ok "split --location '$loc': exit 2, says it names a directory, nothing written"
  else
    bad "split --location '$loc': exit $r, files: $(ls -A "$c"): $(cat "$tmp/e")"
  fi
done

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
