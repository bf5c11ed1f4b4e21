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
 * The GPU twins of float_ssim and float_ms_ssim: decimation, the SSIM
 * core and its sequential sums (with the CPU's bits) on the GPU, one
 * launcher for both; the means, exponents and dB (ssim.c, ms_ssim.c) on
 * the host.
 */

#include <stdint.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/features/ssim.h"
#include "libavfilter/vmaf/features/ssim_dsp.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"
#include "ssim_sum.h"

static const char *const ssim_kernels[] = {
    "vmaf_ssim_box_8", "vmaf_ssim_box_16",
    "vmaf_ms_ssim_decimate_8", "vmaf_ms_ssim_decimate_16", "vmaf_ms_ssim_decimate_f",
    "vmaf_ssim_terms_8", "vmaf_ssim_terms_16", "vmaf_ssim_terms_f",
    "vmaf_ssim_prefix", "vmaf_ssim_rows", "vmaf_ssim_scan",
    NULL
};
FF_VMAF_GPU_CODE(ssim, ssim_kernels);

enum {
    K_BOX8, K_BOX16, K_DEC8, K_DEC16, K_DECF, K_TERMS8, K_TERMS16, K_TERMSF,
    K_PREFIX, K_ROWS, K_SCAN, NB_KERNELS
};

/* Geometry of the kernels (ssim.hip). */
#define TILE_X        32
#define TILE_Y        32
#define THREADS_Y     8
#define PREFIX_THREADS 1024
#define ROWS_THREADS  128
#define SCAN_THREADS  1024

/*
 * Sets of intermediates: the sums' scan is a chain of small launches that
 * leaves most of the GPU idle, so two frames of a twin run at once, each
 * with its own set, on lanes of their own (FFVmafExtractor.gpu_sets).
 */
#define SETS 2

typedef struct SsimGpu {
    FFGpuFunction fn[NB_KERNELS];
    FFSsimSumLayout L[SETS];    ///< passed to the sum kernels as it is
    int w[FF_SSIM_SUM_SCALES], h[FF_SSIM_SUM_SCALES];   ///< input of each scale
    FFGpuPtr lvl[SETS][FF_SSIM_SUM_SCALES][2];  ///< float planes; 0: the ring's planes
    FFGpuPtr win, lowpass;      ///< the host's taps
    int factor;                 ///< float_ssim's box decimation (1: none)
    int total_rows;             ///< of every (scale, sum)
    float div;                  ///< 2^(bpc - 8)
    size_t sums;                ///< nb_scales * nb_sums doubles in the frame's results
} SsimGpu;

/*
 * Set up nb_scales scales of nb_sums sums, scale 0 of size w x h: the
 * ring's planes when scale0_float is 0, else float planes of the twin's.
 * MS-SSIM's further scales halve with the low-pass.
 */
static int ssim_gpu_init(FFVmafGpu *g, SsimGpu *sg, int nb_scales, int nb_sums,
                         int w, int h, int scale0_float, int factor)
{
    FFSsimSumLayout *L = &sg->L[0];
    size_t size = 0, off[FF_SSIM_SUM_SCALES][6];
    FFGpuPtr base;
    int ret;

    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_ssim, ssim_kernels, sg->fn)) < 0)
        return ret;
    memset(L, 0, sizeof(*L));
    L->nb_scales = nb_scales;
    L->nb_sums   = nb_sums;
    sg->factor   = factor;
    sg->div      = g->geo.bpc > 8 ? (float)(1 << (g->geo.bpc - 8)) : 1.0f;
    sg->total_rows = 0;

    /* One device buffer a set: per scale the float planes, then the
     * terms, approximate sums and starts, row models. */
#define ALLOC(n) (size += FFALIGN((size_t)(n), 256), size - FFALIGN((size_t)(n), 256))
    for (int i = 0; i < nb_scales; i++) {
        int ow, oh, ncx;
        if (i > 0) {
            w = ff_vmaf_ssim_decimated_size(w, 2);
            h = ff_vmaf_ssim_decimated_size(h, 2);
        }
        ow  = w - FF_VMAF_SSIM_WINDOW + 1;
        oh  = h - FF_VMAF_SSIM_WINDOW + 1;
        ncx = (ow + FF_SSIM_SUM_CHUNK - 1) / FF_SSIM_SUM_CHUNK;
        sg->w[i] = w;
        sg->h[i] = h;
        L->ow[i] = ow;
        L->oh[i] = oh;
        L->ncx[i] = ncx;
        sg->total_rows += nb_sums * oh;
        off[i][0] = i || scale0_float ? ALLOC((size_t)w * h * sizeof(float)) : 0;
        off[i][1] = i || scale0_float ? ALLOC((size_t)w * h * sizeof(float)) : 0;
        off[i][2] = ALLOC((size_t)nb_sums * ow * oh * sizeof(double));
        off[i][3] = ALLOC((size_t)nb_sums * oh * ncx * sizeof(double));
        off[i][4] = ALLOC((size_t)nb_sums * oh * sizeof(double));
        off[i][5] = ALLOC((size_t)nb_sums * oh * sizeof(FFSsimModel));
    }
#undef ALLOC
    if ((ret = ff_vmaf_gpu_buffer(g, &base, SETS * size)) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &sg->win, ff_vmaf_ssim_window,
                                     sizeof(ff_vmaf_ssim_window))) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &sg->lowpass, ff_vmaf_ms_ssim_lowpass,
                                     sizeof(ff_vmaf_ms_ssim_lowpass))) < 0)
        return ret;
    for (int k = 0; k < SETS; k++, base += size) {
        sg->L[k] = *L;
        for (int i = 0; i < nb_scales; i++) {
            sg->lvl[k][i][0]   = i || scale0_float ? base + off[i][0] : 0;
            sg->lvl[k][i][1]   = i || scale0_float ? base + off[i][1] : 0;
            sg->L[k].terms[i]  = base + off[i][2];
            sg->L[k].approx[i] = base + off[i][3];
            sg->L[k].start[i]  = base + off[i][4];
            sg->L[k].rows[i]   = base + off[i][5];
        }
    }
    sg->sums = ff_vmaf_gpu_reserve(g, (size_t)nb_scales * nb_sums * sizeof(double));
    return 0;
}

/* Queue frame index: its sums land in the frame's results. */
static int ssim_gpu_run(FFVmafGpu *g, SsimGpu *sg, unsigned index)
{
    const int set = index % SETS;
    FFSsimSumLayout *L = &sg->L[set];
    FFGpuPtr (*lvl)[2] = sg->lvl[set];
    const int wide = g->bytes > 1;
    FFGpuPtr raw[2] = { ff_vmaf_gpu_plane(g, index, 0, 0), ff_vmaf_gpu_plane(g, index, 1, 0) };
    int64_t raw_pitch = ff_vmaf_gpu_pitch(g, 0);
    FFGpuPtr out = ff_vmaf_gpu_results(g, index, sg->sums);
    int jobs = L->nb_scales * L->nb_sums, ret;

    if (sg->factor > 1) {
        int w = g->w[0], h = g->h[0], ow = sg->w[0], oh = sg->h[0];
        void *args[] = { &lvl[0][0], &lvl[0][1], &raw[0], &raw[1], &raw_pitch,
                         &w, &h, &sg->factor, &ow, &oh, &sg->div };
        if ((ret = ff_vmaf_gpu_launch_2d(g, sg->fn[wide ? K_BOX16 : K_BOX8], "vmaf_ssim_box",
                                         ow, 2 * oh, 32, 8, 0, args)) < 0)
            return ret;
    }
    for (int i = 0; i < L->nb_scales; i++) {
        const int from_raw = !lvl[i][0];
        FFGpuPtr ref = from_raw ? raw[0] : lvl[i][0];
        FFGpuPtr dis = from_raw ? raw[1] : lvl[i][1];
        int64_t pitch = from_raw ? raw_pitch : (int64_t)sg->w[i] * sizeof(float);
        int w = sg->w[i], h = sg->h[i], nb_sums = L->nb_sums;
        void *targs[] = { &ref, &dis, &pitch, &w, &h, &sg->div, &sg->win,
                          &L->terms[i], &L->approx[i], &nb_sums };
        int k = from_raw ? (wide ? K_TERMS16 : K_TERMS8) : K_TERMSF;

        if (i + 1 < L->nb_scales) {
            /* The next level of the pyramid, from this one. */
            int nw = sg->w[i + 1], nh = sg->h[i + 1];
            void *dargs[] = { &lvl[i + 1][0], &lvl[i + 1][1], &ref, &dis, &pitch,
                              &w, &h, &nw, &nh, &sg->div, &sg->lowpass };
            int kd = from_raw ? (wide ? K_DEC16 : K_DEC8) : K_DECF;
            if ((ret = ff_vmaf_gpu_launch_2d(g, sg->fn[kd], "vmaf_ms_ssim_decimate",
                                             nw, 2 * nh, 32, 8, 0, dargs)) < 0)
                return ret;
        }
        if ((ret = ff_vmaf_gpu_launch_2d(g, sg->fn[k], "vmaf_ssim_terms", L->ow[i],
                                         (L->oh[i] + TILE_Y - 1) / TILE_Y * THREADS_Y,
                                         TILE_X, THREADS_Y, 0, targs)) < 0)
            return ret;
    }
    {
        void *largs[] = { L };
        void *sargs[] = { L, &out };
        if ((ret = ff_vmaf_gpu_launch_2d(g, sg->fn[K_PREFIX], "vmaf_ssim_prefix",
                                         jobs * PREFIX_THREADS, 1, PREFIX_THREADS, 1, 0,
                                         largs)) < 0 ||
            (ret = ff_vmaf_gpu_launch_2d(g, sg->fn[K_ROWS], "vmaf_ssim_rows",
                                         sg->total_rows * ROWS_THREADS, 1, ROWS_THREADS, 1, 0,
                                         largs)) < 0 ||
            (ret = ff_vmaf_gpu_launch_2d(g, sg->fn[K_SCAN], "vmaf_ssim_scan",
                                         jobs * SCAN_THREADS, 1, SCAN_THREADS, 1, 0, sargs)) < 0)
            return ret;
    }
    return 0;
}

static const double *ssim_gpu_sums(FFVmafGpu *g, const SsimGpu *sg, unsigned index)
{
    return ff_vmaf_gpu_results_host(g, index, sg->sums);
}

/* ---- float_ssim ---- */

typedef struct SSIMGpuContext {
    SSIMContext cpu;            ///< first: the CPU extractor's options and state
    SsimGpu sg;
} SSIMGpuContext;

static int float_ssim_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    SSIMGpuContext *s = f->priv;

    /* Past 16, the CPU's box decimation writes nothing: nothing to match. */
    if (s->cpu.factor > 16)
        return AVERROR(ENOSYS);
    return ssim_gpu_init(f->gpu, &s->sg, 1, 4, s->cpu.sw, s->cpu.sh, s->cpu.factor > 1,
                         s->cpu.factor);
}

static int float_ssim_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                  const FFVmafPicture *dis, unsigned index,
                                  FFVmafFeatureCollector *fc)
{
    SSIMGpuContext *s = f->priv;
    return ssim_gpu_run(f->gpu, &s->sg, index);
}

static int float_ssim_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    SSIMGpuContext *s = f->priv;
    const double *v = ssim_gpu_sums(f->gpu, &s->sg, index);
    const FFVmafSsimSums sums = { .l = v[0], .c = v[1], .s = v[2], .ssim = v[3] };
    return ff_vmaf_ssim_write(f, fc, index, &sums);
}

extern const FFVmafExtractor ff_vmaf_extractor_float_ssim;

const FFVmafExtractor ff_vmaf_extractor_float_ssim_gpu = {
    .name      = "float_ssim",
    .options   = ff_vmaf_ssim_options,
    .priv_size = sizeof(SSIMGpuContext),
    .flags     = FF_VMAF_EXTRACTOR_GPU,
    .provides  = ff_vmaf_ssim_provides,
    .init      = float_ssim_gpu_init,
    .extract   = float_ssim_gpu_extract,
    .close     = ff_vmaf_ssim_close,
    .collect   = float_ssim_gpu_collect,
    .gpu_sets  = SETS,
    .cpu       = &ff_vmaf_extractor_float_ssim,
};

/* ---- float_ms_ssim ---- */

typedef struct MSSSIMGpuContext {
    MSSSIMContext cpu;          ///< first: the CPU extractor's options and state
    SsimGpu sg;
} MSSSIMGpuContext;

static int float_ms_ssim_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    MSSSIMGpuContext *s = f->priv;

    return ssim_gpu_init(f->gpu, &s->sg, FF_VMAF_MS_SSIM_SCALES, 3, geo->width, geo->height,
                         0, 1);
}

static int float_ms_ssim_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                     const FFVmafPicture *dis, unsigned index,
                                     FFVmafFeatureCollector *fc)
{
    MSSSIMGpuContext *s = f->priv;
    return ssim_gpu_run(f->gpu, &s->sg, index);
}

static int float_ms_ssim_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    MSSSIMGpuContext *s = f->priv;
    const double *v = ssim_gpu_sums(f->gpu, &s->sg, index);
    FFVmafSsimSums sums[FF_VMAF_MS_SSIM_SCALES];

    for (int i = 0; i < FF_VMAF_MS_SSIM_SCALES; i++, v += 3) {
        sums[i].l    = v[0];
        sums[i].c    = v[1];
        sums[i].s    = v[2];
        sums[i].ssim = 0.0;     /* not used by MS-SSIM */
    }
    return ff_vmaf_ms_ssim_write(f, fc, index, sums);
}

extern const FFVmafExtractor ff_vmaf_extractor_float_ms_ssim;

const FFVmafExtractor ff_vmaf_extractor_float_ms_ssim_gpu = {
    .name      = "float_ms_ssim",
    .options   = ff_vmaf_ms_ssim_options,
    .priv_size = sizeof(MSSSIMGpuContext),
    .flags     = FF_VMAF_EXTRACTOR_GPU,
    .provides  = ff_vmaf_ms_ssim_provides,
    .init      = float_ms_ssim_gpu_init,
    .extract   = float_ms_ssim_gpu_extract,
    .close     = ff_vmaf_ms_ssim_close,
    .collect   = float_ms_ssim_gpu_collect,
    .gpu_sets  = SETS,
    .cpu       = &ff_vmaf_extractor_float_ms_ssim,
};
