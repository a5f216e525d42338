import sys; sys.path.insert(0,'..'); import dd
s=open(sys.argv[1]).read(); print('HANG-FORM' if dd.bad(s) else 'ok', end='')
