#!/bin/bash
# usage: sass.sh file.ptx -> file.130.O3.sass (ptxas 13.0.88 -O3, nvdisasm 13.5, filtered)
P=/work/main/.tools/ptxas/13.0/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
f=$1; b=${f%.ptx}; d=$(mktemp -d)
$P -arch=sm_90 -O3 $f -o $d/x.cubin 2>$b.130.O3.err && rm -f $b.130.O3.err && $ND -c -ndf $d/x.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -e 's@ */\*[0-9a-f]*\*/ *$@@' -e 's@^ *@@' | grep -v -E '^/\*[0-9a-f]+\*/ +NOP' > $b.130.O3.sass
rm -rf $d
