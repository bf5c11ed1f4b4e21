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
 * The engine's lowest layer: what a frame pair's scoring asks of the
 * engine's state (which features run on which frames, the pictures as the
 * CPU extractors read them, copies of them). It calls nothing above it.
 */

#include <string.h>

#include "libavutil/buffer.h"
#include "libavutil/frame.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "engine.h"
#include "engine_state.h"
#include "feature.h"
#include "picture.h"

/* The scratch planes *buf, allocated the first time they are needed. */
uint8_t *ff_vmaf_engine_unpack_buffer(FFVmafEngine *e, uint8_t **buf)
{
    if (!*buf)
        *buf = av_malloc(ff_vmaf_picture_unpack_size(&e->geo));
    return *buf;
}

int ff_vmaf_engine_cpu_features(const FFVmafEngine *e)
{
    int n = 0;
    for (int i = 0; i < e->nb_features; i++)
        n += !(e->features[i]->ex->flags & FF_VMAF_EXTRACTOR_GPU);
    return n;
}

int ff_vmaf_engine_is_scored(const FFVmafEngine *e, unsigned index)
{
    /* n_subsample counts from the whole run's first frame. */
    return index >= e->win_start && index < e->win_end &&
           (e->chunk_first + index) % e->step == 0;
}

unsigned ff_vmaf_engine_first_scored(const FFVmafEngine *e)
{
    unsigned skip = (e->chunk_first + e->win_start) % e->step;
    return e->win_start + (skip ? e->step - skip : 0);
}

int ff_vmaf_engine_runs_on(const FFVmafEngine *e, const FFVmafFeature *f, unsigned index)
{
    return ff_vmaf_engine_is_scored(e, index) ||
           (f->ex->flags & FF_VMAF_EXTRACTOR_EVERY_FRAME);
}

int ff_vmaf_engine_cpu_runs_on(const FFVmafEngine *e, unsigned index)
{
    for (int i = 0; i < e->nb_features; i++) {
        const FFVmafFeature *f = e->features[i];
        if (!(f->ex->flags & FF_VMAF_EXTRACTOR_GPU) && ff_vmaf_engine_runs_on(e, f, index))
            return 1;
    }
    return 0;
}

/*
 * A 10- or 12-bit picture with samples above (1 << bpc) - 1 is scored as
 * the picture clamped to that maximum, by the GPU and the CPU alike: no
 * decoder writes such samples (a raw file read with the wrong format can
 * hold them), libvmaf's result on them is undefined (its integer kernels
 * overflow), and every in-range picture is left untouched, bit for bit.
 * Only plain host pictures are looked at: the unpack of high-bit-packed
 * ones (P010...) shifts their samples into range, 8- and 16-bit samples
 * cannot exceed it, and hardware frames come in such formats only.
 */
int ff_vmaf_engine_clamp(FFVmafEngine *e, int which, uint8_t **buf, FFVmafPicture *pic)
{
    FFVmafPicture view;
    if (!ff_vmaf_picture_is_plain(pic) || !ff_vmaf_picture_out_of_range(pic, &e->geo))
        return 0;
    if (!ff_vmaf_engine_unpack_buffer(e, buf))
        return AVERROR(ENOMEM);
    ff_vmaf_picture_clamp(&view, *buf, pic, &e->geo);
    *pic = view;
    ff_vmaf_engine_warn_clamped(e, which);
    return 0;
}

void ff_vmaf_engine_warn_clamped(FFVmafEngine *e, int which)
{
    if (!e->clamp_warned[which]) {
        av_log(e->log_ctx, AV_LOG_WARNING,
               "The %s picture of frame %u holds samples above %d, the largest %d-bit value: "
               "they are clamped to %d, here and in any later frame (a decoder never writes "
               "them; is the input's pixel format the right one?).\n",
               which ? "distorted" : "reference", e->nb_pushed, (1 << e->geo.bpc) - 1,
               e->geo.bpc, (1 << e->geo.bpc) - 1);
        e->clamp_warned[which] = 1;
    }
}

/* The picture as the CPU extractors read it: planar, low-bit, in host
 * memory (a device picture's host view, unpacked where needed). */
int ff_vmaf_engine_cpu_view(FFVmafEngine *e, uint8_t **buf, const FFVmafPicture *pic,
                            FFVmafPicture *view, const FFVmafPicture **out)
{
    if (pic->on_device) {
        if (!(pic = pic->host)) {
            av_log(e->log_ctx, AV_LOG_ERROR,
                   "Internal error: a hardware frame without its host copy.\n");
            return AVERROR_BUG;
        }
    }
    if (!ff_vmaf_picture_is_plain(pic)) {
        if (!ff_vmaf_engine_unpack_buffer(e, buf))
            return AVERROR(ENOMEM);
        ff_vmaf_picture_unpack(view, *buf, pic, &e->geo);
        pic = view;
    }
    *out = pic;
    return 0;
}

int ff_vmaf_engine_copy_picture(AVFrame **out, FFVmafPicture *dst, const FFVmafPicture *src)
{
    size_t size[3] = { 0 }, total = 0;
    AVFrame *f;
    uint8_t *p;

    if (src->on_device)
        return AVERROR(ENOSYS);
    for (int i = 0; i < 3; i++)
        if (src->data[i]) {
            if (src->linesize[i] < 0)
                return AVERROR(ENOSYS);
            size[i] = (size_t)src->linesize[i] * ff_vmaf_picture_rows(src, i);
            total  += size[i];
        }
    if (!(f = av_frame_alloc()))
        return AVERROR(ENOMEM);
    if (!(f->buf[0] = av_buffer_alloc(total ? total : 1))) {
        av_frame_free(&f);
        return AVERROR(ENOMEM);
    }
    *dst = *src;
    p = f->buf[0]->data;
    for (int i = 0; i < 3; i++)
        if (src->data[i]) {
            memcpy(p, src->data[i], size[i]);
            dst->data[i] = p;
            p += size[i];
        }
    *out = f;
    return 0;
}
