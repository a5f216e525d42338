import json,sys,re
for id in sys.argv[1:]:
    f=json.load(open(f'/work/notes/c37/r3701/findings/{id}.json'))
    print('=====',id,f['title'][:200])
    print('msg:',str(f.get('message'))[:400])
    ptx=f['ptx']
    m=re.search(r'// begin body\n(.*)// end body',ptx,re.S)
    print(m.group(1) if m else ptx[-3000:])
    print('inputs nonzero:', [ (i,hex(v)) for i,v in enumerate(f['inputs']) if v][:40])
    for mm in f['mismatches'][:6]:
        print(json.dumps(mm)[:600])
    print('n mismatches',len(f['mismatches']))
