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
 * The integer ADM kernels (libavfilter/vmaf/features/adm_dsp.h): every SIMD
 * version against the C one, bit-exact, on every width of
 * checkasm_widths[], at misaligned addresses, on random data of a few
 * ranges (full range, the ranges real bands take, and data built to take
 * the rarer paths: angles within one degree, negative thresholds) and on
 * the extremes. Output buffers are compared in full, guard areas
 * included.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/features/adm_dsp.h"

#include "checkasm.h"

#define MAXW   2048
#define GUARD  64
#define BUFSZ  ((MAXW + 2 * GUARD) * 8)

static const char *const dsp_name = "adm";

/* One aligned arena per array; `at` gives a pointer at a random
 * misalignment of whole elements (1..15 elements, at least 1 byte). */
typedef struct Buf {
    _Alignas(64) uint8_t b[BUFSZ];
} Buf;

static Buf in_buf[12], out_c[8], out_s[8];
static int32_t div_lut[FF_VMAF_ADM_DIV_LUT_SIZE];

static int rand_off(int elem)
{
    int max = 32 / elem - 1;
    return 1 + checkasm_rand_int(max > 1 ? max : 1);
}

static void *at(Buf *b, int elem)
{
    return b->b + GUARD * 8 + rand_off(elem) * elem;
}

static void *same_at(Buf *ref, Buf *b, const void *p)
{
    return b->b + ((const uint8_t *)p - ref->b);
}

static void clear_outputs(void)
{
    for (int i = 0; i < 8; i++) {
        memset(out_c[i].b, 0x5a, BUFSZ);
        memset(out_s[i].b, 0x5a, BUFSZ);
    }
}

static int outputs_differ(int nb)
{
    for (int i = 0; i < nb; i++)
        if (memcmp(out_c[i].b, out_s[i].b, BUFSZ))
            return i + 1;
    return 0;
}

static int64_t rand64(void)
{
    return (int64_t)(((uint64_t)checkasm_rand() << 32) | checkasm_rand());
}

/* Signed value of `bits` bits (1..32). */
static int32_t rand_bits(int bits)
{
    return (int32_t)checkasm_rand() >> (32 - bits);
}

enum { M_RAND, M_ZERO, M_MAX, M_MIN, M_ALT, M_SMALL, NB_MODES };

static int32_t value(int mode, int i, int32_t lo, int32_t hi, int small_bits)
{
    switch (mode) {
    case M_ZERO: return 0;
    case M_MAX:  return hi;
    case M_MIN:  return lo;
    case M_ALT:  return i & 1 ? hi : lo;
    case M_SMALL: return rand_bits(small_bits);
    default: {
        uint32_t span = (uint32_t)((int64_t)hi - lo);
        uint32_t r = checkasm_rand();
        return span == UINT32_MAX ? (int32_t)r : (int32_t)(lo + (int64_t)(r % (span + 1)));
    }
    }
}

static void fill16(int16_t *p, int n, int mode, int small_bits)
{
    for (int i = 0; i < n; i++)
        p[i] = value(mode, i, INT16_MIN, INT16_MAX, small_bits);
}

static void fill32(int32_t *p, int n, int mode, int small_bits)
{
    for (int i = 0; i < n; i++)
        p[i] = value(mode, i, INT32_MIN, INT32_MAX, small_bits);
}

static void fill64(int64_t *p, int n, int mode, int small_bits)
{
    for (int i = 0; i < n; i++)
        p[i] = mode == M_RAND ? rand64() : value(mode, i, INT32_MIN, INT32_MAX, small_bits);
}

static void fill_pix(void *p, int n, int bpc, int mode)
{
    const int max = (1 << bpc) - 1;
    for (int i = 0; i < n; i++) {
        int v = mode == M_ZERO ? 0 : mode == M_MAX ? max : mode == M_ALT ? (i & 1) * max
                                                         : (int)(checkasm_rand() & max);
        if (bpc == 8)
            ((uint8_t *)p)[i] = v;
        else
            ((uint16_t *)p)[i] = v;
    }
}

/* The tiers to test: contexts, skipping the pointers equal to C's. */
static FFVmafADMDSPContext ctx[4];

static void init_contexts(void)
{
    for (int t = 0; t < checkasm_nb_tiers; t++) {
        checkasm_init_tier(t);
        ff_vmaf_adm_dsp_init(&ctx[t]);
    }
    checkasm_init_tier(-1);
}

#define FOR_TIERS(fn)                                                   \
    for (int t = 1; t < checkasm_nb_tiers; t++)                         \
        if (ctx[t].fn != ctx[0].fn)

#define FAIL(fn, ...) checkasm_fail(dsp_name, checkasm_tiers[t]->name, #fn, __VA_ARGS__)

#define BENCH(fn, what, call_c, call_s) do {                            \
        if (checkasm_bench) {                                           \
            double ns_c, ns_s;                                          \
            CHECKASM_TIME(ns_c, call_c);                                \
            CHECKASM_TIME(ns_s, call_s);                                \
            checkasm_bench_report(dsp_name, #fn, what, "c", ns_c, ns_c); \
            checkasm_bench_report(dsp_name, #fn, what,                  \
                                  checkasm_tiers[t]->name, ns_s, ns_c); \
        }                                                               \
    } while (0)

/* ---------------------------------------------------------------- DWT */

static void check_dwt_vert_s0(void)
{
    static const int depths[] = { 8, 10, 12, 16 };
    static const int modes[] = { M_RAND, M_ZERO, M_MAX, M_ALT };

    FOR_TIERS(dwt_vert_s0) {
        int cases = 0;
        for (int d = 0; d < 4; d++) {
            const int bpc = depths[d], es = bpc == 8 ? 1 : 2;
            for (int wi = 0; checkasm_widths[wi]; wi++) {
                const int w = checkasm_widths[wi];
                for (int m = 0; m < 4; m++) {
                    const void *src[4];
                    int16_t *lo, *hi;
                    for (int k = 0; k < 4; k++) {
                        void *p = at(&in_buf[k], es);
                        fill_pix(p, w, bpc, modes[m] == M_ALT && k & 1 ? M_RAND : modes[m]);
                        src[k] = p;
                    }
                    clear_outputs();
                    lo = at(&out_c[0], 2);
                    hi = at(&out_c[1], 2);
                    ctx[0].dwt_vert_s0(lo, hi, src, w, bpc);
                    ctx[t].dwt_vert_s0(same_at(&out_c[0], &out_s[0], lo),
                                       same_at(&out_c[1], &out_s[1], hi), src, w, bpc);
                    if (outputs_differ(2))
                        FAIL(dwt_vert_s0, "bpc %d w %d mode %d\n", bpc, w, modes[m]);
                    cases++;
                }
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "dwt_vert_s0", cases);
        for (int d = 0; d < 2; d++) {
            const int bpc = d ? 10 : 8;
            const void *src[4];
            int16_t *lo = at(&out_c[0], 2), *hi = at(&out_c[1], 2);
            for (int k = 0; k < 4; k++) {
                src[k] = at(&in_buf[k], bpc == 8 ? 1 : 2);
                fill_pix((void *)src[k], 1920, bpc, M_RAND);
            }
            BENCH(dwt_vert_s0, d ? "w=1920 10-bit" : "w=1920 8-bit",
                  ctx[0].dwt_vert_s0(lo, hi, src, 1920, bpc),
                  ctx[t].dwt_vert_s0(lo, hi, src, 1920, bpc));
        }
    }
}

static void check_dwt_horiz_s0(void)
{
    FOR_TIERS(dwt_horiz_s0) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int bw = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                int16_t *in = at(&in_buf[0], 2), *lo, *hi;
                fill16(in - 1, 2 * bw + 2, m, 15);
                clear_outputs();
                lo = at(&out_c[0], 2);
                hi = at(&out_c[1], 2);
                ctx[0].dwt_horiz_s0(lo, hi, in, bw);
                ctx[t].dwt_horiz_s0(same_at(&out_c[0], &out_s[0], lo),
                                    same_at(&out_c[1], &out_s[1], hi), in, bw);
                if (outputs_differ(2))
                    FAIL(dwt_horiz_s0, "bw %d mode %d\n", bw, m);
                cases++;
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "dwt_horiz_s0", cases);
        {
            int16_t *in = at(&in_buf[0], 2), *lo = at(&out_c[0], 2), *hi = at(&out_c[1], 2);
            fill16(in - 1, 1922, M_SMALL, 15);
            BENCH(dwt_horiz_s0, "bw=960", ctx[0].dwt_horiz_s0(lo, hi, in, 960),
                  ctx[t].dwt_horiz_s0(lo, hi, in, 960));
        }
    }
}

static void check_dwt_vert_s1(void)
{
    FOR_TIERS(dwt_vert_s1) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int w = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                const int16_t *src[4];
                int32_t *lo, *hi;
                for (int k = 0; k < 4; k++) {
                    int16_t *p = at(&in_buf[k], 2);
                    fill16(p, w, m == M_ALT && k & 1 ? M_RAND : m, 15);
                    src[k] = p;
                }
                clear_outputs();
                lo = at(&out_c[0], 4);
                hi = at(&out_c[1], 4);
                ctx[0].dwt_vert_s1(lo, hi, src, w);
                ctx[t].dwt_vert_s1(same_at(&out_c[0], &out_s[0], lo),
                                   same_at(&out_c[1], &out_s[1], hi), src, w);
                if (outputs_differ(2))
                    FAIL(dwt_vert_s1, "w %d mode %d\n", w, m);
                cases++;
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "dwt_vert_s1", cases);
        {
            const int16_t *src[4];
            int32_t *lo = at(&out_c[0], 4), *hi = at(&out_c[1], 4);
            for (int k = 0; k < 4; k++) {
                int16_t *p = at(&in_buf[k], 2);
                fill16(p, 960, M_SMALL, 15);
                src[k] = p;
            }
            BENCH(dwt_vert_s1, "w=960", ctx[0].dwt_vert_s1(lo, hi, src, 960),
                  ctx[t].dwt_vert_s1(lo, hi, src, 960));
        }
    }
}

static void check_dwt_vert_s23(void)
{
    FOR_TIERS(dwt_vert_s23) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int w = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                const int32_t *src[4];
                int32_t *lo, *hi;
                for (int k = 0; k < 4; k++) {
                    int32_t *p = at(&in_buf[k], 4);
                    fill32(p, w, m == M_ALT && k & 1 ? M_RAND : m, 28);
                    src[k] = p;
                }
                clear_outputs();
                lo = at(&out_c[0], 4);
                hi = at(&out_c[1], 4);
                ctx[0].dwt_vert_s23(lo, hi, src, w);
                ctx[t].dwt_vert_s23(same_at(&out_c[0], &out_s[0], lo),
                                    same_at(&out_c[1], &out_s[1], hi), src, w);
                if (outputs_differ(2))
                    FAIL(dwt_vert_s23, "w %d mode %d\n", w, m);
                cases++;
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "dwt_vert_s23", cases);
        {
            const int32_t *src[4];
            int32_t *lo = at(&out_c[0], 4), *hi = at(&out_c[1], 4);
            for (int k = 0; k < 4; k++) {
                int32_t *p = at(&in_buf[k], 4);
                fill32(p, 480, M_SMALL, 28);
                src[k] = p;
            }
            BENCH(dwt_vert_s23, "w=480", ctx[0].dwt_vert_s23(lo, hi, src, 480),
                  ctx[t].dwt_vert_s23(lo, hi, src, 480));
        }
    }
}

static void check_dwt_horiz_s123(void)
{
    FOR_TIERS(dwt_horiz_s123) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int bw = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                for (int shift = 15; shift <= 16; shift++) {
                    int32_t *in = at(&in_buf[0], 4), *lo, *hi;
                    fill32(in - 1, 2 * bw + 2, m, 28);
                    clear_outputs();
                    lo = at(&out_c[0], 4);
                    hi = at(&out_c[1], 4);
                    ctx[0].dwt_horiz_s123(lo, hi, in, bw, shift);
                    ctx[t].dwt_horiz_s123(same_at(&out_c[0], &out_s[0], lo),
                                          same_at(&out_c[1], &out_s[1], hi), in, bw, shift);
                    if (outputs_differ(2))
                        FAIL(dwt_horiz_s123, "bw %d mode %d shift %d\n", bw, m, shift);
                    cases++;
                }
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "dwt_horiz_s123", cases);
        {
            int32_t *in = at(&in_buf[0], 4), *lo = at(&out_c[0], 4), *hi = at(&out_c[1], 4);
            fill32(in - 1, 962, M_SMALL, 28);
            BENCH(dwt_horiz_s123, "bw=480", ctx[0].dwt_horiz_s123(lo, hi, in, 480, 15),
                  ctx[t].dwt_horiz_s123(lo, hi, in, 480, 15));
        }
    }
}

/* ----------------------------------------------------------- decouple */

/*
 * Decouple inputs: besides the plain modes, D_FOLLOW and D_EQUAL where the
 * distorted bands follow the reference (same angle, a gain around 1, a
 * little noise), so the angle test passes and the gain limit is used.
 * D_CORNER (scale 0): h and v at -32768, where the int16 dot products
 * reach 2^31, with a diagonal band that follows. D_ROT: near the angle
 * limit.
 */
enum { D_FOLLOW = NB_MODES, D_EQUAL, D_CORNER, D_ROT, D_NB };

/* Gain of pixel i, the same for its three bands: 0.5 .. 2.5, and some
 * negative. */
static double gains[MAXW];

static void make_gains(int n)
{
    for (int i = 0; i < n; i++)
        gains[i] = (checkasm_rand() % 8 ? 0.5 : -2.5) + (checkasm_rand() % 1024) / 512.0;
}

static int64_t follow(int64_t o, int i, int64_t lim, int noise_bits)
{
    int64_t v = (int64_t)(o * gains[i]) + (noise_bits ? rand_bits(noise_bits) : 0);
    return v > lim ? lim : v < -lim - 1 ? -lim - 1 : v;
}

static int16_t clip16(double v)
{
    return v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : (int16_t)v;
}

static int32_t clip32(double v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* t = o turned by about one degree (the angle test's limit, where the
 * rounding of the dot products to float decides) and scaled by the gain. */
static void rotate(double oh, double ov, int i, double spread, double *th, double *tv)
{
    const double deg = 3.14159265358979323846 / 180.0;
    double a = deg * (1.0 + spread * ((checkasm_rand() % 2001) / 1000.0 - 1.0));
    double g = gains[i] > 0 ? gains[i] : -gains[i];

    if (checkasm_rand() & 1)
        a = -a;
    *th = g * (oh * cos(a) - ov * sin(a));
    *tv = g * (oh * sin(a) + ov * cos(a));
}

static void fill_decouple16(int16_t *o[3], int16_t *tt[3], int n, int mode)
{
    make_gains(n);
    if (mode == D_CORNER) {
        for (int i = 0; i < n; i++) {
            int full = checkasm_rand() & 1;
            o[0][i] = o[1][i] = INT16_MIN;
            tt[0][i] = full ? INT16_MIN : -(int)(checkasm_rand() % 32769);
            tt[1][i] = full ? INT16_MIN : -(int)(checkasm_rand() % 32769);
            o[2][i]  = rand_bits(12);
            tt[2][i] = follow(o[2][i], i, INT16_MAX, 2);
        }
        return;
    }
    if (mode == D_ROT) {
        for (int i = 0; i < n; i++) {
            double th, tv;
            o[0][i] = rand_bits(14);
            o[1][i] = rand_bits(14);
            rotate(o[0][i], o[1][i], i, 1e-2, &th, &tv);
            tt[0][i] = clip16(th);
            tt[1][i] = clip16(tv);
            o[2][i]  = rand_bits(12);
            tt[2][i] = follow(o[2][i], i, INT16_MAX, 2);
        }
        return;
    }
    for (int b = 0; b < 3; b++) {
        fill16(o[b], n, mode >= NB_MODES ? M_SMALL : mode, 12);
        if (mode == D_EQUAL)
            memcpy(tt[b], o[b], n * sizeof(*o[b]));
        else if (mode == D_FOLLOW)
            for (int i = 0; i < n; i++)
                tt[b][i] = follow(o[b][i], i, INT16_MAX, 2);
        else
            fill16(tt[b], n, mode == M_ALT ? M_RAND : mode, 12);
    }
}

static void fill_decouple32(int32_t *o[3], int32_t *tt[3], int n, int mode, int bits)
{
    make_gains(n);
    if (mode == D_ROT) {
        for (int i = 0; i < n; i++) {
            double th, tv;
            o[0][i] = rand_bits(bits - 2);
            o[1][i] = rand_bits(bits - 2);
            rotate(o[0][i], o[1][i], i, bits > 20 ? 1e-5 : 1e-3, &th, &tv);
            tt[0][i] = clip32(th);
            tt[1][i] = clip32(tv);
            o[2][i]  = rand_bits(bits - 2);
            tt[2][i] = follow(o[2][i], i, INT32_MAX, bits > 8 ? bits - 12 : 0);
        }
        return;
    }
    for (int b = 0; b < 3; b++) {
        fill32(o[b], n, mode >= NB_MODES ? M_SMALL : mode, bits);
        if (mode == D_EQUAL)
            memcpy(tt[b], o[b], n * sizeof(*o[b]));
        else if (mode == D_FOLLOW)
            for (int i = 0; i < n; i++)
                tt[b][i] = follow(o[b][i], i, INT32_MAX, bits > 8 ? bits - 12 : 0);
        else
            fill32(tt[b], n, mode == M_ALT ? M_RAND : mode, bits);
    }
}

/* The default 100, the limits, and gains with few and many significant
 * bits (the scale-0 SIMD limit runs in float for the former). */
static const double egls[] = { 100.0, 1.0, 1.5, 37.25, 99.9, 2.718281828459045 };
#define NB_EGLS (int)(sizeof(egls) / sizeof(egls[0]))

static void check_decouple_s0(void)
{
    FOR_TIERS(decouple_s0) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < D_NB; m++) {
                int16_t *o[3], *tt[3], *r[3], *a[3], *rs[3], *as[3];
                const double egl = egls[checkasm_rand_int(NB_EGLS)];
                for (int b = 0; b < 3; b++) {
                    o[b]  = at(&in_buf[b], 2);
                    tt[b] = at(&in_buf[3 + b], 2);
                }
                fill_decouple16(o, tt, n, m);
                clear_outputs();
                for (int b = 0; b < 3; b++) {
                    r[b]  = at(&out_c[b], 2);
                    a[b]  = at(&out_c[3 + b], 2);
                    rs[b] = same_at(&out_c[b], &out_s[b], r[b]);
                    as[b] = same_at(&out_c[3 + b], &out_s[3 + b], a[b]);
                }
                ctx[0].decouple_s0(r, a, (const int16_t *const *)o,
                                   (const int16_t *const *)tt, n, egl, div_lut);
                ctx[t].decouple_s0(rs, as, (const int16_t *const *)o,
                                   (const int16_t *const *)tt, n, egl, div_lut);
                if (outputs_differ(6))
                    FAIL(decouple_s0, "n %d mode %d egl %g\n", n, m, egl);
                cases++;
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "decouple_s0", cases);
        for (int m = 0; m < 2; m++) {
            int16_t *o[3], *tt[3], *r[3], *a[3];
            for (int b = 0; b < 3; b++) {
                o[b]  = at(&in_buf[b], 2);
                tt[b] = at(&in_buf[3 + b], 2);
                r[b]  = at(&out_c[b], 2);
                a[b]  = at(&out_c[3 + b], 2);
            }
            fill_decouple16(o, tt, 960, m ? D_FOLLOW : M_SMALL);
            BENCH(decouple_s0, m ? "n=960 similar" : "n=960 random",
                  ctx[0].decouple_s0(r, a, (const int16_t *const *)o,
                                     (const int16_t *const *)tt, 960, 100.0, div_lut),
                  ctx[t].decouple_s0(r, a, (const int16_t *const *)o,
                                     (const int16_t *const *)tt, 960, 100.0, div_lut));
        }
    }
}

static void check_decouple_s123(void)
{
    static const int bits[] = { 16, 24, 30, 32 };

    FOR_TIERS(decouple_s123) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < D_NB; m++) {
                for (int bi = 0; bi < 4; bi++) {
                    int32_t *o[3], *tt[3], *r[3], *a[3], *rs[3], *as[3];
                    const double egl = egls[checkasm_rand_int(NB_EGLS)];
                    if (m != M_RAND && m != M_SMALL && m < NB_MODES && bi)
                        continue;
                    for (int b = 0; b < 3; b++) {
                        o[b]  = at(&in_buf[b], 4);
                        tt[b] = at(&in_buf[3 + b], 4);
                    }
                    fill_decouple32(o, tt, n, m, bits[bi]);
                    clear_outputs();
                    for (int b = 0; b < 3; b++) {
                        r[b]  = at(&out_c[b], 4);
                        a[b]  = at(&out_c[3 + b], 4);
                        rs[b] = same_at(&out_c[b], &out_s[b], r[b]);
                        as[b] = same_at(&out_c[3 + b], &out_s[3 + b], a[b]);
                    }
                    ctx[0].decouple_s123(r, a, (const int32_t *const *)o,
                                         (const int32_t *const *)tt, n, egl, div_lut);
                    ctx[t].decouple_s123(rs, as, (const int32_t *const *)o,
                                         (const int32_t *const *)tt, n, egl, div_lut);
                    if (outputs_differ(6))
                        FAIL(decouple_s123, "n %d mode %d bits %d egl %g\n", n, m, bits[bi], egl);
                    cases++;
                }
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "decouple_s123", cases);
        for (int m = 0; m < 2; m++) {
            int32_t *o[3], *tt[3], *r[3], *a[3];
            for (int b = 0; b < 3; b++) {
                o[b]  = at(&in_buf[b], 4);
                tt[b] = at(&in_buf[3 + b], 4);
                r[b]  = at(&out_c[b], 4);
                a[b]  = at(&out_c[3 + b], 4);
            }
            fill_decouple32(o, tt, 480, m ? D_FOLLOW : M_SMALL, 24);
            BENCH(decouple_s123, m ? "n=480 similar" : "n=480 random",
                  ctx[0].decouple_s123(r, a, (const int32_t *const *)o,
                                       (const int32_t *const *)tt, 480, 100.0, div_lut),
                  ctx[t].decouple_s123(r, a, (const int32_t *const *)o,
                                       (const int32_t *const *)tt, 480, 100.0, div_lut));
        }
    }
}

/* ---------------------------------------------------------------- CSF */

static void check_csf_s0(void)
{
    FOR_TIERS(csf_s0) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                for (int rfi = 0; rfi < 2; rfi++) {
                    const uint16_t rf[3] = {
                        rfi ? checkasm_rand() : 36453, rfi ? checkasm_rand() : 36453,
                        rfi ? checkasm_rand() : 49417 };
                    const int16_t *src[3];
                    int32_t *fs, *cs;
                    for (int b = 0; b < 3; b++) {
                        int16_t *p = at(&in_buf[b], 2);
                        fill16(p, n, m, 15);
                        src[b] = p;
                    }
                    clear_outputs();
                    fs = at(&out_c[0], 4);
                    cs = at(&out_c[1], 4);
                    ctx[0].csf_s0(fs, cs, src, n, rf);
                    ctx[t].csf_s0(same_at(&out_c[0], &out_s[0], fs),
                                  same_at(&out_c[1], &out_s[1], cs), src, n, rf);
                    if (outputs_differ(2))
                        FAIL(csf_s0, "n %d mode %d rf %d %d %d\n", n, m, rf[0], rf[1], rf[2]);
                    cases++;
                }
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "csf_s0", cases);
        {
            static const uint16_t rf[3] = { 36453, 36453, 49417 };
            const int16_t *src[3];
            int32_t *fs = at(&out_c[0], 4), *cs = at(&out_c[1], 4);
            for (int b = 0; b < 3; b++) {
                int16_t *p = at(&in_buf[b], 2);
                fill16(p, 960, M_SMALL, 13);
                src[b] = p;
            }
            BENCH(csf_s0, "n=960", ctx[0].csf_s0(fs, cs, src, 960, rf),
                  ctx[t].csf_s0(fs, cs, src, 960, rf));
        }
    }
}

static void check_csf_s123(void)
{
    FOR_TIERS(csf_s123) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                for (int rfi = 0; rfi < 2; rfi++) {
                    const uint32_t rf[3] = {
                        rfi ? checkasm_rand() : 0xffffffffu, rfi ? checkasm_rand() : 107483648u,
                        rfi ? checkasm_rand() : 50593579u };
                    const int32_t *src[3];
                    int32_t *dst[3], *dsts[3];
                    int64_t *fs, *cs;
                    for (int b = 0; b < 3; b++) {
                        int32_t *p = at(&in_buf[b], 4);
                        fill32(p, n, m, 26);
                        src[b] = p;
                    }
                    clear_outputs();
                    for (int b = 0; b < 3; b++) {
                        dst[b]  = at(&out_c[2 + b], 4);
                        dsts[b] = same_at(&out_c[2 + b], &out_s[2 + b], dst[b]);
                    }
                    fs = at(&out_c[0], 8);
                    cs = at(&out_c[1], 8);
                    ctx[0].csf_s123(dst, fs, cs, src, n, rf);
                    ctx[t].csf_s123(dsts, same_at(&out_c[0], &out_s[0], fs),
                                    same_at(&out_c[1], &out_s[1], cs), src, n, rf);
                    if (outputs_differ(5))
                        FAIL(csf_s123, "n %d mode %d rf %u %u %u\n", n, m, rf[0], rf[1], rf[2]);
                    cases++;
                }
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "csf_s123", cases);
        {
            static const uint32_t rf[3] = { 107483648u, 107483648u, 50593579u };
            const int32_t *src[3];
            int32_t *dst[3];
            int64_t *fs = at(&out_c[0], 8), *cs = at(&out_c[1], 8);
            for (int b = 0; b < 3; b++) {
                int32_t *p = at(&in_buf[b], 4);
                fill32(p, 480, M_SMALL, 26);
                src[b] = p;
                dst[b] = at(&out_c[2 + b], 4);
            }
            BENCH(csf_s123, "n=480", ctx[0].csf_s123(dst, fs, cs, src, 480, rf),
                  ctx[t].csf_s123(dst, fs, cs, src, 480, rf));
        }
    }
}

static void check_hsum3(void)
{
    FOR_TIERS(hsum3_32) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                int32_t *src = at(&in_buf[0], 4), *dst;
                fill32(src - 1, n + 2, m, 20);
                clear_outputs();
                dst = at(&out_c[0], 4);
                ctx[0].hsum3_32(dst, src, n);
                ctx[t].hsum3_32(same_at(&out_c[0], &out_s[0], dst), src, n);
                if (outputs_differ(1))
                    FAIL(hsum3_32, "n %d mode %d\n", n, m);
                cases++;
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "hsum3_32", cases);
        {
            int32_t *src = at(&in_buf[0], 4), *dst = at(&out_c[0], 4);
            fill32(src - 1, 962, M_SMALL, 20);
            BENCH(hsum3_32, "n=960", ctx[0].hsum3_32(dst, src, 960),
                  ctx[t].hsum3_32(dst, src, 960));
        }
    }
    FOR_TIERS(hsum3_64) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                int64_t *src = at(&in_buf[0], 8), *dst;
                fill64(src - 1, n + 2, m, 24);
                clear_outputs();
                dst = at(&out_c[0], 8);
                ctx[0].hsum3_64(dst, src, n);
                ctx[t].hsum3_64(same_at(&out_c[0], &out_s[0], dst), src, n);
                if (outputs_differ(1))
                    FAIL(hsum3_64, "n %d mode %d\n", n, m);
                cases++;
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "hsum3_64", cases);
        {
            int64_t *src = at(&in_buf[0], 8), *dst = at(&out_c[0], 8);
            fill64(src - 1, 482, M_SMALL, 24);
            BENCH(hsum3_64, "n=480", ctx[0].hsum3_64(dst, src, 480),
                  ctx[t].hsum3_64(dst, src, 480));
        }
    }
}

/* ------------------------------------------------------------ masking */

/*
 * Masking inputs: M_SMALL is what real rows look like (bands of a few
 * thousand, thresholds built from the same kind of sums, positive);
 * M_RAND puts anything in every input (negative and wrapping thresholds,
 * the slow path); the rest are the extremes.
 */
/* Scale-0 extra modes: thresholds somewhat negative, and large ones. */
enum { CM_NEG = NB_MODES, CM_BIG, CM_NB };

static void fill_cm_s0(int16_t *s[3], int32_t *hs[3], int32_t *flt, int32_t *ctr,
                       int n, int m)
{
    if (m >= NB_MODES) {
        for (int b = 0; b < 3; b++) {
            fill16(s[b], n, M_SMALL, 13);
            for (int i = 0; i < n; i++)
                hs[b][i] = m == CM_NEG ? checkasm_rand() % 20000 : checkasm_rand() % 400000;
        }
        for (int i = 0; i < n; i++) {
            flt[i] = checkasm_rand() % (m == CM_NEG ? 200000 : 8000);
            ctr[i] = checkasm_rand() % 16000;
        }
        return;
    }
    for (int b = 0; b < 3; b++) {
        fill16(s[b], n, m, 13);
        if (m == M_SMALL)
            for (int i = 0; i < n; i++)
                hs[b][i] = checkasm_rand() % 60000;
        else
            fill32(hs[b], n, m == M_ALT ? M_RAND : m, 16);
    }
    if (m == M_SMALL) {
        for (int i = 0; i < n; i++) {
            flt[i] = checkasm_rand() % 8000;
            ctr[i] = checkasm_rand() % 16000;
        }
    } else {
        fill32(flt, n, m, 16);
        fill32(ctr, n, m == M_ALT ? M_RAND : m, 16);
    }
}

static void check_cm_row_s0(void)
{
    FOR_TIERS(cm_row_s0) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < CM_NB; m++) {
                for (int rfi = 0; rfi < 2; rfi++) {
                    const uint16_t rf[3] = {
                        rfi ? checkasm_rand() : 36453, rfi ? checkasm_rand() : 36453,
                        rfi ? checkasm_rand() : 49417 };
                    const int c_hv = checkasm_rand_int(8), c_d = checkasm_rand_int(9);
                    int16_t *s[3];
                    int32_t *hs[3], *flt = at(&in_buf[6], 4), *ctr = at(&in_buf[7], 4);
                    int64_t sum_c[3] = { 0 }, sum_s[3] = { 1 };
                    for (int b = 0; b < 3; b++) {
                        s[b]  = at(&in_buf[b], 2);
                        hs[b] = at(&in_buf[3 + b], 4);
                    }
                    fill_cm_s0(s, hs, flt, ctr, n, m);
                    ctx[0].cm_row_s0(sum_c, (const int16_t *const *)s,
                                     (const int32_t *const *)hs, flt, ctr, n, rf, c_hv, c_d);
                    ctx[t].cm_row_s0(sum_s, (const int16_t *const *)s,
                                     (const int32_t *const *)hs, flt, ctr, n, rf, c_hv, c_d);
                    if (memcmp(sum_c, sum_s, sizeof(sum_c)))
                        FAIL(cm_row_s0, "n %d mode %d c %d %d: %"PRId64" %"PRId64" %"PRId64
                             " vs %"PRId64" %"PRId64" %"PRId64"\n", n, m, c_hv, c_d,
                             sum_c[0], sum_c[1], sum_c[2], sum_s[0], sum_s[1], sum_s[2]);
                    cases++;
                }
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "cm_row_s0", cases);
        {
            static const uint16_t rf[3] = { 36453, 36453, 49417 };
            int16_t *s[3];
            int32_t *hs[3], *flt = at(&in_buf[6], 4), *ctr = at(&in_buf[7], 4);
            int64_t sum[3];
            for (int b = 0; b < 3; b++) {
                s[b]  = at(&in_buf[b], 2);
                hs[b] = at(&in_buf[3 + b], 4);
            }
            fill_cm_s0(s, hs, flt, ctr, 960, M_SMALL);
            BENCH(cm_row_s0, "n=960",
                  ctx[0].cm_row_s0(sum, (const int16_t *const *)s, (const int32_t *const *)hs,
                                   flt, ctr, 960, rf, 6, 7),
                  ctx[t].cm_row_s0(sum, (const int16_t *const *)s, (const int32_t *const *)hs,
                                   flt, ctr, 960, rf, 6, 7));
        }
    }
}

static void fill_cm_s123(int32_t *x[3], int64_t *hs[3], int64_t *flt, int64_t *ctr,
                         int n, int m)
{
    for (int b = 0; b < 3; b++) {
        fill32(x[b], n, m, 24);
        if (m == M_SMALL)
            for (int i = 0; i < n; i++)
                hs[b][i] = (int64_t)(checkasm_rand() % 3000000) - 9;
        else
            fill64(hs[b], n, m == M_ALT ? M_RAND : m, 24);
    }
    if (m == M_SMALL) {
        for (int i = 0; i < n; i++) {
            flt[i] = (int64_t)(checkasm_rand() % 400000) - 3;
            ctr[i] = (int64_t)(checkasm_rand() % 800000) - 3;
        }
    } else {
        fill64(flt, n, m, 24);
        fill64(ctr, n, m == M_ALT ? M_RAND : m, 24);
    }
}

static void check_cm_row_s123(void)
{
    FOR_TIERS(cm_row_s123) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                const int shift = checkasm_rand_int(13);
                int32_t *x[3];
                int64_t *hs[3], *flt = at(&in_buf[6], 8), *ctr = at(&in_buf[7], 8);
                int64_t sum_c[3] = { 0 }, sum_s[3] = { 1 };
                for (int b = 0; b < 3; b++) {
                    x[b]  = at(&in_buf[b], 4);
                    hs[b] = at(&in_buf[3 + b], 8);
                }
                fill_cm_s123(x, hs, flt, ctr, n, m);
                ctx[0].cm_row_s123(sum_c, (const int32_t *const *)x,
                                   (const int64_t *const *)hs, flt, ctr, n, shift);
                ctx[t].cm_row_s123(sum_s, (const int32_t *const *)x,
                                   (const int64_t *const *)hs, flt, ctr, n, shift);
                if (memcmp(sum_c, sum_s, sizeof(sum_c)))
                    FAIL(cm_row_s123, "n %d mode %d shift %d\n", n, m, shift);
                cases++;
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "cm_row_s123", cases);
        {
            int32_t *x[3];
            int64_t *hs[3], *flt = at(&in_buf[6], 8), *ctr = at(&in_buf[7], 8);
            int64_t sum[3];
            for (int b = 0; b < 3; b++) {
                x[b]  = at(&in_buf[b], 4);
                hs[b] = at(&in_buf[3 + b], 8);
            }
            fill_cm_s123(x, hs, flt, ctr, 480, M_SMALL);
            BENCH(cm_row_s123, "n=480",
                  ctx[0].cm_row_s123(sum, (const int32_t *const *)x, (const int64_t *const *)hs,
                                     flt, ctr, 480, 9),
                  ctx[t].cm_row_s123(sum, (const int32_t *const *)x, (const int64_t *const *)hs,
                                     flt, ctr, 480, 9));
        }
    }
}

/* -------------------------------------------------------- denominator */

static void check_den_rows(void)
{
    FOR_TIERS(den_row_s0) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                int16_t *o = at(&in_buf[0], 2);
                uint64_t rc, rs;
                fill16(o, n, m, 13);
                rc = ctx[0].den_row_s0(o, n);
                rs = ctx[t].den_row_s0(o, n);
                if (rc != rs)
                    FAIL(den_row_s0, "n %d mode %d: %"PRIu64" vs %"PRIu64"\n", n, m, rc, rs);
                cases++;
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "den_row_s0", cases);
        {
            int16_t *o = at(&in_buf[0], 2);
            fill16(o, 960, M_SMALL, 13);
            BENCH(den_row_s0, "n=960", ctx[0].den_row_s0(o, 960), ctx[t].den_row_s0(o, 960));
        }
    }
    FOR_TIERS(den_row_s123) {
        int cases = 0;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int n = checkasm_widths[wi];
            for (int m = 0; m < NB_MODES; m++) {
                for (int p = 30; p <= 31; p++) {
                    const int c = checkasm_rand_int(13);
                    int32_t *o = at(&in_buf[0], 4);
                    uint64_t rc, rs;
                    fill32(o, n, m, 26);
                    rc = ctx[0].den_row_s123(o, n, p, c);
                    rs = ctx[t].den_row_s123(o, n, p, c);
                    if (rc != rs)
                        FAIL(den_row_s123, "n %d mode %d p %d c %d\n", n, m, p, c);
                    cases++;
                }
            }
        }
        checkasm_report(dsp_name, checkasm_tiers[t]->name, "den_row_s123", cases);
        {
            int32_t *o = at(&in_buf[0], 4);
            fill32(o, 480, M_SMALL, 26);
            BENCH(den_row_s123, "n=480", ctx[0].den_row_s123(o, 480, 31, 9),
                  ctx[t].den_row_s123(o, 480, 31, 9));
        }
    }
}

void checkasm_check_adm(void)
{
    ff_vmaf_adm_div_lut_init(div_lut);
    init_contexts();

    check_dwt_vert_s0();
    check_dwt_horiz_s0();
    check_dwt_vert_s1();
    check_dwt_vert_s23();
    check_dwt_horiz_s123();
    check_decouple_s0();
    check_decouple_s123();
    check_csf_s0();
    check_csf_s123();
    check_hsum3();
    check_cm_row_s0();
    check_cm_row_s123();
    check_den_rows();
}
