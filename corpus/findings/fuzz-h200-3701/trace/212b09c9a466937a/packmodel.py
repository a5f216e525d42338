import json,struct,math,sys
def f(bits): return struct.unpack('<f',struct.pack('<I',bits))[0]
def rnd(x,mode): 
    return math.trunc(x) if mode=='rzi' else (round(x))  # python round = half-even = rni
def u32cvt(x,mode):
    if math.isnan(x): return 0
    v=rnd(x,mode) if not math.isinf(x) else (1<<40 if x>0 else -1)
    return max(0,min(v,0xffffffff))
def s32(v): return v-(1<<32) if v>=1<<31 else v
def sat8(v): return max(-128,min(127,v))&0xff
def gpu8(x,mode):
    if math.isnan(x): return 0
    v=rnd(x,mode) if not math.isinf(x) else (1<<40 if x>0 else -(1<<40))
    return sat8(v)
for id,mode in [(l.split()[0],l.split()[1]) for l in sys.stdin]:
    case=open(f'{id}/orig.case').read().splitlines()
    ins={}
    for l in case:
        if l.startswith('// t') and ':' in l:
            t,w=l[4:].split(':'); ins[int(t)]=[int(x,16) for x in w.split()]
    fj=json.load(open(f'/work/notes/c37/r3701/findings/{id}.json'))
    pred=[t for t in ins if (sat8(s32(u32cvt(f(ins[t][1]),mode))))!=gpu8(f(ins[t][1]),mode)]
    ok=True
    for m in fj['mismatches']:
        t=m['thread']; x=f(ins[t][1]); s=sat8(s32(u32cvt(x,mode))); g=gpu8(x,mode)
        sh7=s|s<<8; gh7=g|g<<8
        e=int(m['expected'].split()[0],16)&0xffff; a=int(m['actual']['cuda:ptxas-O3'],16)&0xffff
        good=(a-e)%65536==(gh7-sh7)%65536 and m['word']==3
        ok&=good
        print(id,'t%d'%t,'x=%#x (%g)'%(ins[t][1],x),'spec byte %#04x gpu byte %#04x'%(s,g),'stored lo16 exp %#06x gpu %#06x'%(e,a),'model OK' if good else 'MODEL MISMATCH')
    print(id,'threads predicted to differ:',pred,'listed:',[m['thread'] for m in fj['mismatches']],'ALL OK' if ok else 'NOT OK')
