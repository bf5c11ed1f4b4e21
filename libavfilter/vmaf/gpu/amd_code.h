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
 * Which AMD code object a device runs. Each kernels file is embedded as a
 * clang offload bundle of code objects, one per target ("gfx1201",
 * "gfx90a:xnack+", "gfx11-generic"). The runtime hands HIP the one for the
 * device's architecture (HIP's gcnArchName), chosen here: that processor's,
 * else its family's generic one, else none (the GPU path then says so and
 * the CPU scores). Plain functions over bytes, so tests drive them with any
 * bundle and any device name.
 */

#ifndef AVFILTER_VMAF_GPU_AMD_CODE_H
#define AVFILTER_VMAF_GPU_AMD_CODE_H

#include <stddef.h>
#include <stdint.h>

/** One code object of a bundle. */
typedef struct FFGpuAmdCode {
    const uint8_t *image;               ///< an ELF code object
    size_t size;
    char target[64];                    ///< its target ID: "gfx1201", "gfx90a:xnack+"
} FFGpuAmdCode;

/** More than any bundle holds (the build makes 16). */
#define FF_GPU_AMD_MAX_CODES 64

/**
 * The AMD code objects of a clang offload bundle (HIP, code object v4 and
 * later; an uncompressed bundle), in its order, at most max of them. size
 * is the bundle's, or 0 to trust its header (an embedded bundle, whose
 * length the runtime is not given).
 *
 * @return the number stored, or AVERROR_INVALIDDATA when bundle is none
 */
int ff_gpu_amd_codes(const uint8_t *bundle, size_t size, FFGpuAmdCode *codes, int max);

/**
 * The generic target of arch's family ("gfx11-generic" for "gfx1151",
 * "gfx9-generic" for "gfx906:xnack-"), or NULL where there is none (gfx908,
 * gfx90a) or arch is unknown.
 */
const char *ff_gpu_amd_generic(const char *arch);

/**
 * The code object for a device of architecture arch (HIP's gcnArchName:
 * "gfx1201", "gfx90a:sramecc+:xnack-"): one of its processor whose target
 * features (xnack, sramecc) the device has as set, the one naming the most;
 * else the same of its family's generic target.
 *
 * @return its index in codes, or -1 when none runs there
 */
int ff_gpu_amd_pick(const FFGpuAmdCode *codes, int nb, const char *arch);

/**
 * The architecture name in what hipGetDeviceProperties() wrote to props
 * (size bytes): its one string that starts a field with "gfx" and a digit
 * (gcnArchName), whichever layout of the structure this runtime has.
 *
 * @return 0 with arch set, or AVERROR(ENOENT)
 */
int ff_gpu_amd_arch_in(const uint8_t *props, size_t size, char *arch, size_t arch_size);

#endif /* AVFILTER_VMAF_GPU_AMD_CODE_H */
