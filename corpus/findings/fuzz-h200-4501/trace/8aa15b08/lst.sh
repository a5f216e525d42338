#!/bin/bash
# usage: lst file.ptx  -> file.130.O3.sass file.130.O0.sass file.135.O3.sass file.135.O0.sass
P130=/work/main/.tools/ptxas/13.0/ptxas
P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas
ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
for f in "$@"; do
 b=${f%.ptx}
 for v in 130 135; do
  P=$P130; [ $v = 135 ] && P=$P135
  for o in 3 0; do
   if $P -arch=sm_90 -O$o $f -o /tmp/t3/x.$$.cubin 2>/tmp/t3/err.$$; then
     $ND -c -ndf /tmp/t3/x.$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -v 'NOP' > $b.$v.O$o.sass
   else
     echo "PTXAS FAILED: $(cat /tmp/t3/err.$$)" > $b.$v.O$o.sass
   fi
  done
 done
done
rm -f /tmp/t3/x.$$.cubin /tmp/t3/err.$$
