#!/bin/bash
# usage: v.sh NAME 'line1' 'line2' ...  -> NAME.ptx + listings; prints the constant/loop lines of the -O3 listings and whether -O0 keeps ISETP
n=$1; shift; D=$(dirname $0)
printf '\t%s\n' "$@" | $D/mk.sh $n.ptx; $D/cmp.sh $n.ptx
for x in 130 135; do echo "$n $x-O3: $(grep -v -E 'NOP|c\[0x0\]|SR_TID|IMAD.WIDE|EXIT|BRA `\(\.L_x_[0-9]+\);$' $n.$x.O3.sass | sed -E 's@/\*[0-9a-f]+\*/ +@@; s/ +/ /g; s/desc\[UR4\]//' | tr '\n' '|' | head -c 500)"; done
echo "$n 130-O0 loop test: $(grep -E 'ISETP' $n.130.O0.sass | sed -E 's@/\*[0-9a-f]+\*/ +@@; s/ +/ /g' | tr '\n' '|')"
