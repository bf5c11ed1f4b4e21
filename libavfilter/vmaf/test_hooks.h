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
 * Test hooks, all in one place and none of them an option a user sees:
 * environment variables that tests set to drive the GPU paths on machines
 * without a GPU, or to make a real GPU fail where they choose.
 *
 * - VMAF_HIP_SIMULATE_GPU=1: a simulated GPU (gpu/gpu_simulated.c) whose
 *   kernels fail at the first frame;
 * - VMAF_HIP_SIMULATE_START_MS=N: the simulated GPU takes N ms to start;
 * - VMAF_HIP_SIMULATE_GPU_ARCH=gfx1201: the simulated GPU is an AMD one of
 *   that architecture, which picks its code objects as a real one does;
 * - VMAF_HIP_GPU_FAIL_AT=N: the GPU path fails at frame N, to exercise
 *   the move to the CPU on a real GPU;
 * - VMAF_HIP_CHUNK_CONTEXT=B,A: a chunk of a run is given B frames before
 *   it and A after it, whatever its features need, to show that a chunk
 *   without the context it needs gives other values than the whole run.
 */

#ifndef AVFILTER_VMAF_TEST_HOOKS_H
#define AVFILTER_VMAF_TEST_HOOKS_H

#include <stdint.h>

/** Whether the simulated GPU stands in for a real one. */
int ff_vmaf_test_simulated_gpu(void);
/** The simulated GPU's start in ms (0: at once). */
int ff_vmaf_test_simulated_start_ms(void);
/** The simulated GPU's AMD architecture ("gfx1201"), or NULL: none. */
const char *ff_vmaf_test_simulated_arch(void);
/** The frame at which the GPU path must fail (-1: never). */
int64_t ff_vmaf_test_gpu_fail_at(void);

/** The frames around a chunk, when a test sets them (1), else 0. */
int ff_vmaf_test_chunk_context(int *before, int *after);

#endif /* AVFILTER_VMAF_TEST_HOOKS_H */
