#!/bin/bash
# usage: build.sh file.ptx  -> listings next to it
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do P=$P130; [ $v = 135 ] && P=$P135; for o in O0 O3; do
 $P -arch=sm_90 -$o $f -o /tmp/T6C_$$.cubin && $ND -c /tmp/T6C_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's@ */\* 0x[0-9a-f]* \*/@@' > $b.$v.$o.sass
done; done
