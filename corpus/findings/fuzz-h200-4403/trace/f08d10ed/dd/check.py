#!/usr/bin/env python3
# check.py X.sass STG_PATTERN SRC_PATTERN: does the data of the store matching STG_PATTERN depend (SASS data flow) on an instruction matching SRC_PATTERN?
import sys,re
lines=[l.split(' ',1)[1].strip().rstrip(';') for l in open(sys.argv[1]) if ' ' in l]
writer={}  # reg -> set of instr indices (cone roots)
deps=[]
def regs(s): return re.findall(r'\bR\d+\b',s)
for i,l in enumerate(lines):
    g=re.match(r'@!?P\d+ ',l); body=l[g.end():] if g else l
    op=body.split(' ',1)[0]; args=body.split(' ',1)[1] if ' ' in body else ''
    parts=[p.strip() for p in args.split(',')]
    if op.startswith('STG'):
        if re.search(sys.argv[2],l):
            d=regs(parts[-1])[0]
            cone=set(); st=[d]; seen=set()
            # walk
            def walk(r,upto):
                pass
            todo=[(d,i)]
            while todo:
                r,at=todo.pop()
                w=[j for j in writer.get(r,[]) if j<at]
                if not w: continue
                j=max(w)
                if j in seen: continue
                seen.add(j); cone.add(j)
                for s in deps[j][1]: todo.append((s,j))
                if deps[j][2]: todo.append((r,j))  # predicated: previous writer too
            hit=[lines[j] for j in sorted(cone) if re.search(sys.argv[3],lines[j])]
            print('HIT' if hit else 'MISS', hit[:3]); sys.exit(0 if hit else 1)
        deps.append((None,[],False)); continue
    if not parts or not regs(parts[0]) or op.startswith(('ISETP','FSETP')):
        srcs=[r for p in parts for r in regs(p)]
        deps.append((None,srcs,False)); continue
    dst=regs(parts[0])[0]
    srcs=[r for p in parts[1:] for r in regs(p) if r!='RZ']
    if '.64' in op or op.startswith('LDG.E.64') or 'WIDE' in op: pass
    writer.setdefault(dst,[]).append(i)
    if re.match(r'LDG\.E\.(64|128)',op):
        n=4 if '128' in op else 2; k=int(dst[1:])
        for q in range(1,n): writer.setdefault('R%d'%(k+q),[]).append(i)
    deps.append((dst,srcs,bool(g)))
print('NOSTORE'); sys.exit(2)
