#!/bin/bash
# usage: cc.sh file.ptx  -> file.{130,135}.{O0,O3}.sass
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas
ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do P=P$v; for o in O0 O3; do
  ${!P} -arch=sm_90 -$o $f -o /tmp/c3_$$.cubin 2>&1 | head -3
  $ND -c /tmp/c3_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's@ */\* 0x[0-9a-f]* \*/@@; s/ *;.*$//' > $b.$v.$o.sass
done; done
rm -f /tmp/c3_$$.cubin
