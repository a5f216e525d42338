#!/bin/bash
# usage: mk.sh out.ptx  (body on stdin) -> kernel with %in/%out, regs %p %h %r %d %c
cat > $1 <<H
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<8>;
	.reg .b8 %c<8>;
	.reg .b16 %h<40>;
	.reg .b32 %r<40>;
	.reg .b64 %d<16>;
	.reg .b32 %tix;
	.reg .b64 %in, %out, %t0;
	mov.u32 %tix, %tid.x;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	mul.wide.u32 %t0, %tix, 256;
	add.s64 %in, %in, %t0;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
	mul.wide.u32 %t0, %tix, 16;
	add.s64 %out, %out, %t0;
H
cat >> $1
printf '\tret;\n}\n' >> $1
/work/tr-t1/sass.sh $1
