#!/bin/bash
# usage: sass.sh file.ptx  -> file.{130,135}.{O0,O3}.sass
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas
P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas
ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}
for v in 130 135; do eval P=\$P$v; for o in 0 3; do
  $P -arch=sm_90 -O$o $f -o /tmp/trc4_$$.cubin 2>$b.$v.O$o.err && $ND -c /tmp/trc4_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@^\s+/\*([0-9a-f]+)\*/\s*@\1 @; s@\s*/\*.*$@@; s@ +;@;@' > $b.$v.O$o.sass
  [ -s $b.$v.O$o.err ] || rm -f $b.$v.O$o.err
done; done
