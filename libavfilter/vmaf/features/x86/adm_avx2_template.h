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
 * The AVX2 ADM kernels whose loop is the same at scale 0 (int16 bands,
 * int32 CSF sums) and at scales 1..3 (int32 bands, int64 CSF sums): the
 * shared body of both, included by adm_avx2.c once for each. It is a .h
 * rather than a _template.c because every .c file of vmaf/x86 is built as
 * an object of its own (vmaf/Makefile, tools/dev-engine.sh).
 *
 * What differs between the scales (widening loads, packing stores, the
 * restore and cube arithmetic) is in the hooks below, written per scale
 * in adm_avx2.c; here are the loops, the vector/remainder split and the
 * hand-off to the C kernels.
 *
 * The including file includes adm_dsp.h and simd.h, opens its target
 * region, has ROWS3(), hsum64(), GainLimit and gain_limit_init(), and
 * defines, before including it:
 * - BAND_T: the band sample type; CSF_T: the type of the CSF sums;
 *   CSF_LANES: how many CSF_T one vector holds;
 * - ADD_CSF(a, b), SUB_CSF(a, b): wrapping addition and subtraction of
 *   vectors of CSF_T;
 * - FUNC(name): name with this instantiation's suffix (_s0, _s123), which
 *   names the C kernels ff_vmaf_adm_decouple and ff_vmaf_adm_cm_row, and
 *   the hooks:
 *   - FUNC(angle8)(oh, ov, th, tv): the dword masks of the 8 columns whose
 *     (o, t) angle is within one degree;
 *   - FUNC(load_band8)(p): 8 band samples as int32;
 *   - FUNC(restore8)(o, t, angle, div_lut, gain): the restored band;
 *   - FUNC(store_bands8)(r, a, rr, aa): 8 restored and additive samples;
 *   - FUNC(CMConsts), FUNC(cm_consts)(CM_ARGS): the masking constants;
 *   - FUNC(cm_cubes)(acc, x, j, thr, consts): adds the masked cubes of
 *     CSF_LANES columns at j to acc[3], or returns 0 (and adds nothing)
 *     where they need the C kernel;
 * - GAIN_IN_FLOAT: whether the gain limit may run in float lanes
 *   (gain_limit_init());
 * - HSUM3_C: the C kernel of the 3-column sums of CSF_T;
 * - CM_PARAMS, CM_ARGS: the masking kernel's trailing parameters, and the
 *   same as arguments.
 * They are all #undef'd at the end, so that the next instantiation can
 * define them again.
 *
 * It gives the AVX2 versions of HSUM3_C, FUNC(ff_vmaf_adm_decouple) and
 * FUNC(ff_vmaf_adm_cm_row) (and the helper FUNC(cm_row_c)).
 */

#define ADM_AVX2_(name) name ## _avx2
#define ADM_AVX2(name)  ADM_AVX2_(name)

void ADM_AVX2(HSUM3_C)(CSF_T *dst, const CSF_T *src, int n)
{
    const int nv = n & ~(CSF_LANES - 1);

    for (int j = 0; j < nv; j += CSF_LANES) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(src + j - 1));
        __m256i b = _mm256_loadu_si256((const __m256i *)(src + j));
        __m256i c = _mm256_loadu_si256((const __m256i *)(src + j + 1));
        _mm256_storeu_si256((__m256i *)(dst + j), ADD_CSF(ADD_CSF(a, b), c));
    }
    if (nv < n)
        HSUM3_C(dst + nv, src + nv, n - nv);
}

void ADM_AVX2(FUNC(ff_vmaf_adm_decouple))(BAND_T *const r[3], BAND_T *const a[3],
                                          const BAND_T *const o[3],
                                          const BAND_T *const t[3],
                                          int n, double egl, const int32_t *div_lut)
{
    const GainLimit gain = gain_limit_init(egl, GAIN_IN_FLOAT);
    const int nv = n & ~7;

    for (int j = 0; j < nv; j += 8) {
        const __m256i angle = FUNC(angle8)(o[0] + j, o[1] + j, t[0] + j, t[1] + j);

        for (int b = 0; b < 3; b++) {
            __m256i ob = FUNC(load_band8)(o[b] + j);
            __m256i tb = FUNC(load_band8)(t[b] + j);
            __m256i rr = FUNC(restore8)(ob, tb, angle, div_lut, &gain);
            FUNC(store_bands8)(r[b] + j, a[b] + j, rr, _mm256_sub_epi32(tb, rr));
        }
    }
    if (nv < n)
        FUNC(ff_vmaf_adm_decouple)(ROWS3(BAND_T, r, nv), ROWS3(BAND_T, a, nv),
                                   ROWS3(const BAND_T, o, nv),
                                   ROWS3(const BAND_T, t, nv), n - nv, egl, div_lut);
}

/* The C kernel's masked sums of the cnt columns at j, added to extra:
 * for the remainder of a row, and for vectors that cm_cubes() leaves
 * (values too large for its products; the C int64 products may wrap). */
static av_always_inline void FUNC(cm_row_c)(uint64_t extra[3], const BAND_T *const x[3],
                                            const CSF_T *const hs[3], const CSF_T *flt,
                                            const CSF_T *ctr, int j, int cnt, CM_PARAMS)
{
    int64_t part[3];

    FUNC(ff_vmaf_adm_cm_row)(part, ROWS3(const BAND_T, x, j), ROWS3(const CSF_T, hs, j),
                             flt + j, ctr + j, cnt, CM_ARGS);
    for (int b = 0; b < 3; b++)
        extra[b] += (uint64_t)part[b];
}

void ADM_AVX2(FUNC(ff_vmaf_adm_cm_row))(int64_t sum[3], const BAND_T *const x[3],
                                        const CSF_T *const hs[3], const CSF_T *flt,
                                        const CSF_T *ctr, int n, CM_PARAMS)
{
    const FUNC(CMConsts) k = FUNC(cm_consts)(CM_ARGS);
    __m256i acc[3] = { _mm256_setzero_si256(), _mm256_setzero_si256(),
                       _mm256_setzero_si256() };
    uint64_t extra[3] = { 0, 0, 0 };
    const int nv = n & ~(CSF_LANES - 1);

    for (int j = 0; j < nv; j += CSF_LANES) {
#define LD(p) _mm256_loadu_si256((const __m256i *)((p) + j))
        /* The threshold is a CSF_T sum in C, wrapping like this one. */
        __m256i thr = ADD_CSF(ADD_CSF(ADD_CSF(LD(hs[0]), LD(hs[1])),
                                      SUB_CSF(LD(hs[2]), LD(flt))), LD(ctr));
#undef LD
        if (!FUNC(cm_cubes)(acc, x, j, thr, &k))
            FUNC(cm_row_c)(extra, x, hs, flt, ctr, j, CSF_LANES, CM_ARGS);
    }
    if (nv < n)
        FUNC(cm_row_c)(extra, x, hs, flt, ctr, nv, n - nv, CM_ARGS);
    /* Sums wrap modulo 2^64 in any order, as the C ones. */
    for (int b = 0; b < 3; b++)
        sum[b] = (int64_t)((uint64_t)hsum64(acc[b]) + extra[b]);
}

#undef ADM_AVX2
#undef ADM_AVX2_
#undef BAND_T
#undef CSF_T
#undef CSF_LANES
#undef ADD_CSF
#undef SUB_CSF
#undef FUNC
#undef GAIN_IN_FLOAT
#undef HSUM3_C
#undef CM_PARAMS
#undef CM_ARGS
