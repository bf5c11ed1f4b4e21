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
 * The GPU twin of the CAMBI extractor: the pictures' integer stages, the
 * c-values and the exact top-k sums of every scale on the GPU (cambi.hip),
 * the scales' means and the scores on the host with cambi.c's code.
 *
 * The top-k sum is exact in units of 2^-24 unless it reaches 2^53 units (a
 * top-k mean above 2^29 / k) or a c-value lies outside [0.5, 2^14): then
 * the CPU adds the values in libvmaf's order, and so does collect(), from
 * the ring's host copy of the picture with the CPU's code.
 */

#include <stdint.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/features/cambi.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

static const char *const cambi_kernels[] = {
    "vmaf_cambi_preprocess_8", "vmaf_cambi_preprocess_16", "vmaf_cambi_mask",
    "vmaf_cambi_mode", "vmaf_cambi_select", "vmaf_cambi_pass", "vmaf_cambi_finish",
    "vmaf_cambi_c_values_1", "vmaf_cambi_c_values_2", "vmaf_cambi_c_values_4",
    "vmaf_cambi_c_values_8", "vmaf_cambi_c_values_16", "vmaf_cambi_c_values_32",
    NULL
};
FF_VMAF_GPU_CODE(cambi, cambi_kernels);

enum {
    K_PRE_8, K_PRE_16, K_MASK, K_MODE, K_SELECT, K_PASS, K_FINISH, K_C_VALUES,
    NB_KERNELS = K_C_VALUES + 6
};

/* The kernels' blocks (cambi.hip). */
#define BX 32
#define BY 8
#define C_ROWS 8            ///< rows a thread of vmaf_cambi_c_values scores
#define SCAN_THREADS 1024
#define PASS_MAX_GY 16

/* sizeof(CambiStats) in cambi.hip */
#define STATS_BYTES 270376

/* One scale's result in the frame's results (CambiResult in cambi.hip). */
typedef struct CambiResult {
    uint64_t sum;
    uint32_t out_of_range;
    uint32_t pad;
} CambiResult;

#define ALIGN(x) (((x) + 255) & ~(size_t)255)

/* Sizes of a picture's scales; scale s is decimated shift[s] times. */
typedef struct ScaleGeo {
    int w[FF_VMAF_CAMBI_SCALES], h[FF_VMAF_CAMBI_SCALES], shift[FF_VMAF_CAMBI_SCALES];
    int k[FF_VMAF_CAMBI_SCALES];
} ScaleGeo;

/*
 * Sets of intermediates: a frame is a chain of some 30 launches, five of
 * them a single block, so two frames run at once, each with its own set,
 * on lanes of their own (FFVmafExtractor.gpu_sets).
 */
#define CAMBI_SETS 2

/* A frame's intermediates. */
typedef struct CambiSet {
    FFGpuPtr img, filt[2], mask, c, stats;
} CambiSet;

typedef struct CambiGpuContext {
    CambiContext cpu;           ///< first: the CPU extractor's options and state
    FFGpuFunction fn[NB_KERNELS];
    int c_values;               ///< index of the kernel of nb_diffs in fn[]
    FFGpuPtr recip, active, weights;
    FFGpuPtr maps[2];           ///< per picture (0 dis, 1 ref): xmap, then ymap
    CambiSet set[CAMBI_SETS];
    ScaleGeo geo[2];
    size_t results;             ///< 2 x FF_VMAF_CAMBI_SCALES CambiResult
    unsigned nb_on_cpu;         ///< pictures whose sums needed the CPU (verbose log)
} CambiGpuContext;

static void scale_geo(const CambiContext *s, const CambiSize *sz, ScaleGeo *sg)
{
    int w = sz->w, h = sz->h, shift = 0;

    /* As ff_vmaf_cambi_score() walks the scales. */
    for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES + sz->high_res; scale++) {
        if (scale) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
            shift++;
        }
        if (scale < sz->high_res)
            continue;
        sg->w[scale - sz->high_res]     = w;
        sg->h[scale - sz->high_res]     = h;
        sg->shift[scale - sz->high_res] = shift;
        sg->k[scale - sz->high_res]     = ff_vmaf_cambi_topk_count(s, w * h);
    }
}

/* The resampling maps of a size, identity when it is the input's. */
static int upload_maps(FFVmafGpu *g, FFGpuPtr *p, const CambiSize *sz)
{
    int *map = av_malloc_array(sz->w + sz->h, sizeof(*map));
    int ret;

    if (!map)
        return AVERROR(ENOMEM);
    for (int j = 0; j < sz->w; j++)
        map[j] = sz->xmap ? sz->xmap[j] : j;
    for (int i = 0; i < sz->h; i++)
        map[sz->w + i] = sz->ymap ? sz->ymap[i] : i;
    ret = ff_vmaf_gpu_constants(g, p, map, (sz->w + sz->h) * sizeof(*map));
    av_free(map);
    return ret;
}

static int setup(FFVmafFeature *f)
{
    CambiGpuContext *s = f->priv;
    const CambiContext *c = &s->cpu;
    FFVmafGpu *g = f->gpu;
    size_t npix = (size_t)c->enc.w * c->enc.h, off = 0;
    size_t half = (size_t)((c->enc.w + 1) >> 1) * ((c->enc.h + 1) >> 1);
    int nd_log = 0, ret;

    while ((1 << nd_log) < c->params.nb_diffs)
        nd_log++;
    s->c_values = K_C_VALUES + nd_log;
    if (c->full_ref) {
        npix = FFMAX(npix, (size_t)c->src.w * c->src.h);
        half = FFMAX(half, (size_t)((c->src.w + 1) >> 1) * ((c->src.h + 1) >> 1));
    }

    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_cambi, cambi_kernels, s->fn)) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->recip, c->recip, sizeof(c->recip))) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->active, c->active, sizeof(c->active))) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->weights, ff_vmaf_cambi_contrast_weights,
                                     sizeof(ff_vmaf_cambi_contrast_weights))) < 0 ||
        (ret = upload_maps(g, &s->maps[0], &c->enc)) < 0 ||
        (c->full_ref && (ret = upload_maps(g, &s->maps[1], &c->src)) < 0))
        return ret;

    /* One buffer: the preprocessed picture, the filtered scales (even and
     * odd ones: scale 1 is the largest of the odd ones), the mask, the c-values and
     * the statistics of every scale of both pictures. */
    {
        size_t o_img, o_filt0, o_filt1, o_mask, o_c, o_stats;
        FFGpuPtr buf;
        o_img   = off; off += ALIGN(npix * sizeof(uint16_t));
        o_filt0 = off; off += ALIGN(npix * sizeof(uint16_t));
        o_filt1 = off; off += ALIGN(half * sizeof(uint16_t));
        o_mask  = off; off += ALIGN(npix);
        o_c     = off; off += ALIGN(npix * sizeof(float));
        o_stats = off; off += 2 * FF_VMAF_CAMBI_SCALES * (size_t)STATS_BYTES;
        if ((ret = ff_vmaf_gpu_buffer(g, &buf, CAMBI_SETS * off)) < 0)
            return ret;
        for (int k = 0; k < CAMBI_SETS; k++, buf += off)
            s->set[k] = (CambiSet) {
                .img  = buf + o_img,  .filt = { buf + o_filt0, buf + o_filt1 },
                .mask = buf + o_mask, .c    = buf + o_c, .stats = buf + o_stats,
            };
    }
    scale_geo(c, &c->enc, &s->geo[0]);
    if (c->full_ref)
        scale_geo(c, &c->src, &s->geo[1]);
    s->results = ff_vmaf_gpu_reserve(g, 2 * FF_VMAF_CAMBI_SCALES * sizeof(CambiResult));
    return 0;
}

static int cambi_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    CambiGpuContext *s = f->priv;

    /* The heatmaps are the c-values, which stay on the GPU: the CPU
     * extractor, which opened the files, scores the frames. */
    if (s->cpu.heatmaps)
        return AVERROR(ENOSYS);
    return setup(f);
}

static int launch(FFVmafGpu *g, FFGpuFunction fn, const char *name, unsigned gx, unsigned gy,
                  unsigned bx, void **args)
{
    return ff_gpu_launch(g->gpu, fn, name, gx, gy, bx, bx == SCAN_THREADS ? 1 : BY,
                         g->queue, args);
}

/* Queue the scales of picture p (0: distorted at the encode size, 1: the
 * reference at the source size). */
static int queue_picture(FFVmafFeature *f, CambiSet *b, unsigned index, int p)
{
    CambiGpuContext *s = f->priv;
    const CambiContext *c = &s->cpu;
    const CambiSize *sz = p ? &c->src : &c->enc;
    const ScaleGeo *sg = &s->geo[p];
    FFVmafGpu *g = f->gpu;
    FFGpuPtr plane = ff_vmaf_gpu_plane(g, index, p ? 0 : 1, 0);
    FFGpuPtr xmap = s->maps[p], ymap = s->maps[p] + sz->w * sizeof(int);
    FFGpuPtr src = b->img;
    int pitch = (int)ff_vmaf_gpu_pitch(g, 0), w = sz->w, h = sz->h, sw = w;
    int bpc = g->geo.bpc, ws = sz->window, thr = sz->mask_threshold;
    int up = bpc < 10 ? 10 - bpc : 0, down = bpc > 10 ? bpc - 10 : 0;
    int dither = c->bitdepth < 10, ret;

    {
        void *args[] = { &b->img, &plane, &pitch, &xmap, &ymap, &w, &h, &up, &down, &dither };
        void *margs[] = { &b->mask, &b->img, &w, &h, &thr };
        if ((ret = ff_vmaf_gpu_launch_2d(g, s->fn[g->bytes > 1 ? K_PRE_16 : K_PRE_8],
                                         "vmaf_cambi_preprocess", w, h, BX, BY, 0, args)) < 0 ||
            (ret = ff_vmaf_gpu_launch_2d(g, s->fn[K_MASK], "vmaf_cambi_mask", w, h, BX, BY, 0,
                                         margs)) < 0)
            return ret;
    }

    for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES; scale++) {
        FFGpuPtr dst = b->filt[scale & 1];
        FFGpuPtr st = b->stats + (size_t)(p * FF_VMAF_CAMBI_SCALES + scale) * STATS_BYTES;
        FFGpuPtr res = ff_vmaf_gpu_results(g, index, s->results +
                                           (p * FF_VMAF_CAMBI_SCALES + scale) * sizeof(CambiResult));
        int cw = sg->w[scale], ch = sg->h[scale], shift = sg->shift[scale], k = sg->k[scale];
        int step = shift ? 2 : 1;
        void *mode_args[]   = { &dst, &src, &sw, &step, &cw, &ch };
        void *c_args[]      = { &b->c, &dst, &cw, &ch, &b->mask, &w, &shift, &ws,
                                &s->recip, &s->active, &s->weights, &st };
        void *select_args[] = { &st, &k };
        void *pass_args[]   = { &b->c, &cw, &ch, &st };
        void *finish_args[] = { &st, &k, &res };

        if ((ret = ff_vmaf_gpu_launch_2d(g, s->fn[K_MODE], "vmaf_cambi_mode", cw, ch, BX, BY, 0,
                                         mode_args)) < 0 ||
            (ret = launch(g, s->fn[s->c_values], "vmaf_cambi_c_values", (cw + BX - 1) / BX,
                          (ch + BY * C_ROWS - 1) / (BY * C_ROWS), BX, c_args)) < 0 ||
            (ret = launch(g, s->fn[K_SELECT], "vmaf_cambi_select", 1, 1, SCAN_THREADS,
                          select_args)) < 0 ||
            (ret = ff_vmaf_gpu_launch_2d(g, s->fn[K_PASS], "vmaf_cambi_pass", cw, ch, BX, BY,
                                         PASS_MAX_GY, pass_args)) < 0 ||
            (ret = launch(g, s->fn[K_FINISH], "vmaf_cambi_finish", 1, 1, SCAN_THREADS,
                          finish_args)) < 0)
            return ret;
        src = dst;
        sw  = cw;
    }
    return 0;
}

static int cambi_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                             const FFVmafPicture *dis, unsigned index,
                             FFVmafFeatureCollector *fc)
{
    CambiGpuContext *s = f->priv;
    CambiSet *b = &s->set[index % CAMBI_SETS];
    FFVmafGpu *g = f->gpu;
    int ret;

    if ((ret = ff_gpu_memset(g->gpu, b->stats, 0,
                             2 * FF_VMAF_CAMBI_SCALES * (size_t)STATS_BYTES, g->queue)) < 0 ||
        (ret = queue_picture(f, b, index, 0)) < 0)
        return ret;
    return s->cpu.full_ref ? queue_picture(f, b, index, 1) : 0;
}

/* Picture p of frame index on the CPU, from the ring's host copy. */
static int score_on_cpu(FFVmafFeature *f, unsigned index, int p, double *score)
{
    CambiGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFVmafPicture pic;
    int ret;

    if ((ret = ff_vmaf_gpu_host_copies_planar(g)) < 0) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'cambi': frame %u needs its top-k sum in libvmaf's order, and the "
               "picture is not on the host.\n", index);
        return ret;
    }
    s->nb_on_cpu++;
    ff_vmaf_picture_set_geometry(&pic, &g->geo);
    pic.data[0]     = ff_vmaf_gpu_host_plane(g, index, p ? 0 : 1, 0);
    pic.data[1]     = pic.data[2] = NULL;
    pic.linesize[0] = ff_vmaf_gpu_pitch(g, 0);
    *score = ff_vmaf_cambi_score(&s->cpu, p ? &s->cpu.src : &s->cpu.enc, &pic);
    return 0;
}

static int cambi_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    CambiGpuContext *s = f->priv;
    const CambiResult *res = ff_vmaf_gpu_results_host(f->gpu, index, s->results);
    double score[2] = { 0.0, 0.0 };
    int ret;

    for (int p = 0; p < 1 + s->cpu.full_ref; p++, res += FF_VMAF_CAMBI_SCALES) {
        const CambiSize *sz = p ? &s->cpu.src : &s->cpu.enc;
        double means[FF_VMAF_CAMBI_SCALES];
        int exact = 1;
        for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES; scale++) {
            /* as ff_vmaf_cambi_topk_mean() */
            exact &= !res[scale].out_of_range && res[scale].sum < (UINT64_C(1) << 53);
            means[scale] = (double)res[scale].sum * 0x1p-24 / s->geo[p].k[scale];
        }
        if (exact)
            score[p] = ff_vmaf_cambi_pool(&s->cpu, sz, means);
        else if ((ret = score_on_cpu(f, index, p, &score[p])) < 0)
            return ret;
    }
    return ff_vmaf_cambi_write(f, fc, index, score[0], score[1]);
}

static void cambi_gpu_close(FFVmafFeature *f)
{
    CambiGpuContext *s = f->priv;
    if (s->nb_on_cpu)
        av_log(f->log_ctx, AV_LOG_VERBOSE, "Feature 'cambi': %u pictures scored on the CPU "
               "(a top-k sum beyond the GPU's exact reach).\n", s->nb_on_cpu);
    ff_vmaf_cambi_close(f);
}

extern const FFVmafExtractor ff_vmaf_extractor_cambi;

const FFVmafExtractor ff_vmaf_extractor_cambi_gpu = {
    .name          = "cambi",
    .options       = ff_vmaf_cambi_options,
    .priv_size     = sizeof(CambiGpuContext),
    .flags         = FF_VMAF_EXTRACTOR_GPU,
    .provides      = ff_vmaf_cambi_provides,
    .plain_outputs = ff_vmaf_cambi_plain_outputs,
    .frame_delay   = 1,
    .gpu_sets      = CAMBI_SETS,
    .init          = cambi_gpu_init,
    .extract       = cambi_gpu_extract,
    .close         = cambi_gpu_close,
    .collect       = cambi_gpu_collect,
    .cpu           = &ff_vmaf_extractor_cambi,
};
