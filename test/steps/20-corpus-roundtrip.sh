# Every model in libonnx-testdata (and our fixtures) saves byte for byte
# identical, from a file and from a buffer.
set -u
cc -std=c11 -O2 -Wall -Wextra -Werror -Iinclude test/roundtrip_corpus.c -L"$B" -lonnxslim \
  -Wl,-rpath,"$PWD/$B" -o "$B/roundtrip_corpus" || exit 1
out=$(mktemp -d)
"$B/roundtrip_corpus" "$out" /usr/share/libonnx-testdata/data test/data
rc=$?
rm -rf "$out"
exit $rc
