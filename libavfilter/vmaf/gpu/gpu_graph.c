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
 * Recorded work and graphs. While a stream is recorded, ff_gpu_launch()
 * and ff_gpu_memset() on it append to an FFGpuWork instead of running: a
 * launch keeps a copy of its parameters' bytes, which the kernel's
 * parameter layout (cuFuncGetParamInfo) delimits. Two recordings with
 * equal operations and equal bytes queue the same work, so a graph
 * captured from one runs the other exactly: nothing is assumed about
 * which arguments change from frame to frame.
 *
 * Anything else queued on the recorded stream (an event, a copy, a wait)
 * first runs what was recorded so far and ends the recording, so the
 * stream's order is always the order the work was queued in.
 */

#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "gpu_functions.h"
#include "gpu_runtime.h"

/* The CUDA driver's values. */
#define CAPTURE_MODE_RELAXED 2
#define ERROR_INVALID_VALUE  1

#define FNV_PRIME  UINT64_C(0x100000001b3)
#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * FNV_PRIME;
    return h;
}

/* The fields of an operation that say what it does (not its name). */
static uint64_t hash_op(uint64_t h, const FFGpuOp *op)
{
    uint64_t f[9] = { (uintptr_t)op->fn, op->gx, op->gy, op->bx, op->by,
                      op->dst, op->size, (uint64_t)op->value, op->nb_args };
    return hash_bytes(h, f, sizeof(f));
}

int ff_gpu_has_graphs(const FFGpu *g)
{
    return g->platform != FF_GPU_PLATFORM_HIP && g->fn.func_param_info &&
           g->fn.capture_begin && g->fn.capture_end && g->fn.graph_instantiate &&
           g->fn.graph_launch && g->fn.graph_exec_destroy && g->fn.graph_destroy;
}

void ff_gpu_work_free(FFGpuWork *w)
{
    av_freep(&w->ops);
    av_freep(&w->args);
    memset(w, 0, sizeof(*w));
}

static void work_reset(FFGpuWork *w)
{
    w->nb_ops    = 0;
    w->args_size = 0;
    w->hash      = FNV_OFFSET;
    w->partial   = 0;
}

int ff_gpu_work_equal(const FFGpuWork *a, const FFGpuWork *b)
{
    if (a->hash != b->hash || a->nb_ops != b->nb_ops || a->args_size != b->args_size ||
        a->partial || b->partial)
        return 0;
    for (unsigned i = 0; i < a->nb_ops; i++) {
        const FFGpuOp *x = &a->ops[i], *y = &b->ops[i];
        if (x->fn != y->fn || x->gx != y->gx || x->gy != y->gy || x->bx != y->bx ||
            x->by != y->by || x->dst != y->dst || x->size != y->size ||
            x->value != y->value || x->nb_args != y->nb_args ||
            x->args_offset != y->args_offset || x->args_size != y->args_size)
            return 0;
    }
    return !memcmp(a->args, b->args, a->args_size);
}

int ff_gpu_work_copy(FFGpuWork *dst, const FFGpuWork *src)
{
    ff_gpu_work_free(dst);
    dst->ops  = av_memdup(src->ops, src->nb_ops * sizeof(*src->ops));
    dst->args = av_memdup(src->args, src->args_size);
    if ((src->nb_ops && !dst->ops) || (src->args_size && !dst->args)) {
        ff_gpu_work_free(dst);
        return AVERROR(ENOMEM);
    }
    dst->nb_ops = dst->ops_allocated = src->nb_ops;
    dst->args_size = dst->args_allocated = src->args_size;
    dst->hash    = src->hash;
    dst->partial = src->partial;
    return 0;
}

static FFGpuOp *work_add_op(FFGpuWork *w)
{
    if (w->nb_ops == w->ops_allocated) {
        unsigned n = FFMAX(16, 2 * w->ops_allocated);
        FFGpuOp *ops = av_realloc_array(w->ops, n, sizeof(*ops));
        if (!ops)
            return NULL;
        w->ops = ops;
        w->ops_allocated = n;
    }
    memset(&w->ops[w->nb_ops], 0, sizeof(*w->ops));
    return &w->ops[w->nb_ops++];
}

/* The parameter layout of fn, looked up once (an open-addressed table). */
static const FFGpuLayout *layout_of(FFGpu *g, FFGpuFunction fn)
{
    unsigned h = (unsigned)(((uintptr_t)fn >> 4) * 2654435761u) % FF_GPU_LAYOUTS;
    FFGpuLayout *l;

    if (!g->layouts && !(g->layouts = av_calloc(FF_GPU_LAYOUTS, sizeof(*g->layouts))))
        return NULL;
    for (unsigned probe = 0; probe < FF_GPU_LAYOUTS; probe++) {
        l = &g->layouts[(h + probe) % FF_GPU_LAYOUTS];
        if (l->fn == fn)
            return l->nb >= 0 ? l : NULL;
        if (!l->fn)
            break;
        l = NULL;
    }
    if (!l)
        return NULL;
    l->fn = fn;
    l->nb = -1;
    for (int i = 0; i <= FF_GPU_MAX_PARAMS; i++) {
        size_t offset, size;
        int err = g->fn.func_param_info(fn, i, &offset, &size);
        if (err == ERROR_INVALID_VALUE) {
            l->nb = i;
            break;
        }
        if (err || i == FF_GPU_MAX_PARAMS || offset > UINT16_MAX || size > UINT16_MAX)
            break;
        l->offset[i] = offset;
        l->size[i]   = size;
    }
    return l->nb >= 0 ? l : NULL;
}

static int record_flush(FFGpu *g, FFGpuStream s);
static int record_launch(FFGpu *g, FFGpuFunction fn, const char *name,
                         unsigned gx, unsigned gy, unsigned bx, unsigned by, void **args);
static int record_memset(FFGpu *g, FFGpuPtr dst, int value, size_t size);

static const FFGpuRecorder recorder = {
    .flush  = record_flush,
    .launch = record_launch,
    .memset = record_memset,
};

int ff_gpu_record_begin(FFGpu *g, FFGpuStream s, FFGpuWork *w)
{
    if (!ff_gpu_has_graphs(g))
        return AVERROR(ENOSYS);
    work_reset(w);
    g->rec        = w;
    g->rec_stream = s;
    g->recorder   = &recorder;
    return 0;
}

void ff_gpu_record_end(FFGpu *g)
{
    g->rec        = NULL;
    g->rec_stream = NULL;
}

static int record_flush(FFGpu *g, FFGpuStream s)
{
    FFGpuWork *w = g->rec;
    if (!w || s != g->rec_stream)
        return 0;
    ff_gpu_record_end(g);
    w->partial = 1;
    return ff_gpu_work_run(g, w, s);
}

static int record_launch(FFGpu *g, FFGpuFunction fn, const char *name,
                         unsigned gx, unsigned gy, unsigned bx, unsigned by, void **args)
{
    FFGpuWork *w = g->rec;
    FFGpuStream s = g->rec_stream;
    const FFGpuLayout *l = layout_of(g, fn);
    size_t need = 0;
    FFGpuOp *op;
    int ret;

    if (l)
        for (int i = 0; i < l->nb; i++)
            need += FFALIGN(l->size[i], 8);
    if (l && w->args_size + need > w->args_allocated) {
        size_t n = FFMAX(1024, 2 * (w->args_size + need));
        uint8_t *a = av_realloc(w->args, n);
        if (a) {
            w->args = a;
            w->args_allocated = n;
        } else {
            l = NULL;
        }
    }
    if (!l || !(op = work_add_op(w))) {
        /* Cannot be held: what was recorded runs, then this, as queued. */
        if ((ret = record_flush(g, s)) < 0)
            return ret;
        return ff_gpu_launch(g, fn, name, gx, gy, bx, by, s, args);
    }
    op->fn = fn;
    op->name = name;
    op->gx = gx;
    op->gy = gy;
    op->bx = bx;
    op->by = by;
    op->nb_args = l->nb;
    op->args_offset = w->args_size;
    for (int i = 0; i < l->nb; i++) {
        memset(w->args + w->args_size, 0, FFALIGN(l->size[i], 8));
        memcpy(w->args + w->args_size, args[i], l->size[i]);
        w->args_size += FFALIGN(l->size[i], 8);
    }
    op->args_size = w->args_size - op->args_offset;
    w->hash = hash_op(w->hash, op);
    w->hash = hash_bytes(w->hash, w->args + op->args_offset, op->args_size);
    return 0;
}

static int record_memset(FFGpu *g, FFGpuPtr dst, int value, size_t size)
{
    FFGpuWork *w = g->rec;
    FFGpuStream s = g->rec_stream;
    FFGpuOp *op = work_add_op(w);
    int ret;

    if (!op) {
        if ((ret = record_flush(g, s)) < 0)
            return ret;
        return ff_gpu_memset(g, dst, value, size, s);
    }
    op->dst   = dst;
    op->value = value;
    op->size  = size;
    w->hash = hash_op(w->hash, op);
    return 0;
}

int ff_gpu_work_run(FFGpu *g, const FFGpuWork *w, FFGpuStream s)
{
    void *args[FF_GPU_MAX_PARAMS];
    int ret = 0;

    for (unsigned i = 0; i < w->nb_ops && ret >= 0; i++) {
        const FFGpuOp *op = &w->ops[i];
        const FFGpuLayout *l;
        size_t off = op->args_offset;
        if (!op->fn) {
            ret = ff_gpu_memset(g, op->dst, op->value, op->size, s);
            continue;
        }
        /* Known: the launch was recorded with it. */
        l = layout_of(g, op->fn);
        for (unsigned k = 0; k < op->nb_args; k++) {
            args[k] = w->args + off;
            off += FFALIGN(l->size[k], 8);
        }
        ret = ff_gpu_launch(g, op->fn, op->name, op->gx, op->gy, op->bx, op->by, s, args);
    }
    return ret;
}

int ff_gpu_graph_make(FFGpu *g, FFGpuGraph *graph, const FFGpuWork *w)
{
    FFGpuStream s = NULL;
    void *captured = NULL;
    int ret, end;

    *graph = NULL;
    if (!ff_gpu_has_graphs(g) || w->partial)
        return AVERROR(ENOSYS);
    /* An idle stream of its own: capture records, it runs nothing. */
    if ((ret = ff_gpu_stream_create(g, &s)) < 0)
        return ret;
    ret = ff_gpu_check(g, g->fn.capture_begin(s, CAPTURE_MODE_RELAXED), "StreamBeginCapture");
    if (ret >= 0) {
        ret = ff_gpu_work_run(g, w, s);
        end = ff_gpu_check(g, g->fn.capture_end(s, &captured), "StreamEndCapture");
        ret = ret < 0 ? ret : end;
    }
    if (ret >= 0)
        ret = ff_gpu_check(g, g->fn.graph_instantiate(graph, captured, 0), "GraphInstantiate");
    if (captured)
        g->fn.graph_destroy(captured);
    ff_gpu_stream_destroy(g, &s);
    if (ret < 0)
        *graph = NULL;
    return ret;
}

int ff_gpu_graph_launch(FFGpu *g, FFGpuGraph graph, FFGpuStream s)
{
    return ff_gpu_check(g, g->fn.graph_launch(graph, s), "GraphLaunch");
}

int ff_gpu_graph_free(FFGpu *g, FFGpuGraph *graph)
{
    int ret = 0;
    if (*graph)
        ret = ff_gpu_check(g, g->fn.graph_exec_destroy(*graph), "GraphExecDestroy");
    *graph = NULL;
    return ret;
}
