/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
// Built by test/cmake-consumer/CMakeLists.txt against an installed
// libonnxslim: prints "libonnxslim VERSION: N nodes, fingerprint HEX".
#include <cstdio>
#include <string>

#include <onnxslim.hpp>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MODEL\n", argv[0]);
    return 2;
  }
  try {
    onnxslim::Model m = onnxslim::Model::open(argv[1]);
    std::size_t nodes = 0;
    for (onnxslim::Node n : m.graph().nodes()) nodes += !n.op_type().empty();
    std::printf("libonnxslim %s: %zu nodes, fingerprint %s\n",
                std::string(onnxslim::version()).c_str(), nodes, m.fingerprint().c_str());
  } catch (const onnxslim::error &e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
  return 0;
}
