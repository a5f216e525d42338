#!/bin/bash
n=$1
R=/work/wt-h1/corpus/findings/fuzz-h200-4402/trace/372615e8/reduced.ptx
{ sed -n '1,/cvta.to.global.u64 %in, %in; cvta/p' $R; cat $n.body; echo "	ret;"; echo "}"; } > $n.ptx
/work/main/.tools/ptxas/13.0/ptxas -arch=sm_90 -O3 $n.ptx -o $n.cubin || exit 1
/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c -ndf $n.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@^\s+/\*([0-9a-f]{4})\*/\s+@\1 @; s@\s*/\*.*$@@; s@ ;$@;@; s@\s+$@@' | grep -v ' NOP;' > $n.130.O3.sass
rm -f $n.cubin
