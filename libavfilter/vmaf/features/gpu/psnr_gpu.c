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
 * The GPU twin of the integer PSNR extractor: the sums of squared
 * differences on the GPU, the rest (psnr.c) on the host.
 */

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/features/psnr.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

static const char *const psnr_kernels[] = { "vmaf_psnr_sse_8", "vmaf_psnr_sse_16", NULL };
FF_VMAF_GPU_CODE(psnr, psnr_kernels);

typedef struct PSNRGpuContext {
    PSNRContext cpu;            ///< first: the CPU extractor's options and state
    FFGpuFunction sse[2];       ///< 8-bit, 16-bit
    size_t sums;                ///< 3 uint64 sums in the frame's results
} PSNRGpuContext;

static int psnr_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    PSNRGpuContext *s = f->priv;
    int ret;

    if ((ret = ff_vmaf_gpu_functions(f->gpu, &ff_vmaf_gpu_code_psnr, psnr_kernels, s->sse)) < 0)
        return ret;
    s->sums = ff_vmaf_gpu_reserve(f->gpu, 3 * sizeof(uint64_t));
    return 0;
}

static int psnr_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                            const FFVmafPicture *dis, unsigned index,
                            FFVmafFeatureCollector *fc)
{
    PSNRGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuFunction sse = s->sse[g->bytes > 1];
    int ret;

    for (int p = 0; p < s->cpu.nb_planes; p++) {
        FFGpuPtr r = ff_vmaf_gpu_plane(g, index, 0, p), d = ff_vmaf_gpu_plane(g, index, 1, p);
        FFGpuPtr out = ff_vmaf_gpu_results(g, index, s->sums + p * sizeof(uint64_t));
        size_t pitch = ff_vmaf_gpu_pitch(g, p);
        int w = g->w[p], h = g->h[p];
        void *args[] = { &r, &pitch, &d, &pitch, &w, &h, &out };
        if ((ret = ff_vmaf_gpu_launch_2d(g, sse, "vmaf_psnr_sse", w, h, 32, 8, 64, args)) < 0)
            return ret;
    }
    return 0;
}

static int psnr_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    PSNRGpuContext *s = f->priv;
    return ff_vmaf_psnr_write(f, fc, index, ff_vmaf_gpu_results_host(f->gpu, index, s->sums),
                              f->gpu->w, f->gpu->h);
}

extern const FFVmafExtractor ff_vmaf_extractor_psnr;

const FFVmafExtractor ff_vmaf_extractor_psnr_gpu = {
    .name        = "psnr",
    .options     = ff_vmaf_psnr_options,
    .priv_size   = sizeof(PSNRGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_EVERY_FRAME |
                   FF_VMAF_EXTRACTOR_GPU | FF_VMAF_EXTRACTOR_CHROMA,
    .provides    = ff_vmaf_psnr_provides,
    .frame_delay = 1,
    .init        = psnr_gpu_init,
    .extract     = psnr_gpu_extract,
    .flush       = ff_vmaf_psnr_flush,
    .collect     = psnr_gpu_collect,
    .cpu         = &ff_vmaf_extractor_psnr,
};
