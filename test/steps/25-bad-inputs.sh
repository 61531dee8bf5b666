# Bad input gets a clear error: every file of the committed bad-input corpus
# is refused with a parse/limit/model error that says where.
set -u
cc -std=c11 -O2 -Wall -Wextra -Werror -Iinclude test/bad_inputs.c -L"$B" -lonnxslim \
  -Wl,-rpath,"$PWD/$B" -o "$B/bad_inputs" || exit 1
"$B/bad_inputs" test/fuzz/corpus/*.onnx
