#!/bin/bash
# chk.sh X.ptx : sass-check with 13.0.88 (and 13.5 with CHK135=1); writes X.130.O3.sass
export PATH=/tmp/nvcc130/nvidia/cu13/bin:/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin:$PATH
export PTXDIFF_ROOT=/work/main
P=${PXD:-/work/main/.gpu/ptxdiff-c090ffd}
f=$1; b=${f%.ptx}
$P sass-check $f --listing > $b.130.O3.sass 2>&1; echo "== $f 13.0.88 rc=$?"; grep 'never written' $b.130.O3.sass
if [ -n "$CHK135" ]; then
 export PATH=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin:$PATH
 $P sass-check $f --listing > $b.135.O3.sass 2>&1; echo "== $f 13.5 rc=$?"; grep 'never written' $b.135.O3.sass
fi
