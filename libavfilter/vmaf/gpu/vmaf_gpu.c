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


#include <stdatomic.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/cpu.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"
#include "libavutil/slicethread.h"
#include "libavutil/time.h"

#include "code_object.h"
#include "vmaf_gpu.h"

static const char *const unpack_kernels[] = { "vmaf_unpack_8", "vmaf_unpack_16", NULL };
FF_VMAF_GPU_CODE(unpack, unpack_kernels);

#define UNPACK_BLOCK_X 64
#define UNPACK_BLOCK_Y 4

static void pool_init(FFVmafGpuPool *p, int nb_threads);

int ff_vmaf_gpu_slot(unsigned index)
{
    return index % FF_VMAF_GPU_SLOTS;
}

void ff_vmaf_gpu_free(FFVmafGpu **pg)
{
    FFVmafGpu *g = *pg;
    if (!g)
        return;
    /* The background work reads the host copies: it ends first. */
    if (g->bg_started) {
        ff_mutex_lock(&g->bg_lock);
        g->bg_quit = 1;
        ff_cond_broadcast(&g->bg_cond);
        ff_mutex_unlock(&g->bg_lock);
        pthread_join(g->bg_thread, NULL);
        ff_cond_destroy(&g->bg_cond);
        ff_mutex_destroy(&g->bg_lock);
    }
    avpriv_slicethread_free(&g->bg_pool.threads);
    if (g->gpu && ff_gpu_enter(g->gpu) >= 0) {
        if (g->stream)
            ff_gpu_stream_sync(g->gpu, g->stream);
        if (g->copy_stream)
            ff_gpu_stream_sync(g->gpu, g->copy_stream);
        if (g->upload_stream)
            ff_gpu_stream_sync(g->gpu, g->upload_stream);
        for (int i = 0; i < FF_VMAF_GPU_SLOTS; i++) {
            ff_gpu_host_free(g->gpu, (void **)&g->slot[i].host);
            ff_gpu_free(g->gpu, &g->slot[i].dev);
            ff_gpu_event_destroy(g->gpu, &g->slot[i].done);
            ff_gpu_event_destroy(g->gpu, &g->slot[i].unpacked);
            ff_gpu_event_destroy(g->gpu, &g->slot[i].begin);
            ff_gpu_event_destroy(g->gpu, &g->slot[i].uploaded);
        }
        ff_gpu_event_destroy(g->gpu, &g->src_ready);
        for (int i = 0; i < FF_ARRAY_ELEMS(g->ends); i++)
            ff_gpu_event_destroy(g->gpu, &g->ends[i]);
        for (int i = 0; i < g->nb_graphs; i++) {
            ff_gpu_graph_free(g->gpu, &g->graph[i].exec);
            ff_gpu_work_free(&g->graph[i].work);
        }
        for (int i = 0; i < g->nb_lanes; i++) {
            ff_gpu_stream_sync(g->gpu, g->lanes[i]);
            ff_gpu_stream_destroy(g->gpu, &g->lanes[i]);
            ff_gpu_event_destroy(g->gpu, &g->lane_done[i]);
        }
        for (int i = 0; i < g->nb_modules; i++)
            ff_gpu_module_unload(g->gpu, g->modules[i].module);
        for (int i = 0; i < g->nb_buffers; i++)
            ff_gpu_free(g->gpu, &g->buffers[i]);
        ff_gpu_free(g->gpu, &g->results_dev);
        ff_gpu_host_free(g->gpu, (void **)&g->results_host);
        ff_gpu_stream_destroy(g->gpu, &g->copy_stream);
        ff_gpu_stream_destroy(g->gpu, &g->upload_stream);
        ff_gpu_stream_destroy(g->gpu, &g->stream);
        ff_gpu_leave(g->gpu);
    }
    ff_gpu_close(&g->gpu);
    ff_gpu_work_free(&g->work);
    avpriv_slicethread_free(&g->stagers.threads);
    av_freep(pg);
}

/* The source planes of a picture that is not plain, as uploaded: luma,
 * then the interleaved chroma plane (or U and V). Rows of the rounded-up
 * chroma size, as FFmpeg stores them, so the host copies serve the CPU. */
static void raw_layout(FFVmafGpu *g, int w)
{
    const FFVmafGeometry *geo = &g->geo;
    int interleaved = geo->chroma_layout[w] != FF_VMAF_CHROMA_PLANAR;
    int cw = g->stored_w[1], ch = g->stored_h[1];

    g->src_planes[w] = g->nb_planes == 1 ? 1 : interleaved ? 2 : 3;
    g->raw_size[w]   = 0;
    for (int q = 0; q < g->src_planes[w]; q++) {
        g->raw_pitch[w][q] = (size_t)(q ? cw * (interleaved ? 2 : 1) : geo->width) * g->bytes;
        g->raw_rows[w][q]  = q ? ch : geo->height;
        g->raw_size[w]    += g->raw_pitch[w][q] * g->raw_rows[w][q];
    }
}

/* Where the raw upload of picture w starts, past the planes. */
static size_t raw_offset(const FFVmafGpu *g, int w)
{
    return w ? g->raw_size[0] : 0;
}

int ff_vmaf_gpu_alloc(FFVmafGpu **pg, int device, void *cu_ctx, void *cu_stream,
                      const FFVmafGeometry *geo, int nb_planes, int max_threads,
                      void *log_ctx)
{
    FFVmafGpu *g = av_mallocz(sizeof(*g));
    size_t host_size;
    int ret;

    if (!g)
        return AVERROR(ENOMEM);
    g->log_ctx   = log_ctx;
    g->geo       = *geo;
    ff_vmaf_picture_dsp_init(&g->pdsp);
    g->nb_planes = nb_planes;
    g->bytes     = geo->bpc > 8 ? 2 : 1;
    g->src_stream = cu_stream;
    for (int p = 0; p < 3; p++) {
        g->w[p] = p ? geo->width  >> geo->ss_x : geo->width;
        g->h[p] = p ? geo->height >> geo->ss_y : geo->height;
        g->stored_w[p] = p ? AV_CEIL_RSHIFT(geo->width,  geo->ss_x) : geo->width;
        g->stored_h[p] = p ? AV_CEIL_RSHIFT(geo->height, geo->ss_y) : geo->height;
        g->plane_size[p] = p < nb_planes ? (size_t)g->stored_w[p] * g->stored_h[p] * g->bytes : 0;
        g->frame_size += g->plane_size[p];
    }
    for (int w = 0; w < 2; w++) {
        g->plain[w] = geo->chroma_layout[w] == FF_VMAF_CHROMA_PLANAR && !geo->sample_shift[w];
        if (!g->plain[w])
            raw_layout(g, w);
    }
    /* The same layout on both sides: planes, then the raw uploads. */
    host_size = g->slot_size = 2 * g->frame_size + g->raw_size[0] + g->raw_size[1];

    /* Copying into page-locked memory runs at one core's memory bandwidth
     * and sets the filter thread's pace: a thread for every MiB of a frame
     * pair's planes, up to 6 and half the cores. */
    g->nb_stagers = av_clip((int)((host_size + (1 << 20) - 1) >> 20), 1, 6);
    g->nb_stagers = FFMIN(g->nb_stagers, FFMAX(av_cpu_count() / 2, 1));
    /* Threads the user counted on (several processes sharing the cores). */
    if (max_threads > 0)
        g->nb_stagers = FFMIN(g->nb_stagers, max_threads);
    pool_init(&g->stagers, g->nb_stagers);

    ret = cu_ctx ? ff_gpu_open_cuda_context(&g->gpu, cu_ctx, log_ctx)
                 : ff_gpu_open(&g->gpu, device, log_ctx);
    if (ret < 0) {
        av_free(g);
        return ret;
    }
    if ((ret = ff_gpu_enter(g->gpu)) < 0)
        goto fail;
    ret = ff_gpu_stream_create(g->gpu, &g->stream);
    g->queue = g->stream;
    if (ret >= 0)
        ret = ff_gpu_stream_create(g->gpu, &g->upload_stream);
    if (ret >= 0 && (!g->plain[0] || !g->plain[1] || cu_ctx)) {
        FFGpuFunction fns[2];
        if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_unpack, unpack_kernels, fns)) >= 0)
            g->unpack = fns[g->bytes > 1];
    }
    if (ret >= 0 && cu_ctx &&
        (ret = ff_gpu_stream_create(g->gpu, &g->copy_stream)) >= 0)
        ret = ff_gpu_event_create(g->gpu, &g->src_ready);
    for (int i = 0; ret >= 0 && i < FF_VMAF_GPU_SLOTS; i++) {
        g->slot[i].index = -1;
        /* The slots' memory is allocated at their first frame (a short
         * run needs few, and page-locking is slow). */
        if ((ret = ff_gpu_event_create(g->gpu, &g->slot[i].done)) >= 0 &&
            (ret = ff_gpu_event_create(g->gpu, &g->slot[i].uploaded)) >= 0 && cu_ctx)
            ret = ff_gpu_event_create(g->gpu, &g->slot[i].unpacked);
    }
    ff_gpu_leave(g->gpu);
    if (ret < 0)
        goto fail;
    *pg = g;
    return 0;
fail:
    ff_vmaf_gpu_free(&g);
    return ret;
}

static size_t plane_offset(const FFVmafGpu *g, int which, int plane)
{
    size_t off = which ? g->frame_size : 0;
    for (int p = 0; p < plane; p++)
        off += g->plane_size[p];
    return off;
}

FFGpuPtr ff_vmaf_gpu_plane(const FFVmafGpu *g, unsigned index, int which, int plane)
{
    return g->slot[ff_vmaf_gpu_slot(index)].dev + plane_offset(g, which, plane);
}

const uint8_t *ff_vmaf_gpu_host_plane(const FFVmafGpu *g, unsigned index, int which, int plane)
{
    return g->slot[ff_vmaf_gpu_slot(index)].host + plane_offset(g, which, plane);
}

int ff_vmaf_gpu_holds(const FFVmafGpu *g, unsigned index)
{
    const int s = ff_vmaf_gpu_slot(index);
    return g->slot[s].index == (int64_t)index && g->slot[s].host;
}

/* Where output plane p reads from a source with this chroma layout: plane
 * q of the source, every step-th sample from offset. */
static void source_of(int layout, int p, int *q, int *step, int *offset)
{
    *q = p;
    *step = 1;
    *offset = 0;
    if (p && layout != FF_VMAF_CHROMA_PLANAR) {
        *q = 1;
        *step = 2;
        *offset = (p == 1) == (layout == FF_VMAF_CHROMA_UV) ? 0 : 1;
    }
}

/* Queue the unpack of every plane from the source planes src[] (device
 * addresses, pitches in bytes) into frame slot s, picture which. */
static int queue_unpack(FFVmafGpu *g, int s, int which, int layout, int shift,
                        const FFGpuPtr *src, const size_t *pitch, FFGpuStream stream)
{
    for (int p = 0; p < g->nb_planes; p++) {
        FFGpuPtr dst = g->slot[s].dev + plane_offset(g, which, p);
        FFGpuPtr from;
        size_t from_pitch;
        int q, step, offset, ret;
        void *args[] = { &dst, &from, &from_pitch, &g->stored_w[p], &g->stored_h[p], &step,
                         &offset, &shift };

        source_of(layout, p, &q, &step, &offset);
        from       = src[q];
        from_pitch = pitch[q];
        ret = ff_gpu_launch(g->gpu, g->unpack, "vmaf_unpack",
                            (g->stored_w[p] + UNPACK_BLOCK_X - 1) / UNPACK_BLOCK_X,
                            (g->stored_h[p] + UNPACK_BLOCK_Y - 1) / UNPACK_BLOCK_Y,
                            UNPACK_BLOCK_X, UNPACK_BLOCK_Y, stream, args);
        if (ret < 0)
            return ret;
    }
    return 0;
}

/* Queue a staged copy: rows rows of row bytes from src (linesize apart)
 * into host at dst, packed; the pool copies them all at once. */
static int stage(FFVmafGpu *g, int which, unsigned max, uint8_t *dst, const uint8_t *src,
                 ptrdiff_t linesize, size_t row, size_t rows)
{
    FFVmafGpuStaged *c;
    if (g->nb_staged == FF_ARRAY_ELEMS(g->staged))
        return AVERROR_BUG;
    c = &g->staged[g->nb_staged++];
    c->dst      = dst;
    c->src      = src;
    c->linesize = linesize;
    c->row      = row;
    c->rows     = rows;
    c->which    = which;
    c->max      = max;
    return 0;
}

static void pool_job(void *priv, int j, int thread, int n, int nb_threads)
{
    FFVmafGpuPool *p = priv;
    p->job(p->priv, j, n);
}

/* nb_threads threads, or none (the caller alone) when one would do or
 * they cannot be made. */
static void pool_init(FFVmafGpuPool *p, int nb_threads)
{
    if (nb_threads > 1 &&
        avpriv_slicethread_create(&p->threads, p, pool_job, NULL, nb_threads) <= 1)
        avpriv_slicethread_free(&p->threads);
}

static void pool_run(FFVmafGpuPool *p, void (*fn)(void *priv, int job, int nb_jobs),
                     void *priv, int nb_jobs)
{
    if (!p->threads || nb_jobs < 2) {
        for (int j = 0; j < nb_jobs; j++)
            fn(priv, j, nb_jobs);
        return;
    }
    p->job  = fn;
    p->priv = priv;
    avpriv_slicethread_execute(p->threads, nb_jobs, 0);
}

void ff_vmaf_gpu_parallel(FFVmafGpu *g, void (*fn)(void *priv, int job, int nb_jobs),
                          void *priv, int nb_jobs)
{
    /* From the background thread: on its own threads (or alone), never
     * the stagers', which may be busy with the caller's next frame. */
    if (g->bg_started && pthread_equal(pthread_self(), g->bg_thread))
        pool_run(&g->bg_pool, fn, priv, nb_jobs);
    else
        pool_run(&g->stagers, fn, priv, nb_jobs);
}

int ff_vmaf_gpu_nb_threads(const FFVmafGpu *g)
{
    return g->stagers.threads ? g->nb_stagers : 1;
}

static void *bg_main(void *arg)
{
    FFVmafGpu *g = arg;

    ff_mutex_lock(&g->bg_lock);
    for (;;) {
        while (!g->bg_fn && !g->bg_quit)
            ff_cond_wait(&g->bg_cond, &g->bg_lock);
        if (!g->bg_fn)
            break;
        ff_mutex_unlock(&g->bg_lock);
        g->bg_fn(g->bg_priv);
        ff_mutex_lock(&g->bg_lock);
        g->bg_fn = NULL;
        ff_cond_broadcast(&g->bg_cond);
    }
    ff_mutex_unlock(&g->bg_lock);
    return NULL;
}

int ff_vmaf_gpu_background(FFVmafGpu *g, void (*fn)(void *priv), void *priv)
{
    if (!g->bg_started) {
        if (ff_mutex_init(&g->bg_lock, NULL))
            return AVERROR(ENOMEM);
        if (ff_cond_init(&g->bg_cond, NULL)) {
            ff_mutex_destroy(&g->bg_lock);
            return AVERROR(ENOMEM);
        }
        if (pthread_create(&g->bg_thread, NULL, bg_main, g)) {
            ff_cond_destroy(&g->bg_cond);
            ff_mutex_destroy(&g->bg_lock);
            return AVERROR(EAGAIN);
        }
        g->bg_started = 1;
        /* As many threads as the stagers: none, when they are none. */
        pool_init(&g->bg_pool, g->stagers.threads ? g->nb_stagers : 1);
    }
    ff_mutex_lock(&g->bg_lock);
    while (g->bg_fn)
        ff_cond_wait(&g->bg_cond, &g->bg_lock);
    g->bg_fn   = fn;
    g->bg_priv = priv;
    ff_cond_broadcast(&g->bg_cond);
    ff_mutex_unlock(&g->bg_lock);
    return 0;
}

void ff_vmaf_gpu_background_wait(FFVmafGpu *g)
{
    if (!g->bg_started)
        return;
    ff_mutex_lock(&g->bg_lock);
    while (g->bg_fn)
        ff_cond_wait(&g->bg_cond, &g->bg_lock);
    ff_mutex_unlock(&g->bg_lock);
}

/* Job j of n: its share of the rows of every staged copy. */
static void stage_job(void *priv, int j, int n)
{
    FFVmafGpu *g = priv;
    for (int i = 0; i < g->nb_staged; i++) {
        const FFVmafGpuStaged *c = &g->staged[i];
        size_t y0 = c->rows * j / n, y1 = c->rows * (j + 1) / n;
        const uint8_t *src = c->src + (ptrdiff_t)y0 * c->linesize;
        uint8_t *dst = c->dst + y0 * c->row;
        if (c->max) {
            unsigned over = 0;
            for (size_t y = y0; y < y1; y++, src += c->linesize, dst += c->row)
                over |= g->pdsp.copy_clamp16((uint16_t *)dst, (const uint16_t *)src,
                                             c->row / 2, c->max);
            if (over)
                atomic_fetch_or(&g->clamped, 1 << c->which);
            continue;
        }
        if (c->linesize == (ptrdiff_t)c->row) {
            g->pdsp.copy_stream(dst, src, (y1 - y0) * c->row);
            continue;
        }
        for (size_t y = y0; y < y1; y++, src += c->linesize, dst += c->row)
            g->pdsp.copy_stream(dst, src, c->row);
    }
}

static void run_staged(FFVmafGpu *g)
{
    if (!g->nb_staged)
        return;
    ff_vmaf_gpu_parallel(g, stage_job, g, ff_vmaf_gpu_nb_threads(g));
    g->nb_staged = 0;
}

/* A host picture: planar low-bit ones straight into the planes, others
 * raw, to be unpacked on the device. Stages the copies into the slot's
 * page-locked memory; upload_staged() sends them once they are made. */
static int stage_host(FFVmafGpu *g, int s, int which, const FFVmafPicture *pic)
{
    uint8_t *host = g->slot[s].host;
    int ret;

    if (pic->chroma != g->geo.chroma_layout[which] || pic->shift != g->geo.sample_shift[which])
        return AVERROR_BUG;
    if (g->plain[which]) {
        /* 10- and 12-bit samples above the depth's maximum are clamped to
         * it as they are copied, as the engine does for the CPU
         * (ff_vmaf_engine_clamp()); in range, the copy is exact. */
        unsigned max = g->bytes == 2 && g->geo.bpc < 16 ? (1u << g->geo.bpc) - 1 : 0;
        uint8_t *dst = host + plane_offset(g, which, 0);
        for (int p = 0; p < g->nb_planes; p++)
            if ((ret = stage(g, which, max, dst + plane_offset(g, 0, p), pic->data[p], pic->linesize[p],
                             (size_t)g->stored_w[p] * g->bytes, g->stored_h[p])) < 0)
                return ret;
    } else {
        size_t off = 2 * g->frame_size + raw_offset(g, which);
        for (int q = 0; q < g->src_planes[which]; q++) {
            if ((ret = stage(g, which, 0, host + off, pic->data[q], pic->linesize[q],
                             g->raw_pitch[which][q], g->raw_rows[which][q])) < 0)
                return ret;
            off += g->raw_pitch[which][q] * g->raw_rows[which][q];
        }
        g->slot[s].raw |= 1 << which;
    }
    return 0;
}

static int upload_staged(FFVmafGpu *g, int s, int which, const FFVmafPicture *pic)
{
    uint8_t *host = g->slot[s].host;
    FFGpuPtr dev  = g->slot[s].dev;

    if (g->plain[which]) {
        size_t off = plane_offset(g, which, 0);
        return ff_gpu_upload(g->gpu, dev + off, host + off, g->frame_size, g->upload_stream);
    } else {
        size_t off = 2 * g->frame_size + raw_offset(g, which);
        FFGpuPtr src[3];
        int ret;
        for (int q = 0; q < g->src_planes[which]; q++) {
            src[q] = dev + off;
            off += g->raw_pitch[which][q] * g->raw_rows[which][q];
        }
        off = 2 * g->frame_size + raw_offset(g, which);
        if ((ret = ff_gpu_upload(g->gpu, dev + off, host + off, g->raw_size[which],
                                 g->upload_stream)) < 0)
            return ret;
        return queue_unpack(g, s, which, pic->chroma, pic->shift, src, g->raw_pitch[which],
                            g->upload_stream);
    }
}

int ff_vmaf_gpu_upload(FFVmafGpu *g, unsigned index, const FFVmafPicture *ref,
                       const FFVmafPicture *dis)
{
    const FFVmafPicture *pic[2] = { ref, dis };
    int s = ff_vmaf_gpu_slot(index), device = 0, host = 0, ret;
    int64_t t0;

    /* The slot's previous frame is FF_VMAF_GPU_SLOTS frames old and read
     * back long ago; waiting costs nothing but keeps reuse safe. */
    if (g->slot[s].index >= 0 && (ret = ff_gpu_event_sync(g->gpu, g->slot[s].done)) < 0)
        return ret;
    if (!g->slot[s].host &&
        ((ret = ff_gpu_host_alloc(g->gpu, (void **)&g->slot[s].host, g->slot_size)) < 0 ||
         (ret = ff_gpu_malloc(g->gpu, &g->slot[s].dev, g->slot_size)) < 0))
        return ret;
    g->slot[s].index = index;
    g->slot[s].raw = g->slot[s].from_device = g->slot[s].timed = 0;
    /* The lanes start from the upload stream's event: zeroed there too. */
    if (g->results_size &&
        (ret = ff_gpu_memset(g->gpu, g->results_dev + s * g->results_size, 0,
                             g->results_size, g->upload_stream)) < 0)
        return ret;

    /* The host pictures' copies into page-locked memory, on the pool. */
    atomic_store(&g->clamped, 0);
    t0 = av_gettime_relative();
    for (int w = 0; w < 2; w++)
        if (!pic[w]->on_device && (ret = stage_host(g, s, w, pic[w])) < 0) {
            g->nb_staged = 0;
            return ret;
        }
    run_staged(g);
    g->stage_us += av_gettime_relative() - t0;
    /* Uploads run on a stream of their own, beside the previous frames'
     * kernels. The slot's last frame has run (waited for above), but the
     * frames after it may still be reading its planes as an earlier
     * picture, up to FF_VMAF_GPU_LOOKBACK frames later. */
    if (!pic[0]->on_device || !pic[1]->on_device) {
        int next = ff_vmaf_gpu_slot(s + FF_VMAF_GPU_LOOKBACK);
        if (g->slot[next].index >= 0 &&
            (ret = ff_gpu_stream_wait_event(g->gpu, g->upload_stream, g->slot[next].done)) < 0)
            return ret;
    }
    for (int w = 0; w < 2; w++) {
        if (!pic[w]->on_device) {
            if ((ret = upload_staged(g, s, w, pic[w])) < 0)
                return ret;
            host++;
            continue;
        }
        if (!g->copy_stream) {
            av_log(g->log_ctx, AV_LOG_ERROR, "Internal error: hardware frames, but the GPU was "
                   "not opened in their context.\n");
            return AVERROR_BUG;
        }
        /* After the decoder's writes, on a stream of our own. */
        if (!device++ &&
            ((ret = ff_gpu_event_record(g->gpu, g->src_ready, g->src_stream)) < 0 ||
             (ret = ff_gpu_stream_wait_event(g->gpu, g->copy_stream, g->src_ready)) < 0))
            return ret;
        {
            FFGpuPtr src[3];
            size_t pitch[3];
            for (int q = 0; q < 3; q++) {
                src[q]   = (FFGpuPtr)(uintptr_t)pic[w]->data[q];
                pitch[q] = pic[w]->linesize[q];
            }
            if ((ret = queue_unpack(g, s, w, pic[w]->chroma, pic[w]->shift, src, pitch,
                                    g->copy_stream)) < 0)
                return ret;
        }
        g->nb_device_pictures++;
    }
    if (device) {
        /* The kernels wait for the unpack; the host too, so that the caller
         * may release the frames (their pool hands them to the decoder). */
        g->slot[s].from_device = 1;
        if ((ret = ff_gpu_event_record(g->gpu, g->slot[s].unpacked, g->copy_stream)) < 0 ||
            (ret = ff_gpu_stream_wait_event(g->gpu, g->upload_stream, g->slot[s].unpacked)) < 0 ||
            (ret = ff_gpu_event_sync(g->gpu, g->slot[s].unpacked)) < 0)
            return ret;
    }
    /* Where the frame's lanes start; the read-back waits for it too, for
     * a frame that no twin runs on. */
    if ((ret = ff_gpu_event_record(g->gpu, g->slot[s].uploaded, g->upload_stream)) < 0 ||
        (ret = ff_gpu_stream_wait_event(g->gpu, g->stream, g->slot[s].uploaded)) < 0)
        return ret;
    /* The frame's GPU time: from when its kernels can start. */
    if (g->timing && (ret = ff_gpu_event_record(g->gpu, g->slot[s].begin, g->upload_stream)) < 0)
        return ret;
    return 0;
}

int ff_vmaf_gpu_add_lane(FFVmafGpu *g)
{
    int lane = g->nb_twins++ % FF_VMAF_GPU_MAX_LANES, ret;
    if (lane < g->nb_lanes)
        return lane;
    if ((ret = ff_gpu_stream_create(g->gpu, &g->lanes[lane])) < 0)
        return ret;
    if ((ret = ff_gpu_event_create(g->gpu, &g->lane_done[lane])) < 0) {
        ff_gpu_stream_destroy(g->gpu, &g->lanes[lane]);
        return ret;
    }
    g->nb_lanes++;
    return lane;
}

int ff_vmaf_gpu_set_graphs(FFVmafGpu *g, int on)
{
    g->graphs = on && ff_gpu_has_graphs(g->gpu);
    return g->graphs;
}

int ff_vmaf_gpu_lane_begin(FFVmafGpu *g, int lane, unsigned index)
{
    int ret;
    g->queue = g->lanes[lane];
    ret = ff_gpu_stream_wait_event(g->gpu, g->queue, g->slot[ff_vmaf_gpu_slot(index)].uploaded);
    if (ret >= 0 && g->graphs)
        g->recording = ff_gpu_record_begin(g->gpu, g->queue, &g->work) >= 0;
    return ret;
}

/* 1 when a work of this hash was recorded before (and remember it). */
static int seen_before(FFVmafGpu *g, uint64_t hash)
{
    unsigned n = FFMIN(g->nb_seen, FF_VMAF_GPU_SEEN);
    for (unsigned i = 0; i < n; i++)
        if (g->seen[i] == hash)
            return 1;
    g->seen[g->nb_seen++ % FF_VMAF_GPU_SEEN] = hash;
    return 0;
}

/* The twin's recorded work of a frame, on s: as a graph when one was
 * captured from equal work, else as queued (captured when it comes again). */
static int run_recorded(FFVmafGpu *g, FFGpuStream s)
{
    FFGpuWork *w = &g->work;
    int ret;

    /* Something could not be held: all of it ran as it was queued. */
    if (w->partial) {
        g->direct_runs++;
        return 0;
    }
    if (!w->nb_ops)
        return 0;
    for (int i = 0; i < g->nb_graphs; i++) {
        if (ff_gpu_work_equal(&g->graph[i].work, w)) {
            g->graph_runs++;
            return ff_gpu_graph_launch(g->gpu, g->graph[i].exec, s);
        }
    }
    g->direct_runs++;
    if ((ret = ff_gpu_work_run(g->gpu, w, s)) < 0)
        return ret;
    if (g->nb_graphs < FF_VMAF_GPU_MAX_GRAPHS && w->nb_ops > 1 && seen_before(g, w->hash)) {
        FFVmafGpuGraph *gr = &g->graph[g->nb_graphs];
        int64_t t0 = av_gettime_relative();
        if ((ret = ff_gpu_work_copy(&gr->work, w)) >= 0)
            ret = ff_gpu_graph_make(g->gpu, &gr->exec, w);
        g->capture_us += av_gettime_relative() - t0;
        if (ret >= 0) {
            g->nb_graphs++;
            return 0;
        }
        ff_gpu_work_free(&gr->work);
        /* The frames go on without graphs: they were an optimisation. */
        av_log(g->log_ctx, AV_LOG_WARNING, "Could not capture a GPU graph (%s); the kernels "
               "are launched one by one from now on.\n", av_err2str(ret));
        g->graphs = 0;
    }
    return 0;
}

int ff_vmaf_gpu_lane_end(FFVmafGpu *g, int lane)
{
    int ret = 0;
    if (g->recording) {
        g->recording = 0;
        ff_gpu_record_end(g->gpu);
        ret = run_recorded(g, g->lanes[lane]);
    }
    g->queue = g->stream;
    if (ret < 0)
        return ret;
    if ((ret = ff_gpu_event_record(g->gpu, g->lane_done[lane], g->lanes[lane])) < 0)
        return ret;
    return ff_gpu_stream_wait_event(g->gpu, g->stream, g->lane_done[lane]);
}

int ff_vmaf_gpu_host_copies_planar(FFVmafGpu *g)
{
    /* Every slot: motion's CPU state takes references before first. */
    for (int s = 0; s < FF_VMAF_GPU_SLOTS; s++)
        if (g->slot[s].index >= 0 && g->slot[s].from_device)
            return AVERROR(ENOSYS);
    for (int s = 0; s < FF_VMAF_GPU_SLOTS; s++) {
        for (int w = 0; w < 2; w++) {
            const uint8_t *src[3];
            size_t off = 2 * g->frame_size + raw_offset(g, w);
            if (!(g->slot[s].raw & (1 << w)))
                continue;
            for (int q = 0; q < g->src_planes[w]; q++) {
                src[q] = g->slot[s].host + off;
                off += g->raw_pitch[w][q] * g->raw_rows[w][q];
            }
            for (int p = 0; p < g->nb_planes; p++) {
                int q, step, offset;
                source_of(g->geo.chroma_layout[w], p, &q, &step, &offset);
                ff_vmaf_picture_unpack_plane(g->slot[s].host + plane_offset(g, w, p),
                                             ff_vmaf_gpu_pitch(g, p), src[q],
                                             g->raw_pitch[w][q], g->stored_w[p], g->stored_h[p],
                                             g->bytes,
                                             step, offset, g->geo.sample_shift[w]);
            }
        }
        g->slot[s].raw = 0;
    }
    return 0;
}

int ff_vmaf_gpu_functions(FFVmafGpu *g, const FFVmafGpuCode *code,
                          const char *const *names, FFGpuFunction *fns)
{
    FFGpuModule module = NULL;
    int ret;

    for (int i = 0; i < g->nb_modules && !module; i++)
        if (g->modules[i].code == code)
            module = g->modules[i].module;
    if (!module) {
        if (g->nb_modules == FF_VMAF_GPU_MAX_MODULES)
            return AVERROR_BUG;
        if ((ret = ff_gpu_module_load(g->gpu, &module, code->name, code->amd, code->nv)) < 0)
            return ret;
        g->modules[g->nb_modules].code     = code;
        g->modules[g->nb_modules++].module = module;
    }
    for (int i = 0; names[i]; i++)
        if ((ret = ff_gpu_function(g->gpu, module, names[i], &fns[i])) < 0)
            return ret;
    return 0;
}

int ff_vmaf_gpu_buffer(FFVmafGpu *g, FFGpuPtr *p, size_t size)
{
    int ret;
    if (g->nb_buffers == FF_VMAF_GPU_MAX_BUFFERS)
        return AVERROR_BUG;
    if ((ret = ff_gpu_malloc(g->gpu, p, FFMAX(size, 1))) < 0)
        return ret;
    g->buffers[g->nb_buffers++] = *p;
    return 0;
}

int ff_vmaf_gpu_constants(FFVmafGpu *g, FFGpuPtr *p, const void *src, size_t size)
{
    int ret;
    if ((ret = ff_vmaf_gpu_buffer(g, p, size)) < 0 ||
        (ret = ff_gpu_upload(g->gpu, *p, src, size, g->stream)) < 0)
        return ret;
    /* src may be the caller's stack. */
    return ff_gpu_stream_sync(g->gpu, g->stream);
}

#define RESULTS_ALIGN 256

size_t ff_vmaf_gpu_reserve(FFVmafGpu *g, size_t size)
{
    size_t offset = g->results_size;
    g->results_size += FFALIGN(size, RESULTS_ALIGN);
    return offset;
}

int ff_vmaf_gpu_results_alloc(FFVmafGpu *g)
{
    size_t size = FF_VMAF_GPU_SLOTS * g->results_size;
    int ret;
    if (size && !g->results_dev) {
        if ((ret = ff_gpu_malloc(g->gpu, &g->results_dev, size)) < 0 ||
            (ret = ff_gpu_host_alloc(g->gpu, (void **)&g->results_host, size)) < 0)
            return ret;
        memset(g->results_host, 0, size);
    }
    /* The twins' set-up work (zeroing, tables) ran on g->stream, which
     * their lanes do not follow: finish it before the first frame. */
    return ff_gpu_stream_sync(g->gpu, g->stream);
}

FFGpuPtr ff_vmaf_gpu_results(const FFVmafGpu *g, unsigned index, size_t offset)
{
    return g->results_dev + ff_vmaf_gpu_slot(index) * g->results_size + offset;
}

const void *ff_vmaf_gpu_results_host(const FFVmafGpu *g, unsigned index, size_t offset)
{
    return g->results_host + ff_vmaf_gpu_slot(index) * g->results_size + offset;
}

int ff_vmaf_gpu_launch_2d(FFVmafGpu *g, FFGpuFunction fn, const char *name, int w, int h,
                          unsigned bx, unsigned by, unsigned max_gy, void **args)
{
    unsigned gy;
    if (w <= 0 || h <= 0)
        return 0;
    gy = (h + by - 1) / by;
    if (max_gy)
        gy = FFMIN(gy, max_gy);
    return ff_gpu_launch(g->gpu, fn, name, (w + bx - 1) / bx, gy, bx, by, g->queue, args);
}

size_t ff_vmaf_gpu_pitch(const FFVmafGpu *g, int plane)
{
    return (size_t)g->stored_w[plane] * g->bytes;
}

int ff_vmaf_gpu_frame_queued(FFVmafGpu *g, unsigned index)
{
    int s = ff_vmaf_gpu_slot(index), ret;
    if (g->results_size &&
        (ret = ff_gpu_download(g->gpu, g->results_host + s * g->results_size,
                               g->results_dev + s * g->results_size, g->results_size,
                               g->stream)) < 0)
        return ret;
    if (g->timing &&
        (ret = ff_gpu_event_record(g->gpu, g->ends[index % FF_ARRAY_ELEMS(g->ends)], g->stream)) < 0)
        return ret;
    return ff_gpu_event_record(g->gpu, g->slot[s].done, g->stream);
}

int ff_vmaf_gpu_frame_wait(FFVmafGpu *g, unsigned index)
{
    int s = ff_vmaf_gpu_slot(index), ret;
    double t;
    if ((ret = ff_gpu_event_sync(g->gpu, g->slot[s].done)) < 0)
        return ret;
    if (g->timing && !g->slot[s].timed) {
        const int n = FF_ARRAY_ELEMS(g->ends);
        FFGpuEvent end = g->ends[index % n];
        if ((ret = ff_gpu_event_elapsed(g->gpu, g->slot[s].begin, end, &t)) < 0)
            return ret;
        if (index && g->last_timed == (int64_t)index - 1) {
            double since;
            if ((ret = ff_gpu_event_elapsed(g->gpu, g->ends[(index - 1) % n], end, &since)) < 0)
                return ret;
            t = FFMIN(t, since);
        }
        g->last_timed = index;
        g->busy += t;
        g->nb_timed++;
        g->slot[s].timed = 1;
    }
    return 0;
}

int ff_vmaf_gpu_frame_ready(FFVmafGpu *g, unsigned index)
{
    return ff_gpu_event_query(g->gpu, g->slot[ff_vmaf_gpu_slot(index)].done);
}

int ff_vmaf_gpu_enable_timing(FFVmafGpu *g)
{
    int ret = 0;
    for (int i = 0; i < FF_VMAF_GPU_SLOTS && ret >= 0; i++)
        ret = ff_gpu_event_create_timed(g->gpu, &g->slot[i].begin);
    for (int i = 0; i < FF_ARRAY_ELEMS(g->ends) && ret >= 0; i++)
        ret = ff_gpu_event_create_timed(g->gpu, &g->ends[i]);
    g->last_timed = -1;
    g->timing = ret >= 0;
    return ret;
}
