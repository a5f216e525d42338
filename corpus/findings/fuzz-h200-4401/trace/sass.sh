#!/bin/bash
# usage: sass.sh x.ptx -> x.{130,135}.{O0,O3}.sass
f=$1; b=${f%.ptx}
for v in 130:/tmp/nvcc130/nvidia/cu13/bin/ptxas 135:/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; do n=${v%%:*}; p=${v#*:}; for o in 0 3; do $p -arch=sm_90 -O$o $f -o /tmp/t1_$$.cubin && /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c /tmp/t1_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@^\s+/\*([0-9a-f]+)\*/\s+@\1 @; s@\s*/\*.*\*/@@; s@ +;@;@' > $b.$n.O$o.sass; done; done
rm -f /tmp/t1_$$.cubin
