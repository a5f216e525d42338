#!/bin/bash
# comp.sh file.ptx -> file.{130,135}.{O0,O3}.sass
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas
P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas
ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do for o in 0 3; do
  eval P=\$P$v
  $P -arch=sm_90 -O$o $f -o /tmp/c3_$$.cubin 2>$b.$v.O$o.err && $ND -c /tmp/c3_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -e 's@/\* 0x[0-9a-f]* \*/@@' -e 's/ *$//' > $b.$v.O$o.sass
  [ -s $b.$v.O$o.err ] || rm -f $b.$v.O$o.err
done; done
rm -f /tmp/c3_$$.cubin
