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


#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_hooks.h"

int ff_vmaf_test_simulated_gpu(void)
{
    const char *v = getenv("VMAF_HIP_SIMULATE_GPU");
    return v && !strcmp(v, "1");
}

int ff_vmaf_test_simulated_start_ms(void)
{
    const char *v = getenv("VMAF_HIP_SIMULATE_START_MS");
    return v && atoi(v) > 0 ? atoi(v) : 0;
}

const char *ff_vmaf_test_simulated_arch(void)
{
    const char *v = getenv("VMAF_HIP_SIMULATE_GPU_ARCH");
    return v && *v ? v : NULL;
}

int64_t ff_vmaf_test_gpu_fail_at(void)
{
    const char *v = getenv("VMAF_HIP_GPU_FAIL_AT");
    return v && *v ? strtoll(v, NULL, 10) : -1;
}

int ff_vmaf_test_chunk_context(int *before, int *after)
{
    const char *v = getenv("VMAF_HIP_CHUNK_CONTEXT");
    return v && sscanf(v, "%d,%d", before, after) == 2 && *before >= 0 && *after >= 0;
}
