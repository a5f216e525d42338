import json,sys,os
id=sys.argv[1]
os.makedirs(f'/work/tr-c1/{id}',exist_ok=True)
mc=f'/work/notes/c37/min/min/{id}.min.case'
oc=f'/work/notes/c37/r3701/cases/{id}.case'
f=json.load(open(f'/work/notes/c37/r3701/findings/{id}.json'))
open(f'/work/tr-c1/{id}/orig.ptx','w').write(f['ptx'])
import shutil
shutil.copy(oc,f'/work/tr-c1/{id}/orig.case')
if os.path.exists(mc):
    shutil.copy(mc,f'/work/tr-c1/{id}/min.case')
    t=open(mc).read(); i=t.find('// ptxdiff-inputs')
    open(f'/work/tr-c1/{id}/min.ptx','w').write(t[:i] if i>0 else t)
