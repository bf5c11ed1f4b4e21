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
 * A GPU simulated in host memory for the tests of machines without one:
 * allocations, copies, streams and events behave, and every kernel launch
 * fails, so the engine sets its GPU path up, queues frame 0, sees the GPU
 * fail and moves to the CPU exactly as with a GPU that breaks.
 *
 * Graphs too: every kernel has two parameters (8 bytes at 0, 4 at 8); work
 * queued while a stream captures is recorded, not run, and a graph runs its
 * memsets in order and fails at its first kernel, as a launch does. One
 * capture at a time, for the tests of recorded work (tests/gpu_graph_test.c).
 */

#include <stdint.h>
#include <string.h>

#include "libavutil/mem.h"

#include "gpu_functions.h"

/* Handles only need to be non-NULL and distinct from "none". */
static char sim_handle;

static int sim_init(unsigned flags)   { return 0; }
static int sim_count(int *n)          { *n = 1; return 0; }
static int sim_ok_handle(void **h)    { *h = &sim_handle; return 0; }
static int sim_ok(void *h)            { return 0; }

static int sim_module_load(FFGpuModule *m, const void *image)          { return sim_ok_handle(m); }
static int sim_function(FFGpuFunction *f, FFGpuModule m, const char *n) { return sim_ok_handle(f); }
/* Streams are told apart (a stream is recorded, another is not). */
static int sim_stream_create(FFGpuStream *s, unsigned flags)
{
    *s = av_mallocz(1);
    return *s ? 0 : 2;
}

static int sim_stream_destroy(FFGpuStream s)
{
    av_free(s);
    return 0;
}

static int sim_event_create(FFGpuEvent *e, unsigned flags)             { return sim_ok_handle(e); }
static int sim_wait_event(FFGpuStream s, FFGpuEvent e, unsigned flags) { return 0; }
static int sim_event_record(FFGpuEvent e, FFGpuStream s)               { return 0; }
static int sim_event_query(FFGpuEvent e)                               { return 0; }
static int sim_event_elapsed(float *ms, FFGpuEvent a, FFGpuEvent b)    { *ms = 0; return 0; }

typedef struct SimOp {
    int kernel;
    FFGpuPtr dst;
    unsigned char value;
    size_t size;
} SimOp;

typedef struct SimGraph {
    SimOp *ops;
    int nb_ops;
} SimGraph;

static SimGraph *sim_capture;          ///< the graph being captured, if any

static int sim_capture_op(int kernel, FFGpuPtr dst, unsigned char v, size_t size)
{
    SimOp *ops = av_realloc_array(sim_capture->ops, sim_capture->nb_ops + 1, sizeof(*ops));
    if (!ops)
        return 2;
    sim_capture->ops = ops;
    ops[sim_capture->nb_ops++] = (SimOp){ kernel, dst, v, size };
    return 0;
}

static int sim_launch(FFGpuFunction f, unsigned gx, unsigned gy, unsigned gz,
                      unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                      FFGpuStream s, void **args, void **extra)
{
    if (sim_capture)
        return sim_capture_op(1, 0, 0, 0);
    return FF_GPU_SIMULATED_LAUNCH_ERROR;
}

static int sim_param_info(FFGpuFunction f, size_t index, size_t *offset, size_t *size)
{
    if (index > 1)
        return 1;   /* CUDA's "invalid value": no such parameter */
    *offset = index ? 8 : 0;
    *size   = index ? 4 : 8;
    return 0;
}

static int sim_capture_begin(FFGpuStream s, int mode)
{
    if (sim_capture || !(sim_capture = av_mallocz(sizeof(*sim_capture))))
        return 2;
    return 0;
}

static int sim_capture_end(FFGpuStream s, void **graph)
{
    *graph = sim_capture;
    sim_capture = NULL;
    return *graph ? 0 : 1;
}

static int sim_graph_instantiate(void **exec, void *graph, unsigned long long flags)
{
    const SimGraph *g = graph;
    SimGraph *e = av_mallocz(sizeof(*e));
    if (!e || !(e->ops = av_memdup(g->ops, g->nb_ops * sizeof(*g->ops)))) {
        av_free(e);
        return 2;
    }
    e->nb_ops = g->nb_ops;
    *exec = e;
    return 0;
}

static int sim_graph_launch(void *exec, FFGpuStream s)
{
    const SimGraph *e = exec;
    for (int i = 0; i < e->nb_ops; i++) {
        if (e->ops[i].kernel)
            return FF_GPU_SIMULATED_LAUNCH_ERROR;
        memset((void *)(uintptr_t)e->ops[i].dst, e->ops[i].value, e->ops[i].size);
    }
    return 0;
}

static int sim_graph_destroy(void *graph)
{
    SimGraph *g = graph;
    av_free(g->ops);
    av_free(g);
    return 0;
}

static int sim_malloc(FFGpuPtr *p, size_t size)
{
    void *mem = av_mallocz(size);
    *p = (FFGpuPtr)(uintptr_t)mem;
    return mem ? 0 : 2;     /* CUDA's "out of memory" */
}

static int sim_free(FFGpuPtr p)
{
    av_free((void *)(uintptr_t)p);
    return 0;
}

static int sim_host_alloc(void **p, size_t size, unsigned flags)
{
    *p = av_mallocz(size);
    return *p ? 0 : 2;
}

static int sim_host_free(void *p)
{
    av_free(p);
    return 0;
}

static int sim_upload(FFGpuPtr dst, const void *src, size_t size, FFGpuStream s)
{
    memcpy((void *)(uintptr_t)dst, src, size);
    return 0;
}

static int sim_download(void *dst, FFGpuPtr src, size_t size, FFGpuStream s)
{
    memcpy(dst, (const void *)(uintptr_t)src, size);
    return 0;
}

static int sim_memset8(FFGpuPtr dst, unsigned char v, size_t size, FFGpuStream s)
{
    if (sim_capture)
        return sim_capture_op(0, dst, v, size);
    memset((void *)(uintptr_t)dst, v, size);
    return 0;
}

void ff_gpu_simulated_functions(GpuFunctions *fn)
{
    memset(fn, 0, sizeof(*fn));
    fn->init            = sim_init;
    fn->device_count    = sim_count;
    fn->module_load     = sim_module_load;
    fn->module_unload   = sim_ok;
    fn->module_function = sim_function;
    fn->launch          = sim_launch;
    fn->malloc          = sim_malloc;
    fn->free            = sim_free;
    fn->host_alloc      = sim_host_alloc;
    fn->host_free       = sim_host_free;
    fn->stream_create   = sim_stream_create;
    fn->stream_destroy  = sim_stream_destroy;
    fn->stream_sync     = sim_ok;
    fn->event_create    = sim_event_create;
    fn->event_destroy   = sim_ok;
    fn->event_record    = sim_event_record;
    fn->event_sync      = sim_ok;
    fn->event_query     = sim_event_query;
    fn->event_elapsed   = sim_event_elapsed;
    fn->stream_wait_event = sim_wait_event;
    fn->upload          = sim_upload;
    fn->download        = sim_download;
    fn->memset8         = sim_memset8;
    fn->func_param_info    = sim_param_info;
    fn->capture_begin      = sim_capture_begin;
    fn->capture_end        = sim_capture_end;
    fn->graph_instantiate  = sim_graph_instantiate;
    fn->graph_launch       = sim_graph_launch;
    fn->graph_exec_destroy = sim_graph_destroy;
    fn->graph_destroy      = sim_graph_destroy;
}
