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
 * The GPU twins of float_psnr, float_moment, float_ansnr and float_motion:
 * the per-frame sums on the GPU (float_simple.hip), the scores on the
 * host with the CPU extractors' code (vmaf/float_*.c, float_simple.h).
 */

#include <math.h>
#include <stdint.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/features/float_simple.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

static const char *const psnr_kernels[]   = { "vmaf_float_psnr_8", "vmaf_float_psnr_16", NULL };
static const char *const moment_kernels[] = { "vmaf_float_moment_8", "vmaf_float_moment_16", NULL };
static const char *const ansnr_kernels[]  = { "vmaf_float_ansnr_8", "vmaf_float_ansnr_16", NULL };
static const char *const motion_kernels[] = { "vmaf_float_motion_8", "vmaf_float_motion_16", NULL };
static const char *const float_simple_kernels[] = {
    "vmaf_float_psnr_8", "vmaf_float_psnr_16",
    "vmaf_float_moment_8", "vmaf_float_moment_16",
    "vmaf_float_ansnr_8", "vmaf_float_ansnr_16",
    "vmaf_float_motion_8", "vmaf_float_motion_16",
    NULL
};
FF_VMAF_GPU_CODE(float_simple, float_simple_kernels);

/* The sum kernels' block, and the rows of a row kernel's block (a warp each). */
#define BLOCK_X 32
#define BLOCK_Y 8
#define SUM_MAX_GY 64
#define ROWS 4

/* What every kernel takes about the samples: 2^(bpc - 8), as the CPU's from_luma. */
static float sample_scale(const FFVmafGpu *g)
{
    return (float)(1 << (g->geo.bpc - 8));
}

/*
 * float_psnr and float_moment add, in one double, terms that are integer
 * multiples of 2^-(2 bpc - 16) (f(x * x) and f(e * e)) or 2^-(bpc - 8) (x),
 * each below 2^(2 bpc) of those units. While w * h of the largest term
 * stays at most 2^53, every partial sum is a representable integer count
 * of units, so the CPU's sum is exact, and the GPU's integer sum, in any
 * order, gives the same double. Larger pictures stay on the CPU.
 */
static int integer_sums_exact(const FFVmafGpu *g, const char *name, void *log_ctx)
{
    if ((uint64_t)g->w[0] * g->h[0] <= UINT64_C(1) << (53 - 2 * g->geo.bpc))
        return 0;
    av_log(log_ctx, AV_LOG_VERBOSE, "Feature '%s': %dx%d at %d bits is too large for the "
           "GPU's exact sums.\n", name, g->w[0], g->h[0], g->geo.bpc);
    return AVERROR(ENOSYS);
}

/* float_psnr */

typedef struct FloatPSNRGpuContext {
    FloatPSNRContext cpu;       ///< first: the CPU extractor's state
    FFGpuFunction sse[2];       ///< 8-bit, 16-bit
    size_t sum;                 ///< one uint64 in the frame's results
    double unit;                ///< 2^(2 bpc - 16): the sum's units per 1.0
} FloatPSNRGpuContext;

static int float_psnr_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatPSNRGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    int ret;

    if ((ret = integer_sums_exact(g, "float_psnr", f->log_ctx)) < 0 ||
        (ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_float_simple, psnr_kernels, s->sse)) < 0)
        return ret;
    s->unit = ldexp(1.0, 2 * g->geo.bpc - 16);
    s->sum  = ff_vmaf_gpu_reserve(g, sizeof(uint64_t));
    return 0;
}

static int float_psnr_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                  const FFVmafPicture *dis, unsigned index,
                                  FFVmafFeatureCollector *fc)
{
    FloatPSNRGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuPtr r = ff_vmaf_gpu_plane(g, index, 0, 0), d = ff_vmaf_gpu_plane(g, index, 1, 0);
    FFGpuPtr out = ff_vmaf_gpu_results(g, index, s->sum);
    size_t pitch = ff_vmaf_gpu_pitch(g, 0);
    int w = g->w[0], h = g->h[0];
    float scale = sample_scale(g);
    void *args[] = { &r, &d, &pitch, &w, &h, &scale, &s->unit, &out };

    return ff_vmaf_gpu_launch_2d(g, s->sse[g->bytes > 1], "vmaf_float_psnr", w, h,
                                 BLOCK_X, BLOCK_Y, SUM_MAX_GY, args);
}

static int float_psnr_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    FloatPSNRGpuContext *s = f->priv;
    const uint64_t *sum = ff_vmaf_gpu_results_host(f->gpu, index, s->sum);
    /* Both steps exact: at most 2^53, divided by a power of two. */
    double noise = (double)*sum / s->unit;
    return ff_vmaf_float_psnr_write(f, fc, index, noise, f->gpu->w[0], f->gpu->h[0]);
}

extern const FFVmafExtractor ff_vmaf_extractor_float_psnr;

const FFVmafExtractor ff_vmaf_extractor_float_psnr_gpu = {
    .name        = "float_psnr",
    .priv_size   = sizeof(FloatPSNRGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_float_psnr_provides,
    .frame_delay = 1,
    .init        = float_psnr_gpu_init,
    .extract     = float_psnr_gpu_extract,
    .collect     = float_psnr_gpu_collect,
    .cpu         = &ff_vmaf_extractor_float_psnr,
};

/* float_moment */

typedef struct FloatMomentGpuContext {
    FloatMomentContext cpu;     ///< first: the CPU extractor's state
    FFGpuFunction sums[2];      ///< 8-bit, 16-bit
    size_t sum;                 ///< 4 uint64: ref x, ref x², dis x, dis x²
    double unit1, unit2;        ///< 2^(bpc - 8), 2^(2 bpc - 16)
} FloatMomentGpuContext;

static int float_moment_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatMomentGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    int ret;

    if ((ret = integer_sums_exact(g, "float_moment", f->log_ctx)) < 0 ||
        (ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_float_simple, moment_kernels,
                                     s->sums)) < 0)
        return ret;
    s->unit1 = ldexp(1.0, g->geo.bpc - 8);
    s->unit2 = ldexp(1.0, 2 * g->geo.bpc - 16);
    s->sum   = ff_vmaf_gpu_reserve(g, 4 * sizeof(uint64_t));
    return 0;
}

static int float_moment_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                    const FFVmafPicture *dis, unsigned index,
                                    FFVmafFeatureCollector *fc)
{
    FloatMomentGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuPtr r = ff_vmaf_gpu_plane(g, index, 0, 0), d = ff_vmaf_gpu_plane(g, index, 1, 0);
    FFGpuPtr out = ff_vmaf_gpu_results(g, index, s->sum);
    size_t pitch = ff_vmaf_gpu_pitch(g, 0);
    int w = g->w[0], h = g->h[0];
    float scale = sample_scale(g);
    void *args[] = { &r, &d, &pitch, &w, &h, &scale, &s->unit1, &s->unit2, &out };

    return ff_vmaf_gpu_launch_2d(g, s->sums[g->bytes > 1], "vmaf_float_moment", w, h,
                                 BLOCK_X, BLOCK_Y, SUM_MAX_GY, args);
}

static int float_moment_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    FloatMomentGpuContext *s = f->priv;
    const uint64_t *sum = ff_vmaf_gpu_results_host(f->gpu, index, s->sum);
    const double n = (double)f->gpu->w[0] * f->gpu->h[0];
    /* The CPU's sums (exact), then its division. */
    const double m[4] = {
        (double)sum[0] / s->unit1 / n, (double)sum[2] / s->unit1 / n,
        (double)sum[1] / s->unit2 / n, (double)sum[3] / s->unit2 / n,
    };
    return ff_vmaf_float_moment_write(f, fc, index, m);
}

extern const FFVmafExtractor ff_vmaf_extractor_float_moment;

const FFVmafExtractor ff_vmaf_extractor_float_moment_gpu = {
    .name        = "float_moment",
    .priv_size   = sizeof(FloatMomentGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_float_moment_provides,
    .frame_delay = 1,
    .init        = float_moment_gpu_init,
    .extract     = float_moment_gpu_extract,
    .collect     = float_moment_gpu_collect,
    .cpu         = &ff_vmaf_extractor_float_moment,
};

/* float_ansnr */

typedef struct FloatANSNRGpuContext {
    FloatANSNRContext cpu;      ///< first: the CPU extractor's state
    FFGpuFunction rows[2];      ///< 8-bit, 16-bit
    FFGpuPtr kr, kd;            ///< the CPU's kernels
    size_t sums;                ///< h float signal sums, then h noise sums
} FloatANSNRGpuContext;

static int float_ansnr_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatANSNRGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    int ret;

    /* The device reads the CPU context's own coefficients. */
    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_float_simple, ansnr_kernels,
                                     s->rows)) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->kr, s->cpu.ref_kernel, sizeof(s->cpu.ref_kernel))) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->kd, s->cpu.dis_kernel, sizeof(s->cpu.dis_kernel))) < 0)
        return ret;
    s->sums = ff_vmaf_gpu_reserve(g, 2 * (size_t)g->h[0] * sizeof(float));
    return 0;
}

static int float_ansnr_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                   const FFVmafPicture *dis, unsigned index,
                                   FFVmafFeatureCollector *fc)
{
    FloatANSNRGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuPtr r = ff_vmaf_gpu_plane(g, index, 0, 0), d = ff_vmaf_gpu_plane(g, index, 1, 0);
    FFGpuPtr out = ff_vmaf_gpu_results(g, index, s->sums);
    size_t pitch = ff_vmaf_gpu_pitch(g, 0);
    int w = g->w[0], h = g->h[0];
    float scale = sample_scale(g);
    void *args[] = { &r, &d, &pitch, &w, &h, &scale, &s->kr, &s->kd, &out };

    /* One warp a row: a grid one block wide. */
    return ff_vmaf_gpu_launch_2d(g, s->rows[g->bytes > 1], "vmaf_float_ansnr", 32, h,
                                 32, ROWS, 0, args);
}

static int float_ansnr_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    FloatANSNRGpuContext *s = f->priv;
    const int w = f->gpu->w[0], h = f->gpu->h[0];
    const float *rows = ff_vmaf_gpu_results_host(f->gpu, index, s->sums);
    float sig = 0.0f, noise = 0.0f;

    /* The rows added in float, in order, as the CPU does. */
    for (int i = 0; i < h; i++) {
        sig   += rows[i];
        noise += rows[h + i];
    }
    return ff_vmaf_float_ansnr_write(f, fc, index, sig, noise, w, h);
}

extern const FFVmafExtractor ff_vmaf_extractor_float_ansnr;

const FFVmafExtractor ff_vmaf_extractor_float_ansnr_gpu = {
    .name          = "float_ansnr",
    .priv_size     = sizeof(FloatANSNRGpuContext),
    .flags         = FF_VMAF_EXTRACTOR_GPU,
    .provides      = ff_vmaf_float_ansnr_provides,
    .plain_outputs = ff_vmaf_float_ansnr_plain_outputs,
    .frame_delay   = 1,
    .init          = float_ansnr_gpu_init,
    .extract       = float_ansnr_gpu_extract,
    .collect       = float_ansnr_gpu_collect,
    .cpu           = &ff_vmaf_extractor_float_ansnr,
};

/* float_motion */

typedef struct FloatMotionGpuContext {
    FloatMotionContext cpu;     ///< first: the CPU extractor's options and state
    FFGpuFunction rows[2];      ///< 8-bit, 16-bit
    FFGpuPtr taps;              ///< the CPU's taps; 0 without a blur
    FFGpuPtr blur[2];           ///< blurred reference of frame i at blur[i % 2]
    size_t sums;                ///< h float row sums of |prev - cur|
} FloatMotionGpuContext;

static int float_motion_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatMotionGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    const size_t plane = (size_t)g->w[0] * g->h[0] * sizeof(float);
    int ret;

    /* Nothing to compute: the CPU extractor writes zeros. */
    if (s->cpu.force_zero)
        return AVERROR(ENOSYS);
    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_float_simple, motion_kernels,
                                     s->rows)) < 0 ||
        (s->cpu.taps &&
         (ret = ff_vmaf_gpu_constants(g, &s->taps, s->cpu.taps,
                                      s->cpu.filter_size * sizeof(*s->cpu.taps))) < 0) ||
        (ret = ff_vmaf_gpu_buffer(g, &s->blur[0], plane)) < 0 ||
        (ret = ff_vmaf_gpu_buffer(g, &s->blur[1], plane)) < 0)
        return ret;
    s->sums = ff_vmaf_gpu_reserve(g, (size_t)g->h[0] * sizeof(float));
    return 0;
}

static int float_motion_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                    const FFVmafPicture *dis, unsigned index,
                                    FFVmafFeatureCollector *fc)
{
    FloatMotionGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuPtr r = ff_vmaf_gpu_plane(g, index, 0, 0);
    FFGpuPtr out = ff_vmaf_gpu_results(g, index, s->sums);
    /* Stream order: frame index - 1 wrote prev, frame index + 1 writes it again. */
    FFGpuPtr cur = s->blur[index % 2], prev = s->blur[(index + 1) % 2];
    size_t pitch = ff_vmaf_gpu_pitch(g, 0);
    int w = g->w[0], h = g->h[0], n = s->cpu.filter_size, has_prev = index > 0;
    float scale = sample_scale(g);
    void *args[] = { &r, &pitch, &w, &h, &scale, &s->taps, &n, &cur, &prev, &has_prev, &out };

    return ff_vmaf_gpu_launch_2d(g, s->rows[g->bytes > 1], "vmaf_float_motion", 32, h,
                                 32, ROWS, 0, args);
}

static int float_motion_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    FloatMotionGpuContext *s = f->priv;
    const int w = f->gpu->w[0], h = f->gpu->h[0];
    float motion = 0.0f;

    if (index != s->cpu.nb_frames) {
        av_log(f->log_ctx, AV_LOG_ERROR, "Feature 'float_motion' got frame %u, expected %u.\n",
               index, s->cpu.nb_frames);
        return AVERROR_BUG;
    }
    if (index > 0) {
        /* The CPU's mean_abs_diff(): the row sums added in float, in order. */
        const float *rows = ff_vmaf_gpu_results_host(f->gpu, index, s->sums);
        float sum = 0.0f;
        for (int i = 0; i < h; i++)
            sum += rows[i];
        motion = sum / (float)(w * h);
    }
    return ff_vmaf_float_motion_write(f, fc, index, motion);
}

static int float_motion_gpu_to_cpu(FFVmafFeature *f, unsigned first)
{
    FloatMotionGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;

    /* The CPU extractor compares frame first with its own blur of the
     * previous reference: make it from the ring's host copy (a ring that
     * does not hold it was made after the CPU extractor blurred it). */
    if (first > 0 && ff_vmaf_gpu_holds(g, first - 1))
        ff_vmaf_float_motion_blur(&s->cpu, first - 1, ff_vmaf_gpu_host_plane(g, first - 1, 0, 0),
                                  ff_vmaf_gpu_pitch(g, 0), g->geo.bpc);
    return 0;
}

/* The ring was made mid-stream: blur frame first - 1 into the buffer that
 * frame first compares with. Its difference with the other buffer (which
 * holds nothing yet) goes to frame first - 1's results, never read. */
static int float_motion_gpu_from_cpu(FFVmafFeature *f, unsigned first)
{
    return float_motion_gpu_extract(f, NULL, NULL, first - 1, NULL);
}

extern const FFVmafExtractor ff_vmaf_extractor_float_motion;

const FFVmafExtractor ff_vmaf_extractor_float_motion_gpu = {
    .name        = "float_motion",
    .options     = ff_vmaf_float_motion_options,
    .priv_size   = sizeof(FloatMotionGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_EVERY_FRAME |
                   FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_float_motion_provides,
    .frame_delay = 2,
    .init        = float_motion_gpu_init,
    .extract     = float_motion_gpu_extract,
    .flush       = ff_vmaf_float_motion_flush,
    .close       = ff_vmaf_float_motion_close,
    .collect     = float_motion_gpu_collect,
    .to_cpu      = float_motion_gpu_to_cpu,
    .from_cpu    = float_motion_gpu_from_cpu,
    .cpu         = &ff_vmaf_extractor_float_motion,
};
