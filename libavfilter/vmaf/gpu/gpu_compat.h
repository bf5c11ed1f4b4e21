/*
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */


/**
 * @file
 * The one header every kernel includes: the same .hip source builds with
 * hipcc (AMD) and with nvcc -x cu (NVIDIA).
 *
 * Reductions shuffle with a fixed width of 32 lanes: right on NVIDIA (32),
 * RDNA (wave32) and CDNA (wave64, where it stays within each half), so no
 * kernel depends on the wave size. Sums are 64-bit integers added with
 * atomics, which makes them independent of the order blocks finish in.
 */

#ifndef AVFILTER_VMAF_GPU_GPU_COMPAT_H
#define AVFILTER_VMAF_GPU_GPU_COMPAT_H

#if defined(__HIP__) || defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define GPU_SHFL_DOWN32(v, d) __shfl_down((v), (d), 32)
#elif defined(__CUDACC__)
#define GPU_SHFL_DOWN32(v, d) __shfl_down_sync(0xffffffffu, (v), (d), 32)
#else
#error "Compile kernels with hipcc or nvcc -x cu."
#endif

#include <stddef.h>
#include <stdint.h>

typedef unsigned long long gpu_u64;
typedef long long gpu_i64;

/** Every kernel the host looks up by name. */
#define GPU_KERNEL extern "C" __global__

/**
 * Sum v over the block and add it to *out: a shared-memory tree down to 32
 * partials, then a 32-lane shuffle. Every thread of the block must call it.
 * threads: the block size, a power of two >= 32.
 */
template <int threads>
__device__ static inline void gpu_block_sum_u64(gpu_u64 v, gpu_u64 *out)
{
    __shared__ gpu_u64 part[threads];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;

    part[tid] = v;
    __syncthreads();
    for (int s = threads / 2; s >= 32; s >>= 1) {
        if (tid < s)
            part[tid] += part[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        gpu_u64 r = part[tid];
        for (int d = 16; d > 0; d >>= 1)
            r += GPU_SHFL_DOWN32(r, d);
        if (tid == 0)
            atomicAdd(out, r);
    }
}

/** Reflect-101 mirror: -i -> i, n - 1 + i -> n - 1 - i. */
__device__ static inline int gpu_mirror101(int i, int n)
{
    if (i < 0)
        i = -i;
    if (i >= n)
        i = 2 * n - 2 - i;
    return i;
}

#endif /* AVFILTER_VMAF_GPU_GPU_COMPAT_H */
