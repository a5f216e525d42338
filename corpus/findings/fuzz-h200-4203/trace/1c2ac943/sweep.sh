#!/bin/bash
# ld x; or.b32 r3, x, C; shr.s32 r5, r3, a; shr.s32 r6, r5, b; st r6  -- ptxas 13.0.88 -O3
# prints ZERO (STG RZ: wrong), m1 (MOV 0xffffffff: right), sh (shifts kept)
P=/tmp/nvcc130/nvidia/cu13/bin/ptxas; ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
run(){ cat > /tmp/sw.ptx <<E
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .b32 %r<8>; .reg .b64 %in, %out;
	ld.param.u64 %in, [p_in]; cvta.to.global.u64 %in, %in;
	ld.param.u64 %out, [p_out]; cvta.to.global.u64 %out, %out;
	ld.global.b32 %r0, [%in];
	or.b32 %r3, %r0, $1;
	shr.s32 %r5, %r3, $2;
	shr.s32 %r6, %r5, $3;
	st.global.b32 [%out], %r6;
	ret;
}
E
$P -arch=sm_90 -O3 /tmp/sw.ptx -o /tmp/sw.cubin; s=$($ND -c /tmp/sw.cubin)
if echo "$s" | grep -q 'MOV R[0-9]*, 0xffffffff'; then echo -n "m1 "; elif echo "$s" | grep -q 'STG.*RZ'; then echo -n "ZERO "; else echo -n "sh "; fi; }
for c in 0x80000000 0xc0000000 0xe0000000 0xf0000000; do echo "or $c"; for a in 1 2 3 4 8 15 16 24 30 31; do echo -n " a=$a: "; for b in 1 2 15 16 28 29 30 31 32 63; do echo -n "b$b="; run $c $a $b; done; echo; done; done
