#!/bin/bash
# mk.sh name.ptx : compile with 13.0.88/13.5 at O3 (and O0 if $O0) ; write name.130.O3.sass etc.
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do P=$([ $v = 130 ] && echo $P130 || echo $P135); for o in 3 ${O0:+0}; do
 $P -arch=sm_90 -O$o $f -o /tmp/x4_$$.cubin || { echo "FAIL $f $v O$o"; continue; }
 $ND -c -ndf /tmp/x4_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's@ */\* 0x[0-9a-f]* \*/@@' | grep -v 'NOP;' | sed 's/^ *//' > $b.$v.O$o.sass; done; done
rm -f /tmp/x4_$$.cubin
