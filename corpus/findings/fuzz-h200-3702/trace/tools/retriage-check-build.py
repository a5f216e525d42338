# Builds a fake run dir (findings.json + cases/) for examples/retriage: each test = a stored
# finding's case with an optional body replacement and GPU words from the SASS model.
import json, re, os, sys
RUN='/work/notes/c37/r3702/run-3702'
MIN='/work/main/corpus/findings/fuzz-h200-3702/min'
doc=json.load(open(f'{RUN}/findings.json'))
byid={f['id']:f for f in doc['findings']}
def inputs_of(text):
    rows=[l for l in text.splitlines() if re.match(r'// t\d+:',l)]
    return [[int(w,16) for w in l.split(':',1)[1].split()] for l in rows]
tests=[]
def add(newid, base, body_from=None, body_to=None, gpu=None, words=1):
    text=open(f'{MIN}/{base}.min.case').read()
    if body_from: 
        assert body_from in text, body_from
        text=text.replace(body_from, body_to)
    ins=inputs_of(text)
    f=dict(byid[base]); f['id']=newid
    f['ptx']=text.split('// ptxdiff-inputs')[0]
    mm=[]
    for t,row in enumerate(ins):
        for w,(exp,act) in gpu(t,row).items():
            if exp!=act:
                mm.append({'thread':t,'word':w,'expected':'0x%08x'%exp,'actual':{'cuda:jit':'0x%08x'%act,'cuda:ptxas-O0':'0x%08x'%exp,'cuda:ptxas-O3':'0x%08x'%act},'decoded':''})
    f['mismatches']=mm; f['threads']=len(ins)
    tests.append((f,text))
M64=(1<<64)-1
# A: fb152f72 (N-7): pos a moved immediate (as stored) vs an immediate
A=lambda t,row: {0:(0xA0FC8462,0xA0FC8461)}
add('fb152f7200000001','fb152f72e0717c58',gpu=A)
add('fb152f7200000002','fb152f72e0717c58','bfe.s32 %r4, %r5, %r2, 0x14','bfe.s32 %r4, %r5, 61, 0x14',gpu=A)
# C: a54ce95d (3501-N2): loop with register amount (as stored) vs immediates unrolled
c=8878377438377587092
def C(t,row):
    x=row[4]|row[5]<<32
    s=(((x<<56)&M64)+c)&M64; g=(((x<<42)&M64)+c)&M64
    return {0:(s>>32,g>>32)}
add('a54ce95d00000001','a54ce95d5f3c4b46',gpu=C)
loop="""	mov.u32 %r3, 0;
$L0:
	shl.b64 %d0, %d0, %r3;
	add.u32 %r3, %r3, 0x2;
	setp.ne.u32 %p1, %r3, 0x10;
	@%p1 bra $L0;
"""
unrolled=''.join(f'\tshl.b64 %d0, %d0, {k};\n' for k in range(0,16,2))
add('a54ce95d00000002','a54ce95d5f3c4b46',loop,unrolled,gpu=C)
add('a54ce95d00000003','a54ce95d5f3c4b46',loop,''.join(f'\tshl.b64 %d0, %d0, {k};\n' for k in range(2,16,2)),gpu=C)
# D: c77930ea (M): producer cvt.rn.satfinite.e4m3x2.f16x2 (as stored) vs cvt.rz.f16.f32
D=lambda t,row: {3:(0x00000040,0x000080fe)}
add('c77930ea00000001','c77930ea290054ba',gpu=D)
# f32 0x3f8fc000 = 1.123046875 -> f16 rz 0x3c7e ; & 0x40 = 0x40
D2=lambda t,row: {3:(0x00000040,0x00003c7e)}
add('c77930ea00000002','c77930ea290054ba','mov.b32 %r1, 2349325807;\n\tcvt.rn.satfinite.e4m3x2.f16x2 %h0, %r1;','mov.b32 %r1, 1066385408;\n\tcvt.rz.f16.f32 %h0, %r1;',gpu=D2)
os.makedirs('run/cases',exist_ok=True)
out=dict(doc); out['findings']=[f for f,_ in tests]; out['known']=[]
json.dump(out,open('run/findings.json','w'),indent=1)
for f,text in tests: open(f'run/cases/{f["id"]}.case','w').write(text)
print(len(tests),'tests', [ (f['id'],len(f['mismatches'])) for f,_ in tests])
# E: f93796d5 (D): the stored in-range words (threads 14, 20, 25), with max.u32 (as stored) and without
tests.clear()
for newid, frm, to in [('f93796d500000001',None,None),('f93796d500000002','\tmax.u32 %r1, %r1, %r1;\n','')]:
    text=open(f'{RUN}/cases/f93796d5481de7eb.case').read()
    if frm: assert frm in text; text=text.replace(frm,to)
    f=dict(byid['f93796d5481de7eb']); f['id']=newid; f['ptx']=text.split('// ptxdiff-inputs')[0]
    f['mismatches']=[m for m in f['mismatches'] if m['thread']<32]
    tests.append((f,text))
out=dict(doc); out['findings']=[f for f,_ in tests]; out['known']=[]
os.makedirs('runE/cases',exist_ok=True)
json.dump(out,open('runE/findings.json','w'),indent=1)
for f,text in tests: open(f'runE/cases/{f["id"]}.case','w').write(text)
