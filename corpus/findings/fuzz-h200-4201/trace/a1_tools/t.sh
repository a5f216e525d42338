#!/bin/bash
# t.sh name init op count expected  (branch+store arm, then loop)
n=$1; init=$2; op=$3; cnt=$4; exp=$5
../../mk.sh $n.ptx <<EOF
	mov.b32 %r0, $init;
	setp.ne.s32 %p0, %tix, 1;
	@!%p0 bra \$L0;
	st.global.u32 [%out], %tix;
\$L0:
	mov.u32 %r4, $cnt;
\$L2:
	$op
	sub.u32 %r4, %r4, 0x1;
	setp.gt.u32 %p2, %r4, 0x0;
	@%p2 bra \$L2;
	st.global.s32 [%out+12], %r0;
EOF
../../cmp.sh $n.ptx
for v in 130 135; do echo "$n exp=$exp $v: $(grep -E 'R7' $n.$v.O3.sass | grep -v 'STG' | sed -E 's@/\*[0-9a-f]+\*/ +@@' | tr '\n' '|' | head -c 300)"; done
