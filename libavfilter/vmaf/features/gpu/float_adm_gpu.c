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
 * The GPU twin of the float ADM extractor: the wavelet levels, decouple,
 * CSF, contrast masking and the per-row float sums of the cubes on the
 * GPU (float_adm.hip); the rows added in row order, the norms and the
 * scores on the host with the CPU extractor's code (float_adm.c).
 *
 * The decouple divides with the host CPU's reciprocal estimate (RCPSS,
 * whose bits are the vendor's), refined as the CPU does: the kernels read
 * the host's estimates of every mantissa of [1, 2) from a table built
 * here, so that both sides start from the same bits. A p-norm other than
 * 3 (powf per sample) stays on the CPU.
 */

#include <stdint.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/features/float_adm.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

#define SCALES FF_VMAF_FLOAT_ADM_SCALES

enum { K_DWT_8, K_DWT_16, K_DWT_F, K_DECOUPLE, K_CM, K_ROWSUM, NB_KERNELS };

static const char *const float_adm_kernels[] = {
    "vmaf_fadm_dwt_8", "vmaf_fadm_dwt_16", "vmaf_fadm_dwt_f",
    "vmaf_fadm_decouple", "vmaf_fadm_cm", "vmaf_fadm_rowsum", NULL
};
FF_VMAF_GPU_CODE(float_adm, float_adm_kernels);

/* The kernels' blocks (float_adm.hip). */
#define BLOCK_X 32
#define BLOCK_Y 8
#define ROWSUM_BLOCK 64

/* The cube planes of a scale: detail loss, additive impairment, reference. */
#define NB_CUBES 9

#define RCP_TABLE_SIZE (1 << 23)

#define ALIGN(x) (((x) + 255) & ~(size_t)255)

typedef struct FloatADMGpuContext {
    FloatADMContext cpu;        ///< first: the CPU extractor's options and state
    FFGpuFunction fn[NB_KERNELS];
    FFGpuPtr approx[SCALES][2]; ///< band a of each scale, ref and dis
    FFGpuPtr det;               ///< ref h, v, d, dis h, v, d of the current scale
    FFGpuPtr csf;               ///< dst_r, flt_r, dst_a, flt_a, each h, v, d
    size_t plane;               ///< floats from one det or csf plane to the next
    FFGpuPtr cubes;             ///< NB_CUBES planes of each scale's inner region
    size_t cubes_off[SCALES];   ///< floats from cubes to each scale's
    FFGpuPtr geo;               ///< iw, ih, cubes_off of the scales computed
    FFGpuPtr rcp;               ///< the host's estimates; 0: IEEE division
    FFVmafFloatADMRegion region[SCALES];
    int nb_rows;                ///< rows summed, of every plane of the scales computed
    size_t parts;               ///< a float a row in the frame's results
} FloatADMGpuContext;

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* What the kernels make of tab for x (fadm_rcp_estimate()). */
static uint32_t table_estimate(const uint32_t *tab, uint32_t u)
{
    const uint32_t sign = u & 0x80000000u, t = tab[u & 0x7fffff];
    const int e = (u >> 23) & 0xff, re = (int)((t >> 23) & 0xff) + 127 - e;
    if (e == 0 || re >= 255)
        return sign | 0x7f800000u;
    if (re <= 0)
        return sign;
    return sign | ((uint32_t)re << 23) | (t & 0x7fffff);
}

/*
 * The host's reciprocal estimates over [1, 2), and a check that they
 * scale with the exponent and the sign as the kernels assume, over the
 * exponents whose results are normal (the band values are far inside).
 */
static int upload_rcp_table(FFVmafFeature *f)
{
    FloatADMGpuContext *s = f->priv;
    static const int exps[] = { 2, 27, 60, 100, 117, 120, 126, 128, 131, 134, 140, 160, 200, 250 };
    uint32_t *tab = av_malloc_array(RCP_TABLE_SIZE, sizeof(*tab));
    int ret = 0;

    if (!tab)
        return AVERROR(ENOMEM);
    for (uint32_t m = 0; m < RCP_TABLE_SIZE; m++) {
        tab[m] = float_bits(ff_vmaf_float_rcp_estimate(bits_float((127u << 23) | m)));
        if (tab[m] >> 31 || ((tab[m] >> 23) & 0xff) == 0 || ((tab[m] >> 23) & 0xff) == 255)
            ret = AVERROR(ENOSYS);
    }
    for (int k = 0; k < FF_ARRAY_ELEMS(exps) && !ret; k++)
        for (uint32_t m = 0; m < RCP_TABLE_SIZE && !ret; m += m % 2 ? 97 : 1)
            for (uint32_t sign = 0; sign < 2 && !ret; sign++) {
                uint32_t u = sign << 31 | (uint32_t)exps[k] << 23 | m;
                if (float_bits(ff_vmaf_float_rcp_estimate(bits_float(u))) != table_estimate(tab, u))
                    ret = AVERROR(ENOSYS);
            }
    if (ret < 0)
        av_log(f->log_ctx, AV_LOG_VERBOSE, "float_adm: this CPU's reciprocal estimate "
               "does not scale with the exponent; float_adm stays on the CPU.\n");
    else
        ret = ff_vmaf_gpu_constants(f->gpu, &s->rcp, tab, RCP_TABLE_SIZE * sizeof(*tab));
    av_free(tab);
    return ret;
}

static int alloc_buffers(FFVmafFeature *f, int w, int h)
{
    FloatADMGpuContext *s = f->priv;
    const int bw0 = (w + 1) / 2, bh0 = (h + 1) / 2;
    size_t size = 0, off_approx[SCALES][2], off_det, off_csf, off_cubes, cubes = 0;
    int geo[3 * SCALES], nb = 0, ret;
    FFGpuPtr buf;

    s->plane = (size_t)bw0 * bh0;
    s->nb_rows = 0;
    for (int k = 0, bw = w, bh = h; k < SCALES; k++) {
        FFVmafFloatADMRegion *g = &s->region[k];
        bw = (bw + 1) / 2;
        bh = (bh + 1) / 2;
        ff_vmaf_float_adm_region(g, bw, bh);
        for (int c = 0; c < 2; c++) {
            off_approx[k][c] = size;
            size += ALIGN((size_t)bw * bh * sizeof(float));
        }
        s->cubes_off[k] = cubes;
        cubes += NB_CUBES * (size_t)(g->right - g->left) * (g->bottom - g->top);
        if (k == 0 && s->cpu.skip_scale0)
            continue;
        geo[3 * nb]     = g->right - g->left;
        geo[3 * nb + 1] = g->bottom - g->top;
        geo[3 * nb + 2] = s->cubes_off[k];
        s->nb_rows += NB_CUBES * geo[3 * nb + 1];
        nb++;
    }
    off_det = size;
    size += ALIGN(6 * s->plane * sizeof(float));
    off_csf = size;
    size += ALIGN(12 * s->plane * sizeof(float));
    off_cubes = size;
    size += cubes * sizeof(float);

    if ((ret = ff_vmaf_gpu_buffer(f->gpu, &buf, size)) < 0 ||
        (ret = ff_vmaf_gpu_constants(f->gpu, &s->geo, geo, sizeof(geo))) < 0)
        return ret;
    for (int k = 0; k < SCALES; k++)
        for (int c = 0; c < 2; c++)
            s->approx[k][c] = buf + off_approx[k][c];
    s->det   = buf + off_det;
    s->csf   = buf + off_csf;
    s->cubes = buf + off_cubes;
    return 0;
}

static int float_adm_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatADMGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    int ret;

    /* Other p-norms take powf of every sample. */
    if (s->cpu.p_norm != 3.0)
        return AVERROR(ENOSYS);
    s->rcp = 0;
    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_float_adm, float_adm_kernels,
                                     s->fn)) < 0 ||
        (ret = alloc_buffers(f, s->cpu.w, s->cpu.h)) < 0 ||
        (ff_vmaf_float_rcp_is_estimate() && (ret = upload_rcp_table(f)) < 0))
        return ret;
    s->parts = ff_vmaf_gpu_reserve(g, (size_t)s->nb_rows * sizeof(float));
    return 0;
}

static int float_adm_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                 const FFVmafPicture *dis, unsigned index,
                                 FFVmafFeatureCollector *fc)
{
    FloatADMGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    const int hbd = g->bytes > 1;
    FFGpuPtr cur[2] = { ff_vmaf_gpu_plane(g, index, 0, 0), ff_vmaf_gpu_plane(g, index, 1, 0) };
    FFGpuPtr parts = ff_vmaf_gpu_results(g, index, s->parts);
    size_t pitch = ff_vmaf_gpu_pitch(g, 0);
    int w = s->cpu.w, h = s->cpu.h, bpc = g->geo.bpc, nb = 0, ret;
    double egl = s->cpu.enhn_gain_limit;

    for (int k = 0; k < SCALES; k++) {
        const FFVmafFloatADMRegion *r = &s->region[k];
        FFGpuFunction dwt = k ? s->fn[K_DWT_F] : s->fn[hbd ? K_DWT_16 : K_DWT_8];
        FFGpuPtr cubes = s->cubes + s->cubes_off[k] * sizeof(float);
        int bw = r->w, bh = r->h, left = r->left, right = r->right, top = r->top;
        int bottom = r->bottom, bypass = s->cpu.bypass_cm;
        float rf_hv = s->cpu.rf[k][0], rf_d = s->cpu.rf[k][1];
        void *dargs[] = { &s->approx[k][0], &s->approx[k][1], &s->det, &s->plane,
                          &cur[0], &cur[1], &pitch, &w, &h, &bpc };
        void *cargs[] = { &s->csf, &s->det, &s->plane, &bw, &bh, &rf_hv, &rf_d, &egl, &s->rcp };
        void *margs[] = { &cubes, &s->csf, &s->det, &s->plane, &bw, &bh,
                          &left, &right, &top, &bottom, &rf_hv, &rf_d, &bypass };

        /* Scale 0 reads the ring's planes, the others band a of the last. */
        if ((ret = ff_vmaf_gpu_launch_2d(g, dwt, "vmaf_fadm_dwt", bw, bh,
                                         BLOCK_X, BLOCK_Y, 0, dargs)) < 0)
            return ret;
        cur[0] = s->approx[k][0];
        cur[1] = s->approx[k][1];
        w = bw;
        h = bh;
        pitch = bw * sizeof(float);
        bpc = 8;
        if (k == 0 && s->cpu.skip_scale0)
            continue;   /* only band a is needed, for scale 1 */
        if ((ret = ff_vmaf_gpu_launch_2d(g, s->fn[K_DECOUPLE], "vmaf_fadm_decouple", bw, bh,
                                         BLOCK_X, BLOCK_Y, 0, cargs)) < 0 ||
            (ret = ff_vmaf_gpu_launch_2d(g, s->fn[K_CM], "vmaf_fadm_cm", right - left,
                                         bottom - top, BLOCK_X, BLOCK_Y, 0, margs)) < 0)
            return ret;
        nb++;
    }
    {
        void *args[] = { &parts, &s->cubes, &s->geo, &nb };
        return ff_vmaf_gpu_launch_2d(g, s->fn[K_ROWSUM], "vmaf_fadm_rowsum", s->nb_rows, 1,
                                     ROWSUM_BLOCK, 1, 0, args);
    }
}

static int float_adm_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    FloatADMGpuContext *s = f->priv;
    const float *part = ff_vmaf_gpu_results_host(f->gpu, index, s->parts);
    FFVmafFloatADMScale res[SCALES];

    for (int k = 0; k < SCALES; k++) {
        const FFVmafFloatADMRegion *g = &s->region[k];
        const int ih = g->bottom - g->top;
        float acc[NB_CUBES];

        if (k == 0 && s->cpu.skip_scale0) {
            res[0].num = 0.0f;
            res[0].den = 1e-10f;
            res[0].aim = 0.0f;
            continue;
        }
        /* Each plane's rows in row order, as adm_scale() adds them. */
        for (int q = 0; q < NB_CUBES; q++, part += ih) {
            acc[q] = 0.0f;
            for (int i = 0; i < ih; i++)
                acc[q] += part[i];
        }
        ff_vmaf_float_adm_finish(&s->cpu, g, acc, acc + 3, acc + 6, &res[k]);
    }
    return ff_vmaf_float_adm_write(f, fc, index, res);
}

extern const FFVmafExtractor ff_vmaf_extractor_float_adm;

const FFVmafExtractor ff_vmaf_extractor_float_adm_gpu = {
    .name        = "float_adm",
    .options     = ff_vmaf_float_adm_options,
    .priv_size   = sizeof(FloatADMGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_float_adm_provides,
    .frame_delay = 1,
    .init        = float_adm_gpu_init,
    .extract     = float_adm_gpu_extract,
    .close       = ff_vmaf_float_adm_close,
    .collect     = float_adm_gpu_collect,
    .cpu         = &ff_vmaf_extractor_float_adm,
};
