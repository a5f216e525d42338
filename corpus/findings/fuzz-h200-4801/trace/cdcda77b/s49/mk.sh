#!/bin/bash
# usage: mk.sh name  (body on stdin) -> name.ptx (cdcda77b's reduced.ptx with this body), name.130.O3.sass, name.135.O3.sass
set -e
n=$1
R=../reduced.ptx
{ sed -n '1,/begin body/p' $R; cat; sed -n '/end body/,$p' $R; } > $n.ptx
ND=$(find /root/.cache/ptxdiff -name nvdisasm -type f | head -1)
for v in 130:13.0 135:13.5; do
  /work/main/.tools/ptxas/${v#*:}/ptxas -arch=sm_90 -O3 $n.ptx -o /tmp/x1_$n.cubin
  $ND -c -ndf /tmp/x1_$n.cubin > $n.${v%%:*}.O3.sass
  rm -f /tmp/x1_$n.cubin
done
grep -E '^\s+/\*[0-9a-f]{4}\*/' $n.130.O3.sass | grep -v 'NOP\|LDC\|ULDC\|S2R\|EXIT\|BRA' | sed 's/^ *//'
cmp -s <(grep -E '^\s+/\*' $n.130.O3.sass) <(grep -E '^\s+/\*' $n.135.O3.sass) && echo "(13.5 the same)" || echo "(13.5 DIFFERS)"
