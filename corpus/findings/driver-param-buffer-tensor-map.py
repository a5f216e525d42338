import ctypes as C, os, sys, struct
cu = C.CDLL("libcuda.so.1")
def ck(r, what):
    if r != 0: raise RuntimeError(f"{what}: CUresult {r}")
ck(cu.cuInit(0), "init")
dev = C.c_int(); ck(cu.cuDeviceGet(C.byref(dev), 0), "dev")
ctx = C.c_void_p(); ck(cu.cuDevicePrimaryCtxRetain(C.byref(ctx), dev), "ctx"); ck(cu.cuCtxSetCurrent(ctx), "cur")
ptx = open(os.path.join(os.path.dirname(__file__), "gtile.ptx"), "rb").read() + b"\0"
mod = C.c_void_p(); ck(cu.cuModuleLoadData(C.byref(mod), ptx), "load")
fn = C.c_void_p(); ck(cu.cuModuleGetFunction(C.byref(fn), mod, b"tile"), "fn")
cu.cuMemAlloc_v2.argtypes = [C.POINTER(C.c_uint64), C.c_size_t]
cu.cuMemcpyHtoD_v2.argtypes = [C.c_uint64, C.c_void_p, C.c_size_t]
cu.cuMemcpyDtoH_v2.argtypes = [C.c_void_p, C.c_uint64, C.c_size_t]
W,H=20,12
host=b"".join(struct.pack("<I", 0x1000*y+x+1) for y in range(H) for x in range(W))
g=C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(g), len(host)), "a"); ck(cu.cuMemcpyHtoD_v2(g.value, host, len(host)), "h2d")
tm=(C.c_uint8*192)(); al=(C.addressof(tm)+63)&~63
r=cu.cuTensorMapEncodeTiled(C.c_void_p(al), C.c_int(2), C.c_uint32(2), C.c_void_p(g.value), (C.c_uint64*2)(W,H), (C.c_uint64*1)(80), (C.c_uint32*2)(8,4), (C.c_uint32*2)(1,1), 0,0,0,0)
print("encode", r)
out=C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(out), 256), "o")
mode=sys.argv[1]
xs=[C.c_uint32(v) for v in (4,2,16,10)]
outp=C.c_uint64(out.value)
if mode=="params":
    params=(C.c_void_p*6)(C.c_void_p(al), C.addressof(outp), *[C.addressof(v) for v in xs])
    r=cu.cuLaunchKernel(fn,1,1,1,64,1,1,0,None,params,None)
else:
    buf=bytearray(bytes((C.c_uint8*128).from_address(al)))+struct.pack("<Q", out.value)+struct.pack("<IIII",4,2,16,10)
    raw=(C.c_uint8*(len(buf)+128))(); base=(C.addressof(raw)+63)&~63
    if mode=="extra-odd": base+=8
    C.memmove(base, bytes(buf), len(buf)); size=C.c_size_t(len(buf))
    extra=(C.c_void_p*5)(1, base, 2, C.addressof(size), 0)
    r=cu.cuLaunchKernel(fn,1,1,1,64,1,1,0,None,None,extra)
print("launch", r, "sync", cu.cuCtxSynchronize())
h=(C.c_uint8*256)(); print(cu.cuMemcpyDtoH_v2(C.addressof(h), out.value, 256)); print(bytes(h)[:64].hex())
