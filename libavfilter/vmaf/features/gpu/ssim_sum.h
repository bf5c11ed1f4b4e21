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
 * A sequential double sum, computed in parallel with the same bits.
 *
 * The SSIM core adds a term per window position to one double, in raster
 * order: S_k = fl(S_k-1 + x_k). While |S| stays inside one binade
 * [2^e, 2^(e+1)), S = a u with u = 2^(e-52) and a an integer,
 * 2^52 <= |a| < 2^53, and fl(S + x) = (a + r) u, where r is x / u rounded
 * to the nearest integer, ties to the r that makes a + r even: r depends
 * on x, u and the parity of a only. So a run of terms maps a to
 * a + q[a & 1] (its model for the binade), and models compose exactly, in
 * integers, in any grouping (a scan).
 *
 * A model also holds the extremes of a's advance after each of its terms
 * (for both parities): applied at a known a, it tells exactly whether
 * every partial sum stays where the integer model holds,
 * 2^52 + 1 <= |a + Q_k| <= 2^53 - 1 (then the exact S_k-1 + x_k lies
 * strictly inside the binade, so its rounding is the model's). No bound or
 * margin: the check is exact, and a term that fails it is added as a
 * double, as the CPU does.
 *
 * Rows are summarised for the binade of an approximate S before them (a
 * guess; a wrong one only fails the check). The scan (one block a sum)
 * adds the first terms one by one while S is small (it changes binade
 * every few terms there), then applies the longest prefix of the next
 * rows, or of the terms of the current row, that the check accepts, adds
 * the term that leaves the binade as a double, and goes on; a row in which
 * the guesses put a crossing is laid out term by term in the same round.
 *
 * Plain C as well as device code: the host tests use the same functions.
 */

#ifndef AVFILTER_VMAF_FEATURES_GPU_SSIM_SUM_H
#define AVFILTER_VMAF_FEATURES_GPU_SSIM_SUM_H

#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIP__) || defined(__HIPCC__)
#define SSIM_SUM_FN __device__ static inline
#else
#include <math.h>
#define SSIM_SUM_FN static inline
#endif

/** Positions per approximate sum of the terms kernel (a tile row). */
#define FF_SSIM_SUM_CHUNK 32
/** Scales a layout can hold (MS-SSIM's five). */
#define FF_SSIM_SUM_SCALES 5
/** |a + Q_k| must stay in [LO, HI] for the model to be exact. */
#define FF_SSIM_SUM_LO (((int64_t)1 << 52) + 1)
#define FF_SSIM_SUM_HI (((int64_t)1 << 53) - 1)
/** Beyond this an advance is out of every check's reach: no overflow. */
#define FF_SSIM_SUM_BIG ((int64_t)1 << 55)

/** The model of a run of terms for one binade. */
typedef struct FFSsimModel {
    int64_t q[2];       ///< advance of a = S / u over the run, a even, odd at its start
    int64_t mn[2], mx[2]; ///< extremes of the advance after each term
    int32_t key;        ///< e + 1024 of the binade [2^e, 2^(e+1)) of |S|; -1: none
    int32_t n;          ///< terms (0: the empty run)
    int32_t bad;        ///< a term or an advance out of reach: never applies
    int32_t reserved;
} FFSsimModel;

/**
 * Where the per-scale buffers are (device addresses), shared by the host
 * and the kernels: sums (l, c, s and, for SSIM, l c s) over the ow x oh
 * window positions of each scale.
 */
typedef struct FFSsimSumLayout {
    int32_t nb_scales, nb_sums;
    int32_t ow[FF_SSIM_SUM_SCALES], oh[FF_SSIM_SUM_SCALES];
    int32_t ncx[FF_SSIM_SUM_SCALES];    ///< approximate sums per row
    int32_t reserved;
    uint64_t terms[FF_SSIM_SUM_SCALES];  ///< double [nb_sums][oh][ow]
    uint64_t approx[FF_SSIM_SUM_SCALES]; ///< double [nb_sums][oh][ncx]: chunk sums, any order
    uint64_t start[FF_SSIM_SUM_SCALES];  ///< double [nb_sums][oh]: approximate S before each row
    uint64_t rows[FF_SSIM_SUM_SCALES];   ///< FFSsimModel [nb_sums][oh]
} FFSsimSumLayout;

typedef union FFSsimSumBits {
    double  d;
    int64_t i;
} FFSsimSumBits;

/** Exponent of a positive normal double; -1023 for 0 and subnormals. */
SSIM_SUM_FN int ff_ssim_sum_expo(double a)
{
    FFSsimSumBits b;
    b.d = a;
    return (int)((b.i >> 52) & 0x7ff) - 1023;
}

/** 2^e, e in [-1022, 1023]. */
SSIM_SUM_FN double ff_ssim_sum_pow2(int e)
{
    FFSsimSumBits b;
    b.i = (int64_t)(e + 1023) << 52;
    return b.d;
}

/**
 * The key of the binade of |s|, -1 where no model is made (0, tiny, huge,
 * not finite: such an S gets its terms one by one).
 */
SSIM_SUM_FN int ff_ssim_sum_key(double s)
{
    const int e = ff_ssim_sum_expo(fabs(s));
    return e >= -900 && e <= 900 ? e + 1024 : -1;
}

/**
 * x / u rounded for an a of each parity (inv = 1 / u, so x * inv is exact):
 * r[p] = floor or ceil, the nearest, ties to the one that makes p + r
 * even. 0 if |x / u| >= 2^53 (or NaN).
 */
SSIM_SUM_FN int ff_ssim_sum_round(double x, double inv, int64_t r[2])
{
    const double t = x * inv;
    double fq, f;
    int64_t q;

    /*
     * Below 2^51, t + 1.5 2^52 is rounded to an integer, which its bits
     * hold: no floor and no conversion, the slow part of a model's every
     * step on a GPU. Its ties go to even, which is right for one parity
     * only: a tie (t exactly halfway, as when x's lowest bit is u / 2) is
     * left to the general case.
     */
    if (fabs(t) < 2251799813685248.0) {
        FFSsimSumBits b;
        b.d = t + 6755399441055744.0;
        if (fabs(t - (b.d - 6755399441055744.0)) != 0.5) {
            r[0] = r[1] = b.i - (int64_t)0x4338000000000000;
            return 1;
        }
    }
    if (!(fabs(t) < 9007199254740992.0))
        return 0;
    fq = floor(t);
    f  = t - fq;            /* exact for |t| >= 1/2; else only compared with 1/2 */
    q  = (int64_t)fq;
    r[0] = q + (f > 0.5 || (f == 0.5 && (q & 1)));
    r[1] = q + (f > 0.5 || (f == 0.5 && !(q & 1)));
    return 1;
}

SSIM_SUM_FN void ff_ssim_sum_empty(FFSsimModel *m, int key)
{
    m->q[0] = m->q[1] = m->mn[0] = m->mn[1] = m->mx[0] = m->mx[1] = 0;
    m->key = key;
    m->n = m->bad = m->reserved = 0;
}

SSIM_SUM_FN int ff_ssim_sum_out_of_reach(const FFSsimModel *m)
{
    for (int p = 0; p < 2; p++)
        if (m->mn[p] < -FF_SSIM_SUM_BIG || m->mx[p] > FF_SSIM_SUM_BIG)
            return 1;
    return 0;
}

/* Selections by parity, not indices: the models stay in registers. */
#define FF_SSIM_SUM_SEL(v, odd) ((odd) ? (v)[1] : (v)[0])

/** Append term x (inv = 1 / u of m's binade). */
SSIM_SUM_FN void ff_ssim_sum_push(FFSsimModel *m, double x, double inv)
{
    int64_t r[2], q0, q1;
    const int first = !m->n;

    m->n++;
    if (m->bad)
        return;
    if (!ff_ssim_sum_round(x, inv, r)) {
        m->bad = 1;
        return;
    }
    /* a + q[p] has the parity of p + q[p]. */
    q0 = m->q[0] + FF_SSIM_SUM_SEL(r, m->q[0] & 1);
    q1 = m->q[1] + FF_SSIM_SUM_SEL(r, !(m->q[1] & 1));
    m->mn[0] = first || q0 < m->mn[0] ? q0 : m->mn[0];
    m->mx[0] = first || q0 > m->mx[0] ? q0 : m->mx[0];
    m->mn[1] = first || q1 < m->mn[1] ? q1 : m->mn[1];
    m->mx[1] = first || q1 > m->mx[1] ? q1 : m->mx[1];
    m->q[0]  = q0;
    m->q[1]  = q1;
    m->bad = ff_ssim_sum_out_of_reach(m);
}

/** m, then c (of the same binade): one model. */
SSIM_SUM_FN void ff_ssim_sum_compose(FFSsimModel *m, const FFSsimModel *c)
{
    int64_t q0, q1, lo, hi;
    int o0, o1;

    if (!c->n)
        return;
    if (!m->n) {
        *m = *c;
        return;
    }
    m->n += c->n;
    if (m->bad || c->bad) {
        m->bad = 1;
        return;
    }
    /* Every value is within 2^55 (else bad): no overflow. */
    q0 = m->q[0];
    q1 = m->q[1];
    o0 = (int)(q0 & 1);         /* parity of a + q at c's start, a even */
    o1 = !(q1 & 1);             /* a odd */
    lo = q0 + FF_SSIM_SUM_SEL(c->mn, o0);
    hi = q0 + FF_SSIM_SUM_SEL(c->mx, o0);
    m->mn[0] = lo < m->mn[0] ? lo : m->mn[0];
    m->mx[0] = hi > m->mx[0] ? hi : m->mx[0];
    m->q[0]  = q0 + FF_SSIM_SUM_SEL(c->q, o0);
    lo = q1 + FF_SSIM_SUM_SEL(c->mn, o1);
    hi = q1 + FF_SSIM_SUM_SEL(c->mx, o1);
    m->mn[1] = lo < m->mn[1] ? lo : m->mn[1];
    m->mx[1] = hi > m->mx[1] ? hi : m->mx[1];
    m->q[1]  = q1 + FF_SSIM_SUM_SEL(c->q, o1);
    m->bad = ff_ssim_sum_out_of_reach(m);
}

/** a + d (in two's complement: no undefined overflow on garbage). */
SSIM_SUM_FN int64_t ff_ssim_sum_add(int64_t a, int64_t d)
{
    return (int64_t)((uint64_t)a + (uint64_t)d);
}

/** Whether a + d is where the model of the binade holds (neg: S < 0). */
SSIM_SUM_FN int ff_ssim_sum_inside(int64_t v, int neg)
{
    return neg ? v <= -FF_SSIM_SUM_LO && v >= -FF_SSIM_SUM_HI
               : v >= FF_SSIM_SUM_LO && v <= FF_SSIM_SUM_HI;
}

/**
 * Whether m applied at S = a u (|a| < 2^53) gives, after each of its terms,
 * the bits of the sequential sum: then S becomes (a + m->q[a & 1]) u.
 */
SSIM_SUM_FN int ff_ssim_sum_fits(const FFSsimModel *m, int64_t a, int neg)
{
    const int odd = (int)(a & 1);

    return m->n > 0 && !m->bad &&
           ff_ssim_sum_inside(ff_ssim_sum_add(a, FF_SSIM_SUM_SEL(m->mn, odd)), neg) &&
           ff_ssim_sum_inside(ff_ssim_sum_add(a, FF_SSIM_SUM_SEL(m->mx, odd)), neg);
}

/**
 * One term at S = a u: 1 and *a advanced if the model holds for it, else
 * 0 (the caller adds x to a u as a double).
 */
SSIM_SUM_FN int ff_ssim_sum_step(int64_t *a, double x, double inv, int neg)
{
    int64_t r[2], v;

    if (!ff_ssim_sum_round(x, inv, r))
        return 0;
    v = *a + FF_SSIM_SUM_SEL(r, *a & 1);    /* |a| < 2^53, |r| <= 2^53 */
    if (!ff_ssim_sum_inside(v, neg))
        return 0;
    *a = v;
    return 1;
}

#endif /* AVFILTER_VMAF_FEATURES_GPU_SSIM_SUM_H */
