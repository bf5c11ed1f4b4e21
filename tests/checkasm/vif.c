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

#include "libavfilter/vmaf/vif_dsp.h"

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
    const int max = (1 << bpc) - 1;
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            if (bpc == 8) {
                ref[i * rs + j] = sample(pat, 0, i, j, 0, max);
                dis[i * ds + j] = sample(pat, 1, i, j, ref[i * rs + j], max);
            } else {
                uint16_t *r = (uint16_t *)(ref + i * rs), *d = (uint16_t *)(dis + i * ds);
                r[j] = sample(pat, 0, i, j, 0, max);
                d[j] = sample(pat, 1, i, j, r[j], max);
            }
        }
    }
}

/* A random stride of at least w samples and a misaligned start. */
static ptrdiff_t pick_stride(int w, int bps)
{
    return (ptrdiff_t)(w + checkasm_rand_int(40)) * bps;
}

static int pick_offset(int bps)
{
    return bps == 1 ? 1 + checkasm_rand_int(31) : 2 * (1 + checkasm_rand_int(15));
}

static const int depths[] = { 8, 9, 10, 12, 14, 15, 16 };
static const int heights[] = { 1, 2, 3, 5, 9, 18, 23 };
#define NB_DEPTHS  (int)(sizeof(depths) / sizeof(depths[0]))
#define NB_HEIGHTS (int)(sizeof(heights) / sizeof(heights[0]))

static uint16_t *log2_tab;

static void check_statistic(void)
{
    FFVmafVifDSPContext c, t;
    const double egls[] = { 100.0, 1.0, 3.7 };

    checkasm_init_tier(0);
    ff_vmaf_vif_dsp_init(&c);

    for (int tier = 1; tier < checkasm_nb_tiers; tier++) {
        const char *tn = checkasm_tiers[tier]->name;
        int cases = 0;

        checkasm_init_tier(tier);
        ff_vmaf_vif_dsp_init(&t);
        if (t.statistic == c.statistic)
            continue;

        for (int d = 0; d < NB_DEPTHS; d++) {
            const int bpc = depths[d], bps = bpc == 8 ? 1 : 2;
            for (int scale = 0; scale < FF_VMAF_VIF_SCALES; scale++) {
                for (int wi = 0; checkasm_widths[wi]; wi++) {
                    const int w = checkasm_widths[wi];
                    /* Large widths with a few heights only. */
                    const int nh = w > 256 ? 3 : NB_HEIGHTS;
                    for (int hi = 0; hi < nh; hi++) {
                        const int h = w > 256 ? heights[2 * hi + 1] : heights[hi];
                        const int pat = (wi + hi + scale + d) % NB_PAT;
                        const ptrdiff_t rs = pick_stride(w, bps), ds = pick_stride(w, bps);
                        const int ro = pick_offset(bps), dof = pick_offset(bps);
                        const size_t rsize = ro + (h - 1) * rs + (size_t)w * bps;
                        const size_t dsize = dof + (h - 1) * ds + (size_t)w * bps;
                        uint8_t *rbuf = malloc(rsize), *dbuf = malloc(dsize);
                        void *tmp_c = av_malloc(FF_VMAF_VIF_TMP_SIZE(w));
                        void *tmp_t = av_malloc(FF_VMAF_VIF_TMP_SIZE(w));
                        const double egl = egls[(wi + hi) % 3];
                        FFVmafVifAccum ac, at;

                        if (!rbuf || !dbuf || !tmp_c || !tmp_t)
                            abort();
                        fill_pair(rbuf + ro, rs, dbuf + dof, ds, w, h, bpc, pat);
                        c.statistic(&ac, rbuf + ro, rs, dbuf + dof, ds, w, h, bpc,
                                    scale, egl, log2_tab, tmp_c);
                        t.statistic(&at, rbuf + ro, rs, dbuf + dof, ds, w, h, bpc,
                                    scale, egl, log2_tab, tmp_t);
                        if (memcmp(&ac, &at, sizeof(ac)))
                            checkasm_fail("vif", tn, "statistic",
                                          "bpc %d scale %d %dx%d pattern %d egl %g: "
                                          "C %lld %lld %lld %lld, %s %lld %lld %lld %lld",
                                          bpc, scale, w, h, pat, egl,
                                          (long long)ac.num_log, (long long)ac.den_log,
                                          (long long)ac.num_nonlog, (long long)ac.den_nonlog,
                                          tn, (long long)at.num_log, (long long)at.den_log,
                                          (long long)at.num_nonlog, (long long)at.den_nonlog);
                        cases++;
                        free(rbuf);
                        free(dbuf);
                        av_free(tmp_c);
                        av_free(tmp_t);
                    }
                }
            }
        }
        checkasm_report("vif", tn, "statistic", cases);
    }
}

static void check_decimate(void)
{
    FFVmafVifDSPContext c, t;

    checkasm_init_tier(0);
    ff_vmaf_vif_dsp_init(&c);

    for (int tier = 1; tier < checkasm_nb_tiers; tier++) {
        const char *tn = checkasm_tiers[tier]->name;
        int cases = 0;

        checkasm_init_tier(tier);
        ff_vmaf_vif_dsp_init(&t);
        if (t.decimate == c.decimate)
            continue;

        for (int d = 0; d < NB_DEPTHS; d++) {
            const int bpc = depths[d], bps = bpc == 8 ? 1 : 2;
            for (int scale = 1; scale < FF_VMAF_VIF_SCALES; scale++) {
                for (int wi = 0; checkasm_widths[wi]; wi++) {
                    const int w = checkasm_widths[wi];
                    const int nh = w > 256 ? 3 : NB_HEIGHTS;
                    for (int hi = 0; hi < nh; hi++) {
                        const int h = w > 256 ? heights[2 * hi + 1] : heights[hi];
                        const int pat = (wi + hi + scale + d) % NB_PAT;
                        const ptrdiff_t ss = pick_stride(w, bps);
                        const int so = pick_offset(bps);
                        const size_t ssize = so + (h - 1) * ss + (size_t)w * bps;
                        /* dst: a stride of w/2 + extra samples; all of it compared,
                         * so writes outside the (w/2) x (h/2) picture count too. */
                        const ptrdiff_t dstride = (w / 2 + checkasm_rand_int(9)) * 2;
                        const size_t dsize = dstride * (h / 2) + 64;
                        uint8_t *sbuf = malloc(ssize), *dummy = malloc(ssize);
                        uint8_t *dc = malloc(dsize), *dt = malloc(dsize);
                        void *tmp_c = av_malloc(FF_VMAF_VIF_TMP_SIZE(w));
                        void *tmp_t = av_malloc(FF_VMAF_VIF_TMP_SIZE(w));

                        if (!sbuf || !dummy || !dc || !dt || !tmp_c || !tmp_t)
                            abort();
                        fill_pair(sbuf + so, ss, dummy + so, ss, w, h, bpc, pat);
                        memset(dc, 0xa5, dsize);
                        memset(dt, 0xa5, dsize);
                        c.decimate((uint16_t *)dc, dstride, sbuf + so, ss, w, h, bpc,
                                   scale, tmp_c);
                        t.decimate((uint16_t *)dt, dstride, sbuf + so, ss, w, h, bpc,
                                   scale, tmp_t);
                        if (memcmp(dc, dt, dsize))
                            checkasm_fail("vif", tn, "decimate",
                                          "bpc %d scale %d %dx%d pattern %d",
                                          bpc, scale, w, h, pat);
                        cases++;
                        free(sbuf);
                        free(dummy);
                        free(dc);
                        free(dt);
                        av_free(tmp_c);
                        av_free(tmp_t);
                    }
                }
            }
        }
        checkasm_report("vif", tn, "decimate", cases);
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
                if (bps == 1) {
                    ref[i * stride + j] = r;
                    dis[i * stride + j] = d;
                } else {
                    ((uint16_t *)(ref + i * stride))[j] = r;
                    ((uint16_t *)(dis + i * stride))[j] = d;
                }
            }
        for (int tier = 0; tier < checkasm_nb_tiers; tier++) {
            FFVmafVifAccum acc;
            double ns;

            checkasm_init_tier(tier);
            ff_vmaf_vif_dsp_init(&t);
            if (tier && (cases[n].decimate ? t.decimate == c.decimate
                                           : t.statistic == c.statistic))
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

    check_statistic();
    check_decimate();
    if (checkasm_bench)
        bench();
    av_freep(&log2_tab);
}
