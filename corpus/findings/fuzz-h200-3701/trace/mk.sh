#!/bin/bash
# mk.sh out.ptx  (body on stdin; registers %r0-%r9 b32, %h0-9 b16, %d0-9 b64, %p0-3)
cat > $1 <<H
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<4>;
	.reg .b16 %h<10>;
	.reg .b32 %r<10>;
	.reg .b64 %d<10>;
	.reg .b64 %in, %out;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
H
cat >> $1
printf '\tret;\n}\n' >> $1
