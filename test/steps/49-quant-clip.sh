# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Percentile clipping of the quantization (issue 12, --clip-percentile):
# test/quant/check_clip.py converts small tables and MatMul weights with
# `libonnxslim convert ... --clip-percentile P` and checks the cap (the
# nearest-rank percentile of |x|, exact, and numpy's inverted_cdf), the
# stored bytes, scales and saturated counts against an independent numpy
# reference, the --json and --report counts, edge cases (P tiny, P near
# 100, zeros, ties, FLOAT16), the refusals, and in onnxruntime-node that
# the clipped rows equal q * scale bit for bit in both forms.
quant_check=check_clip.py quant_dir=quant-clip
. test/quant/step.sh
