#!/bin/bash
# mk.sh out.ptx body.txt [inwords] [outwords]: wrap a body in the standard prologue
out=$1; body=$2
cat > $out <<H
.version 9.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<8>;
	.reg .b8 %c<8>;
	.reg .b16 %h<32>;
	.reg .b32 %r<32>;
	.reg .b64 %d<8>;
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
cat $body >> $out
cat >> $out <<H
// end body
	ret;
}
H
