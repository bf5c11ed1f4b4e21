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
 * The SpEED kernels (speed_dsp.h: rows of samples or of sample
 * differences to float, the vertical anti-alias filter, the covariance
 * sums of a chunk of pixels), each SIMD
 * version against the C one, bit for bit.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/features/speed_dsp.h"

#include "checkasm.h"

#define MAX_W    4000
#define GUARD    16             /* floats checked past the outputs */
#define NB_MODES 6

/* Sample i for a mode: random, 0, max, alternating 0/max, the other
 * alternation, random with values above the depth (16-bit only). */
static unsigned sample(int mode, size_t i, int bpc)
{
    unsigned max = (1u << bpc) - 1;
    switch (mode) {
    case 0:  return checkasm_rand() & max;
    case 1:  return 0;
    case 2:  return max;
    case 3:  return i & 1 ? max : 0;
    case 4:  return i & 1 ? 0 : max;
    default: return checkasm_rand() & (bpc > 8 ? 0xffff : 0xff);
    }
}

static void fill(uint8_t *buf, size_t n, int bpc, int mode)
{
    for (size_t i = 0; i < n; i++) {
        if (bpc == 8)
            buf[i] = sample(mode, i, bpc);
        else
            ((uint16_t *)buf)[i] = sample(mode, i, bpc);
    }
}

static const int depths[] = { 8, 9, 10, 12, 16 };
#define NB_DEPTHS (int)(sizeof(depths) / sizeof(depths[0]))

typedef void (*ToFloat)(float *dst, const uint8_t *a, int w, int bpc);
typedef void (*DiffToFloat)(float *dst, const uint8_t *a, const uint8_t *b, int w, int bpc);

static void check_to_float(int t, int diff, int hbd)
{
    static const char *const names[2][2] = {
        { "to_float_8", "to_float_16" }, { "diff_to_float_8", "diff_to_float_16" },
    };
    const char *tier = checkasm_tiers[t]->name, *func = names[diff][hbd];
    const int bytes = hbd ? 2 : 1;
    uint8_t *abuf = checkasm_malloc((MAX_W + 32) * 2), *bbuf = checkasm_malloc((MAX_W + 32) * 2);
    float *oc = checkasm_malloc((MAX_W + GUARD + 8) * sizeof(float));
    float *oa = checkasm_malloc((MAX_W + GUARD + 8) * sizeof(float));
    FFVmafSpeedDSPContext c, a;
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_speed_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_speed_dsp_init(&a);
    checkasm_init_tier(0);
    {
        const void *fc = diff ? (hbd ? (const void *)c.diff_to_float_16 : (const void *)c.diff_to_float_8)
                              : (hbd ? (const void *)c.to_float_16 : (const void *)c.to_float_8);
        const void *fa = diff ? (hbd ? (const void *)a.diff_to_float_16 : (const void *)a.diff_to_float_8)
                              : (hbd ? (const void *)a.to_float_16 : (const void *)a.to_float_8);
        if (fc == fa)
            goto end;
    }
    for (int di = 0; di < NB_DEPTHS; di++) {
        int bpc = depths[di];
        if ((bpc > 8) != hbd)
            continue;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            if (w > MAX_W)
                continue;
            for (int m = 0; m < NB_MODES; m++) {
                uint8_t *pa = abuf + checkasm_misalign(bytes), *pb = bbuf + checkasm_misalign(bytes);
                float *dc = oc + checkasm_rand_int(8), *da = oa + (dc - oc);
                fill(pa, w, bpc, m);
                fill(pb, w, bpc, m == 0 ? 0 : (m + 2) % NB_MODES);
                for (int i = 0; i < MAX_W + GUARD + 8; i++)
                    oc[i] = oa[i] = -7.0f - i;
                if (diff) {
                    DiffToFloat f0 = hbd ? c.diff_to_float_16 : c.diff_to_float_8;
                    DiffToFloat f1 = hbd ? a.diff_to_float_16 : a.diff_to_float_8;
                    f0(dc, pa, pb, w, bpc);
                    f1(da, pa, pb, w, bpc);
                } else {
                    ToFloat f0 = hbd ? c.to_float_16 : c.to_float_8;
                    ToFloat f1 = hbd ? a.to_float_16 : a.to_float_8;
                    f0(dc, pa, w, bpc);
                    f1(da, pa, w, bpc);
                }
                if (memcmp(oc, oa, (MAX_W + GUARD + 8) * sizeof(float)))
                    checkasm_fail("speed", tier, func, "bpc %d w %d mode %d", bpc, w, m);
                cases++;
            }
        }
    }
    checkasm_report("speed", tier, func, cases);
end:
    free(abuf);
    free(bbuf);
    free(oc);
    free(oa);
}

/* Taps as the feature builds them: a normalised Gaussian. */
static void make_taps(float *g, int n)
{
    float sum = 0.0f;
    for (int k = 0; k < n; k++) {
        float x = k - n / 2;
        sum += g[k] = expf(-x * x / (2.0f * (n / 5.0f) * (n / 5.0f)));
    }
    for (int k = 0; k < n; k++)
        g[k] /= sum;
}

static void fill_rows(float *r, size_t n, int mode)
{
    for (size_t i = 0; i < n; i++) {
        switch (mode) {
        case 0:  r[i] = (float)(checkasm_rand() % 65536) / 256.0f - 128.0f; break;
        case 1:  r[i] = 0.0f; break;
        case 2:  r[i] = 127.0f; break;
        case 3:  r[i] = -128.0f; break;
        case 4:  r[i] = i & 1 ? 127.0f : -128.0f; break;
        /* differences of two pictures */
        default: r[i] = (float)((int)(checkasm_rand() % 511) - 255); break;
        }
    }
}

static void check_blur_v(int t)
{
    static const int taps[] = { 1, 3, 9, 17, 33, 35, FF_VMAF_SPEED_MAX_TAPS };
    const char *tier = checkasm_tiers[t]->name;
    float *rows = checkasm_malloc((size_t)FF_VMAF_SPEED_MAX_TAPS * (MAX_W + 16) * sizeof(float));
    float *oc = checkasm_malloc((MAX_W + GUARD + 8) * sizeof(float));
    float *oa = checkasm_malloc((MAX_W + GUARD + 8) * sizeof(float));
    FFVmafSpeedDSPContext c, a;
    float g[FF_VMAF_SPEED_MAX_TAPS];
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_speed_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_speed_dsp_init(&a);
    checkasm_init_tier(0);
    if (c.blur_v == a.blur_v)
        goto end;
    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        if (w > MAX_W)
            continue;
        for (int ti = 0; ti < 7; ti++) {
            int n = taps[ti], m = (wi + ti) % 6;
            const float *in[FF_VMAF_SPEED_MAX_TAPS];
            ptrdiff_t stride = w + checkasm_rand_int(16);
            float *dc = oc + checkasm_rand_int(8), *da = oa + (dc - oc);

            make_taps(g, n);
            fill_rows(rows, (size_t)n * stride + 8, m);
            /* misaligned rows, some repeated (mirrored borders) */
            for (int k = 0; k < n; k++)
                in[k] = rows + 1 + (size_t)(k % 3 == 2 ? k - 2 : k) * stride;
            for (int i = 0; i < MAX_W + GUARD + 8; i++)
                oc[i] = oa[i] = -7.0f - i;
            c.blur_v(dc, in, g, n, w);
            a.blur_v(da, in, g, n, w);
            if (memcmp(oc, oa, (MAX_W + GUARD + 8) * sizeof(float)))
                checkasm_fail("speed", tier, "blur_v", "w %d taps %d mode %d", w, n, m);
            cases++;
        }
    }
    checkasm_report("speed", tier, "blur_v", cases);
end:
    free(rows);
    free(oc);
    free(oa);
}

static void check_cov_chunk(int t)
{
    static const int lens[] = { 1, 2, 3, 7, 31, 32, 33, 64, 100, 127, 128 };
    const char *tier = checkasm_tiers[t]->name;
    const int B2 = FF_VMAF_SPEED_B2;
    double *cen = checkasm_malloc((size_t)B2 * 200 * sizeof(double));
    double (*ac)[FF_VMAF_SPEED_B2] = checkasm_malloc(sizeof(double) * B2 * B2);
    double (*aa)[FF_VMAF_SPEED_B2] = checkasm_malloc(sizeof(double) * B2 * B2);
    FFVmafSpeedDSPContext c, a;
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_speed_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_speed_dsp_init(&a);
    checkasm_init_tier(0);
    if (c.cov_chunk == a.cov_chunk)
        goto end;
    for (int li = 0; li < 11; li++)
        for (int m = 0; m < 6; m++) {
            int len = lens[li];
            ptrdiff_t stride = m & 1 ? 128 : len + checkasm_rand_int(64);
            for (int i = 0; i < B2 * stride; i++) {
                float f;
                fill_rows(&f, 1, m);
                /* centred values: a float minus a float mean, in double */
                cen[i] = (double)f - (double)((float)(checkasm_rand() % 2000) / 7.0f);
            }
            for (int p = 0; p < B2; p++)
                for (int q = 0; q < B2; q++)
                    ac[p][q] = aa[p][q] = m < 3 ? 0.0 : (double)checkasm_rand() / 3.0;
            c.cov_chunk(ac, cen, stride, len);
            a.cov_chunk(aa, cen, stride, len);
            if (memcmp(ac, aa, sizeof(double) * B2 * B2))
                checkasm_fail("speed", tier, "cov_chunk", "len %d mode %d", len, m);
            cases++;
        }
    checkasm_report("speed", tier, "cov_chunk", cases);
end:
    free(cen);
    free(ac);
    free(aa);
}

static void bench(void)
{
    const int w = 1920, n = 17;
    uint8_t *a = checkasm_malloc(w * 2 + 64), *b = checkasm_malloc(w * 2 + 64);
    float *rows = checkasm_malloc((size_t)n * w * sizeof(float)), *out = checkasm_malloc(w * sizeof(float));
    const float *in[FF_VMAF_SPEED_MAX_TAPS];
    float g[FF_VMAF_SPEED_MAX_TAPS];
    double ns[4][6];
    double *cen = checkasm_malloc(sizeof(double) * FF_VMAF_SPEED_B2 * 128);
    double (*acc)[FF_VMAF_SPEED_B2] = checkasm_malloc(sizeof(double) * FF_VMAF_SPEED_B2 * FF_VMAF_SPEED_B2);

    fill(a, w, 10, 0);
    fill(b, w, 10, 0);
    fill_rows(rows, (size_t)n * w, 0);
    make_taps(g, n);
    for (int k = 0; k < n; k++)
        in[k] = rows + (size_t)k * w;
    for (int i = 0; i < FF_VMAF_SPEED_B2 * 128; i++)
        cen[i] = (double)(checkasm_rand() % 2000) / 7.0 - 140.0;
    memset(acc, 0, sizeof(double) * FF_VMAF_SPEED_B2 * FF_VMAF_SPEED_B2);
    for (int t = 0; t < checkasm_nb_tiers; t++) {
        FFVmafSpeedDSPContext c;
        checkasm_init_tier(t);
        ff_vmaf_speed_dsp_init(&c);
        CHECKASM_TIME(ns[t][0], c.to_float_8(out, a, w, 8));
        CHECKASM_TIME(ns[t][1], c.to_float_16(out, a, w, 10));
        CHECKASM_TIME(ns[t][2], c.diff_to_float_8(out, a, b, w, 8));
        CHECKASM_TIME(ns[t][3], c.diff_to_float_16(out, a, b, w, 10));
        CHECKASM_TIME(ns[t][4], c.blur_v(out, in, g, n, w));
        CHECKASM_TIME(ns[t][5], c.cov_chunk(acc, cen, 128, 128));
    }
    for (int t = 1; t < checkasm_nb_tiers; t++) {
        const char *tier = checkasm_tiers[t]->name;
        checkasm_bench_report("speed", "to_float_8", "1920 row", tier, ns[t][0], ns[0][0]);
        checkasm_bench_report("speed", "to_float_16", "10-bit 1920 row", tier, ns[t][1], ns[0][1]);
        checkasm_bench_report("speed", "diff_to_float_8", "1920 row", tier, ns[t][2], ns[0][2]);
        checkasm_bench_report("speed", "diff_to_float_16", "10-bit 1920 row", tier, ns[t][3], ns[0][3]);
        checkasm_bench_report("speed", "blur_v", "17 taps, 1920", tier, ns[t][4], ns[0][4]);
        checkasm_bench_report("speed", "cov_chunk", "128 pixels", tier, ns[t][5], ns[0][5]);
    }
    checkasm_init_tier(-1);
    free(a);
    free(b);
    free(rows);
    free(out);
    free(cen);
    free(acc);
}

void checkasm_check_speed(void)
{
    for (int t = 1; t < checkasm_nb_tiers; t++) {
        for (int diff = 0; diff < 2; diff++)
            for (int hbd = 0; hbd < 2; hbd++)
                check_to_float(t, diff, hbd);
        check_blur_v(t);
        check_cov_chunk(t);
    }
    if (checkasm_bench)
        bench();
}
