#!/bin/bash
# usage: cmp.sh file.ptx  -> file.130.O3.sass file.135.O3.sass file.130.O0.sass
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do P=$([ $v = 130 ] && echo $P130 || echo $P135)
 for o in O3 O0; do $P -arch=sm_90 -$o $f -o /tmp/c4_$$.cubin && $ND -c /tmp/c4_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@ +/\* 0x[0-9a-f]+ \*/@@; s@^\s+@@' > $b.$v.$o.sass; done; done
rm -f /tmp/c4_$$.cubin
