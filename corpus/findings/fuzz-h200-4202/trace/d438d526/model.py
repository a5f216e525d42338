# Recomputes the stored words of d438d526 (thread t, word 0) from the 13.0.88 -O3 listing:
# the subc's value reads the loaded x minus 3 (R2:R3), the borrow comes from the product (R6:R14).
import json
f = json.load(open('/work/notes/c42/r4202/run-4202/findings/d438d526442e0449.json'))
M = (1 << 64) - 1; C = 4299381115564594810; m = 2147483647
for mm in f['mismatches']:
    t = mm['thread']; w = f['inputs'][t*64:(t+1)*64]
    x = w[20] | (w[21] << 32)
    prod = x
    for _ in range(6): prod = prod * m & M            # the loop: 6 trips
    spec = ((prod - 3 - C - (prod < 3)) & M) >> 32     # sub.cc then subc, as the oracle
    gpu = (((x - 3) - C - (prod < 3)) & M) >> 32       # 13.0.88 -O3: value from x, borrow from prod
    print(t, hex(spec), mm['expected'], hex(gpu), mm['actual']['cuda:ptxas-O3'],
          'ok' if (hex(spec) == mm['expected'] and gpu == int(mm['actual']['cuda:ptxas-O3'], 16)) else 'MISMATCH')
