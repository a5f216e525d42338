#!/bin/bash
# usage: mk.sh name 'body lines'
n=$1; body=$2
awk -v b="$body" '/\/\/ begin body/{print; print b; skip=1; next} /\/\/ end body/{skip=0} !skip' base.ptx > $n.ptx
/tmp/nvcc130/nvidia/cu13/bin/ptxas -arch=sm_90 -O3 $n.ptx -o $n.cubin 2>&1 && /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c $n.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -v -E 'NOP|BRA|EXIT|ULDC|LDC R1|S2R|IMAD.WIDE|MOV R3|IADD|LDG' | sed 's/^ *\/\*[0-9a-f]*\*\/ *//; s/ *\/\*.*//; s/ ;$//' | tr '\n' ';'
echo "  <- $n"
