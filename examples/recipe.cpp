/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
// recipe.cpp - the published recipe (as recipe.c) with the C++ wrapper
// include/onnxslim.hpp: the Gather tables to BFLOAT16, truncated, a Cast back
// to FLOAT after each Gather, every tensor in one external data file, plus a
// single-file copy. Writes the same files as recipe.c and
//   libonnxslim convert IN OUT --gather-to bf16 --round truncate --external-data
//       --threshold 0 --location STEM.bin --also-single-file DIR/STEM_single.onnx
//
//   c++ -std=c++17 recipe.cpp $(pkg-config --cflags --libs libonnxslim) -o recipe-cpp
//   ./recipe-cpp model.onnx out.onnx      (out.onnx, out.bin, out_single.onnx)
#include <cstdio>
#include <string>

#include <onnxslim.hpp>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s IN.onnx OUT.onnx\n", argv[0]);
    return 2;
  }
  // STEM: OUT without its extension. The data file is STEM's file name plus
  // .bin (named relative to OUT's directory), the copy STEM_single.onnx.
  const std::string out = argv[2];
  const std::size_t slash = out.rfind('/'), base = slash == std::string::npos ? 0 : slash + 1;
  const std::size_t dot = out.rfind('.');
  const std::string stem = dot != std::string::npos && dot > base ? out.substr(0, dot) : out;
  const std::string bin = stem.substr(base) + ".bin", copy = stem + "_single.onnx";
  try {
    onnxslim::Model model = onnxslim::Model::open(argv[1]);
    // 1. the Gather tables to BF16 (truncated), a Cast to FLOAT after each Gather
    onnxslim::ConvertReport report =
        model.convert_gather_tables(ONNXSLIM_DTYPE_BFLOAT16, 0, ONNXSLIM_CONVERT_TRUNCATE);
    for (const onnxslim::ConvertEntry &e : report) {
      std::printf("%.*s: %s -> %s, %llu -> %llu bytes, max error %.3g\n",
                  static_cast<int>(e.name.size()), e.name.data(), onnxslim_dtype_name(e.from),
                  onnxslim_dtype_name(e.to), static_cast<unsigned long long>(e.bytes_before),
                  static_cast<unsigned long long>(e.bytes_after), e.stats.max_abs_error);
    }
    // 2. every tensor in one external data file (threshold 0)
    onnxslim::SaveOptions ext;
    ext.layout = ONNXSLIM_LAYOUT_ONE_FILE;
    ext.size_threshold = 0;
    ext.location = bin;
    model.save(out, ext);
    // 3. a single-file copy: a save leaves the model in memory as it was
    onnxslim::SaveOptions single;
    single.layout = ONNXSLIM_LAYOUT_INLINE;
    model.save(copy, single);
    std::printf("wrote %s (+ %s) and %s; fingerprint %s\n", out.c_str(), bin.c_str(), copy.c_str(),
                model.fingerprint().c_str());
  } catch (const onnxslim::error &e) {
    std::fprintf(stderr, "recipe-cpp: %s\n", e.what());
    return 1;
  }
  return 0;
}
