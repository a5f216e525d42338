// Dumps NVIDIA's host emulation of FP8/FP6/FP4/UE8M0 conversions (cuda_fp8.hpp, cuda_fp6.hpp,
// cuda_fp4.hpp from the CUDA 13.5 runtime wheel), compiled host-only with g++, for the
// cross-check in ../nvidia_host.rs. This is NVIDIA's software model of the conversions, the
// best reference we have for forms no available GPU runs (sm_100a+).
//
// Output, one line per input:
//   "F <f32 bits> <e4m3> <e5m2> <e2m3> <e3m2> <e2m1> <e8m0 rz> <e8m0 rz sat> <e8m0 rp> <e8m0 rp sat>"
//   "D <code> <e4m3->f16> <e5m2->f16> <e2m3->f16> <e3m2->f16> <e2m1->f16> <e8m0->bf16>"  (codes 0..255)
// All values hex. Inputs: every f32 exponent and sign with edge mantissas (ties, ties +/- 1,
// all-ones, sticky patterns at every bit), then 2^20 pseudo-random f32 bit patterns.
#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static float as_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

static void line(uint32_t u) {
    float x = as_float(u);
    unsigned e4 = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
    unsigned e5 = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
    unsigned f63 = __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest);
    unsigned f62 = __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest);
    unsigned f4 = __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest);
    unsigned z = __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundZero);
    unsigned zs = __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundZero);
    unsigned p = __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundPosInf);
    unsigned ps = __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf);
    std::printf("F %08x %02x %02x %02x %02x %x %02x %02x %02x %02x\n", u, e4, e5, f63, f62, f4, z, zs, p, ps);
}

int main() {
    for (uint32_t sign = 0; sign < 2; ++sign)
        for (uint32_t e = 0; e < 256; ++e) {
            uint32_t base = (sign << 31) | (e << 23);
            line(base);
            for (uint32_t bit = 0; bit < 23; ++bit) {
                uint32_t t = 1u << bit, m = 0x7fffffu;
                uint32_t ms[] = {t, t - 1, t + 1, (t << 1) - 1, m ^ t, m & ~(t - 1), t | 1};
                for (uint32_t v : ms) line(base | (v & m));
            }
        }
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < (1 << 20); ++i) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        line((uint32_t)(s >> 16));
    }
    for (unsigned c = 0; c < 256; ++c) {
        unsigned h4 = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E4M3).x;
        unsigned h5 = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E5M2).x;
        unsigned h63 = __nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)(c & 0x3f), __NV_E2M3).x;
        unsigned h62 = __nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)(c & 0x3f), __NV_E3M2).x;
        unsigned h4b = __nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)(c & 0xf), __NV_E2M1).x;
        unsigned b8 = __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)c).x;
        std::printf("D %02x %04x %04x %04x %04x %04x %04x\n", c, h4, h5, h63, h62, h4b, b8);
    }
    return 0;
}
