#!/bin/bash
# usage: cc.sh file.ptx  -> file.{130,135}.{O0,O3}.sass
P13=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do for o in O0 O3; do
  if [ $v = 130 ]; then P=$P13; else P=$P135; fi
  $P -arch=sm_90 -$o $f -o /tmp/y2_$$.cubin 2>$b.$v.$o.err && $ND -c /tmp/y2_$$.cubin > $b.$v.$o.sass
done; done
rm -f /tmp/y2_$$.cubin
