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

#include "libavutil/avassert.h"
#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/features/motion.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

static const char *const motion_kernels[] = { "vmaf_motion_sad_8", "vmaf_motion_sad_16", NULL };
FF_VMAF_GPU_CODE(motion, motion_kernels);

/* The tiles of vmaf_motion_sad and their block, as in motion.hip. */
#define TILE_W  64
#define TILE_H  16
#define THREADS 256

typedef struct MotionGpuContext {
    MotionContext cpu;          ///< first: the CPU extractor's options and state
    FFGpuFunction sad[2];       ///< 8-bit, 16-bit
    size_t sum;                 ///< one uint64 in the frame's results
} MotionGpuContext;

static int motion_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    MotionGpuContext *s = f->priv;
    int ret;

    /* Nothing to compute: the CPU extractor writes zeros. */
    if (s->cpu.force_zero)
        return AVERROR(ENOSYS);
    /* The ring keeps the planes it reads for that long only. */
    av_assert0(s->cpu.stride <= FF_VMAF_GPU_LOOKBACK);
    if ((ret = ff_vmaf_gpu_functions(f->gpu, &ff_vmaf_gpu_code_motion, motion_kernels,
                                     s->sad)) < 0)
        return ret;
    s->sum = ff_vmaf_gpu_reserve(f->gpu, sizeof(uint64_t));
    return 0;
}

static int motion_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                              const FFVmafPicture *dis, unsigned index,
                              FFVmafFeatureCollector *fc)
{
    MotionGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuPtr sum = ff_vmaf_gpu_results(g, index, s->sum);
    FFGpuPtr prev, cur;
    size_t pitch = ff_vmaf_gpu_pitch(g, 0);
    int w = s->cpu.w, h = s->cpu.h, shift = s->cpu.bpc == 8 ? 8 : s->cpu.bpc;
    void *args[] = { &prev, &pitch, &cur, &pitch, &w, &h, &shift, &sum };

    if (index < (unsigned)s->cpu.m0)
        return 0;
    /* The ring holds the last FF_VMAF_GPU_SLOTS frames: the previous
     * reference (stride 1 or 2 frames back) is still there. The sum
     * starts at 0: the ring zeroes the results with the upload. */
    prev = ff_vmaf_gpu_plane(g, index - s->cpu.stride, 0, 0);
    cur  = ff_vmaf_gpu_plane(g, index, 0, 0);
    /* A block of THREADS threads a TILE_W x TILE_H tile, as in motion.hip. */
    return ff_vmaf_gpu_launch_2d(g, s->sad[g->bytes > 1], "vmaf_motion_sad",
                                 (w + TILE_W - 1) / TILE_W * THREADS, (h + TILE_H - 1) / TILE_H,
                                 THREADS, 1, 0, args);
}

static int motion_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    MotionGpuContext *s = f->priv;
    uint64_t sum = index < (unsigned)s->cpu.m0 ? 0 :
                   *(const uint64_t *)ff_vmaf_gpu_results_host(f->gpu, index, s->sum);
    return ff_vmaf_motion_write(f, fc, index, sum);
}

static int motion_gpu_to_cpu(FFVmafFeature *f, unsigned first)
{
    MotionGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;

    /* The CPU extractor compares with its own copies of the previous
     * references: take them from the ring's host copies (a ring that does
     * not hold them was made after the CPU extractor saw them). The GPU
     * side has no state across frames (it reads both references from the
     * ring), and its resources belong to the ring. */
    for (unsigned k = first > (unsigned)s->cpu.stride ? first - s->cpu.stride : 0; k < first; k++)
        if (ff_vmaf_gpu_holds(g, k))
            ff_vmaf_motion_keep_ref(&s->cpu, k, ff_vmaf_gpu_host_plane(g, k, 0, 0),
                                (ptrdiff_t)g->w[0] * g->bytes);
    return 0;
}

extern const FFVmafExtractor ff_vmaf_extractor_motion;

const FFVmafExtractor ff_vmaf_extractor_motion_gpu = {
    .name        = "motion",
    .options     = ff_vmaf_motion_options,
    .priv_size   = sizeof(MotionGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_EVERY_FRAME |
                   FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_motion_provides,
    .frame_delay = 3,
    .init        = motion_gpu_init,
    .extract     = motion_gpu_extract,
    .flush       = ff_vmaf_motion_flush,
    .close       = ff_vmaf_motion_close,
    .collect     = motion_gpu_collect,
    .to_cpu      = motion_gpu_to_cpu,
    .cpu         = &ff_vmaf_extractor_motion,
};
