#!/bin/bash
# mk.sh out.ptx "regdecls" <<body ; uses %in,%out like the campaign
out=$1; regs=$2; body=$(cat)
cat > $out <<P
.version 9.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<4>;
	.reg .b16 %h<20>;
	.reg .b32 %r<20>;
	.reg .b64 %d<8>;
	.reg .b32 %tix;
	.reg .b64 %in, %out, %t0;
	mov.u32 %tix, %tid.x;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	mul.wide.u32 %t0, %tix, 256;
	add.s64 %in, %in, %t0;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
	mul.wide.u32 %t0, %tix, 8;
	add.s64 %out, %out, %t0;
// begin body
$body
// end body
	ret;
}
P
/work/tr-c3/cc.sh $out
