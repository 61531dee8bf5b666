# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
echo "== dtype conversion kernels: GB/s of input beside memcpy of the same bytes, per kernel path, in one run"
# bench_convert selects the kernel paths with the library's internal
# functions: it is linked with the library's objects (those of today's
# lib/**/*.c, as the Makefile builds them).
objs=$(find lib -name '*.c' ! -name 'platform_win32.c' | sort | sed -e 's|^lib/|'"$B"'/obj/|' -e 's|\.c$|.o|')
# nanopb's archive for the compiler's own target first (another one, e.g.
# arm64's for cross builds, may be installed too)
nanopb=
for a in "/usr/lib/$(cc -print-multiarch 2>/dev/null)/libprotobuf-nanopb.a" /usr/lib/*/libprotobuf-nanopb.a; do
  if [ -z "$nanopb" ] && [ -f "$a" ]; then nanopb=$a; fi
done
cc -std=c11 -O2 -Iinclude -Ilib -I"$B/proto" bench/bench_convert.c $objs "$nanopb" -lnettle \
  -o "$B/bench_convert"
echo "(the machine may be shared: each figure is the best of 15 repetitions, memcpy and the kernel"
echo " with and without statistics interleaved in each, in turns; the targets apply to every SIMD path)"
"$B/bench_convert" 64 15
