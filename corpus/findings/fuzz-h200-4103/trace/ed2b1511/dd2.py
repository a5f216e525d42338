import dd, sys
body=open(sys.argv[1]).read().splitlines()
s=dd.sass(body); print('BAD' if dd.bad(s) else 'ok')
