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
 * The GPU twin of the float VIF extractor: the pyramid, the statistics,
 * the information terms and their per-row float sums on the GPU
 * (float_vif.hip); the rows added in row order and the scores on the
 * host with the CPU extractor's code (float_vif.c).
 *
 * vif_prescale stays on the CPU (its resampler has no kernel).
 */

#include <math.h>
#include <stdint.h>

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/features/float_vif.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

#define SCALES FF_VMAF_FLOAT_VIF_SCALES

enum {
    K_VSTATS_8, K_VSTATS_16, K_VSTATS_F, K_HSTATS,
    K_VDEC_8, K_VDEC_16, K_VDEC_F, K_HDEC, K_ROWSUM, NB_KERNELS
};

static const char *const float_vif_kernels[] = {
    "vmaf_fvif_vstats_8", "vmaf_fvif_vstats_16", "vmaf_fvif_vstats_f", "vmaf_fvif_hstats",
    "vmaf_fvif_vdec_8", "vmaf_fvif_vdec_16", "vmaf_fvif_vdec_f", "vmaf_fvif_hdec",
    "vmaf_fvif_rowsum", NULL
};
FF_VMAF_GPU_CODE(float_vif, float_vif_kernels);

/* The kernels' block (float_vif.hip). */
#define BLOCK_X 32
#define BLOCK_Y 8
#define ROWSUM_BLOCK 64

#define ALIGN(x) (((x) + 255) & ~(size_t)255)

typedef struct FloatVIFGpuContext {
    FloatVIFContext cpu;        ///< first: the CPU extractor's options and state
    FFGpuFunction fn[NB_KERNELS];
    FFGpuPtr taps;              ///< SCALES x FF_VMAF_FLOAT_MAX_TAPS floats
    FFGpuPtr stat[5];           ///< vertical statistics, scale-0 sized
    FFGpuPtr vdec[2];           ///< vertical pass of a decimation, ref and dis
    FFGpuPtr plane[SCALES][2];  ///< scales 1..3, ref and dis
    FFGpuPtr terms;             ///< num then den of every scale
    size_t terms_off[SCALES];   ///< bytes from terms to each scale's num
    int nb_rows;                ///< rows summed: of the scales computed
    size_t parts;               ///< 2 floats a row in the frame's results
    float egl, smi;
} FloatVIFGpuContext;

static int alloc_buffers(FFVmafFeature *f, int w, int h)
{
    FloatVIFGpuContext *s = f->priv;
    const size_t n = (size_t)w * h;
    size_t size = 0, off_stat[5], off_vdec[2], off_plane[SCALES][2], off_terms, terms = 0;
    FFGpuPtr buf;
    int ret;

    for (int k = 0; k < 5; k++) {
        off_stat[k] = size;
        size += ALIGN(n * sizeof(float));
    }
    for (int c = 0; c < 2; c++) {
        off_vdec[c] = size;
        size += ALIGN((size_t)w * (h / 2) * sizeof(float));
    }
    for (int k = 0, kw = w, kh = h; k < SCALES; k++, kw /= 2, kh /= 2) {
        s->terms_off[k] = terms;
        terms += 2 * (size_t)kw * kh * sizeof(float);
        if (!k)
            continue;
        for (int c = 0; c < 2; c++) {
            off_plane[k][c] = size;
            size += ALIGN((size_t)kw * kh * sizeof(float));
        }
    }
    off_terms = size;
    size += terms;

    if ((ret = ff_vmaf_gpu_buffer(f->gpu, &buf, size)) < 0)
        return ret;
    for (int k = 0; k < 5; k++)
        s->stat[k] = buf + off_stat[k];
    for (int c = 0; c < 2; c++)
        s->vdec[c] = buf + off_vdec[c];
    for (int k = 1; k < SCALES; k++)
        for (int c = 0; c < 2; c++)
            s->plane[k][c] = buf + off_plane[k][c];
    s->terms = buf + off_terms;
    return 0;
}

static int float_vif_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatVIFGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    int ret;

    if (fabs(s->cpu.prescale - 1.0) >= 1e-3)
        return AVERROR(ENOSYS);
    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_float_vif, float_vif_kernels,
                                     s->fn)) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->taps, s->cpu.taps, sizeof(s->cpu.taps))) < 0 ||
        (ret = alloc_buffers(f, s->cpu.w, s->cpu.h)) < 0)
        return ret;
    s->nb_rows = 0;
    for (int k = s->cpu.skip_scale0 ? 1 : 0; k < SCALES; k++)
        s->nb_rows += s->cpu.h >> k;
    s->parts = ff_vmaf_gpu_reserve(g, 2 * (size_t)s->nb_rows * sizeof(float));
    /* The constants of ff_vmaf_float_vif_terms(), computed as it does. */
    s->egl = (float)s->cpu.enhn_gain_limit;
    s->smi = (float)(powf((float)s->cpu.sigma_nsq, 2.0f) / 65025.0);
    return 0;
}

static int float_vif_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                 const FFVmafPicture *dis, unsigned index,
                                 FFVmafFeatureCollector *fc)
{
    FloatVIFGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    const int hbd = g->bytes > 1;
    FFGpuPtr cur[2] = { ff_vmaf_gpu_plane(g, index, 0, 0), ff_vmaf_gpu_plane(g, index, 1, 0) };
    FFGpuPtr parts = ff_vmaf_gpu_results(g, index, s->parts), terms = s->terms;
    size_t pitch = ff_vmaf_gpu_pitch(g, 0);
    int w = s->cpu.w, h = s->cpu.h, bpc = g->geo.bpc, first = s->cpu.skip_scale0 ? 1 : 0;
    double sigma_nsq = s->cpu.sigma_nsq;
    int ret;

    for (int k = 0; k < SCALES; k++) {
        FFGpuPtr taps = s->taps + k * sizeof(s->cpu.taps[0]);
        int n = s->cpu.ntaps[k];

        /* Scale 0 is the ring's plane, the others are floats. */
        if (k > 0) {
            FFGpuFunction vdec = k > 1 ? s->fn[K_VDEC_F] : s->fn[hbd ? K_VDEC_16 : K_VDEC_8];
            int h2 = h / 2;
            void *vargs[] = { &s->vdec[0], &s->vdec[1], &cur[0], &cur[1], &pitch,
                              &w, &h, &bpc, &taps, &n };
            void *hargs[] = { &s->plane[k][0], &s->plane[k][1], &s->vdec[0], &s->vdec[1],
                              &w, &h, &taps, &n };
            if ((ret = ff_vmaf_gpu_launch_2d(g, vdec, "vmaf_fvif_vdec", w, h2,
                                             BLOCK_X, BLOCK_Y, 0, vargs)) < 0 ||
                (ret = ff_vmaf_gpu_launch_2d(g, s->fn[K_HDEC], "vmaf_fvif_hdec", w / 2, h2,
                                             BLOCK_X, BLOCK_Y, 0, hargs)) < 0)
                return ret;
            cur[0] = s->plane[k][0];
            cur[1] = s->plane[k][1];
            w /= 2;
            h /= 2;
            pitch = w * sizeof(float);
            bpc = 8;
        }
        if (k < first)
            continue;
        {
            FFGpuFunction vstats = k > 0 ? s->fn[K_VSTATS_F] : s->fn[hbd ? K_VSTATS_16 : K_VSTATS_8];
            FFGpuPtr num = terms + s->terms_off[k];
            FFGpuPtr den = num + (size_t)w * h * sizeof(float);
            void *vargs[] = { &s->stat[0], &s->stat[1], &s->stat[2], &s->stat[3], &s->stat[4],
                              &cur[0], &cur[1], &pitch, &w, &h, &bpc, &taps, &n };
            void *hargs[] = { &num, &den, &s->stat[0], &s->stat[1], &s->stat[2], &s->stat[3],
                              &s->stat[4], &w, &h, &taps, &n, &sigma_nsq, &s->egl, &s->smi };
            if ((ret = ff_vmaf_gpu_launch_2d(g, vstats, "vmaf_fvif_vstats", w, h,
                                             BLOCK_X, BLOCK_Y, 0, vargs)) < 0 ||
                (ret = ff_vmaf_gpu_launch_2d(g, s->fn[K_HSTATS], "vmaf_fvif_hstats", w, h,
                                             BLOCK_X, BLOCK_Y, 0, hargs)) < 0)
                return ret;
        }
    }
    {
        int w0 = s->cpu.w, h0 = s->cpu.h;
        void *args[] = { &parts, &terms, &w0, &h0, &first };
        return ff_vmaf_gpu_launch_2d(g, s->fn[K_ROWSUM], "vmaf_fvif_rowsum", s->nb_rows, 1,
                                     ROWSUM_BLOCK, 1, 0, args);
    }
}

static int float_vif_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    FloatVIFGpuContext *s = f->priv;
    const float *part = ff_vmaf_gpu_results_host(f->gpu, index, s->parts);
    float num[SCALES] = { 0.0f }, den[SCALES] = { -1.0f };

    /* The rows in row order, as vif_statistic() adds them. */
    for (int k = s->cpu.skip_scale0 ? 1 : 0; k < SCALES; k++) {
        float num_sum = 0.0f, den_sum = 0.0f;
        for (int i = 0; i < s->cpu.h >> k; i++, part += 2) {
            num_sum += part[0];
            den_sum += part[1];
        }
        num[k] = num_sum;
        den[k] = den_sum;
    }
    return ff_vmaf_float_vif_write(f, fc, index, num, den);
}

extern const FFVmafExtractor ff_vmaf_extractor_float_vif;

const FFVmafExtractor ff_vmaf_extractor_float_vif_gpu = {
    .name        = "float_vif",
    .options     = ff_vmaf_float_vif_options,
    .priv_size   = sizeof(FloatVIFGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_float_vif_provides,
    .frame_delay = 1,
    .init        = float_vif_gpu_init,
    .extract     = float_vif_gpu_extract,
    .close       = ff_vmaf_float_vif_close,
    .collect     = float_vif_gpu_collect,
    .cpu         = &ff_vmaf_extractor_float_vif,
};
