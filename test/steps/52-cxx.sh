# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# The C++ wrapper (include/onnxslim.hpp) and the CMake package.
#  - test/test_cpp.cpp, which exercises every class of the wrapper, compiled
#    warning-free (-std=c++17 -Wall -Wextra -pedantic -Werror) by g++ and by
#    clang++, and by g++ as C++20 and clang++ with ASan and UBSan; each
#    build run, one result per test of the program;
#  - the header refuses C++14 with a message naming C++17;
#  - `make install` into a temporary prefix installs onnxslim.hpp and
#    lib/cmake/libonnxslim/libonnxslimConfig{,Version}.cmake; a CMake project
#    (test/cmake-consumer) finds it with CMAKE_PREFIX_PATH, builds a C++
#    program against libonnxslim::libonnxslim and a C one against
#    libonnxslim::libonnxslim_static, and both run against the installed copy;
#    version requests: 0.1 and the exact version are met, the next major
#    and a newer minor are not; examples/CMakeLists.txt builds every example;
#  - a DESTDIR install writes the CMake files naming the final PREFIX.
set -u
. test/step-lib.sh
if_model=/usr/share/libonnx-testdata/data/node/test_if/model.onnx
link="-L$root/$B -lonnxslim -Wl,-rpath,$root/$B"

# ---- test_cpp with each compiler ---------------------------------------------------
run_test_cpp() { # LABEL COMPILER FLAGS...
  label=$1 cxx=$2
  shift 2
  if ! command -v "$cxx" >/dev/null 2>&1; then
    bad "$label: $cxx not found (make deps installs it)"
    return
  fi
  mkdir -p "$tmp/$label"
  # shellcheck disable=SC2086
  if "$cxx" "$@" -Wall -Wextra -pedantic -Werror -Iinclude test/test_cpp.cpp $link \
       -o "$tmp/$label/test_cpp" > "$tmp/$label.log" 2>&1 && [ ! -s "$tmp/$label.log" ]; then
    ok "$label: test_cpp.cpp compiles without a warning ($cxx $*)"
  else
    cat "$tmp/$label.log"
    bad "$label: test_cpp.cpp does not compile cleanly ($cxx $*)"
    return
  fi
  "$tmp/$label/test_cpp" "$m" "$if_model" "$tmp/$label" > "$tmp/$label.out" 2>&1
  rc=$?
  sed -n "s/^ok   \(.*\)/\1/p" "$tmp/$label.out" | while read -r t; do echo "ok   $label: $t"; done
  p=$(grep -c '^ok ' "$tmp/$label.out") f=$(grep -c '^FAIL ' "$tmp/$label.out")
  passed=$((passed + p)) failed=$((failed + f))
  grep -v '^ok ' "$tmp/$label.out" | grep -v -E '^[0-9]+ passed' | sed "s/^FAIL /FAIL $label: /"
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then bad "$label: test_cpp exited with $rc"; fi
  [ "$p" -gt 0 ] || bad "$label: test_cpp ran no test"
}
run_test_cpp g++ g++ -std=c++17 -O2
run_test_cpp clang++ clang++ -std=c++17 -O2
run_test_cpp g++-c++20 g++ -std=c++20 -O0
run_test_cpp clang++-asan-ubsan clang++ -std=c++17 -O1 -g -fsanitize=address,undefined \
  -fno-sanitize-recover=all -fno-omit-frame-pointer

# ---- C++14 is refused with a clear message ----------------------------------------------
printf '#include <onnxslim.hpp>\nint main() { return 0; }\n' > "$tmp/old.cpp"
if g++ -std=c++14 -Iinclude -c "$tmp/old.cpp" -o "$tmp/old.o" > "$tmp/old.log" 2>&1; then
  bad "onnxslim.hpp compiles as C++14"
elif grep -q 'needs C++17' "$tmp/old.log"; then
  ok "onnxslim.hpp under C++14: error says it needs C++17"
else
  head -n 5 "$tmp/old.log"
  bad "onnxslim.hpp under C++14: no clear error"
fi

# ---- the CMake package ---------------------------------------------------------------------
prefix="$tmp/prefix"
version=$(sed -n 's/^#define ONNXSLIM_VERSION_STRING "\(.*\)"/\1/p' include/onnxslim/version.h)
major=${version%%.*}
if make -s install PREFIX="$prefix" > "$tmp/install.log" 2>&1; then
  ok "make install PREFIX=$prefix"
else
  cat "$tmp/install.log"
  bad "make install"
fi
for f in include/onnxslim.hpp lib/cmake/libonnxslim/libonnxslimConfig.cmake \
         lib/cmake/libonnxslim/libonnxslimConfigVersion.cmake; do
  [ -f "$prefix/$f" ] && ok "installed $f" || bad "missing $prefix/$f"
done
cmp -s include/onnxslim.hpp "$prefix/include/onnxslim.hpp" || bad "installed onnxslim.hpp differs"

if ! command -v cmake >/dev/null 2>&1; then
  bad "cmake not found (make deps installs it)"
else
  # configure and build test/cmake-consumer asking for version REQUEST;
  # BUILD_DIR named by LABEL
  consumer() { # LABEL REQUEST
    rm -rf "$tmp/cm-$1"
    env -u CMAKE_PREFIX_PATH cmake -S test/cmake-consumer -B "$tmp/cm-$1" -DCMAKE_PREFIX_PATH="$prefix" \
      -DLIBONNXSLIM_REQUEST="$2" -DLIBONNXSLIM_SOURCE_DIR="$root" > "$tmp/cm-$1.log" 2>&1 &&
      cmake --build "$tmp/cm-$1" >> "$tmp/cm-$1.log" 2>&1
  }
  if consumer any ""; then
    ok "CMake project finds the package with CMAKE_PREFIX_PATH and builds"
    out=$("$tmp/cm-any/consumer_cpp" "$m" 2>&1)
    if [ $? -eq 0 ] && [ "$out" = "libonnxslim $version: 58 nodes, fingerprint $("$cli" fingerprint "$m" | awk '{print $1}')" ]; then
      ok "C++ consumer (libonnxslim::libonnxslim) runs: $out"
    else
      echo "$out"
      bad "C++ consumer output"
    fi
    ldd "$tmp/cm-any/consumer_cpp" | grep -q "$prefix/lib/libonnxslim.so.$major " &&
      ok "C++ consumer uses the installed libonnxslim.so.$major" || { ldd "$tmp/cm-any/consumer_cpp"; bad "C++ consumer library resolution"; }
    if "$tmp/cm-any/consumer_c_static" "$m" > /dev/null && ! ldd "$tmp/cm-any/consumer_c_static" | grep -q libonnxslim; then
      ok "C consumer linked with libonnxslim::libonnxslim_static runs without libonnxslim.so"
    else
      bad "C consumer with libonnxslim::libonnxslim_static"
    fi
    grep -q "^libonnxslim_VERSION=$version\$" "$tmp/cm-any.log" &&
      ok "libonnxslim_VERSION is $version" || bad "libonnxslim_VERSION not $version"
  else
    tail -n 30 "$tmp/cm-any.log"
    bad "CMake project against the installed package"
  fi
  for req in "0.1" "$version EXACT" "$major"; do
    consumer req "$req" && ok "find_package(libonnxslim $req) is met by $version" ||
      { tail -n 20 "$tmp/cm-req.log"; bad "find_package(libonnxslim $req)"; }
  done
  for req in "$((major + 1)).0" "$major.$(( $(echo "$version" | cut -d. -f2) + 1 ))" "0.0.1 EXACT"; do
    if consumer req "$req"; then
      bad "find_package(libonnxslim $req) is met by $version"
    elif grep -q 'considered but not accepted' "$tmp/cm-req.log"; then
      ok "find_package(libonnxslim $req) refused: $version is not compatible"
    else
      tail -n 20 "$tmp/cm-req.log"
      bad "find_package(libonnxslim $req) failed for another reason"
    fi
  done
  # the examples, as examples/README.md says to build them with CMake
  rm -rf "$tmp/cm-examples"
  if cmake -S examples -B "$tmp/cm-examples" -DCMAKE_PREFIX_PATH="$prefix" > "$tmp/cm-ex.log" 2>&1 &&
     cmake --build "$tmp/cm-examples" >> "$tmp/cm-ex.log" 2>&1 &&
     "$tmp/cm-examples/summary" "$m" > /dev/null &&
     "$tmp/cm-examples/inspect" "$if_model" | grep -q 'then_branch' &&
     "$tmp/cm-examples/recipe-cpp" "$m" "$tmp/cm-examples/r.onnx" > /dev/null &&
     "$tmp/cm-examples/build_model" "$tmp/cm-examples/tiny.onnx" > /dev/null; then
    ok "examples/CMakeLists.txt builds every example against the package; they run"
  else
    tail -n 30 "$tmp/cm-ex.log"
    bad "examples built with CMake"
  fi
fi
# staged install: the CMake files name the final prefix, not DESTDIR
stage="$tmp/stage"
if make -s install PREFIX=/opt/libonnxslim DESTDIR="$stage" > /dev/null 2>&1 &&
   cfg="$stage/opt/libonnxslim/lib/cmake/libonnxslim/libonnxslimConfig.cmake" && [ -f "$cfg" ] &&
   grep -q '"/opt/libonnxslim/lib"' "$cfg" && grep -q '"/opt/libonnxslim/include"' "$cfg" &&
   ! grep -q "$stage" "$cfg" && [ -f "$stage/opt/libonnxslim/include/onnxslim.hpp" ] && [ ! -e /opt/libonnxslim ]; then
  ok "make install DESTDIR= PREFIX=/opt/libonnxslim: CMake files name /opt/libonnxslim"
else
  bad "DESTDIR install of the CMake package"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
