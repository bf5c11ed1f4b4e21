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
 * The integer motion kernels (motion_dsp.h: the vertical blur of the
 * difference, the horizontal blur with its absolute sum, and the whole
 * plane through the driver) and PSNR's sums of squared differences
 * (psnr_dsp.h), each SIMD version against the C one.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/features/motion_dsp.h"
#include "libavfilter/vmaf/features/psnr_dsp.h"

#include "checkasm.h"

#define MAX_W     1920
#define BIG_W     140000        /* past every 32-bit accumulation chunk */
#define GUARD     32            /* int32_t elements checked around outputs */
#define NB_MODES  7

/* Value of sample i of a buffer for a fill mode: random, 0, max,
 * alternating 0/max, or the opposite alternation. */
static unsigned sample(int mode, size_t i, unsigned max)
{
    switch (mode) {
    case 0:  return checkasm_rand() & max;
    case 1:  return 0;
    case 2:  return max;
    case 3:  return i & 1 ? max : 0;
    default: return i & 1 ? 0 : max;
    }
}

static void fill(uint8_t *buf, size_t n, int bpc, int mode)
{
    unsigned max = (1u << bpc) - 1;
    if (bpc == 8) {
        for (size_t i = 0; i < n; i++)
            buf[i] = sample(mode, i, max);
    } else {
        uint16_t *b = (uint16_t *)buf;
        for (size_t i = 0; i < n; i++)
            b[i] = sample(mode, i, max);
    }
}

/* (prev, ref) or (a, b) fill modes: random, equal extremes, the largest
 * differences of either sign, alternations against a constant and against
 * each other. */
static const int modes[NB_MODES][2] = {
    { 0, 0 }, { 1, 1 }, { 2, 2 }, { 2, 1 }, { 1, 2 }, { 3, 4 }, { 3, 1 },
};

/* A random start offset: 1..31 bytes for 8-bit, 2..30 for 16-bit. */
/* ------------------------------------------------------------------ */

static const int blur_depths[] = { 8, 9, 10, 12, 14, 15, 16 };
#define NB_BLUR_DEPTHS (int)(sizeof(blur_depths) / sizeof(blur_depths[0]))

static void check_blur_v(int t, int hbd)
{
    const char *tier = checkasm_tiers[t]->name;
    const char *func = hbd ? "blur_v_16" : "blur_v_8";
    int bytes = hbd ? 2 : 1, cases = 0, tested = 0;
    ptrdiff_t max_stride = (MAX_W + 64) * bytes;
    uint8_t *pbuf = checkasm_malloc(7 * max_stride + 64), *cbuf = checkasm_malloc(7 * max_stride + 64);
    int32_t *yc = checkasm_malloc((MAX_W + 2 * GUARD + 8) * sizeof(*yc));
    int32_t *ya = checkasm_malloc((MAX_W + 2 * GUARD + 8) * sizeof(*ya));

    for (int di = 0; di < NB_BLUR_DEPTHS; di++) {
        int bpc = blur_depths[di];
        FFVmafMotionDSPContext c, a;

        if ((bpc > 8) != hbd)
            continue;
        checkasm_init_tier(0);
        ff_vmaf_motion_dsp_init(&c, bpc);
        checkasm_init_tier(t);
        ff_vmaf_motion_dsp_init(&a, bpc);
        if (!checkasm_tier_differs(t, (const void *)c.blur_v, (const void *)a.blur_v))
            continue;
        tested = 1;

        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                ptrdiff_t ps = w * bytes + checkasm_rand_int(64) * bytes;
                ptrdiff_t cs = w * bytes + checkasm_rand_int(64) * bytes;
                uint8_t *p0 = pbuf + checkasm_misalign(bytes), *c0 = cbuf + checkasm_misalign(bytes);
                const uint8_t *pr[5], *cr[5];
                int yo = GUARD + checkasm_rand_int(8);

                fill(p0, (size_t)7 * ps / bytes, bpc, modes[m][0]);
                fill(c0, (size_t)7 * cs / bytes, bpc, modes[m][1]);
                /* rows as the mirror gives them, repeats included */
                for (int k = 0; k < 5; k++) {
                    int r = checkasm_rand_int(7);
                    pr[k] = p0 + r * ps;
                    cr[k] = c0 + r * cs;
                }
                for (int i = 0; i < MAX_W + 2 * GUARD + 8; i++)
                    yc[i] = ya[i] = (int32_t)0x5a5a5a5a + i;
                c.blur_v(yc + yo, pr, cr, w, bpc > 8 ? bpc : 8);
                a.blur_v(ya + yo, pr, cr, w, bpc > 8 ? bpc : 8);
                if (memcmp(yc, ya, (MAX_W + 2 * GUARD + 8) * sizeof(*yc))) {
                    int x = 0;
                    while (yc[x] == ya[x])
                        x++;
                    checkasm_fail("motion", tier, func,
                                  "bpc %d w %d mode %d: y[%d] = %d, C %d",
                                  bpc, w, m, x - yo, ya[x], yc[x]);
                }
                cases++;
            }
        }
    }
    if (tested)
        checkasm_report("motion", tier, func, cases);
    free(pbuf);
    free(cbuf);
    free(yc);
    free(ya);
}

static void fill_y(int32_t *y, int n, int mode)
{
    for (int i = 0; i < n; i++) {
        switch (mode) {
        case 0:  y[i] = (int32_t)(checkasm_rand() % 131071) - 65535; break;
        case 1:  y[i] = 0; break;
        case 2:  y[i] = 65535; break;
        case 3:  y[i] = -65535; break;
        case 4:  y[i] = i & 1 ? 65535 : -65535; break;
        case 5:  y[i] = (i >> 1) & 1 ? 65535 : -65535; break;
        /* small values */
        case 6:  y[i] = (int32_t)(checkasm_rand() % 7) - 3; break;
        /* -2^15, 0 or 2^15: the odd outer tap makes half the sums land
         * exactly halfway between two outputs, where the rounding decides */
        default: y[i] = ((int32_t)(checkasm_rand() % 3) - 1) * 32768; break;
        }
    }
}

static void check_sad_h(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    FFVmafMotionDSPContext c, a;
    int32_t *buf = checkasm_malloc((BIG_W + 16) * sizeof(*buf));
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_motion_dsp_init(&c, 8);
    checkasm_init_tier(t);
    ff_vmaf_motion_dsp_init(&a, 8);
    if (!checkasm_tier_differs(t, (const void *)c.sad_h, (const void *)a.sad_h))
        goto end;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        for (int m = 0; m < 8; m++) {
            int32_t *y = buf + 2 + checkasm_rand_int(8);
            uint64_t rc, ra;
            fill_y(y - 2, w + 4, m);
            rc = c.sad_h(y, w);
            ra = a.sad_h(y, w);
            if (rc != ra)
                checkasm_fail("motion", tier, "sad_h", "w %d mode %d: %llu, C %llu",
                              w, m, (unsigned long long)ra, (unsigned long long)rc);
            cases++;
        }
    }
    /* A row long enough to widen the 32-bit sums more than once. */
    for (int m = 2; m < 5; m++) {
        uint64_t rc, ra;
        fill_y(buf, BIG_W + 4, m);
        rc = c.sad_h(buf + 2, BIG_W);
        ra = a.sad_h(buf + 2, BIG_W);
        if (rc != ra)
            checkasm_fail("motion", tier, "sad_h", "w %d mode %d: %llu, C %llu",
                          BIG_W, m, (unsigned long long)ra, (unsigned long long)rc);
        cases++;
    }
    checkasm_report("motion", tier, "sad_h", cases);
end:
    free(buf);
}

/* The whole plane: ff_vmaf_motion_sad() through the tier's kernels
 * against the C entry points. */
static void check_sad_plane(int t, int hbd)
{
    static const int heights[] = { 3, 4, 5, 6, 9 };
    const char *tier = checkasm_tiers[t]->name;
    const char *func = hbd ? "sad_plane_16" : "sad_plane_8";
    int bytes = hbd ? 2 : 1, cases = 0, tested = 0;
    size_t max_size = (size_t)(MAX_W + 64) * bytes * 9 + 64;
    uint8_t *pbuf = checkasm_malloc(max_size), *cbuf = checkasm_malloc(max_size);
    int32_t *tmp = checkasm_malloc(ff_vmaf_motion_sad_tmp_elems(MAX_W) * sizeof(*tmp));

    for (int di = 0; di < NB_BLUR_DEPTHS; di++) {
        int bpc = blur_depths[di];
        FFVmafMotionDSPContext a;

        if ((bpc > 8) != hbd)
            continue;
        checkasm_init_tier(t);
        ff_vmaf_motion_dsp_init(&a, bpc);
        checkasm_init_tier(0);
        tested = 1;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            if (w < FF_VMAF_MOTION_MIN_SIZE)
                continue;
            for (int hi = 0; hi < 5; hi++) {
                int h = heights[hi], m = (wi + hi) % NB_MODES;
                ptrdiff_t ps = w * bytes + checkasm_rand_int(64) * bytes;
                ptrdiff_t cs = w * bytes + checkasm_rand_int(64) * bytes;
                uint8_t *p0 = pbuf + checkasm_misalign(bytes), *c0 = cbuf + checkasm_misalign(bytes);
                uint64_t rc, ra;

                fill(p0, (size_t)h * ps / bytes, bpc, modes[m][0]);
                fill(c0, (size_t)h * cs / bytes, bpc, modes[m][1]);
                rc = hbd ? ff_vmaf_motion_sad_16(p0, ps, c0, cs, w, h, bpc, tmp)
                         : ff_vmaf_motion_sad_8(p0, ps, c0, cs, w, h, tmp);
                ra = ff_vmaf_motion_sad(&a, p0, ps, c0, cs, w, h, bpc, tmp);
                if (rc != ra)
                    checkasm_fail("motion", tier, func, "bpc %d %dx%d mode %d: %llu, C %llu",
                                  bpc, w, h, m, (unsigned long long)ra, (unsigned long long)rc);
                cases++;
            }
        }
    }
    if (tested)
        checkasm_report("motion", tier, func, cases);
    free(pbuf);
    free(cbuf);
    free(tmp);
}

/* ------------------------------------------------------------------ */

static const int sse_depths[] = { 8, 10, 12, 15, 16 };
#define NB_SSE_DEPTHS (int)(sizeof(sse_depths) / sizeof(sse_depths[0]))

static void check_sse(int t, int hbd)
{
    static const int heights[] = { 1, 2, 5 };
    const char *tier = checkasm_tiers[t]->name;
    const char *func = hbd ? "sse_plane_16" : "sse_plane_8";
    int bytes = hbd ? 2 : 1, cases = 0, tested = 0;
    size_t max_size = (size_t)(BIG_W + 64) * bytes * 5 + 64;
    uint8_t *abuf = checkasm_malloc(max_size), *bbuf = checkasm_malloc(max_size);

    for (int di = 0; di < NB_SSE_DEPTHS; di++) {
        int bpc = sse_depths[di];
        FFVmafPSNRDSPContext c, a;

        if ((bpc > 8) != hbd)
            continue;
        checkasm_init_tier(0);
        ff_vmaf_psnr_dsp_init(&c, bpc);
        checkasm_init_tier(t);
        ff_vmaf_psnr_dsp_init(&a, bpc);
        if (!checkasm_tier_differs(t, (const void *)c.sse_plane, (const void *)a.sse_plane))
            continue;
        tested = 1;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            for (int hi = 0; hi < 3; hi++) {
                for (int m = 0; m < NB_MODES; m++) {
                    int h = heights[hi];
                    ptrdiff_t as = w * bytes + checkasm_rand_int(64) * bytes;
                    ptrdiff_t bs = w * bytes + checkasm_rand_int(64) * bytes;
                    uint8_t *a0 = abuf + checkasm_misalign(bytes), *b0 = bbuf + checkasm_misalign(bytes);
                    uint64_t rc, ra;

                    fill(a0, (size_t)h * as / bytes, bpc, modes[m][0]);
                    fill(b0, (size_t)h * bs / bytes, bpc, modes[m][1]);
                    rc = c.sse_plane(a0, as, b0, bs, w, h);
                    ra = a.sse_plane(a0, as, b0, bs, w, h);
                    if (rc != ra)
                        checkasm_fail("psnr", tier, func, "bpc %d %dx%d mode %d: %llu, C %llu",
                                      bpc, w, h, m, (unsigned long long)ra, (unsigned long long)rc);
                    cases++;
                }
            }
        }
        /* Rows long enough to widen the 32-bit sums more than once. */
        for (int m = 3; m < 5; m++) {
            ptrdiff_t s = (ptrdiff_t)BIG_W * bytes + 32;
            uint64_t rc, ra;
            fill(abuf + bytes, (size_t)5 * s / bytes, bpc, m == 3 ? 2 : 1);
            fill(bbuf + bytes, (size_t)5 * s / bytes, bpc, m == 3 ? 1 : 2);
            rc = c.sse_plane(abuf + bytes, s, bbuf + bytes, s, BIG_W, 5);
            ra = a.sse_plane(abuf + bytes, s, bbuf + bytes, s, BIG_W, 5);
            if (rc != ra)
                checkasm_fail("psnr", tier, func, "bpc %d %dx5: %llu, C %llu",
                              bpc, BIG_W, (unsigned long long)ra, (unsigned long long)rc);
            cases++;
        }
    }
    if (tested)
        checkasm_report("psnr", tier, func, cases);
    free(abuf);
    free(bbuf);
}

/* ------------------------------------------------------------------ */

#define BW 1920
#define BH 1080

static void bench(void)
{
    size_t plane = (size_t)BW * BH * 2;
    uint8_t *p = checkasm_malloc(plane + 64), *q = checkasm_malloc(plane + 64);
    int32_t *tmp = checkasm_malloc(ff_vmaf_motion_sad_tmp_elems(BW) * sizeof(*tmp));
    static const int depths[] = { 8, 10, 16 };
    volatile uint64_t sink = 0;

    for (int di = 0; di < 3; di++) {
        int bpc = depths[di], bytes = bpc > 8 ? 2 : 1;
        ptrdiff_t s = (ptrdiff_t)BW * bytes;
        const uint8_t *pr[5], *cr[5];
        char what[32];
        FFVmafMotionDSPContext mc[3];
        FFVmafPSNRDSPContext pc[3];
        double ns[3][4];

        fill(p, (size_t)BW * BH, bpc, 0);
        fill(q, (size_t)BW * BH, bpc, 0);
        for (int k = 0; k < 5; k++) {
            pr[k] = p + k * s;
            cr[k] = q + k * s;
        }
        fill_y(tmp, BW + 4, 0);
        for (int t = 0; t < checkasm_nb_tiers; t++) {
            checkasm_init_tier(t);
            ff_vmaf_motion_dsp_init(&mc[t], bpc);
            ff_vmaf_psnr_dsp_init(&pc[t], bpc);
            CHECKASM_TIME(ns[t][0], mc[t].blur_v(tmp + 2, pr, cr, BW, bpc > 8 ? bpc : 8));
            CHECKASM_TIME(ns[t][1], sink += mc[t].sad_h(tmp + 2, BW));
            CHECKASM_TIME(ns[t][2], sink += ff_vmaf_motion_sad(&mc[t], p, s, q, s, BW, BH, bpc, tmp));
            CHECKASM_TIME(ns[t][3], sink += pc[t].sse_plane(p, s, q, s, BW, BH));
        }
        for (int t = 1; t < checkasm_nb_tiers; t++) {
            snprintf(what, sizeof(what), "%d-bit 1920 row", bpc);
            checkasm_bench_report("motion", bpc > 8 ? "blur_v_16" : "blur_v_8", what,
                                  checkasm_tiers[t]->name, ns[t][0], ns[0][0]);
            if (di == 0)
                checkasm_bench_report("motion", "sad_h", "1920 row",
                                      checkasm_tiers[t]->name, ns[t][1], ns[0][1]);
            snprintf(what, sizeof(what), "%d-bit 1080p", bpc);
            checkasm_bench_report("motion", "sad_plane (driver)", what,
                                  checkasm_tiers[t]->name, ns[t][2], ns[0][2]);
            checkasm_bench_report("psnr", bpc > 8 ? "sse_plane_16" : "sse_plane_8", what,
                                  checkasm_tiers[t]->name, ns[t][3], ns[0][3]);
        }
    }
    checkasm_init_tier(-1);
    free(p);
    free(q);
    free(tmp);
}

void checkasm_check_motion(void)
{
    for (int t = 1; t < checkasm_nb_tiers; t++) {
        check_blur_v(t, 0);
        check_blur_v(t, 1);
        check_sad_h(t);
        check_sad_plane(t, 0);
        check_sad_plane(t, 1);
        check_sse(t, 0);
        check_sse(t, 1);
    }
    checkasm_init_tier(-1);
    if (checkasm_bench)
        bench();
}
