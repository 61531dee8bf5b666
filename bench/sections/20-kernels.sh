echo "== dtype conversion kernels: GB/s of input beside memcpy of the same bytes, in one run"
cc -std=c11 -O2 -Iinclude bench/bench_convert.c -L"$B" -lonnxslim -Wl,-rpath,"$Babs" -o "$B/bench_convert"
"$B/bench_convert" 64 7
