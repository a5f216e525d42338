import dd, sys
fixed=open(sys.argv[1]).read().splitlines()
cur=open(sys.argv[2]).read().splitlines()
t=lambda b: dd.bad(dd.sass(fixed+b))
assert t(cur)
n=2
while len(cur)>=2:
    chunk=max(1,len(cur)//n); removed=False
    for i in range(0,len(cur),chunk):
        cand=cur[:i]+cur[i+chunk:]
        if t(cand): cur=cand; n=max(n-1,2); removed=True; break
    if not removed:
        if chunk==1: break
        n=min(len(cur),n*2)
print('\n'.join(fixed+cur)); print(len(fixed+cur))
open(sys.argv[3],'w').write('\n'.join(fixed+cur)+'\n')
