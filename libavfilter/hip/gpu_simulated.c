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
static int sim_stream_create(FFGpuStream *s, unsigned flags)           { return sim_ok_handle(s); }
static int sim_event_create(FFGpuEvent *e, unsigned flags)             { return sim_ok_handle(e); }
static int sim_wait_event(FFGpuStream s, FFGpuEvent e, unsigned flags) { return 0; }
static int sim_event_record(FFGpuEvent e, FFGpuStream s)               { return 0; }
static int sim_event_query(FFGpuEvent e)                               { return 0; }
static int sim_event_elapsed(float *ms, FFGpuEvent a, FFGpuEvent b)    { *ms = 0; return 0; }

static int sim_launch(FFGpuFunction f, unsigned gx, unsigned gy, unsigned gz,
                      unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                      FFGpuStream s, void **args, void **extra)
{
    return FF_GPU_SIMULATED_LAUNCH_ERROR;
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
    fn->stream_destroy  = sim_ok;
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
}
