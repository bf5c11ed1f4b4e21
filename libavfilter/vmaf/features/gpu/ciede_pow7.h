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
 * x^7 of a float, correctly rounded, and how near it lies to a rounding
 * boundary: the GPU's stand-in for the host's powf(x, 7).
 *
 * CIEDE2000 calls powf(C', 7). The host's powf is not correctly rounded
 * (glibc's misrounds about 7 in 10,000 arguments, each within a few
 * thousandths of an ulp of a midpoint), so the device computes x^7 exactly
 * in integers, rounds it, and looks up the arguments whose powf differs
 * (ciede_gpu.c lists them for one binade, from the host's own powf, when
 * the twin starts). powf's error is the same in every binade except for
 * results within about 2^-21 ulp of a midpoint, which the twin sends to the
 * host's powf instead.
 *
 * x = M 2^(be - 150), M the 24-bit significand: M^7 has 162 to 168 bits,
 * computed in three 64-bit limbs.
 *
 * Plain C as well as device code: the host builds its table with the same
 * functions.
 */

#ifndef AVFILTER_VMAF_FEATURES_GPU_CIEDE_POW7_H
#define AVFILTER_VMAF_FEATURES_GPU_CIEDE_POW7_H

#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIP__) || defined(__HIPCC__)
#define CIEDE_POW7_FN __device__ static inline
#else
#include <math.h>
#define CIEDE_POW7_FN static inline
#endif

/** The argument's binades where x^7 is a normal float: [2^-18, 2^18). */
#define FF_CIEDE_POW7_MIN_BE (127 - 18)
#define FF_CIEDE_POW7_MAX_BE (127 + 17)

/**
 * Where the host's powf may round x^7 otherwise than to nearest: within
 * 2^-7 ulp of a midpoint (2^57 in FFCiedePow7.dist). glibc 2.36's misrounds
 * lie within 0.0029 ulp of one; tests/ciede_pow7_test.c checks every
 * argument of the range against the host's powf.
 */
#define FF_CIEDE_POW7_NEAR ((uint64_t)1 << 57)
#define FF_CIEDE_POW7_BINADES (FF_CIEDE_POW7_MAX_BE - FF_CIEDE_POW7_MIN_BE + 1)

typedef struct FFCiedePow7 {
    uint32_t t;         ///< the rounded significand, 2^23 .. 2^24
    int      shift;     ///< x^7 = t 2^(shift + 7 (be - 150))
    int      up;        ///< rounded up (t is above x^7's significand)
    uint64_t dist;      ///< |x^7 - nearest midpoint| in 2^-64 ulps (truncated)
} FFCiedePow7;

/**
 * The arguments near a midpoint (their 23 stored significand bits, sorted)
 * and, for each binade from FF_CIEDE_POW7_MIN_BE, a bit each: whether the
 * host's powf gives the other float around x^7.
 */
typedef struct FFCiedePowfTable {
    const uint32_t *m;
    const uint32_t *away;   ///< [binade][words]
    int n;
    int words;              ///< (n + 31) / 32
} FFCiedePowfTable;

typedef union FFCiedeBits {
    float    f;
    uint32_t u;
} FFCiedeBits;

/** Low and high 64 bits of a * b. */
CIEDE_POW7_FN void ff_ciede_mul64(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
    const uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;

    *lo = (mid << 32) | (uint32_t)p00;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/** Leading zeros of v != 0. */
CIEDE_POW7_FN int ff_ciede_clz64(uint64_t v)
{
#if defined(__CUDACC__) || defined(__HIP__) || defined(__HIPCC__)
    return __clzll((long long)v);
#else
    return __builtin_clzll(v);
#endif
}

/** m: the 24-bit significand (2^23 <= m < 2^24). */
CIEDE_POW7_FN FFCiedePow7 ff_ciede_pow7(uint32_t m)
{
    const uint64_t m2 = (uint64_t)m * m;
    uint64_t b0, b1, a0, a1, p0, p1, q0, q1, r0, r1, l1, l2, c, frac, sticky, half;
    FFCiedePow7 res;
    int s;

    ff_ciede_mul64(m2, m, &b0, &b1);            /* m^3 < 2^72 */
    ff_ciede_mul64(m2, m2, &a0, &a1);           /* m^4 < 2^96 */
    ff_ciede_mul64(a0, b0, &p0, &p1);
    ff_ciede_mul64(a0, b1, &q0, &q1);           /* b1 < 2^8 */
    ff_ciede_mul64(a1, b0, &r0, &r1);           /* a1 < 2^32 */
    l1 = p1 + q0;
    c  = l1 < q0;
    l1 += r0;
    c += l1 < r0;
    l2 = q1 + r1 + a1 * b1 + c;                 /* m^7 = l2 2^128 + l1 2^64 + p0 */

    /* 162..168 bits: the significand is in l2 alone. */
    s = 64 - ff_ciede_clz64(l2) - 24;           /* bits of l2 below it: 10..16 */
    res.t     = (uint32_t)(l2 >> s);
    res.shift = 128 + s;
    /* The rest as a 64-bit fraction of an ulp, and whether more follows. */
    frac   = (l2 << (64 - s)) | (l1 >> s);
    sticky = (l1 << (64 - s)) | p0;
    half   = (uint64_t)1 << 63;
    res.dist = frac >= half ? frac - half : half - frac;
    res.up   = frac > half || (frac == half && (sticky || (res.t & 1)));
    res.t   += res.up;
    return res;
}

/**
 * The host's powf(x, 7) for x >= 0, from x^7 and the table. *uncertain is
 * set (and 0 returned) where x^7 is not a normal float, or not finite.
 */
CIEDE_POW7_FN float ff_ciede_powf7(float x, const FFCiedePowfTable *tab, int *uncertain)
{
    FFCiedeBits b, r;
    FFCiedePow7 p;
    int be;

    b.f = x;
    be  = (int)(b.u >> 23);
    if (b.u == 0)
        return 0.0f;
    if (be < FF_CIEDE_POW7_MIN_BE || be > FF_CIEDE_POW7_MAX_BE) {
        *uncertain = 1;
        return 0.0f;
    }
    p   = ff_ciede_pow7((b.u & 0x7fffff) | 0x800000);
    r.f = ldexpf((float)p.t, p.shift + 7 * (be - 150));
    if (p.dist < FF_CIEDE_POW7_NEAR && tab->n) {
        const uint32_t m = b.u & 0x7fffff;
        int lo = 0, hi = tab->n - 1;

        while (lo < hi) {
            const int mid = (lo + hi) >> 1;
            if (tab->m[mid] < m)
                lo = mid + 1;
            else
                hi = mid;
        }
        /* The table holds every m near a midpoint: found. */
        if (tab->m[lo] == m &&
            (tab->away[(be - FF_CIEDE_POW7_MIN_BE) * tab->words + (lo >> 5)] >> (lo & 31) & 1))
            r.u += p.up ? -1 : 1;   /* positive floats: the neighbour's bits */
    }
    return r.f;
}

#endif /* AVFILTER_VMAF_FEATURES_GPU_CIEDE_POW7_H */
