import sys,re
# wrong iff the register the st.b8 [+0xb] stores was last written (through PRMT x,x,0x7632 self-permutes) by an F2FP.F16
L=[l.split(' ',1)[1] for l in open(sys.argv[1]).read().split('\n') if l.strip()]
i=[k for k,l in enumerate(L) if re.match(r'STG\.E\.U8 .*\+0xb\], (R\d+)',l)]
if not i: print('nostore'); sys.exit(2)
k=i[0]; reg=re.match(r'STG\.E\.U8 .*\+0xb\], (R\d+)',L[k]).group(1)
while k>0:
    k-=1
    m=re.match(r'(@!?P\d )?([\w.]+) (R\d+)[,;]',L[k])
    if m and m.group(3)==reg:
        op=m.group(2)
        if op.startswith('PRMT') and re.match(r'PRMT (R\d+), \1, 0x7632',L[k]): continue
        print(op); sys.exit(0 if (op.startswith('F2FP.') and 'PACK_AB' in op) else 1)
print('none'); sys.exit(1)
