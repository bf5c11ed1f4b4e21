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
 * The GPU twin of the CIEDE2000 extractor: each pixel's Delta E and each
 * row's summary on the GPU (ciede.hip), the few pixels the device's libm
 * leaves in doubt and the frame's sequential sum on the host, so that
 * ciede2000 is the CPU's, bit for bit.
 *
 * The CPU adds the w x h values to one double in raster order. A row whose
 * values are all multiples of 2^q, with the sum before it, and whose total
 * stays below 2^(q + 53), adds without a rounding in any order: then the
 * host adds the device's row sum at once. Elsewhere (a pixel in doubt, a
 * value too fine for the sum so far) it adds the row value by value, from
 * the values read back.
 */

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/intmath.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/features/ciede.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"
#include "ciede_gpu.h"
#include "ciede_pow7_table.h"

static const char *const ciede_kernels[] = {
    "vmaf_ciede_de_8", "vmaf_ciede_de_16", "vmaf_ciede_rows", NULL
};
FF_VMAF_GPU_CODE(ciede, ciede_kernels);

typedef struct CIEDEGpuContext {
    CIEDEContext cpu;           ///< first: the CPU extractor's state
    FFGpuFunction de[2];        ///< 8-bit, 16-bit
    FFGpuFunction rows;
    FFGpuPtr tab_m, tab_away;   ///< the host's powf, ciede_pow7.h
    int tab_n, tab_words;
    /* In each frame's results: */
    size_t values;              ///< w * h floats, each pixel's Delta E
    size_t row_sums;            ///< h CiedeRow
    size_t records;             ///< the count, then CIEDE_MAX_RECORDS CiedeRecord
} CIEDEGpuContext;

static int ciede_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    CIEDEGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    const FFCiedePowfTable *tab;
    FFGpuFunction fns[3];
    int ret;

    if ((ret = ff_ciede_powf_table(&tab)) < 0) {
        av_log(f->log_ctx, AV_LOG_VERBOSE, "ciede: the host's powf is not one the GPU "
               "can follow; ciede stays on the CPU\n");
        return ret;
    }
    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_ciede, ciede_kernels, fns)) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->tab_m, tab->m,
                                     FFMAX(tab->n, 1) * sizeof(*tab->m))) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->tab_away, tab->away,
                                     FFMAX((size_t)FF_CIEDE_POW7_BINADES * tab->words, 1) *
                                     sizeof(*tab->away))) < 0)
        return ret;
    s->tab_n     = tab->n;
    s->tab_words = tab->words;
    s->de[0]     = fns[0];
    s->de[1]     = fns[1];
    s->rows      = fns[2];
    s->values    = ff_vmaf_gpu_reserve(g, (size_t)g->w[0] * g->h[0] * sizeof(float));
    s->row_sums  = ff_vmaf_gpu_reserve(g, (size_t)g->h[0] * sizeof(CiedeRow));
    s->records   = ff_vmaf_gpu_reserve(g, 16 + CIEDE_MAX_RECORDS * sizeof(CiedeRecord));
    return 0;
}

static int ciede_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                             const FFVmafPicture *dis, unsigned index,
                             FFVmafFeatureCollector *fc)
{
    CIEDEGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuPtr r[3], d[3];
    FFGpuPtr values = ff_vmaf_gpu_results(g, index, s->values);
    FFGpuPtr rows = ff_vmaf_gpu_results(g, index, s->row_sums);
    FFGpuPtr count = ff_vmaf_gpu_results(g, index, s->records), records = count + 16;
    int pitch = ff_vmaf_gpu_pitch(g, 0), cpitch = ff_vmaf_gpu_pitch(g, 1);
    int w = g->w[0], h = g->h[0], ss_x = s->cpu.ss_x, ss_y = s->cpu.ss_y, ret;
    double y_off = s->cpu.scale.y_off, y_mul = s->cpu.scale.y_mul;
    double c_off = s->cpu.scale.c_off, c_mul = s->cpu.scale.c_mul;
    void *de_args[] = { &r[0], &r[1], &r[2], &d[0], &d[1], &d[2], &pitch, &cpitch,
                        &w, &h, &ss_x, &ss_y, &y_off, &y_mul, &c_off, &c_mul,
                        &s->tab_m, &s->tab_away, &s->tab_n, &s->tab_words,
                        &values, &count, &records };
    void *rows_args[] = { &values, &w, &rows };

    for (int p = 0; p < 3; p++) {
        r[p] = ff_vmaf_gpu_plane(g, index, 0, p);
        d[p] = ff_vmaf_gpu_plane(g, index, 1, p);
    }
    if ((ret = ff_vmaf_gpu_launch_2d(g, s->de[g->bytes > 1], "vmaf_ciede_de", w, h,
                                     32, 8, 0, de_args)) < 0)
        return ret;
    return ff_gpu_launch(g->gpu, s->rows, "vmaf_ciede_rows", h, 1, CIEDE_ROWS_THREADS, 1,
                         g->queue, rows_args);
}

/* Lowest set bit of a positive finite double (2^result); INT_MAX for 0. */
static int lowest_bit(double v)
{
    double m;
    int e;

    if (v == 0.0)
        return INT_MAX;
    m = frexp(v, &e);                   /* v = m 2^e, m in [0.5, 1): m 2^53 an integer */
    return e - 53 + ff_ctzll((uint64_t)ldexp(m, 53));
}

static int compare_records(const void *a, const void *b)
{
    const CiedeRecord *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

static float record_delta_e(const CIEDEContext *cpu, const CiedeRecord *r)
{
    const FFVmafLab a = ff_vmaf_ciede_yuv_to_lab(&cpu->scale, r->c[0], r->c[1], r->c[2]);
    const FFVmafLab b = ff_vmaf_ciede_yuv_to_lab(&cpu->scale, r->c[3], r->c[4], r->c[5]);
    return ff_vmaf_ciede_delta_e(&a, &b);
}

static int ciede_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    CIEDEGpuContext *s = f->priv;
    const float *values = ff_vmaf_gpu_results_host(f->gpu, index, s->values);
    const CiedeRow *rows = ff_vmaf_gpu_results_host(f->gpu, index, s->row_sums);
    const uint32_t nb = *(const uint32_t *)ff_vmaf_gpu_results_host(f->gpu, index, s->records);
    const CiedeRecord *in = (const CiedeRecord *)
        ((const uint8_t *)ff_vmaf_gpu_results_host(f->gpu, index, s->records) + 16);
    CiedeRecord *rec = NULL;
    int w = f->gpu->w[0], h = f->gpu->h[0], next = 0;
    double sum = 0.0;
    float left = 0.0f;

    if (nb > CIEDE_MAX_RECORDS) {
        av_log(f->log_ctx, AV_LOG_ERROR, "ciede: frame %u has %u pixels whose Delta E "
               "the GPU leaves to the host, more than the %d it keeps: the GPU cannot score "
               "it (backend=auto goes on on the CPU)\n", index, nb, CIEDE_MAX_RECORDS);
        return AVERROR(ENOSPC);
    }
    if (nb) {
        if (!(rec = av_malloc_array(nb, sizeof(*rec))))
            return AVERROR(ENOMEM);
        memcpy(rec, in, nb * sizeof(*rec));
        qsort(rec, nb, sizeof(*rec), compare_records);
    }
    for (int i = 0; i < h; i++) {
        const float *v = values + (size_t)i * w;

        if (!rows[i].special) {
            /* Every partial sum a multiple of 2^q below 2^(q + 53): exact, so
             * any order gives the CPU's. The sum computed stays below the
             * bound only if the exact one does. */
            const int q = FFMIN(lowest_bit(sum), rows[i].lsb);
            const double t = sum + rows[i].sum;
            if (q == INT_MAX || t < ldexp(1.0, q + 53)) {
                sum = t;
                continue;
            }
        }
        for (int j = 0; j < w; j++) {
            union { float f; uint32_t u; } b = { .f = v[j] };
            float e = v[j];

            if (b.u == CIEDE_MARK_RECORD) {
                const uint32_t at = (uint32_t)i * w + j;
                while (next < (int)nb && rec[next].index < at)
                    next++;
                if (next == (int)nb || rec[next].index != at) {
                    av_freep(&rec);
                    return AVERROR_BUG;
                }
                e = record_delta_e(&s->cpu, &rec[next]);
            } else if (b.u == CIEDE_MARK_LEFT) {
                e = left;
            }
            left = e;
            sum += e;
        }
    }
    av_freep(&rec);
    return ff_vmaf_ciede_write(f, fc, index, sum, w, h);
}
extern const FFVmafExtractor ff_vmaf_extractor_ciede;

const FFVmafExtractor ff_vmaf_extractor_ciede_gpu = {
    .name      = "ciede",
    .priv_size = sizeof(CIEDEGpuContext),
    .flags     = FF_VMAF_EXTRACTOR_GPU | FF_VMAF_EXTRACTOR_CHROMA,
    .provides  = ff_vmaf_ciede_provides,
    .init      = ciede_gpu_init,
    .extract   = ciede_gpu_extract,
    .collect   = ciede_gpu_collect,
    .cpu       = &ff_vmaf_extractor_ciede,
};
