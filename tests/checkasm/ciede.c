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
 * The CIEDE2000 row kernel (ciede_dsp.h), each SIMD version against the C
 * one. There is no SIMD version yet (the row is bound by libm calls that
 * must stay scalar), so every tier is skipped; the test is here for the
 * first one.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/features/ciede_dsp.h"

#include "checkasm.h"

#define MAX_W 2000

static void fill(uint8_t *buf, size_t n, int bpc, int mode)
{
    unsigned max = (1u << bpc) - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned v = mode == 0 ? checkasm_rand() & max : mode == 1 ? 0 :
                     mode == 2 ? max : (i & 1 ? max : 0);
        if (bpc == 8)
            buf[i] = v;
        else
            ((uint16_t *)buf)[i] = v;
    }
}

static void check_row(int t)
{
    static const int depths[] = { 8, 10, 12, 16 };
    const char *tier = checkasm_tiers[t]->name;
    uint8_t *buf[6];
    int cases = 0, tested = 0;

    for (int i = 0; i < 6; i++)
        buf[i] = checkasm_malloc((MAX_W + 32) * 2);
    for (int di = 0; di < 4; di++) {
        int bpc = depths[di], bytes = bpc > 8 ? 2 : 1;
        FFVmafCiedeDSPContext c, a;
        FFVmafCiedeScale sc;

        checkasm_init_tier(0);
        ff_vmaf_ciede_dsp_init(&c, bpc);
        checkasm_init_tier(t);
        ff_vmaf_ciede_dsp_init(&a, bpc);
        checkasm_init_tier(0);
        if (c.row == a.row)
            continue;
        tested = 1;
        ff_vmaf_ciede_scale_init(&sc, bpc);
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            if (w > MAX_W)
                continue;
            for (int ss_x = 0; ss_x < 2; ss_x++)
                for (int m = 0; m < 4; m++) {
                    const uint8_t *ref[3], *dis[3];
                    FFVmafCiedeCache cc, ca;
                    double rc, ra;
                    for (int p = 0; p < 6; p++) {
                        uint8_t *s = buf[p] + bytes * (1 + checkasm_rand_int(15));
                        fill(s, w, bpc, p < 3 ? m : (m + p) % 4);
                        if (p < 3)
                            ref[p] = s;
                        else
                            dis[p - 3] = s;
                    }
                    if (ff_vmaf_ciede_cache_alloc(&cc, w) < 0 ||
                        ff_vmaf_ciede_cache_alloc(&ca, w) < 0)
                        exit(1);
                    rc = c.row(0.5, &sc, &cc, ref, dis, w, ss_x, bpc);
                    ra = a.row(0.5, &sc, &ca, ref, dis, w, ss_x, bpc);
                    if (memcmp(&rc, &ra, sizeof(rc)))
                        checkasm_fail("ciede", tier, "row", "bpc %d w %d mode %d: %a, C %a",
                                      bpc, w, m, ra, rc);
                    ff_vmaf_ciede_cache_free(&cc);
                    ff_vmaf_ciede_cache_free(&ca);
                    cases++;
                }
        }
    }
    if (tested)
        checkasm_report("ciede", tier, "row", cases);
    for (int i = 0; i < 6; i++)
        free(buf[i]);
}

void checkasm_check_ciede(void)
{
    for (int t = 1; t < checkasm_nb_tiers; t++)
        check_row(t);
}
