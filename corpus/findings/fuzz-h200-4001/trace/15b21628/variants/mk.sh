# mk NAME BODY-FILE : wraps body, compiles 13.0/13.5 -O3 (and -O0 13.0), prints key lines
n=$1; body=$2
cat > $n.ptx <<H
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<8>;
	.reg .b8 %c<12>;
	.reg .b16 %h<16>;
	.reg .b32 %r<22>;
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
	mul.wide.u32 %t0, %tix, 8;
	add.s64 %out, %out, %t0;
H
cat $body >> $n.ptx
printf '\tret;\n}\n' >> $n.ptx
for v in 130 135; do P=/tmp/nvcc130/nvidia/cu13/bin/ptxas; [ $v = 135 ] && P=/root/.cache/ptxdiff/nvcc/nvidia/cu13/bin/ptxas
$P -arch=sm_90 -O3 $n.ptx -o /tmp/t7b15.cubin && /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c /tmp/t7b15.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's@ */\* 0x[0-9a-f]* \*/@@' | grep -v 'NOP;$' > $n.$v.O3.sass; done
