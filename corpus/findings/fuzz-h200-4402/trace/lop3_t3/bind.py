#!/usr/bin/env python3
# bind.py SASS op lut : list bindings OP(y, L(a,b,c)) with y,a,b,c in {0,i0,i4,~0} matching the listing
import sys,itertools,random,importlib.util
spec=importlib.util.spec_from_file_location('le','lopeval.py')
src=open(sys.argv[1]).read()
exec(open('lopeval.py').read().split('for e in sys.argv[2:]')[0].replace("src=open(sys.argv[1]).read().splitlines()","src=open(sys.argv[1]).read().splitlines()"))
op={'xor':lambda x,y:x^y,'and':lambda x,y:x&y,'or':lambda x,y:x|y}[sys.argv[2]]; t=int(sys.argv[3],16)
envs=[{'i0':random.getrandbits(32),'i4':random.getrandbits(32),'i8':0} for _ in range(64)]
gs=[run(e) for e in envs]
names=['0','i0','i4','M']
val=lambda n,e: {'0':0,'M':M}.get(n, e.get(n))
out=[]
for y,a,b,c in itertools.product(names,repeat=4):
    if all(op(val(y,e),L(val(a,e),val(b,e),val(c,e),t))&M==g for e,g in zip(envs,gs)): out.append(f'{y} OP L({a},{b},{c})')
print(sys.argv[1].split('/')[-1], '; '.join(x for x in out if x.startswith('i0 ')) or '; '.join(out[:6]))
