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
 * The GPU's stand-in for the host's powf(x, 7) in CIEDE2000
 * (libavfilter/vmaf/features/gpu/ciede_pow7.h), run here on the host with
 * the same functions: against this host's powf at every float of the range
 * it covers (2^-18 <= x < 2^18, 302 million arguments), and x^7's rounding
 * against the product in long double where that decides it.
 *
 * Usage: ciede_pow7_test [stride] (1, the default, tries every argument).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "libavfilter/vmaf/features/gpu/ciede_pow7.h"
#include "libavfilter/vmaf/features/gpu/ciede_pow7_table.h"

static int passed, failed;

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
        printf("PASS %s\n", what);
    } else {
        failed++;
        printf("FAIL %s\n", what);
    }
}

int main(int argc, char **argv)
{
    const int stride = argc > 1 ? atoi(argv[1]) : 1;
    const FFCiedePowfTable *tab;
    long wrong = 0, uncertain = 0, tried = 0, rounding = 0, near = 0, away = 0;
    int ret;
    char what[256];

    ret = ff_ciede_powf_table(&tab);
    check(ret == 0, "the table of this host's powf(x, 7) is made");
    if (ret < 0) {
        printf("%d passed, %d failed\n", passed, failed);
        return 1;
    }
    for (int k = 0; k < FF_CIEDE_POW7_BINADES * tab->words; k++)
        away += __builtin_popcount(tab->away[k]);
    printf("arguments near a midpoint: %d a binade; powf rounds the other way at %ld of "
           "them, all binades\n", tab->n, away);

    /* x^7 rounded, against long double (64-bit significand: within 2^-60 of
     * x^7 relative), where that is far enough from a midpoint to decide. */
    for (uint32_t m = 0; m < 0x800000; m += stride > 1 ? stride : 1) {
        const FFCiedePow7 p = ff_ciede_pow7(m | 0x800000);
        const long double x = 1.0L + m / 8388608.0L, x2 = x * x, x7 = (x2 * x2) * (x2 * x);
        const long double f = ldexpl(x7, 23 - ilogbl(x7));
        const long double d = fabsl(f - floorl(f) - 0.5L);

        near += p.dist < FF_CIEDE_POW7_NEAR;
        if (d > 1e-12L && ldexpf((float)p.t, p.shift - 161) != (float)x7)
            rounding++;
    }
    snprintf(what, sizeof(what), "x^7 rounded to nearest, every significand: %ld wrong", rounding);
    check(!rounding, what);
    snprintf(what, sizeof(what), "the table holds every significand near a midpoint: "
             "%d of %ld", tab->n, near);
    check(tab->n == near, what);

    for (int be = FF_CIEDE_POW7_MIN_BE; be <= FF_CIEDE_POW7_MAX_BE; be++) {
        long w = 0;
        for (uint32_t m = stride > 1 ? (uint32_t)(be % stride) : 0; m < 0x800000; m += stride) {
            FFCiedeBits x, host, dev;
            int u = 0;
            x.u    = (uint32_t)be << 23 | m;
            host.f = powf(x.f, 7.0f);
            dev.f  = ff_ciede_powf7(x.f, tab, &u);
            tried++;
            uncertain += u;
            w += !u && host.u != dev.u;
        }
        wrong += w;
        if (w)
            printf("binade 2^%d: %ld arguments differ\n", be - 127, w);
    }
    snprintf(what, sizeof(what), "powf(x, 7) of this host at %ld arguments in "
             "[2^-18, 2^18): %ld differ, %ld left to the host", tried, wrong, uncertain);
    check(!wrong && !uncertain, what);
    {
        int u = 0;
        check(ff_ciede_powf7(0.0f, tab, &u) == 0.0f && !u, "0^7 is 0");
        ff_ciede_powf7(ldexpf(1.0f, -19), tab, &u);
        check(u, "x^7 below the normal floats is left to the host");
        u = 0;
        ff_ciede_powf7(ldexpf(1.0f, 18), tab, &u);
        check(u, "x^7 beyond the range is left to the host");
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
