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
 * The float family's kernels (float_dsp.h): luma to float, the vertical,
 * statistics and horizontal filters, the DWT row, and the two drivers
 * (conv, dwt2) that call through them, each SIMD version against the C
 * one, compared bit for bit (memcmp, so a sign of zero or a NaN pattern
 * counts too), with guard zones around every output.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/common.h"

#include "libavfilter/vmaf/float_dsp.h"

#include "checkasm.h"

#define MAX_W    1920
#define GUARD    32             /* floats checked on each side of outputs */
#define MAX_H    72
#define NB_MODES 9

/* A float sample for a fill mode: random pixel-like values with fractions,
 * 0, the largest and smallest luma after the -128 offset, alternations,
 * signed zeros among random values, and wide random values. */
static float fsample(int mode, size_t i)
{
    switch (mode) {
    case 0:  return (float)((int)(checkasm_rand() % 65536) - 32768) / 256.0f;
    case 1:  return 0.0f;
    case 2:  return 127.99609375f;
    case 3:  return -128.0f;
    case 4:  return i & 1 ? 127.99609375f : -128.0f;
    case 5:  return i & 1 ? 0.0f : 127.0f;
    case 6:  return checkasm_rand() & 1 ? -0.0f : (checkasm_rand() & 2 ? 0.0f : 1e-3f);
    case 7:  return (float)((int)checkasm_rand()) / 65536.0f;
    default: return (float)(checkasm_rand() & 0xffffff) / 16777216.0f - 0.5f;
    }
}

static void ffill(float *buf, size_t n, int mode)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = fsample(mode, i);
}

/* A pattern the kernels never write, for the guard zones. */
static void poison(float *buf, size_t n)
{
    memset(buf, 0x5a, n * sizeof(*buf));
}

/* Floats of misalignment: 1..7 (4..28 bytes). */
static int misalign(void)
{
    return 1 + checkasm_rand_int(7);
}

static size_t first_diff(const float *a, const float *b, size_t n)
{
    size_t x = 0;
    while (x < n && !memcmp(a + x, b + x, sizeof(*a)))
        x++;
    return x;
}

/* Tap sets: the Gaussians of float_vif's scales at a few kernel scales
 * (3 to 65 taps), motion's 5-tap blur, and random taps. */
#define NB_TAPSETS 12
typedef struct TapSet {
    int n;
    float g[FF_VMAF_FLOAT_MAX_TAPS];
} TapSet;

static TapSet tapsets[NB_TAPSETS];

static void init_tapsets(void)
{
    static const double ks[] = { 1.0, 360.0 / 97, 0.5 };
    int nb = 0;

    for (int i = 0; i < 3; i++)
        for (int q = 0; q < 4 && nb < NB_TAPSETS - 3; q += i ? 1 : 2) {
            TapSet *t = &tapsets[nb++];
            t->n = ff_vmaf_float_filter_size(q, ks[i]);
            ff_vmaf_float_gaussian(t->g, t->n, t->n / 5.0f);
        }
    {
        static const float blur5[] = { 0.054488685f, 0.244201342f, 0.402619947f,
                                       0.244201342f, 0.054488685f };
        TapSet *t = &tapsets[nb++];
        t->n = 5;
        memcpy(t->g, blur5, sizeof(blur5));
    }
    while (nb < NB_TAPSETS) {
        TapSet *t = &tapsets[nb++];
        t->n = 1 + 2 * checkasm_rand_int(10) + (nb & 1);
        for (int k = 0; k < t->n; k++)
            t->g[k] = fsample(8, k);
    }
}

/* A tap set usable on an axis of size sz (the kernels need sz > n / 2). */
static const TapSet *pick_taps(int sz, int step)
{
    for (int tries = 0; tries < 64; tries++) {
        const TapSet *t = &tapsets[checkasm_rand_int(NB_TAPSETS)];
        if (sz > t->n / 2 && (step == 1 || sz / 2 > t->n / 2 || sz / 2 == 0))
            return t;
    }
    return &tapsets[NB_TAPSETS - 1]; /* never: 3-tap sets exist */
}

/* ------------------------------------------------------------------ */

static void check_from_luma(int t)
{
    static const int depths[] = { 8, 9, 10, 12, 16 };
    const char *tier = checkasm_tiers[t]->name;
    FFVmafFloatDSPContext c, a;
    const int H = 3;
    size_t ls_max = (MAX_W + 64) * 2, out = (size_t)H * (MAX_W + 16) + 2 * GUARD;
    uint8_t *src = checkasm_malloc(H * ls_max + 64);
    float *dc = checkasm_malloc(out * sizeof(float)), *da = checkasm_malloc(out * sizeof(float));
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&a);
    if (!checkasm_tier_differs(t, (const void *)c.from_luma, (const void *)a.from_luma))
        goto end;

    for (int di = 0; di < 5; di++) {
        int bpc = depths[di], bytes = bpc > 8 ? 2 : 1;
        unsigned max = (1u << bpc) - 1;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            for (int m = 0; m < 5; m++) {
                ptrdiff_t ls = (ptrdiff_t)w * bytes + checkasm_rand_int(64) * bytes;
                ptrdiff_t ds = w + checkasm_rand_int(16);
                uint8_t *s = src + (bytes == 1 ? 1 + checkasm_rand_int(31)
                                               : 2 * (1 + checkasm_rand_int(15)));
                float offset = m & 1 ? -128.0f : 0.0f;
                int o = GUARD + misalign();
                size_t ns = (size_t)H * ls / bytes;

                for (size_t i = 0; i < ns; i++) {
                    unsigned v = m == 0 ? checkasm_rand() & max : m == 1 ? 0 :
                                 m == 2 ? max : m == 3 ? (i & 1 ? max : 0) :
                                 checkasm_rand() & 1 ? max : 0;
                    if (bytes == 1)
                        s[i] = v;
                    else
                        ((uint16_t *)s)[i] = v;
                }
                poison(dc, out);
                poison(da, out);
                c.from_luma(dc + o, ds, s, ls, w, H, bpc, offset);
                a.from_luma(da + o, ds, s, ls, w, H, bpc, offset);
                if (memcmp(dc, da, out * sizeof(float))) {
                    size_t x = first_diff(dc, da, out);
                    checkasm_fail("float", tier, "from_luma",
                                  "bpc %d w %d mode %d: dst[%d] = %a, C %a",
                                  bpc, w, m, (int)x - o, da[x], dc[x]);
                }
                cases++;
            }
        }
    }
    checkasm_report("float", tier, "from_luma", cases);
end:
    free(src);
    free(dc);
    free(da);
}

/* Planes of up to MAX_H rows of MAX_W + 64 floats, and output rows. */
typedef struct Bufs {
    float *x, *y;
    float *oc[5], *oa[5];
    size_t plane, row;
} Bufs;

static void bufs_alloc(Bufs *b)
{
    b->plane = (size_t)MAX_H * (MAX_W + 64) + 16;
    b->row   = MAX_W + 2 * GUARD + 2 * FF_VMAF_FLOAT_MAX_TAPS + 16;
    b->x = checkasm_malloc(b->plane * sizeof(float));
    b->y = checkasm_malloc(b->plane * sizeof(float));
    for (int k = 0; k < 5; k++) {
        b->oc[k] = checkasm_malloc(b->row * sizeof(float));
        b->oa[k] = checkasm_malloc(b->row * sizeof(float));
    }
}

static void bufs_free(Bufs *b)
{
    free(b->x);
    free(b->y);
    for (int k = 0; k < 5; k++) {
        free(b->oc[k]);
        free(b->oa[k]);
    }
}

/* vfilter (stats = 0) or vfilter_stats (stats = 1). */
static void check_vfilter(int t, Bufs *b, int stats)
{
    const char *tier = checkasm_tiers[t]->name;
    FFVmafFloatDSPContext c, a;
    int cases = 0, cases_s = 0, test_v, test_s;

    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&a);
    test_v = !stats && checkasm_tier_differs(t, (const void *)c.vfilter, (const void *)a.vfilter);
    test_s = stats && checkasm_tier_differs(t, (const void *)c.vfilter_stats,
                                   (const void *)a.vfilter_stats);
    if (!test_v && !test_s)
        return;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        for (int m = 0; m < NB_MODES; m++) {
            const TapSet *ts = pick_taps(MAX_H, 1);
            int n = ts->n, h = n / 2 + 1 + checkasm_rand_int(MAX_H - n / 2);
            ptrdiff_t stride = w + checkasm_rand_int(64);
            int i = checkasm_rand_int(4) == 0 ? 0 : checkasm_rand_int(4) == 0 ? h - 1
                                              : checkasm_rand_int(h);
            float *x = b->x + misalign(), *y = b->y + misalign();
            int o = GUARD + misalign();
            float *dc[5], *da[5];

            if ((size_t)h * stride + 8 > b->plane)
                h = (int)((b->plane - 8) / stride);
            if (i >= h)
                i = h - 1;
            ffill(x, (size_t)h * stride, m);
            /* y differs from x except in the constant modes */
            ffill(y, (size_t)h * stride, m == 0 || m >= 6 ? m : (m + 2) % 6);

            if (test_v) {
                poison(b->oc[0], b->row);
                poison(b->oa[0], b->row);
                c.vfilter(b->oc[0] + o, x, stride, w, h, i, ts->g, n);
                a.vfilter(b->oa[0] + o, x, stride, w, h, i, ts->g, n);
                if (memcmp(b->oc[0], b->oa[0], b->row * sizeof(float))) {
                    size_t d = first_diff(b->oc[0], b->oa[0], b->row);
                    checkasm_fail("float", tier, "vfilter",
                                  "w %d h %d i %d n %d mode %d: dst[%d] = %a, C %a",
                                  w, h, i, n, m, (int)d - o, b->oa[0][d], b->oc[0][d]);
                }
                cases++;
            }
            if (test_s) {
                for (int k = 0; k < 5; k++) {
                    poison(b->oc[k], b->row);
                    poison(b->oa[k], b->row);
                    dc[k] = b->oc[k] + o;
                    da[k] = b->oa[k] + o;
                }
                c.vfilter_stats(dc, x, y, stride, w, h, i, ts->g, n);
                a.vfilter_stats(da, x, y, stride, w, h, i, ts->g, n);
                for (int k = 0; k < 5; k++) {
                    if (memcmp(b->oc[k], b->oa[k], b->row * sizeof(float))) {
                        size_t d = first_diff(b->oc[k], b->oa[k], b->row);
                        checkasm_fail("float", tier, "vfilter_stats",
                                      "w %d h %d i %d n %d mode %d: out %d [%d] = %a, C %a",
                                      w, h, i, n, m, k, (int)d - o,
                                      b->oa[k][d], b->oc[k][d]);
                        break;
                    }
                }
                cases_s++;
            }
        }
    }
    if (test_v)
        checkasm_report("float", tier, "vfilter", cases);
    if (test_s)
        checkasm_report("float", tier, "vfilter_stats", cases_s);
}

static void check_hfilter(int t, Bufs *b)
{
    const char *tier = checkasm_tiers[t]->name;
    FFVmafFloatDSPContext c, a;
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&a);
    if (!checkasm_tier_differs(t, (const void *)c.hfilter, (const void *)a.hfilter))
        return;

    for (int step = 1; step <= 2; step++)
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                const TapSet *ts;
                int r, o = GUARD + misalign(), ro;
                float *rc = b->oc[1], *ra = b->oa[1];

                if (w < 2)
                    continue;           /* no tap set leaves w > n / 2 with n >= 3 */
                ts = pick_taps(w, step);
                r = ts->n / 2;
                ro = GUARD + FF_VMAF_FLOAT_MAX_TAPS / 2 + misalign();
                /* the row and its border zone, with guards */
                poison(rc, b->row);
                ffill(rc + ro - r, w + 2 * r, m);
                memcpy(ra, rc, b->row * sizeof(float));
                poison(b->oc[0], b->row);
                poison(b->oa[0], b->row);
                c.hfilter(b->oc[0] + o, rc + ro, w, ts->g, ts->n, step, w / step);
                a.hfilter(b->oa[0] + o, ra + ro, w, ts->g, ts->n, step, w / step);
                if (memcmp(b->oc[0], b->oa[0], b->row * sizeof(float))) {
                    size_t d = first_diff(b->oc[0], b->oa[0], b->row);
                    checkasm_fail("float", tier, "hfilter",
                                  "step %d w %d n %d mode %d: dst[%d] = %a, C %a",
                                  step, w, ts->n, m, (int)d - o, b->oa[0][d], b->oc[0][d]);
                } else if (memcmp(rc, ra, b->row * sizeof(float))) {
                    checkasm_fail("float", tier, "hfilter",
                                  "step %d w %d n %d mode %d: the row's border differs",
                                  step, w, ts->n, m);
                }
                cases++;
            }
        }
    checkasm_report("float", tier, "hfilter", cases);
}

static void check_dwt2_row(int t, Bufs *b)
{
    const char *tier = checkasm_tiers[t]->name;
    FFVmafFloatDSPContext c, a;
    float *tmp = checkasm_malloc(2 * (MAX_W + 8) * sizeof(float));
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&a);
    if (!checkasm_tier_differs(t, (const void *)c.dwt2_row, (const void *)a.dwt2_row))
        goto end;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        for (int m = 0; m < NB_MODES; m++) {
            ptrdiff_t stride = w + checkasm_rand_int(64);
            float *x = b->x + misalign();
            const float *rows[FF_VMAF_DWT_TAPS];
            float *dc[4], *da[4];
            int o = GUARD + misalign();

            if (w < 2)
                continue;
            ffill(x, 6 * (size_t)stride, m);
            /* rows as the border gives them, repeats included */
            for (int k = 0; k < FF_VMAF_DWT_TAPS; k++)
                rows[k] = x + checkasm_rand_int(6) * stride;
            for (int k = 0; k < 4; k++) {
                poison(b->oc[k], b->row);
                poison(b->oa[k], b->row);
                dc[k] = b->oc[k] + o;
                da[k] = b->oa[k] + o;
            }
            c.dwt2_row(dc[0], dc[1], dc[2], dc[3], rows, w, tmp);
            a.dwt2_row(da[0], da[1], da[2], da[3], rows, w, tmp);
            for (int k = 0; k < 4; k++) {
                if (memcmp(b->oc[k], b->oa[k], b->row * sizeof(float))) {
                    size_t d = first_diff(b->oc[k], b->oa[k], b->row);
                    checkasm_fail("float", tier, "dwt2_row",
                                  "w %d mode %d: band %d [%d] = %a, C %a",
                                  w, m, k, (int)d - o, b->oa[k][d], b->oc[k][d]);
                    break;
                }
            }
            cases++;
        }
    }
    checkasm_report("float", tier, "dwt2_row", cases);
end:
    free(tmp);
}

/* A variance-like term: zero, below and around the 1e-10 floor, small,
 * large, slightly negative (rounding), or random of either sign. */
static float var_sample(int mode)
{
    switch (mode == 0 ? checkasm_rand_int(8) : mode) {
    case 1:  return 0.0f;
    case 2:  return 5e-11f;
    case 3:  return 1e-10f;
    case 4:  return (float)(checkasm_rand() % 1000) / 100.0f;
    case 5:  return (float)(checkasm_rand() % 100000);
    case 6:  return -(float)(checkasm_rand() % 1000) / 1e6f;
    default: return (float)((int)(checkasm_rand() % 20001) - 10000) / 16.0f;
    }
}

static void check_vif_terms(int t, Bufs *b)
{
    static const double nsq[] = { 2.0, 0.5, 100.0, 0.0 };
    static const float egl[] = { 100.0f, 1.0f, 1.5f };
    const char *tier = checkasm_tiers[t]->name;
    FFVmafFloatDSPContext c, a;
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&a);
    if (!checkasm_tier_differs(t, (const void *)c.vif_terms, (const void *)a.vif_terms))
        return;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        for (int m = 0; m < 8; m++) {
            const float *st[5];
            float *in[5];
            int o = GUARD + misalign();
            double sn = nsq[checkasm_rand_int(4)];
            float eg = egl[checkasm_rand_int(3)];

            /* the five statistics laid out in x and y, misaligned */
            for (int k = 0; k < 5; k++)
                in[k] = (k < 3 ? b->x : b->y) + (k % 3) * (MAX_W + 16) + misalign();
            for (int j = 0; j < w; j++) {
                float m1 = m == 1 ? 0.0f : fsample(0, j), m2 = m == 1 ? 0.0f : fsample(0, j);
                float v1 = var_sample(m == 1 ? 1 : m), v2 = var_sample(m == 1 ? 1 : m);
                float cv = m == 7 ? -var_sample(0) : var_sample(m ? m : 0) *
                           (checkasm_rand() & 1 ? 1.0f : -1.0f);
                in[0][j] = m1;
                in[1][j] = m2;
                in[2][j] = m1 * m1 + v1;
                in[3][j] = m2 * m2 + v2;
                in[4][j] = m1 * m2 + cv;
            }
            for (int k = 0; k < 5; k++)
                st[k] = in[k];
            for (int k = 0; k < 2; k++) {
                poison(b->oc[k], b->row);
                poison(b->oa[k], b->row);
            }
            c.vif_terms(b->oc[0] + o, b->oc[1] + o, st, w, sn, eg);
            a.vif_terms(b->oa[0] + o, b->oa[1] + o, st, w, sn, eg);
            for (int k = 0; k < 2; k++)
                if (memcmp(b->oc[k], b->oa[k], b->row * sizeof(float))) {
                    size_t d = first_diff(b->oc[k], b->oa[k], b->row);
                    checkasm_fail("float", tier, "vif_terms",
                                  "w %d mode %d nsq %g egl %g: %s[%d] = %a, C %a",
                                  w, m, sn, eg, k ? "den" : "num", (int)d - o,
                                  b->oa[k][d], b->oc[k][d]);
                    break;
                }
            cases++;
        }
    }
    checkasm_report("float", tier, "vif_terms", cases);
}

/* A detail-band sample: mostly small of either sign, some zeros, some large. */
static float band_sample(int mode)
{
    switch (mode) {
    case 1:  return 0.0f;
    case 2:  return checkasm_rand() & 1 ? -0.0f : 0.0f;
    case 3:  return (float)((int)(checkasm_rand() % 4001) - 2000);
    default: return (float)((int)(checkasm_rand() % 20001) - 10000) / 256.0f;
    }
}

/* Rows of MAX_W floats with GUARD floats of poison on each side. */
#define ROW_SPAN (MAX_W + 2 * GUARD + 8)

static float *row_at(float *buf, int k, int off)
{
    return buf + (size_t)k * ROW_SPAN + off;
}

static void check_adm_decouple(int t)
{
    static const double egls[] = { 100.0, 1.0, 1.2 };
    const char *tier = checkasm_tiers[t]->name;
    FFVmafFloatDSPContext c, a;
    float *in = checkasm_malloc(6 * ROW_SPAN * sizeof(float));
    float *bc = checkasm_malloc(12 * ROW_SPAN * sizeof(float));
    float *ba = checkasm_malloc(12 * ROW_SPAN * sizeof(float));
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&a);
    if (!checkasm_tier_differs(t, (const void *)c.adm_decouple, (const void *)a.adm_decouple))
        goto end;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        for (int m = 0; m < 8; m++) {
            const float *o[3], *tt[3];
            float *oc[12], *oa[12];
            float rf[2] = { (float)(checkasm_rand() % 1000) / 997.0f,
                            (float)(checkasm_rand() % 1000) / 1009.0f };
            double egl = egls[checkasm_rand_int(3)];
            int j0 = checkasm_rand_int(3) ? 0 : checkasm_rand_int(w);
            int j1 = checkasm_rand_int(3) ? w : j0 + checkasm_rand_int(w - j0 + 1);
            int off = GUARD + misalign();

            for (int k = 0; k < 3; k++) {
                float *ok = row_at(in, k, misalign()), *tk = row_at(in, 3 + k, misalign());
                for (int j = 0; j < w; j++) {
                    float ov = band_sample(m < 4 ? m : 0), tv;
                    /* dis as a scaled ref (contrast change, angle kept),
                     * a scaled one with noise, a negated one, itself, or
                     * independent */
                    switch (m) {
                    case 4:  tv = ov * (float)(checkasm_rand() % 300) / 100.0f; break;
                    case 5:  tv = ov * 1.5f + band_sample(0) / 64.0f; break;
                    case 6:  tv = -ov; break;
                    case 7:  tv = ov; break;
                    default: tv = band_sample(m); break;
                    }
                    ok[j] = ov;
                    tk[j] = tv;
                }
                o[k] = ok;
                tt[k] = tk;
            }
            poison(bc, 12 * ROW_SPAN);
            poison(ba, 12 * ROW_SPAN);
            for (int k = 0; k < 12; k++) {
                oc[k] = row_at(bc, k, off);
                oa[k] = row_at(ba, k, off);
            }
            c.adm_decouple(oc, oc + 3, oc + 6, oc + 9, o, tt, rf, egl, j0, j1);
            a.adm_decouple(oa, oa + 3, oa + 6, oa + 9, o, tt, rf, egl, j0, j1);
            if (memcmp(bc, ba, 12 * ROW_SPAN * sizeof(float))) {
                size_t d = first_diff(bc, ba, 12 * ROW_SPAN);
                checkasm_fail("float", tier, "adm_decouple",
                              "w %d [%d, %d) mode %d egl %g: out %d [%d] = %a, C %a",
                              w, j0, j1, m, egl, (int)(d / ROW_SPAN),
                              (int)(d % ROW_SPAN) - off, ba[d], bc[d]);
            }
            cases++;
        }
    }
    checkasm_report("float", tier, "adm_decouple", cases);
end:
    free(in);
    free(bc);
    free(ba);
}

static void check_adm_cm(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    FFVmafFloatDSPContext c, a;
    float *in = checkasm_malloc(15 * ROW_SPAN * sizeof(float));
    float *bc = checkasm_malloc(3 * ROW_SPAN * sizeof(float));
    float *ba = checkasm_malloc(3 * ROW_SPAN * sizeof(float));
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&a);
    if (!checkasm_tier_differs(t, (const void *)c.adm_cm, (const void *)a.adm_cm))
        goto end;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        if (w < 2)
            continue;
        for (int m = 0; m < 10; m++) {
            const float *sig[3], *mdst[3], *mflt[3][3];
            float *oc[3], *oa[3];
            int bypass = m == 9, bm = m < 4 ? m : 0;
            /* the inner region as float_adm takes it, or the whole row */
            int left = m & 1 ? 0 : (int)(w * 0.1 - 0.5), right = w - left;
            int off = GUARD + misalign();

            /* 15 rows: sig, mdst, and the masker's 3 x 3 rows, whose
             * values are 0.0333 |dst| >= 0 */
            for (int k = 0; k < 15; k++) {
                float *r = row_at(in, k, misalign());
                for (int j = 0; j < w; j++) {
                    float v = band_sample(bm);
                    r[j] = k < 6 ? v : (float)(0.0333333351 * fabsf(v));
                }
                if (k < 3)
                    sig[k] = r;
                else if (k < 6)
                    mdst[k - 3] = r;
                else
                    mflt[(k - 6) / 3][(k - 6) % 3] = r;
            }
            poison(bc, 3 * ROW_SPAN);
            poison(ba, 3 * ROW_SPAN);
            for (int k = 0; k < 3; k++) {
                oc[k] = row_at(bc, k, off);
                oa[k] = row_at(ba, k, off);
            }
            c.adm_cm(oc, sig, mdst, mflt, left, right, w, bypass);
            a.adm_cm(oa, sig, mdst, mflt, left, right, w, bypass);
            if (memcmp(bc, ba, 3 * ROW_SPAN * sizeof(float))) {
                size_t d = first_diff(bc, ba, 3 * ROW_SPAN);
                checkasm_fail("float", tier, "adm_cm",
                              "w %d [%d, %d) mode %d: out %d [%d] = %a, C %a",
                              w, left, right, m, (int)(d / ROW_SPAN),
                              (int)(d % ROW_SPAN) - off, ba[d], bc[d]);
            }
            cases++;
        }
    }
    checkasm_report("float", tier, "adm_cm", cases);
end:
    free(in);
    free(bc);
    free(ba);
}

static void check_filter2d(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    const size_t plane = 12 * (size_t)(MAX_W + 64) + 2 * GUARD;
    FFVmafFloatDSPContext c, a;
    float *src = checkasm_malloc(plane * sizeof(float));
    float *dc = checkasm_malloc(plane * sizeof(float)), *da = checkasm_malloc(plane * sizeof(float));
    float *tmp = checkasm_malloc((2 * MAX_W + FF_VMAF_FLOAT_MAX_TAPS) * sizeof(float));
    float kern[7 * 7];
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&a);
    if (!checkasm_tier_differs(t, (const void *)c.filter2d, (const void *)a.filter2d))
        goto end;

    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        for (int m = 0; m < NB_MODES; m++) {
            /* ANSNR's 3x3 and 5x5 (as float_ansnr builds them), or 7x7 random */
            int n = 3 + 2 * checkasm_rand_int(3), h;
            ptrdiff_t ss = w + checkasm_rand_int(32), ds = w + checkasm_rand_int(32);
            float *s = src + misalign();
            int off = GUARD + misalign();

            if (w <= n / 2)
                n = 3;
            if (w <= n / 2)
                continue;
            h = n / 2 + 1 + checkasm_rand_int(10 - n / 2);
            for (int q = 0; q < n * n; q++)
                kern[q] = n == 7 ? fsample(8, q)
                                 : (float)((1 + checkasm_rand_int(40)) / (n == 3 ? 16.0 : 571.0));
            ffill(s, (size_t)h * ss, m);
            poison(dc, plane);
            poison(da, plane);
            c.filter2d(dc + off, ds, s, ss, w, h, kern, n, tmp);
            a.filter2d(da + off, ds, s, ss, w, h, kern, n, tmp);
            if (memcmp(dc, da, plane * sizeof(float))) {
                size_t d = first_diff(dc, da, plane);
                checkasm_fail("float", tier, "filter2d",
                              "w %d h %d n %d mode %d: dst[%d] = %a, C %a",
                              w, h, n, m, (int)d - off, da[d], dc[d]);
            }
            cases++;
        }
    }
    checkasm_report("float", tier, "filter2d", cases);
end:
    free(src);
    free(dc);
    free(da);
    free(tmp);
}

/* The drivers through each tier's pointers: whole planes, both decimations. */
static void check_drivers(int t)
{
    static const int sizes[][2] = { { 2, 2 }, { 3, 5 }, { 17, 9 }, { 64, 33 },
                                    { 97, 18 }, { 333, 21 }, { 576, 12 } };
    const char *tier = checkasm_tiers[t]->name;
    const size_t plane = 576 * 33 + 16;
    FFVmafFloatDSPContext c, a;
    float *src = checkasm_malloc(plane * sizeof(float));
    float *oc[4], *oa[4];
    float *tmp = checkasm_malloc((2 * 576 + FF_VMAF_FLOAT_MAX_TAPS) * sizeof(float));
    int cases_c = 0, cases_d = 0;

    for (int k = 0; k < 4; k++) {
        oc[k] = checkasm_malloc(plane * sizeof(float));
        oa[k] = checkasm_malloc(plane * sizeof(float));
    }
    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&a);
    if (!memcmp(&c, &a, sizeof(c)))
        goto end;

    for (int si = 0; si < 7; si++) {
        int w = sizes[si][0], h = sizes[si][1];
        for (int m = 0; m < NB_MODES; m++) {
            ffill(src, plane, m);
            for (int step = 1; step <= 2; step++) {
                const TapSet *ts = pick_taps(FFMIN(w, h), step);
                if (FFMIN(w, h) <= ts->n / 2)
                    continue;
                poison(oc[0], plane);
                poison(oa[0], plane);
                ff_vmaf_float_conv(&c, oc[0], w, src, w, w, h, ts->g, ts->n, step, tmp);
                ff_vmaf_float_conv(&a, oa[0], w, src, w, w, h, ts->g, ts->n, step, tmp);
                if (memcmp(oc[0], oa[0], plane * sizeof(float)))
                    checkasm_fail("float", tier, "conv (driver)",
                                  "%dx%d n %d step %d mode %d", w, h, ts->n, step, m);
                cases_c++;
            }
        }
    }
    checkasm_report("float", tier, "conv (driver)", cases_c);
    for (int si = 0; si < 7; si++) {
        int w = sizes[si][0], h = sizes[si][1];
        for (int m = 0; m < NB_MODES; m++) {
            ffill(src, plane, m);
            for (int k = 0; k < 4; k++) {
                poison(oc[k], plane);
                poison(oa[k], plane);
            }
            ff_vmaf_float_dwt2(&c, oc[0], oc[1], oc[2], oc[3], (w + 1) / 2,
                               src, w, w, h, tmp);
            ff_vmaf_float_dwt2(&a, oa[0], oa[1], oa[2], oa[3], (w + 1) / 2,
                               src, w, w, h, tmp);
            for (int k = 0; k < 4; k++)
                if (memcmp(oc[k], oa[k], plane * sizeof(float))) {
                    checkasm_fail("float", tier, "dwt2 (driver)",
                                  "%dx%d mode %d band %d", w, h, m, k);
                    break;
                }
            cases_d++;
        }
    }
    checkasm_report("float", tier, "dwt2 (driver)", cases_d);
end:
    free(src);
    free(tmp);
    for (int k = 0; k < 4; k++) {
        free(oc[k]);
        free(oa[k]);
    }
}

/* ------------------------------------------------------------------ */

static void bench(void)
{
    enum { BW = 1920, BH = 1080, NB = 12 };
    const char *names[NB] = {
        "from_luma", "from_luma", "vfilter", "vfilter_stats",
        "hfilter", "hfilter", "dwt2_row", "conv (driver)", "vif_terms",
        "adm_decouple", "adm_cm", "filter2d",
    };
    const char *what[NB] = {
        "8-bit 1080p", "10-bit 1080p", "1920 row, 17 taps", "1920 row, 17 taps",
        "1920 row, 17 taps", "960 of 1920, 9 taps", "1920 row", "1080p, 5 taps",
        "1920 row", "960 row", "960 row", "1080p, 5x5",
    };
    static const float blur5[] = { 0.054488685f, 0.244201342f, 0.402619947f,
                                   0.244201342f, 0.054488685f };
    float g17[FF_VMAF_FLOAT_MAX_TAPS], g9[FF_VMAF_FLOAT_MAX_TAPS];
    size_t plane = (size_t)BW * BH;
    uint8_t *luma = checkasm_malloc(plane * 2);
    float *x = checkasm_malloc(plane * sizeof(float)), *y = checkasm_malloc(plane * sizeof(float));
    float *dst = checkasm_malloc(plane * sizeof(float));
    float *out[5], *rowbuf = checkasm_malloc((BW + FF_VMAF_FLOAT_MAX_TAPS) * sizeof(float));
    float *tmp = checkasm_malloc((2 * BW + FF_VMAF_FLOAT_MAX_TAPS) * sizeof(float));
    const float *rows[4];
    double ns[3][NB];

    ff_vmaf_float_gaussian(g17, 17, 17 / 5.0f);
    ff_vmaf_float_gaussian(g9, 9, 9 / 5.0f);
    checkasm_fill8(luma, plane * 2);
    ffill(x, plane, 0);
    ffill(y, plane, 0);
    for (int k = 0; k < 5; k++)
        out[k] = checkasm_malloc(BW * sizeof(float));
    for (int k = 0; k < 4; k++)
        rows[k] = x + k * BW;
    /* a distorted copy, for statistics like a real frame's */
    ffill(y, plane, 8);
    for (size_t i = 0; i < plane; i++)
        y[i] = x[i] + 4.0f * y[i];
    for (int t = 0; t < checkasm_nb_tiers; t++) {
        FFVmafFloatDSPContext c;
        checkasm_init_tier(t);
        ff_vmaf_float_dsp_init(&c);
        CHECKASM_TIME(ns[t][0], c.from_luma(dst, BW, luma, BW, BW, BH, 8, -128.0f));
        CHECKASM_TIME(ns[t][1], c.from_luma(dst, BW, luma, 2 * BW, BW, BH, 10, -128.0f));
        CHECKASM_TIME(ns[t][2], c.vfilter(dst, x, BW, BW, 64, 20, g17, 17));
        CHECKASM_TIME(ns[t][3], c.vfilter_stats(out, x, y, BW, BW, 64, 20, g17, 17));
        memcpy(rowbuf + 32, x, BW * sizeof(float));
        CHECKASM_TIME(ns[t][4], c.hfilter(dst, rowbuf + 32, BW, g17, 17, 1, BW));
        CHECKASM_TIME(ns[t][5], c.hfilter(dst, rowbuf + 32, BW, g9, 9, 2, BW / 2));
        CHECKASM_TIME(ns[t][6], c.dwt2_row(out[0], out[1], out[2], out[3], rows, BW, tmp));
        CHECKASM_TIME(ns[t][7], ff_vmaf_float_conv(&c, dst, BW, x, BW, BW, BH,
                                                   blur5, 5, 1, tmp));
        c.vfilter_stats(out, x, y, BW, BW, 64, 20, g17, 17);
        CHECKASM_TIME(ns[t][8], c.vif_terms(dst, dst + BW, (const float *const *)out,
                                            BW, 2.0, 100.0f));
        {
            /* a 960-wide band row: inputs in x and y, outputs in dst */
            const float *o[3] = { x, x + BW, x + 2 * BW }, *tt[3] = { y, y + BW, y + 2 * BW };
            float *d[12];
            const float rf[2] = { 0.5f, 0.25f };
            const float *mf[3][3];
            for (int k = 0; k < 12; k++)
                d[k] = dst + k * BW;
            for (int k = 0; k < 9; k++)
                mf[k / 3][k % 3] = d[3 + k];
            CHECKASM_TIME(ns[t][9], c.adm_decouple(d, d + 3, d + 6, d + 9, o, tt, rf,
                                                   100.0, 0, BW / 2));
            CHECKASM_TIME(ns[t][10], c.adm_cm(out, (const float *const *)d,
                                              (const float *const *)(d + 6), mf,
                                              48, BW / 2 - 48, BW / 2, 0));
        }
        {
            float k25[25];
            for (int q = 0; q < 25; q++)
                k25[q] = (float)((1 + q % 7) / 571.0);
            CHECKASM_TIME(ns[t][11], c.filter2d(dst, BW, x, BW, BW, BH, k25, 5, tmp));
        }
    }
    for (int t = 1; t < checkasm_nb_tiers; t++)
        for (int k = 0; k < NB; k++)
            checkasm_bench_report("float", names[k], what[k], checkasm_tiers[t]->name,
                                  ns[t][k], ns[0][k]);
    checkasm_init_tier(-1);
    free(luma);
    free(x);
    free(y);
    free(dst);
    free(rowbuf);
    free(tmp);
    for (int k = 0; k < 5; k++)
        free(out[k]);
}

void checkasm_check_float(void)
{
    Bufs b;

    init_tapsets();
    bufs_alloc(&b);
    for (int t = 1; t < checkasm_nb_tiers; t++) {
        check_from_luma(t);
        check_vfilter(t, &b, 0);
        check_vfilter(t, &b, 1);
        check_hfilter(t, &b);
        check_dwt2_row(t, &b);
        check_vif_terms(t, &b);
        check_adm_decouple(t);
        check_adm_cm(t);
        check_filter2d(t);
        check_drivers(t);
    }
    bufs_free(&b);
    if (checkasm_bench)
        bench();
}
