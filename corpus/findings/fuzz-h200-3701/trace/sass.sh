#!/bin/bash
# usage: sass.sh X.ptx  -> X.130.O3.sass X.130.O0.sass X.135.O3.sass X.135.O0.sass
f=$1; b=${f%.ptx}
for v in 130:/tmp/nvcc130/nvidia/cu13/bin/ptxas 135:/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; do n=${v%%:*}; p=${v#*:}
 for o in 0 3; do $p -arch=sm_90 -O$o $f -o /tmp/u1_$$.cubin 2>$b.$n.O$o.err && /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c /tmp/u1_$$.cubin | grep -v "^\s*$" | grep -v "NOP" > $b.$n.O$o.sass || echo "ptxas $n -O$o failed: $(cat $b.$n.O$o.err | head -3)"; [ -s $b.$n.O$o.err ] || rm -f $b.$n.O$o.err; done; done
