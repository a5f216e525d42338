import sys
HDR='''.version 9.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<1>;
	.reg .b16 %h<48>;
	.reg .b32 %r<12>;
	.reg .b64 %d<8>;
	.reg .b32 %tix;
	.reg .b64 %in, %out, %t0, %sh;
	.shared .align 16 .b8 sbuf[1024];
	mov.u32 %tix, %tid.x;
	ld.param.u64 %in, [p_in];
	cvta.to.global.u64 %in, %in;
	mul.wide.u32 %t0, %tix, 32;
	add.s64 %in, %in, %t0;
	ld.param.u64 %out, [p_out];
	cvta.to.global.u64 %out, %out;
	mul.wide.u32 %t0, %tix, 16;
	add.s64 %out, %out, %t0;
	mov.u64 %sh, sbuf;
	mul.wide.u32 %t0, %tix, 32;
	add.s64 %sh, %sh, %t0;
'''
def write(name, body):
    open(name+'.ptx','w').write(HDR+'\n'.join('\t'+l for l in body.strip().splitlines())+'\n\tret;\n}\n')
