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
 * CAMBI's integer row kernels (cambi_dsp.h) and the plane drivers that
 * call them (preprocess, spatial mask, decimate, mode filter), each SIMD
 * version against the C one.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/features/cambi_dsp.h"

#include "checkasm.h"

#define MAX_W   1920
#define GUARD   64              /* elements checked on each side of outputs */
#define BUF_N   (MAX_W + 2 * GUARD + 64)
#define NB_FILL 7
#define NB_FUNCS 10

static const char *const func_names[NB_FUNCS] = {
    "dither_row_8", "convert_row_16", "zero_deriv", "mask_row",
    "decimate_row", "mode_h", "mode_v", "mask_bits", "hist_add", "hist_sub",
};

/* Sample i for a fill mode: random, 0, max, alternating 0/max (both
 * phases), random among the 3 largest values (ties everywhere: the mode
 * filter's and the derivatives' cases), random runs of equal values. */
static unsigned sample(int mode, size_t i, unsigned max, unsigned *run)
{
    switch (mode) {
    case 0:  return checkasm_rand() & max;
    case 1:  return 0;
    case 2:  return max;
    case 3:  return i & 1 ? max : 0;
    case 4:  return i & 1 ? 0 : max;
    case 5:  return (max - 2) + checkasm_rand_int(3);
    default:
        if (!checkasm_rand_int(6))
            *run = checkasm_rand() & max;
        return *run;
    }
}

static void fill16(uint16_t *b, size_t n, unsigned max, int mode)
{
    unsigned run = 0;
    for (size_t i = 0; i < n; i++)
        b[i] = sample(mode, i, max, &run);
}

static void fill8(uint8_t *b, size_t n, unsigned max, int mode)
{
    unsigned run = 0;
    for (size_t i = 0; i < n; i++)
        b[i] = sample(mode, i, max, &run);
}

/* Random start offsets: 1..31 bytes for 8-bit, 2..30 for 16-bit. */
static int mis8(void)  { return 1 + checkasm_rand_int(31); }
static int mis16(void) { return 1 + checkasm_rand_int(15); }

static int first_diff(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;
    size_t i = 0;
    while (i < n && x[i] == y[i])
        i++;
    return i < n ? (int)i : -1;
}

/* Output buffers of C (c) and SIMD (a), equal guard patterns. */
static uint16_t oc16[BUF_N], oa16[BUF_N];
static uint8_t  oc8[BUF_N], oa8[BUF_N];
/* Inputs. */
static uint16_t in16[4][BUF_N];
static uint8_t  in8[3][BUF_N];

static void reset_out(void)
{
    for (int i = 0; i < BUF_N; i++) {
        oc16[i] = oa16[i] = 0xa5a5 + i;
        oc8[i]  = oa8[i]  = 0x5a + i;
    }
}

static int out_differs(void)
{
    int d16 = first_diff(oc16, oa16, sizeof(oc16));
    int d8  = first_diff(oc8, oa8, sizeof(oc8));
    return d16 >= 0 ? d16 / 2 : d8;
}

/* Column sums of 7 rows of flags (0..7) with 4 zeros on each side, and
 * flag rows add/sub that keep them in 0..7. */
static void fill_mask_inputs(uint16_t *colsum, uint8_t *add, uint8_t *sub,
                             int w, int mode)
{
    for (int j = -4; j < w + 4; j++)
        colsum[j] = 0;
    for (int j = 0; j < w; j++) {
        int after = mode == 1 ? 0 : mode == 2 ? 7 : mode == 5 ? 3 + checkasm_rand_int(2)
                                                              : checkasm_rand_int(8);
        int a = checkasm_rand() & 1, s = checkasm_rand() & 1;
        int before = after - a + s;
        if (before < 0 || before > 7) {
            a = s = 0;
            before = after;
        }
        colsum[j] = before;
        add[j] = a;
        sub[j] = s;
    }
}

static int run_case(int f, const FFVmafCambiDSPContext *c, const FFVmafCambiDSPContext *a,
                    int w, int m, char *what, size_t what_size)
{
    reset_out();
    switch (f) {
    case 0: {   /* dither_row_8 */
        const uint8_t *p = in8[0] + mis8(), *q = checkasm_rand() & 1 ? in8[1] + mis8() : NULL;
        int o = GUARD + mis16();
        fill8(in8[0], BUF_N, 255, m);
        fill8(in8[1], BUF_N, 255, m);
        c->dither_row_8(oc16 + o, p, q, w);
        a->dither_row_8(oa16 + o, p, q, w);
        snprintf(what, what_size, "last row %d", !q);
        break;
    }
    case 1: {   /* convert_row_16: 9, 10, 12, 16 bits */
        static const int bpcs[4] = { 9, 10, 12, 16 };
        int bpc = bpcs[checkasm_rand_int(4)];
        int up = bpc < 10 ? 10 - bpc : 0, down = bpc > 10 ? bpc - 10 : 0;
        const uint16_t *s = in16[0] + mis16();
        int o = GUARD + mis16();
        fill16(in16[0], BUF_N, (1u << bpc) - 1, m);
        c->convert_row_16(oc16 + o, s, w, up, down);
        a->convert_row_16(oa16 + o, s, w, up, down);
        snprintf(what, what_size, "bpc %d", bpc);
        break;
    }
    case 2: {   /* zero_deriv */
        const uint16_t *p = in16[0] + mis16(), *q = checkasm_rand() & 1 ? in16[1] + mis16() : NULL;
        int o = GUARD + mis8();
        fill16(in16[0], BUF_N, 1023, m);
        /* q mostly equal to p for the vertical ties */
        memcpy(in16[1], in16[0], sizeof(in16[1]));
        for (int i = 0; i < BUF_N; i++)
            if (!checkasm_rand_int(4))
                in16[1][i] ^= 1;
        c->zero_deriv(oc8 + o, p, q, w);
        a->zero_deriv(oa8 + o, p, q, w);
        snprintf(what, what_size, "last row %d", !q);
        break;
    }
    case 3: {   /* mask_row: colsum in oc16/oa16, mask in oc8/oa8 */
        int o16 = GUARD + mis16(), o8 = GUARD + mis8(), kind = checkasm_rand_int(4);
        int thr = m == 0 ? checkasm_rand_int(56) - 3 : 7 + checkasm_rand_int(22);
        const uint8_t *add = kind & 1 ? in8[0] + GUARD : NULL;
        const uint8_t *sub = kind & 2 ? in8[1] + GUARD : NULL;
        fill_mask_inputs(oc16 + o16, in8[0] + GUARD, in8[1] + GUARD, w, m);
        if (!add)   /* colsum must stay in 0..7 without the add */
            for (int j = 0; j < w; j++)
                oc16[o16 + j] += in8[0][GUARD + j];
        if (!sub)
            for (int j = 0; j < w; j++)
                oc16[o16 + j] -= in8[1][GUARD + j];
        memcpy(oa16, oc16, sizeof(oa16));
        c->mask_row(oc8 + o8, oc16 + o16, add, sub, w, thr);
        a->mask_row(oa8 + o8, oa16 + o16, add, sub, w, thr);
        snprintf(what, what_size, "add %d sub %d threshold %d", !!add, !!sub, thr);
        break;
    }
    case 4: {   /* decimate_row, out of place or in place */
        int inplace = checkasm_rand() & 1, o16 = GUARD + mis16(), o8 = GUARD + mis8();
        fill16(in16[0], BUF_N, 1023, m);
        fill8(in8[0], BUF_N, 1, m);
        if (inplace) {
            memcpy(oc16 + o16, in16[0], 2 * w);
            memcpy(oa16 + o16, in16[0], 2 * w);
            memcpy(oc8 + o8, in8[0], w);
            memcpy(oa8 + o8, in8[0], w);
            c->decimate_row(oc16 + o16, oc8 + o8, oc16 + o16, oc8 + o8, w);
            a->decimate_row(oa16 + o16, oa8 + o8, oa16 + o16, oa8 + o8, w);
        } else {
            const uint16_t *s = in16[0] + mis16();
            const uint8_t *mk = in8[0] + mis8();
            c->decimate_row(oc16 + o16, oc8 + o8, s, mk, w);
            a->decimate_row(oa16 + o16, oa8 + o8, s, mk, w);
        }
        snprintf(what, what_size, "in place %d", inplace);
        break;
    }
    case 5: {   /* mode_h, 10-bit and full 16-bit values */
        unsigned max = checkasm_rand() & 1 ? 1023 : 65535;
        const uint16_t *s = in16[0] + mis16();
        int o = GUARD + mis16();
        fill16(in16[0], BUF_N, max, m);
        c->mode_h(oc16 + o, s, w);
        a->mode_h(oa16 + o, s, w);
        snprintf(what, what_size, "max %u", max);
        break;
    }
    case 7: {   /* mask_bits: the bits in oc16/oa16 */
        const uint8_t *mk = in8[0] + mis8();
        int o = GUARD + 4 * checkasm_rand_int(4);
        fill8(in8[0], BUF_N, m == 0 ? 255 : 1, m);
        c->mask_bits((uint64_t *)(oc16 + o), mk, w);
        a->mask_bits((uint64_t *)(oa16 + o), mk, w);
        snprintf(what, what_size, "-");
        break;
    }
    case 8:
    case 9: {   /* hist_add then hist_sub: lanes in oc16/oa16 (words from
                 * GUARD on), offsets in in16[2..3] as uint32_t */
        static uint32_t lane_of[FF_VMAF_CAMBI_MAX_SAMPLE + 1];
        static uint16_t lc[1 << 21], la[1 << 21];
        static uint32_t offc[BUF_N], offa[BUF_N];
        int nd = 4, maxv = 20 + checkasm_rand_int(w > 300 ? 100 : 1005), ncols = w + 9;
        int dummy = maxv + nd + 1, nwords = (dummy + 4) / 4 + 1;
        uint32_t dl = (dummy >> 2) * 4 * ncols + (dummy & 3);
        const uint16_t *v = in16[0] + mis16();
        const uint8_t *mk = in8[0] + mis8();
        size_t nl = (size_t)nwords * ncols * 4;
        int d;

        for (int x = 0; x <= FF_VMAF_CAMBI_MAX_SAMPLE; x++) {
            int b = x <= maxv ? x + nd : dummy;
            lane_of[x] = (b >> 2) * 4 * ncols + (b & 3);
        }
        fill16(in16[0], BUF_N, 1023, m);
        fill8(in8[0], BUF_N, 1, (m + w) % NB_FILL);
        for (size_t i = 0; i < nl; i++)
            lc[i] = la[i] = checkasm_rand() & 0xfff;
        c->hist_add(lc, offc, v, mk, lane_of, dl, 4 * 5, w);
        a->hist_add(la, offa, v, mk, lane_of, dl, 4 * 5, w);
        if (f == 8) {
            d = first_diff(lc, la, nl * 2);
            if (d < 0 && (d = first_diff(offc, offa, w * 4)) >= 0)
                d = d / 4 + GUARD;
            snprintf(what, what_size, "maxv %d", maxv);
            return d < 0 ? -1 : GUARD + d / 2;
        }
        memcpy(la, lc, nl * 2);
        c->hist_sub(lc, offc, w);
        a->hist_sub(la, offc, w);
        d = first_diff(lc, la, nl * 2);
        snprintf(what, what_size, "maxv %d", maxv);
        return d < 0 ? -1 : GUARD + d / 2;
    }
    default: {  /* mode_v: rows equal in places */
        unsigned max = checkasm_rand() & 1 ? 1023 : 65535;
        const uint16_t *r[3];
        int o = GUARD + mis16();
        for (int k = 0; k < 3; k++) {
            fill16(in16[k], BUF_N, max, m);
            r[k] = in16[k] + mis16();
        }
        for (int i = 0; i < BUF_N; i++) {
            int x = checkasm_rand_int(4);
            if (x == 1) in16[1][i] = in16[0][i];
            if (x == 2) in16[2][i] = in16[0][i];
            if (x == 3) in16[2][i] = in16[1][i];
        }
        c->mode_v(oc16 + o, r[0], r[1], r[2], w);
        a->mode_v(oa16 + o, r[0], r[1], r[2], w);
        snprintf(what, what_size, "max %u", max);
        break;
    }
    }
    return out_differs();
}

static const void *func_ptr(const FFVmafCambiDSPContext *c, int f)
{
    switch (f) {
    case 0:  return (const void *)c->dither_row_8;
    case 1:  return (const void *)c->convert_row_16;
    case 2:  return (const void *)c->zero_deriv;
    case 3:  return (const void *)c->mask_row;
    case 4:  return (const void *)c->decimate_row;
    case 5:  return (const void *)c->mode_h;
    case 6:  return (const void *)c->mode_v;
    case 7:  return (const void *)c->mask_bits;
    case 8:  return (const void *)c->hist_add;
    default: return (const void *)c->hist_sub;
    }
}

static void check_rows(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    FFVmafCambiDSPContext c, a;

    checkasm_init_tier(0);
    ff_vmaf_cambi_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_cambi_dsp_init(&a);

    for (int f = 0; f < NB_FUNCS; f++) {
        int cases = 0;
        if (func_ptr(&a, f) == func_ptr(&c, f))
            continue;
        for (int wi = 0; checkasm_widths[wi]; wi++) {
            int w = checkasm_widths[wi];
            for (int m = 0; m < NB_FILL; m++) {
                for (int rep = 0; rep < 4; rep++) {
                    char what[96];
                    int d = run_case(f, &c, &a, w, m, what, sizeof(what));
                    if (d >= 0)
                        checkasm_fail("cambi", tier, func_names[f],
                                      "w %d fill %d %s: first difference at element %d",
                                      w, m, what, d - GUARD);
                    cases++;
                }
            }
        }
        checkasm_report("cambi", tier, func_names[f], cases);
    }
}

/* ------------------------------------------------------------------ */
/* The plane drivers through both contexts. */

#define PW 333
#define PH 37

static void check_planes(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    FFVmafCambiDSPContext c, a;
    size_t n = (size_t)(PW + 64) * (PH + 2);
    uint8_t *src = checkasm_malloc(2 * n + 64);
    uint16_t *ic = checkasm_malloc(n * 2), *ia = checkasm_malloc(n * 2);
    uint8_t *mc = checkasm_malloc(n), *ma = checkasm_malloc(n);
    uint16_t *tmp = checkasm_malloc(FF_VMAF_CAMBI_MASK_TMP(PW + 64) * 2);
    int cases = 0;

    checkasm_init_tier(0);
    ff_vmaf_cambi_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_cambi_dsp_init(&a);
    if (!memcmp(&c, &a, sizeof(c)))
        goto end;

    for (int it = 0; it < 60; it++) {
        int w = it < 10 ? 1 + it : 16 + checkasm_rand_int(PW - 16);
        int h = it < 10 ? 3 + it : 3 + checkasm_rand_int(PH - 3);
        int bpc = (int[]){ 8, 10, 12, 16 }[it & 3], m = (it >> 2) % NB_FILL;
        int ad = bpc == 8 || (it & 4);
        ptrdiff_t stride = w + checkasm_rand_int(40);
        ptrdiff_t linesize = (bpc > 8 ? 2 : 1) * (w + checkasm_rand_int(40));
        int thr = ff_vmaf_cambi_mask_threshold(w, h) - 2 + checkasm_rand_int(20);
        const char *step = NULL;

        if (bpc == 8)
            fill8(src, (size_t)linesize * h, 255, m == 0 ? 6 : m);
        else
            fill16((uint16_t *)src, (size_t)linesize / 2 * h, (1u << bpc) - 1, m == 0 ? 6 : m);
        memset(ic, 0x33, n * 2);
        memset(ia, 0x33, n * 2);
        memset(mc, 0x44, n);
        memset(ma, 0x44, n);
        ff_vmaf_cambi_preprocess(&c, ic, stride, w, h, src, linesize, bpc, NULL, NULL, ad);
        ff_vmaf_cambi_preprocess(&a, ia, stride, w, h, src, linesize, bpc, NULL, NULL, ad);
        if (memcmp(ic, ia, n * 2))
            step = "preprocess";
        ff_vmaf_cambi_spatial_mask(&c, mc, stride, ic, stride, w, h, thr, tmp);
        ff_vmaf_cambi_spatial_mask(&a, ma, stride, ia, stride, w, h, thr, tmp);
        if (!step && memcmp(mc, ma, n))
            step = "spatial_mask";
        ff_vmaf_cambi_mode_filter(&c, ic, stride, w, h, tmp);
        ff_vmaf_cambi_mode_filter(&a, ia, stride, w, h, tmp);
        if (!step && memcmp(ic, ia, n * 2))
            step = "mode_filter";
        ff_vmaf_cambi_decimate(&c, ic, stride, mc, stride, w, h);
        ff_vmaf_cambi_decimate(&a, ia, stride, ma, stride, w, h);
        if (!step && (memcmp(ic, ia, n * 2) || memcmp(mc, ma, n)))
            step = "decimate";
        if (step)
            checkasm_fail("cambi", tier, "planes (drivers)", "%s differs: %dx%d bpc %d fill %d",
                          step, w, h, bpc, m);
        cases++;
    }
    checkasm_report("cambi", tier, "planes (drivers)", cases);
end:
    free(src);
    free(ic);
    free(ia);
    free(mc);
    free(ma);
    free(tmp);
}

/* The c-values through both contexts: every value and the top-k sums. */
static void check_c_values(int t)
{
    const char *tier = checkasm_tiers[t]->name;
    enum { CW = 300, CH = 40 };
    static const int weights[FF_VMAF_CAMBI_MAX_DIFFS + 1] = {
        0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
        8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    };
    static uint32_t active[FF_VMAF_CAMBI_MAX_SAMPLE + 1];
    static float recip[FF_VMAF_CAMBI_MAX_AREA + 1];
    static FFVmafCambiTopk stc, sta;
    FFVmafCambiDSPContext c, a;
    uint16_t *img = checkasm_malloc(CW * CH * 2);
    uint8_t *mask = checkasm_malloc(CW * CH);
    float *vc = checkasm_malloc(CW * CH * 4), *va = checkasm_malloc(CW * CH * 4), *vz = checkasm_malloc(CW * CH * 4);
    uint32_t *ttmp = checkasm_malloc(FF_VMAF_CAMBI_TOPK_TMP * sizeof(*ttmp));
    void *tmp = NULL;
    int cases = 0, tk_cases = 0, tk_bad = 0;
    char tk_msg[3][128];

    checkasm_init_tier(0);
    ff_vmaf_cambi_dsp_init(&c);
    checkasm_init_tier(t);
    ff_vmaf_cambi_dsp_init(&a);
    if (c.mask_bits == a.mask_bits && c.hist_add == a.hist_add && c.hist_sub == a.hist_sub)
        goto end;
    ff_vmaf_cambi_recip_init(recip);

    for (int it = 0; it < 80; it++) {
        int w = it < 16 ? 1 + it * 3 : 1 + checkasm_rand_int(CW);
        int h = 1 + checkasm_rand_int(CH);
        int nd = it % 3 == 2 ? 8 : 4, top = 30 + checkasm_rand_int(990);
        int m = it % NB_FILL;
        FFVmafCambiParams p = {
            .window = 2 * checkasm_rand_int(12) + 1, .nb_diffs = nd,
            .max_value = top + nd, .active = active, .weights = weights,
            .recip = recip,
        };
        for (int v = 0; v <= FF_VMAF_CAMBI_MAX_SAMPLE; v++)
            active[v] = v <= top ? (uint32_t)(checkasm_rand() | 1) & ((1u << nd) - 1) : 0;
        /* flat bands of near values, as banding is */
        for (int i = 0; i < w * h; i++)
            img[i] = m == 0 ? (checkasm_rand_int(8) ? (i ? img[i - 1] : 500)
                                                    : 480 + checkasm_rand_int(40))
                            : sample(m, i, 1023, &(unsigned){ 0 });
        fill8(mask, w * h, 1, m == 0 ? 6 : (m + 3) % NB_FILL);
        tmp = realloc(tmp, ff_vmaf_cambi_c_values_tmp_size(w, &p));
        if (!tmp)
            exit(1);
        /* the pixels outside the mask are left as they were */
        memset(vc, 0x7f, (size_t)w * h * 4);
        memset(va, 0x7f, (size_t)w * h * 4);
        ff_vmaf_cambi_c_values(&c, vc, img, w, mask, w, w, h, &p, tmp, &stc);
        ff_vmaf_cambi_c_values(&a, va, img, w, mask, w, w, h, &p, tmp, &sta);
        if (memcmp(vc, va, (size_t)w * h * 4) || memcmp(&stc, &sta, sizeof(stc)))
            checkasm_fail("cambi", tier, "c_values (driver)",
                          "%dx%d window %d nd %d fill %d differs", w, h, p.window, nd, m);
        cases++;

        /* The top-k mean writes the zeros outside the mask when it reads
         * c: the same bits as from a c zeroed beforehand. */
        memset(vz, 0, (size_t)w * h * 4);
        ff_vmaf_cambi_c_values(&c, vz, img, w, mask, w, w, h, &p, tmp, &stc);
        for (int q = 0; q < 5; q++) {
            static const double topks[5] = { 0.0001, 0.01, 0.1, 0.6, 1.0 };
            double m1, m2;
            memcpy(va, vc, (size_t)w * h * 4);
            m1 = ff_vmaf_cambi_topk_mean(va, w, h, mask, w, topks[q], &stc, ttmp);
            memcpy(va, vz, (size_t)w * h * 4);
            m2 = ff_vmaf_cambi_topk_mean(va, w, h, mask, w, topks[q], &stc, ttmp);
            /* reported after the c-value report, which ends its own count */
            if (memcmp(&m1, &m2, sizeof(m1)) && tk_bad < 3)
                snprintf(tk_msg[tk_bad++], sizeof(tk_msg[0]), "%dx%d topk %g: %a, zeroed c %a",
                         w, h, topks[q], m1, m2);
            tk_cases++;
        }
    }
    checkasm_report("cambi", tier, "c_values (driver)", cases);
    for (int i = 0; i < tk_bad; i++)
        checkasm_fail("cambi", tier, "topk_mean (lazy zeros)", "%s", tk_msg[i]);
    checkasm_report("cambi", tier, "topk_mean (lazy zeros)", tk_cases);
end:
    free(vz);
    free(ttmp);
    free(img);
    free(mask);
    free(vc);
    free(va);
    free(tmp);
}

/* ------------------------------------------------------------------ */

#define BW 1920
#define BH 1080
#define NB_BENCH 16

static void bench(void)
{
    size_t n = (size_t)BW * BH;
    uint8_t *src8 = checkasm_malloc(n + 64), *mask = checkasm_malloc(n);
    uint16_t *src16 = checkasm_malloc(2 * n), *img = checkasm_malloc(2 * n);
    uint16_t *tmp = checkasm_malloc(FF_VMAF_CAMBI_MASK_TMP(BW) * 2);
    FFVmafCambiDSPContext ctx[8];
    double ns[8][NB_BENCH];
    volatile int sink = 0;
    int nb = checkasm_nb_tiers < 8 ? checkasm_nb_tiers : 8;
    static const char *const names[NB_BENCH] = {
        "dither_row_8", "convert_row_16", "zero_deriv", "mask_row", "decimate_row",
        "mode_h", "mode_v", "preprocess (driver)", "preprocess (driver)",
        "spatial_mask (driver)", "mode_filter (driver)", "decimate (driver)",
        "mask_bits", "hist_add", "hist_sub", "c_values (driver)",
    };
    static const char *const whats[NB_BENCH] = {
        "1920 row", "1920 row 10-bit", "1920 row", "1920 row", "1920 row",
        "1920 row", "1920 row", "8-bit 1080p", "10-bit 1080p", "1080p",
        "1080p", "1080p", "1920 row", "1920 row", "1920 row", "1080p, window 33",
    };

    static uint32_t lane_of[FF_VMAF_CAMBI_MAX_SAMPLE + 1], active[FF_VMAF_CAMBI_MAX_SAMPLE + 1];
    static float recip[FF_VMAF_CAMBI_MAX_AREA + 1];
    static const int weights[5] = { 0, 1, 2, 3, 4 };
    static FFVmafCambiTopk st;
    FFVmafCambiParams p = {
        .window = 33, .nb_diffs = 4, .max_value = 704, .active = active,
        .weights = weights, .recip = recip,
    };
    const int ncols = BW + 33, dummy = 709;
    const uint32_t dl = (dummy >> 2) * 4 * ncols + (dummy & 3);
    uint64_t *bits = checkasm_malloc(BW / 8);
    uint32_t *off = checkasm_malloc(BW * 4);
    uint16_t *lanes = checkasm_malloc((size_t)(dummy / 4 + 2) * ncols * 8);
    float *cv = checkasm_malloc(n * 4);
    uint8_t *cmask = checkasm_malloc(n);
    void *ctmp = checkasm_malloc(ff_vmaf_cambi_c_values_tmp_size(BW, &p));

    for (int x = 0; x <= FF_VMAF_CAMBI_MAX_SAMPLE; x++) {
        int b = x <= 700 ? x + 4 : dummy;
        lane_of[x] = (b >> 2) * 4 * ncols + (b & 3);
        active[x] = x <= 700 ? 15 : 0;
    }
    ff_vmaf_cambi_recip_init(recip);
    memset(lanes, 0, (size_t)(dummy / 4 + 2) * ncols * 8);
    /* the histogram rows' mask: masked in 3 of 4 runs of 64 pixels */
    for (int j = 0; j < BW; j++)
        mask[4 * BW + j] = (j / 64) % 4 != 0;
    checkasm_fill8(src8, n + 64);
    checkasm_fill16(src16, n, 10);
    /* flat patches, as the masked areas are */
    for (size_t i = 0; i < n; i++)
        if ((i / 7) % 3)
            src16[i] = src16[i - i % 7];
    /* the c-values of a smooth gradient in 10 bits, flat bands of 40 columns,
     * masked in 3/4 of 64-pixel blocks */
    {
        uint16_t *g = checkasm_malloc(2 * n);
        for (size_t i = 0; i < n; i++) {
            g[i] = 300 + (i % BW) / 40 + (i / BW) / 90;
            cmask[i] = ((i % BW) / 64 + (i / BW) / 64) % 4 != 0;
        }
        memcpy(img, g, 2 * n);
        free(g);
    }
    for (int t = 0; t < nb; t++) {
        FFVmafCambiDSPContext *c = &ctx[t];
        checkasm_init_tier(t);
        ff_vmaf_cambi_dsp_init(c);
        memset(tmp, 0, FF_VMAF_CAMBI_MASK_TMP(BW) * 2);
        for (int j = 0; j < BW; j++) {
            tmp[4 + j] = checkasm_rand_int(8);
            mask[j] = checkasm_rand() & 1;
        }
        CHECKASM_TIME(ns[t][0], c->dither_row_8(img, src8, src8 + BW, BW));
        CHECKASM_TIME(ns[t][1], c->convert_row_16(img, src16, BW, 0, 0));
        CHECKASM_TIME(ns[t][2], c->zero_deriv(mask + BW, src16, src16 + BW, BW));
        CHECKASM_TIME(ns[t][3], c->mask_row(mask + 2 * BW, tmp + 4, NULL, NULL, BW, 12));
        CHECKASM_TIME(ns[t][4], c->decimate_row(img, mask + 3 * BW, src16, mask, BW));
        CHECKASM_TIME(ns[t][5], c->mode_h(img, src16, BW));
        CHECKASM_TIME(ns[t][6], c->mode_v(img, src16, src16 + BW, src16 + 2 * BW, BW));
        CHECKASM_TIME(ns[t][7], ff_vmaf_cambi_preprocess(c, img, BW, BW, BH, src8, BW, 8,
                                                         NULL, NULL, 1));
        CHECKASM_TIME(ns[t][8], ff_vmaf_cambi_preprocess(c, img, BW, BW, BH, (uint8_t *)src16,
                                                         2 * BW, 10, NULL, NULL, 0));
        CHECKASM_TIME(ns[t][9], ff_vmaf_cambi_spatial_mask(c, mask, BW, src16, BW, BW, BH,
                                                           12, tmp));
        memcpy(img, src16, 2 * n);
        CHECKASM_TIME(ns[t][10], ff_vmaf_cambi_mode_filter(c, img, BW, BW, BH, tmp));
        CHECKASM_TIME(ns[t][11], ff_vmaf_cambi_decimate(c, img, BW, mask, BW, BW, BH));
        CHECKASM_TIME(ns[t][12], c->mask_bits(bits, mask, BW));
        CHECKASM_TIME(ns[t][13], c->hist_add(lanes, off, src16, mask + 4 * BW, lane_of,
                                             dl, 4 * 17, BW));
        CHECKASM_TIME(ns[t][14], c->hist_sub(lanes, off, BW));
        c->hist_add(lanes, off, src16, mask + 4 * BW, lane_of, dl, 4 * 17, BW);
        for (size_t i = 0; i < n; i++)
            img[i] = 300 + (i % BW) / 40 + (i / BW) / 90;
        CHECKASM_TIME(ns[t][15], ff_vmaf_cambi_c_values(c, cv, img, BW, cmask, BW, BW, BH,
                                                        &p, ctmp, &st));
        sink += img[0];
    }
    for (int t = 1; t < nb; t++)
        for (int k = 0; k < NB_BENCH; k++)
            checkasm_bench_report("cambi", names[k], whats[k], checkasm_tiers[t]->name,
                                  ns[t][k], ns[0][k]);
    free(bits);
    free(off);
    free(lanes);
    free(cv);
    free(cmask);
    free(ctmp);
    free(src8);
    free(mask);
    free(src16);
    free(img);
    free(tmp);
}

void checkasm_check_cambi(void)
{
    for (int t = 1; t < checkasm_nb_tiers; t++) {
        check_rows(t);
        check_planes(t);
        check_c_values(t);
    }
    if (checkasm_bench)
        bench();
    checkasm_init_tier(-1);
}
