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
 * The GPU twins of the SpEED-QA extractors, speed_chroma and
 * speed_temporal: the pre-processing of each plane (conversion, prescale,
 * blur, decimation, local mean removal) and the block model's window
 * means and covariance on the GPU; the block model itself (eigenvalues,
 * linear solve, log2 per block) and the score on the host, with the CPU's
 * code (speed.c, speed_dsp.c) on the downloaded covariance and operating
 * plane.
 */

#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/features/speed.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

#define B2 FF_VMAF_SPEED_B2
#define TAPS FF_VMAF_SPEED_RESAMPLE_TAPS

/* Launch geometry: speed.hip's BLUR_*, MEAN_BLOCK_*, COV_THREADS. */
#define BLUR_OUT     32
#define BLUR_THREADS 128
#define MEAN_BLOCK_X 32
#define MEAN_BLOCK_Y 8
#define COV_THREADS  64

enum { K_BLUR_8, K_BLUR_16, K_LOCAL_MEAN, K_COV, NB_KERNELS };

static const char *const speed_kernels[] = {
    "vmaf_speed_blur_8", "vmaf_speed_blur_16", "vmaf_speed_local_mean", "vmaf_speed_cov", NULL
};
FF_VMAF_GPU_CODE(speed, speed_kernels);

/** The kernels' SpeedInputs: sample a, or a - b where b is set. */
typedef struct SpeedInputs {
    FFGpuPtr a[4];
    FFGpuPtr b[4];
} SpeedInputs;

typedef struct SpeedGpuContext {
    SpeedContext cpu;           ///< first: the CPU extractor's options and state
    FFGpuFunction fn[NB_KERNELS];
    int nb_in;                  ///< inputs a frame: 4 (chroma), 2 (temporal)
    int wt, ht;                 ///< the region of the operating plane the model reads
    int rec;                    ///< floats a input in the results: covariance, then plane
    size_t results;             ///< offset of the records in the frame's results
    FFGpuPtr d;                 ///< blurred and decimated planes, nb_in x wo x ho
    FFGpuPtr g_blur, g_mean;    ///< the Gaussian taps
    FFGpuPtr xi, xw, yi, yw;    ///< resampling taps, when resampling
    float scale;                ///< 16-bit samples to 8-bit units
    /* The host's block model, of every input of a frame at once. */
    FFVmafSpeedScratch model[4]; ///< only y, x and qy
    FFVmafSpeedFactor fac[4];
    const float *in[4];         ///< each input's covariance, then plane, read back
    float *stats;               ///< per pair: s_ref, e_ref, s_dis, e_dis
    int64_t modelled;           ///< the frame whose models are in fac, model and stats; -1: none
} SpeedGpuContext;

static void speed_gpu_free_host(SpeedGpuContext *s)
{
    for (int w = 0; w < FF_ARRAY_ELEMS(s->model); w++)
        ff_vmaf_speed_scratch_free(&s->model[w]);
    av_freep(&s->stats);
}

/* Device buffers, constants and results for nb_in inputs of s->cpu.cfg. */
static int speed_gpu_setup(FFVmafFeature *f, int nb_in)
{
    SpeedGpuContext *s = f->priv;
    const FFVmafSpeedConfig *c = &s->cpu.cfg;
    FFVmafGpu *g = f->gpu;
    const size_t nb = (size_t)ff_vmaf_speed_nb_blocks(c);
    const size_t ntab = c->resample ? (size_t)(c->ws + c->hs) * TAPS : 0;
    const size_t gsize = 2 * FF_VMAF_SPEED_MAX_TAPS * sizeof(float);
    uint8_t *consts = NULL;
    FFGpuPtr dev;
    int ret;

    s->nb_in = nb_in;
    s->modelled = -1;
    s->wt    = c->nbh * FF_VMAF_SPEED_B;
    s->ht    = c->nbv * FF_VMAF_SPEED_B;
    s->rec   = B2 * B2 + s->wt * s->ht;
    s->scale = 1.0f / (float)(1 << (s->cpu.bpc > 8 ? s->cpu.bpc - 8 : 0));

    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_speed, speed_kernels, s->fn)) < 0 ||
        (ret = ff_vmaf_gpu_buffer(g, &s->d, (size_t)nb_in * c->wo * c->ho * sizeof(float))) < 0)
        return ret;
    s->results = ff_vmaf_gpu_reserve(g, (size_t)nb_in * s->rec * sizeof(float));

    /* Taps: g_blur, g_mean, then column and row resampling taps. */
    if (!(consts = av_mallocz(gsize + ntab * (sizeof(int) + sizeof(float)))))
        return AVERROR(ENOMEM);
    memcpy(consts, c->g_blur, sizeof(c->g_blur));
    memcpy(consts + sizeof(c->g_blur), c->g_mean, sizeof(c->g_mean));
    if (c->resample) {
        int   *xi = (int *)(consts + gsize), *yi = xi + (size_t)c->ws * TAPS;
        float *xw = (float *)(yi + (size_t)c->hs * TAPS), *yw = xw + (size_t)c->ws * TAPS;
        ff_vmaf_speed_resample_taps(c, 0, xi, xw);
        ff_vmaf_speed_resample_taps(c, 1, yi, yw);
    }
    ret = ff_vmaf_gpu_constants(g, &dev, consts,
                                gsize + ntab * (sizeof(int) + sizeof(float)));
    av_free(consts);
    if (ret < 0)
        return ret;
    s->g_blur = dev;
    s->g_mean = dev + sizeof(c->g_blur);
    if (c->resample) {
        s->xi = dev + gsize;
        s->yi = s->xi + (size_t)c->ws * TAPS * sizeof(int);
        s->xw = s->yi + (size_t)c->hs * TAPS * sizeof(int);
        s->yw = s->xw + (size_t)c->ws * TAPS * sizeof(float);
    }

    for (int w = 0; w < nb_in; w++)
        if (!(s->model[w].y  = av_malloc_array(nb * B2 + 1, sizeof(float))) ||
            !(s->model[w].x  = av_malloc_array(nb * B2 + 1, sizeof(float))) ||
            !(s->model[w].qy = av_malloc_array(nb * B2 + 1, sizeof(float)))) {
            speed_gpu_free_host(s);
            return AVERROR(ENOMEM);
        }
    if (!(s->stats = av_malloc_array(2 * nb_in * nb, sizeof(float)))) {
        speed_gpu_free_host(s);
        return AVERROR(ENOMEM);
    }
    return 0;
}

/* Queue the three kernels on the inputs of one frame. */
static int speed_gpu_queue(FFVmafFeature *f, unsigned index, const SpeedInputs *inputs,
                           size_t pitch)
{
    SpeedGpuContext *s = f->priv;
    const FFVmafSpeedConfig *c = &s->cpu.cfg;
    FFVmafGpu *g = f->gpu;
    SpeedInputs in = *inputs;
    FFGpuPtr res = ff_vmaf_gpu_results(g, index, s->results);
    int ws = c->ws, hs = c->hs, wo = c->wo, ho = c->ho, wt = s->wt, ht = s->ht;
    int n_blur = c->n_blur, n_mean = c->n_mean, rec = s->rec;
    int method = c->resample ? c->scale_method : -1;
    int row_blocks = (ht + MEAN_BLOCK_Y - 1) / MEAN_BLOCK_Y;
    float scale = s->scale;
    void *blur_args[] = { &in, &pitch, &scale, &ws, &hs, &wo, &ho, &n_blur, &s->g_blur,
                          &method, &s->xi, &s->xw, &s->yi, &s->yw, &s->d };
    void *mean_args[] = { &s->d, &wo, &ho, &wt, &ht, &row_blocks, &n_mean, &s->g_mean,
                          &res, &rec };
    void *cov_args[]  = { &res, &rec, &wt, &ht };
    int ret;

    if ((ret = ff_gpu_launch(g->gpu, s->fn[g->bytes > 1 ? K_BLUR_16 : K_BLUR_8],
                             "vmaf_speed_blur", (wo + BLUR_OUT - 1) / BLUR_OUT, ho * s->nb_in,
                             BLUR_THREADS, 1, g->queue, blur_args)) < 0 ||
        (ret = ff_gpu_launch(g->gpu, s->fn[K_LOCAL_MEAN], "vmaf_speed_local_mean",
                             (wt + MEAN_BLOCK_X - 1) / MEAN_BLOCK_X, row_blocks * s->nb_in,
                             MEAN_BLOCK_X, MEAN_BLOCK_Y, g->queue, mean_args)) < 0)
        return ret;
    return ff_gpu_launch(g->gpu, s->fn[K_COV], "vmaf_speed_cov",
                         (B2 * (B2 + 1) / 2 + COV_THREADS - 1) / COV_THREADS, s->nb_in,
                         COV_THREADS, 1, g->queue, cov_args);
}

/* The factors of input j's covariance. */
static void speed_factor_job(void *priv, int j, int nb_jobs)
{
    SpeedGpuContext *s = priv;
    ff_vmaf_speed_block_factor((const float (*)[B2])s->in[j], &s->fac[j]);
}

/* A range of the blocks of one input a job. */
static void speed_blocks_job(void *priv, int j, int nb_jobs)
{
    SpeedGpuContext *s = priv;
    const FFVmafSpeedConfig *c = &s->cpu.cfg;
    const int nb = ff_vmaf_speed_nb_blocks(c), parts = nb_jobs / s->nb_in;
    const int w = j % s->nb_in, part = j / s->nb_in;
    float *st = s->stats + 2 * w * nb;

    ff_vmaf_speed_block_range(c, &s->fac[w], s->in[w] + B2 * B2, s->wt, st, st + nb,
                              &s->model[w], (int)((int64_t)nb * part / parts),
                              (int)((int64_t)nb * (part + 1) / parts));
}

/*
 * The block models of every input of frame index (pairs ref, dis), in two
 * stages: the inputs' factors (a quarter of a millisecond each), then their
 * blocks, each computed as on the CPU whatever the split, on the ring's
 * threads. The engine runs each stage of speed_chroma and speed_temporal
 * together (collect_stage()); collect() runs them itself otherwise.
 */
static int speed_gpu_stage(FFVmafFeature *f, unsigned index, int stage,
                           void (**job)(void *priv, int j, int nb_jobs))
{
    SpeedGpuContext *s = f->priv;
    const float *res = ff_vmaf_gpu_results_host(f->gpu, index, s->results);

    if (stage == 0) {
        /* speed_temporal's frame 0 has no model: it scores 0. */
        if (s->nb_in == 2 && !index)
            return 0;
        for (int w = 0; w < s->nb_in; w++)
            s->in[w] = res + (size_t)w * s->rec;
        s->modelled = -1;
        *job = speed_factor_job;
        return s->nb_in;
    }
    if (stage == 1 && s->in[0] == res) {
        s->modelled = index;
        *job = speed_blocks_job;
        return s->nb_in * ff_vmaf_gpu_nb_threads(f->gpu);
    }
    return 0;
}

static void speed_gpu_models(FFVmafFeature *f, unsigned index)
{
    SpeedGpuContext *s = f->priv;
    void (*job)(void *priv, int j, int nb_jobs);
    int n;

    if (s->modelled == index)
        return;
    for (int stage = 0; stage < 2; stage++)
        if ((n = speed_gpu_stage(f, index, stage, &job)) > 0)
            ff_vmaf_gpu_parallel(f->gpu, job, s, n);
}

/* The score of the pair of inputs starting at k, once modelled. */
static float speed_gpu_pair(SpeedGpuContext *s, int k, int *sing_ref, int *sing_dis,
                            int *singular)
{
    const FFVmafSpeedConfig *c = &s->cpu.cfg;

    *sing_ref = s->fac[k].singular;
    *sing_dis = s->fac[k + 1].singular;
    return ff_vmaf_speed_pair_score(c, s->stats + 2 * k * ff_vmaf_speed_nb_blocks(c),
                                    *sing_ref, *sing_dis, singular);
}

/* ---------------------------------------------------------------------- */
/* speed_chroma                                                           */

static int speed_chroma_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    return speed_gpu_setup(f, 4);
}

static void speed_chroma_gpu_close(FFVmafFeature *f)
{
    speed_gpu_free_host(f->priv);
}

static int speed_chroma_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                    const FFVmafPicture *dis, unsigned index,
                                    FFVmafFeatureCollector *fc)
{
    FFVmafGpu *g = f->gpu;
    /* U ref, U dis, V ref, V dis. */
    SpeedInputs in = {
        .a = { ff_vmaf_gpu_plane(g, index, 0, 1), ff_vmaf_gpu_plane(g, index, 1, 1),
               ff_vmaf_gpu_plane(g, index, 0, 2), ff_vmaf_gpu_plane(g, index, 1, 2) },
    };

    return speed_gpu_queue(f, index, &in, ff_vmaf_gpu_pitch(g, 1));
}

static int speed_chroma_gpu_collect(FFVmafFeature *f, unsigned index,
                                    FFVmafFeatureCollector *fc)
{
    int sr, sd, sing_u, sing_v;
    float score_u, score_v;

    speed_gpu_models(f, index);
    score_u = speed_gpu_pair(f->priv, 0, &sr, &sd, &sing_u);
    score_v = speed_gpu_pair(f->priv, 2, &sr, &sd, &sing_v);

    return ff_vmaf_speed_chroma_write(f, fc, index, score_u, sing_u, score_v, sing_v);
}

static int speed_chroma_gpu_to_cpu(FFVmafFeature *f, unsigned first)
{
    /* Frames are independent: the CPU extractor needs nothing more, and
     * its extract() has scratch of its own. */
    speed_gpu_free_host(f->priv);
    return 0;
}

extern const FFVmafExtractor ff_vmaf_extractor_speed_chroma;

const FFVmafExtractor ff_vmaf_extractor_speed_chroma_gpu = {
    .name        = "speed_chroma",
    .options     = ff_vmaf_speed_chroma_options,
    .priv_size   = sizeof(SpeedGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_GPU | FF_VMAF_EXTRACTOR_CHROMA,
    .provides    = ff_vmaf_speed_chroma_provides,
    .frame_delay = 1,
    .init        = speed_chroma_gpu_init,
    .extract     = speed_chroma_gpu_extract,
    .close       = speed_chroma_gpu_close,
    .collect     = speed_chroma_gpu_collect,
    .collect_stage = speed_gpu_stage,
    .to_cpu      = speed_chroma_gpu_to_cpu,
    .cpu         = &ff_vmaf_extractor_speed_chroma,
};

/* ---------------------------------------------------------------------- */
/* speed_temporal                                                         */

static void speed_temporal_gpu_close(FFVmafFeature *f)
{
    speed_gpu_free_host(f->priv);
    ff_vmaf_speed_temporal_close(f);
}

static int speed_temporal_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    return speed_gpu_setup(f, 2);
}

static int speed_temporal_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                      const FFVmafPicture *dis, unsigned index,
                                      FFVmafFeatureCollector *fc)
{
    SpeedGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    SpeedInputs in;

    if (index != s->cpu.nb_frames) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'speed_temporal' got frame %u, expected %u.\n",
               index, s->cpu.nb_frames);
        return AVERROR_BUG;
    }
    s->cpu.nb_frames = index + 1;
    /* Frame 0 scores 0 (written by collect()). */
    if (!index)
        return 0;
    /* Previous minus current frame (with use_ref_diff, the distorted
     * previous frame minus the current reference). The previous frame is
     * still in the ring: its slot is not refilled before this frame's
     * kernels have run. */
    in = (SpeedInputs) {
        .a = { ff_vmaf_gpu_plane(g, index - 1, 0, 0), ff_vmaf_gpu_plane(g, index - 1, 1, 0) },
        .b = { ff_vmaf_gpu_plane(g, index, 0, 0),
               ff_vmaf_gpu_plane(g, index, s->cpu.use_ref_diff ? 0 : 1, 0) },
    };
    return speed_gpu_queue(f, index, &in, ff_vmaf_gpu_pitch(g, 0));
}

static int speed_temporal_gpu_collect(FFVmafFeature *f, unsigned index,
                                      FFVmafFeatureCollector *fc)
{
    float score = 0.0f;

    if (index > 0) {
        int sing_ref, sing_dis, singular;
        speed_gpu_models(f, index);
        score = speed_gpu_pair(f->priv, 0, &sing_ref, &sing_dis, &singular);
        if (sing_ref || sing_dis)
            av_log(f->log_ctx, AV_LOG_VERBOSE, "speed_temporal: frame %u: "
                   "block covariance is singular.\n", index);
    }
    return ff_vmaf_speed_temporal_write(f, fc, index, score);
}

static int speed_temporal_gpu_to_cpu(FFVmafFeature *f, unsigned first)
{
    SpeedGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;

    /* The CPU extractor compares with its own copy of the previous frame:
     * take it from the ring's host copies (frame first - 1 is still
     * there, unless the ring was made after the CPU extractor kept it). */
    if (first > 0 && ff_vmaf_gpu_holds(g, first - 1))
        ff_vmaf_speed_temporal_keep(&s->cpu, ff_vmaf_gpu_host_plane(g, first - 1, 0, 0),
                                    ff_vmaf_gpu_pitch(g, 0),
                                    ff_vmaf_gpu_host_plane(g, first - 1, 1, 0),
                                    ff_vmaf_gpu_pitch(g, 0), first);
    else if (!first)
        s->cpu.nb_frames = 0;
    speed_gpu_free_host(s);
    return 0;
}

extern const FFVmafExtractor ff_vmaf_extractor_speed_temporal;

const FFVmafExtractor ff_vmaf_extractor_speed_temporal_gpu = {
    .name        = "speed_temporal",
    .options     = ff_vmaf_speed_temporal_options,
    .priv_size   = sizeof(SpeedGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_EVERY_FRAME |
                   FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_speed_temporal_provides,
    .frame_delay = 1,
    .init        = speed_temporal_gpu_init,
    .extract     = speed_temporal_gpu_extract,
    .close       = speed_temporal_gpu_close,
    .collect     = speed_temporal_gpu_collect,
    .collect_stage = speed_gpu_stage,
    .to_cpu      = speed_temporal_gpu_to_cpu,
    .cpu         = &ff_vmaf_extractor_speed_temporal,
};
