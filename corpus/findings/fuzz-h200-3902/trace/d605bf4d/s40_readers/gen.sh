#!/bin/bash
# usage: gen.sh name "body lines"
name=$1; body=$2
cat > $name.ptx <<P
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<4>;
	.reg .b16 %h<8>;
	.reg .b8 %c<8>;
	.reg .b32 %r<23>;
	.reg .f32 %f<4>;
	.reg .b64 %d<4>;
	.reg .b32 %tix;
	.reg .b64 %in, %out, %t0;
	mov.u32 %tix, %tid.x;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	mul.wide.u32 %t0, %tix, 256;
	add.s64 %in, %in, %t0;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
	mul.wide.u32 %t0, %tix, 4;
	add.s64 %out, %out, %t0;
	ld.global.b32 %r0, [%in+96];
	mov.b32 %r1, 1067232186;
	prmt.b32 %r2, %r1, %r0, 0x959b;
$body
	ret;
}
P
/tmp/nvcc130/nvidia/cu13/bin/ptxas -arch=sm_90 -O3 $name.ptx -o $name.cubin 2>&1 | head -3
/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c $name.cubin > $name.sass 2>&1
printf "%-28s %s\n" "$name" "$(grep -o 'PRMT[^;]*\|LOP3[^;]*\|SGXT[^;]*\|I2F[^;]*' $name.sass | tr '\n' '|' )"
