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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/mem.h"

#include "libavfilter/vmaf/features/vif_dsp.h"

#include "checkasm.h"

/*
 * Planes: random, correlated (dis = ref + small noise: the gain terms of
 * textured pixels), smooth (flat pixels), all 0, all max, alternating
 * 0/max columns in ref against rows in dis.
 */
enum { PAT_RANDOM, PAT_CORR, PAT_SMOOTH, PAT_ZERO, PAT_MAX, PAT_ALT, NB_PAT };

static int sample(int pat, int is_dis, int i, int j, int ref_val, int max)
{
    int v;
    switch (pat) {
    case PAT_RANDOM: return checkasm_rand() & max;
    case PAT_CORR:
        if (!is_dis)
            return checkasm_rand() & max;
        v = ref_val + (int)(checkasm_rand() % 9) - 4;
        return v < 0 ? 0 : v > max ? max : v;
    case PAT_SMOOTH:
        v = (int)((unsigned)(i * 3 + j * 2) * ((max + 1) / 256) / 4) +
            (int)(checkasm_rand() % 3);
        return v > max ? max : v;
    case PAT_ZERO:   return 0;
    case PAT_MAX:    return max;
    default:         return ((is_dis ? i : j) & 1) ? max : 0;
    }
}

/* Fill ref and dis (w x h, depth bpc, bytes per sample from bpc). */
static void fill_pair(uint8_t *ref, ptrdiff_t rs, uint8_t *dis, ptrdiff_t ds,
                      int w, int h, int bpc, int pat)
{
    const int max = (1 << bpc) - 1, bps = bpc == 8 ? 1 : 2;
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            const int r = sample(pat, 0, i, j, 0, max);
            checkasm_put_sample(ref + i * rs, j, bps, r);
            checkasm_put_sample(dis + i * ds, j, bps, sample(pat, 1, i, j, r, max));
        }
    }
}

/* A random stride of at least w samples. */
static ptrdiff_t pick_stride(int w, int bps)
{
    return (ptrdiff_t)(w + checkasm_rand_int(40)) * bps;
}

/*
 * A buffer of just the size of a w x h plane at stride, off bytes in: so a
 * read past the plane shows under a memory checker.
 */
static uint8_t *plane_alloc(ptrdiff_t stride, int off, int w, int h, int bps)
{
    return checkasm_malloc(off + (h - 1) * stride + (size_t)w * bps);
}

static void *tmp_alloc(int w)
{
    void *tmp = av_malloc(FF_VMAF_VIF_TMP_SIZE(w));
    if (!tmp)
        abort();
    return tmp;
}

static const int depths[] = { 8, 9, 10, 12, 14, 15, 16 };
static const int heights[] = { 1, 2, 3, 5, 9, 18, 23 };
#define NB_DEPTHS  (int)(sizeof(depths) / sizeof(depths[0]))
#define NB_HEIGHTS (int)(sizeof(heights) / sizeof(heights[0]))

static uint16_t *log2_tab;

enum { STATISTIC, DECIMATE };
static const char *const func_names[] = { "statistic", "decimate" };

/* Whether t has its own version of func: one that is C's is not tested. */
static int own_version(const FFVmafVifDSPContext *c, const FFVmafVifDSPContext *t, int func)
{
    return func == DECIMATE ? t->decimate != c->decimate : t->statistic != c->statistic;
}

/* One case of a function: planes of w x h samples of depth bpc. */
typedef struct Case {
    const char *tier;
    int bpc, bps, scale, w, h, pat;
    double egl;
} Case;

static void statistic_case(const FFVmafVifDSPContext *c, const FFVmafVifDSPContext *t,
                           const Case *k)
{
    const int w = k->w, h = k->h, bps = k->bps;
    const ptrdiff_t rs = pick_stride(w, bps), ds = pick_stride(w, bps);
    const int ro = checkasm_misalign(bps), dof = checkasm_misalign(bps);
    uint8_t *rbuf = plane_alloc(rs, ro, w, h, bps), *dbuf = plane_alloc(ds, dof, w, h, bps);
    void *tmp_c = tmp_alloc(w), *tmp_t = tmp_alloc(w);
    FFVmafVifAccum ac, at;

    fill_pair(rbuf + ro, rs, dbuf + dof, ds, w, h, k->bpc, k->pat);
    c->statistic(&ac, rbuf + ro, rs, dbuf + dof, ds, w, h, k->bpc,
                 k->scale, k->egl, log2_tab, tmp_c);
    t->statistic(&at, rbuf + ro, rs, dbuf + dof, ds, w, h, k->bpc,
                 k->scale, k->egl, log2_tab, tmp_t);
    if (memcmp(&ac, &at, sizeof(ac)))
        checkasm_fail("vif", k->tier, "statistic",
                      "bpc %d scale %d %dx%d pattern %d egl %g: "
                      "C %lld %lld %lld %lld, %s %lld %lld %lld %lld",
                      k->bpc, k->scale, w, h, k->pat, k->egl,
                      (long long)ac.num_log, (long long)ac.den_log,
                      (long long)ac.num_nonlog, (long long)ac.den_nonlog,
                      k->tier, (long long)at.num_log, (long long)at.den_log,
                      (long long)at.num_nonlog, (long long)at.den_nonlog);
    free(rbuf);
    free(dbuf);
    av_free(tmp_c);
    av_free(tmp_t);
}

static void decimate_case(const FFVmafVifDSPContext *c, const FFVmafVifDSPContext *t,
                          const Case *k)
{
    const int w = k->w, h = k->h, bps = k->bps;
    const ptrdiff_t ss = pick_stride(w, bps);
    const int so = checkasm_misalign(bps);
    /* dst: a stride of w/2 + extra samples; all of it compared, so writes
     * outside the (w/2) x (h/2) picture count too */
    const ptrdiff_t dstride = (w / 2 + checkasm_rand_int(9)) * 2;
    const size_t dsize = dstride * (h / 2) + 64;
    /* the fill makes a pair: dis is only its by-product here */
    uint8_t *sbuf = plane_alloc(ss, so, w, h, bps), *dummy = plane_alloc(ss, so, w, h, bps);
    uint8_t *dc = checkasm_malloc(dsize), *dt = checkasm_malloc(dsize);
    void *tmp_c = tmp_alloc(w), *tmp_t = tmp_alloc(w);

    fill_pair(sbuf + so, ss, dummy + so, ss, w, h, k->bpc, k->pat);
    memset(dc, 0xa5, dsize);
    memset(dt, 0xa5, dsize);
    c->decimate((uint16_t *)dc, dstride, sbuf + so, ss, w, h, k->bpc, k->scale, tmp_c);
    t->decimate((uint16_t *)dt, dstride, sbuf + so, ss, w, h, k->bpc, k->scale, tmp_t);
    if (memcmp(dc, dt, dsize))
        checkasm_fail("vif", k->tier, "decimate", "bpc %d scale %d %dx%d pattern %d",
                      k->bpc, k->scale, w, h, k->pat);
    free(sbuf);
    free(dummy);
    free(dc);
    free(dt);
    av_free(tmp_c);
    av_free(tmp_t);
}

/*
 * func on every tier that has its own: every depth, scale (decimate's
 * from 1: it makes the levels of the scales after 0), width, and a few
 * heights, the patterns in turn.
 */
static void check_func(int func)
{
    static const double egls[] = { 100.0, 1.0, 3.7 };
    FFVmafVifDSPContext c, t;

    checkasm_init_tier(0);
    ff_vmaf_vif_dsp_init(&c);

    for (int tier = 1; tier < checkasm_nb_tiers; tier++) {
        Case k = { .tier = checkasm_tiers[tier]->name };
        int cases = 0;

        checkasm_init_tier(tier);
        ff_vmaf_vif_dsp_init(&t);
        if (!own_version(&c, &t, func))
            continue;

        for (int d = 0; d < NB_DEPTHS; d++) {
            k.bpc = depths[d];
            k.bps = k.bpc == 8 ? 1 : 2;
            for (k.scale = func == DECIMATE; k.scale < FF_VMAF_VIF_SCALES; k.scale++) {
                for (int wi = 0; checkasm_widths[wi]; wi++) {
                    /* Large widths with a few heights only. */
                    const int nh = checkasm_widths[wi] > 256 ? 3 : NB_HEIGHTS;
                    k.w = checkasm_widths[wi];
                    for (int hi = 0; hi < nh; hi++) {
                        k.h   = k.w > 256 ? heights[2 * hi + 1] : heights[hi];
                        k.pat = (wi + hi + k.scale + d) % NB_PAT;
                        k.egl = egls[(wi + hi) % 3];
                        if (func == DECIMATE)
                            decimate_case(&c, &t, &k);
                        else
                            statistic_case(&c, &t, &k);
                        cases++;
                    }
                }
            }
        }
        checkasm_report("vif", k.tier, func_names[func], cases);
    }
}

/* 1080p-like content: a ramp with texture, dis a noisy copy. */
static void bench(void)
{
    const int W = 1920, H = 1080;
    FFVmafVifDSPContext c, t;
    uint8_t *ref = av_malloc((size_t)W * H * 2), *dis = av_malloc((size_t)W * H * 2);
    uint16_t *dst = av_malloc((size_t)W * H / 2);
    void *tmp = av_malloc(FF_VMAF_VIF_TMP_SIZE(W));
    static const struct {
        const char *func, *what;
        int bpc, scale, w, h, decimate;
    } cases[] = {
        { "statistic", "8-bit s0 1080p",  8,  0, 1920, 1080, 0 },
        { "statistic", "10-bit s0 1080p", 10, 0, 1920, 1080, 0 },
        { "statistic", "16-bit s1 540p",  16, 1,  960,  540, 0 },
        { "statistic", "16-bit s2 270p",  16, 2,  480,  270, 0 },
        { "statistic", "16-bit s3 135p",  16, 3,  240,  135, 0 },
        { "decimate",  "8-bit s1 1080p",  8,  1, 1920, 1080, 1 },
        { "decimate",  "10-bit s1 1080p", 10, 1, 1920, 1080, 1 },
        { "decimate",  "16-bit s2 540p",  16, 2,  960,  540, 1 },
        { "decimate",  "16-bit s3 270p",  16, 3,  480,  270, 1 },
    };

    if (!ref || !dis || !dst || !tmp)
        abort();
    checkasm_init_tier(0);
    ff_vmaf_vif_dsp_init(&c);
    for (size_t n = 0; n < sizeof(cases) / sizeof(cases[0]); n++) {
        const int bpc = cases[n].bpc, w = cases[n].w, h = cases[n].h;
        const int bps = bpc == 8 ? 1 : 2, max = (1 << bpc) - 1;
        const ptrdiff_t stride = (ptrdiff_t)w * bps;
        double c_ns = 0;

        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                int r = ((i + j) * (max + 1) / 4096 + (int)(checkasm_rand() % 24) *
                         ((max + 1) / 256)) & max;
                int d = r + ((int)(checkasm_rand() % 9) - 4) * ((max + 1) / 256);
                d = d < 0 ? 0 : d > max ? max : d;
                checkasm_put_sample(ref + i * stride, j, bps, r);
                checkasm_put_sample(dis + i * stride, j, bps, d);
            }
        for (int tier = 0; tier < checkasm_nb_tiers; tier++) {
            FFVmafVifAccum acc;
            double ns;

            checkasm_init_tier(tier);
            ff_vmaf_vif_dsp_init(&t);
            if (tier && !own_version(&c, &t, cases[n].decimate ? DECIMATE : STATISTIC))
                continue;
            if (cases[n].decimate)
                CHECKASM_TIME(ns, t.decimate(dst, w, ref, stride, w, h, bpc,
                                             cases[n].scale, tmp));
            else
                CHECKASM_TIME(ns, t.statistic(&acc, ref, stride, dis, stride, w, h, bpc,
                                              cases[n].scale, 100.0, log2_tab, tmp));
            if (!tier)
                c_ns = ns;
            checkasm_bench_report("vif", cases[n].func, cases[n].what,
                                  checkasm_tiers[tier]->name, ns, c_ns);
        }
    }
    av_free(ref);
    av_free(dis);
    av_free(dst);
    av_free(tmp);
}

void checkasm_check_vif(void)
{
    log2_tab = av_malloc(FF_VMAF_VIF_LOG2_ALLOC * sizeof(*log2_tab));
    if (!log2_tab)
        abort();
    ff_vmaf_vif_log2_init(log2_tab);
    log2_tab[FF_VMAF_VIF_LOG2_SIZE] = log2_tab[FF_VMAF_VIF_LOG2_SIZE + 1] = 0;

    check_func(STATISTIC);
    check_func(DECIMATE);
    if (checkasm_bench)
        bench();
    av_freep(&log2_tab);
}
