import ctypes as C, os, sys
cu = C.CDLL("libcuda.so.1")
def ck(r, w):
    if r: raise RuntimeError(f"{w}: {r}")
ck(cu.cuInit(0),"init"); dev=C.c_int(); ck(cu.cuDeviceGet(C.byref(dev),0),"dev")
ctx=C.c_void_p(); ck(cu.cuDevicePrimaryCtxRetain(C.byref(ctx),dev),"ctx"); ck(cu.cuCtxSetCurrent(ctx),"cur")
mod=C.c_void_p(); ck(cu.cuModuleLoadData(C.byref(mod), open(os.path.join(os.path.dirname(__file__),"cl.ptx"),"rb").read()+b"\0"),"load")
name, mode = sys.argv[1], sys.argv[2]
fn=C.c_void_p(); ck(cu.cuModuleGetFunction(C.byref(fn), mod, name.encode()),"fn")
cu.cuMemAlloc_v2.argtypes=[C.POINTER(C.c_uint64), C.c_size_t]
cu.cuMemcpyHtoD_v2.argtypes=[C.c_uint64, C.c_void_p, C.c_size_t]
cu.cuMemcpyDtoH_v2.argtypes=[C.c_void_p, C.c_uint64, C.c_size_t]
out=C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(out),256),"a")
init=bytes(range(64)); ck(cu.cuMemcpyHtoD_v2(out.value, init, 64),"h2d")
o=C.c_uint64(out.value); params=(C.c_void_p*1)(C.addressof(o))
class Attr(C.Structure): _fields_=[("id",C.c_int),("pad",C.c_char*4),("x",C.c_uint),("y",C.c_uint),("z",C.c_uint),("rest",C.c_char*52)]
class Cfg(C.Structure): _fields_=[("gx",C.c_uint),("gy",C.c_uint),("gz",C.c_uint),("bx",C.c_uint),("by",C.c_uint),("bz",C.c_uint),("smem",C.c_uint),("stream",C.c_void_p),("attrs",C.POINTER(Attr)),("n",C.c_uint)]
if mode=="plain":
    r=cu.cuLaunchKernel(fn,1,1,1,1,1,1,0,None,params,None)
else:
    a=Attr(); a.id=4; a.x=1; a.y=1; a.z=1   # CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
    cfg=Cfg(1,1,1,1,1,1,0,None,C.pointer(a),1)
    r=cu.cuLaunchKernelEx(C.byref(cfg), fn, params, None)
s=cu.cuCtxSynchronize()
h=(C.c_uint8*64)(); cu.cuMemcpyDtoH_v2(C.addressof(h), out.value, 64)
print(name, mode, "launch", r, "sync", s, bytes(h)[:48].hex())
