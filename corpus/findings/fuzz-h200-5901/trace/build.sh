#!/bin/bash
# build.sh X.ptx...: X.130.O0.sass, X.130.O3.sass, X.135.O3.sass (ptxas 13.0.88 / 13.5, sm_90; nvdisasm -c -ndf)
T=/work/wt-ic/.tools/ptxas; D=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
for f in "$@"; do b=${f%.ptx}
 for v in "130 O0" "130 O3" "135 O3"; do set -- $v; vv=13.${1:2:1}
  if $T/$vv/ptxas -arch=sm_90 -$2 $f -o /tmp/ic.$$.cubin 2>/tmp/ic.$$.err; then $D -c -ndf /tmp/ic.$$.cubin > $b.$1.$2.sass; else echo "ptxas $vv -$2 failed: $(head -c 300 /tmp/ic.$$.err)" > $b.$1.$2.sass; fi
 done; done
