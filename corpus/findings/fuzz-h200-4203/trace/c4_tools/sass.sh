#!/bin/bash
# usage: sass.sh X.ptx  -> X.130.O3.sass X.135.O3.sass X.130.O0.sass
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do P=$([ $v = 130 ] && echo $P130 || echo $P135); for o in ${OPTS:-3 0}; do
 [ $v = 135 ] && [ $o = 0 ] && continue
 $P -arch=sm_90 -O$o $f -o /tmp/c4tmp.cubin || { echo "FAIL $f"; continue; }
 $ND -c /tmp/c4tmp.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's#/\* 0x[0-9a-f]* \*/##' | grep -v -E 'NOP|BRA `' > $b.$v.O$o.sass
done; done
