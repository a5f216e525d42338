#!/usr/bin/env python3
"""junit2json.py RUN_DIR: rebuild findings.json (id, signature, title, mismatches, ptx) from junit.xml
where the run's tar was cut before findings.json (seed 6101)."""
import json, re, sys, xml.etree.ElementTree as ET
run = sys.argv[1]
root = ET.parse(f'{run}/junit.xml').getroot()
out = []
for tc in root.iter('testcase'):
    fl = tc.find('failure')
    if fl is None: continue
    title = fl.get('message'); body = fl.text or ''
    m = re.match(r'(\S+) (\S+) (?:\[(\S+)\] )?(\S+): (\S+) \((.*)\)$', title)
    cls, form, inp, backs, how, shape = m.groups()
    fid = re.search(r'^id: (\S+)', body, re.M).group(1)
    mism = []
    for mm in re.finditer(r'^thread (\d+) word (\d+): expected (.+?), got (.+?) \((.*)\)$', body, re.M):
        actual = dict(kv.split('=') for kv in mm.group(4).split())
        mism.append({'thread': int(mm.group(1)), 'word': int(mm.group(2)), 'expected': mm.group(3), 'actual': actual, 'decoded': mm.group(5)})
    sig = {'class': cls, 'form': form, 'input_class': inp, 'backends': backs.split(','), 'how': how, 'shape': shape}
    if inp is None: del sig['input_class']
    out.append({'id': fid, 'signature': sig, 'title': title, 'mismatches': mism,
                'note': 'rebuilt from junit.xml: the run tar was cut before findings.json (session 61)'})
json.dump({'findings': out}, open(f'{run}/findings.json', 'w'), indent=1)
print(len(out), [ (f['id'][:8], len(f['mismatches'])) for f in out])
