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
 * The GPU twin of the integer motion extractor: the blurred-difference SAD
 * on the GPU, from the reference planes already in the frame ring; motion2,
 * motion3 and the options on the host (motion.c).
 */

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/motion.h"

#include "code_object.h"
#include "vmaf_gpu.h"

static const char *const motion_kernels[] = { "vmaf_motion_sad_8", "vmaf_motion_sad_16", NULL };
FF_VMAF_GPU_CODE(motion, motion_kernels);

typedef struct MotionHipContext {
    MotionContext cpu;          ///< first: the CPU extractor's options and state
    FFGpuModule module;
    FFGpuFunction sad;
    FFGpuPtr dev_sad;           ///< one sum per ring slot
    uint64_t *host_sad;         ///< page-locked copy of dev_sad
} MotionHipContext;

static void motion_hip_release(FFVmafFeature *f)
{
    MotionHipContext *s = f->priv;
    FFGpu *gpu = f->gpu ? f->gpu->gpu : NULL;
    if (!gpu)
        return;
    ff_gpu_free(gpu, &s->dev_sad);
    ff_gpu_host_free(gpu, (void **)&s->host_sad);
    ff_gpu_module_unload(gpu, s->module);
    s->module = NULL;
}

static void motion_hip_close(FFVmafFeature *f)
{
    motion_hip_release(f);
    ff_vmaf_motion_close(f);
}

static int motion_hip_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    MotionHipContext *s = f->priv;
    FFGpu *gpu = f->gpu->gpu;
    size_t size = FF_VMAF_GPU_SLOTS * sizeof(uint64_t);
    int ret;

    /* Nothing to compute: the CPU extractor writes zeros. */
    if (s->cpu.force_zero)
        return AVERROR(ENOSYS);
    /* The CPU state too: it takes over if the GPU fails. */
    if ((ret = ff_vmaf_motion_init(f, geo)) < 0)
        return ret;
    f->frame_delay += 1;
    if ((ret = ff_gpu_module_load(gpu, &s->module, "motion", ff_vmaf_gpu_code_motion.amd,
                                  ff_vmaf_gpu_code_motion.nv)) < 0 ||
        (ret = ff_gpu_function(gpu, s->module, geo->bpc > 8 ? "vmaf_motion_sad_16" : "vmaf_motion_sad_8",
                               &s->sad)) < 0 ||
        (ret = ff_gpu_malloc(gpu, &s->dev_sad, size)) < 0 ||
        (ret = ff_gpu_host_alloc(gpu, (void **)&s->host_sad, size)) < 0) {
        motion_hip_close(f);
        return ret;
    }
    return 0;
}

static int motion_hip_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                              const FFVmafPicture *dis, unsigned index,
                              FFVmafFeatureCollector *fc)
{
    MotionHipContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    int slot = ff_vmaf_gpu_slot(index), ret;
    FFGpuPtr sum = s->dev_sad + slot * sizeof(uint64_t);
    FFGpuPtr prev, cur;
    int w = s->cpu.w, h = s->cpu.h, shift = s->cpu.bpc == 8 ? 8 : s->cpu.bpc;
    void *args[] = { &prev, &cur, &w, &h, &shift, &sum };

    if (index < (unsigned)s->cpu.m0)
        return 0;
    /* The ring holds the last FF_VMAF_GPU_SLOTS frames: the previous
     * reference (stride 1 or 2 frames back) is still there. */
    prev = ff_vmaf_gpu_plane(g, index - s->cpu.stride, 0, 0);
    cur  = ff_vmaf_gpu_plane(g, index, 0, 0);
    if ((ret = ff_gpu_memset(g->gpu, sum, 0, sizeof(uint64_t), g->stream)) < 0 ||
        (ret = ff_gpu_launch(g->gpu, s->sad, "vmaf_motion_sad", (w + 31) / 32, (h + 7) / 8,
                             32, 8, g->stream, args)) < 0)
        return ret;
    return ff_gpu_download(g->gpu, s->host_sad + slot, sum, sizeof(uint64_t), g->stream);
}

static int motion_hip_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    MotionHipContext *s = f->priv;
    uint64_t sum = index < (unsigned)s->cpu.m0 ? 0 : s->host_sad[ff_vmaf_gpu_slot(index)];
    return ff_vmaf_motion_write(f, fc, index, sum);
}

static int motion_hip_to_cpu(FFVmafFeature *f, unsigned first)
{
    MotionHipContext *s = f->priv;
    FFVmafGpu *g = f->gpu;

    /* The CPU extractor compares with its own copies of the previous
     * references: take them from the ring's host copies. */
    for (unsigned k = first > (unsigned)s->cpu.stride ? first - s->cpu.stride : 0; k < first; k++)
        ff_vmaf_motion_keep_ref(&s->cpu, k, ff_vmaf_gpu_host_plane(g, k, 0, 0),
                                (ptrdiff_t)g->w[0] * g->bytes);
    motion_hip_release(f);
    return 0;
}

extern const FFVmafExtractor ff_vmaf_extractor_motion;

const FFVmafExtractor ff_vmaf_extractor_motion_hip = {
    .name        = "motion",
    .options     = ff_vmaf_motion_options,
    .priv_size   = sizeof(MotionHipContext),
    .flags       = FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_EVERY_FRAME |
                   FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_motion_provides,
    .frame_delay = 3,
    .init        = motion_hip_init,
    .extract     = motion_hip_extract,
    .flush       = ff_vmaf_motion_flush,
    .close       = motion_hip_close,
    .collect     = motion_hip_collect,
    .to_cpu      = motion_hip_to_cpu,
    .cpu         = &ff_vmaf_extractor_motion,
};
