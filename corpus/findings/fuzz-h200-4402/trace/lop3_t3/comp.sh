#!/bin/bash
# usage: comp.sh file.ptx [levels] -> file.<v>.O<l>.sass
f=$1; lv=${2:-"0 3"}; b=${f%.ptx}
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
for v in 130 135; do P=$P130; [ $v = 135 ] && P=$P135
for o in $lv; do $P -arch=sm_90 -O$o $f -o /tmp/t3_$$.cubin || { echo FAIL $f $v $o; continue; }
$ND -c /tmp/t3_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's/ *\/\* 0x[0-9a-f]* \*\///;s/^ *//' | grep -v '^/\*....\*/ *NOP' > $b.$v.O$o.sass; done; done; rm -f /tmp/t3_$$.cubin
