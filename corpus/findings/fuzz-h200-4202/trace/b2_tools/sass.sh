#!/bin/bash
# usage: sass.sh dir/file.ptx  -> file.{130,135}.{O0,O3}.sass
f=$1; b=${f%.ptx}
for v in 130 135; do P=$([ $v = 130 ] && echo /tmp/nvcc130/nvidia/cu13/bin/ptxas || echo /root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas); for o in 0 3; do $P -arch=sm_90 -O$o $f -o $b.$v.O$o.cubin && /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c $b.$v.O$o.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's@ */\*[0-9a-f]*\*/ *$@@;s@^ *@@' > $b.$v.O$o.sass; rm -f $b.$v.O$o.cubin; done; done
