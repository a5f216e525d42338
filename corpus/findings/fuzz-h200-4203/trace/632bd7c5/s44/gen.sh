#!/bin/bash
# gen.sh NAME < LOOP: puts a body (stdin; it must leave the accumulator in %r0 and define %d0) in
# 632bd7c5's frame and store tail (the low byte of %r0 and of %d0 in one st.global.v4.s8 word, as
# orig.ptx), compiles it with ptxas 13.0.88 and 13.5 at -O3 for sm_90, writes NAME.ptx,
# NAME.130.O3.sass, NAME.135.O3.sass and prints each version's count of IMAD.HI links.
P130=/tmp/nvcc130/nvidia/cu13/bin/ptxas; P135=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas
ND=/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm
n=$1
{ cat <<'H'
.version 9.0
.target sm_90
.address_size 64

// ptxdiff-program name=k target=sm_90@9.0 threads=32 inputs=16 outputs=4 shared=0
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<2>;
	.reg .b16 %h<26>;
	.reg .b32 %r<8>;
	.reg .b64 %d<5>;
	.reg .b32 %tix, %t1;
	.reg .b64 %in, %out, %sh, %shn, %t0;
	mov.u32 %tix, %tid.x;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	mul.wide.u32 %t0, %tix, 64;
	add.s64 %in, %in, %t0;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
	mul.wide.u32 %t0, %tix, 16;
	add.s64 %out, %out, %t0;
// begin body
H
cat
cat <<'T'
	mov.b64 %d3, 0;
	mov.b64 {%h3, %h4, %h5, %h6}, %d3;
	mov.b64 {%h17, %h18, %h19, %h20}, %d0;
	mov.b32 {%h24, %h25}, %r0;
	st.global.v4.s8 [%out+8], {%h3, %h3, %h17, %h24};
// end body
	ret;
}
T
} > $n.ptx
for v in 130 135; do P=$([ $v = 130 ] && echo $P130 || echo $P135)
  $P -arch=sm_90 -O3 $n.ptx -o /tmp/u3_$$.cubin && $ND -c /tmp/u3_$$.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@ +/\* 0x[0-9a-f]+ \*/@@; s@^\s+@@' > $n.$v.O3.sass
done
rm -f /tmp/u3_$$.cubin
echo "$n: 13.0.88 $(grep -c 'IMAD.HI' $n.130.O3.sass) / 13.5 $(grep -c 'IMAD.HI' $n.135.O3.sass) IMAD.HI"
