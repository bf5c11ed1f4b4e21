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
 * Integer VIF kernels at one vector width, the same bits as vif_dsp.c:
 * the shared body of vif_avx2.c (8 lanes) and vif_avx512.c (16 lanes).
 * It is a .h rather than a _template.c because every .c file of vmaf/x86
 * is built as an object of its own (vmaf/Makefile, tools/dev-engine.sh).
 *
 * LANES columns per vector in 32-bit lanes. Every sum that the C code
 * keeps in 64 bits is below 2^48 and is split instead: a 32-bit value
 * v = H·2^16 + L is filtered as two 32-bit sums Σf·H and Σf·L (each below
 * 2^32, as the taps sum to 2^16), and the rounding shift by s <= 16 of
 * the 48-bit total is (ΣfH << (16 - s)) + ((ΣfL + rounding) >> s), exact.
 * Sums that stay below 2^32 wrap harmlessly in the lanes: only their final
 * value is read.
 *
 * The per-pixel terms use the same double operations as C, LANES / 2
 * lanes at a time (division, products and truncations are IEEE-exact, and
 * the engine builds with -ffp-contract=off, so no FMA is formed). log2
 * lookups take the top 16 bits of the operand: for a 32-bit one its
 * leading bit comes from a float conversion (corrected when rounding
 * reached the next power of two), for the up-to-46-bit one it is read from
 * the exactly represented double, whose significand is those top bits.
 *
 * Samples are within their depth, as everywhere in the engine (it clamps
 * pictures that are not): up to 15 bits they fit the signed 16-bit halves
 * that madd multiplies.
 *
 * Columns go LANES at a time; the last vector of a row is moved back to
 * end at the last column (recomputing a few, which the sums mask out).
 * Planes narrower than a vector (or than two for decimation) are left to
 * the including file.
 *
 * Lane order: everything here works per lane, or converts element i of a
 * half-width vector to lane i (cvtepi32_pd, cvtepi32_epi64), keeping the
 * columns in order; whatever else moves data between 128-bit lanes is one
 * of the including file's definitions below.
 *
 * The including file includes what this one uses (vif_dsp.h, simd.h,
 * libavutil's macros.h and mem_internal.h), opens its target region and
 * defines, before including it:
 * - VIF_BITS: the vector width, 256 or 512. MM(op) is then the intrinsic
 *   _mm<VIF_BITS>_op, MMSI(op) _mm<VIF_BITS>_op_si<VIF_BITS>;
 * - VHALF: the integer vector of half that width (the LANES / 2 int32 of
 *   a vector of doubles); LO_HALF(v), HI_HALF(v): columns 0..LANES/2-1 and
 *   the rest of v; JOIN_HALVES(lo, hi): the reverse;
 * - LD8(p), LD16(p): LANES uint8_t / uint16_t samples widened to int32;
 * - SET1_EPI64(x): x in every 64-bit lane;
 * - MAX0_HALF(v): max(v, 0) in the int32 lanes of a VHALF;
 * - TRUNC_PD(v): the doubles of v rounded toward zero;
 * - blend_odd(even, odd): the even 32-bit lanes of even, the odd of odd;
 * - sub1_where_zero(e, t): e - 1 in the lanes where t is 0, else e;
 * - VMASK, a set of lanes: CMPGT_M(a, b) (where a > b as int32),
 *   AND_M(a, b), ANDNOT_M(a, b) (~a & b), MASKZ(m, v) (v in the lanes of
 *   m, else 0), COUNT_M(m) (how many lanes), ANY_M(m) (any at all);
 * - select_pd_lo(m, a, b), select_pd_hi(m, a, b): the doubles of b where
 *   the lanes of the low (high) half of m are set, else those of a;
 * - narrow_k(lo, hi): the 64-bit lanes of lo then hi, below 2^31, as the
 *   32-bit lanes of one vector in that order;
 * - hsum64(v): the sum of the 64-bit lanes of v;
 * - even_lanes(p): p[0], p[2], ..., p[2 * LANES - 2] of uint32_t *p;
 * - store_u16(p, v): the int32 lanes of v, below 2^16, to uint16_t *p.
 *
 * It gives vif_statistic() and vif_decimate() for planes at least one
 * vector (two for decimation) wide.
 */

#define VIF_CAT3_(a, b, c)    a ## b ## c
#define VIF_CAT3(a, b, c)     VIF_CAT3_(a, b, c)
#define VIF_CAT4_(a, b, c, d) a ## b ## c ## d
#define VIF_CAT4(a, b, c, d)  VIF_CAT4_(a, b, c, d)

#define VEC   VIF_CAT3(__m, VIF_BITS, i)
#define VECD  VIF_CAT3(__m, VIF_BITS, d)
#define LANES (VIF_BITS / 32)
#define MM(op)   VIF_CAT3(_mm, VIF_BITS, _ ## op)
#define MMSI(op) VIF_CAT4(_mm, VIF_BITS, _ ## op ## _si, VIF_BITS)

/* DECLARE_ALIGNED pastes its alignment: a vector's, as a literal. */
#define VIF_ALIGN_256 32
#define VIF_ALIGN_512 64
#define VIF_ALIGN     VIF_CAT3(VIF_ALIGN_, VIF_BITS, )

#define LDU(p)    MMSI(loadu)((const void *)(p))
#define STU(p, v) MMSI(storeu)((void *)(p), v)
#define STA(p, v) MMSI(store)((void *)(p), v)

#define PAD       FF_VMAF_VIF_MAX_HALF
#define SIGMA_NSQ (1 << 17)

/*
 * Vertical statistics of 8-bit rows, as vert_stats_8: means rounded by 8
 * bits, second moments unshifted. Samples of the two rows of a tap pair
 * share a lane as two 16-bit halves, so one madd gives f·(a + b) (taps
 * other than the centre are below 2^15) or a² + b², a·a' + b·b'.
 */
static av_always_inline void vert_8(uint32_t *mu1v, uint32_t *mu2v,
                                    uint32_t *xxv, uint32_t *yyv, uint32_t *xyv,
                                    const uint8_t *const *rr,
                                    const uint8_t *const *dr,
                                    const uint16_t *f, const int fw, int w)
{
    const int half = fw / 2;
    const VEC fc = MM(set1_epi32)(f[half]);
    const VEC r8 = MM(set1_epi32)(128);

    for (int j0 = 0; j0 < w; j0 += LANES) {
        const int j = FFMIN(j0, w - LANES);
        VEC x = LD8(rr[half] + j), y = LD8(dr[half] + j);
        VEC mu1 = MM(mullo_epi32)(x, fc);
        VEC mu2 = MM(mullo_epi32)(y, fc);
        VEC xx  = MM(mullo_epi32)(MM(madd_epi16)(x, x), fc);
        VEC yy  = MM(mullo_epi32)(MM(madd_epi16)(y, y), fc);
        VEC xy  = MM(mullo_epi32)(MM(madd_epi16)(x, y), fc);

        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const VEC fk  = MM(set1_epi32)(f[k]);
            const VEC fk2 = MM(set1_epi32)(f[k] | f[k] << 16);
            VEC tx = MMSI(or)(LD8(rr[k] + j),
                              MM(slli_epi32)(LD8(rr[fw - 1 - k] + j), 16));
            VEC ty = MMSI(or)(LD8(dr[k] + j),
                              MM(slli_epi32)(LD8(dr[fw - 1 - k] + j), 16));
            mu1 = MM(add_epi32)(mu1, MM(madd_epi16)(tx, fk2));
            mu2 = MM(add_epi32)(mu2, MM(madd_epi16)(ty, fk2));
            xx  = MM(add_epi32)(xx, MM(mullo_epi32)(MM(madd_epi16)(tx, tx), fk));
            yy  = MM(add_epi32)(yy, MM(mullo_epi32)(MM(madd_epi16)(ty, ty), fk));
            xy  = MM(add_epi32)(xy, MM(mullo_epi32)(MM(madd_epi16)(tx, ty), fk));
        }
        STU(mu1v + j, MM(srli_epi32)(MM(add_epi32)(mu1, r8), 8));
        STU(mu2v + j, MM(srli_epi32)(MM(add_epi32)(mu2, r8), 8));
        STU(xxv + j, xx);
        STU(yyv + j, yy);
        STU(xyv + j, xy);
    }
}

/** Σf·(a² + b²) of a tap pair as split sums: h += f·(Ha + Hb), l += f·(La + Lb). */
#define SPLIT_ACC(h, l, a2, b2, fk) do {                                   \
        h = MM(add_epi32)(h, MM(mullo_epi32)(MM(add_epi32)(                \
                MM(srli_epi32)(a2, 16), MM(srli_epi32)(b2, 16)), fk));     \
        l = MM(add_epi32)(l, MM(mullo_epi32)(MM(add_epi32)(                \
                MMSI(and)(a2, lo16), MMSI(and)(b2, lo16)), fk));           \
    } while (0)

/*
 * The rounding of vert_15's and vert_16's outputs at depth bpc: the means
 * by bpc bits, the split second moments by ks = 2 (bpc - 8) <= 16.
 */
typedef struct VertRound {
    VEC rmu, rks;               ///< 2^(bpc - 1), 2^(ks - 1) (0 for ks 0)
    __m128i bpc, ks, ks16;      ///< shift counts: bpc, ks, 16 - ks
} VertRound;

static av_always_inline VertRound vert_round(int bpc)
{
    const int ks = 2 * (bpc - 8);
    const VertRound r = {
        MM(set1_epi32)(1 << (bpc - 1)), MM(set1_epi32)(ks ? 1 << (ks - 1) : 0),
        _mm_cvtsi32_si128(bpc), _mm_cvtsi32_si128(ks), _mm_cvtsi32_si128(16 - ks),
    };
    return r;
}

/** (mu + 2^(bpc - 1)) >> bpc. */
static av_always_inline VEC round_mean(VEC mu, const VertRound *r)
{
    return MM(srl_epi32)(MM(add_epi32)(mu, r->rmu), r->bpc);
}

/** (H·2^16 + L + rnd) >> s for 0 <= s <= 16, modulo 2^32. */
static av_always_inline VEC split_round(VEC h, VEC l, VEC rnd,
                                        __m128i s, __m128i s16)
{
    return MM(add_epi32)(MM(sll_epi32)(h, s16),
                         MM(srl_epi32)(MM(add_epi32)(l, rnd), s));
}

/** A second moment of vert_15 or vert_16, rounded by ks. */
static av_always_inline VEC round_moment(VEC h, VEC l, const VertRound *r)
{
    return split_round(h, l, r->rks, r->ks, r->ks16);
}

/** h += f·(s >> 16), l += f·(s & 0xffff): a pair sum s split in halves. */
#define SPLIT_ACC1(h, l, s, fk) do {                                       \
        h = MM(add_epi32)(h, MM(mullo_epi32)(MM(srli_epi32)(s, 16), fk));  \
        l = MM(add_epi32)(l, MM(mullo_epi32)(MMSI(and)(s, lo16), fk));     \
    } while (0)

/*
 * vert_16 for depths up to 15 bits: samples fit int16, so as in vert_8 one
 * madd gives f·(a + b) and a² + b² (below 2^31), and only that pair sum is
 * split in halves for the product with the tap.
 */
static av_always_inline void vert_15(uint32_t *mu1v, uint32_t *mu2v,
                                     uint32_t *xxv, uint32_t *yyv, uint32_t *xyv,
                                     const uint16_t *const *rr,
                                     const uint16_t *const *dr,
                                     const uint16_t *f, const int fw, int w,
                                     int bpc)
{
    const int half = fw / 2;
    const VEC fc   = MM(set1_epi32)(f[half]);
    const VEC lo16 = MM(set1_epi32)(0xffff);
    const VertRound r = vert_round(bpc);

    for (int j0 = 0; j0 < w; j0 += LANES) {
        const int j = FFMIN(j0, w - LANES);
        VEC x = LD16(rr[half] + j), y = LD16(dr[half] + j);
        VEC mu1 = MM(mullo_epi32)(x, fc);
        VEC mu2 = MM(mullo_epi32)(y, fc);
        VEC xxh = MMSI(setzero)(), xxl = MMSI(setzero)();
        VEC yyh = MMSI(setzero)(), yyl = MMSI(setzero)();
        VEC xyh = MMSI(setzero)(), xyl = MMSI(setzero)();

        SPLIT_ACC1(xxh, xxl, MM(madd_epi16)(x, x), fc);
        SPLIT_ACC1(yyh, yyl, MM(madd_epi16)(y, y), fc);
        SPLIT_ACC1(xyh, xyl, MM(madd_epi16)(x, y), fc);
        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const VEC fk  = MM(set1_epi32)(f[k]);
            const VEC fk2 = MM(set1_epi32)(f[k] | f[k] << 16);
            VEC tx = MMSI(or)(LD16(rr[k] + j),
                              MM(slli_epi32)(LD16(rr[fw - 1 - k] + j), 16));
            VEC ty = MMSI(or)(LD16(dr[k] + j),
                              MM(slli_epi32)(LD16(dr[fw - 1 - k] + j), 16));
            mu1 = MM(add_epi32)(mu1, MM(madd_epi16)(tx, fk2));
            mu2 = MM(add_epi32)(mu2, MM(madd_epi16)(ty, fk2));
            SPLIT_ACC1(xxh, xxl, MM(madd_epi16)(tx, tx), fk);
            SPLIT_ACC1(yyh, yyl, MM(madd_epi16)(ty, ty), fk);
            SPLIT_ACC1(xyh, xyl, MM(madd_epi16)(tx, ty), fk);
        }
        STU(mu1v + j, round_mean(mu1, &r));
        STU(mu2v + j, round_mean(mu2, &r));
        STU(xxv + j, round_moment(xxh, xxl, &r));
        STU(yyv + j, round_moment(yyh, yyl, &r));
        STU(xyv + j, round_moment(xyh, xyl, &r));
    }
}

/* As vert_stats_16, for uint16_t rows of depth bpc: 16 (vert_15 takes 9..15). */
static av_always_inline void vert_16(uint32_t *mu1v, uint32_t *mu2v,
                                     uint32_t *xxv, uint32_t *yyv, uint32_t *xyv,
                                     const uint16_t *const *rr,
                                     const uint16_t *const *dr,
                                     const uint16_t *f, const int fw, int w,
                                     int bpc)
{
    const int half = fw / 2;
    const VEC fc   = MM(set1_epi32)(f[half]);
    const VEC lo16 = MM(set1_epi32)(0xffff);
    const VertRound r = vert_round(bpc);

    for (int j0 = 0; j0 < w; j0 += LANES) {
        const int j = FFMIN(j0, w - LANES);
        VEC x = LD16(rr[half] + j), y = LD16(dr[half] + j);
        VEC x2 = MM(mullo_epi32)(x, x);
        VEC y2 = MM(mullo_epi32)(y, y);
        VEC p2 = MM(mullo_epi32)(x, y);
        VEC mu1 = MM(mullo_epi32)(x, fc);
        VEC mu2 = MM(mullo_epi32)(y, fc);
        VEC xxh = MM(mullo_epi32)(MM(srli_epi32)(x2, 16), fc);
        VEC xxl = MM(mullo_epi32)(MMSI(and)(x2, lo16), fc);
        VEC yyh = MM(mullo_epi32)(MM(srli_epi32)(y2, 16), fc);
        VEC yyl = MM(mullo_epi32)(MMSI(and)(y2, lo16), fc);
        VEC xyh = MM(mullo_epi32)(MM(srli_epi32)(p2, 16), fc);
        VEC xyl = MM(mullo_epi32)(MMSI(and)(p2, lo16), fc);

        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const VEC fk = MM(set1_epi32)(f[k]);
            VEC xa = LD16(rr[k] + j), xb = LD16(rr[fw - 1 - k] + j);
            VEC ya = LD16(dr[k] + j), yb = LD16(dr[fw - 1 - k] + j);
            VEC xa2 = MM(mullo_epi32)(xa, xa), xb2 = MM(mullo_epi32)(xb, xb);
            VEC ya2 = MM(mullo_epi32)(ya, ya), yb2 = MM(mullo_epi32)(yb, yb);
            VEC pa  = MM(mullo_epi32)(xa, ya), pb  = MM(mullo_epi32)(xb, yb);

            mu1 = MM(add_epi32)(mu1, MM(mullo_epi32)(MM(add_epi32)(xa, xb), fk));
            mu2 = MM(add_epi32)(mu2, MM(mullo_epi32)(MM(add_epi32)(ya, yb), fk));
            SPLIT_ACC(xxh, xxl, xa2, xb2, fk);
            SPLIT_ACC(yyh, yyl, ya2, yb2, fk);
            SPLIT_ACC(xyh, xyl, pa, pb, fk);
        }
        STU(mu1v + j, round_mean(mu1, &r));
        STU(mu2v + j, round_mean(mu2, &r));
        STU(xxv + j, round_moment(xxh, xxl, &r));
        STU(yyv + j, round_moment(yyh, yyl, &r));
        STU(xyv + j, round_moment(xyh, xyl, &r));
    }
}

/**
 * hi32(a·b + 2^31) of each unsigned 32-bit lane. vpmuludq multiplies the
 * even (low) 32-bit halves of each 64-bit lane; the odd ones are shifted
 * down first. The even results go back to the even 32-bit lanes by a
 * 64-bit shift, the odd ones are already in the odd (high) halves.
 */
static av_always_inline VEC mulhi_round(VEC a, VEC b)
{
    const VEC rnd = SET1_EPI64(0x80000000);
    VEC even = MM(add_epi64)(MM(mul_epu32)(a, b), rnd);
    VEC odd  = MM(add_epi64)(MM(mul_epu32)(MM(srli_epi64)(a, 32),
                                           MM(srli_epi64)(b, 32)), rnd);
    return blend_odd(MM(srli_epi64)(even, 32), odd);
}

/*
 * 2048·log2(v) with v's mantissa truncated to 16 bits is tab[idx] + 2048·k
 * (idx: the 15 bits below the leading one, k: its position - 15). Only
 * sums of these are needed, so the functions below give idx and k, and
 * the table is read with scalar loads (gathers are slow on some CPUs and
 * sit at the end of a long chain of latencies): lanes that do not count
 * use idx 0 and are corrected for, or cancel.
 */

/** idx and k for unsigned 32-bit v >= 2^16 in every lane. */
static av_always_inline VEC log2_32(VEC *kout, VEC v)
{
    /* x < 2^31 converts as a signed value; its float may round up to the
     * next power of two, which x >> e == 0 detects. */
    const VEC x = MM(srli_epi32)(v, 1);
    VEC e = MM(sub_epi32)(MM(srli_epi32)(MMSI(castps)(MM(cvtepi32_ps)(x)), 23),
                          MM(set1_epi32)(127));
    VEC k, idx;

    e = sub1_where_zero(e, MM(srlv_epi32)(x, e));
    /* The leading bit of v is e + 1: keep 16 bits, k = e + 1 - 15. */
    k   = MM(sub_epi32)(e, MM(set1_epi32)(14));
    idx = MM(sub_epi32)(MM(srlv_epi32)(v, k), MM(set1_epi32)(32768));
    *kout = k;
    return idx;
}

/**
 * The same for LANES / 2 integer-valued doubles in [2^16, 2^52) (64-bit
 * lanes): the exponent is the leading bit, the top 15 bits of the
 * significand idx.
 */
static av_always_inline VEC log2_pd(VEC *kout, VECD v)
{
    const VEC bits = MMSI(castpd)(v);
    *kout = MM(sub_epi64)(MM(srli_epi64)(bits, 52), SET1_EPI64(1023 + 15));
    return MMSI(and)(MM(srli_epi64)(bits, 37), SET1_EPI64(0x7fff));
}

/** Add the LANES int32 lanes of v to the LANES / 2 int64 lanes of acc. */
static av_always_inline VEC add_wide(VEC acc, VEC v)
{
    acc = MM(add_epi64)(acc, MM(cvtepi32_epi64)(LO_HALF(v)));
    return MM(add_epi64)(acc, MM(cvtepi32_epi64)(HI_HALF(v)));
}

typedef struct VifSums {
    VEC num_log, den_log, num_nonlog;       ///< the 2048·k parts, and σ2²
    int64_t num_tab, den_tab;               ///< the table parts
    int64_t den_nonlog;
} VifSums;

/*
 * The gain terms of LANES / 2 pixels (sig1, sig2, sig12 as doubles): the
 * textured value v = (int64)(g²·σ1²) + n1 for log2, as an exact double,
 * and sv2 (the clamped residual; n1 = sv2 + σn²).
 */
static av_always_inline VECD gain_pd(VHALF *sv2, VHALF s1, VHALF s2,
                                     VHALF s12, VECD egl)
{
    const VECD d1  = MM(cvtepi32_pd)(s1);
    const VECD d12 = MM(cvtepi32_pd)(s12);
    VECD g  = MM(div_pd)(d12, MM(add_pd)(d1, MM(set1_pd)(6.5536e-6)));
    VECD gs = MM(mul_pd)(g, d12);
    VECD sv = MM(sub_pd)(MM(cvtepi32_pd)(s2), gs);
    VECD t;

    /* (int32)sv where sv > 0, else 0; out-of-range and NaN give INT32_MIN
     * (vcvttpd2dq's "integer indefinite"). */
    *sv2 = MAX0_HALF(MM(cvttpd_epi32)(sv));
    g = MM(min_pd)(g, egl);
    t = MM(mul_pd)(MM(mul_pd)(g, g), d1);
    t = TRUNC_PD(t);
    return MM(add_pd)(MM(add_pd)(t, MM(cvtepi32_pd)(*sv2)),
                      MM(set1_pd)(SIGMA_NSQ));
}

/*
 * Horizontal pass over the padded vertical rows, as horiz_stats. It is a
 * loop of its own: the per-pixel terms that follow are one long chain of
 * latencies (division, gathers), which only overlaps across pixels in a
 * short loop.
 */
static av_always_inline void horiz(int32_t *s1v, int32_t *s2v, int32_t *s12v,
                                   const uint32_t *mu1v, const uint32_t *mu2v,
                                   const uint32_t *xxv, const uint32_t *yyv,
                                   const uint32_t *xyv,
                                   const uint16_t *f, const int fw, int w)
{
    const int half = fw / 2;
    const VEC fc   = MM(set1_epi32)(f[half]);
    const VEC lo16 = MM(set1_epi32)(0xffff);
    const VEC r16  = MM(set1_epi32)(32768);
    const __m128i s0 = _mm_cvtsi32_si128(0), s16 = _mm_cvtsi32_si128(16);

    for (int j0 = 0; j0 < w; j0 += LANES) {
        const int j = FFMIN(j0, w - LANES);
        VEC xl, xr, mu1sq, mu2sq, mu12, xx, yy, xy;
        VEC mu1 = MM(mullo_epi32)(LDU(mu1v + j), fc);
        VEC mu2 = MM(mullo_epi32)(LDU(mu2v + j), fc);
        VEC xxh = MM(mullo_epi32)(MM(srli_epi32)(LDU(xxv + j), 16), fc);
        VEC xxl = MM(mullo_epi32)(MMSI(and)(LDU(xxv + j), lo16), fc);
        VEC yyh = MM(mullo_epi32)(MM(srli_epi32)(LDU(yyv + j), 16), fc);
        VEC yyl = MM(mullo_epi32)(MMSI(and)(LDU(yyv + j), lo16), fc);
        VEC xyh = MM(mullo_epi32)(MM(srli_epi32)(LDU(xyv + j), 16), fc);
        VEC xyl = MM(mullo_epi32)(MMSI(and)(LDU(xyv + j), lo16), fc);

        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const int l = j - half + k, r = j + half - k;
            const VEC fk = MM(set1_epi32)(f[k]);
            mu1 = MM(add_epi32)(mu1, MM(mullo_epi32)(
                      MM(add_epi32)(LDU(mu1v + l), LDU(mu1v + r)), fk));
            mu2 = MM(add_epi32)(mu2, MM(mullo_epi32)(
                      MM(add_epi32)(LDU(mu2v + l), LDU(mu2v + r)), fk));
            xl = LDU(xxv + l); xr = LDU(xxv + r);
            SPLIT_ACC(xxh, xxl, xl, xr, fk);
            xl = LDU(yyv + l); xr = LDU(yyv + r);
            SPLIT_ACC(yyh, yyl, xl, xr, fk);
            xl = LDU(xyv + l); xr = LDU(xyv + r);
            SPLIT_ACC(xyh, xyl, xl, xr, fk);
        }
        xx = split_round(xxh, xxl, r16, s16, s0);
        yy = split_round(yyh, yyl, r16, s16, s0);
        xy = split_round(xyh, xyl, r16, s16, s0);
        mu1sq = mulhi_round(mu1, mu1);
        mu2sq = mulhi_round(mu2, mu2);
        mu12  = mulhi_round(mu1, mu2);
        STU(s1v + j, MM(sub_epi32)(xx, mu1sq));
        STU(s2v + j, MM(max_epi32)(MM(sub_epi32)(yy, mu2sq), MMSI(setzero)()));
        STU(s12v + j, MM(sub_epi32)(xy, mu12));
    }
}

/* The per-pixel terms of a row, as vif_accumulate_row. */
static av_always_inline void accum(VifSums *sums, const int32_t *s1v,
                                   const int32_t *s2v, const int32_t *s12v,
                                   int w, const uint16_t *tab, VECD egl)
{
    DECLARE_ALIGNED(64, static const int32_t, lane_index)[16] = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    };
    const VEC nsq  = MM(set1_epi32)(SIGMA_NSQ);
    const VEC lane = LDU(lane_index);
    const VECD nsq_pd = MM(set1_pd)(SIGMA_NSQ);

    for (int j0 = 0; j0 < w; j0 += LANES) {
        const int j = FFMIN(j0, w - LANES);
        /* Lanes below j0 - j were counted by the previous vector. */
        const VMASK valid = CMPGT_M(lane, MM(set1_epi32)(j0 - j - 1));
        const VEC s1 = LDU(s1v + j), s2 = LDU(s2v + j), s12 = LDU(s12v + j);
        const VMASK tex0 = CMPGT_M(s1, MM(set1_epi32)(SIGMA_NSQ - 1));
        const VMASK flat = ANDNOT_M(tex0, valid);
        const VMASK tex  = AND_M(tex0, valid);
        VEC t, id0;

        /* Flat pixels: σ2² and a count. */
        sums->num_nonlog = add_wide(sums->num_nonlog, MASKZ(flat, s2));
        sums->den_nonlog += COUNT_M(flat);
        if (ANY_M(tex)) {
            DECLARE_ALIGNED(VIF_ALIGN, int32_t, id)[LANES];
            DECLARE_ALIGNED(VIF_ALIGN, int32_t, in1)[LANES];
            DECLARE_ALIGNED(VIF_ALIGN, int64_t, iv)[LANES];
            int64_t st = 0;
            VMASK gain;
            VEC k;

            /* log2(σ1² + σn²) - 17·2048; other lanes read entry 0, which
             * is taken out again. */
            id0 = MASKZ(tex, log2_32(&k, MM(add_epi32)(s1, nsq)));
            t   = MM(sub_epi32)(MM(slli_epi32)(k, 11), MM(set1_epi32)(2048 * 17));
            sums->den_log = add_wide(sums->den_log, MASKZ(tex, t));
            STA(id, id0);
            for (int l = 0; l < LANES; l++)
                st += tab[id[l]];
            sums->den_tab += st - (int64_t)tab[0] * (LANES - COUNT_M(tex));

            gain = AND_M(tex, AND_M(CMPGT_M(s12, MMSI(setzero)()),
                                    CMPGT_M(s2, MMSI(setzero)())));
            if (ANY_M(gain)) {
                VHALF sv_lo, sv_hi;
                VEC k_lo, k_hi, kv, kn1, n1;
                VECD v_lo = gain_pd(&sv_lo, LO_HALF(s1), LO_HALF(s2),
                                    LO_HALF(s12), egl);
                VECD v_hi = gain_pd(&sv_hi, HI_HALF(s1), HI_HALF(s2),
                                    HI_HALF(s12), egl);

                /* Lanes without a gain term: v = σn², idx 0 for both. */
                v_lo = select_pd_lo(gain, nsq_pd, v_lo);
                v_hi = select_pd_hi(gain, nsq_pd, v_hi);
                STA(iv, log2_pd(&k_lo, v_lo));
                STA(iv + LANES / 2, log2_pd(&k_hi, v_hi));
                n1 = MM(add_epi32)(JOIN_HALVES(sv_lo, sv_hi), nsq);
                STA(in1, MASKZ(gain, log2_32(&kn1, n1)));
                /* k of the doubles is small and positive: its 64-bit
                 * lanes narrow to 32 bits losslessly. */
                kv = narrow_k(k_lo, k_hi);
                t  = MM(slli_epi32)(MM(sub_epi32)(kv, kn1), 11);
                sums->num_log = add_wide(sums->num_log, MASKZ(gain, t));
                st = 0;
                for (int l = 0; l < LANES; l++)
                    st += tab[iv[l]] - tab[in1[l]];
                sums->num_tab += st;
            }
        }
    }
}

static av_always_inline void statistic_tmpl(FFVmafVifAccum *acc,
                                            const uint8_t *ref, ptrdiff_t ref_stride,
                                            const uint8_t *dis, ptrdiff_t dis_stride,
                                            int w, int h, int bpc, const int scale,
                                            double egl, const uint16_t *tab,
                                            void *tmp)
{
    const uint16_t *f = ff_vmaf_vif_filter[scale];
    const int fw   = ff_vmaf_vif_filter_width[scale];
    const int half = fw / 2;
    const size_t rs = w + 2 * PAD;
    uint32_t *mu1v = (uint32_t *)tmp + PAD;
    uint32_t *mu2v = mu1v + rs;
    uint32_t *xxv  = mu2v + rs;
    uint32_t *yyv  = xxv + rs;
    uint32_t *xyv  = yyv + rs;
    int32_t  *s1v  = (int32_t *)(xyv + rs);
    int32_t  *s2v  = s1v + w;
    int32_t  *s12v = s2v + w;
    const VECD vegl = MM(set1_pd)(egl);
    VifSums sums = { MMSI(setzero)(), MMSI(setzero)(), MMSI(setzero)(), 0, 0, 0 };

    for (int i = 0; i < h; i++) {
        if (bpc == 8) {
            const uint8_t *rr[FF_VMAF_VIF_MAX_TAPS], *dr[FF_VMAF_VIF_MAX_TAPS];
            for (int k = 0; k < fw; k++) {
                const int y = ff_vmaf_vif_mirror(i - half + k, h);
                rr[k] = ref + y * ref_stride;
                dr[k] = dis + y * dis_stride;
            }
            vert_8(mu1v, mu2v, xxv, yyv, xyv, rr, dr, f, fw, w);
        } else {
            const uint16_t *rr[FF_VMAF_VIF_MAX_TAPS], *dr[FF_VMAF_VIF_MAX_TAPS];
            for (int k = 0; k < fw; k++) {
                const int y = ff_vmaf_vif_mirror(i - half + k, h);
                rr[k] = (const uint16_t *)(ref + y * ref_stride);
                dr[k] = (const uint16_t *)(dis + y * dis_stride);
            }
            if (bpc <= 15)
                vert_15(mu1v, mu2v, xxv, yyv, xyv, rr, dr, f, fw, w, bpc);
            else
                vert_16(mu1v, mu2v, xxv, yyv, xyv, rr, dr, f, fw, w, bpc);
        }
        FF_VMAF_VIF_PAD_ROW(mu1v, w, half);
        FF_VMAF_VIF_PAD_ROW(mu2v, w, half);
        FF_VMAF_VIF_PAD_ROW(xxv, w, half);
        FF_VMAF_VIF_PAD_ROW(yyv, w, half);
        FF_VMAF_VIF_PAD_ROW(xyv, w, half);
        horiz(s1v, s2v, s12v, mu1v, mu2v, xxv, yyv, xyv, f, fw, w);
        accum(&sums, s1v, s2v, s12v, w, tab, vegl);
    }
    acc->num_log    = hsum64(sums.num_log) + sums.num_tab;
    acc->den_log    = hsum64(sums.den_log) + sums.den_tab;
    acc->num_nonlog = hsum64(sums.num_nonlog);
    acc->den_nonlog = sums.den_nonlog;
}

/** ff_vmaf_vif_statistic() for w >= LANES, one copy per scale. */
static av_always_inline void vif_statistic(FFVmafVifAccum *acc,
                                           const uint8_t *ref, ptrdiff_t ref_stride,
                                           const uint8_t *dis, ptrdiff_t dis_stride,
                                           int w, int h, int bpc, int scale,
                                           double egl, const uint16_t *tab,
                                           void *tmp)
{
    switch (scale) {
    case 0: statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                           bpc, 0, egl, tab, tmp); break;
    case 1: statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                           bpc, 1, egl, tab, tmp); break;
    case 2: statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                           bpc, 2, egl, tab, tmp); break;
    default: statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                            bpc, 3, egl, tab, tmp); break;
    }
}

/*
 * Pyramid step as vif_decimate_tmpl: vertical filter of the even rows into
 * a padded 32-bit row, then the horizontal filter at even columns, whose
 * taps are read as two vectors and compacted to their even lanes.
 */
static av_always_inline void decimate_tmpl(uint16_t *dst, ptrdiff_t dst_stride,
                                           const uint8_t *src, ptrdiff_t src_stride,
                                           int w, int h, int bpc, const int scale,
                                           void *tmp)
{
    const uint16_t *f = ff_vmaf_vif_filter[scale];
    const int fw   = ff_vmaf_vif_filter_width[scale];
    const int half = fw / 2;
    const int w2   = w / 2;
    const VEC fc   = MM(set1_epi32)(f[half]);
    const VEC rnd  = MM(set1_epi32)(1 << (bpc - 1));
    const VEC r16  = MM(set1_epi32)(32768);
    const __m128i sbpc = _mm_cvtsi32_si128(bpc);
    uint32_t *v = (uint32_t *)tmp + PAD;

    for (int i = 0; i < h / 2; i++) {
        const uint8_t  *rows[FF_VMAF_VIF_MAX_TAPS];
        const uint16_t *r16p[FF_VMAF_VIF_MAX_TAPS];

        for (int k = 0; k < fw; k++) {
            rows[k] = src + ff_vmaf_vif_mirror(2 * i - half + k, h) * src_stride;
            r16p[k] = (const uint16_t *)rows[k];
        }

        for (int j0 = 0; j0 < w; j0 += LANES) {
            const int j = FFMIN(j0, w - LANES);
            VEC s;
            if (bpc == 8) {
                s = MM(mullo_epi32)(LD8(rows[half] + j), fc);
                _Pragma("GCC unroll 8")
                for (int k = 0; k < half; k++)
                    s = MM(add_epi32)(s, MM(mullo_epi32)(MM(add_epi32)(
                            LD8(rows[k] + j), LD8(rows[fw - 1 - k] + j)),
                            MM(set1_epi32)(f[k])));
            } else {
                s = MM(mullo_epi32)(LD16(r16p[half] + j), fc);
                _Pragma("GCC unroll 8")
                for (int k = 0; k < half; k++)
                    s = MM(add_epi32)(s, MM(mullo_epi32)(MM(add_epi32)(
                            LD16(r16p[k] + j), LD16(r16p[fw - 1 - k] + j)),
                            MM(set1_epi32)(f[k])));
            }
            /* The C row is uint16_t: keep the low 16 bits as it does. */
            s = MM(srl_epi32)(MM(add_epi32)(s, rnd), sbpc);
            STU(v + j, MMSI(and)(s, MM(set1_epi32)(0xffff)));
        }
        FF_VMAF_VIF_PAD_ROW(v, w, half);

        for (int j0 = 0; j0 < w2; j0 += LANES) {
            const int j = FFMIN(j0, w2 - LANES);
            const int x = 2 * j;
            VEC s = MM(mullo_epi32)(even_lanes(v + x), fc);

            _Pragma("GCC unroll 8")
            for (int k = 0; k < half; k++)
                s = MM(add_epi32)(s, MM(mullo_epi32)(MM(add_epi32)(
                        even_lanes(v + x - half + k), even_lanes(v + x + half - k)),
                        MM(set1_epi32)(f[k])));
            s = MM(srli_epi32)(MM(add_epi32)(s, r16), 16);
            store_u16(dst + j, s);
        }
        dst = (uint16_t *)((uint8_t *)dst + dst_stride);
    }
}

/** ff_vmaf_vif_decimate() for w >= 2 * LANES, one copy per scale. */
static av_always_inline void vif_decimate(uint16_t *dst, ptrdiff_t dst_stride,
                                          const uint8_t *src, ptrdiff_t src_stride,
                                          int w, int h, int bpc, int scale, void *tmp)
{
    switch (scale) {
    case 1: decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 1, tmp); break;
    case 2: decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 2, tmp); break;
    default: decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 3, tmp); break;
    }
}
