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
 * The GPU twin of the integer ADM extractor: the four DWT levels, decouple,
 * CSF and the masked and denominator row sums on the GPU, down to the
 * integer totals of each scale (ADMScaleSums); the floating-point rest on
 * the host, with adm.c's code.
 *
 * The scratch (bands, row accumulators) is one set per
 * instance, from the ring: the stream runs the frames one after another.
 * Only the totals are per frame, in the ring's results.
 */

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/features/adm.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

enum {
    K_DWT_S0_8, K_DWT_S0_16, K_DWT_S1, K_DWT_S23,
    K_CSF_CM_S0, K_CSF_CM_S123, K_ROWS_DONE, NB_KERNELS,
};

static const char *const adm_kernels[] = {
    "vmaf_adm_dwt_s0_8", "vmaf_adm_dwt_s0_16", "vmaf_adm_dwt_s1", "vmaf_adm_dwt_s23",
    "vmaf_adm_csf_cm_s0", "vmaf_adm_csf_cm_s123", "vmaf_adm_rows_done", NULL
};
FF_VMAF_GPU_CODE(adm, adm_kernels);

/* Block shapes of adm.hip: the DWT's and the masking's tiles (BX x BY),
 * the rows' blocks. */
#define BX 32
#define BY 8
#define ROW_THREADS 256
/* The sums of one row: numerator, AIM and denominator, h v d each. */
#define ROW_SUMS 9

/* The kernels add into ADMScaleSums as nine 64-bit words. */
typedef char adm_sums_layout[sizeof(ADMScaleSums) == 9 * sizeof(uint64_t) ? 1 : -1];

typedef struct ADMGpuContext {
    ADMContext cpu;             ///< first: the CPU extractor's options and state
    FFGpuFunction fn[NB_KERNELS];
    FFGpuPtr div_lut;
    FFGpuPtr band[FF_VMAF_ADM_SCALES]; ///< ref h v d a, dis h v d a
    int64_t band_plane[FF_VMAF_ADM_SCALES]; ///< elements between band planes
    FFGpuPtr rows;              ///< ROW_SUMS uint64 an inner row of every scale, zero between frames
    FFGpuPtr rows_par;          ///< per scale: rows, first row, num_e, den shift
    int64_t row0[FF_VMAF_ADM_SCALES]; ///< first row of each scale in rows
    int max_rows;
    size_t sums;                ///< FF_VMAF_ADM_SCALES ADMScaleSums in the frame's results
} ADMGpuContext;

/* Planes padded to 64 elements keep every plane of every type aligned. */
static int64_t plane_elems(int w, int h)
{
    return FFALIGN((int64_t)w * h, 64);
}

static int adm_gpu_alloc(FFVmafFeature *f)
{
    ADMGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    int64_t nb_rows = 0;
    int32_t par[FF_VMAF_ADM_SCALES][4];
    int ret;

    for (int sc = 0; sc < FF_VMAF_ADM_SCALES; sc++) {
        const ADMScaleGeom *ge = &s->cpu.g[sc];
        /* Scale 0 works on int16, scales 1..3 on int32. */
        const size_t e = sc ? sizeof(int32_t) : sizeof(int16_t);
        const int64_t bp = plane_elems(ge->bw, ge->bh);
        /* adm_skip_scale0: no rows, so its totals stay 0 as on the CPU. */
        const int rows = sc == 0 && s->cpu.skip_scale0 ? 0 : ge->ib - ge->it;

        s->band_plane[sc] = bp;
        if ((ret = ff_vmaf_gpu_buffer(g, &s->band[sc], 8 * bp * e)) < 0)
            return ret;
        s->row0[sc] = nb_rows;
        par[sc][0] = rows;
        par[sc][1] = nb_rows;
        par[sc][2] = ge->num_e;
        par[sc][3] = sc ? ge->den_e : ge->den_c;
        nb_rows += rows;
        s->max_rows = FFMAX(s->max_rows, rows);
    }
    if ((ret = ff_vmaf_gpu_buffer(g, &s->rows, nb_rows * ROW_SUMS * sizeof(uint64_t))) < 0 ||
        /* Zero once: vmaf_adm_rows_done clears the rows it has read. */
        (ret = ff_gpu_memset(g->gpu, s->rows, 0, nb_rows * ROW_SUMS * sizeof(uint64_t),
                             g->stream)) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->rows_par, par, sizeof(par))) < 0)
        return ret;
    /* The CPU's reciprocal table: one copy of the numbers for both sides. */
    return ff_vmaf_gpu_constants(g, &s->div_lut, s->cpu.div_lut,
                                 FF_VMAF_ADM_DIV_LUT_SIZE * sizeof(int32_t));
}

static int adm_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    ADMGpuContext *s = f->priv;
    int ret;

    if ((ret = ff_vmaf_gpu_functions(f->gpu, &ff_vmaf_gpu_code_adm, adm_kernels, s->fn)) < 0 ||
        (ret = adm_gpu_alloc(f)) < 0)
        return ret;
    s->sums = ff_vmaf_gpu_reserve(f->gpu, FF_VMAF_ADM_SCALES * sizeof(ADMScaleSums));
    return 0;
}

static int launch2d(FFVmafGpu *g, FFGpuFunction fn, const char *name, int w, int h,
                    void **args)
{
    return ff_vmaf_gpu_launch_2d(g, fn, name, w, h, BX, BY, 0, args);
}

/* DWT of scale sc, ref and dis: from the pictures at scale 0, else from
 * band a of the scale above. */
static int adm_gpu_dwt(FFVmafFeature *f, unsigned index, int sc)
{
    ADMGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    const ADMScaleGeom *ge = &s->cpu.g[sc];
    int w = ge->w, h = ge->h, bw = ge->bw, bh = ge->bh;
    int64_t bplane = s->band_plane[sc];

    /* A thread a band position, a BX x BY tile a block. */
    if (sc == 0) {
        FFGpuPtr ref = ff_vmaf_gpu_plane(g, index, 0, 0);
        FFGpuPtr dis = ff_vmaf_gpu_plane(g, index, 1, 0);
        size_t pitch = ff_vmaf_gpu_pitch(g, 0);
        int bpc = g->geo.bpc;
        void *args[] = { &ref, &pitch, &dis, &pitch, &s->band[0], &bplane, &w, &h, &bw, &bh,
                         &bpc };
        int k = bpc > 8 ? K_DWT_S0_16 : K_DWT_S0_8;

        return launch2d(g, s->fn[k], adm_kernels[k], bw, bh, args);
    } else if (sc == 1) {
        void *args[] = { &s->band[0], &s->band_plane[0], &s->band[1], &bplane,
                         &w, &h, &bw, &bh };

        return launch2d(g, s->fn[K_DWT_S1], "vmaf_adm_dwt_s1", bw, bh, args);
    } else {
        /* The horizontal pass's shift: 16 at scale 2, 15 at scale 3. */
        int shift = sc == 2 ? 16 : 15;
        void *args[] = { &s->band[sc - 1], &s->band_plane[sc - 1], &s->band[sc], &bplane,
                         &w, &h, &bw, &bh, &shift };

        return launch2d(g, s->fn[K_DWT_S23], "vmaf_adm_dwt_s23", bw, bh, args);
    }
}

/* Decouple, CSF and masking of scale sc, into its rows' accumulators. */
static int adm_gpu_scale(FFVmafFeature *f, int sc)
{
    static const int den_p[4] = { 0, 31, 30, 31 };
    ADMGpuContext *s = f->priv;
    const ADMContext *c = &s->cpu;
    FFVmafGpu *g = f->gpu;
    const ADMScaleGeom *ge = &c->g[sc];
    int64_t bplane = s->band_plane[sc];
    int bw = ge->bw, bh = ge->bh, il = ge->il, ir = ge->ir, it = ge->it, ib = ge->ib;
    int skip_aim = c->skip_aim;
    double egl = c->enhn_gain_limit;
    FFGpuPtr rows = s->rows + s->row0[sc] * ROW_SUMS * sizeof(uint64_t);

    /* A thread an inner position, a BX x BY tile a block. */
    if (sc == 0) {
        int rf_h = c->rf0[0], rf_v = c->rf0[1], rf_d = c->rf0[2];
        int c_hv = ge->num_c_hv, c_d = ge->num_c_d;
        void *args[] = { &s->band[0], &bplane, &bw, &bh, &il, &ir, &it, &ib, &egl,
                         &s->div_lut, &rf_h, &rf_v, &rf_d, &c_hv, &c_d, &skip_aim, &rows };

        return launch2d(g, s->fn[K_CSF_CM_S0], "vmaf_adm_csf_cm_s0", ir - il, ib - it, args);
    } else {
        unsigned rf_h = c->rf32[sc][0], rf_v = c->rf32[sc][1], rf_d = c->rf32[sc][2];
        int num_c = ge->num_c_hv, dp = den_p[sc], den_c = ge->den_c;
        void *args[] = { &s->band[sc], &bplane, &bw, &bh, &il, &ir, &it, &ib, &egl,
                         &s->div_lut, &rf_h, &rf_v, &rf_d, &num_c, &dp, &den_c, &skip_aim,
                         &rows };

        return launch2d(g, s->fn[K_CSF_CM_S123], "vmaf_adm_csf_cm_s123", ir - il, ib - it,
                        args);
    }
}

static int adm_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                           const FFVmafPicture *dis, unsigned index,
                           FFVmafFeatureCollector *fc)
{
    ADMGpuContext *s = f->priv;
    FFGpuPtr sums = ff_vmaf_gpu_results(f->gpu, index, s->sums);
    int skip_aim = s->cpu.skip_aim, ret;
    void *args[] = { &s->rows, &s->rows_par, &skip_aim, &sums };

    for (int sc = 0; sc < FF_VMAF_ADM_SCALES; sc++) {
        if ((ret = adm_gpu_dwt(f, index, sc)) < 0)
            return ret;
        /* adm_skip_scale0: scale 0 only feeds scale 1, as on the CPU. */
        if (sc == 0 && s->cpu.skip_scale0)
            continue;
        if ((ret = adm_gpu_scale(f, sc)) < 0)
            return ret;
    }
    /* Every scale's rows at once, into the totals (zeroed by the ring with
     * the upload): ROW_THREADS rows a block across, the scales down. */
    return ff_vmaf_gpu_launch_2d(f->gpu, s->fn[K_ROWS_DONE], "vmaf_adm_rows_done",
                                 s->max_rows, FF_VMAF_ADM_SCALES, ROW_THREADS, 1, 0, args);
}

static int adm_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    ADMGpuContext *s = f->priv;

    return ff_vmaf_adm_write(f, fc, index, ff_vmaf_gpu_results_host(f->gpu, index, s->sums));
}

extern const FFVmafExtractor ff_vmaf_extractor_adm;

const FFVmafExtractor ff_vmaf_extractor_adm_gpu = {
    .name        = "adm",
    .options     = ff_vmaf_adm_options,
    .priv_size   = sizeof(ADMGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_adm_provides,
    .frame_delay = 1,
    .init        = adm_gpu_init,
    .extract     = adm_gpu_extract,
    .close       = ff_vmaf_adm_close,
    .collect     = adm_gpu_collect,
    .cpu         = &ff_vmaf_extractor_adm,
};
