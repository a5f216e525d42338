#!/bin/bash
# usage: mk.sh NAME  (body on stdin) -> NAME.ptx, NAME.130.O3.sass, prints the body's SASS
n=$1; d=$(dirname $0)
{ sed -n '1,/begin body/p' $d/case_reduced.ptx | sed 's/%r<2>/%r<8>/; s/%p<3>/%p<6>/; s/%d<1>/%d<4>/; s/%h<38>/%h<40>/'; cat; echo '// end body'; echo '	ret;'; echo '}'; } > $d/$n.ptx
P=/tmp/nvcc130/nvidia/cu13/bin/ptxas; D=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
$P -arch=sm_90 -O3 $d/$n.ptx -o /tmp/t1_$n.cubin && $D -c /tmp/t1_$n.cubin > $d/$n.130.O3.sass
grep -E "^\s+/\*0" $d/$n.130.O3.sass | sed 's@/\*[0-9a-f]*\*/@@; s/;.*//' | grep -vE "MOV R1|S2R|LDC|ULDC|IMAD.WIDE|EXIT|BRA|NOP" 
