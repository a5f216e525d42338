#!/bin/bash
# mk.sh OUT.ptx < body : wraps a PTX body (reads %in, writes %out) in the campaign's prologue, then build.sh
cat > "$1" <<HDR
.version 9.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<8>;
	.reg .b16 %h<48>;
	.reg .b32 %r<24>;
	.reg .b64 %d<12>;
	.reg .b32 %tix, %t1;
	.reg .b64 %in, %out, %t0;
	mov.u32 %tix, %tid.x;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	mul.wide.u32 %t0, %tix, 32;
	add.s64 %in, %in, %t0;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
	mul.wide.u32 %t0, %tix, 8;
	add.s64 %out, %out, %t0;
HDR
cat >> "$1"
printf '\tret;\n}\n' >> "$1"
"$(dirname "$0")"/build.sh "$1"
