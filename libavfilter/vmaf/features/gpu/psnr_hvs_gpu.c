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
 * The GPU twin of the PSNR-HVS extractor: the per-block DCT terms and the
 * planes' float accumulators on the GPU (psnr_hvs.hip), the scores
 * (psnr_hvs.c) on the host.
 */

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/features/psnr_hvs.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

static const char *const psnr_hvs_kernels[] = {
    "vmaf_psnr_hvs_terms_8", "vmaf_psnr_hvs_terms_16", "vmaf_psnr_hvs_sum", NULL
};
FF_VMAF_GPU_CODE(psnr_hvs, psnr_hvs_kernels);

/* Must match HVS_SUM_THREADS in psnr_hvs.hip. */
#define SUM_THREADS 256

typedef struct PSNRHVSGpuContext {
    PSNRHVSContext cpu;         ///< first: the CPU extractor's state
    FFGpuFunction terms[2];     ///< 8-bit, 16-bit
    FFGpuFunction sum;
    FFGpuPtr csf, mask_tab;     ///< [3][64] floats each
    FFGpuPtr buf;               ///< 64 floats a block, the planes one after another
    int nbx[3], nby[3], n[3];
    size_t acc;                 ///< 3 float accumulators in the frame's results
} PSNRHVSGpuContext;

static int psnr_hvs_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    PSNRHVSGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuFunction fns[3];
    size_t total = 0;
    int ret;

    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_psnr_hvs, psnr_hvs_kernels, fns)) < 0)
        return ret;
    s->terms[0] = fns[0];
    s->terms[1] = fns[1];
    s->sum      = fns[2];

    for (int p = 0; p < 3; p++) {
        s->nbx[p] = ff_vmaf_psnr_hvs_blocks_x(g->w[p]);
        s->nby[p] = ff_vmaf_psnr_hvs_blocks_y(g->h[p]);
        s->n[p]   = s->nbx[p] * s->nby[p];
        total    += s->n[p];
    }
    if ((ret = ff_vmaf_gpu_constants(g, &s->csf, ff_vmaf_psnr_hvs_csf,
                                     sizeof(ff_vmaf_psnr_hvs_csf))) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->mask_tab, s->cpu.mask_tab,
                                     sizeof(s->cpu.mask_tab))) < 0 ||
        (ret = ff_vmaf_gpu_buffer(g, &s->buf, 64 * total * sizeof(float))) < 0)
        return ret;
    s->acc = ff_vmaf_gpu_reserve(g, 3 * sizeof(float));
    return 0;
}

static int psnr_hvs_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                const FFVmafPicture *dis, unsigned index,
                                FFVmafFeatureCollector *fc)
{
    PSNRHVSGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuFunction terms = s->terms[g->bytes > 1];
    FFGpuPtr out = ff_vmaf_gpu_results(g, index, s->acc), buf = s->buf;
    int maxv = (1 << g->geo.bpc) - 1, ret;
    void *sum_args[] = { &buf, &s->n[0], &s->n[1], &s->n[2], &out };

    for (int p = 0; p < 3; p++) {
        FFGpuPtr r = ff_vmaf_gpu_plane(g, index, 0, p), d = ff_vmaf_gpu_plane(g, index, 1, p);
        FFGpuPtr csf = s->csf + p * 64 * sizeof(float);
        FFGpuPtr mask_tab = s->mask_tab + p * 64 * sizeof(float);
        FFGpuPtr t = buf;
        int pitch = ff_vmaf_gpu_pitch(g, p);
        void *args[] = { &r, &d, &pitch, &s->nbx[p], &s->nby[p], &maxv, &csf, &mask_tab, &t };

        for (int q = 0; q < p; q++)
            t += (size_t)64 * s->n[q] * sizeof(float);
        if ((ret = ff_vmaf_gpu_launch_2d(g, terms, "vmaf_psnr_hvs_terms", s->nbx[p], s->nby[p],
                                         32, 4, 0, args)) < 0)
            return ret;
    }
    return ff_gpu_launch(g->gpu, s->sum, "vmaf_psnr_hvs_sum", 3, 1, SUM_THREADS, 1,
                         g->queue, sum_args);
}

static int psnr_hvs_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    PSNRHVSGpuContext *s = f->priv;
    const float *acc = ff_vmaf_gpu_results_host(f->gpu, index, s->acc);
    int count[3];

    for (int p = 0; p < 3; p++)
        count[p] = 64 * s->n[p];
    return ff_vmaf_psnr_hvs_write(f, fc, index, acc, count);
}

extern const FFVmafExtractor ff_vmaf_extractor_psnr_hvs;

const FFVmafExtractor ff_vmaf_extractor_psnr_hvs_gpu = {
    .name      = "psnr_hvs",
    .priv_size = sizeof(PSNRHVSGpuContext),
    .flags     = FF_VMAF_EXTRACTOR_GPU | FF_VMAF_EXTRACTOR_CHROMA,
    .provides  = ff_vmaf_psnr_hvs_provides,
    .init      = psnr_hvs_gpu_init,
    .extract   = psnr_hvs_gpu_extract,
    .collect   = psnr_hvs_gpu_collect,
    .cpu       = &ff_vmaf_extractor_psnr_hvs,
};
