#!/bin/bash
export CUDA_CACHE_DISABLE=1
G=$PWD/.gpu; [ -f $G/ptxdiff-43a.xz ] && xz -dk $G/ptxdiff-43a.xz
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
which gdb cuda-gdb >> $OUT/gpu.txt 2>&1; ls /usr/local/cuda/bin >> $OUT/gpu.txt
python3 $G/e7/e7.py > $OUT/e7.txt 2>&1
for f in $G/e7/*.ptx; do /usr/local/cuda/bin/ptxas -arch=sm_90 -O3 $f -o /tmp/x.cubin; echo "$(basename $f) ptxas rc $?"; done >> $OUT/e7.txt 2>&1
PTXDIFF_ROOT=$PWD timeout 120 $G/ptxdiff-43a replay --backends cuda:jit,cuda:ptxas-O3,cuda:ptxas-O0 --workers 1 $G/e7/e7479c8669c62a2f.case > $OUT/replay.txt 2>&1; echo "rc $?" >> $OUT/replay.txt
if which gdb >/dev/null 2>&1; then gdb -batch -ex run -ex bt --args python3 $G/e7/e7.py $G/e7/v0.ptx d > $OUT/gdb.txt 2>&1; fi
