# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# lib/ calls and includes one way only:
#   base (lib/base/, lib/opschema/) <- kernels (lib/kernels/) <- wire (lib/wire/)
#     <- handles (lib/handles/) <- passes (lib/passes/)
# read from the objects (nm) and the sources' #include lines; see
# test/check_layers.py and docs/contributing.md. And no loop between the
# files of lib/ or of tools/ (test/check_cycles.py). And no hand-written
# .c/.h of lib/ over 1,300 lines (test/check_file_sizes.py).
set -u
out=$(/usr/bin/python3 test/check_layers.py "${B:-build}"); r1=$?
echo "$out" | sed '$d'
p1=$(echo "$out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
out=$(/usr/bin/python3 test/check_cycles.py "${B:-build}"); r2=$?
echo "$out" | sed '$d'
p2=$(echo "$out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
out=$(/usr/bin/python3 test/check_file_sizes.py); r3=$?
echo "$out" | sed '$d'
p3=$(echo "$out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
set -- ${p1:-0 1} ${p2:-0 1} ${p3:-0 1}
echo "$(($1 + $3 + $5)) passed, $(($2 + $4 + $6)) failed"
[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ $r3 -eq 0 ]
