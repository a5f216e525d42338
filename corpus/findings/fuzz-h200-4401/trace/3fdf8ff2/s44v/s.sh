#!/bin/bash
# s.sh x.ptx -> x.130.O3.sass (trimmed)
b=${1%.ptx}
/tmp/nvcc130/nvidia/cu13/bin/ptxas -arch=sm_90 -O3 $1 -o $b.cubin && /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c $b.cubin | grep -v NOP | sed -n 's#^ */\*\([0-9a-f]*\)\*/ *\(.*\) ;.*#\1 \2;#p' > $b.130.O3.sass
