#!/bin/bash
# usage: sass.sh file.ptx  -> file.130.O0.sass file.130.O3.sass file.135.O3.sass
P13=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do P=$P13; [ $v = 135 ] && P=$P135
 for o in 0 3; do $P -arch=sm_90 -O$o $f -o $b.$v.O$o.cubin 2>$b.$v.O$o.err && $ND -c $b.$v.O$o.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -e 's@ */\*[0-9a-f]*\*/ *$@@' > $b.$v.O$o.sass; rm -f $b.$v.O$o.cubin; done; done
