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

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/features/ssim_dsp.h"

#include "checkasm.h"

#define MAX_W    1920
#define GUARD    64             /* floats checked past outputs */
#define SENTINEL 0x7fa5a5a5u    /* a NaN bit pattern no kernel writes */
#define NB_MODES 10

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

/* The C context and tier t's, for depth bpc. */
static void pair_init(FFVmafSsimDSPContext *c, FFVmafSsimDSPContext *a, int t, int bpc)
{
    checkasm_init_tier(0);
    ff_vmaf_ssim_dsp_init(c, bpc);
    checkasm_init_tier(t);
    ff_vmaf_ssim_dsp_init(a, bpc);
}

/* Whether tier t has its own fn: one that fell back to C's is not tested. */
#define OWN(t, c, a, fn) checkasm_tier_differs(t, (const void *)(c).fn, (const void *)(a).fn)

/* Whether the sums differ, the case failing with its text fmt if they do. */
static void check_sums_alike(const char *tier, const char *func, const FFVmafSsimSums *sc,
                             const FFVmafSsimSums *sa, const char *fmt, ...)
{
    char what[256];
    va_list ap;

    if (!memcmp(sc, sa, sizeof(*sc)))
        return;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    checkasm_fail("ssim", tier, func, "%s: l %.17g c %.17g s %.17g ssim %.17g, "
                  "C %.17g %.17g %.17g %.17g", what, sa->l, sa->c, sa->s, sa->ssim,
                  sc->l, sc->c, sc->s, sc->ssim);
}

static void check_load(int t)
{
    static const int bpcs[] = { 8, 9, 10, 12, 14, 16 };
    const char *tier = checkasm_tiers[t]->name;
    uint8_t *src = checkasm_malloc(3 * (MAX_W + 64) * 2 + 64);
    CheckasmOut out;
    int cases = 0, tested = 0;

    checkasm_out_alloc(&out, 3 * (MAX_W + 16) + GUARD, SENTINEL);
    for (int bi = 0; bi < (int)(sizeof(bpcs) / sizeof(bpcs[0])); bi++) {
        const int bpc = bpcs[bi], bytes = bpc > 8 ? 2 : 1;
        const unsigned max = (1u << bpc) - 1;
        FFVmafSsimDSPContext c, a;

        pair_init(&c, &a, t, bpc);
        if (!OWN(t, c, a, load))
            continue;
        tested = 1;

        for (int wi = 0; checkasm_widths[wi]; wi++) {
            const int w = checkasm_widths[wi];
            for (int m = 0; m < 5; m++) {
                const int h = 1 + checkasm_rand_int(3);
                const ptrdiff_t ss = (w + checkasm_rand_int(64)) * bytes;
                const ptrdiff_t ds = w + checkasm_rand_int(16);
                uint8_t *s = src + checkasm_misalign(bytes);

                for (int i = 0; i < h * ss / bytes; i++)
                    checkasm_put_sample(s, i, bytes,
                                        m == 0 ? checkasm_rand() & max : m == 1 ? 0 :
                                        m == 2 ? max : (i & 1) == (m == 3) ? max : 0);
                checkasm_out_reset(&out);
                c.load(out.c, ds, s, ss, w, h, bpc);
                a.load(out.a, ds, s, ss, w, h, bpc);
                checkasm_out_check(&out, "ssim", tier, "load", ds, 0,
                                   "bpc %d w %d h %d", bpc, w, h);
                cases++;
            }
        }
    }
    if (tested)
        checkasm_report("ssim", tier, "load", cases);
    free(src);
    checkasm_out_free(&out);
}

static void decimate(const FFVmafSsimDSPContext *c, int box, float *dst, ptrdiff_t ds,
                     const float *src, ptrdiff_t ss, int w, int h, int factor)
{
    if (box)
        c->box_decimate(dst, ds, src, ss, w, h, factor);
    else
        c->ms_ssim_decimate(dst, ds, src, ss, w, h);
}

/*
 * box_decimate (box = 1) or ms_ssim_decimate (box = 0, by 2): every
 * output and the sentinel past them compared.
 */
static void check_decimation(int t, int box)
{
    static const int box_heights[] = { 1, 2, 3, 4, 5, 8, 13 };
    static const int ms_heights[]  = { 1, 2, 5, 10, 19 };
    /* box: the vector factors (2: 480p, 4: 1080p, 8: 4K) most, the
     * others (C through the pointer) once */
    static const int factors[] = { 2, 4, 8, 0, 2, 4, 8 };
    const char *tier = checkasm_tiers[t]->name;
    const char *func = box ? "box_decimate" : "ms_ssim_decimate";
    const int *heights = box ? box_heights : ms_heights;
    const int nb_heights = box ? (int)(sizeof(box_heights) / sizeof(box_heights[0]))
                               : (int)(sizeof(ms_heights) / sizeof(ms_heights[0]));
    const int max_h = heights[nb_heights - 1];
    float *src = checkasm_malloc(((size_t)max_h * (MAX_W + 16) + 16) * sizeof(float));
    FFVmafSsimDSPContext c, a;
    CheckasmOut out;
    int widths[128], nb_widths = 0, cases = 0;

    /* checkasm's widths; for ms_ssim_decimate also some whose vector
     * part (outputs 2 to (w - 5) / 2) ends 1 to 7 outputs into a strip
     * of 128 */
    for (int wi = 0; checkasm_widths[wi]; wi++)
        widths[nb_widths++] = checkasm_widths[wi];
    if (!box) {
        for (int r = 1; r < 8; r++)
            widths[nb_widths++] = 2 * (128 + r + 1) + 5 + checkasm_rand_int(2);
        widths[nb_widths++] = 2 * (256 + 4 + 1) + 5;
    }
    widths[nb_widths] = 0;
    /* the outputs: as large as the input's (box by 2 or more), or half of it each way */
    checkasm_out_alloc(&out, box ? (size_t)max_h * (MAX_W + 1 + 16) + GUARD
                                 : (size_t)(max_h / 2 + 1) * (MAX_W / 2 + 1 + 16) + GUARD,
                       SENTINEL);

    pair_init(&c, &a, t, 8);
    if (box ? !OWN(t, c, a, box_decimate) : !OWN(t, c, a, ms_ssim_decimate))
        goto end;

    for (int wi = 0; widths[wi]; wi++) {
        const int w = widths[wi];
        for (int hi = 0; hi < nb_heights; hi++) {
            const int factor = !box ? 2 : factors[hi] ? factors[hi] : 2 + checkasm_rand_int(9);
            const int h = heights[hi];
            const int ow = ff_vmaf_ssim_decimated_size(w, factor);
            const int m = checkasm_rand_int(NB_MODES);
            const int bpc = depths[checkasm_rand_int(NB_DEPTHS)];
            const ptrdiff_t ss = w + checkasm_rand_int(16);
            const ptrdiff_t ds = ow + checkasm_rand_int(16);
            float *s = src + 1 + checkasm_rand_int(7);

            fill_plane(s, ss, w, h, bpc, modes[m][checkasm_rand_int(2)]);
            checkasm_out_reset(&out);
            decimate(&c, box, out.c, ds, s, ss, w, h, factor);
            decimate(&a, box, out.a, ds, s, ss, w, h, factor);
            checkasm_out_check(&out, "ssim", tier, func, ds, 0,
                               "factor %d w %d h %d mode %d", factor, w, h, m);
            cases++;
        }
    }
    checkasm_report("ssim", tier, func, cases);
end:
    free(src);
    checkasm_out_free(&out);
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
    float *rows = checkasm_malloc(2 * (max_w + 8) * sizeof(float));
    float *tmp = checkasm_malloc(ff_vmaf_ssim_row_tmp_floats(max_w) * sizeof(float));
    FFVmafSsimDSPContext c, a;
    CheckasmOut out;
    int cases = 0;

    checkasm_out_alloc(&out, 5 * (size_t)(ff_vmaf_ssim_map_stride(max_w) + 24) + GUARD,
                       SENTINEL);
    pair_init(&c, &a, t, 8);
    if (!OWN(t, c, a, window_h))
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
            checkasm_out_reset(&out);
            c.window_h(out.c, stride, ra, rb, w, tmp);
            a.window_h(out.a, stride, ra, rb, w, tmp);
            /* the ow outputs of each map; lanes ow to ms are the map's
             * to write as it likes, so not compared */
            for (int k = 0; k < 5; k++) {
                const float *pc = out.c + k * stride, *pa = out.a + k * stride;
                const int x = (int)checkasm_first_diff(pc, pa, ow, sizeof(float));
                if (x < ow) {
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
            if (memcmp(out.c + 5 * stride, out.a + 5 * stride,
                       (out.n - 5 * stride) * sizeof(float)))
                checkasm_fail("ssim", tier, "window_h", "w %d: wrote past the last map", w);
            cases++;
        }
    }
    checkasm_report("ssim", tier, "window_h", cases);
end:
    free(rows);
    free(tmp);
    checkasm_out_free(&out);
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

    pair_init(&c, &a, t, 8);
    if (!OWN(t, c, a, window_v))
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
            check_sums_alike(tier, "window_v", &sc, &sa, "ow %d mode %d", ow, m);
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

    pair_init(&c, &a, t, 8);
    if (!OWN(t, c, a, window_h) && !OWN(t, c, a, window_v))
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
            check_sums_alike(tier, "sums (driver)", &sc, &sa, "w %d h %d mode %d", w, h, m);
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
    /* the lines of the table, in the order of ns[t][] */
    static const struct {
        const char *func, *what;
    } lines[] = {
        { "load",             "8-bit 1080p"  },
        { "load",             "10-bit 1080p" },
        { "ms_ssim_decimate", "1080p"        },
        { "box_decimate",     "1080p by 2"   },
        { "box_decimate",     "1080p by 4"   },
        { "box_decimate",     "1080p by 8"   },
        { "window_h",         "1920 row"     },
        { "window_v",         "1910 row"     },
        { "sums (driver)",    "1080p"        },
        { "sums (driver)",    "480x270"      },
    };
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
        CHECKASM_TIME(ns[t][3], c->box_decimate(out, BW / 2, ref, BW, BW, BH, 2));
        CHECKASM_TIME(ns[t][4], c->box_decimate(out, sw, ref, BW, BW, BH, 4));
        CHECKASM_TIME(ns[t][5], c->box_decimate(out, BW / 8, ref, BW, BW, BH, 8));
        CHECKASM_TIME(ns[t][6], c->window_h(ring, ms, ref, dis, BW, tmp));
        CHECKASM_TIME(ns[t][7], c->window_v(&sums, rows, ms, BW - FF_VMAF_SSIM_WINDOW + 1));
        CHECKASM_TIME(ns[t][8], ff_vmaf_ssim_sums_dsp(c, &sums, ref, BW, dis, BW, BW, BH, tmp));
        CHECKASM_TIME(ns[t][9], ff_vmaf_ssim_sums_dsp(c, &sums, ref, sw, dis, sw, sw, sh, tmp));
        sink += sums.ssim;
    }
    for (int t = 1; t < checkasm_nb_tiers; t++)
        for (int k = 0; k < (int)(sizeof(lines) / sizeof(lines[0])); k++)
            checkasm_bench_report("ssim", lines[k].func, lines[k].what,
                                  checkasm_tiers[t]->name, ns[t][k], ns[0][k]);
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
        check_decimation(t, 1);
        check_decimation(t, 0);
        check_window_h(t);
        check_window_v(t);
        check_sums(t);
    }
    if (checkasm_bench)
        bench();
}
