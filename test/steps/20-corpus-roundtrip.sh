# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Every model in libonnx-testdata (and our fixtures) saves byte for byte
# identical, from a file and from a buffer.
set -u
sh test/build-prog.sh roundtrip_corpus || exit 1
out=$(mktemp -d)
"$B/roundtrip_corpus" "$out" /usr/share/libonnx-testdata/data test/data
rc=$?
rm -rf "$out"
exit $rc
