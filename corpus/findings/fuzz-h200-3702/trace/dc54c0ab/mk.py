#!/usr/bin/env python3
# mk.py out.ptx  < body   : wraps a PTX body in the campaign's kernel frame
import sys
body=sys.stdin.read()
hdr='''.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<4>;
	.reg .b16 %h<24>;
	.reg .b32 %r<16>;
	.reg .b64 %d<8>;
	.reg .b32 %tix, %t1;
	.reg .b64 %in, %out, %sh, %shn, %t0;
	.shared .align 16 .b8 sbuf[1024];
	mov.u32 %tix, %tid.x;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	mul.wide.u32 %t0, %tix, 256;
	add.s64 %in, %in, %t0;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
	mul.wide.u32 %t0, %tix, 16;
	add.s64 %out, %out, %t0;
	mov.u64 %sh, sbuf;
	mul.wide.u32 %t0, %tix, 32;
	add.s64 %sh, %sh, %t0;
'''
open(sys.argv[1],'w').write(hdr+body+'\tret;\n}\n')
