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
 * What every x86 SIMD file of the engine starts with.
 *
 * The files are compiled with FFmpeg's flags like the rest of the engine
 * (no -mavx2: the binary must run on any x86-64); each turns its
 * instruction set on for its own functions between
 * FF_VMAF_TARGET_BEGIN("avx2") and FF_VMAF_TARGET_END, and is only called
 * through a dsp context whose init checked av_get_cpu_flags().
 */

#ifndef AVFILTER_VMAF_X86_SIMD_H
#define AVFILTER_VMAF_X86_SIMD_H

#include <immintrin.h>

#define FF_VMAF_PRAGMA(x) _Pragma(#x)

#if defined(__clang__)
#define FF_VMAF_TARGET_BEGIN(isa) \
    FF_VMAF_PRAGMA(clang attribute push(__attribute__((target(isa))), apply_to = function))
#define FF_VMAF_TARGET_END FF_VMAF_PRAGMA(clang attribute pop)
#else
#define FF_VMAF_TARGET_BEGIN(isa) FF_VMAF_PRAGMA(GCC push_options) FF_VMAF_PRAGMA(GCC target(isa))
#define FF_VMAF_TARGET_END FF_VMAF_PRAGMA(GCC pop_options)
#endif

/** The AVX-512 subset the engine's kernels use (Skylake-SP and later, Zen 4). */
#define FF_VMAF_AVX512 "avx512f,avx512bw,avx512vl,avx512dq,avx2"

#endif /* AVFILTER_VMAF_X86_SIMD_H */
