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
#     that says so (exit 2), nothing written;
#  D. an output - OUT or a data file - that is a FIFO, a character device
#     (mknod, as root), a dangling symlink or a symlink to a FIFO is refused
#     (exit 1, the path and what it is named), never replaced or written
#     through: the special file is still there and nothing else is written.
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

# ---- D. special files as the output ----------------------------------------------------
d="$tmp/d"
mkdir -p "$d"
mkfifo "$d/fifo.onnx"
ln -s nowhere.onnx "$d/dangling.onnx"
ln -s fifo.onnx "$d/tofifo.onnx"
kinds="fifo.onnx:a_FIFO dangling.onnx:dangling_symlink tofifo.onnx:symlink_to_a_FIFO"
if [ "$(id -u)" = 0 ] && mknod "$d/null.onnx" c 1 3 2> /dev/null; then
  kinds="$kinds null.onnx:a_character_device"
else
  skip "output a character device: not root (mknod), FIFOs and symlinks tested"
fi
# state: every entry of $d with its kind and link target, and the bytes of regular files
dstate() { (cd "$d" && find . -printf '%p %y %l\n' | sort && find . -type f -exec sha256sum {} + | sort); }
for k in $kinds; do
  name=${k%%:*} kind=$(echo "${k#*:}" | tr _ ' ')
  for cmd in convert "convert --external-data" split "split --per-tensor" merge "OUT_DATA"; do
    before=$(dstate)
    if [ "$cmd" = OUT_DATA ]; then
      # the data file named by --location is the special file
      label="split --location $name"
      "$cli" split "$m" "$d/out.onnx" --threshold 0 --location "$name" > "$tmp/o" 2> "$tmp/e"; r=$?
    else
      label="$cmd to $name"
      # shellcheck disable=SC2086
      timeout 60 "$cli" $cmd "$m" "$d/$name" > "$tmp/o" 2> "$tmp/e"; r=$?
    fi
    after=$(dstate)
    if [ $r -eq 1 ] && grep -qF -- "$name" "$tmp/e" && grep -qF -- "$kind" "$tmp/e" && [ "$before" = "$after" ]; then
      ok "$label ($kind): exit 1, refused, the directory unchanged"
    else
      bad "$label ($kind): exit $r, directory $([ "$before" = "$after" ] && echo unchanged || echo CHANGED): $(cat "$tmp/e")"
    fi
  done
done
[ -p "$d/fifo.onnx" ] && [ -L "$d/dangling.onnx" ] && [ ! -e "$d/nowhere.onnx" ] && [ -L "$d/tofifo.onnx" ] &&
  ok "the FIFO and the symlinks are still there" || bad "special files changed: $(ls -la "$d")"
[ ! -e "$d/null.onnx" ] || [ -c "$d/null.onnx" ] && ok "the device node is still a character device" ||
  bad "null.onnx is no longer a device: $(ls -la "$d/null.onnx")"
# a symlink to a regular file is replaced by the new file, its target kept
echo target > "$d/target.onnx" && ln -s target.onnx "$d/link.onnx"
"$cli" convert "$m" "$d/link.onnx" > "$tmp/o" 2> "$tmp/e" && [ -f "$d/link.onnx" ] && [ ! -L "$d/link.onnx" ] &&
  [ "$(cat "$d/target.onnx")" = target ] &&
  ok "convert to a symlink to a regular file: the link replaced, its target kept" ||
  bad "convert to a symlink to a regular file: $(cat "$tmp/e")"

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
