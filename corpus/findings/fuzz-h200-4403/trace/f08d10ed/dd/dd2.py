#!/usr/bin/env python3
import sys
exec(open('dd.py').read().split('assert test(lines)')[0])
from defcheck import rw
off=[4]
def as_load(l):
    w,_=rw(l)
    if not w or any(x.startswith('%p') for x in w): return None
    out=[]
    for r in w:
        ty={'%h':'u16','%r':'u32','%d':'u64'}[r[:2]]
        off[0]=(off[0]+8)%256; out.append('\tld.global.%s %s, [%%in+%d];'%(ty,r,off[0]))
    return out
assert test(lines)
changed=True
while changed:
    changed=False
    for i in range(len(lines)-1,-1,-1):
        if 'st.global.s16' in lines[i]: continue
        c=dce(lines[:i]+lines[i+1:])
        if len(c)<len(lines) and test(c): lines=c; changed=True; print('removed',i,len(lines),flush=True); break
        if lines[i].strip().startswith('ld.') or lines[i].strip().startswith('@'): continue
        L=as_load(lines[i])
        if L and len(L)==1:
            c=dce(lines[:i]+L+lines[i+1:])
            if test(c): lines=c; changed=True; print('loaded',i,len(lines),flush=True); break
open('min2.txt','w').write('\n'.join(lines)+'\n')
test(lines)
print('\n'.join(lines))
