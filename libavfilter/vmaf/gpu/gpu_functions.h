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
 * The function table behind the GPU runtime (gpu_runtime.c): filled from
 * the HIP runtime, the CUDA driver, or the simulated GPU of the tests
 * (gpu_simulated.c).
 */

#ifndef AVFILTER_VMAF_GPU_GPU_FUNCTIONS_H
#define AVFILTER_VMAF_GPU_GPU_FUNCTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_runtime.h"

/* The shapes shared by the CUDA driver API and HIP's module API. Device
 * pointers are 64-bit integers in CUDA and void * in HIP: the same on
 * every platform either runs on. */
typedef struct GpuFunctions {
    int (*init)(unsigned flags);
    int (*device_count)(int *n);
    int (*module_load)(FFGpuModule *m, const void *image);
    int (*module_unload)(FFGpuModule m);
    int (*module_function)(FFGpuFunction *f, FFGpuModule m, const char *name);
    int (*launch)(FFGpuFunction f, unsigned gx, unsigned gy, unsigned gz,
                  unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                  FFGpuStream s, void **args, void **extra);
    int (*malloc)(FFGpuPtr *p, size_t size);
    int (*free)(FFGpuPtr p);
    int (*host_alloc)(void **p, size_t size, unsigned flags);
    int (*host_free)(void *p);
    int (*stream_create)(FFGpuStream *s, unsigned flags);
    int (*stream_destroy)(FFGpuStream s);
    int (*stream_sync)(FFGpuStream s);
    int (*event_create)(FFGpuEvent *e, unsigned flags);
    int (*event_destroy)(FFGpuEvent e);
    int (*event_record)(FFGpuEvent e, FFGpuStream s);
    int (*event_sync)(FFGpuEvent e);
    int (*event_query)(FFGpuEvent e);
    int (*event_elapsed)(float *ms, FFGpuEvent start, FFGpuEvent end);
    int (*stream_wait_event)(FFGpuStream s, FFGpuEvent e, unsigned flags);
    int (*upload)(FFGpuPtr dst, const void *src, size_t size, FFGpuStream s);
    int (*download)(void *dst, FFGpuPtr src, size_t size, FFGpuStream s);
    int (*memset8)(FFGpuPtr dst, unsigned char v, size_t size, FFGpuStream s);

    /* CUDA: explicit primary context. */
    int (*cu_device_get)(int *dev, int ordinal);
    int (*cu_device_name)(char *name, int len, int dev);
    int (*cu_ctx_retain)(void **ctx, int dev);
    int (*cu_ctx_release)(int dev);
    int (*cu_ctx_push)(void *ctx);
    int (*cu_ctx_pop)(void **ctx);
    int (*cu_error_name)(int err, const char **name);
    int (*cu_ctx_get_device)(int *dev);
    /* HIP: the device is per thread state. */
    int (*hip_set_device)(int dev);
    int (*hip_device_name)(char *name, int len, int dev);
    const char *(*hip_error_name)(int err);

    /* Optional (CUDA 12.4 and later; NULL elsewhere): a kernel's parameter
     * layout, to record launches, and graphs made by stream capture, to
     * run recorded work again with one call (gpu_graph.c). */
    int (*func_param_info)(FFGpuFunction f, size_t index, size_t *offset, size_t *size);
    int (*capture_begin)(FFGpuStream s, int mode);
    int (*capture_end)(FFGpuStream s, void **graph);
    int (*graph_instantiate)(void **exec, void *graph, unsigned long long flags);
    int (*graph_launch)(void *exec, FFGpuStream s);
    int (*graph_exec_destroy)(void *exec);
    int (*graph_destroy)(void *graph);
} GpuFunctions;

/** Kernels whose parameter layouts a GPU remembers (gpu_graph.c). */
#define FF_GPU_LAYOUTS 512
#define FF_GPU_MAX_PARAMS 32

typedef struct FFGpuLayout {
    FFGpuFunction fn;           ///< NULL: a free entry
    int nb;                     ///< parameters; -1: unknown
    uint16_t offset[FF_GPU_MAX_PARAMS], size[FF_GPU_MAX_PARAMS];
} FFGpuLayout;

struct FFGpu {
    enum FFGpuPlatform platform;
    void *lib;
    void *log_ctx;
    GpuFunctions fn;
    int device;
    void *cu_ctx;
    int borrowed_ctx;           ///< cu_ctx is the caller's (hardware frames'): not released
    int quiet;                  ///< the warm-up: logs nothing, the real open will
    char name[256];
    /** HIP: the architecture (gcnArchName, "gfx1201"), which picks the code
     *  objects (amd_code.h); empty when the runtime does not tell. The
     *  simulated GPU has VMAF_HIP_SIMULATE_GPU_ARCH's. */
    char arch[64];
    int arch_told;              ///< the choice of code object was logged

    /* Recording (gpu_graph.c): launches and memsets queued on rec_stream
     * are appended to rec instead of run, through the recorder's calls, so
     * that the runtime does not depend on the recorder. */
    FFGpuWork *rec;
    const struct FFGpuRecorder *recorder;
    FFGpuStream rec_stream;
    FFGpuLayout *layouts;       ///< FF_GPU_LAYOUTS entries, made at the first recording
};

/** Log a failed call by name; 0 when err is 0, else AVERROR_EXTERNAL. */
int ff_gpu_check(const FFGpu *g, int err, const char *call);

/** What a recording does with the work the runtime is given (gpu_graph.c). */
typedef struct FFGpuRecorder {
    /**
     * Work queued on stream s other than a launch or a memset: the work
     * recorded on s so far runs first, and the recording ends there.
     */
    int (*flush)(FFGpu *g, FFGpuStream s);
    /** ff_gpu_launch() and ff_gpu_memset() while recording on rec_stream. */
    int (*launch)(FFGpu *g, FFGpuFunction fn, const char *name,
                  unsigned gx, unsigned gy, unsigned bx, unsigned by, void **args);
    int (*memset)(FFGpu *g, FFGpuPtr dst, int value, size_t size);
} FFGpuRecorder;

/**
 * The simulated GPU (VMAF_HIP_SIMULATE_GPU=1 in the environment): memory,
 * copies, streams and events work, in host memory, and every kernel launch
 * fails, as a GPU that breaks at its first frame. It lets machines without
 * a GPU run the engine's GPU set-up and its move to the CPU.
 */
void ff_gpu_simulated_functions(GpuFunctions *fn);
#define FF_GPU_SIMULATED_LAUNCH_ERROR 719  ///< as CUDA's "launch failed"

#endif /* AVFILTER_VMAF_GPU_GPU_FUNCTIONS_H */
