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
 * order: S_k = fl(S_k-1 + x_k). While S stays inside one binade
 * [2^e, 2^(e+1)) (or its negative), every S_k is a multiple of
 * u = 2^(e-52), and fl(S + x) = S + u * r, where r is x / u rounded to the
 * nearest integer, ties to the r that makes S / u + r even. So a run of
 * terms adds u times an integer that depends on nothing but u and the
 * parity of S / u at its start: a run is summarised by that integer for
 * both parities (q[0], q[1]), and consecutive runs of one binade compose
 * exactly, in integers.
 *
 * Runs are chunks of 32 terms of a row and whole rows. Each run guesses
 * its binade from an approximate prefix sum; the scan that walks the runs
 * in order knows S exactly and applies a run only when S is in that binade
 * and the run provably stays in it (its partial sums, known to within a
 * bound, plus the rounding of at most u / 2 a term). Anything else (the
 * first terms, where S is small; the runs that cross a power of two) is
 * added term by term, as the CPU does.
 *
 * Plain C as well as device code: the host tests use the same functions.
 */

#ifndef AVFILTER_HIP_SSIM_SUM_H
#define AVFILTER_HIP_SSIM_SUM_H

#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIP__) || defined(__HIPCC__)
#define SSIM_SUM_FN __device__ static inline
#else
#include <math.h>
#define SSIM_SUM_FN static inline
#endif

/** Terms in a chunk; a row of the position grid is cut into chunks. */
#define FF_SSIM_SUM_CHUNK 32
/** Scales a layout can hold (MS-SSIM's five). */
#define FF_SSIM_SUM_SCALES 5

/** A run of consecutive terms. */
typedef struct FFSsimRun {
    int64_t q[2];       ///< sum of the rounded x / u, for S / u even, odd
    double  pmin, pmax; ///< extremes of the partial sums (0 included), approximate
    double  psum;       ///< sum of the terms, approximate
    int32_t key;        ///< 2 (e + 1024) + (S < 0) of the binade; -1: add term by term
    int32_t n;          ///< terms
} FFSsimRun;

/**
 * Where the per-scale buffers are (device addresses), shared by the host
 * and the kernels: sums (l, c, s and, for SSIM, l c s) over the ow x oh
 * window positions of each scale.
 */
typedef struct FFSsimSumLayout {
    int32_t nb_scales, nb_sums;
    int32_t ow[FF_SSIM_SUM_SCALES], oh[FF_SSIM_SUM_SCALES];
    int32_t ncx[FF_SSIM_SUM_SCALES];    ///< chunks per row
    int32_t reserved;
    uint64_t terms[FF_SSIM_SUM_SCALES];  ///< double [nb_sums][oh][ow]
    uint64_t approx[FF_SSIM_SUM_SCALES]; ///< double [nb_sums][oh][ncx]: chunk sums, any order
    uint64_t start[FF_SSIM_SUM_SCALES];  ///< double [nb_sums][oh][ncx]: approximate S before each chunk
    uint64_t chunks[FF_SSIM_SUM_SCALES]; ///< FFSsimRun [nb_sums][oh][ncx]
    uint64_t rows[FF_SSIM_SUM_SCALES];   ///< FFSsimRun [nb_sums][oh]
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

/*
 * The binade that [lo, hi] lies in with a wide margin: the guess need not
 * be right (the scan checks), only usually right; the margin covers the
 * difference between the approximate and the sequential sums.
 */
SSIM_SUM_FN int ff_ssim_sum_key(double lo, double hi)
{
    double m = 1e-6 * (fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi)) + 1e-6;
    double a, b;
    int neg, ea, eb;

    if (lo - m > 0) {
        a = lo - m;
        b = hi + m;
        neg = 0;
    } else if (hi + m < 0) {
        a = -(hi + m);
        b = -(lo - m);
        neg = 1;
    } else {
        return -1;
    }
    ea = ff_ssim_sum_expo(a);
    eb = ff_ssim_sum_expo(b);
    if (ea != eb || ea < -900 || ea > 900)
        return -1;
    return 2 * (ea + 1024) + neg;
}

/** Summarise the n terms x[0..n-1], which follow an S near start. */
SSIM_SUM_FN void ff_ssim_sum_chunk(FFSsimRun *r, const double *x, int n, double start)
{
    double p = 0.0, pmin = 0.0, pmax = 0.0, inv;
    int64_t q0 = 0, q1 = 0;
    int key;

    for (int k = 0; k < n; k++) {
        p += x[k];
        pmin = p < pmin ? p : pmin;
        pmax = p > pmax ? p : pmax;
    }
    key = ff_ssim_sum_key(start + pmin, start + pmax);
    if (key >= 0) {
        /* 1 / u: x * inv is x / u exactly (a power of two). */
        inv = ff_ssim_sum_pow2(52 - (key / 2 - 1024));
        for (int k = 0; k < n; k++) {
            double t = x[k] * inv, fq, f;
            int64_t q;
            if (!(fabs(t) < 4503599627370496.0)) { /* 2^52; NaN too */
                key = -1;
                break;
            }
            fq = floor(t);
            f  = t - fq;        /* exact */
            q  = (int64_t)fq;
            /* A tie goes to the even one of S/u + q and S/u + q + 1. */
            q0 += q + (f > 0.5 || (f == 0.5 && ((q0 + q) & 1)));
            q1 += q + (f > 0.5 || (f == 0.5 && !((q1 + q) & 1)));
        }
    }
    r->q[0] = q0;
    r->q[1] = q1;
    r->pmin = pmin;
    r->pmax = pmax;
    r->psum = p;
    r->key  = key;
    r->n    = n;
}

/** acc, then c: one run (dirty unless both are of one binade). */
SSIM_SUM_FN void ff_ssim_sum_append(FFSsimRun *acc, const FFSsimRun *c)
{
    double lo = acc->psum + c->pmin, hi = acc->psum + c->pmax;

    if (!acc->n) {
        *acc = *c;
        return;
    }
    if (acc->key < 0 || acc->key != c->key) {
        acc->key = -1;
    } else {
        acc->q[0] += c->q[acc->q[0] & 1];
        acc->q[1] += c->q[(acc->q[1] + 1) & 1];
    }
    acc->pmin  = lo < acc->pmin ? lo : acc->pmin;
    acc->pmax  = hi > acc->pmax ? hi : acc->pmax;
    acc->psum += c->psum;
    acc->n    += c->n;
}

/**
 * Add run r to *s if that is provably what adding its terms one by one
 * gives; 0 if it cannot tell (then the caller adds the terms).
 */
SSIM_SUM_FN int ff_ssim_sum_apply(double *s, const FFSsimRun *r)
{
    double v = *s, a = fabs(v), u, slack, lo, hi;
    int neg = v < 0, e;
    int64_t n;

    if (r->key < 0 || !(a > 0) || neg != (r->key & 1))
        return 0;
    e = r->key / 2 - 1024;
    if (ff_ssim_sum_expo(a) != e)
        return 0;
    u = ff_ssim_sum_pow2(e - 52);
    /* Each term rounds by at most u / 2; the partial sums are known to
     * about n ulps of their size; 4 u for the roundings of the checks. */
    slack = (r->n + 4) * (u + ff_ssim_sum_pow2(-50) * (fabs(r->pmin) + fabs(r->pmax)));
    lo = neg ? -(v + r->pmax) : v + r->pmin;
    hi = neg ? -(v + r->pmin) : v + r->pmax;
    if (!(lo - slack >= ff_ssim_sum_pow2(e) && hi + slack < ff_ssim_sum_pow2(e + 1)))
        return 0;
    n = (int64_t)(v * ff_ssim_sum_pow2(52 - e));  /* S / u, exact */
    *s = v + (double)r->q[n & 1] * u;             /* exact: a multiple of u in the binade */
    return 1;
}

#endif /* AVFILTER_HIP_SSIM_SUM_H */
