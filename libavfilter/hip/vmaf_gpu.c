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


#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "vmaf_gpu.h"

int ff_vmaf_gpu_slot(unsigned index)
{
    return index % FF_VMAF_GPU_SLOTS;
}

void ff_vmaf_gpu_free(FFVmafGpu **pg)
{
    FFVmafGpu *g = *pg;
    if (!g)
        return;
    if (g->gpu && ff_gpu_enter(g->gpu) >= 0) {
        if (g->stream)
            ff_gpu_stream_sync(g->gpu, g->stream);
        for (int i = 0; i < FF_VMAF_GPU_SLOTS; i++) {
            ff_gpu_host_free(g->gpu, (void **)&g->slot[i].host);
            ff_gpu_free(g->gpu, &g->slot[i].dev);
            ff_gpu_event_destroy(g->gpu, &g->slot[i].done);
        }
        ff_gpu_stream_destroy(g->gpu, &g->stream);
        ff_gpu_leave(g->gpu);
    }
    ff_gpu_close(&g->gpu);
    av_freep(pg);
}

int ff_vmaf_gpu_alloc(FFVmafGpu **pg, int device, const FFVmafGeometry *geo,
                      int nb_planes, void *log_ctx)
{
    FFVmafGpu *g = av_mallocz(sizeof(*g));
    int ret;

    if (!g)
        return AVERROR(ENOMEM);
    g->log_ctx   = log_ctx;
    g->geo       = *geo;
    g->nb_planes = nb_planes;
    g->bytes     = geo->bpc > 8 ? 2 : 1;
    for (int p = 0; p < 3; p++) {
        g->w[p] = p ? geo->width  >> geo->ss_x : geo->width;
        g->h[p] = p ? geo->height >> geo->ss_y : geo->height;
        g->plane_size[p] = p < nb_planes ? (size_t)g->w[p] * g->h[p] * g->bytes : 0;
        g->frame_size += g->plane_size[p];
    }

    if ((ret = ff_gpu_open(&g->gpu, device, log_ctx)) < 0) {
        av_free(g);
        return ret;
    }
    if ((ret = ff_gpu_enter(g->gpu)) < 0)
        goto fail;
    ret = ff_gpu_stream_create(g->gpu, &g->stream);
    for (int i = 0; ret >= 0 && i < FF_VMAF_GPU_SLOTS; i++) {
        g->slot[i].index = -1;
        if ((ret = ff_gpu_host_alloc(g->gpu, (void **)&g->slot[i].host, 2 * g->frame_size)) >= 0 &&
            (ret = ff_gpu_malloc(g->gpu, &g->slot[i].dev, 2 * g->frame_size)) >= 0)
            ret = ff_gpu_event_create(g->gpu, &g->slot[i].done);
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

static void stage_picture(const FFVmafGpu *g, uint8_t *dst, const FFVmafPicture *pic)
{
    for (int p = 0; p < g->nb_planes; p++) {
        size_t row = (size_t)g->w[p] * g->bytes;
        const uint8_t *src = pic->data[p];
        for (int y = 0; y < g->h[p]; y++) {
            memcpy(dst, src, row);
            dst += row;
            src += pic->linesize[p];
        }
    }
}

int ff_vmaf_gpu_upload(FFVmafGpu *g, unsigned index, const FFVmafPicture *ref,
                       const FFVmafPicture *dis)
{
    int s = ff_vmaf_gpu_slot(index), ret;

    /* The slot's previous frame is FF_VMAF_GPU_SLOTS frames old and read
     * back long ago; waiting costs nothing but keeps reuse safe. */
    if (g->slot[s].index >= 0 && (ret = ff_gpu_event_sync(g->gpu, g->slot[s].done)) < 0)
        return ret;
    stage_picture(g, g->slot[s].host, ref);
    stage_picture(g, g->slot[s].host + g->frame_size, dis);
    g->slot[s].index = index;
    return ff_gpu_upload(g->gpu, g->slot[s].dev, g->slot[s].host, 2 * g->frame_size, g->stream);
}

int ff_vmaf_gpu_frame_queued(FFVmafGpu *g, unsigned index)
{
    return ff_gpu_event_record(g->gpu, g->slot[ff_vmaf_gpu_slot(index)].done, g->stream);
}

int ff_vmaf_gpu_frame_wait(FFVmafGpu *g, unsigned index)
{
    return ff_gpu_event_sync(g->gpu, g->slot[ff_vmaf_gpu_slot(index)].done);
}
