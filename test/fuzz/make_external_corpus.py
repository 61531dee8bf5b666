#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Writes the seed corpus of test/fuzz/fuzz_external.c to
test/fuzz/corpus-external/ (deterministic; rerun to regenerate).

Each seed is: byte 0 the save choices (bits 0-1 conversion target: 0 BF16,
1 FP16, 2 FP32, 3 none; bit 2 checksum key; bit 3 constants too; bit 4
shape inputs too; bits 5-6 alignment 1/64/4096/default), byte 1 the size
threshold choice (0, 16 or 1024 by value mod 3), then the external data
file of the harness's fixed model: W FLOAT[16,4] at 0, H FLOAT16[8] at 256,
S INT64[2] at 272, D DOUBLE[2] at 288, C BFLOAT16[4] at 304, T UINT8[16] at
312 as the rest of the file (328 bytes in all).
"""
import os
import random
import struct

random.seed(14)
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus-external")


def bf16(x):
    return struct.pack("<f", x)[2:]


def data(ws, hs, shape, ds, cs, ts):
    b = struct.pack("<64f", *ws) + struct.pack("<8e", *hs) + struct.pack("<2q", *shape)
    b += struct.pack("<2d", *ds) + b"".join(bf16(c) for c in cs) + bytes(ts)
    assert len(b) == 328
    return b


inf, nan = float("inf"), float("nan")
base = data([i * 0.25 - 8 for i in range(64)], [0.5] * 8, [4, 16], [1.5, -2.5],
            [1.0, 2.0, -3.0, 0.5], range(16))
special = data([nan, inf, -inf, -0.0, 1e-45, 3.4e38, -3.4e38, 65520.0] * 8,
               [65504.0, -0.0, inf, 6e-8, 0, 1, -1, 2], [-1, 64], [1e308, -1e-320],
               [0.0, -0.0, 1e38, 1e-38], [255] * 16)
seeds = {
    "bf16_align4096_thr0.bin": bytes([0x40, 0]) + base,
    "f16_checksum_align1.bin": bytes([0x01 | 0x04, 1]) + base,
    "noconv_shape_inputs_align64.bin": bytes([0x03 | 0x10 | 0x20, 2]) + base,
    "f32_constants.bin": bytes([0x02 | 0x08, 0]) + base,
    "special_values.bin": bytes([0x00, 0]) + special,
    "short_by_one.bin": bytes([0x00, 0]) + base[:-1],
    "long_by_one.bin": bytes([0x00, 0]) + base + b"\x00",
    "random.bin": bytes(random.randrange(256) for _ in range(2 + len(base))),
    "empty.bin": bytes([0x00, 0]),
}
os.makedirs(here, exist_ok=True)
for name, b in seeds.items():
    with open(os.path.join(here, name), "wb") as f:
        f.write(b)
