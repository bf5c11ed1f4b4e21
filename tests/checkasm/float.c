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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/common.h"

#include "libavfilter/vmaf/features/float_dsp.h"

#include "checkasm.h"

#define MAX_W    1920
#define GUARD    32             /* floats checked on each side of outputs */
#define MAX_H    72
#define NB_MODES 9
#define POISON   0x5a5a5a5au    /* the guard zones: a float no kernel writes */

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

/* Floats of misalignment: 1..7 (4..28 bytes). */
static int misalign(void)
{
    return 1 + checkasm_rand_int(7);
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

/* The C context and the one of the tier under test. */
typedef struct Pair {
    int t;
    const char *tier;
    FFVmafFloatDSPContext c, a;
} Pair;

static void pair_init(Pair *p, int t)
{
    p->t    = t;
    p->tier = checkasm_tiers[t]->name;
    checkasm_init_tier(0);
    ff_vmaf_float_dsp_init(&p->c);
    checkasm_init_tier(t);
    ff_vmaf_float_dsp_init(&p->a);
}

/* Whether the tier has its own fn: one that fell back to C's is not tested. */
#define OWN(p, fn) checkasm_tier_differs((p)->t, (const void *)(p)->c.fn, (const void *)(p)->a.fn)

/*
 * A function under test on one tier: its outputs, nb areas of n floats
 * with guard zones, each area on a multiple of 64 bytes so that all start
 * as aligned as the first (the outputs of a case share one misalignment),
 * poisoned before each case and compared whole after it; and the count of
 * its cases.
 */
typedef struct Test {
    const Pair *p;
    const char *func;
    CheckasmOut out;
    size_t stride;              ///< of the areas
    int cases;
} Test;

/* Set up the test of func, if the tier has its own (own): else 0. */
static int test_begin(Test *k, const Pair *p, const char *func, int own, int nb, size_t n)
{
    if (!own)
        return 0;
    k->p      = p;
    k->func   = func;
    k->stride = FFALIGN(n, 16);
    k->cases  = 0;
    checkasm_out_alloc(&k->out, nb * k->stride, POISON);
    return 1;
}

/* Before a case: poison the outputs, point c[i] and a[i] at area i, off floats in. */
static void test_start(const Test *k, int off, float **c, float **a)
{
    checkasm_out_reset(&k->out);
    for (size_t i = 0; i < k->out.n / k->stride; i++) {
        c[i] = k->out.c + i * k->stride + off;
        a[i] = k->out.a + i * k->stride + off;
    }
}

/* After a case: whether the outputs differ, the case failing with its text fmt if so. */
static int test_check(Test *k, int off, const char *fmt, ...)
{
    va_list ap;
    int ret;

    k->cases++;
    va_start(ap, fmt);
    ret = checkasm_out_vcheck(&k->out, "float", k->p->tier, k->func, k->stride, off, fmt, ap);
    va_end(ap);
    return ret;
}

static void test_end(Test *k)
{
    checkasm_report("float", k->p->tier, k->func, k->cases);
    checkasm_out_free(&k->out);
}

/* Inputs: planes of up to MAX_H rows of MAX_W + 64 floats, and scratch. */
typedef struct Bufs {
    float *x, *y, *tmp;
    size_t plane;
} Bufs;

/* An output row: MAX_W floats, guard zones, and a border of the widest filter. */
#define OUT_ROW (MAX_W + 2 * GUARD + 2 * FF_VMAF_FLOAT_MAX_TAPS + 16)

static void bufs_alloc(Bufs *b)
{
    b->plane = (size_t)MAX_H * (MAX_W + 64) + 16;
    b->x   = checkasm_malloc(b->plane * sizeof(float));
    b->y   = checkasm_malloc(b->plane * sizeof(float));
    b->tmp = checkasm_malloc((2 * MAX_W + FF_VMAF_FLOAT_MAX_TAPS + 16) * sizeof(float));
}

static void bufs_free(Bufs *b)
{
    free(b->x);
    free(b->y);
    free(b->tmp);
}

static void check_from_luma(const Pair *p, Bufs *b)
{
    static const int depths[] = { 8, 9, 10, 12, 16 };
    const int H = 3;
    const size_t out_n = (size_t)H * (MAX_W + 16) + 2 * GUARD;
    uint8_t *src = (uint8_t *)b->x;     /* H rows of up to (MAX_W + 64) 16-bit samples */
    Test test;

    if (!test_begin(&test, p, "from_luma", OWN(p, from_luma), 1, out_n))
        return;
    for (int di = 0; di < 5; di++) {
        int bpc = depths[di], bytes = bpc > 8 ? 2 : 1;
        unsigned max = (1u << bpc) - 1;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            for (int m = 0; m < 5; m++) {
                ptrdiff_t ls = (ptrdiff_t)w * bytes + checkasm_rand_int(64) * bytes;
                ptrdiff_t ds = w + checkasm_rand_int(16);
                uint8_t *s = src + checkasm_misalign(bytes);
                float offset = m & 1 ? -128.0f : 0.0f;
                int o = GUARD + misalign();
                size_t ns = (size_t)H * ls / bytes;
                float *dc, *da;

                for (size_t i = 0; i < ns; i++)
                    checkasm_put_sample(s, i, bytes,
                                        m == 0 ? checkasm_rand() & max : m == 1 ? 0 :
                                        m == 2 ? max : m == 3 ? (i & 1 ? max : 0) :
                                        checkasm_rand() & 1 ? max : 0);
                test_start(&test, o, &dc, &da);
                p->c.from_luma(dc, ds, s, ls, w, H, bpc, offset);
                p->a.from_luma(da, ds, s, ls, w, H, bpc, offset);
                test_check(&test, o, "bpc %d w %d mode %d", bpc, w, m);
            }
        }
    }
    test_end(&test);
}

/* vfilter (stats = 0) or vfilter_stats (stats = 1). */
static void check_vfilter(const Pair *p, Bufs *b, int stats)
{
    Test test;

    if (stats ? !test_begin(&test, p, "vfilter_stats", OWN(p, vfilter_stats), 5, OUT_ROW)
              : !test_begin(&test, p, "vfilter", OWN(p, vfilter), 1, OUT_ROW))
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

            test_start(&test, o, dc, da);
            if (stats) {
                p->c.vfilter_stats(dc, x, y, stride, w, h, i, ts->g, n);
                p->a.vfilter_stats(da, x, y, stride, w, h, i, ts->g, n);
            } else {
                p->c.vfilter(dc[0], x, stride, w, h, i, ts->g, n);
                p->a.vfilter(da[0], x, stride, w, h, i, ts->g, n);
            }
            test_check(&test, o, "w %d h %d i %d n %d mode %d", w, h, i, n, m);
        }
    }
    test_end(&test);
}

static void check_hfilter(const Pair *p)
{
    CheckasmOut line;           /* the input row, which the kernels may write */
    Test test;

    if (!test_begin(&test, p, "hfilter", OWN(p, hfilter), 1, OUT_ROW))
        return;
    checkasm_out_alloc(&line, OUT_ROW, POISON);
    for (int step = 1; step <= 2; step++)
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                const TapSet *ts;
                int r, o = GUARD + misalign(), ro;
                float *dc, *da;

                if (w < 2)
                    continue;           /* no tap set leaves w > n / 2 with n >= 3 */
                ts = pick_taps(w, step);
                r = ts->n / 2;
                ro = GUARD + FF_VMAF_FLOAT_MAX_TAPS / 2 + misalign();
                /* the row and its border zone, with guards: hfilter
                 * writes the border itself, so the rows are compared too */
                checkasm_out_reset(&line);
                ffill(line.c + ro - r, w + 2 * r, m);
                memcpy(line.a, line.c, line.n * sizeof(float));
                test_start(&test, o, &dc, &da);
                p->c.hfilter(dc, line.c + ro, w, ts->g, ts->n, step, w / step);
                p->a.hfilter(da, line.a + ro, w, ts->g, ts->n, step, w / step);
                if (!test_check(&test, o, "step %d w %d n %d mode %d",
                                step, w, ts->n, m))
                    checkasm_out_check(&line, "float", p->tier, "hfilter", line.n, ro,
                                       "step %d w %d n %d mode %d: the row's border",
                                       step, w, ts->n, m);
            }
        }
    test_end(&test);
    checkasm_out_free(&line);
}

static void check_dwt2_row(const Pair *p, Bufs *b)
{
    Test test;

    if (!test_begin(&test, p, "dwt2_row", OWN(p, dwt2_row), 4, OUT_ROW))
        return;
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
            test_start(&test, o, dc, da);
            p->c.dwt2_row(dc[0], dc[1], dc[2], dc[3], rows, w, b->tmp);
            p->a.dwt2_row(da[0], da[1], da[2], da[3], rows, w, b->tmp);
            test_check(&test, o, "w %d mode %d (row: band)", w, m);
        }
    }
    test_end(&test);
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

static void check_vif_terms(const Pair *p, Bufs *b)
{
    static const double nsq[] = { 2.0, 0.5, 100.0, 0.0 };
    static const float egl[] = { 100.0f, 1.0f, 1.5f };
    Test test;

    if (!test_begin(&test, p, "vif_terms", OWN(p, vif_terms), 2, OUT_ROW))
        return;
    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        for (int m = 0; m < 8; m++) {
            const float *st[5];
            float *in[5], *dc[2], *da[2];
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
            test_start(&test, o, dc, da);
            p->c.vif_terms(dc[0], dc[1], st, w, sn, eg);
            p->a.vif_terms(da[0], da[1], st, w, sn, eg);
            test_check(&test, o,
                       "w %d mode %d nsq %g egl %g (row: num, den)", w, m, sn, eg);
        }
    }
    test_end(&test);
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

static void check_adm_decouple(const Pair *p, Bufs *b)
{
    static const double egls[] = { 100.0, 1.0, 1.2 };
    float *in = b->x;                   /* 6 rows of ROW_SPAN */
    Test test;

    if (!test_begin(&test, p, "adm_decouple", OWN(p, adm_decouple), 12, ROW_SPAN))
        return;
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
            test_start(&test, off, oc, oa);
            p->c.adm_decouple(oc, oc + 3, oc + 6, oc + 9, o, tt, rf, egl, j0, j1);
            p->a.adm_decouple(oa, oa + 3, oa + 6, oa + 9, o, tt, rf, egl, j0, j1);
            test_check(&test, off,
                       "w %d [%d, %d) mode %d egl %g", w, j0, j1, m, egl);
        }
    }
    test_end(&test);
}

static void check_adm_cm(const Pair *p, Bufs *b)
{
    float *in = b->x;                   /* 15 rows of ROW_SPAN */
    Test test;

    if (!test_begin(&test, p, "adm_cm", OWN(p, adm_cm), 3, ROW_SPAN))
        return;
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
            test_start(&test, off, oc, oa);
            p->c.adm_cm(oc, sig, mdst, mflt, left, right, w, bypass);
            p->a.adm_cm(oa, sig, mdst, mflt, left, right, w, bypass);
            test_check(&test, off,
                       "w %d [%d, %d) mode %d", w, left, right, m);
        }
    }
    test_end(&test);
}

static void check_filter2d(const Pair *p, Bufs *b)
{
    const size_t plane = 12 * (size_t)(MAX_W + 64) + 2 * GUARD;
    float kern[7 * 7];
    Test test;

    if (!test_begin(&test, p, "filter2d", OWN(p, filter2d), 1, plane))
        return;
    for (int wi = 0; checkasm_widths[wi]; wi++) {
        int w = checkasm_widths[wi];
        for (int m = 0; m < NB_MODES; m++) {
            /* ANSNR's 3x3 and 5x5 (as float_ansnr builds them), or 7x7 random */
            int n = 3 + 2 * checkasm_rand_int(3), h;
            ptrdiff_t ss = w + checkasm_rand_int(32), ds = w + checkasm_rand_int(32);
            float *s = b->x + misalign();
            int off = GUARD + misalign();
            float *dc, *da;

            if (w <= n / 2)
                n = 3;
            if (w <= n / 2)
                continue;
            h = n / 2 + 1 + checkasm_rand_int(10 - n / 2);
            for (int q = 0; q < n * n; q++)
                kern[q] = n == 7 ? fsample(8, q)
                                 : (float)((1 + checkasm_rand_int(40)) / (n == 3 ? 16.0 : 571.0));
            ffill(s, (size_t)h * ss, m);
            test_start(&test, off, &dc, &da);
            p->c.filter2d(dc, ds, s, ss, w, h, kern, n, b->tmp);
            p->a.filter2d(da, ds, s, ss, w, h, kern, n, b->tmp);
            test_check(&test, off,
                       "w %d h %d n %d mode %d", w, h, n, m);
        }
    }
    test_end(&test);
}

/* The drivers through each tier's pointers: whole planes, both decimations. */
static void check_drivers(const Pair *p, Bufs *b)
{
    static const int sizes[][2] = { { 2, 2 }, { 3, 5 }, { 17, 9 }, { 64, 33 },
                                    { 97, 18 }, { 333, 21 }, { 576, 12 } };
    const size_t plane = 576 * 33 + 16;
    const int own = !!memcmp(&p->c, &p->a, sizeof(p->c));
    float *src = b->x, *oc[4], *oa[4];
    Test test;

    if (!test_begin(&test, p, "conv (driver)", own, 1, plane))
        return;
    for (int si = 0; si < 7; si++) {
        int w = sizes[si][0], h = sizes[si][1];
        for (int m = 0; m < NB_MODES; m++) {
            ffill(src, plane, m);
            for (int step = 1; step <= 2; step++) {
                const TapSet *ts = pick_taps(FFMIN(w, h), step);
                if (FFMIN(w, h) <= ts->n / 2)
                    continue;
                test_start(&test, 0, oc, oa);
                ff_vmaf_float_conv(&p->c, oc[0], w, src, w, w, h, ts->g, ts->n, step, b->tmp);
                ff_vmaf_float_conv(&p->a, oa[0], w, src, w, w, h, ts->g, ts->n, step, b->tmp);
                test_check(&test, 0, "%dx%d n %d step %d mode %d", w, h, ts->n, step, m);
            }
        }
    }
    test_end(&test);

    test_begin(&test, p, "dwt2 (driver)", own, 4, plane);
    for (int si = 0; si < 7; si++) {
        int w = sizes[si][0], h = sizes[si][1];
        for (int m = 0; m < NB_MODES; m++) {
            ffill(src, plane, m);
            test_start(&test, 0, oc, oa);
            ff_vmaf_float_dwt2(&p->c, oc[0], oc[1], oc[2], oc[3], (w + 1) / 2,
                               src, w, w, h, b->tmp);
            ff_vmaf_float_dwt2(&p->a, oa[0], oa[1], oa[2], oa[3], (w + 1) / 2,
                               src, w, w, h, b->tmp);
            test_check(&test, 0, "%dx%d mode %d (row: band)", w, h, m);
        }
    }
    test_end(&test);
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
        Pair p;

        pair_init(&p, t);
        check_from_luma(&p, &b);
        check_vfilter(&p, &b, 0);
        check_vfilter(&p, &b, 1);
        check_hfilter(&p);
        check_dwt2_row(&p, &b);
        check_vif_terms(&p, &b);
        check_adm_decouple(&p, &b);
        check_adm_cm(&p, &b);
        check_filter2d(&p, &b);
        check_drivers(&p, &b);
    }
    bufs_free(&b);
    if (checkasm_bench)
        bench();
}
