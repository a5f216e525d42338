#!/bin/bash
# rc.sh file.ptx... : exit codes of ptxas 13.0.88/13.5 at O0/O3
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas
for f in "$@"; do line="$f:"; for v in 130 135; do P=$P130; [ $v = 135 ] && P=$P135; for o in O0 O3; do
 ( $P -arch=sm_90 -$o $f -o /tmp/rc_$$.cubin ) >/dev/null 2>&1; r=$?; line="$line $v-$o=$r"; done; done; echo "$line"; done
