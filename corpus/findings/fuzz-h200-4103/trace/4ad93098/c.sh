#!/bin/bash
# c.sh x.ptx [O3|O0 ...]: listings 130/135 of x.ptx
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas; D=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}; shift; for O in ${@:-O3}; do for v in 130 135; do P=P$v; ${!P} -arch=sm_90 -$O $f -o /tmp/z2_$$.cubin && $D -c /tmp/z2_$$.cubin > $b.$v.$O.sass; done; done; rm -f /tmp/z2_$$.cubin
