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
 * The float SSIM / MS-SSIM kernels (ssim_dsp.h): the loader, the box and
 * MS-SSIM decimations, the horizontal and vertical window passes, and the SSIM
 * core through the driver, each SIMD version against the C one, bit for
 * bit (floats and doubles compared with memcmp).
 *
 * The float planes hold what the loader gives: samples of depth bpc
 * divided by 2^(bpc - 8), so 0..255 in steps of 1 for 8-bit, of 1/4 for
 * 10-bit, and so on.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/ssim_dsp.h"

#include "checkasm.h"

#define MAX_W    1920
#define GUARD    64             /* floats checked past outputs */
#define SENTINEL 0x7fa5a5a5u    /* a NaN bit pattern no kernel writes */
#define NB_MODES 10

static void fill_sentinel(float *buf, size_t n)
{
    uint32_t v = SENTINEL;
    for (size_t i = 0; i < n; i++)
        memcpy(buf + i, &v, sizeof(v));
}

/*
 * Value of sample i of a plane in 8-bit units for a fill mode: random,
 * 0, max, alternating 0/max, the opposite alternation, a slow random walk
 * (nearly flat windows), a constant (flat windows: variances that round
 * to tiny or negative values).
 */
typedef struct Filler {
    int mode, bpc;
    unsigned walk, konst;
} Filler;

static float sample(Filler *f, size_t i)
{
    const unsigned max = (1u << f->bpc) - 1;
    const float div = (float)(1 << (f->bpc - 8));
    unsigned v;

    switch (f->mode) {
    case 0:  v = checkasm_rand() & max; break;
    case 1:  v = 0; break;
    case 2:  v = max; break;
    case 3:  v = i & 1 ? max : 0; break;
    case 4:  v = i & 1 ? 0 : max; break;
    case 5: {
        int step = checkasm_rand_int(3) - 1;
        if (!(f->walk == 0 && step < 0) && !(f->walk == max && step > 0))
            f->walk += step;
        v = f->walk;
        break;
    }
    default: v = f->konst; break;
    }
    return v / div;
}

static void fill_plane(float *buf, ptrdiff_t stride, int w, int h, int bpc, int mode)
{
    Filler f = { mode, bpc };
    f.walk  = checkasm_rand() & ((1u << bpc) - 1);
    f.konst = checkasm_rand() & ((1u << bpc) - 1);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            buf[y * stride + x] = sample(&f, (size_t)y * stride + x);
}

/* (ref, dis) fill modes. */
static const int modes[NB_MODES][2] = {
    { 0, 0 }, { 1, 1 }, { 2, 2 }, { 2, 1 }, { 1, 2 },
    { 3, 4 }, { 3, 1 }, { 5, 5 }, { 6, 6 }, { 6, 0 },
};

static const int depths[] = { 8, 10, 12, 16 };
#define NB_DEPTHS (int)(sizeof(depths) / sizeof(depths[0]))

/* ------------------------------------------------------------------ */

static void check_load(int t)
{
    static const int bpcs[] = { 8, 9, 10, 12, 14, 16 };
    const char *tier = checkasm_tiers[t]->name;
    const size_t src_size = 3 * (MAX_W + 64) * 2 + 64;
    const size_t dst_size = 3 * (MAX_W + 16) + GUARD;
    uint8_t *src = checkasm_malloc(src_size);
    float *dc = checkasm_malloc(dst_size * sizeof(float)), *da = checkasm_malloc(dst_size * sizeof(float));
    int cases = 0, tested = 0;

    for (int bi = 0; bi < (int)(sizeof(bpcs) / sizeof(bpcs[0])); bi++) {
        const int bpc = bpcs[bi], bytes = bpc > 8 ? 2 : 1;
        const unsigned max = (1u << bpc) - 1;
        FFVmafSsimDSPContext c, a;

        checkasm_init_tier(0);
        ff_vmaf_ssim_dsp_init(&c, bpc);
        checkasm_init_tier(t);
        ff_vmaf_ssim_dsp_init(&a, bpc);
        if (!checkasm_tier_differs(t, (const void *)c.load, (const void *)a.load))
            continue;
        tested = 1;

        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int w = checkasm_widths[wi];
            for (int m = 0; m < 5; m++) {
                const int h = 1 + checkasm_rand_int(3);
                const ptrdiff_t ss = (w + checkasm_rand_int(64)) * bytes;
                const ptrdiff_t ds = w + checkasm_rand_int(16);
                uint8_t *s = src + (bytes == 1 ? 1 + checkasm_rand_int(31)
                                               : 2 * (1 + checkasm_rand_int(15)));

                for (int i = 0; i < h * ss / bytes; i++) {
                    unsigned v = m == 0 ? checkasm_rand() & max : m == 1 ? 0 : m == 2 ? max :
                                 (i & 1) == (m == 3) ? max : 0;
                    if (bytes == 1)
                        s[i] = v;
                    else
                        ((uint16_t *)s)[i] = v;
                }
                fill_sentinel(dc, dst_size);
                fill_sentinel(da, dst_size);
                c.load(dc, ds, s, ss, w, h, bpc);
                a.load(da, ds, s, ss, w, h, bpc);
                if (memcmp(dc, da, dst_size * sizeof(float))) {
                    size_t i = 0;
                    while (!memcmp(dc + i, da + i, sizeof(float)))
                        i++;
                    checkasm_fail("ssim", tier, "load", "bpc %d w %d h %d: d[%zu] = %g, C %g",
                                  bpc, w, h, i, da[i], dc[i]);
                }
                cases++;
            }
        }
    }
    if (tested)
        checkasm_report("ssim", tier, "load", cases);
    free(src);
    free(dc);
    free(da);
}

static void check_decimate(int t)
{
    static const int heights[] = { 1, 2, 5, 10, 19 };
    const char *tier = checkasm_tiers[t]->name;
    const int max_h = 19;
    const size_t src_size = (size_t)max_h * (MAX_W + 16) + 16;
    const size_t dst_size = (size_t)(max_h / 2 + 1) * (MAX_W / 2 + 1 + 16) + GUARD;
    float *src = checkasm_malloc(src_size * sizeof(float));
    float *dc = checkasm_malloc(dst_size * sizeof(float)), *da = checkasm_malloc(dst_size * sizeof(float));
    FFVmafSsimDSPContext c, a;
    int widths[128], nb_widths = 0, cases = 0;

    /* checkasm's widths, then some whose vector part (outputs 2 to
     * (w - 5) / 2) ends 1 to 7 outputs into a strip of 128 */
    for (int wi = 0; checkasm_widths[wi]; wi++)
        widths[nb_widths++] = checkasm_widths[wi];
    for (int r = 1; r < 8; r++)
        widths[nb_widths++] = 2 * (128 + r + 1) + 5 + checkasm_rand_int(2);
    widths[nb_widths++] = 2 * (256 + 4 + 1) + 5;
    widths[nb_widths] = 0;

    checkasm_init_tier(0);
    ff_vmaf_ssim_dsp_init(&c, 8);
    checkasm_init_tier(t);
    ff_vmaf_ssim_dsp_init(&a, 8);
    if (!checkasm_tier_differs(t, (const void *)c.ms_ssim_decimate, (const void *)a.ms_ssim_decimate))
        goto end;

    for (int wi = 0; widths[wi]; wi++) {
        const int w = widths[wi];
        for (int hi = 0; hi < (int)(sizeof(heights) / sizeof(heights[0])); hi++) {
            const int h = heights[hi];
            const int ow = ff_vmaf_ssim_decimated_size(w, 2);
            const int m = checkasm_rand_int(NB_MODES);
            const int bpc = depths[checkasm_rand_int(NB_DEPTHS)];
            const ptrdiff_t ss = w + checkasm_rand_int(16);
            const ptrdiff_t ds = ow + checkasm_rand_int(16);
            float *s = src + 1 + checkasm_rand_int(7);

            fill_plane(s, ss, w, h, bpc, modes[m][checkasm_rand_int(2)]);
            fill_sentinel(dc, dst_size);
            fill_sentinel(da, dst_size);
            c.ms_ssim_decimate(dc, ds, s, ss, w, h);
            a.ms_ssim_decimate(da, ds, s, ss, w, h);
            if (memcmp(dc, da, dst_size * sizeof(float))) {
                size_t i = 0;
                while (!memcmp(dc + i, da + i, sizeof(float)))
                    i++;
                checkasm_fail("ssim", tier, "ms_ssim_decimate",
                              "w %d h %d mode %d: d[%zu] (x %d y %d) = %.9g, C %.9g",
                              w, h, m, i, (int)(i % ds), (int)(i / ds), da[i], dc[i]);
            }
            cases++;
        }
    }
    checkasm_report("ssim", tier, "ms_ssim_decimate", cases);
end:
    free(src);
    free(dc);
    free(da);
}

static void check_box(int t)
{
    static const int heights[] = { 1, 2, 3, 4, 5, 8, 13 };
    const char *tier = checkasm_tiers[t]->name;
    const int max_h = 13;
    const size_t src_size = (size_t)max_h * (MAX_W + 16) + 16;
    const size_t dst_size = (size_t)max_h * (MAX_W + 1 + 16) + GUARD;
    float *src = checkasm_malloc(src_size * sizeof(float));
    float *dc = checkasm_malloc(dst_size * sizeof(float)), *da = checkasm_malloc(dst_size * sizeof(float));
    FFVmafSsimDSPContext c, a;
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_ssim_dsp_init(&c, 8);
    checkasm_init_tier(t);
    ff_vmaf_ssim_dsp_init(&a, 8);
    if (!checkasm_tier_differs(t, (const void *)c.box_decimate, (const void *)a.box_decimate))
        goto end;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        const int w = checkasm_widths[wi];
        for (int hi = 0; hi < (int)(sizeof(heights) / sizeof(heights[0])); hi++) {
            /* the vector factors (2: 480p, 4: 1080p, 8: 4K) most, the
             * others (C through the pointer) once */
            static const int factors[] = { 2, 4, 8, 0, 2, 4, 8 };
            const int factor = factors[hi] ? factors[hi] : 2 + checkasm_rand_int(9);
            const int h = heights[hi];
            const int ow = ff_vmaf_ssim_decimated_size(w, factor);
            const int m = checkasm_rand_int(NB_MODES);
            const int bpc = depths[checkasm_rand_int(NB_DEPTHS)];
            const ptrdiff_t ss = w + checkasm_rand_int(16);
            const ptrdiff_t ds = ow + checkasm_rand_int(16);
            float *s = src + 1 + checkasm_rand_int(7);

            fill_plane(s, ss, w, h, bpc, modes[m][checkasm_rand_int(2)]);
            fill_sentinel(dc, dst_size);
            fill_sentinel(da, dst_size);
            c.box_decimate(dc, ds, s, ss, w, h, factor);
            a.box_decimate(da, ds, s, ss, w, h, factor);
            if (memcmp(dc, da, dst_size * sizeof(float))) {
                size_t i = 0;
                while (!memcmp(dc + i, da + i, sizeof(float)))
                    i++;
                checkasm_fail("ssim", tier, "box_decimate",
                              "factor %d w %d h %d mode %d: d[%zu] (x %d y %d) = %.9g, C %.9g",
                              factor, w, h, m, i, (int)(i % ds), (int)(i / ds), da[i], dc[i]);
            }
            cases++;
        }
    }
    checkasm_report("ssim", tier, "box_decimate", cases);
end:
    free(src);
    free(dc);
    free(da);
}

/* Row pair y of two planes filled for mode pair m. */
static void fill_rows(float *a, float *b, int w, int h, int bpc, int m)
{
    fill_plane(a, w, w, h, bpc, modes[m][0]);
    fill_plane(b, w, w, h, bpc, modes[m][1]);
}

static void check_window_h(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    const int max_w = MAX_W + FF_VMAF_SSIM_WINDOW - 1;
    const size_t dst_size = 5 * (size_t)(ff_vmaf_ssim_map_stride(max_w) + 24) + GUARD;
    float *rows = checkasm_malloc(2 * (max_w + 8) * sizeof(float));
    float *tmp = checkasm_malloc(ff_vmaf_ssim_row_tmp_floats(max_w) * sizeof(float));
    float *dc = checkasm_malloc(dst_size * sizeof(float)), *da = checkasm_malloc(dst_size * sizeof(float));
    FFVmafSsimDSPContext c, a;
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_ssim_dsp_init(&c, 8);
    checkasm_init_tier(t);
    ff_vmaf_ssim_dsp_init(&a, 8);
    if (!checkasm_tier_differs(t, (const void *)c.window_h, (const void *)a.window_h))
        goto end;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        const int ow = checkasm_widths[wi], w = ow + FF_VMAF_SSIM_WINDOW - 1;
        const int ms = ff_vmaf_ssim_map_stride(w);
        for (int m = 0; m < NB_MODES; m++) {
            const int bpc = depths[checkasm_rand_int(NB_DEPTHS)];
            const ptrdiff_t stride = ms + checkasm_rand_int(24);
            float *ra = rows + checkasm_rand_int(8);
            float *rb = ra + w + checkasm_rand_int(8);

            fill_rows(ra, rb, w, 1, bpc, m);
            fill_sentinel(dc, dst_size);
            fill_sentinel(da, dst_size);
            c.window_h(dc, stride, ra, rb, w, tmp);
            a.window_h(da, stride, ra, rb, w, tmp);
            for (int k = 0; k < 5; k++) {
                const float *pc = dc + k * stride, *pa = da + k * stride;
                if (memcmp(pc, pa, ow * sizeof(float))) {
                    int x = 0;
                    while (!memcmp(pc + x, pa + x, sizeof(float)))
                        x++;
                    checkasm_fail("ssim", tier, "window_h", "w %d mode %d map %d: x %d = %.9g, C %.9g",
                                  w, m, k, x, pa[x], pc[x]);
                    break;
                }
                /* nothing past the map's allowed lanes */
                if (memcmp(pc + ms, pa + ms, (stride - ms) * sizeof(float))) {
                    checkasm_fail("ssim", tier, "window_h", "w %d map %d: wrote past lane %d",
                                  w, k, ms);
                    break;
                }
            }
            if (memcmp(dc + 5 * stride, da + 5 * stride,
                       (dst_size - 5 * stride) * sizeof(float)))
                checkasm_fail("ssim", tier, "window_h", "w %d: wrote past the last map", w);
            cases++;
        }
    }
    checkasm_report("ssim", tier, "window_h", cases);
end:
    free(rows);
    free(tmp);
    free(dc);
    free(da);
}

/*
 * The ring of 11 rows of maps for output width ow: from window_h (C) on
 * planes of mode pair m, or (raw) independent random maps, which give
 * negative variances and covariances of any size; the lanes past ow hold
 * random finite values.
 */
static void build_ring(float *ring, ptrdiff_t ms, int ow, int m, int raw, float *tmp)
{
    const int w = ow + FF_VMAF_SSIM_WINDOW - 1;
    const int bpc = depths[checkasm_rand_int(NB_DEPTHS)];
    const ptrdiff_t slot = 5 * ms;

    for (size_t i = 0; i < FF_VMAF_SSIM_WINDOW * slot; i++)
        ring[i] = (float)(checkasm_rand() % 65536) / 7.0f;
    if (raw) {
        for (int k = 0; k < FF_VMAF_SSIM_WINDOW; k++)
            for (int x = 0; x < ow; x++) {
                float *r = ring + k * slot + x;
                r[0]      = (float)(checkasm_rand() % 25600) / 100.0f;
                r[ms]     = (float)(checkasm_rand() % 25600) / 100.0f;
                r[2 * ms] = (float)(checkasm_rand() % 6553600) / 100.0f;
                r[3 * ms] = (float)(checkasm_rand() % 6553600) / 100.0f;
                r[4 * ms] = (float)((int)(checkasm_rand() % 6553600) - 3276800) / 100.0f;
            }
    } else {
        float *a = tmp + ff_vmaf_ssim_row_tmp_floats(w), *b = a + w;
        for (int k = 0; k < FF_VMAF_SSIM_WINDOW; k++) {
            fill_rows(a, b, w, 1, bpc, m);
            ff_vmaf_ssim_window_h_c(ring + k * slot, ms, a, b, w, tmp);
        }
    }
}

static void check_window_v(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    const int max_w = MAX_W + FF_VMAF_SSIM_WINDOW - 1;
    const ptrdiff_t max_ms = ff_vmaf_ssim_map_stride(max_w) + 24;
    float *ring = checkasm_malloc(FF_VMAF_SSIM_WINDOW * 5 * max_ms * sizeof(float));
    float *tmp = checkasm_malloc((ff_vmaf_ssim_row_tmp_floats(max_w) + 2 * max_w) * sizeof(float));
    FFVmafSsimDSPContext c, a;
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_ssim_dsp_init(&c, 8);
    checkasm_init_tier(t);
    ff_vmaf_ssim_dsp_init(&a, 8);
    if (!checkasm_tier_differs(t, (const void *)c.window_v, (const void *)a.window_v))
        goto end;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        const int ow = checkasm_widths[wi];
        for (int m = 0; m < NB_MODES + 2; m++) {
            const ptrdiff_t ms = ff_vmaf_ssim_map_stride(ow + FF_VMAF_SSIM_WINDOW - 1) +
                                 checkasm_rand_int(24);
            const float *rows[FF_VMAF_SSIM_WINDOW];
            FFVmafSsimSums sc, sa;

            build_ring(ring, ms, ow, m % NB_MODES, m >= NB_MODES, tmp);
            for (int k = 0; k < FF_VMAF_SSIM_WINDOW; k++)
                rows[k] = ring + ((k + m) % FF_VMAF_SSIM_WINDOW) * 5 * ms;
            /* sums carried over from earlier rows */
            sc.l    = m & 1 ? 0.0 : checkasm_rand() / 7.0;
            sc.c    = m & 1 ? 0.0 : checkasm_rand() / 11.0;
            sc.s    = m & 1 ? 0.0 : checkasm_rand() / 13.0;
            sc.ssim = m & 1 ? 0.0 : checkasm_rand() / 17.0;
            sa = sc;
            c.window_v(&sc, rows, ms, ow);
            a.window_v(&sa, rows, ms, ow);
            if (memcmp(&sc, &sa, sizeof(sc)))
                checkasm_fail("ssim", tier, "window_v",
                              "ow %d mode %d: l %.17g c %.17g s %.17g ssim %.17g, "
                              "C %.17g %.17g %.17g %.17g", ow, m,
                              sa.l, sa.c, sa.s, sa.ssim, sc.l, sc.c, sc.s, sc.ssim);
            cases++;
        }
    }
    checkasm_report("ssim", tier, "window_v", cases);
end:
    free(ring);
    free(tmp);
}

static void check_sums(int t)
{
    static const int heights[] = { 11, 12, 16, 23 };
    const char *tier = checkasm_tiers[t]->name;
    const int max_w = MAX_W + FF_VMAF_SSIM_WINDOW - 1, max_h = 23;
    const ptrdiff_t max_stride = max_w + 16;
    float *ref = checkasm_malloc((max_h * max_stride + 8) * sizeof(float));
    float *dis = checkasm_malloc((max_h * max_stride + 8) * sizeof(float));
    float *tmp = checkasm_malloc(ff_vmaf_ssim_tmp_floats(max_w) * sizeof(float));
    FFVmafSsimDSPContext c, a;
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_ssim_dsp_init(&c, 8);
    checkasm_init_tier(t);
    ff_vmaf_ssim_dsp_init(&a, 8);
    if (!checkasm_tier_differs(t, (const void *)c.window_h, (const void *)a.window_h) &&
        !checkasm_tier_differs(t, (const void *)c.window_v, (const void *)a.window_v))
        goto end;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        const int w = checkasm_widths[wi] + FF_VMAF_SSIM_WINDOW - 1;
        for (int m = 0; m < NB_MODES; m++) {
            const int h = heights[checkasm_rand_int(4)];
            const int bpc = depths[checkasm_rand_int(NB_DEPTHS)];
            const ptrdiff_t rs = w + checkasm_rand_int(16), ds = w + checkasm_rand_int(16);
            float *r = ref + checkasm_rand_int(8), *d = dis + checkasm_rand_int(8);
            FFVmafSsimSums sc, sa;

            fill_plane(r, rs, w, h, bpc, modes[m][0]);
            fill_plane(d, ds, w, h, bpc, modes[m][1]);
            ff_vmaf_ssim_sums_dsp(&c, &sc, r, rs, d, ds, w, h, tmp);
            ff_vmaf_ssim_sums_dsp(&a, &sa, r, rs, d, ds, w, h, tmp);
            if (memcmp(&sc, &sa, sizeof(sc)))
                checkasm_fail("ssim", tier, "sums (driver)",
                              "w %d h %d mode %d: l %.17g c %.17g s %.17g ssim %.17g, "
                              "C %.17g %.17g %.17g %.17g", w, h, m,
                              sa.l, sa.c, sa.s, sa.ssim, sc.l, sc.c, sc.s, sc.ssim);
            cases++;
        }
    }
    checkasm_report("ssim", tier, "sums (driver)", cases);
end:
    free(ref);
    free(dis);
    free(tmp);
}

/* ------------------------------------------------------------------ */

#define BW 1920
#define BH 1080

static void bench(void)
{
    const int sw = 480, sh = 270;  /* float_ssim's size at 1080p */
    uint8_t *pix = checkasm_malloc((size_t)BW * BH * 2);
    float *ref = checkasm_malloc((size_t)BW * BH * sizeof(float));
    float *dis = checkasm_malloc((size_t)BW * BH * sizeof(float));
    float *out = checkasm_malloc((size_t)BW * BH * sizeof(float));
    float *tmp = checkasm_malloc((ff_vmaf_ssim_tmp_floats(BW) + 2 * BW) * sizeof(float));
    float *ring = checkasm_malloc(FF_VMAF_SSIM_WINDOW * 5 * ff_vmaf_ssim_map_stride(BW) * sizeof(float));
    const float *rows[FF_VMAF_SSIM_WINDOW];
    const int ms = ff_vmaf_ssim_map_stride(BW);
    FFVmafSsimDSPContext ctx[3];
    double ns[3][10];
    volatile double sink = 0;

    checkasm_fill8(pix, (size_t)BW * BH * 2);
    fill_plane(ref, BW, BW, BH, 8, 0);
    for (size_t i = 0; i < (size_t)BW * BH; i++)
        dis[i] = (float)(((int)ref[i] + checkasm_rand_int(17) + 247) % 256);
    build_ring(ring, ms, BW - FF_VMAF_SSIM_WINDOW + 1, 0, 0, tmp);
    for (int k = 0; k < FF_VMAF_SSIM_WINDOW; k++)
        rows[k] = ring + k * 5 * ms;

    for (int t = 0; t < checkasm_nb_tiers; t++) {
        FFVmafSsimDSPContext *c = &ctx[t];
        FFVmafSsimSums sums = { 0 };

        checkasm_init_tier(t);
        ff_vmaf_ssim_dsp_init(c, 8);
        CHECKASM_TIME(ns[t][0], c->load(out, BW, pix, BW, BW, BH, 8));
        CHECKASM_TIME(ns[t][1], c->load(out, BW, pix, 2 * BW, BW, BH, 10));
        CHECKASM_TIME(ns[t][2], c->ms_ssim_decimate(out, BW / 2, ref, BW, BW, BH));
        CHECKASM_TIME(ns[t][3], c->box_decimate(out, sw, ref, BW, BW, BH, 4));
        CHECKASM_TIME(ns[t][8], c->box_decimate(out, BW / 2, ref, BW, BW, BH, 2));
        CHECKASM_TIME(ns[t][9], c->box_decimate(out, BW / 8, ref, BW, BW, BH, 8));
        CHECKASM_TIME(ns[t][4], c->window_h(ring, ms, ref, dis, BW, tmp));
        CHECKASM_TIME(ns[t][5], c->window_v(&sums, rows, ms, BW - FF_VMAF_SSIM_WINDOW + 1));
        CHECKASM_TIME(ns[t][6], ff_vmaf_ssim_sums_dsp(c, &sums, ref, BW, dis, BW, BW, BH, tmp));
        CHECKASM_TIME(ns[t][7], ff_vmaf_ssim_sums_dsp(c, &sums, ref, sw, dis, sw, sw, sh, tmp));
        sink += sums.ssim;
    }
    for (int t = 1; t < checkasm_nb_tiers; t++) {
        const char *tn = checkasm_tiers[t]->name;
        checkasm_bench_report("ssim", "load", "8-bit 1080p", tn, ns[t][0], ns[0][0]);
        checkasm_bench_report("ssim", "load", "10-bit 1080p", tn, ns[t][1], ns[0][1]);
        checkasm_bench_report("ssim", "ms_ssim_decimate", "1080p", tn, ns[t][2], ns[0][2]);
        checkasm_bench_report("ssim", "box_decimate", "1080p by 2", tn, ns[t][8], ns[0][8]);
        checkasm_bench_report("ssim", "box_decimate", "1080p by 4", tn, ns[t][3], ns[0][3]);
        checkasm_bench_report("ssim", "box_decimate", "1080p by 8", tn, ns[t][9], ns[0][9]);
        checkasm_bench_report("ssim", "window_h", "1920 row", tn, ns[t][4], ns[0][4]);
        checkasm_bench_report("ssim", "window_v", "1910 row", tn, ns[t][5], ns[0][5]);
        checkasm_bench_report("ssim", "sums (driver)", "1080p", tn, ns[t][6], ns[0][6]);
        checkasm_bench_report("ssim", "sums (driver)", "480x270", tn, ns[t][7], ns[0][7]);
    }
    free(pix);
    free(ref);
    free(dis);
    free(out);
    free(tmp);
    free(ring);
}

void checkasm_check_ssim(void)
{
    for (int t = 1; t < checkasm_nb_tiers; t++) {
        check_load(t);
        check_box(t);
        check_decimate(t);
        check_window_h(t);
        check_window_v(t);
        check_sums(t);
    }
    if (checkasm_bench)
        bench();
}
