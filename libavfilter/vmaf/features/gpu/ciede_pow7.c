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

/**
 * @file
 * The table of where the host's powf(x, 7) is not x^7 rounded to nearest
 * (ciede_pow7.h), made once a process from the host's own powf.
 */

#include <math.h>
#include <stdint.h>

#include "libavutil/error.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"

#include "ciede_pow7.h"
#include "ciede_pow7_table.h"

static FFCiedePowfTable table;
static uint32_t *table_m, *table_away;
static int table_ret;
static AVOnce table_once = AV_ONCE_INIT;

/* Whether significand m's x^7 may lie near a midpoint: x^7 in doubles is
 * within 2^-50 of it relative, 2^-26 of a float ulp; exact where that
 * cannot tell. */
static int near_midpoint(uint32_t m)
{
    const double x = 1.0 + m * (1.0 / 8388608.0);
    const double x2 = x * x, x7 = (x2 * x2) * (x2 * x);
    const int e = ilogb(x7);
    const double f = ldexp(x7, 23 - e);          /* in ulps: [2^23, 2^24) */
    const double d = fabs(f - floor(f) - 0.5);

    if (d > 1.0 / 128 + 1.0 / 1048576)
        return 0;
    return ff_ciede_pow7(m | 0x800000).dist < FF_CIEDE_POW7_NEAR;
}

static void build_table(void)
{
    int n = 0, cap = 1 << 17, words;

    if (!(table_m = av_malloc_array(cap, sizeof(*table_m)))) {
        table_ret = AVERROR(ENOMEM);
        return;
    }
    for (uint32_t m = 0; m < 0x800000; m++) {
        if (!near_midpoint(m))
            continue;
        if (n == cap) {
            uint32_t *t = av_realloc_array(table_m, cap * 2, sizeof(*table_m));
            if (!t) {
                table_ret = AVERROR(ENOMEM);
                return;
            }
            table_m = t;
            cap *= 2;
        }
        table_m[n++] = m;
    }
    words = (n + 31) / 32;
    if (!(table_away = av_calloc((size_t)FF_CIEDE_POW7_BINADES * words, sizeof(*table_away)))) {
        table_ret = AVERROR(ENOMEM);
        return;
    }
    for (int k = 0; k < n; k++) {
        const FFCiedePow7 p = ff_ciede_pow7(table_m[k] | 0x800000);
        for (int be = FF_CIEDE_POW7_MIN_BE; be <= FF_CIEDE_POW7_MAX_BE; be++) {
            FFCiedeBits x, cr, host;
            x.u    = (uint32_t)be << 23 | table_m[k];
            cr.f   = ldexpf((float)p.t, p.shift + 7 * (be - 150));
            host.f = powf(x.f, 7.0f);
            if (host.u == cr.u)
                continue;
            /* Only the other float around x^7 can be told apart. */
            if (host.u != cr.u + (p.up ? -1u : 1u)) {
                table_ret = AVERROR(ENOSYS);
                return;
            }
            table_away[(be - FF_CIEDE_POW7_MIN_BE) * words + (k >> 5)] |= 1u << (k & 31);
        }
    }
    table.m     = table_m;
    table.away  = table_away;
    table.n     = n;
    table.words = words;
}

int ff_ciede_powf_table(const FFCiedePowfTable **tab)
{
    ff_thread_once(&table_once, build_table);
    if (table_ret < 0)
        return table_ret;
    *tab = &table;
    return 0;
}
