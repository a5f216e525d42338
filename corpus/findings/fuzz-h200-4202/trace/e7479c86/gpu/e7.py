import ctypes, sys, os, glob, subprocess
def load(path, opt):
    cu = ctypes.CDLL('libcuda.so.1')
    assert cu.cuInit(0) == 0
    dev = ctypes.c_int(); cu.cuDeviceGet(ctypes.byref(dev), 0)
    ctx = ctypes.c_void_p(); assert cu.cuCtxCreate_v2(ctypes.byref(ctx), 0, dev) == 0
    mod = ctypes.c_void_p()
    data = open(path,'rb').read() + b'\0'
    if opt is None:
        r = cu.cuModuleLoadData(ctypes.byref(mod), data)
    else:
        opts = (ctypes.c_int * 1)(7)  # CU_JIT_OPTIMIZATION_LEVEL
        vals = (ctypes.c_void_p * 1)(int(opt))
        r = cu.cuModuleLoadDataEx(ctypes.byref(mod), data, 1, opts, vals)
    print('result', r, flush=True)
if len(sys.argv) > 2:
    load(sys.argv[1], None if sys.argv[2] == 'd' else sys.argv[2]); sys.exit(0)
for p in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), '*.ptx'))):
    for opt in ['d', '4', '3', '2', '1', '0']:
        if opt != 'd' and not p.endswith('v0.ptx') and opt not in ('4',):
            continue
        c = subprocess.run([sys.executable, __file__, p, opt], capture_output=True, text=True, timeout=60)
        print(os.path.basename(p), 'opt', opt, 'rc', c.returncode, c.stdout.strip(), c.stderr.strip()[-200:], flush=True)
