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
 * A thin GPU runtime chosen at run time: the ROCm HIP runtime on AMD or the
 * CUDA driver on NVIDIA, both dlopen()ed, behind one function table. HIP's
 * module API copies the CUDA driver API call for call, so one table of the
 * same shapes serves both. Nothing here needs a GPU SDK to build or run.
 *
 * Every call is checked; a failure is logged with the name of the failing
 * call and the platform's error name, and returned as AVERROR_EXTERNAL.
 * Calls must be made between ff_gpu_enter() and ff_gpu_leave() on the
 * calling thread (CUDA contexts and HIP devices are per thread).
 */

#ifndef AVFILTER_VMAF_GPU_GPU_RUNTIME_H
#define AVFILTER_VMAF_GPU_GPU_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t FFGpuPtr;              ///< a device address
typedef struct FFGpu FFGpu;
typedef void *FFGpuStream;
typedef void *FFGpuEvent;
typedef void *FFGpuModule;
typedef void *FFGpuFunction;

enum FFGpuPlatform {
    FF_GPU_PLATFORM_HIP,                ///< AMD, through libamdhip64
    FF_GPU_PLATFORM_CUDA,               ///< NVIDIA, through libcuda
    FF_GPU_PLATFORM_SIMULATED,          ///< tests: VMAF_HIP_SIMULATE_GPU=1, kernels fail
};

/**
 * Open GPU number `device` of the first platform that answers (HIP, then
 * CUDA). AVERROR(ENODEV) with a logged reason when there is none. With
 * VMAF_HIP_SIMULATE_GPU=1 in the environment, a simulated GPU whose kernel
 * launches fail (gpu_simulated.c), for tests of the GPU failure path.
 */
int  ff_gpu_open(FFGpu **g, int device, void *log_ctx);
/**
 * Start loading the runtime and creating GPU device's context on a thread
 * of its own, once per process, so that a later ff_gpu_open() finds them
 * ready; the context then lives as long as the process.
 */
void ff_gpu_warm_up(int device);
/**
 * What a process pays, in ms, for using a GPU at all: the runtime's start
 * and its context's creation, and their end at exit (300 on an NVIDIA H200
 * host, doc/gpu-speed.md; the simulated GPU's VMAF_HIP_SIMULATE_START_MS).
 */
int  ff_gpu_start_cost_ms(void);
/**
 * 1 while the warm-up has found a GPU runtime and is still initialising it
 * or creating the context (ff_gpu_open() would wait), else 0: not started,
 * finished, or no runtime to load (waits the milliseconds that takes).
 */
int  ff_gpu_warm_up_pending(void);
void ff_gpu_close(FFGpu **g);

/**
 * Work in an existing CUDA context cu_ctx (a CUcontext: the one hardware
 * frames live in), whose device addresses the kernels can then read. The
 * context stays the caller's: ff_gpu_close() does not release it.
 */
int  ff_gpu_open_cuda_context(FFGpu **g, void *cu_ctx, void *log_ctx);

enum FFGpuPlatform ff_gpu_platform(const FFGpu *g);
const char *ff_gpu_platform_name(const FFGpu *g);
const char *ff_gpu_device_name(const FFGpu *g);

int ff_gpu_enter(FFGpu *g);
int ff_gpu_leave(FFGpu *g);

/**
 * Load the code object for this platform: amd (an offload bundle of AMD
 * code objects, of which the one for the device's architecture is loaded:
 * amd_code.h) or nv (an NVIDIA fatbin, from which the driver picks). A
 * missing one, or a bundle without code for the device, is AVERROR(ENOSYS).
 */
int ff_gpu_module_load(FFGpu *g, FFGpuModule *mod, const char *what,
                       const unsigned char *amd, const unsigned char *nv);
int ff_gpu_module_unload(FFGpu *g, FFGpuModule mod);
int ff_gpu_function(FFGpu *g, FFGpuModule mod, const char *name, FFGpuFunction *fn);

int ff_gpu_malloc(FFGpu *g, FFGpuPtr *p, size_t size);
int ff_gpu_free(FFGpu *g, FFGpuPtr *p);
/** Page-locked host memory, for asynchronous copies. */
int ff_gpu_host_alloc(FFGpu *g, void **p, size_t size);
int ff_gpu_host_free(FFGpu *g, void **p);

int ff_gpu_stream_create(FFGpu *g, FFGpuStream *s);
int ff_gpu_stream_destroy(FFGpu *g, FFGpuStream *s);
int ff_gpu_stream_sync(FFGpu *g, FFGpuStream s);
int ff_gpu_event_create(FFGpu *g, FFGpuEvent *e);
/** An event that can be timed (ff_gpu_event_elapsed()); the others cannot. */
int ff_gpu_event_create_timed(FFGpu *g, FFGpuEvent *e);
int ff_gpu_event_destroy(FFGpu *g, FFGpuEvent *e);
int ff_gpu_event_record(FFGpu *g, FFGpuEvent e, FFGpuStream s);
int ff_gpu_event_sync(FFGpu *g, FFGpuEvent e);
/** 1 when everything before e has run, 0 when not yet, < 0 on error. */
int ff_gpu_event_query(FFGpu *g, FFGpuEvent e);
/** Seconds between two timed events that have both completed. */
int ff_gpu_event_elapsed(FFGpu *g, FFGpuEvent start, FFGpuEvent end, double *seconds);
/** Work queued on s after this waits for e (recorded on any stream). */
int ff_gpu_stream_wait_event(FFGpu *g, FFGpuStream s, FFGpuEvent e);

int ff_gpu_upload(FFGpu *g, FFGpuPtr dst, const void *src, size_t size, FFGpuStream s);
int ff_gpu_download(FFGpu *g, void *dst, FFGpuPtr src, size_t size, FFGpuStream s);
int ff_gpu_memset(FFGpu *g, FFGpuPtr dst, int value, size_t size, FFGpuStream s);

/** Launch fn on a gx*gy grid of bx*by blocks; args as in cuLaunchKernel. */
int ff_gpu_launch(FFGpu *g, FFGpuFunction fn, const char *name,
                  unsigned gx, unsigned gy, unsigned bx, unsigned by,
                  FFGpuStream s, void **args);

/**
 * Recorded work: the launches and memsets queued on one stream between
 * ff_gpu_record_begin() and ff_gpu_record_end(), held instead of run, each
 * launch with a copy of its arguments' bytes. Work recorded twice with the
 * same operations and the same bytes does the same thing, so it can be
 * compared with work recorded before, and captured once as a graph that
 * runs it again with one call (ff_gpu_graph_make()).
 */
typedef struct FFGpuOp {
    FFGpuFunction fn;           ///< the kernel; NULL: a memset
    const char *name;           ///< for messages; not compared
    unsigned gx, gy, bx, by;
    FFGpuPtr dst;               ///< memset: dst, value, size
    size_t size;
    int value;
    unsigned nb_args;           ///< launch: parameters, their bytes at args_offset
    size_t args_offset, args_size;
} FFGpuOp;

typedef struct FFGpuWork {
    FFGpuOp *ops;
    unsigned nb_ops, ops_allocated;
    uint8_t *args;              ///< every launch's parameters, each 8-byte aligned
    size_t args_size, args_allocated;
    uint64_t hash;              ///< of everything compared
    int partial;                ///< some of it ran at once (an operation that cannot be held)
} FFGpuWork;

void ff_gpu_work_free(FFGpuWork *w);
/** 1 when a and b do the same work. */
int  ff_gpu_work_equal(const FFGpuWork *a, const FFGpuWork *b);
int  ff_gpu_work_copy(FFGpuWork *dst, const FFGpuWork *src);
/** Queue w on s, as it was queued when recorded. */
int  ff_gpu_work_run(FFGpu *g, const FFGpuWork *w, FFGpuStream s);

/**
 * 1 when this GPU can record launches and run graphs (CUDA with the
 * driver's graph and parameter-layout calls; the simulated GPU), else 0.
 */
int  ff_gpu_has_graphs(const FFGpu *g);
/** Hold the launches and memsets queued on s in w (emptied first). */
int  ff_gpu_record_begin(FFGpu *g, FFGpuStream s, FFGpuWork *w);
void ff_gpu_record_end(FFGpu *g);

typedef void *FFGpuGraph;       ///< an executable graph
/** Capture w's operations as a graph (on a stream of its own). */
int  ff_gpu_graph_make(FFGpu *g, FFGpuGraph *graph, const FFGpuWork *w);
/** Run graph on s: the same as ff_gpu_work_run() of the work it was made from. */
int  ff_gpu_graph_launch(FFGpu *g, FFGpuGraph graph, FFGpuStream s);
int  ff_gpu_graph_free(FFGpu *g, FFGpuGraph *graph);

#endif /* AVFILTER_VMAF_GPU_GPU_RUNTIME_H */
