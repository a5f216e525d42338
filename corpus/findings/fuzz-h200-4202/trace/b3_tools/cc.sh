#!/bin/bash
# usage: cc.sh file.ptx  -> file.{130,135}.{O0,O3}.sass
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do P=P$v; for o in O0 O3; do
 ${!P} -arch=sm_90 -$o $f -o /tmp/b3_$$.cubin 2>&1 && $ND -c /tmp/b3_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@^\s+/\*([0-9a-f]+)\*/\s+@\1 @; s@\s*/\*.*$@@; s@ +;@;@' | grep -vE "^[0-9a-f]+ (NOP|BRA .\(\.L_x_[0-9]+\))" > $b.$v.$o.sass
done; done
rm -f /tmp/b3_$$.cubin
