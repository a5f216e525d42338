#!/bin/bash
# cc.sh x.ptx : compile with 13.0.88 and 13.5 at O0/O3, write x.{130,135}.{O0,O3}.sass (body only)
f=$1; b=${f%.ptx}
for v in 130:/tmp/nvcc130/nvidia/cu13/bin/ptxas 135:/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; do n=${v%%:*}; p=${v#*:}
 for o in O0 O3; do $p -arch=sm_90 -$o $f -o /tmp/b4.$$.cubin || { echo FAIL $f $n $o; continue; }
  /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c /tmp/b4.$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's@ */\* 0x[0-9a-f]* \*/@@' | grep -v 'NOP;' > $b.$n.$o.sass
 done; done; rm -f /tmp/b4.$$.cubin
