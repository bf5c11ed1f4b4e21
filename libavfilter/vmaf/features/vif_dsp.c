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
 * Integer VIF kernels, C reference.
 *
 * Every filter is separable and symmetric. The vertical pass reads rows
 * of per-sample products (x, y, x², y², xy; computed once per source row
 * and kept in a small ring) through row pointers chosen with the border
 * mirror once per output row; the horizontal pass runs over a row buffer
 * padded with mirrored values. So no sample loop has a border branch.
 * The kernels are instantiated per filter width so that the tap count is
 * a constant.
 *
 * The arithmetic is libvmaf's: unsigned 32-bit means, 64-bit sums of
 * squares, and the exact rounding shifts of each stage. The per-pixel
 * term uses double precision where libvmaf does, with every product
 * rounded on its own. That excludes FMA contraction: GCC does none in
 * the ISO C mode FFmpeg builds with (-std=c17), and each product that
 * feeds an addition is its own statement, which is as far as Clang's
 * default contraction reaches.
 *
 * Planes smaller than half a filter are mirrored repeatedly, which keeps
 * every access in bounds; libvmaf reads outside the picture there, so
 * such sizes have no reference values.
 */

#include <math.h>
#include <string.h>

#include "config.h"

#include "libavutil/attributes.h"
#include "libavutil/common.h"

#include "vif_dsp.h"

const uint16_t ff_vmaf_vif_filter[FF_VMAF_VIF_SCALES][FF_VMAF_VIF_MAX_TAPS] = {
    { 489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784,
      7455, 6547, 5274, 3896, 2640, 1640, 935, 489 },
    { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244 },
    { 3571, 16004, 26386, 16004, 3571 },
    { 10904, 43728, 10904 },
};

const int ff_vmaf_vif_filter_width[FF_VMAF_VIF_SCALES] = { 17, 9, 5, 3 };

/* σn² = 2.0 in Q16: the noise variance of the VIF model. */
#define SIGMA_NSQ (1 << 17)

void ff_vmaf_vif_log2_init(uint16_t tab[FF_VMAF_VIF_LOG2_SIZE])
{
    /* libvmaf builds its table with the single-precision log2f; the
     * product with 2048 is exact, so only log2f's rounding matters. */
    for (int i = 0; i < FF_VMAF_VIF_LOG2_SIZE; i++)
        tab[i] = (uint16_t)roundf(log2f((float)(i + 32768)) * 2048.0f);
}

/**
 * 2048 * log2(v) with v's mantissa truncated to 16 bits, for v >= 2^16.
 */
static av_always_inline int vif_log2(const uint16_t *tab, uint64_t v)
{
    int k = (v >> 32 ? av_log2((unsigned)(v >> 32)) + 32
                     : av_log2((unsigned)v)) - 15;
    return tab[(unsigned)(v >> k) - 32768] + 2048 * k;
}

/** Row pointers of the fw source rows centred on row y (vertical mirror). */
#define VIF_ROWS(rows, type, src, stride, y, h, fw) do {                        \
        for (int k_ = 0; k_ < (fw); k_++)                                       \
            (rows)[k_] = (const type *)((src) +                                 \
                         ff_vmaf_vif_mirror((y) - (fw) / 2 + k_, (h)) * (stride)); \
    } while (0)

/*
 * Per-sample products of one source row, computed once per row instead of
 * once per tap. Means and 8-bit squares travel as two 32-bit lanes of one
 * 64-bit word (ref low, dis high): every filter sum of a lane stays below
 * 2^32, so one multiply-add serves both pictures without carries.
 */
typedef struct VifPre {
    uint64_t mu;    ///< x | y << 32
    uint64_t sq;    ///< 8-bit: x² | y² << 32; deeper: x²
    uint32_t xy;    ///< x·y
    uint32_t yy;    ///< deeper than 8 bits: y²
} VifPre;

static void vif_pre_row_8(VifPre *pre, const uint8_t *x, const uint8_t *y, int w)
{
    for (int j = 0; j < w; j++) {
        const uint32_t a = x[j], b = y[j];
        pre[j].mu = a | (uint64_t)b << 32;
        pre[j].sq = a * a | (uint64_t)(b * b) << 32;
        pre[j].xy = a * b;
    }
}

static void vif_pre_row_16(VifPre *pre, const uint16_t *x, const uint16_t *y,
                           int w)
{
    for (int j = 0; j < w; j++) {
        const uint32_t a = x[j], b = y[j];
        pre[j].mu = a | (uint64_t)b << 32;
        pre[j].sq = a * a;
        pre[j].yy = b * b;
        pre[j].xy = a * b;
    }
}

/*
 * Vertical pass of the statistics for one output row, from the rows of
 * products p[0..fw-1] (already mirrored). Outputs, per column: both means
 * in Q8 of 8-bit units as two lanes of muv, and the second moments in Q16
 * of (8-bit units)^2, all fitting 32 bits.
 *
 * 8-bit input: mean (Σ f·x + 128) >> 8, second moments unshifted (Σ f·x²
 * is at most 255² · 65536 < 2^32, so the lanes cannot carry).
 */
static av_always_inline void vert_stats_8(uint64_t *muv, uint32_t *xxv,
                                          uint32_t *yyv, uint32_t *xyv,
                                          const VifPre *const *p,
                                          const uint16_t *f, const int fw,
                                          int w)
{
    const int half = fw / 2;

    for (int j = 0; j < w; j++) {
        uint64_t c  = f[half];
        uint64_t mu = c * p[half][j].mu;
        uint64_t sq = c * p[half][j].sq;
        uint32_t xy = (uint32_t)c * p[half][j].xy;

        for (int k = 0; k < half; k++) {
            const VifPre *a = &p[k][j], *b = &p[fw - 1 - k][j];
            c   = f[k];
            mu += c * (a->mu + b->mu);
            sq += c * (a->sq + b->sq);
            xy += (uint32_t)c * (a->xy + b->xy);
        }
        muv[j] = (((uint32_t)mu + 128) >> 8) |
                 (uint64_t)(((mu >> 32) + 128) >> 8) << 32;
        xxv[j] = (uint32_t)sq;
        yyv[j] = (uint32_t)(sq >> 32);
        xyv[j] = xy;
    }
}

/*
 * Same for uint16_t input of depth bpc (16 for pyramid levels): mean
 * (Σ f·x + 2^(bpc-1)) >> bpc, second moments (Σ f·x² + 2^(ks-1)) >> ks
 * with ks = 2·(bpc - 8), in 64 bits.
 */
static av_always_inline void vert_stats_16(uint64_t *muv, uint32_t *xxv,
                                           uint32_t *yyv, uint32_t *xyv,
                                           const VifPre *const *p,
                                           const uint16_t *f, const int fw,
                                           int w, int bpc)
{
    const int half = fw / 2;
    const int ks = 2 * (bpc - 8);
    const uint64_t rmu = 1u << (bpc - 1);
    const uint64_t rs  = ks ? 1ull << (ks - 1) : 0;

    for (int j = 0; j < w; j++) {
        uint64_t c  = f[half];
        uint64_t mu = c * p[half][j].mu;
        uint64_t xx = c * p[half][j].sq;
        uint64_t yy = c * p[half][j].yy;
        uint64_t xy = c * p[half][j].xy;

        for (int k = 0; k < half; k++) {
            const VifPre *a = &p[k][j], *b = &p[fw - 1 - k][j];
            c   = f[k];
            mu += c * (a->mu + b->mu);
            xx += c * (a->sq + b->sq);
            yy += c * ((uint64_t)a->yy + b->yy);
            xy += c * ((uint64_t)a->xy + b->xy);
        }
        muv[j] = (((mu & 0xffffffff) + rmu) >> bpc) |
                 (((mu >> 32) + rmu) >> bpc) << 32;
        xxv[j] = (uint32_t)((xx + rs) >> ks);
        yyv[j] = (uint32_t)((yy + rs) >> ks);
        xyv[j] = (uint32_t)((xy + rs) >> ks);
    }
}

/*
 * Horizontal pass of the statistics over padded rows, then the variances:
 * mu = Σ f·mu_v (Q24, unshifted; both lanes of muv at once, each below
 * 2^32), xx = (Σ f·xx_v + 2^15) >> 16 (Q16), mu² = (mu·mu + 2^31) >> 32,
 * σ = xx - mu² in wrapping uint32 read as int32. Only σ2² is clamped at 0.
 */
static av_always_inline void horiz_stats(int32_t *s1, int32_t *s2, int32_t *s12,
                                         const uint64_t *muv,
                                         const uint32_t *xxv,
                                         const uint32_t *yyv,
                                         const uint32_t *xyv,
                                         const uint16_t *f, const int fw, int w)
{
    const int half = fw / 2;

    for (int j = 0; j < w; j++) {
        uint64_t c   = f[half];
        uint64_t mu  = c * muv[j];
        uint64_t sxx = c * xxv[j];
        uint64_t syy = c * yyv[j];
        uint64_t sxy = c * xyv[j];
        uint32_t mu1, mu2, xx, yy, xy, mu1_sq, mu2_sq, mu1_mu2;
        int32_t sig2;

        for (int k = 0; k < half; k++) {
            const int l = j - half + k, r = j + half - k;
            c = f[k];
            mu  += c * (muv[l] + muv[r]);
            sxx += c * ((uint64_t)xxv[l] + xxv[r]);
            syy += c * ((uint64_t)yyv[l] + yyv[r]);
            sxy += c * ((uint64_t)xyv[l] + xyv[r]);
        }
        mu1 = (uint32_t)mu;
        mu2 = (uint32_t)(mu >> 32);
        xx = (uint32_t)((sxx + 32768) >> 16);
        yy = (uint32_t)((syy + 32768) >> 16);
        xy = (uint32_t)((sxy + 32768) >> 16);
        mu1_sq  = (uint32_t)(((uint64_t)mu1 * mu1 + 0x80000000u) >> 32);
        mu2_sq  = (uint32_t)(((uint64_t)mu2 * mu2 + 0x80000000u) >> 32);
        mu1_mu2 = (uint32_t)(((uint64_t)mu1 * mu2 + 0x80000000u) >> 32);

        sig2   = (int32_t)(yy - mu2_sq);
        s1[j]  = (int32_t)(xx - mu1_sq);
        s2[j]  = FFMAX(sig2, 0);
        s12[j] = (int32_t)(xy - mu1_mu2);
    }
}

/*
 * The per-pixel VIF terms of one row, added to acc. Textured pixels
 * (σ1² >= σn²) add log-domain information terms; flat ones add σ2² to a
 * linear term and count towards the denominator.
 */
static void vif_accumulate_row(FFVmafVifAccum *acc, const int32_t *s1,
                               const int32_t *s2, const int32_t *s12, int w,
                               double egl, const uint16_t *tab)
{
    int64_t num_log = 0, den_log = 0, num_nonlog = 0, den_nonlog = 0;

    for (int j = 0; j < w; j++) {
        const int32_t sig1 = s1[j], sig2 = s2[j], sig12 = s12[j];

        if (sig1 >= SIGMA_NSQ) {
            den_log += vif_log2(tab, (uint32_t)sig1 + SIGMA_NSQ) - 2048 * 17;
            if (sig12 > 0 && sig2 > 0) {
                double g  = sig12 / (sig1 + 6.5536e-6);
                double gs = g * sig12;
                double sv = sig2 - gs;
                double gg;
                uint32_t n1;
                /* libvmaf truncates sv to int32 and clamps at 0; sv <= σ2²
                 * so only its negative side can leave the int32 range. */
                int32_t sv2 = sv > 0 ? (int32_t)sv : 0;

                g  = FFMIN(g, egl);
                gg = g * g;
                n1 = (uint32_t)sv2 + SIGMA_NSQ;
                num_log += vif_log2(tab, (uint64_t)(int64_t)(gg * sig1) + n1) -
                           vif_log2(tab, n1);
            }
        } else {
            num_nonlog += sig2;
            den_nonlog++;
        }
    }
    acc->num_log    += num_log;
    acc->den_log    += den_log;
    acc->num_nonlog += num_nonlog;
    acc->den_nonlog += den_nonlog;
}

/*
 * Scratch of the statistics: a ring of fw product rows (row r in slot
 * r % fw; the rows one output row needs are at most fw consecutive ones,
 * even after mirroring), the padded vertical results and the σ rows.
 */
#define PAD FF_VMAF_VIF_MAX_HALF

static av_always_inline void vif_statistic_tmpl(FFVmafVifAccum *acc,
                                                const uint8_t *ref,
                                                ptrdiff_t ref_stride,
                                                const uint8_t *dis,
                                                ptrdiff_t dis_stride,
                                                int w, int h, int bpc,
                                                const int scale, double egl,
                                                const uint16_t *tab, void *tmp)
{
    const uint16_t *f = ff_vmaf_vif_filter[scale];
    const int fw   = ff_vmaf_vif_filter_width[scale];
    const int half = fw / 2;
    const size_t rs = w + 2 * PAD;
    VifPre   *ring = tmp;
    uint64_t *muv  = (uint64_t *)(ring + (size_t)FF_VMAF_VIF_MAX_TAPS * w) + PAD;
    uint32_t *xxv  = (uint32_t *)(muv - PAD + rs) + PAD;
    uint32_t *yyv  = xxv + rs;
    uint32_t *xyv  = yyv + rs;
    int32_t  *s1   = (int32_t *)(xyv - PAD + rs);
    int32_t  *s2   = s1 + w;
    int32_t  *s12  = s2 + w;
    const VifPre *p[FF_VMAF_VIF_MAX_TAPS];
    int next = 0;   /* first source row not yet in the ring */

    memset(acc, 0, sizeof(*acc));

    for (int i = 0; i < h; i++) {
        for (; next < h && next <= i + half; next++) {
            VifPre *dst = ring + (size_t)(next % fw) * w;
            if (bpc == 8)
                vif_pre_row_8(dst, ref + next * ref_stride,
                              dis + next * dis_stride, w);
            else
                vif_pre_row_16(dst, (const uint16_t *)(ref + next * ref_stride),
                               (const uint16_t *)(dis + next * dis_stride), w);
        }
        for (int k = 0; k < fw; k++)
            p[k] = ring + (size_t)(ff_vmaf_vif_mirror(i - half + k, h) % fw) * w;

        if (bpc == 8)
            vert_stats_8(muv, xxv, yyv, xyv, p, f, fw, w);
        else
            vert_stats_16(muv, xxv, yyv, xyv, p, f, fw, w, bpc);

        FF_VMAF_VIF_PAD_ROW(muv, w, half);
        FF_VMAF_VIF_PAD_ROW(xxv, w, half);
        FF_VMAF_VIF_PAD_ROW(yyv, w, half);
        FF_VMAF_VIF_PAD_ROW(xyv, w, half);

        horiz_stats(s1, s2, s12, muv, xxv, yyv, xyv, f, fw, w);
        vif_accumulate_row(acc, s1, s2, s12, w, egl, tab);
    }
}

void ff_vmaf_vif_statistic(FFVmafVifAccum *acc,
                           const uint8_t *ref, ptrdiff_t ref_stride,
                           const uint8_t *dis, ptrdiff_t dis_stride,
                           int w, int h, int bpc, int scale, double egl,
                           const uint16_t *log2_tab, void *tmp)
{
    /* One instance per filter width, so that the tap loops unroll. */
    switch (scale) {
    case 0: vif_statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                               bpc, 0, egl, log2_tab, tmp); break;
    case 1: vif_statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                               bpc, 1, egl, log2_tab, tmp); break;
    case 2: vif_statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                               bpc, 2, egl, log2_tab, tmp); break;
    default: vif_statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                                bpc, 3, egl, log2_tab, tmp); break;
    }
}

/*
 * Pyramid step: vertical (Σ f·x + 2^(bpc-1)) >> bpc (an 8-bit or high
 * bit depth input becomes Q8 of 8-bit units, a Q8 level stays Q8), then
 * horizontal (Σ f·v + 2^15) >> 16, both only where the even rows and
 * columns that are kept need them.
 */
static av_always_inline void vif_decimate_tmpl(uint16_t *dst,
                                               ptrdiff_t dst_stride,
                                               const uint8_t *src,
                                               ptrdiff_t src_stride,
                                               int w, int h, int bpc,
                                               const int scale, void *tmp)
{
    const uint16_t *f = ff_vmaf_vif_filter[scale];
    const int fw   = ff_vmaf_vif_filter_width[scale];
    const int half = fw / 2;
    const uint32_t rnd = 1u << (bpc - 1);
    uint16_t *v = (uint16_t *)tmp + FF_VMAF_VIF_MAX_HALF;

    for (int i = 0; i < h / 2; i++) {
        if (bpc == 8) {
            const uint8_t *rows[FF_VMAF_VIF_MAX_TAPS];
            VIF_ROWS(rows, uint8_t, src, src_stride, 2 * i, h, fw);
            for (int j = 0; j < w; j++) {
                uint32_t s = (uint32_t)f[half] * rows[half][j];
                for (int k = 0; k < half; k++)
                    s += f[k] * (uint32_t)(rows[k][j] + rows[fw - 1 - k][j]);
                v[j] = (s + rnd) >> bpc;
            }
        } else {
            const uint16_t *r16[FF_VMAF_VIF_MAX_TAPS];
            VIF_ROWS(r16, uint16_t, src, src_stride, 2 * i, h, fw);
            for (int j = 0; j < w; j++) {
                uint32_t s = (uint32_t)f[half] * r16[half][j];
                for (int k = 0; k < half; k++)
                    s += f[k] * ((uint32_t)r16[k][j] + r16[fw - 1 - k][j]);
                v[j] = (s + rnd) >> bpc;
            }
        }
        FF_VMAF_VIF_PAD_ROW(v, w, half);

        for (int j = 0; j < w / 2; j++) {
            const int x = 2 * j;
            uint32_t s = (uint32_t)f[half] * v[x];
            for (int k = 0; k < half; k++)
                s += f[k] * ((uint32_t)v[x - half + k] + v[x + half - k]);
            dst[j] = (s + 32768) >> 16;
        }
        dst = (uint16_t *)((uint8_t *)dst + dst_stride);
    }
}

void ff_vmaf_vif_decimate(uint16_t *dst, ptrdiff_t dst_stride,
                          const uint8_t *src, ptrdiff_t src_stride,
                          int w, int h, int bpc, int scale, void *tmp)
{
    switch (scale) {
    case 1: vif_decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 1, tmp); break;
    case 2: vif_decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 2, tmp); break;
    default: vif_decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 3, tmp); break;
    }
}

void ff_vmaf_vif_accum_to_float(const FFVmafVifAccum *acc,
                                float *num, float *den)
{
    /* num_nonlog / 16384 / 65025 = Σ σ2² · 4 / 255² with σ2² in Q16: the
     * float VIF's "1 - σ2²/σmax²" for flat pixels. */
    *num = (float)(acc->num_log / 2048.0 +
                   (acc->den_nonlog - (acc->num_nonlog / 16384.0) / 65025.0));
    *den = (float)(acc->den_log / 2048.0 + acc->den_nonlog);
}

av_cold void ff_vmaf_vif_dsp_init(FFVmafVifDSPContext *c)
{
    c->statistic = ff_vmaf_vif_statistic;
    c->decimate  = ff_vmaf_vif_decimate;
#if ARCH_X86_64
    ff_vmaf_vif_dsp_init_x86(c);
#endif
}
