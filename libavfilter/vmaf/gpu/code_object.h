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
 * The embedded code objects of the GPU kernels and the GPU twins' table.
 *
 * Each kernels file foo.hip is built, when the compilers were found at
 * configure time, into an NVIDIA fatbin (ff_foo_fatbin_data) and an AMD
 * offload bundle (ff_foo_hsaco_data), both embedded with bin2c.
 */

#ifndef AVFILTER_VMAF_GPU_CODE_OBJECT_H
#define AVFILTER_VMAF_GPU_CODE_OBJECT_H

#include "config.h"

typedef struct FFVmafGpuCode {
    const char *name;                   ///< the .hip file
    const unsigned char *nv, *amd;      ///< NULL when not built
    const unsigned int *nv_len, *amd_len;
    const char *const *kernels;         ///< every kernel the host looks up
} FFVmafGpuCode;

#if CONFIG_HIP_NV
#define FF_GPU_DECLARE_NV(name) \
    extern const unsigned char ff_##name##_fatbin_data[]; \
    extern const unsigned int  ff_##name##_fatbin_len;
#define FF_GPU_NV(name)     ff_##name##_fatbin_data
#define FF_GPU_NV_LEN(name) &ff_##name##_fatbin_len
#else
#define FF_GPU_DECLARE_NV(name)
#define FF_GPU_NV(name)     NULL
#define FF_GPU_NV_LEN(name) NULL
#endif

#if CONFIG_HIP_AMD
#define FF_GPU_DECLARE_AMD(name) \
    extern const unsigned char ff_##name##_hsaco_data[]; \
    extern const unsigned int  ff_##name##_hsaco_len;
#define FF_GPU_AMD(name)     ff_##name##_hsaco_data
#define FF_GPU_AMD_LEN(name) &ff_##name##_hsaco_len
#else
#define FF_GPU_DECLARE_AMD(name)
#define FF_GPU_AMD(name)     NULL
#define FF_GPU_AMD_LEN(name) NULL
#endif

/** Declare and describe the code objects of name.hip. */
#define FF_VMAF_GPU_CODE(name, kernel_list)                        \
    FF_GPU_DECLARE_NV(name)                                        \
    FF_GPU_DECLARE_AMD(name)                                       \
    const FFVmafGpuCode ff_vmaf_gpu_code_##name = {                \
        #name, FF_GPU_NV(name), FF_GPU_AMD(name),                  \
        FF_GPU_NV_LEN(name), FF_GPU_AMD_LEN(name), kernel_list,    \
    }

/** Every code object, NULL-terminated. */
extern const FFVmafGpuCode *const ff_vmaf_gpu_codes[];

#endif /* AVFILTER_VMAF_GPU_CODE_OBJECT_H */
