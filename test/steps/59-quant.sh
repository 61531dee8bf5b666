# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Quantized Gather tables (issue 12): test/quant/check_quant.py builds small
# embedding models (fixed seed), converts them with `libonnxslim convert
# --gather-to int8|int4` in the standard form (DequantizeLinear at opset 21,
# Cast and Mul below; INT4 dequantized whole before the Gather, as Gather
# takes no INT4) and the onnxruntime form (com.microsoft.GatherBlockQuantized),
# and checks onnx's checker (opset 17 models), stored bytes and scales bit for
# bit against an independent numpy reference, exhaustive INT4 nibble packing,
# the refusals, and in onnxruntime-node: every row equals q * scale bit for bit
# and both forms give bit-identical rows; the same with --asymmetric (zero
# points: no saturation and the smallest scale on every block, rows equal
# (q - zp) * scale in every form); the nibbles form (--format nibbles: INT4
# pairs gathered as UINT8 and unpacked with standard ops) for indices of
# rank 0 to 3, FP32/FP16 tables, rows bit-identical to the reference's and to
# GatherBlockQuantized's. MatMul weights (--to int8|int4
# --select op:MatMul:1): DequantizeLinear before the MatMul or
# com.microsoft.MatMulNBits, stored bytes against the reference, and in
# onnxruntime both forms agree within the accumulation's rounding. Gemm
# weights (--select op:Gemm:1, transB 0 and 1): the same, C kept or made
# MatMulNBits' bias, and the Gemms MatMulNBits cannot compute refused.
quant_check=check_quant.py quant_dir=quant
. test/quant/step.sh
