#!/bin/bash
# usage: mk.sh OUT.ptx BODYFILE  -- wraps a body in the campaign's prologue (in 64 B/thread, out 16 B/thread, shared)
out=$1; body=$2
cat > $out <<HDR
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<4>;
	.reg .b16 %h<16>;
	.reg .b32 %r<16>;
	.reg .b64 %d<4>;
	.reg .b32 %tix;
	.reg .b64 %in, %out, %sh, %t0;
	.shared .align 16 .b8 sbuf[1024];
	mov.u32 %tix, %tid.x;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	mul.wide.u32 %t0, %tix, 64;
	add.s64 %in, %in, %t0;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
	mul.wide.u32 %t0, %tix, 16;
	add.s64 %out, %out, %t0;
	mov.u64 %sh, sbuf;
	mul.wide.u32 %t0, %tix, 32;
	add.s64 %sh, %sh, %t0;
HDR
cat $body >> $out
printf '\tret;\n}\n' >> $out
