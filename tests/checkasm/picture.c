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
 * The staging copies (picture_dsp.h), each SIMD version against the C one:
 * 10- and 12-bit samples clamped to the depth's maximum, with a flag for
 * any sample above it (copies and flags identical); 8-bit rows stored
 * around the caches (the same bytes, at every alignment of both sides and
 * every length up to a few rows, nothing written outside them).
 */

#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/picture_dsp.h"

#include "checkasm.h"

#define MAX_N  (4096 + 64)
#define GUARD  16

/* Samples of a fill mode: in range, all at max, all above, a single
 * one above at a random place, or anything in 16 bits. */
static void fill(uint16_t *b, size_t n, unsigned max, int mode)
{
    size_t k = n ? checkasm_rand_int((int)n) : 0;
    for (size_t i = 0; i < n; i++) {
        switch (mode) {
        case 0:  b[i] = checkasm_rand() % (max + 1); break;
        case 1:  b[i] = max; break;
        case 2:  b[i] = max + 1 + checkasm_rand() % (0xffff - max); break;
        case 3:  b[i] = i == k ? max + 1 : checkasm_rand() % (max + 1); break;
        default: b[i] = checkasm_rand() & 0xffff; break;
        }
    }
}

/* c: the C versions; a: those of tier t. */
static void tier_contexts(int t, FFVmafPictureDSPContext *c, FFVmafPictureDSPContext *a)
{
    checkasm_init_tier(0);
    ff_vmaf_picture_dsp_init(c);
    checkasm_init_tier(t);
    ff_vmaf_picture_dsp_init(a);
}

#define STREAM_MAX (3 * 4096 + 300)

static void check_copy_stream(void)
{
    uint8_t *src = checkasm_malloc(STREAM_MAX + 64);
    uint8_t *dc  = checkasm_malloc(STREAM_MAX + 2 * GUARD + 64);
    uint8_t *da  = checkasm_malloc(STREAM_MAX + 2 * GUARD + 64);

    for (int t = 1; t < checkasm_nb_tiers; t++) {
        const char *tier = checkasm_tiers[t]->name;
        FFVmafPictureDSPContext c, a;
        int cases = 0;

        tier_contexts(t, &c, &a);
        if (!checkasm_tier_differs(t, (const void *)c.copy_stream, (const void *)a.copy_stream))
            continue;
        /* Lengths about the vector and block sizes, then random ones; the
         * source and destination at every offset within 32 bytes. */
        for (int k = 0; k < 400; k++) {
            static const size_t edges[] = { 0, 1, 31, 32, 33, 127, 128, 129, 255, 256, 257,
                                            383, 384, 385, 1920, 4096, STREAM_MAX };
            const int nb_edges = sizeof(edges) / sizeof(edges[0]);
            size_t n = k < nb_edges ? edges[k] : (size_t)checkasm_rand_int(STREAM_MAX + 1);
            const uint8_t *sp = src + checkasm_rand_int(32);
            size_t off = GUARD + checkasm_rand_int(32);
            for (size_t i = 0; i < n; i++)
                ((uint8_t *)sp)[i] = checkasm_rand() & 0xff;
            memset(dc, 0x5a, STREAM_MAX + 2 * GUARD + 64);
            memset(da, 0x5a, STREAM_MAX + 2 * GUARD + 64);
            c.copy_stream(dc + off, sp, n);
            a.copy_stream(da + off, sp, n);
            if (memcmp(dc, da, STREAM_MAX + 2 * GUARD + 64))
                checkasm_fail("picture", tier, "copy_stream", "n %zu, dst offset %zu, src offset %d",
                              n, off, (int)(sp - src));
            cases++;
        }
        checkasm_report("picture", tier, "copy_stream", cases);
        /* A copy this small stays in the L1 cache, where cached stores
         * win: the streaming stores pay off for megabytes copied while
         * other processes share the memory (tools/gpu-procs.sh). */
        if (checkasm_bench) {
            double ns_c, ns_a;
            CHECKASM_TIME(ns_c, c.copy_stream(dc, src, STREAM_MAX));
            CHECKASM_TIME(ns_a, a.copy_stream(da, src, STREAM_MAX));
            checkasm_bench_report("picture", "copy_stream", "12588 bytes", tier, ns_a, ns_c);
        }
    }
    free(src);
    free(dc);
    free(da);
}

void checkasm_check_picture(void)
{
    static const unsigned depths[] = { 10, 12 };
    uint16_t *src = checkasm_malloc((MAX_N + 32) * 2);
    uint16_t *dc  = checkasm_malloc((MAX_N + 2 * GUARD + 32) * 2);
    uint16_t *da  = checkasm_malloc((MAX_N + 2 * GUARD + 32) * 2);

    for (int t = 1; t < checkasm_nb_tiers; t++) {
        const char *tier = checkasm_tiers[t]->name;
        FFVmafPictureDSPContext c, a;
        int cases = 0;

        tier_contexts(t, &c, &a);
        if (!checkasm_tier_differs(t, (const void *)c.copy_clamp16, (const void *)a.copy_clamp16))
            continue;
        for (int di = 0; di < 2; di++) {
            unsigned max = (1u << depths[di]) - 1;
            /* Every width of the list, then one long row. */
            for (int wi = 0; wi == 0 || checkasm_widths[wi - 1]; wi++) {
                size_t n = checkasm_widths[wi] ? (size_t)checkasm_widths[wi] : MAX_N;
                if (n > MAX_N)
                    continue;
                for (int m = 0; m < 5; m++) {
                    uint16_t *s = src + checkasm_misalign(2) / 2;
                    size_t off = GUARD + checkasm_rand_int(8);
                    unsigned rc, ra;
                    fill(s, n, max, m);
                    memset(dc, 0x5a, (MAX_N + 2 * GUARD + 32) * 2);
                    memset(da, 0x5a, (MAX_N + 2 * GUARD + 32) * 2);
                    rc = c.copy_clamp16(dc + off, s, n, max);
                    ra = a.copy_clamp16(da + off, s, n, max);
                    if (!!rc != !!ra || memcmp(dc, da, (MAX_N + 2 * GUARD + 32) * 2))
                        checkasm_fail("picture", tier, "copy_clamp16",
                                      "max %u n %zu mode %d: flag %u, C %u", max, n, m, ra, rc);
                    cases++;
                }
            }
        }
        checkasm_report("picture", tier, "copy_clamp16", cases);
        if (checkasm_bench) {
            double ns_c, ns_a;
            fill(src, MAX_N, 1023, 0);
            CHECKASM_TIME(ns_c, c.copy_clamp16(dc, src, MAX_N, 1023));
            CHECKASM_TIME(ns_a, a.copy_clamp16(da, src, MAX_N, 1023));
            checkasm_bench_report("picture", "copy_clamp16", "4160 samples", tier, ns_a, ns_c);
        }
    }
    free(src);
    free(dc);
    free(da);
    check_copy_stream();
}
