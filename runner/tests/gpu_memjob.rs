//! Memory jobs on the GPU (`Backend::run_mem`, the worker's `memjob`): hand-written sm_90
//! kernels over global buffers whose expected bytes the tests compute by hand — a copy through
//! pointer parameters with offsets (allocation, alignment, offsets, a raw scalar parameter), a
//! 256-byte `cp.async.bulk` into shared memory completing on an mbarrier, a 2-D TMA tile load
//! of a box inside the tensor and of one straddling its right and bottom edges (zero fill), a
//! tensor map the driver refuses (`EncodeRejected`), a cluster launch (`%cluster_ctarank`),
//! dynamic shared memory above 48 KiB, and a kernel waiting forever on an mbarrier (a hang
//! finding, after which the same backend runs the next job); a job of three launches of one
//! module (one outcome each), and one whose middle launch hangs (the hang is that launch's
//! alone: the job runs again launch by launch). Each case runs on `cuda:jit` and,
//! with a ptxas, on `cuda:ptxas-O3` from cubins assembled here. Without a GPU those tests skip
//! cleanly; every kernel's PTX is still assembled by the local ptxas for sm_90, and the
//! backends without a GPU must refuse memory jobs as an environment error.

mod common;

use std::path::Path;
use std::time::Duration;

use oracle::semantics::Allowances;
use runner::backend::pool::Devices;
use runner::backend::{Backend, BackendError, Failure, MemJob, MemLaunch, Registry, Settings};
use runner::worker::{Executor, JobBuffer, JobParam, MemOutcome, WireTensorMap};

const COPY: &str = r".version 8.0
.target sm_90
.address_size 64

.visible .entry copy(.param .u64 src, .param .u64 dst, .param .u64 probe, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [dst];
  ld.param.u64 %rd3, [probe];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra COPY;
  cvt.u32.u64 %r3, %rd1;
  and.b32 %r3, %r3, 4095;
  st.global.u32 [%rd3], %r3;
  cvt.u32.u64 %r4, %rd2;
  and.b32 %r4, %r4, 4095;
  st.global.u32 [%rd3+4], %r4;
COPY:
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd4, %r2, 4;
  add.u64 %rd5, %rd1, %rd4;
  add.u64 %rd6, %rd2, %rd4;
  ld.global.u32 %r5, [%rd5];
  st.global.u32 [%rd6], %r5;
DONE:
  ret;
}
";

const BULK: &str = r".version 8.0
.target sm_90
.address_size 64

.visible .entry bulk(.param .u64 src, .param .u64 dst)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .shared .align 128 .b8 window[256];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [dst];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra SYNC;
  mbarrier.init.shared::cta.b64 [bar], 1;
  fence.proxy.async.shared::cta;
SYNC:
  bar.sync 0;
  @%p1 bra WAIT;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [bar], 256;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [window], [%rd1], 256, [bar];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  mov.u32 %r2, window;
  shl.b32 %r3, %r1, 2;
  add.u32 %r2, %r2, %r3;
  ld.shared.u32 %r4, [%r2];
  mul.wide.u32 %rd4, %r1, 4;
  add.u64 %rd5, %rd2, %rd4;
  st.global.u32 [%rd5], %r4;
  ret;
}
";

/// The tensor map is a `.param .align 64 .b8 [128]` of the entry. ptxas 13.5 refuses the param
/// symbol itself as the tensorMap operand ("State space mismatch between instruction and
/// address"), so the kernel takes its generic address (`mov` + `cvta.param`), as CUTLASS's
/// `__grid_constant__` maps compile.
const TILE: &str = r".version 8.0
.target sm_90
.address_size 64

.visible .entry tile(.param .align 64 .b8 tmap[128], .param .u64 dst, .param .u32 x0, .param .u32 y0, .param .u32 x1, .param .u32 y1)
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  .shared .align 128 .b8 window[256];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd2, [dst];
  mov.u64 %rd6, tmap;
  cvta.param.u64 %rd6, %rd6;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra SYNC;
  mbarrier.init.shared::cta.b64 [bar], 1;
  fence.proxy.async.shared::cta;
SYNC:
  bar.sync 0;
  @%p1 bra WAIT;
  ld.param.u32 %r5, [x0];
  ld.param.u32 %r6, [y0];
  ld.param.u32 %r7, [x1];
  ld.param.u32 %r8, [y1];
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [bar], 256;
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [window], [%rd6, {%r5, %r6}], [bar];
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [window+128], [%rd6, {%r7, %r8}], [bar];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  mov.u32 %r2, window;
  shl.b32 %r3, %r1, 2;
  add.u32 %r2, %r2, %r3;
  ld.shared.u32 %r4, [%r2];
  mul.wide.u32 %rd4, %r1, 4;
  add.u64 %rd5, %rd2, %rd4;
  st.global.u32 [%rd5], %r4;
  ret;
}
";

const RANK: &str = r".version 8.0
.target sm_90
.address_size 64

.visible .entry rank(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %ctaid.x;
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
DONE:
  ret;
}
";

const HANG: &str = r".version 8.0
.target sm_90
.address_size 64

.visible .entry hang(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b64 %rd<3>;
  .shared .align 8 .b64 bar;
  mbarrier.init.shared::cta.b64 [bar], 1;
  bar.sync 0;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0;
  @!%p1 bra WAIT;
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], 1;
  ret;
}
";

const DYNAMIC: &str = r".version 8.0
.target sm_90
.address_size 64

.extern .shared .align 16 .b8 dyn[];

.visible .entry dynamic(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, dyn;
  add.u32 %r2, %r2, 65536;
  shl.b32 %r3, %r1, 2;
  sub.u32 %r4, %r2, %r3;
  add.u32 %r5, %r1, 256;
  st.shared.u32 [%r4+-4], %r5;
  bar.sync 0;
  sub.u32 %r6, 31, %r1;
  shl.b32 %r6, %r6, 2;
  sub.u32 %r6, %r2, %r6;
  ld.shared.u32 %r7, [%r6+-4];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
";

/// Every kernel of this file: (entry, PTX).
const KERNELS: [(&str, &str); 6] =
    [("copy", COPY), ("bulk", BULK), ("tile", TILE), ("rank", RANK), ("hang", HANG), ("dynamic", DYNAMIC)];

fn registry(workers: usize) -> Registry {
    std::env::set_var("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"));
    Registry::new(Settings {
        ptxas: Vec::new(),
        devices: Devices::default(),
        workers: Some(workers),
        allow: Allowances::all(),
        sweep_timeout: Duration::from_secs(60),
    })
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn buffer(len: u64, align: u64, init: impl Fn(u64) -> u8) -> JobBuffer {
    JobBuffer { len, align, init: (0..len).map(init).collect() }
}

/// A one-CTA spec of `threads` threads running `entry` (its PTX from [`KERNELS`]).
fn spec(entry: &str, threads: u32, buffers: Vec<JobBuffer>, params: Vec<JobParam>, read: Vec<usize>) -> MemJob {
    let ptx = KERNELS.iter().find(|k| k.0 == entry).map(|k| k.1).expect("a kernel of this file");
    MemJob {
        // The backend that runs the job sets both.
        id: 0,
        executor: Executor::Oracle,
        ptx: ptx.to_string(),
        cubin: None,
        launches: vec![MemLaunch {
            entry: entry.into(),
            block: [threads, 1, 1],
            grid: [1, 1, 1],
            cluster: [1, 1, 1],
            dynamic_shared: 0,
            buffers,
            params,
            read,
        }],
        timeout_ms: 60_000,
    }
}

fn u32_param(v: u32) -> JobParam {
    JobParam::Bytes(v.to_le_bytes().to_vec())
}

/// (a) `copy`: 14 words from `src + 8` to `dst + 16`; thread 0 writes the low 12 bits of both
/// pointers to `probe`. `src` is 256-aligned, `dst` 4096-aligned and filled with 0xEE.
fn copy_case() -> (MemJob, impl Fn(&[Vec<u8>])) {
    let src = |i: u64| (i * 3 + 1) as u8;
    let s = spec(
        "copy",
        32,
        vec![buffer(64, 256, src), buffer(80, 4096, |_| 0xEE), buffer(8, 8, |_| 0)],
        vec![
            JobParam::Pointer { buffer: 0, offset: 8 },
            JobParam::Pointer { buffer: 1, offset: 16 },
            JobParam::Pointer { buffer: 2, offset: 0 },
            u32_param(14),
        ],
        vec![1, 2],
    );
    let check = move |read: &[Vec<u8>]| {
        let mut want = vec![0xEEu8; 80];
        for i in 0..56 {
            want[16 + i] = src(8 + i as u64);
        }
        assert_eq!(read[0], want, "dst");
        let probe = words(&read[1]);
        assert_eq!(probe[0] % 256, 8, "src + 8 on a 256-aligned base: {:#x}", probe[0]);
        assert_eq!(probe[1], 16, "dst + 16 on a 4096-aligned base");
    };
    (s, check)
}

/// (b) `bulk`: 256 bytes through `cp.async.bulk` into shared memory, then back out.
fn bulk_case() -> (MemJob, impl Fn(&[Vec<u8>])) {
    let src = |i: u64| (i * 7 + 3) as u8;
    let s = spec(
        "bulk",
        64,
        vec![buffer(256, 16, src), buffer(256, 16, |_| 0)],
        vec![JobParam::Pointer { buffer: 0, offset: 0 }, JobParam::Pointer { buffer: 1, offset: 0 }],
        vec![1],
    );
    let check = move |read: &[Vec<u8>]| assert_eq!(read[0], (0..256).map(src).collect::<Vec<u8>>());
    (s, check)
}

/// The tensor of the tile cases: 20 × 12 `u32` elements, element (x, y) = 0x1000·y + x + 1.
const WIDTH: u32 = 20;
const HEIGHT: u32 = 12;

fn element(x: u32, y: u32) -> u32 {
    0x1000 * y + x + 1
}

/// A tiled `UINT32` map of `dims` with row stride `stride`, box 8 × 4, no swizzle, zero fill.
fn tile_map(dims: [u64; 2], stride: u64) -> WireTensorMap {
    WireTensorMap {
        im2col: None,
        dtype: 2,
        dims: dims.to_vec(),
        strides: vec![stride],
        box_dims: vec![8, 4],
        element_strides: vec![1, 1],
        interleave: 0,
        swizzle: 0,
        l2_promotion: 0,
        oob_fill: 0,
    }
}

/// Boxes at (4, 2) (inside) and (16, 10) (past the right and bottom edges).
const BOXES: [(u32, u32); 2] = [(4, 2), (16, 10)];

fn tile_spec(map: WireTensorMap) -> MemJob {
    let tensor: Vec<u8> = (0..HEIGHT).flat_map(|y| (0..WIDTH).flat_map(move |x| element(x, y).to_le_bytes())).collect();
    let mut params =
        vec![JobParam::TensorMap { buffer: 0, offset: 0, map }, JobParam::Pointer { buffer: 1, offset: 0 }];
    params.extend(BOXES.iter().flat_map(|&(x, y)| [u32_param(x), u32_param(y)]));
    spec(
        "tile",
        64,
        vec![JobBuffer { len: tensor.len() as u64, align: 256, init: tensor }, buffer(256, 16, |_| 0xA5)],
        params,
        vec![1],
    )
}

/// (c) `tile`: the two boxes, each laid out row by row (dim 0 innermost), 128 bytes apart;
/// elements outside the tensor are zero.
fn tile_case() -> (MemJob, impl Fn(&[Vec<u8>])) {
    let check = |read: &[Vec<u8>]| {
        let mut want = Vec::new();
        for (bx, by) in BOXES {
            for row in 0..4 {
                for col in 0..8 {
                    let (x, y) = (bx + col, by + row);
                    want.push(if x < WIDTH && y < HEIGHT { element(x, y) } else { 0 });
                }
            }
        }
        assert_eq!(words(&read[0]), want);
    };
    (tile_spec(tile_map([u64::from(WIDTH), u64::from(HEIGHT)], 4 * u64::from(WIDTH))), check)
}

/// (e) `rank`: two clusters of 2 CTAs; CTA i writes its `%cluster_ctarank` to word i.
fn rank_case() -> (MemJob, impl Fn(&[Vec<u8>])) {
    let mut s =
        spec("rank", 32, vec![buffer(16, 16, |_| 0xFF)], vec![JobParam::Pointer { buffer: 0, offset: 0 }], vec![0]);
    s.launches[0].grid = [4, 1, 1];
    s.launches[0].cluster = [2, 1, 1];
    (s, |read: &[Vec<u8>]| assert_eq!(words(&read[0]), [0, 1, 0, 1]))
}

/// (g) `dynamic`: 64 KiB of dynamic shared memory; thread i stores i + 256 at the top of it and
/// reads what thread 31 − i stored.
fn dynamic_case() -> (MemJob, impl Fn(&[Vec<u8>])) {
    let mut s =
        spec("dynamic", 32, vec![buffer(128, 16, |_| 0)], vec![JobParam::Pointer { buffer: 0, offset: 0 }], vec![0]);
    s.launches[0].dynamic_shared = 64 * 1024;
    (s, |read: &[Vec<u8>]| assert_eq!(words(&read[0]), (0..32).map(|i| 287 - i).collect::<Vec<u32>>()))
}

/// (f) `hang`: one thread waits forever on an mbarrier nobody arrives at.
fn hang_spec() -> MemJob {
    let mut s = spec("hang", 1, vec![buffer(4, 4, |_| 0)], vec![JobParam::Pointer { buffer: 0, offset: 0 }], vec![0]);
    s.timeout_ms = 15_000;
    s
}

/// The one outcome of a job of one launch.
fn only(r: &Result<Vec<MemOutcome>, String>) -> Result<&MemOutcome, String> {
    match r {
        Ok(o) if o.len() == 1 => Ok(&o[0]),
        Ok(o) => Err(format!("{} outcomes for one launch: {o:?}", o.len())),
        Err(e) => Err(e.clone()),
    }
}

fn done(backend: &str, case: &str, r: &Result<Vec<MemOutcome>, String>) -> Vec<Vec<u8>> {
    match only(r) {
        Ok(MemOutcome::Done { buffers }) => buffers.clone(),
        other => panic!("{backend}, {case}: {other:?}"),
    }
}

/// With `cubins`, each spec gets the cubin of its module (named after its first entry) from
/// that directory.
fn with_cubin(mut s: MemJob, cubins: Option<&Path>) -> MemJob {
    s.cubin = cubins.map(|d| d.join(format!("{}.cubin", s.launches[0].entry)));
    s
}

/// The module of `copy` and `hang` together (its cubin is `copy_hang.cubin`).
fn copy_hang_module() -> String {
    let body = HANG.split_once(".address_size 64").map(|(_, b)| b).unwrap_or(HANG);
    format!("{COPY}{body}")
}

/// One job of three launches of one module: `copy`, `hang`, `copy` with its own buffers each.
/// The job hangs as a whole; the launches run again alone, so only `hang` is the hang.
fn copy_hang_job(cubins: Option<&Path>) -> MemJob {
    let (copy, _) = copy_case();
    let mut job = MemJob {
        ptx: copy_hang_module(),
        cubin: cubins.map(|d| d.join("copy_hang.cubin")),
        launches: vec![copy.launches[0].clone(), hang_spec().launches[0].clone(), copy.launches[0].clone()],
        ..copy
    };
    job.timeout_ms = hang_spec().timeout_ms;
    job
}

/// Every case on `backend` (see the module docs).
fn run_cases(backend: &mut dyn Backend, cubins: Option<&Path>) {
    let name = backend.name();
    let (copy, check_copy) = copy_case();
    let (bulk, check_bulk) = bulk_case();
    let (tile, check_tile) = tile_case();
    let (rank, check_rank) = rank_case();
    let (dynamic, check_dynamic) = dynamic_case();
    let bad = tile_spec(tile_map([21, u64::from(HEIGHT)], 84));
    let specs: Vec<MemJob> =
        [copy.clone(), bulk, tile, bad, rank, dynamic].into_iter().map(|s| with_cubin(s, cubins)).collect();
    let results = backend.run_mem(&specs);
    assert_eq!(results.len(), specs.len());
    // One job, three launches of the copy kernel, each over its own buffers: one outcome each.
    let mut three = with_cubin(copy.clone(), cubins);
    three.launches = vec![copy.launches[0].clone(); 3];
    match &backend.run_mem(&[three])[..] {
        [Ok(outcomes)] if outcomes.len() == 3 => {
            for o in outcomes {
                check_copy(&done(&name, "copy, one of three launches", &Ok(vec![o.clone()])));
            }
        }
        other => panic!("{name}: three launches of one job: {other:?}"),
    }
    check_copy(&done(&name, "copy", &results[0]));
    check_bulk(&done(&name, "bulk", &results[1]));
    check_tile(&done(&name, "tile", &results[2]));
    match only(&results[3]) {
        Ok(MemOutcome::EncodeRejected { param: 0, error }) => {
            assert!(error.starts_with("CUDA_ERROR_"), "{error}");
            eprintln!("{name}: a row stride of 84 bytes: {error}");
        }
        other => panic!("{name}: a stride that is not a multiple of 16 must be refused by the encoder: {other:?}"),
    }
    check_rank(&done(&name, "rank", &results[4]));
    check_dynamic(&done(&name, "dynamic", &results[5]));
    let after = backend.run_mem(&[with_cubin(hang_spec(), cubins), with_cubin(copy.clone(), cubins)]);
    match only(&after[0]) {
        Ok(MemOutcome::Failed(Failure::Crash { how, .. })) if how == "hang" => {}
        other => panic!("{name}: a wait that never completes must be a hang: {other:?}"),
    }
    check_copy(&done(&name, "copy after the hang", &after[1]));
    // A hang inside a job of several launches is the hanging launch's alone.
    match &backend.run_mem(&[copy_hang_job(cubins)])[..] {
        [Ok(outcomes)] if outcomes.len() == 3 => {
            check_copy(&done(&name, "copy before the hang", &Ok(vec![outcomes[0].clone()])));
            match &outcomes[1] {
                MemOutcome::Failed(Failure::Crash { how, .. }) if how == "hang" => {}
                other => panic!("{name}: the hanging launch of the job: {other:?}"),
            }
            check_copy(&done(&name, "copy after the hang", &Ok(vec![outcomes[2].clone()])));
        }
        other => panic!("{name}: a job with a hanging launch: {other:?}"),
    }
}

#[test]
fn every_kernel_assembles_for_sm_90() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    for (entry, ptx) in KERNELS {
        let asm = ptxas.assemble(ptx, "sm_90", 3, None).expect("ptxas runs");
        assert!(asm.ok, "{entry}: {}", asm.output);
    }
    let asm = ptxas.assemble(&copy_hang_module(), "sm_90", 3, None).expect("ptxas runs");
    assert!(asm.ok, "copy_hang: {}", asm.output);
}

#[test]
fn backends_without_a_gpu_refuse_memory_jobs_as_an_environment_error() {
    let registry = registry(1);
    let (copy, _) = copy_case();
    for name in ["oracle", "oracle-worker"] {
        let mut b = registry.build(name).expect("runs without a GPU");
        let r = b.run_mem(&[copy.clone(), copy.clone()]);
        assert_eq!(r.len(), 2);
        for x in r {
            let why = x.expect_err("no memory jobs");
            assert!(why.contains(name) && why.contains("does not run memory jobs"), "{why}");
        }
    }
}

#[test]
fn memory_jobs_run_on_the_gpu() {
    // One worker, so the job after the hang runs on the restarted worker of the same slot.
    let registry = registry(1);
    let mut jit = match registry.build("cuda:jit") {
        Ok(b) => b,
        Err(BackendError::Unavailable { why, .. }) => {
            common::skip("no GPU", &why);
            return;
        }
        Err(e) => panic!("{e}"),
    };
    run_cases(jit.as_mut(), None);
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let copy_hang = copy_hang_module();
    for (entry, ptx) in KERNELS.into_iter().chain([("copy_hang", copy_hang.as_str())]) {
        let cubin = dir.path().join(format!("{entry}.cubin"));
        let asm = ptxas.assemble(ptx, "sm_90", 3, Some(&cubin)).expect("ptxas runs");
        assert!(asm.ok, "{entry}: {}", asm.output);
    }
    let mut o3 = registry.build("cuda:ptxas-O3").expect("a ptxas backend beside the JIT");
    run_cases(o3.as_mut(), Some(dir.path()));
    let e = o3.run_mem(&[copy_case().0]);
    assert!(matches!(&e[0], Err(why) if why.contains("cubin")), "a ptxas backend needs the cubin: {e:?}");
}
