#!/bin/bash
# usage: mk.sh name (body on stdin) -> name.ptx, name.130.O3.sass
n=$1
cat > $n.ptx <<H
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
	.reg .pred %p<8>;
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
sed 's/^/\t/' >> $n.ptx
printf '\tret;\n}\n' >> $n.ptx
/work/main/.tools/ptxas/13.0/ptxas -arch=sm_90 -O3 $n.ptx -o /tmp/h2v/$n.cubin || exit 1
ND=$(ls ~/.cache/ptxdiff/*/nvidia/cu13/bin/nvdisasm 2>/dev/null | head -1)
[ -z "$ND" ] && ND=$(find ~/.cache/ptxdiff -name nvdisasm | head -1)
$ND -c -ndf /tmp/h2v/$n.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@^\s+/\*([0-9a-f]{4})\*/\s+@\1 @; s@\s*/\*.*$@@; s@ ;$@;@' | grep -v NOP > $n.130.O3.sass
rm -f /tmp/h2v/$n.cubin
