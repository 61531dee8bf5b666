# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The save's kernel copy on ext2/3/4 and tmpfs goes through a pipe of 1 MiB
# (splice) instead of copy_file_range, whose own pipe of 64 KiB makes small
# page-cache folios when the bytes land at another offset within a page
# than in the input (lib/base/platform_posix.c, onnxslim__os_copy_range).
# A model whose two 4 MiB weights move by 1000 bytes when simplify drops
# an unused initializer before them is simplified:
#  - under strace: the weights are spliced (no copy_file_range), and the
#    output holds them byte for byte (python onnx);
#  - with every splice failing (strace injects EINVAL): the save falls back
#    to copy_file_range, same bytes;
#  - with one splice failing midway (EIO on the 3rd or the 4th: the read
#    into the pipe, the write out of it with bytes still in the pipe): the
#    save goes on from the bytes written, same bytes.
# And a model of external data aligned to 4 KiB simplified into external
# data again: its tensors keep their offset within a page, and are copied
# with copy_file_range, not spliced.
# On other file systems only the fallbacks' outputs are compared. Skipped
# for a build without splice or copy_file_range.
set -u
. test/step-lib.sh
# a build without splice or copy_file_range (PLATFORM=posix: what macOS and
# the BSDs get) copies with read and write: nothing here applies to it
if grep -q 'define ONNXSLIM_HAVE_SPLICE 0' "${B:-build}/config/onnxslim_config.h" 2> /dev/null ||
  grep -q 'define ONNXSLIM_HAVE_COPY_FILE_RANGE 0' "${B:-build}/config/onnxslim_config.h" 2> /dev/null; then
  skip "${B:-build} has no splice or copy_file_range (a PLATFORM=posix build): its saves copy with read and write"
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 0
fi
if ! strace_ready; then
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 0
fi
"$PY" - "$tmp/in.onnx" <<'EOF' || { bad "python onnx cannot write the model"; echo "$passed passed, $failed failed, $skipped skipped"; exit 1; }
import sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
rng = np.random.default_rng(81)
unused = numpy_helper.from_array(np.arange(250, dtype=np.float32), "unused")  # 1000 bytes
w1 = numpy_helper.from_array(rng.standard_normal((1024, 1024)).astype(np.float32), "w1")
w2 = numpy_helper.from_array(rng.standard_normal((1024, 1024)).astype(np.float32), "w2")
g = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w1"], ["h"]), helper.make_node("MatMul", ["h", "w2"], ["y"])],
    "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1024])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1024])], [unused, w1, w2])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), sys.argv[1])
EOF
fs=$(stat -f -c %T "$tmp")
# calls NAME: the number of NAME calls in $tmp/trace
calls() { grep -c "^[0-9]* *$1(" "$tmp/trace"; }

mkdir "$tmp/a" "$tmp/b" "$tmp/c" "$tmp/d"
if strace -f -qq -o "$tmp/trace" -e trace=splice,copy_file_range "$cli" simplify "$tmp/in.onnx" "$tmp/a/out.onnx" > /dev/null; then
  ok "simplify under strace"
else
  bad "simplify under strace failed"
fi
case $fs in
  ext2/ext3 | tmpfs)
    s=$(calls splice) c=$(calls copy_file_range)
    if [ "$s" -ge 2 ] && [ "$c" = 0 ]; then ok "on $fs: $s splice calls, no copy_file_range"
    else bad "on $fs: $s splice calls and $c copy_file_range (want >= 2 and 0)"; fi ;;
  *) skip "the temporary directory is on $fs, not ext2/3/4 or tmpfs: no splice expected" ;;
esac
if "$PY" - "$tmp/in.onnx" "$tmp/a/out.onnx" <<'EOF'; then ok "the output holds the two weights byte for byte, not the unused one"; else bad "the output's weights"; fi
import sys
import onnx
a, b = onnx.load(sys.argv[1]), onnx.load(sys.argv[2])
want = {t.name: t.raw_data for t in a.graph.initializer if t.name != "unused"}
got = {t.name: t.raw_data for t in b.graph.initializer}
sys.exit(0 if got == want and len(got) == 2 else 1)
EOF

# Aligned spans: a model saved with external data aligned to 4 KiB,
# simplified into external data again: its tensors keep their offset within
# a page, and copy_file_range copies them (the pipe was 3-4x slower there).
mkdir "$tmp/e" "$tmp/f"
if "$cli" simplify --external-data "$tmp/in.onnx" "$tmp/e/out.onnx" > /dev/null 2>&1 &&
  strace -f -qq -o "$tmp/trace" -e trace=splice,copy_file_range "$cli" simplify --external-data \
    "$tmp/e/out.onnx" "$tmp/f/out.onnx" > /dev/null 2>&1; then
  s=$(calls splice) c=$(calls copy_file_range)
  case $fs in
    ext2/ext3 | tmpfs)
      if [ "$s" = 0 ] && [ "$c" -ge 2 ]; then ok "aligned external data on $fs: $c copy_file_range calls, no splice"
      else bad "aligned external data on $fs: $s splice calls and $c copy_file_range (want 0 and >= 2)"; fi ;;
    *) skip "aligned external data: the temporary directory is on $fs" ;;
  esac
  if cmp -s "$tmp/e/out.onnx.data" "$tmp/f/out.onnx.data"; then ok "aligned external data: the same bytes"
  else bad "aligned external data: the data files differ"; fi
else
  bad "simplify --external-data failed"
fi

# same NAME DIR: DIR/out.onnx is a's, byte for byte
same() {
  if cmp -s "$tmp/a/out.onnx" "$2/out.onnx"; then ok "$1: the same bytes"; else bad "$1: the output differs"; fi
}
strace -f -qq -o "$tmp/trace" -e trace=splice,copy_file_range -e inject=splice:error=EINVAL \
  "$cli" simplify "$tmp/in.onnx" "$tmp/b/out.onnx" > /dev/null || bad "every splice failing: the save failed"
same "every splice failing ($(calls copy_file_range) copy_file_range calls)" "$tmp/b"
for n in 3 4; do
  d="$tmp/c"
  [ "$n" = 4 ] && d="$tmp/d"
  strace -f -qq -o "$tmp/trace" -e trace=splice -e inject=splice:error=EIO:when=$n \
    "$cli" simplify "$tmp/in.onnx" "$d/out.onnx" > /dev/null || bad "splice #$n failing: the save failed"
  case $fs in
    ext2/ext3 | tmpfs) grep -q 'EIO.*(INJECTED)' "$tmp/trace" || bad "splice #$n failing: no splice failed (too few calls)" ;;
  esac
  same "splice #$n failing" "$d"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
