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

/*
 * The PSNR-HVS kernels (psnr_hvs_dsp.h: the 8x8 integer DCT, the block
 * masking and the masked block error, each on a group of 8 blocks), each
 * SIMD version against the C one; then a whole plane through a driver
 * like the feature's, at every width, with partial groups.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/features/psnr_hvs_dsp.h"

#include "checkasm.h"

#define G   FF_VMAF_PSNR_HVS_GROUP
#define L   FF_VMAF_PSNR_HVS_LANES
#define PAD 8                   /* int32_t elements of misalignment room */
#define NB_MODES 8

static const int depths[] = { 8, 10, 12 };

/* Sample i of a group for a fill mode: random, 0, max, alternating 0/max
 * along rows, along columns, a checkerboard, a random row of extremes, or
 * small random values. */
static int32_t sample(int mode, int i, int max)
{
    int k = i / L, r = k >> 3, c = k & 7;
    switch (mode) {
    case 0:  return checkasm_rand() % (max + 1);
    case 1:  return 0;
    case 2:  return max;
    case 3:  return c & 1 ? max : 0;
    case 4:  return r & 1 ? max : 0;
    case 5:  return (r ^ c) & 1 ? max : 0;
    case 6:  return checkasm_rand() & 1 ? max : 0;
    default: return checkasm_rand() % 4;
    }
}

static void fill_group(int32_t *g, int mode, int max)
{
    for (int i = 0; i < G; i++)
        g[i] = sample(mode, i, max);
}

/* Pointer into buf at a random int32_t offset 0..PAD-1 (0..28 bytes). */
static int32_t *misalign(int32_t *buf)
{
    return buf + checkasm_rand_int(PAD);
}

/* Mask table as the feature builds it, from a random positive CSF. */
static void make_tables(float csf[64], float mask_tab[64])
{
    for (int k = 0; k < 64; k++) {
        double c;
        csf[k] = 0.1f + (float)(checkasm_rand() % 25000) / 10000.0f;
        c = (double)csf[k] * 0.3885746225901003;
        mask_tab[k] = (float)(c * c);
    }
}

static void check_kernels(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    FFVmafPsnrHvsDSPContext c, a;
    int32_t *px[2], *dc[2], *da[2];
    float csf[64], mask_tab[64];
    int cases[3] = { 0 };

    checkasm_init_tier(0);
    ff_vmaf_psnr_hvs_dsp_init(&c, 8);
    checkasm_init_tier(t);
    ff_vmaf_psnr_hvs_dsp_init(&a, 8);
    checkasm_init_tier(0);
    for (int i = 0; i < 2; i++) {
        px[i] = checkasm_malloc((G + PAD) * sizeof(int32_t));
        dc[i] = checkasm_malloc((G + PAD) * sizeof(int32_t));
        da[i] = checkasm_malloc((G + PAD) * sizeof(int32_t));
    }

    for (int di = 0; di < 3; di++) {
        int max = (1 << depths[di]) - 1;
        for (int iter = 0; iter < 200; iter++) {
            int mode[2] = { iter % NB_MODES, (iter / NB_MODES) % NB_MODES };
            int32_t *p[2], *dcc[2], *dca[2];
            float mc[2][L], ma[2][L];
            unsigned live = iter < 8 ? 0xff : checkasm_rand() & 0xff;
            float acc0 = iter & 1 ? 0.0f : (float)(checkasm_rand() % 100000) / 7.0f;
            float ec, ea;

            make_tables(csf, mask_tab);
            for (int i = 0; i < 2; i++) {
                p[i]   = misalign(px[i]);
                dcc[i] = misalign(dc[i]);
                dca[i] = misalign(da[i]);
                fill_group(p[i], mode[i], max);
                /* fdct8x8 */
                memset(dcc[i], 0x5a, G * sizeof(int32_t));
                memset(dca[i], 0x5a, G * sizeof(int32_t));
                c.fdct8x8(dcc[i], p[i]);
                if (a.fdct8x8 != c.fdct8x8) {
                    a.fdct8x8(dca[i], p[i]);
                    if (memcmp(dcc[i], dca[i], G * sizeof(int32_t)))
                        checkasm_fail("psnr_hvs", tier, "fdct8x8",
                                      "bpc %d mode %d", depths[di], mode[i]);
                    cases[0]++;
                }
                /* block_mask */
                c.block_mask(mc[i], p[i], dcc[i], mask_tab);
                if (a.block_mask != c.block_mask) {
                    a.block_mask(ma[i], p[i], dcc[i], mask_tab);
                    if (memcmp(mc[i], ma[i], sizeof(mc[i])))
                        checkasm_fail("psnr_hvs", tier, "block_mask",
                                      "bpc %d mode %d: %a, C %a", depths[di],
                                      mode[i], ma[i][0], mc[i][0]);
                    cases[1]++;
                }
            }
            /* Equal masks in some lanes, to test the choice of the two. */
            if (iter % 5 == 0)
                for (int b = 0; b < L; b += 2)
                    mc[1][b] = mc[0][b];
            /* block_error */
            if (a.block_error != c.block_error) {
                ec = c.block_error(acc0, dcc[0], dcc[1], mc[0], mc[1], live, csf, mask_tab);
                ea = a.block_error(acc0, dcc[0], dcc[1], mc[0], mc[1], live, csf, mask_tab);
                if (memcmp(&ec, &ea, sizeof(ec)))
                    checkasm_fail("psnr_hvs", tier, "block_error",
                                  "bpc %d modes %d/%d live %#x: %a, C %a",
                                  depths[di], mode[0], mode[1], live, ea, ec);
                cases[2]++;
            }
        }
    }
    if (cases[0])
        checkasm_report("psnr_hvs", tier, "fdct8x8", cases[0]);
    if (cases[1])
        checkasm_report("psnr_hvs", tier, "block_mask", cases[1]);
    if (cases[2])
        checkasm_report("psnr_hvs", tier, "block_error", cases[2]);
    for (int i = 0; i < 2; i++) {
        free(px[i]);
        free(dc[i]);
        free(da[i]);
    }
}

/* ------------------------------------------------------------------ */

/* The feature's driver on one plane (samples of bpc bits; stride in
 * samples): the sum of the masked errors of every block. */
static float plane_error(const FFVmafPsnrHvsDSPContext *d, const uint8_t *ref,
                         const uint8_t *dis, ptrdiff_t stride, int w, int h,
                         int bpc, const float csf[64], const float mask_tab[64])
{
    int32_t pr[G], pd[G], dr[G], dd[G];
    float mr[L], md[L], acc = 0.0f;
    int nbx = (w - 8) / FF_VMAF_PSNR_HVS_STEP + 1, bytes = bpc > 8 ? 2 : 1;

    for (int y = 0; y + 8 <= h; y += FF_VMAF_PSNR_HVS_STEP)
        for (int bx = 0; bx < nbx; bx += L) {
            int n = nbx - bx < L ? nbx - bx : L;
            size_t o = ((size_t)y * stride + bx * FF_VMAF_PSNR_HVS_STEP) * bytes;
            unsigned live;
            d->load(pr, ref + o, stride * bytes, n, bpc);
            d->load(pd, dis + o, stride * bytes, n, bpc);
            if (!(live = d->diff(pr, pd)))
                continue;
            d->fdct8x8(dr, pr);
            d->fdct8x8(dd, pd);
            d->block_mask(mr, pr, dr, mask_tab);
            d->block_mask(md, pd, dd, mask_tab);
            acc = d->block_error(acc, dr, dd, mr, md, live, csf, mask_tab);
        }
    return acc;
}

/* Fill n samples of bpc bits: random, with samples above the depth
 * (clamped by load) in mode 1. */
static void fill_plane(uint8_t *p, size_t n, int bpc, int mode)
{
    unsigned max = (1u << bpc) - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned v = checkasm_rand();
        v = mode == 1 ? v & 0xffff : mode == 2 ? (i & 1 ? max : 0) : v % (max + 1);
        if (bpc == 8)
            p[i] = v;
        else
            ((uint16_t *)p)[i] = v;
    }
}

/* load at every width's block count, random strides and start offsets;
 * diff on groups that differ in random lanes. */
static void check_load(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    size_t size = (size_t)(8 * 8 + 64 + 16) * 8 * 2 + 64;
    uint8_t *buf = checkasm_malloc(size);
    int32_t *gc = checkasm_malloc((G + PAD) * sizeof(int32_t)), *ga = checkasm_malloc((G + PAD) * sizeof(int32_t));
    int cases[3] = { 0 }, tested[2] = { 0 };

    for (int di = 0; di < 3; di++) {
        int bpc = depths[di], bytes = bpc > 8 ? 2 : 1, idx = bpc > 8;
        const char *func = bpc > 8 ? "load_16" : "load_8";
        FFVmafPsnrHvsDSPContext c, a;

        checkasm_init_tier(0);
        ff_vmaf_psnr_hvs_dsp_init(&c, bpc);
        checkasm_init_tier(t);
        ff_vmaf_psnr_hvs_dsp_init(&a, bpc);
        checkasm_init_tier(0);
        if (a.load == c.load)
            continue;
        tested[idx] = 1;
        for (int n = 1; n <= L; n++)
            for (int m = 0; m < 3; m++)
                for (int r = 0; r < 8; r++) {
                    int w = 8 + FF_VMAF_PSNR_HVS_STEP * (n - 1);
                    ptrdiff_t stride = (w + checkasm_rand_int(64)) * bytes;
                    uint8_t *src = buf + (bytes == 1 ? 1 + checkasm_rand_int(31)
                                                     : 2 * (1 + checkasm_rand_int(15)));
                    int32_t *dc = misalign(gc), *da = misalign(ga);
                    fill_plane(src, (size_t)8 * stride / bytes, bpc, m);
                    memset(dc, 0x5a, G * sizeof(int32_t));
                    memset(da, 0xa5, G * sizeof(int32_t));
                    c.load(dc, src, stride, n, bpc);
                    a.load(da, src, stride, n, bpc);
                    if (memcmp(dc, da, G * sizeof(int32_t)))
                        checkasm_fail("psnr_hvs", tier, func, "bpc %d n %d mode %d", bpc, n, m);
                    cases[idx]++;
                }
        if (idx || a.diff == c.diff)
            continue;
        for (int r = 0; r < 200; r++) {
            int32_t *x = misalign(gc), *y = misalign(ga);
            unsigned rc, ra;
            for (int i = 0; i < G; i++)
                x[i] = y[i] = checkasm_rand() % 4096;
            /* a difference in random lanes, at random places */
            for (int k = r % 4; k > 0; k--)
                y[checkasm_rand_int(G)] ^= 1u << checkasm_rand_int(31);
            if (r % 7 == 0)
                y[checkasm_rand_int(G)] ^= 0x80000000u;
            rc = c.diff(x, y);
            ra = a.diff(x, y);
            if (rc != ra)
                checkasm_fail("psnr_hvs", tier, "diff", "%#x, C %#x", ra, rc);
            cases[2]++;
        }
    }
    if (tested[0])
        checkasm_report("psnr_hvs", tier, "load_8", cases[0]);
    if (tested[1])
        checkasm_report("psnr_hvs", tier, "load_16", cases[1]);
    if (cases[2])
        checkasm_report("psnr_hvs", tier, "diff", cases[2]);
    free(buf);
    free(gc);
    free(ga);
}

static void check_plane(int t)
{
    static const int heights[] = { 8, 15, 23 };
    const char *tier = checkasm_tiers[t]->name;
    const int max_w = 1000;
    uint8_t *rbuf = checkasm_malloc((size_t)(max_w + 64) * 23 * 2 + 64);
    uint8_t *dbuf = checkasm_malloc((size_t)(max_w + 64) * 23 * 2 + 64);
    float csf[64], mask_tab[64];
    int cases = 0, tested = 0;

    make_tables(csf, mask_tab);
    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        if (w < 8 || w > max_w)
            continue;
        for (int hi = 0; hi < 3; hi++) {
            int h = heights[hi], bpc = depths[(wi + hi) % 3], bytes = bpc > 8 ? 2 : 1;
            ptrdiff_t stride = w + checkasm_rand_int(64);
            uint8_t *ref = rbuf + bytes * (1 + checkasm_rand_int(15));
            uint8_t *dis = dbuf + bytes * (1 + checkasm_rand_int(15));
            FFVmafPsnrHvsDSPContext c, a;
            float ec, ea;

            checkasm_init_tier(0);
            ff_vmaf_psnr_hvs_dsp_init(&c, bpc);
            checkasm_init_tier(t);
            ff_vmaf_psnr_hvs_dsp_init(&a, bpc);
            checkasm_init_tier(0);
            if (!memcmp(&a, &c, sizeof(a)))
                continue;
            tested = 1;
            fill_plane(ref, (size_t)stride * h, bpc, 0);
            for (size_t i = 0; i < (size_t)stride * h; i++) {
                /* Mostly equal samples, some random ones. */
                if (bytes == 1)
                    dis[i] = (i / 7) % 5 ? ref[i] : checkasm_rand() % 256;
                else
                    ((uint16_t *)dis)[i] = (i / 7) % 5 ? ((uint16_t *)ref)[i]
                                                       : checkasm_rand() % (1u << bpc);
            }
            ec = plane_error(&c, ref, dis, stride, w, h, bpc, csf, mask_tab);
            ea = plane_error(&a, ref, dis, stride, w, h, bpc, csf, mask_tab);
            if (memcmp(&ec, &ea, sizeof(ec)))
                checkasm_fail("psnr_hvs", tier, "plane (driver)",
                              "bpc %d %dx%d: %a, C %a", bpc, w, h, ea, ec);
            cases++;
        }
    }
    if (tested)
        checkasm_report("psnr_hvs", tier, "plane (driver)", cases);
    free(rbuf);
    free(dbuf);
}

/* ------------------------------------------------------------------ */

static void bench(void)
{
    int32_t *p = checkasm_malloc(2 * G * sizeof(int32_t)), *d = checkasm_malloc(2 * G * sizeof(int32_t));
    uint8_t *ref = checkasm_malloc((size_t)1920 * 1080 * 2), *dis = checkasm_malloc((size_t)1920 * 1080 * 2);
    float csf[64], mask_tab[64], m[2][L];
    volatile float sink = 0.0f;
    double ns[4][7];

    make_tables(csf, mask_tab);
    fill_group(p, 0, 255);
    fill_group(p + G, 0, 255);
    for (size_t i = 0; i < (size_t)1920 * 1080 * 2; i++) {
        ref[i] = checkasm_rand() & 255;
        dis[i] = (ref[i] + checkasm_rand() % 9 - 4) & 255;
    }
    for (size_t i = 0; i < (size_t)1920 * 1080; i++) {
        ((uint16_t *)ref)[i] &= 1023;
        ((uint16_t *)dis)[i] &= 1023;
    }
    for (int t = 0; t < checkasm_nb_tiers; t++) {
        FFVmafPsnrHvsDSPContext c, c10;
        checkasm_init_tier(t);
        ff_vmaf_psnr_hvs_dsp_init(&c, 8);
        ff_vmaf_psnr_hvs_dsp_init(&c10, 10);
        c.fdct8x8(d, p);
        c.fdct8x8(d + G, p + G);
        CHECKASM_TIME(ns[t][0], c.fdct8x8(d, p));
        CHECKASM_TIME(ns[t][1], c.block_mask(m[0], p, d, mask_tab));
        c.block_mask(m[1], p + G, d + G, mask_tab);
        CHECKASM_TIME(ns[t][2], sink += c.block_error(0.0f, d, d + G, m[0], m[1], 0xff, csf, mask_tab));
        CHECKASM_TIME(ns[t][3], sink += plane_error(&c10, ref, dis, 1920, 1920, 1080, 10, csf, mask_tab));
        CHECKASM_TIME(ns[t][4], c.load(p, ref, 1920, 8, 8));
        CHECKASM_TIME(ns[t][5], c10.load(p, ref, 3840, 8, 10));
        CHECKASM_TIME(ns[t][6], sink += c.diff(p, p + G));
    }
    for (int t = 1; t < checkasm_nb_tiers; t++) {
        const char *tier = checkasm_tiers[t]->name;
        checkasm_bench_report("psnr_hvs", "fdct8x8", "8 blocks", tier, ns[t][0], ns[0][0]);
        checkasm_bench_report("psnr_hvs", "block_mask", "8 blocks", tier, ns[t][1], ns[0][1]);
        checkasm_bench_report("psnr_hvs", "block_error", "8 blocks", tier, ns[t][2], ns[0][2]);
        checkasm_bench_report("psnr_hvs", "load_8", "8 blocks", tier, ns[t][4], ns[0][4]);
        checkasm_bench_report("psnr_hvs", "load_16", "8 blocks", tier, ns[t][5], ns[0][5]);
        checkasm_bench_report("psnr_hvs", "diff", "8 blocks", tier, ns[t][6], ns[0][6]);
        checkasm_bench_report("psnr_hvs", "plane (driver)", "10-bit 1080p", tier, ns[t][3], ns[0][3]);
    }
    checkasm_init_tier(-1);
    free(p);
    free(d);
    free(ref);
    free(dis);
}

void checkasm_check_psnr_hvs(void)
{
    for (int t = 1; t < checkasm_nb_tiers; t++) {
        check_load(t);
        check_kernels(t);
        check_plane(t);
    }
    if (checkasm_bench)
        bench();
}
