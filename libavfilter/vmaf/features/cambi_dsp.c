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
 * CAMBI kernels, plain C.
 *
 * The c-value of a pixel needs, for its value v, the number of masked
 * pixels of value v and v ± d (d = 1..nb_diffs) in the window around it.
 * Instead of libvmaf's histograms per column range (a window's worth of
 * updates for every pixel that enters or leaves), this keeps one histogram
 * per image column over the rows of the window (one update per pixel that
 * enters or leaves) and, along each row, a running horizontal sum of just
 * the few bins around the current value, four 16-bit counts per 64-bit
 * word. In flat areas, where the masked pixels are, consecutive pixels
 * need the same bins: two reads per word and pixel, and when the columns
 * that enter and leave carry the same counts, the previous c-value is
 * reused as it is.
 */

#include <stdint.h>
#include <string.h>

#include "config.h"

#include "libavutil/attributes.h"
#include "libavutil/intmath.h"
#include "libavutil/macros.h"

#include "cambi_dsp.h"

/* The entries of libvmaf's reciprocal table that differ from 1/i rounded
 * to float (one ulp each). */
static const struct {
    uint16_t i;
    float r;
} recip_fixes[] = {
    {   82, 0x1.8f9c1ap-7f  }, {   83, 0x1.8acb92p-7f  }, {  244, 0x1.0c9716p-8f  },
    {  488, 0x1.0c9716p-9f  }, {  504, 0x1.04104p-9f   }, {  510, 0x1.0101p-9f    },
    {  528, 0x1.f07c1ep-10f }, {  564, 0x1.d0cb5ap-10f }, {  614, 0x1.aaf1d4p-10f },
    {  664, 0x1.8acb92p-10f }, {  749, 0x1.5dfdf2p-10f }, {  760, 0x1.58ed22p-10f },
    {  892, 0x1.25e226p-10f }, { 1419, 0x1.717a24p-11f }, { 1699, 0x1.349614p-11f },
    { 1906, 0x1.13128ap-11f }, { 2040, 0x1.0101p-11f   }, { 2071, 0x1.fa5058p-12f },
    { 2112, 0x1.f07c1ep-12f }, { 2223, 0x1.d7b1bp-12f  }, { 2443, 0x1.ad377p-12f  },
    { 2555, 0x1.9a66ccp-12f }, { 2740, 0x1.7eb126p-12f }, { 2927, 0x1.663e18p-12f },
    { 3285, 0x1.3f3382p-12f }, { 3515, 0x1.2a508cp-12f }, { 3525, 0x1.2977e6p-12f },
    { 3705, 0x1.1b0436p-12f }, { 3795, 0x1.144dfap-12f }, { 3797, 0x1.1428b8p-12f },
    { 3812, 0x1.13128ap-12f }, { 3837, 0x1.1147b8p-12f }, { 3885, 0x1.0de75ap-12f },
    { 4033, 0x1.03ffbep-12f }, { 4080, 0x1.0101p-12f   }, { 4091, 0x1.005018p-12f },
    { 4095, 0x1.001p-12f    }, { 4130, 0x1.fbc8f6p-13f }, { 4142, 0x1.fa5058p-13f },
    { 4203, 0x1.f2f72ap-13f }, { 4218, 0x1.f130eap-13f }, { 4224, 0x1.f07c1ep-13f },
};

void ff_vmaf_cambi_recip_init(float *tab)
{
    tab[0] = 0.0f;
    for (int i = 1; i <= FF_VMAF_CAMBI_MAX_AREA; i++)
        tab[i] = 1.0f / (float)i;
    for (size_t k = 0; k < sizeof(recip_fixes) / sizeof(recip_fixes[0]); k++)
        tab[recip_fixes[k].i] = recip_fixes[k].r;
}

void ff_vmaf_cambi_resample_map(int *map, int in, int out)
{
    /* The position is a float advanced by a float step, as libvmaf does;
     * the rounding offset is added in double. */
    float ratio = (float)in / (float)out;
    float x = ratio / 2.0f - 0.5f;

    for (int k = 0; k < out; k++) {
        int idx = (int)((double)x + 0.5);
        map[k] = idx < 0 ? 0 : idx >= in ? in - 1 : idx;
        x += ratio;
    }
}

/* Row i of the picture in 10 bits. */
static void convert_row(const FFVmafCambiDSPContext *dsp,
                        uint16_t *dst, int w, const uint8_t *src,
                        ptrdiff_t linesize, int bpc, const int *xmap,
                        const int *ymap, int i)
{
    /* 12 and 16 bits round to 10; 9 bits (not a libvmaf depth) shifts up. */
    int down = bpc > 10 ? bpc - 10 : 0;
    int up   = bpc < 10 ? 10 - bpc : 0;
    int rnd  = down ? 1 << (down - 1) : 0;
    const uint8_t *row = src + (ymap ? ymap[i] : i) * linesize;

    if (bpc == 8) {
        if (xmap)
            for (int j = 0; j < w; j++)
                dst[j] = row[xmap[j]] << 2;
        else
            for (int j = 0; j < w; j++)
                dst[j] = row[j] << 2;
    } else {
        const uint16_t *r16 = (const uint16_t *)row;
        if (xmap)
            for (int j = 0; j < w; j++)
                dst[j] = ((r16[xmap[j]] << up) + rnd) >> down;
        else
            dsp->convert_row_16(dst, r16, w, up, down);
    }
}

/* The 2x2 average of row p with the (still unfiltered) row q below it,
 * in place; every sum reads samples to the right and below, which are not
 * yet overwritten. q == NULL: the last row, averaged horizontally. */
static void anti_dither_row(uint16_t *p, const uint16_t *q, int w)
{
    if (q) {
        for (int j = 0; j < w - 1; j++)
            p[j] = (p[j] + p[j + 1] + q[j] + q[j + 1]) >> 2;
        p[w - 1] = (p[w - 1] + q[w - 1]) >> 1;
    } else {
        for (int j = 0; j < w - 1; j++)
            p[j] = (p[j] + p[j + 1]) >> 1;
    }
}

static void convert_row_16_c(uint16_t *dst, const uint16_t *src, int w,
                             int up, int down)
{
    int rnd = down ? 1 << (down - 1) : 0;
    for (int j = 0; j < w; j++)
        dst[j] = ((src[j] << up) + rnd) >> down;
}

static void dither_row_8_c(uint16_t *dst, const uint8_t *p, const uint8_t *q, int w)
{
    if (q) {
        for (int j = 0; j < w - 1; j++)
            dst[j] = p[j] + p[j + 1] + q[j] + q[j + 1];
        dst[w - 1] = (p[w - 1] + q[w - 1]) << 1;
    } else {
        for (int j = 0; j < w - 1; j++)
            dst[j] = (p[j] + p[j + 1]) << 1;
        dst[w - 1] = p[w - 1] << 2;
    }
}

void ff_vmaf_cambi_preprocess(const FFVmafCambiDSPContext *dsp,
                              uint16_t *dst, ptrdiff_t stride, int w, int h,
                              const uint8_t *src, ptrdiff_t linesize, int bpc,
                              const int *xmap, const int *ymap, int anti_dither)
{
    /* 8 bits at the input size with the filter: the sum of four samples
     * shifted up by 2 and down by 2, straight from the input. */
    if (bpc == 8 && anti_dither && !xmap && !ymap) {
        for (int i = 0; i < h; i++, dst += stride) {
            const uint8_t *p = src + i * linesize;
            dsp->dither_row_8(dst, p, i + 1 < h ? p + linesize : NULL, w);
        }
        return;
    }
    /* Otherwise row by row, filtering each row as soon as the one below
     * it is converted. */
    convert_row(dsp, dst, w, src, linesize, bpc, xmap, ymap, 0);
    for (int i = 0; i < h; i++, dst += stride) {
        if (i + 1 < h)
            convert_row(dsp, dst + stride, w, src, linesize, bpc, xmap, ymap, i + 1);
        if (anti_dither)
            anti_dither_row(dst, i + 1 < h ? dst + stride : NULL, w);
    }
}

static int ceil_log2(unsigned n)
{
    int k = 0;
    while (k < 32 && (1u << k) < n)
        k++;
    return k;
}

int ff_vmaf_cambi_mask_threshold(int w, int h)
{
    /* 7x7 window; the count needed grows with the log of the frame area. */
    int n = (w >> 6) * (h >> 6);
    return (7 * 7 + 3 * (ceil_log2(n) - 11) - 1) >> 1;
}

/* Flags of row r: zero forward derivative both ways (the last column and
 * row compare in one direction only). */
static void zero_deriv_c(uint8_t *z, const uint16_t *p, const uint16_t *q, int w)
{
    if (q) {
        for (int j = 0; j < w - 1; j++)
            z[j] = (p[j] == p[j + 1]) & (p[j] == q[j]);
        z[w - 1] = p[w - 1] == q[w - 1];
    } else {
        for (int j = 0; j < w - 1; j++)
            z[j] = p[j] == p[j + 1];
        z[w - 1] = 1;
    }
}

static void zero_deriv_row(const FFVmafCambiDSPContext *dsp, uint8_t *z,
                           const uint16_t *img, ptrdiff_t stride, int w, int h, int r)
{
    const uint16_t *p = img + r * stride;
    dsp->zero_deriv(z, p, r + 1 < h ? p + stride : NULL, w);
}

static void mask_row_c(uint8_t *mask, uint16_t *colsum, const uint8_t *add,
                       const uint8_t *sub, int w, int threshold)
{
    int sum = 0;

    if (add && sub)
        for (int j = 0; j < w; j++)
            colsum[j] += add[j] - sub[j];
    else if (add)
        for (int j = 0; j < w; j++)
            colsum[j] += add[j];
    else if (sub)
        for (int j = 0; j < w; j++)
            colsum[j] -= sub[j];
    for (int j = -4; j < 3; j++)
        sum += colsum[j];
    for (int j = 0; j < w; j++) {
        sum += colsum[j + 3] - colsum[j - 4];
        mask[j] = sum > threshold;
    }
}

void ff_vmaf_cambi_spatial_mask(const FFVmafCambiDSPContext *dsp,
                                uint8_t *mask, ptrdiff_t mstride,
                                const uint16_t *img, ptrdiff_t stride,
                                int w, int h, int threshold, uint16_t *tmp)
{
    /* Flags of rows i - 3 .. i + 3 summed per column, with four zero
     * columns on each side so that the 7-wide running sum needs no
     * checks; the flag rows themselves in a ring of 8. */
    uint16_t *colsum = tmp + 4;
    uint8_t *ring = (uint8_t *)(tmp + w + 8);

    memset(tmp, 0, (w + 8) * sizeof(*tmp));
    for (int r = 0; r < 3 && r < h; r++) {
        uint8_t *z = ring + r * w;
        zero_deriv_row(dsp, z, img, stride, w, h, r);
        for (int j = 0; j < w; j++)
            colsum[j] += z[j];
    }

    for (int i = 0; i < h; i++, mask += mstride) {
        const uint8_t *old = ring + ((i - 4) & 7) * w;
        uint8_t *z = ring + ((i + 3) & 7) * w;

        if (i + 3 < h)
            zero_deriv_row(dsp, z, img, stride, w, h, i + 3);
        dsp->mask_row(mask, colsum, i + 3 < h ? z : NULL, i - 4 >= 0 ? old : NULL,
                      w, threshold);
    }
}

static void decimate_row_c(uint16_t *d, uint8_t *dm, const uint16_t *s,
                           const uint8_t *m, int w)
{
    for (int j = 0; j < (w + 1) >> 1; j++) {
        d[j]  = s[2 * j];
        dm[j] = m[2 * j];
    }
}

void ff_vmaf_cambi_decimate(const FFVmafCambiDSPContext *dsp,
                            uint16_t *img, ptrdiff_t stride,
                            uint8_t *mask, ptrdiff_t mstride, int w, int h)
{
    /* In place: (i, j) never lies after (2i, 2j), and every later read is
     * after every earlier write. */
    int oh = (h + 1) >> 1;

    for (int i = 0; i < oh; i++)
        dsp->decimate_row(img + i * stride, mask + i * mstride,
                          img + 2 * i * stride, mask + 2 * i * mstride, w);
}

/* The value two of a, b, c share, else the smallest. */
static av_always_inline int mode3(int a, int b, int c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    return FFMIN(FFMIN(a, b), c);
}

static void mode_h_c(uint16_t *dst, const uint16_t *src, int w)
{
    dst[0] = src[0];
    for (int j = 1; j < w - 1; j++)
        dst[j] = mode3(src[j - 1], src[j], src[j + 1]);
    dst[w - 1] = src[w - 1];
}

static void mode_v_c(uint16_t *dst, const uint16_t *a, const uint16_t *b,
                     const uint16_t *c, int w)
{
    for (int j = 0; j < w; j++)
        dst[j] = mode3(a[j], b[j], c[j]);
}

void ff_vmaf_cambi_mode_filter(const FFVmafCambiDSPContext *dsp,
                               uint16_t *img, ptrdiff_t stride, int w, int h,
                               uint16_t *tmp)
{
    /* Three horizontally filtered rows of the original image; row r is
     * overwritten only after its filtered copy is in tmp. */
    uint16_t *rows[3] = { tmp, tmp + w, tmp + 2 * w };

    if (h < 3)
        return;
    dsp->mode_h(rows[0], img, w);
    dsp->mode_h(rows[1], img + stride, w);
    for (int r = 1; r < h - 1; r++) {
        const uint16_t *a = rows[(r - 1) % 3], *b = rows[r % 3];
        uint16_t *c = rows[(r + 1) % 3];
        dsp->mode_h(c, img + (r + 1) * stride, w);
        dsp->mode_v(img + r * stride, a, b, c, w);
    }
}

static void mask_bits_c(uint64_t *bits, const uint8_t *m, int w)
{
    memset(bits, 0, (w + 63) / 64 * sizeof(*bits));
    for (int j = 0; j < w; j++)
        bits[j >> 6] |= (uint64_t)(m[j] != 0) << (j & 63);
}

static void hist_add_c(uint16_t *lanes, uint32_t *off, const uint16_t *v,
                       const uint8_t *m, const uint32_t *lane_of,
                       uint32_t dummy, uint32_t base, int w)
{
    for (int j = 0; j < w; j++) {
        off[j] = (m[j] ? lane_of[v[j]] : dummy) + base + 4 * j;
        lanes[off[j]]++;
    }
}

static void hist_sub_c(uint16_t *lanes, const uint32_t *off, int w)
{
    for (int j = 0; j < w; j++)
        lanes[off[j]]--;
}

av_cold void ff_vmaf_cambi_dsp_init(FFVmafCambiDSPContext *c)
{
    c->dither_row_8   = dither_row_8_c;
    c->convert_row_16 = convert_row_16_c;
    c->zero_deriv     = zero_deriv_c;
    c->mask_row       = mask_row_c;
    c->decimate_row   = decimate_row_c;
    c->mode_h         = mode_h_c;
    c->mode_v         = mode_v_c;
    c->mask_bits      = mask_bits_c;
    c->hist_add       = hist_add_c;
    c->hist_sub       = hist_sub_c;
#if ARCH_X86_64
    ff_vmaf_cambi_dsp_init_x86(c);
#endif
}

/*
 * Top-k statistics, gathered while the c-values are written. A c-value is
 * 0 or at least 0.5 (w·p0·pm/(p0 + pm) with p0, pm >= 1) and below 2^14,
 * so it is an integer multiple of 2^-24 and the top 16 bits of a nonzero
 * one lie in [TOPK_LO, TOPK_LO + FF_VMAF_CAMBI_TOPK_BINS).
 */
#define TOPK_LO (126 << 7)

static inline uint64_t fixed24(uint32_t u)
{
    return (uint64_t)((u & 0x7fffff) | 0x800000) << ((u >> 23) - 126);
}

static inline uint32_t float_bits(float f)
{
    union { float f; uint32_t u; } x = { .f = f };
    return x.u;
}

/* Count nb nonzero c-values of bits u. */
static inline void topk_add(FFVmafCambiTopk *st, uint32_t u, int nb)
{
    uint32_t bin = (u >> 16) - TOPK_LO;
    if (bin >= FF_VMAF_CAMBI_TOPK_BINS) {
        st->out_of_range = 1;
        return;
    }
    st->hist[bin] += nb;
    st->total     += nb * fixed24(u);
    st->nonzero   += nb;
}

/*
 * The column histograms count, per image column, the masked pixels of each
 * value in the rows of the window. Four consecutive bins form a uint64_t
 * word of uint16_t lanes, and words are stored bin-word-major: word q of
 * every column in a row of memory, so that a pixel's window sums, slid
 * along the image row, read each word row sequentially.
 *
 * Per image row, the running window sums cover a block of nw words: the
 * words holding the 2 * nd + 1 bins a pixel needs plus one word of slack,
 * so that values drifting by a few codes keep most of the block. They are
 * updated a word at a time: a lane never exceeds window² <= 4225 and never
 * goes below zero, so no carry or borrow crosses lanes.
 */
#define NEED_WORDS(nd)  ((2 * (nd) + 3 + 3) >> 2)
#define MAX_WORDS       (NEED_WORDS(FF_VMAF_CAMBI_MAX_DIFFS) + 1)

/* Words per column: bin v + nd counts value v (values down to -nd are
 * asked for), a dummy bin takes the values never asked for, and a block
 * may start at the word of any needed value. */
static int nb_words(const FFVmafCambiParams *p)
{
    int nw = NEED_WORDS(p->nb_diffs) + 1;
    return (p->max_value + 2 * p->nb_diffs + 2 + 3) / 4 + nw;
}

size_t ff_vmaf_cambi_c_values_tmp_size(int w, const FFVmafCambiParams *p)
{
    /* column histograms, the mask bits of a row, the lane offsets of the
     * rows in the window and the lane of each value */
    return (size_t)(w + p->window) * nb_words(p) * sizeof(uint64_t) +
           (size_t)(w + 63) / 64 * sizeof(uint64_t) +
           ((size_t)(p->window + 1) * w + FF_VMAF_CAMBI_MAX_SAMPLE + 1) *
           sizeof(uint32_t);
}

typedef union Block {
    uint64_t w[MAX_WORDS];
    uint16_t lane[4 * MAX_WORDS];
} Block;

/* Window sum of word q at image column j (histogram columns j + 1 ..
 * j + ws), summed afresh. */
static inline uint64_t word_sum(const uint64_t *hist, int ncols, int ws, int j, int q)
{
    const uint64_t *h = hist + (size_t)q * ncols + j + 1;
    uint64_t sum = 0;
    for (int x = 0; x < ws; x++)
        sum += h[x];
    return sum;
}

static av_always_inline
void c_values_row(float *c, const uint16_t *v, const uint64_t *bits, int w,
                  const uint64_t *hist, int ncols, int ws, const int nd,
                  const int nw, const FFVmafCambiParams *p,
                  FFVmafCambiTopk *st)
{
    const uint32_t *active = p->active;
    const uint32_t all = nd >= 32 ? UINT32_MAX : (UINT32_C(1) << nd) - 1;
    const int *wt = p->weights;
    const float *recip = p->recip;
    Block blk;
    /* blk holds words wlo.. at column pos, the last pixel scored, whose
     * value and c-value were last_v and last_c; same counts the pixels
     * since then that repeated it */
    int wlo = -1, pos = -2, last_v = -1, same = 0;
    float last_c = 0.0f;

    /* the masked pixels, from their bits; c is left unwritten elsewhere
     * (see ff_vmaf_cambi_topk_mean()) */
    for (int k = 0; k < (w + 63) >> 6; k++)
    for (uint64_t left = bits[k]; left; left &= left - 1) {
        const int j = (k << 6) + ff_ctzll(left);
        const uint16_t *cnt;
        uint32_t act;
        int vj, qlo, qhi, p0;
        float cmax;

        if (!(act = active[vj = v[j]])) {
            c[j] = 0.0f;
            continue;
        }
        if (j == pos + 1) {
            /* Slide by one column. In flat areas the columns that enter
             * and leave often carry the same counts: then nothing changed
             * since the previous pixel and, at the same value, neither did
             * its c-value. */
            const uint64_t *h = hist + (size_t)wlo * ncols + j;
            uint64_t changed = 0;
            for (int k = 0; k < nw; k++, h += ncols) {
                uint64_t add = h[ws], sub = h[0];
                blk.w[k] += add - sub;
                changed |= add ^ sub;
            }
            pos = j;
            if (!changed && vj == last_v) {
                c[j] = last_c;
                same++;
                continue;
            }
        } else if (wlo < 0 || 2 * (j - pos) > ws) {
            /* nothing usable: sum the whole block afresh */
            wlo = vj >> 2;
            for (int k = 0; k < nw; k++)
                blk.w[k] = word_sum(hist, ncols, ws, j, wlo + k);
        } else {
            const uint64_t *h = hist + (size_t)wlo * ncols;
            for (int k = 0; k < nw; k++, h += ncols)
                for (int x = pos + 1; x <= j; x++)
                    blk.w[k] += h[x + ws] - h[x];
        }
        pos = j;

        qlo = vj >> 2;
        qhi = (vj + 2 * nd) >> 2;
        if (qlo < wlo || qhi >= wlo + nw) {
            /* Move the block: keep the slack on the side the values go
             * to, reuse the words that stay, sum the new ones. */
            int nlo = qlo < wlo ? FFMAX(qhi - nw + 1, 0) : qlo;
            int shift = nlo - wlo;
            Block old = blk;
            for (int k = 0; k < nw; k++) {
                int o = k + shift;
                blk.w[k] = o >= 0 && o < nw ? old.w[o]
                                            : word_sum(hist, ncols, ws, j, nlo + k);
            }
            wlo = nlo;
        }

        /* max over the steps of w·p0·pm/(p0 + pm) with libvmaf's float
         * reciprocal; a step with no neighbours gives 0. cnt[d] counts
         * value vj + d. */
        cnt  = blk.lane + vj + nd - 4 * wlo;
        p0   = cnt[0];
        cmax = 0.0f;
        for (int d = 1; d <= nd; d++) {
            int pm = cnt[d] > cnt[-d] ? cnt[d] : cnt[-d];
            float val;
            if (act != all && !(act >> (d - 1) & 1))
                continue;
            val = (float)(wt[d] * p0 * pm) * recip[p0 + pm];
            cmax = val > cmax ? val : cmax;
        }
        if (same && last_c != 0.0f)
            topk_add(st, float_bits(last_c), same);
        same   = 1;
        last_v = vj;
        last_c = cmax;
        c[j]   = cmax;
    }
    if (same && last_c != 0.0f)
        topk_add(st, float_bits(last_c), same);
}

void ff_vmaf_cambi_c_values(const FFVmafCambiDSPContext *dsp, float *c, const uint16_t *img, ptrdiff_t stride,
                            const uint8_t *mask, ptrdiff_t mstride,
                            int w, int h, const FFVmafCambiParams *p,
                            void *tmp, FFVmafCambiTopk *st)
{
    const int ws = p->window, pad = ws >> 1, nd = p->nb_diffs;
    const int maxv = p->max_value, ncols = w + ws;
    /* Histogram column k holds image column k - pad - 1: the window around
     * column j is k = j + 1 .. j + ws, and the columns beyond the image
     * stay empty. */
    uint64_t *hist = tmp;
    uint16_t *lanes = (uint16_t *)hist;
    /* Lane of each pixel of rows r, in ring[r % (ws + 1)] while r is in
     * the window: that of its value if masked, else that of a dummy bin,
     * which also takes the values never asked for. */
    uint64_t *bits = hist + (size_t)ncols * nb_words(p);
    uint32_t *ring = (uint32_t *)(bits + (w + 63) / 64);
    /* lane of each sample value in histogram column 0 */
    uint32_t *lane_of = ring + (size_t)(ws + 1) * w;
    const int dummy = maxv + nd + 1;
    const uint32_t dummy_lane = (dummy >> 2) * 4 * ncols + (dummy & 3);

    for (int x = 0; x <= FF_VMAF_CAMBI_MAX_SAMPLE; x++) {
        int b = x <= maxv ? x + nd : dummy;
        lane_of[x] = (b >> 2) * 4 * ncols + (b & 3);
    }
    memset(st, 0, sizeof(*st));
    memset(hist, 0, (size_t)ncols * nb_words(p) * sizeof(*hist));

    for (int i = -pad; i < h; i++) {
        int add = i + pad, rem = i - pad - 1;
        if (add < h) {
            const uint16_t *v = img + add * stride;
            const uint8_t *m = mask + add * mstride;
            uint32_t *off = ring + (add % (ws + 1)) * w;
            dsp->hist_add(lanes, off, v, m, lane_of, dummy_lane, 4 * (pad + 1), w);
        }
        if (rem >= 0)
            dsp->hist_sub(lanes, ring + (rem % (ws + 1)) * w, w);
        if (i < 0)
            continue;
        dsp->mask_bits(bits, mask + i * mstride, w);
        /* The default four contrast steps get a specialised copy. */
        if (nd == 4)
            c_values_row(c + (size_t)i * w, img + i * stride, bits,
                         w, hist, ncols, ws, 4, 4, p, st);
        else
            c_values_row(c + (size_t)i * w, img + i * stride, bits,
                         w, hist, ncols, ws, nd, NEED_WORDS(nd) + 1, p, st);
    }
}

/*
 * libvmaf's ordering of the top k: a Hoare quickselect for index k in
 * descending order, then a sequential double sum of a[0..k-1]. Used only
 * when the order can change the sum's bits.
 */
static double topk_sum_select(float *a, int n, int k)
{
    int left = 0, right = n - 1;
    double sum = 0.0;

    while (left < right) {
        float pivot = a[k];
        int i = left, j = right;
        do {
            while (a[i] > pivot)
                i++;
            while (a[j] < pivot)
                j--;
            if (i <= j) {
                float t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < k)
            left = i;
        if (k < i)
            right = j;
    }
    for (int i = 0; i < k; i++)
        sum += a[i];
    return sum;
}

/* The zeros of the pixels outside the mask, which the c-values leave out:
 * most frames need no pass over c at all. */
static void zero_unmasked(float *c, int w, int h, const uint8_t *mask,
                          ptrdiff_t mstride)
{
    for (int i = 0; i < h; i++, c += w, mask += mstride)
        for (int j = 0; j < w; j++)
            if (!mask[j])
                c[j] = 0.0f;
}

double ff_vmaf_cambi_topk_mean(float *c, int w, int h, const uint8_t *mask,
                               ptrdiff_t mstride, double topk,
                               const FFVmafCambiTopk *st, uint32_t *tmp)
{
    int n = w * h, k = (int)(topk * n);
    uint64_t sum = 0;

    k = k < 1 ? 1 : k > n ? n : k;
    if (st->out_of_range) {
        zero_unmasked(c, w, h, mask, mstride);
        return topk_sum_select(c, n, k) / k;
    }

    /*
     * Pick the top k by radix on the float bits and add them exactly in
     * 2^-24 units. Every partial sum of libvmaf's is then exact too
     * (nonnegative multiples of 2^-24 below 2^29), so its order does not
     * matter and the bits are the same.
     */
    if (st->nonzero <= k) {
        /* the zeros fill up the rest */
        sum = st->total;
    } else {
        /* The k-th largest lies in the top-16-bit bin `bin`: add what lies
         * above it, and the largest of that bin by their low 16 bits. */
        uint32_t *hist2 = tmp;
        int bin, above = 0, taken;

        zero_unmasked(c, w, h, mask, mstride);
        for (bin = FF_VMAF_CAMBI_TOPK_BINS - 1; bin > 0; bin--) {
            if (above + (int)st->hist[bin] >= k)
                break;
            above += st->hist[bin];
        }
        memset(hist2, 0, 65536 * sizeof(*hist2));
        for (int i = 0; i < n; i++) {
            uint32_t u = float_bits(c[i]);
            int hi = (int)(u >> 16) - TOPK_LO;
            if (hi > bin)
                sum += fixed24(u);
            else if (hi == bin)
                hist2[u & 0xffff]++;
        }
        taken = above;
        for (int lo = 65535; lo >= 0 && taken < k; lo--) {
            int cnt = hist2[lo];
            if (!cnt)
                continue;
            if (cnt > k - taken)
                cnt = k - taken;
            sum += cnt * fixed24((uint32_t)(bin + TOPK_LO) << 16 | lo);
            taken += cnt;
        }
    }
    if (sum >= (UINT64_C(1) << 53)) {
        if (st->nonzero <= k)
            zero_unmasked(c, w, h, mask, mstride);
        return topk_sum_select(c, n, k) / k;
    }
    return (double)sum * 0x1p-24 / k;
}
