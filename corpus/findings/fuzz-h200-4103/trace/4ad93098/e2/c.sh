#!/bin/bash
# c.sh: compiles the variants of 4ad93098's reduced.ptx listed in this folder's variants.tsv
# (name, producer, mask, use, arch; tab-separated; each replaces the reduced program's cvt, its
# cvt.u8.u16 and its store) with ptxas 13.0.88 and 13.5 -O3 in the current directory and prints
# one table row each: the F2FP and what follows it up to the store (LOP3/PRMT/SEL/ISETP/VIMNMX/SHF/
# IMAD.SHL/STG). Run from a scratch directory: `bash <this folder>/c.sh > table.md` (T11e2.md).
HERE=$(dirname "$(readlink -f "$0")")
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas
D=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
while IFS=$'\t' read -r n prod mask use arch; do
  python3 - "$HERE/../reduced.ptx" "$prod" "$mask" "$use" "${arch:-sm_90}" > $n.ptx <<'PY'
import sys
base, prod, mask, use, arch = sys.argv[1:]
s = open(base).read()
s = s.replace('cvt.rn.relu.satfinite.e5m2x2.f32 %h2, %r0, %r0;', prod)
s = s.replace('cvt.u8.u16 %h2, %h2;', mask)
s = s.replace('st.global.v2.b16 [%out+4], {%h2, %h4};', use)
s = s.replace('.target sm_90', '.target ' + arch)
print(s, end='')
PY
  row="| $n | \`$prod\` | \`$mask\` | \`$use\` | ${arch:-sm_90} |"
  for v in 130 135; do P=P$v
    if ${!P} -arch=${arch:-sm_90} -O3 $n.ptx -o $n.$v.cubin 2> $n.$v.err; then
      $D -c $n.$v.cubin > $n.$v.sass; rm -f $n.$v.cubin
      cell=$(sed -n '/F2FP/,/STG/p' $n.$v.sass | grep -E 'F2FP|LOP3|PRMT|SEL|ISETP|VIMNMX|SHF|IMAD.SHL|STG' | sed 's/^ *\/\*[0-9a-f]*\*\/ *//;s/ *;.*//;s/desc\[UR[0-9]*\]//' | tr '\n' ';' | sed 's/;$//;s/;/; /g')
    else cell="error: $(grep -m1 error $n.$v.err | sed 's/.*error *: //')"; fi
    row="$row \`$cell\` |"
  done
  echo "$row"
done < "$HERE/variants.tsv"
