//! A thin layer over the CUDA driver API (through `cudarc`'s dynamically loaded bindings):
//! one context per process, modules from offline-assembled cubins or from PTX through the
//! driver's JIT (with its error and info logs), device and pinned host buffers, one launch
//! wrapper (`Gpu::launch`: a [`LaunchConfig`] of grid, block, cluster and dynamic shared
//! memory, and [`KernelParams`] as bytes; `Gpu::launch_with` for callers' own configs),
//! tensor maps encoded by the driver's own encoders ([`Gpu::encode_tensor_map`]). Driver results go through `cudarc`'s result layer
//! (`CUresult::result`, [`DriverError`]); errors keep the CUDA error name, and faults are told
//! apart by their result code ([`GpuError::is_fault`]). A machine without `libcuda.so.1` gets
//! [`GpuError::Unavailable`], never a panic.
//!
//! A fault inside a kernel (illegal address, trap) poisons the context for good; callers run
//! this in a worker process (`ptxdiff worker`) that the supervisor restarts.
//!
//! A process waiting for the GPU blocks on the driver ([`SyncMode::Blocking`], the default)
//! instead of spinning: the driver's default for a process with one context and more cores
//! than contexts is to spin, so every worker process waiting for a kernel held a core at
//! 100 % while the JIT (in other workers), ptxas and the oracle needed the cores. The
//! environment variable [`SYNC_ENV`] picks another mode (`spin`, `yield`, `auto`) to compare.

use std::ffi::{c_void, CStr, CString};
use std::ptr;

use cudarc::driver::result::DriverError;
use cudarc::driver::sys::{self, CUresult};
use thiserror::Error;

use oracle::memory::tensor_map::{MapMode, TensorMap};
use serde::{Deserialize, Serialize};

/// GPU errors.
#[derive(Debug, Error)]
pub enum GpuError {
    /// No usable GPU driver or device on this machine.
    #[error("GPU backend unavailable: {0}")]
    Unavailable(String),
    /// A driver call failed.
    #[error("{call}: {}", error_name(*.error))]
    Driver {
        /// The driver function.
        call: &'static str,
        /// The driver's result code (its name, `CUDA_ERROR_ILLEGAL_ADDRESS`, is what displays).
        error: DriverError,
    },
    /// The driver's JIT rejected a PTX module.
    #[error("driver JIT failed ({}): {log}", error_name(*.error))]
    Jit {
        /// The driver's result code.
        error: DriverError,
        /// The JIT error log.
        log: String,
    },
    /// A caller's request the driver cannot take (an entry name with a NUL byte).
    #[error("{0}")]
    Request(String),
}

impl GpuError {
    /// The driver's result name (`CUDA_ERROR_INVALID_VALUE`) of a driver error.
    pub fn driver_error_name(&self) -> Option<String> {
        match self {
            GpuError::Driver { error, .. } | GpuError::Jit { error, .. } => Some(error_name(*error)),
            _ => None,
        }
    }

    /// Whether the error means a kernel faulted (the context is now unusable), decided by the
    /// driver's result code.
    pub fn is_fault(&self) -> bool {
        match self {
            GpuError::Driver { error, .. } => matches!(
                error.0,
                CUresult::CUDA_ERROR_ILLEGAL_ADDRESS
                    | CUresult::CUDA_ERROR_LAUNCH_FAILED
                    | CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION
                    | CUresult::CUDA_ERROR_MISALIGNED_ADDRESS
                    | CUresult::CUDA_ERROR_ASSERT
                    | CUresult::CUDA_ERROR_HARDWARE_STACK_ERROR
                    | CUresult::CUDA_ERROR_INVALID_PC
                    | CUresult::CUDA_ERROR_LAUNCH_TIMEOUT
                    | CUresult::CUDA_ERROR_INVALID_ADDRESS_SPACE
            ),
            _ => false,
        }
    }
}

/// The CUDA name of a result code (`CUDA_ERROR_ILLEGAL_ADDRESS`).
fn error_name(e: DriverError) -> String {
    e.error_name().map_or_else(|_| format!("{:?}", e.0), |n| n.to_string_lossy().into_owned())
}

fn check(call: &'static str, r: CUresult) -> Result<(), GpuError> {
    r.result().map_err(|error| GpuError::Driver { call, error })
}

/// How a kernel is launched: grid and block dimensions, thread-block cluster dimensions
/// (`(1, 1, 1)`: no clusters) and dynamic shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// CTAs per grid dimension.
    pub grid: (u32, u32, u32),
    /// Threads per CTA dimension.
    pub block: (u32, u32, u32),
    /// CTAs per cluster dimension.
    pub cluster: (u32, u32, u32),
    /// Dynamic shared memory bytes per CTA.
    pub dynamic_shared_bytes: u32,
}

impl LaunchConfig {
    /// A one-dimensional launch without clusters or dynamic shared memory.
    pub fn linear(grid: u32, block: u32) -> LaunchConfig {
        LaunchConfig { grid: (grid, 1, 1), block: (block, 1, 1), cluster: (1, 1, 1), dynamic_shared_bytes: 0 }
    }
}

/// Kernel parameters as the bytes of the entry's `.param` space, each parameter at its natural
/// alignment, with where each parameter starts.
///
/// The launch passes one pointer per parameter (`kernelParams`), not the whole buffer through
/// `CU_LAUNCH_PARAM_BUFFER_POINTER`: on an H100 (driver 580.159.04) a tensor map passed through
/// the buffer path makes the `cp.async.bulk.tensor` that uses it trap with
/// `CUDA_ERROR_ILLEGAL_INSTRUCTION`, while the same bytes through `kernelParams` work
/// (corpus/findings/driver-param-buffer-tensor-map.md).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelParams {
    bytes: Vec<u8>,
    starts: Vec<usize>,
}

impl KernelParams {
    /// No parameters yet.
    pub fn new() -> KernelParams {
        KernelParams::default()
    }
    /// Appends a `.u64` (a device address or a count).
    pub fn u64(self, v: u64) -> KernelParams {
        self.aligned(8, &v.to_le_bytes())
    }
    /// Appends a `.u32`.
    pub fn u32(self, v: u32) -> KernelParams {
        self.aligned(4, &v.to_le_bytes())
    }
    /// Appends `data` at the next multiple of `align` (a `.param .align 64 .b8 [128]` tensor
    /// map, or raw scalar bytes).
    pub fn aligned(mut self, align: usize, data: &[u8]) -> KernelParams {
        self.bytes.resize(self.bytes.len().next_multiple_of(align.max(1)), 0);
        self.starts.push(self.bytes.len());
        self.bytes.extend_from_slice(data);
        self
    }
    /// The parameter bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// The byte offset of each parameter, in order.
    pub fn starts(&self) -> &[usize] {
        &self.starts
    }
}

/// Dynamic shared memory a kernel may use without opting in (48 KiB).
const DEFAULT_DYNAMIC_SHARED: u32 = 48 * 1024;
/// CTAs in the largest portable cluster.
const PORTABLE_CLUSTER: u64 = 8;
/// The largest tensor rank the encoders take (cuda.h: `tensorRank` ≤ 5).
const MAX_TENSOR_RANK: usize = 5;

/// The arguments of `cuTensorMapEncodeTiled` / `cuTensorMapEncodeIm2col` (cuda.h) as numbers:
/// enumerations as their cuda.h codes, arrays innermost dimension first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireTensorMap {
    /// `Some`: an im2col map (`cuTensorMapEncodeIm2col`); `None`: a tiled one.
    pub im2col: Option<WireIm2col>,
    /// `CUtensorMapDataType`.
    pub dtype: u32,
    /// `globalDim` (the rank is its length).
    pub dims: Vec<u64>,
    /// `globalStrides`: byte strides of dims 1..rank-1.
    pub strides: Vec<u64>,
    /// `boxDim` (tiled maps; empty for im2col).
    pub box_dims: Vec<u32>,
    /// `elementStrides`.
    pub element_strides: Vec<u32>,
    /// `CUtensorMapInterleave`.
    pub interleave: u32,
    /// `CUtensorMapSwizzle`.
    pub swizzle: u32,
    /// `CUtensorMapL2promotion`.
    pub l2_promotion: u32,
    /// `CUtensorMapFloatOOBfill`.
    pub oob_fill: u32,
}

/// The im2col-only arguments of `cuTensorMapEncodeIm2col`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireIm2col {
    /// `pixelBoxLowerCorner` (rank − 2 entries).
    pub lower_corner: Vec<i32>,
    /// `pixelBoxUpperCorner` (rank − 2 entries).
    pub upper_corner: Vec<i32>,
    /// `channelsPerPixel`.
    pub channels_per_pixel: u32,
    /// `pixelsPerColumn`.
    pub pixels_per_column: u32,
}

/// The one conversion of an oracle tensor map to the driver's arguments.
impl From<&TensorMap> for WireTensorMap {
    fn from(m: &TensorMap) -> WireTensorMap {
        let im2col = match &m.mode {
            MapMode::Tiled => None,
            MapMode::Im2col { lower_corner, upper_corner, channels_per_pixel, pixels_per_column } => Some(WireIm2col {
                lower_corner: lower_corner.clone(),
                upper_corner: upper_corner.clone(),
                channels_per_pixel: *channels_per_pixel,
                pixels_per_column: *pixels_per_column,
            }),
        };
        WireTensorMap {
            im2col,
            dtype: m.dtype.code(),
            dims: m.dims.clone(),
            strides: m.strides.clone(),
            box_dims: m.box_dims.clone(),
            element_strides: m.element_strides.clone(),
            interleave: m.interleave.code(),
            swizzle: m.swizzle.code(),
            l2_promotion: m.l2_promotion.code(),
            oob_fill: m.oob_fill.code(),
        }
    }
}

/// Checks that the arrays of `map` have the lengths its rank asks for (`strides` rank − 1,
/// `element_strides` rank, `box_dims` rank for a tiled map and none for im2col, the im2col
/// corners rank − 2), so the encoders never read past one.
fn tensor_map_lengths(map: &WireTensorMap) -> Result<(), GpuError> {
    let rank = map.dims.len();
    let mut lengths = vec![
        ("strides", map.strides.len(), rank.saturating_sub(1)),
        ("element_strides", map.element_strides.len(), rank),
        ("box_dims", map.box_dims.len(), if map.im2col.is_some() { 0 } else { rank }),
    ];
    if let Some(i) = &map.im2col {
        lengths.push(("lower_corner", i.lower_corner.len(), rank.saturating_sub(2)));
        lengths.push(("upper_corner", i.upper_corner.len(), rank.saturating_sub(2)));
    }
    match lengths.into_iter().find(|(_, len, want)| len != want) {
        Some((what, len, want)) => {
            Err(GpuError::Request(format!("tensor map of rank {rank}: {what} has {len} entries, not {want}")))
        }
        None => Ok(()),
    }
}

/// The cuda.h codes of the tensor-map enumerations as `cudarc`'s typed enums; a code that names
/// no enumerator is a request error (never transmuted).
mod tensor_map_codes {
    use cudarc::driver::sys::{
        CUtensorMapDataType as D, CUtensorMapFloatOOBfill as F, CUtensorMapInterleave as I,
        CUtensorMapL2promotion as L, CUtensorMapSwizzle as S,
    };

    use super::GpuError;

    fn unknown<T>(what: &str, code: u32) -> Result<T, GpuError> {
        Err(GpuError::Request(format!("{code} is no {what} code (cuda.h)")))
    }

    /// `CUtensorMapDataType`.
    pub fn data_type(code: u32) -> Result<D, GpuError> {
        Ok(match code {
            0 => D::CU_TENSOR_MAP_DATA_TYPE_UINT8,
            1 => D::CU_TENSOR_MAP_DATA_TYPE_UINT16,
            2 => D::CU_TENSOR_MAP_DATA_TYPE_UINT32,
            3 => D::CU_TENSOR_MAP_DATA_TYPE_INT32,
            4 => D::CU_TENSOR_MAP_DATA_TYPE_UINT64,
            5 => D::CU_TENSOR_MAP_DATA_TYPE_INT64,
            6 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
            7 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
            8 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
            9 => D::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
            10 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
            11 => D::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
            12 => D::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
            13 => D::CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
            14 => D::CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
            15 => D::CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B,
            _ => return unknown("CUtensorMapDataType", code),
        })
    }

    /// `CUtensorMapInterleave`.
    pub fn interleave(code: u32) -> Result<I, GpuError> {
        Ok(match code {
            0 => I::CU_TENSOR_MAP_INTERLEAVE_NONE,
            1 => I::CU_TENSOR_MAP_INTERLEAVE_16B,
            2 => I::CU_TENSOR_MAP_INTERLEAVE_32B,
            _ => return unknown("CUtensorMapInterleave", code),
        })
    }

    /// `CUtensorMapSwizzle`.
    pub fn swizzle(code: u32) -> Result<S, GpuError> {
        Ok(match code {
            0 => S::CU_TENSOR_MAP_SWIZZLE_NONE,
            1 => S::CU_TENSOR_MAP_SWIZZLE_32B,
            2 => S::CU_TENSOR_MAP_SWIZZLE_64B,
            3 => S::CU_TENSOR_MAP_SWIZZLE_128B,
            4 => S::CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B,
            5 => S::CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
            6 => S::CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B,
            _ => return unknown("CUtensorMapSwizzle", code),
        })
    }

    /// `CUtensorMapL2promotion`.
    pub fn l2_promotion(code: u32) -> Result<L, GpuError> {
        Ok(match code {
            0 => L::CU_TENSOR_MAP_L2_PROMOTION_NONE,
            1 => L::CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
            2 => L::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            3 => L::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            _ => return unknown("CUtensorMapL2promotion", code),
        })
    }

    /// `CUtensorMapFloatOOBfill`.
    pub fn oob_fill(code: u32) -> Result<F, GpuError> {
        Ok(match code {
            0 => F::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            1 => F::CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
            _ => return unknown("CUtensorMapFloatOOBfill", code),
        })
    }
}

/// The environment variable that sets how a process waits for the GPU ([`SyncMode`]).
pub const SYNC_ENV: &str = "PTXDIFF_CUDA_SYNC";

/// How a process waits for the GPU (the primary context's scheduling flag, `cuda.h`
/// `CU_CTX_SCHED_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SyncMode {
    /// Block on a driver primitive (`CU_CTX_SCHED_BLOCKING_SYNC`): the core is free meanwhile.
    #[default]
    Blocking,
    /// Spin (`CU_CTX_SCHED_SPIN`): the lowest latency, a core busy while waiting.
    Spin,
    /// Spin, yielding the core to other threads (`CU_CTX_SCHED_YIELD`).
    Yield,
    /// The driver's heuristic (`CU_CTX_SCHED_AUTO`: spin while contexts ≤ cores).
    Auto,
}

impl SyncMode {
    /// The mode `value` of [`SYNC_ENV`] names (`None`: unset or empty, the default); an
    /// unknown value is an error naming it and the accepted ones.
    pub fn parse(value: Option<&str>) -> Result<SyncMode, String> {
        match value.map(str::trim).unwrap_or("") {
            "" | "blocking" => Ok(SyncMode::Blocking),
            "spin" => Ok(SyncMode::Spin),
            "yield" => Ok(SyncMode::Yield),
            "auto" => Ok(SyncMode::Auto),
            other => Err(format!("{SYNC_ENV}={other}: unknown; give blocking (the default), spin, yield or auto")),
        }
    }

    /// The mode of this process's environment.
    pub fn from_env() -> Result<SyncMode, String> {
        SyncMode::parse(std::env::var(SYNC_ENV).ok().as_deref())
    }

    fn flag(self) -> sys::CUctx_flags {
        match self {
            SyncMode::Blocking => sys::CUctx_flags::CU_CTX_SCHED_BLOCKING_SYNC,
            SyncMode::Spin => sys::CUctx_flags::CU_CTX_SCHED_SPIN,
            SyncMode::Yield => sys::CUctx_flags::CU_CTX_SCHED_YIELD,
            SyncMode::Auto => sys::CUctx_flags::CU_CTX_SCHED_AUTO,
        }
    }
}

/// The process's GPU: device, primary context, one stream.
pub struct Gpu {
    ctx: sys::CUcontext,
    stream: sys::CUstream,
    /// Device name (`NVIDIA H100 80GB HBM3`).
    pub name: String,
    /// Driver version as `cuDriverGetVersion` reports it (13000 for 13.0).
    pub driver: i32,
    /// `(major, minor)` compute capability.
    pub capability: (i32, i32),
}

/// A loaded module and its `sweep` entry point.
pub struct Kernel {
    /// Keeps the module loaded while `func` is used.
    _module: Module,
    func: sys::CUfunction,
    /// The JIT info log (empty for cubins).
    pub info_log: String,
}

/// A loaded module.
pub struct Module {
    module: sys::CUmodule,
    /// The JIT info log (empty for cubins).
    pub info_log: String,
}

/// An entry point of a [`Module`] (valid while the module is loaded).
#[derive(Clone, Copy)]
pub struct Function<'m> {
    func: sys::CUfunction,
    _module: std::marker::PhantomData<&'m Module>,
}

impl Module {
    /// The entry point `name`.
    pub fn function(&self, name: &str) -> Result<Function<'_>, GpuError> {
        let mut func = ptr::null_mut();
        let entry =
            CString::new(name).map_err(|_| GpuError::Request(format!("entry name `{name}` holds a NUL byte")))?;
        // SAFETY: `module` is loaded; `entry` is NUL-terminated.
        check("cuModuleGetFunction", unsafe { sys::cuModuleGetFunction(&mut func, self.module, entry.as_ptr()) })?;
        Ok(Function { func, _module: std::marker::PhantomData })
    }
}

/// Device memory.
pub struct DeviceBuffer {
    ptr: sys::CUdeviceptr,
    /// Size in bytes.
    pub bytes: usize,
}

impl DeviceBuffer {
    /// The device address, for a kernel parameter.
    pub fn ptr(&self) -> u64 {
        self.ptr
    }
}

/// Page-locked host memory.
pub struct PinnedBuffer {
    ptr: *mut u8,
    /// Size in bytes.
    pub bytes: usize,
}

impl Gpu {
    /// Opens device `ordinal` (binds its primary context to this thread), the context waiting
    /// for the GPU as [`SYNC_ENV`] says ([`SyncMode`]; a bad value is [`GpuError::Request`]).
    pub fn open(ordinal: i32) -> Result<Gpu, GpuError> {
        let sync = SyncMode::from_env().map_err(GpuError::Request)?;
        // SAFETY: only checks whether the shared library can be loaded.
        if !unsafe { sys::is_culib_present() } {
            return Err(GpuError::Unavailable("libcuda.so.1 (the NVIDIA driver) is not installed".into()));
        }
        // SAFETY: plain driver calls with valid out-pointers; each result is checked.
        unsafe {
            if let Err(e) = cudarc::driver::result::init() {
                return Err(GpuError::Unavailable(format!("cuInit failed: {}", error_name(e))));
            }
            let mut dev = 0;
            check("cuDeviceGet", sys::cuDeviceGet(&mut dev, ordinal))
                .map_err(|e| GpuError::Unavailable(format!("no GPU {ordinal}: {e}")))?;
            let mut name = [0 as std::ffi::c_char; 256];
            check("cuDeviceGetName", sys::cuDeviceGetName(name.as_mut_ptr(), 256, dev))?;
            let name = CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned();
            let mut driver = 0;
            check("cuDriverGetVersion", sys::cuDriverGetVersion(&mut driver))?;
            let (mut major, mut minor) = (0, 0);
            check(
                "cuDeviceGetAttribute",
                sys::cuDeviceGetAttribute(
                    &mut major,
                    sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                    dev,
                ),
            )?;
            check(
                "cuDeviceGetAttribute",
                sys::cuDeviceGetAttribute(
                    &mut minor,
                    sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                    dev,
                ),
            )?;
            // Before the context is retained (it is inactive in a fresh process).
            check("cuDevicePrimaryCtxSetFlags", sys::cuDevicePrimaryCtxSetFlags_v2(dev, sync.flag() as u32))?;
            let mut ctx = ptr::null_mut();
            check("cuDevicePrimaryCtxRetain", sys::cuDevicePrimaryCtxRetain(&mut ctx, dev))?;
            check("cuCtxSetCurrent", sys::cuCtxSetCurrent(ctx))?;
            let mut stream = ptr::null_mut();
            check("cuStreamCreate", sys::cuStreamCreate(&mut stream, 0))?;
            Ok(Gpu { ctx, stream, name, driver, capability: (major, minor) })
        }
    }

    /// The target the device runs natively (`sm_90` for 9.0).
    pub fn sm(&self) -> u16 {
        (self.capability.0 * 10 + self.capability.1) as u16
    }

    /// Loads a sweep module (cubin or PTX, as [`Gpu::load_module`]) and its `sweep` entry.
    pub fn load(&self, image: &[u8], ptx: bool, jit_opt: u32) -> Result<Kernel, GpuError> {
        let module = self.load_module(image, ptx, jit_opt)?;
        let func = module.function("sweep")?.func;
        let info_log = module.info_log.clone();
        Ok(Kernel { _module: module, func, info_log })
    }

    /// Loads a cubin (offline ptxas) or a PTX text (driver JIT at `jit_opt`, 0–4).
    pub fn load_module(&self, image: &[u8], ptx: bool, jit_opt: u32) -> Result<Module, GpuError> {
        let mut err_log = vec![0u8; 1 << 16];
        let mut info_log = vec![0u8; 1 << 16];
        let mut options = [
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
            sys::CUjit_option::CU_JIT_OPTIMIZATION_LEVEL,
        ];
        let mut values: [*mut c_void; 5] = [
            err_log.as_mut_ptr().cast(),
            err_log.len() as *mut c_void,
            info_log.as_mut_ptr().cast(),
            info_log.len() as *mut c_void,
            jit_opt as usize as *mut c_void,
        ];
        let n = if ptx { 5 } else { 4 };
        let data: Vec<u8> = if ptx {
            let mut v = image.to_vec();
            v.push(0);
            v
        } else {
            image.to_vec()
        };
        let mut module = ptr::null_mut();
        // SAFETY: `data` outlives the call (NUL-terminated for PTX); option values are the
        // buffer pointers and sizes the JIT options require, cast as the API specifies.
        let r = unsafe {
            sys::cuCtxSetCurrent(self.ctx);
            sys::cuModuleLoadDataEx(&mut module, data.as_ptr().cast(), n, options.as_mut_ptr(), values.as_mut_ptr())
        };
        let text = |b: &[u8]| {
            String::from_utf8_lossy(&b[..b.iter().position(|&c| c == 0).unwrap_or(b.len())]).trim().to_string()
        };
        if let Err(error) = r.result() {
            return Err(GpuError::Jit { error, log: text(&err_log) });
        }
        Ok(Module { module, info_log: text(&info_log) })
    }

    /// Runs a test program's entry `f(p_in, p_out)` as one CTA of `threads` threads.
    pub fn launch_program(
        &self,
        f: Function<'_>,
        threads: u32,
        (input, in_offset): (&DeviceBuffer, usize),
        (output, out_offset): (&DeviceBuffer, usize),
    ) -> Result<(), GpuError> {
        assert!(in_offset <= input.bytes && out_offset <= output.bytes, "offsets inside the buffers");
        let params = KernelParams::new().u64(input.ptr + in_offset as u64).u64(output.ptr + out_offset as u64);
        self.launch(f.func, &LaunchConfig::linear(1, threads), &params)
    }

    /// Runs `f` with `config` (grid, block, cluster, dynamic shared memory) and the parameter
    /// bytes `params`, which the caller lays out as `f`'s `.param` list; `f` must stay within
    /// the buffers they name. Dynamic shared memory above the 48 KiB default is opted into
    /// (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`), and clusters of more than the 8
    /// portable CTAs ask for the non-portable size (`CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED`);
    /// what the device cannot do fails the launch with the driver's error.
    pub fn launch_with(&self, f: Function<'_>, config: &LaunchConfig, params: &KernelParams) -> Result<(), GpuError> {
        let set = |attrib, value: u32| {
            let value = i32::try_from(value)
                .map_err(|_| GpuError::Request(format!("function attribute value {value} does not fit an int")))?;
            // SAFETY: `f` belongs to a loaded module (its lifetime says so); plain attribute set.
            check("cuFuncSetAttribute", unsafe { sys::cuFuncSetAttribute(f.func, attrib, value) })
        };
        if config.dynamic_shared_bytes > DEFAULT_DYNAMIC_SHARED {
            set(
                sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                config.dynamic_shared_bytes,
            )?;
        }
        let (x, y, z) = config.cluster;
        if u64::from(x) * u64::from(y) * u64::from(z) > PORTABLE_CLUSTER {
            set(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)?;
        }
        self.launch(f.func, config, params)
    }

    /// Encodes a tensor map over the global memory at `global` with the driver's own encoder
    /// (`cuTensorMapEncodeTiled`, or `cuTensorMapEncodeIm2col` for an im2col map): the
    /// 128-byte `CUtensorMap` a kernel takes as a `.param .align 64 .b8 [128]`. A map the
    /// driver refuses is [`GpuError::Driver`] with its result (the encode call named); a code
    /// that is no enumerator of its cuda.h enumeration, or arrays whose lengths disagree with
    /// the rank, are [`GpuError::Request`] and never reach the driver.
    pub fn encode_tensor_map(&self, global: u64, map: &WireTensorMap) -> Result<[u8; 128], GpuError> {
        use tensor_map_codes as codes;
        tensor_map_lengths(map)?;
        let rank = map.dims.len();
        let dtype = codes::data_type(map.dtype)?;
        let interleave = codes::interleave(map.interleave)?;
        let swizzle = codes::swizzle(map.swizzle)?;
        let l2 = codes::l2_promotion(map.l2_promotion)?;
        let fill = codes::oob_fill(map.oob_fill)?;
        let rank32 = u32::try_from(rank).map_err(|_| GpuError::Request(format!("tensor map rank {rank}")))?;
        // Every array is padded to at least the largest rank the driver knows, so that the
        // driver never reads past one whatever rank it is given.
        fn padded<T: Copy + Default>(v: &[T]) -> Vec<T> {
            let mut v = v.to_vec();
            v.resize(v.len().max(MAX_TENSOR_RANK), T::default());
            v
        }
        let (dims, strides, boxes, elems) =
            (padded(&map.dims), padded(&map.strides), padded(&map.box_dims), padded(&map.element_strides));
        let mut out = sys::CUtensorMap { opaque: [0; 16] };
        let address = global as usize as *mut c_void;
        // SAFETY: `out` is a writable CUtensorMap; every array holds at least `rank` entries
        // (lengths checked above, then padded) and lives until the call returns; the driver
        // only records `address`, it does not dereference it.
        let r = unsafe {
            match &map.im2col {
                None => sys::cuTensorMapEncodeTiled(
                    &mut out,
                    dtype,
                    rank32,
                    address,
                    dims.as_ptr(),
                    strides.as_ptr(),
                    boxes.as_ptr(),
                    elems.as_ptr(),
                    interleave,
                    swizzle,
                    l2,
                    fill,
                ),
                Some(i) => {
                    let (lower, upper) = (padded(&i.lower_corner), padded(&i.upper_corner));
                    sys::cuTensorMapEncodeIm2col(
                        &mut out,
                        dtype,
                        rank32,
                        address,
                        dims.as_ptr(),
                        strides.as_ptr(),
                        lower.as_ptr(),
                        upper.as_ptr(),
                        i.channels_per_pixel,
                        i.pixels_per_column,
                        elems.as_ptr(),
                        interleave,
                        swizzle,
                        l2,
                        fill,
                    )
                }
            }
        };
        let call = if map.im2col.is_some() { "cuTensorMapEncodeIm2col" } else { "cuTensorMapEncodeTiled" };
        check(call, r)?;
        let mut bytes = [0u8; 128];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(out.opaque) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        Ok(bytes)
    }

    /// The one launch wrapper: runs `func` with `config` and the parameter bytes `params` on
    /// the stream.
    fn launch(&self, func: sys::CUfunction, config: &LaunchConfig, params: &KernelParams) -> Result<(), GpuError> {
        let (x, y, z) = config.cluster;
        let mut cluster = sys::CUlaunchAttribute {
            id: sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
            pad: [0; 4],
            value: sys::CUlaunchAttributeValue {
                clusterDim: sys::CUlaunchAttributeValue_union__bindgen_ty_1 { x, y, z },
            },
        };
        let clustered = config.cluster != (1, 1, 1);
        let launch = sys::CUlaunchConfig {
            gridDimX: config.grid.0,
            gridDimY: config.grid.1,
            gridDimZ: config.grid.2,
            blockDimX: config.block.0,
            blockDimY: config.block.1,
            blockDimZ: config.block.2,
            sharedMemBytes: config.dynamic_shared_bytes,
            hStream: self.stream,
            attrs: if clustered { &mut cluster } else { ptr::null_mut() },
            numAttrs: u32::from(clustered),
        };
        let mut bytes = params.bytes().to_vec();
        let base = bytes.as_mut_ptr();
        // One pointer per parameter into `bytes` (the driver reads each parameter's size from
        // the entry's signature).
        let mut pointers: Vec<*mut c_void> =
            params.starts().iter().map(|&start| base.wrapping_add(start).cast::<c_void>()).collect();
        let kernel_params = if pointers.is_empty() { ptr::null_mut() } else { pointers.as_mut_ptr() };
        check("cuLaunchKernelEx", unsafe { sys::cuLaunchKernelEx(&launch, func, kernel_params, ptr::null_mut()) })
    }

    /// Copies `data` to the start of `dst` (synchronously).
    pub fn upload(&self, dst: &DeviceBuffer, data: &[u8]) -> Result<(), GpuError> {
        self.upload_at(dst, 0, data)
    }

    /// Copies `data` to `dst` at byte `offset` (synchronously).
    pub fn upload_at(&self, dst: &DeviceBuffer, offset: usize, data: &[u8]) -> Result<(), GpuError> {
        assert!(offset.checked_add(data.len()).is_some_and(|end| end <= dst.bytes), "upload within the buffer");
        // SAFETY: the range lies inside the allocation (asserted); `data` is readable.
        check("cuMemcpyHtoD", unsafe {
            sys::cuMemcpyHtoD_v2(dst.ptr + offset as u64, data.as_ptr().cast(), data.len())
        })
    }

    /// Sets the whole of `dst` to zero (ordered on the stream).
    pub fn zero(&self, dst: &DeviceBuffer) -> Result<(), GpuError> {
        // SAFETY: the range is the allocation itself.
        check("cuMemsetD8Async", unsafe { sys::cuMemsetD8Async(dst.ptr, 0, dst.bytes.max(1), self.stream) })
    }

    /// The first `bytes` of `src`, after everything before on the stream (faults surface here).
    pub fn download(&self, src: &DeviceBuffer, bytes: usize) -> Result<Vec<u8>, GpuError> {
        self.download_at(src, 0, bytes)
    }

    /// `bytes` bytes of `src` from byte `offset`, after everything before on the stream
    /// (faults surface here).
    pub fn download_at(&self, src: &DeviceBuffer, offset: usize, bytes: usize) -> Result<Vec<u8>, GpuError> {
        assert!(offset.checked_add(bytes).is_some_and(|end| end <= src.bytes), "download within the buffer");
        self.synchronize()?;
        let mut v = vec![0u8; bytes];
        // SAFETY: both ranges are valid for `bytes` bytes (asserted above).
        check("cuMemcpyDtoH", unsafe { sys::cuMemcpyDtoH_v2(v.as_mut_ptr().cast(), src.ptr + offset as u64, bytes) })?;
        Ok(v)
    }

    /// Allocates device memory.
    pub fn alloc(&self, bytes: usize) -> Result<DeviceBuffer, GpuError> {
        let mut ptr = 0;
        // SAFETY: valid out-pointer; the context is current for this process.
        check("cuMemAlloc", unsafe { sys::cuMemAlloc_v2(&mut ptr, bytes.max(1)) })?;
        Ok(DeviceBuffer { ptr, bytes })
    }

    /// Allocates page-locked host memory.
    pub fn alloc_pinned(&self, bytes: usize) -> Result<PinnedBuffer, GpuError> {
        let mut p = ptr::null_mut();
        // SAFETY: valid out-pointer; flags 0.
        check("cuMemHostAlloc", unsafe { sys::cuMemHostAlloc(&mut p, bytes.max(1), 0) })?;
        Ok(PinnedBuffer { ptr: p.cast(), bytes })
    }

    /// Runs `sweep(out, base, n)` over `n` threads.
    pub fn launch_sweep(&self, k: &Kernel, out: &DeviceBuffer, base: u64, n: u64) -> Result<(), GpuError> {
        let block = 256u64;
        let grid = n.div_ceil(block);
        // `sweep` writes `n × out_bytes` bytes at `out`, which the caller sized.
        self.launch(
            k.func,
            &LaunchConfig::linear(grid as u32, block as u32),
            &KernelParams::new().u64(out.ptr).u64(base).u64(n),
        )
    }

    /// Runs `f` over `n` threads (one-dimensional blocks of 256) with `params`, which the
    /// caller lays out as `f`'s `.param` list; `f` must stay within the buffers they name.
    pub fn launch_linear(&self, f: Function<'_>, n: u64, params: &KernelParams) -> Result<(), GpuError> {
        let block = 256u64;
        let grid = u32::try_from(n.div_ceil(block).max(1))
            .map_err(|_| GpuError::Request(format!("{n} threads do not fit one grid")))?;
        self.launch(f.func, &LaunchConfig::linear(grid, block as u32), params)
    }

    /// Copies `bytes` from the start of `src` into `dst` and waits for it (and everything
    /// before it on the stream, so kernel faults surface here).
    pub fn copy_to_host(&self, dst: &mut PinnedBuffer, src: &DeviceBuffer, bytes: usize) -> Result<(), GpuError> {
        assert!(bytes <= dst.bytes && bytes <= src.bytes, "copy within both buffers");
        // SAFETY: both ranges are inside their allocations (asserted above).
        check("cuMemcpyDtoHAsync", unsafe { sys::cuMemcpyDtoHAsync_v2(dst.ptr.cast(), src.ptr, bytes, self.stream) })?;
        self.synchronize()
    }

    /// Queues a copy of `bytes` from `src` into `dst` on the stream without waiting.
    pub fn copy_to_host_async(&self, dst: &mut PinnedBuffer, src: &DeviceBuffer, bytes: usize) -> Result<(), GpuError> {
        assert!(bytes <= dst.bytes && bytes <= src.bytes, "copy within both buffers");
        // SAFETY: both ranges are inside their allocations (asserted above); callers do not
        // read `dst` until the event recorded after this copy has completed.
        check("cuMemcpyDtoHAsync", unsafe { sys::cuMemcpyDtoHAsync_v2(dst.ptr.cast(), src.ptr, bytes, self.stream) })
    }

    /// Records an event after everything queued so far.
    pub fn record(&self) -> Result<Event, GpuError> {
        let mut e = ptr::null_mut();
        // SAFETY: valid out-pointer; the stream belongs to this context.
        unsafe {
            check("cuEventCreate", sys::cuEventCreate(&mut e, 0))?;
            check("cuEventRecord", sys::cuEventRecord(e, self.stream))?;
        }
        Ok(Event(e))
    }

    /// Waits for the stream.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        // SAFETY: the stream belongs to this context.
        check("cuStreamSynchronize", unsafe { sys::cuStreamSynchronize(self.stream) })
    }
}

/// A point in the stream's work.
pub struct Event(sys::CUevent);

impl Event {
    /// Waits until the work before the event is done (kernel faults surface here).
    pub fn wait(&self) -> Result<(), GpuError> {
        // SAFETY: the event was created and recorded by this process.
        check("cuEventSynchronize", unsafe { sys::cuEventSynchronize(self.0) })
    }

    /// Whether the work before the event is done, without waiting: `Ok(false)` while it runs
    /// (`CUDA_ERROR_NOT_READY`); any other error is the driver's (a kernel fault surfaces here
    /// as it does in [`Event::wait`]).
    pub fn is_done(&self) -> Result<bool, GpuError> {
        // SAFETY: the event was created and recorded by this process.
        match unsafe { sys::cuEventQuery(self.0) } {
            CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            r => check("cuEventQuery", r).map(|()| true),
        }
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: created by cuEventCreate, destroyed once.
        unsafe { sys::cuEventDestroy_v2(self.0) };
    }
}

impl PinnedBuffer {
    /// The first `len` bytes.
    pub fn as_slice(&self, len: usize) -> &[u8] {
        assert!(len <= self.bytes);
        // SAFETY: the allocation holds `self.bytes` bytes and lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr, len) }
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: the module was loaded by this process and is unloaded once.
        unsafe { sys::cuModuleUnload(self.module) };
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated by cuMemAlloc, freed once.
        unsafe { sys::cuMemFree_v2(self.ptr) };
    }
}

impl Drop for PinnedBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated by cuMemHostAlloc, freed once.
        unsafe { sys::cuMemFreeHost(self.ptr.cast()) };
    }
}

// SAFETY: the driver API is thread-safe; every call that needs the context makes it current
// on the calling thread first (`load_module`), and the stream is only used for launches and
// copies, which the driver serializes.
unsafe impl Sync for Gpu {}
// SAFETY: a module handle may be used and unloaded from any thread of the process.
unsafe impl Send for Module {}

// SAFETY: the pinned allocation is plain memory owned by this value.
unsafe impl Send for PinnedBuffer {}
// SAFETY: shared access is read-only through `as_slice`.
unsafe impl Sync for PinnedBuffer {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sync_mode_is_blocking_unless_the_environment_names_another() {
        assert_eq!(SyncMode::parse(None), Ok(SyncMode::Blocking));
        assert_eq!(SyncMode::parse(Some(" ")), Ok(SyncMode::Blocking));
        assert_eq!(SyncMode::parse(Some("spin")), Ok(SyncMode::Spin));
        assert_eq!(SyncMode::parse(Some("yield")), Ok(SyncMode::Yield));
        assert_eq!(SyncMode::parse(Some("auto")), Ok(SyncMode::Auto));
        let e = SyncMode::parse(Some("busy")).unwrap_err();
        assert!(e.contains("PTXDIFF_CUDA_SYNC=busy") && e.contains("blocking"), "{e}");
        assert_eq!(SyncMode::Blocking.flag() as u32, 4, "cuda.h: CU_CTX_SCHED_BLOCKING_SYNC = 0x04");
        assert_eq!(SyncMode::Spin.flag() as u32, 1);
    }

    #[test]
    fn faults_are_told_apart_by_result_code() {
        let driver = |r| GpuError::Driver { call: "cuStreamSynchronize", error: DriverError(r) };
        assert!(driver(CUresult::CUDA_ERROR_ILLEGAL_ADDRESS).is_fault());
        assert!(driver(CUresult::CUDA_ERROR_MISALIGNED_ADDRESS).is_fault());
        assert!(!driver(CUresult::CUDA_ERROR_OUT_OF_MEMORY).is_fault());
        assert!(!driver(CUresult::CUDA_ERROR_INVALID_VALUE).is_fault());
        assert!(!GpuError::Unavailable("no driver".into()).is_fault());
    }

    #[test]
    fn tensor_map_codes_are_the_cuda_h_values_and_others_are_refused() {
        use tensor_map_codes as codes;
        for c in 0..16 {
            assert_eq!(codes::data_type(c).unwrap() as u32, c);
        }
        for c in 0..3 {
            assert_eq!(codes::interleave(c).unwrap() as u32, c);
        }
        for c in 0..7 {
            assert_eq!(codes::swizzle(c).unwrap() as u32, c);
        }
        for c in 0..4 {
            assert_eq!(codes::l2_promotion(c).unwrap() as u32, c);
        }
        for c in 0..2 {
            assert_eq!(codes::oob_fill(c).unwrap() as u32, c);
        }
        let e = codes::data_type(16).unwrap_err().to_string();
        assert!(e.contains("16 is no CUtensorMapDataType"), "{e}");
        assert!(codes::interleave(3).is_err() && codes::swizzle(7).is_err());
        assert!(codes::l2_promotion(4).is_err() && codes::oob_fill(2).is_err());
    }

    #[test]
    fn tensor_map_arrays_must_match_the_rank() {
        let tiled = WireTensorMap {
            im2col: None,
            dtype: 7,
            dims: vec![40, 20, 3],
            strides: vec![160, 3200],
            box_dims: vec![32, 8, 1],
            element_strides: vec![1, 1, 1],
            interleave: 0,
            swizzle: 0,
            l2_promotion: 0,
            oob_fill: 0,
        };
        assert!(tensor_map_lengths(&tiled).is_ok());
        let short = WireTensorMap { strides: vec![160], ..tiled.clone() };
        let e = tensor_map_lengths(&short).unwrap_err().to_string();
        assert!(e.contains("rank 3: strides has 1 entries, not 2"), "{e}");
        let im2col =
            WireIm2col { lower_corner: vec![0], upper_corner: vec![0], channels_per_pixel: 8, pixels_per_column: 8 };
        let with_box = WireTensorMap { im2col: Some(im2col.clone()), ..tiled.clone() };
        assert!(tensor_map_lengths(&with_box).unwrap_err().to_string().contains("box_dims"));
        let ok = WireTensorMap { im2col: Some(im2col.clone()), box_dims: Vec::new(), ..tiled.clone() };
        assert!(tensor_map_lengths(&ok).is_ok());
        let corners = WireIm2col { upper_corner: vec![0, 0], ..im2col };
        let bad = WireTensorMap { im2col: Some(corners), box_dims: Vec::new(), ..tiled };
        assert!(tensor_map_lengths(&bad).unwrap_err().to_string().contains("upper_corner"));
    }

    #[test]
    fn tensor_maps_and_scalars_sit_at_their_alignment() {
        let p = KernelParams::new().u32(7).aligned(64, &[0xAB; 128]).u64(5).aligned(2, &[1, 2]).aligned(1, &[9, 9, 9]);
        let b = p.bytes();
        assert_eq!(&b[..4], &7u32.to_le_bytes());
        assert!(b[4..64].iter().all(|&x| x == 0));
        assert!(b[64..192].iter().all(|&x| x == 0xAB));
        assert_eq!(&b[192..200], &5u64.to_le_bytes());
        assert_eq!(&b[200..205], &[1, 2, 9, 9, 9]);
        assert_eq!(b.len(), 205);
    }

    #[test]
    fn kernel_params_are_aligned_bytes() {
        let p = KernelParams::new().u64(1).u64(0x0102_0304_0506_0708);
        assert_eq!(p.bytes().len(), 16);
        assert_eq!(&p.bytes()[8..], &0x0102_0304_0506_0708u64.to_le_bytes());
    }
}
