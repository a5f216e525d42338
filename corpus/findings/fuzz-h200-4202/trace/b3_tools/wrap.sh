#!/bin/bash
# wrap.sh out.ptx  < body   (registers: %p<8> %h<64> %r<64> %d<32> %f<16>)
cat > $1 <<HDR
.version 9.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<8>;
	.reg .b16 %h<64>;
	.reg .b32 %r<64>;
	.reg .b64 %d<32>;
	.reg .f32 %f<16>;
	.reg .b32 %tix, %t1;
	.reg .b64 %in, %out, %t0;
	mov.u32 %tix, %tid.x;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	mul.wide.u32 %t0, %tix, 64;
	add.s64 %in, %in, %t0;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
	mul.wide.u32 %t0, %tix, 8;
	add.s64 %out, %out, %t0;
// begin body
HDR
cat >> $1
cat >> $1 <<TRL
// end body
	ret;
}
TRL
