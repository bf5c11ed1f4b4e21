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

/*
 * What the fuzz targets share: silent logging that still formats every
 * message, and pictures of a geometry filled from bytes, each plane its own
 * allocation of exactly the size FFmpeg would give it (no padding), so that
 * AddressSanitizer sees any read outside.
 */

#ifndef TESTS_FUZZ_FUZZ_FRAMES_H
#define TESTS_FUZZ_FUZZ_FRAMES_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/log.h"
#include "libavfilter/vmaf/engine.h"

static void fuzz_log(void *avcl, int level, const char *fmt, va_list vl)
{
    char buf[1024];
    (void)avcl;
    (void)level;
    vsnprintf(buf, sizeof(buf), fmt, vl);
}

static void fuzz_init_log(void)
{
    static int done;
    if (!done) {
        av_log_set_level(AV_LOG_DEBUG);
        av_log_set_callback(fuzz_log);
        done = 1;
    }
}

typedef struct FuzzPicture {
    FFVmafPicture pic;
    uint8_t *planes[3];
} FuzzPicture;

typedef struct FuzzBytes {
    const uint8_t *data;
    size_t size, pos;
} FuzzBytes;

static unsigned fuzz_byte(FuzzBytes *b)
{
    /* Cycle over the bytes; none at all gives zeros. */
    if (!b->size)
        return 0;
    if (b->pos >= b->size)
        b->pos = 0;
    return b->data[b->pos++];
}

static void fuzz_picture_free(FuzzPicture *p)
{
    for (int i = 0; i < 3; i++)
        free(p->planes[i]);
    memset(p, 0, sizeof(*p));
}

/*
 * A picture of geo as input `which` stores it (planar, UV/VU pairs, shifted
 * samples). clamp: keep samples within the depth; otherwise any 16-bit value.
 */
static int fuzz_picture_fill(FuzzPicture *p, const FFVmafGeometry *geo,
                             int which, FuzzBytes *b, int clamp)
{
    int bytes = geo->bpc > 8 ? 2 : 1;
    int layout = geo->chroma_layout[which], shift = geo->sample_shift[which];
    /* FFmpeg's chroma planes are rounded up. */
    int cw = -((-geo->width) >> geo->ss_x), ch = -((-geo->height) >> geo->ss_y);
    int nb_planes = layout == FF_VMAF_CHROMA_PLANAR ? 3 : 2;
    unsigned max = (1u << geo->bpc) - 1;

    memset(p, 0, sizeof(*p));
    ff_vmaf_picture_set_geometry(&p->pic, geo);
    p->pic.chroma = layout;
    p->pic.shift  = shift;
    for (int i = 0; i < nb_planes; i++) {
        int w = i ? cw : geo->width, h = i ? ch : geo->height;
        int samples = w * (i && nb_planes == 2 ? 2 : 1);
        ptrdiff_t linesize = (ptrdiff_t)samples * bytes;
        if (!(p->planes[i] = malloc(linesize * h ? linesize * h : 1)))
            return -1;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < samples; x++) {
                unsigned v = fuzz_byte(b);
                if (bytes == 1) {
                    p->planes[i][y * linesize + x] = v;
                } else {
                    v |= fuzz_byte(b) << 8;
                    if (clamp)
                        v = (v & max) << shift;
                    ((uint16_t *)(p->planes[i] + y * linesize))[x] = v;
                }
            }
        }
        p->pic.data[i]     = p->planes[i];
        p->pic.linesize[i] = linesize;
    }
    return 0;
}

/* Push nb_frames pairs filled from b, flush, pool every key; the result. */
static int fuzz_run_frames(FFVmafEngine *e, const FFVmafGeometry *geo,
                           int nb_frames, FuzzBytes *b, int clamp)
{
    int ret = 0;
    for (int n = 0; n < nb_frames && ret >= 0; n++) {
        FuzzPicture ref, dis;
        if (fuzz_picture_fill(&ref, geo, 0, b, clamp) < 0 ||
            fuzz_picture_fill(&dis, geo, 1, b, clamp) < 0)
            abort();
        ret = ff_vmaf_engine_push(e, &ref.pic, &dis.pic);
        fuzz_picture_free(&ref);
        fuzz_picture_free(&dis);
    }
    if (ret >= 0)
        ret = ff_vmaf_engine_flush(e);
    if (ret >= 0) {
        const FFVmafFeatureCollector *fc = ff_vmaf_engine_results(e);
        static FILE *null;
        double v;
        for (int i = 0; i < ff_vmaf_collector_nb_keys(fc); i++)
            for (int m = FF_VMAF_POOL_MIN; m <= FF_VMAF_POOL_HARMONIC_MEAN; m++)
                ff_vmaf_engine_pool(e, ff_vmaf_collector_key(fc, i), m, &v);
        if (!null && !(null = fopen("/dev/null", "w")))
            abort();
        for (int fmt = FF_VMAF_LOG_XML; fmt <= FF_VMAF_LOG_SUB; fmt++)
            ff_vmaf_engine_write_log(e, null, fmt, 1.0, NULL, NULL);
    }
    return ret;
}

#endif /* TESTS_FUZZ_FUZZ_FRAMES_H */
