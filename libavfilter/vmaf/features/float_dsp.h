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
 * Kernels shared by libvmaf's float feature family (float_psnr, float_ansnr,
 * float_moment, float_motion, float_vif, float_adm), plain C.
 *
 * Every function reproduces libvmaf's single-precision arithmetic step by
 * step: each product and each sum is rounded to float in the order given,
 * so results are bit-identical to libvmaf's whatever the loop structure.
 * This needs IEEE binary32 evaluation without contraction
 * (-ffp-contract=off, FLT_EVAL_METHOD 0).
 *
 * Float planes are row-major with strides in elements.
 */

#ifndef AVFILTER_VMAF_FEATURES_FLOAT_DSP_H
#define AVFILTER_VMAF_FEATURES_FLOAT_DSP_H

#include <stddef.h>
#include <stdint.h>

/** Most taps of a generated Gaussian (kernel scale 360/97 at scale 0: 65). */
#define FF_VMAF_FLOAT_MAX_TAPS 65

struct FFVmafFloatDSPContext;

/**
 * Luma samples in 8-bit units plus offset: x = f(f(v / 2^(bpc-8)) + offset).
 * src holds uint8_t when bpc == 8, else uint16_t; linesize in bytes.
 */
void ff_vmaf_float_from_luma(float *dst, ptrdiff_t dst_stride,
                             const uint8_t *src, ptrdiff_t linesize,
                             int w, int h, int bpc, float offset);

/** Reflect-101 mirror of index i into [0, n), for |overshoot| < n. */
static inline int ff_vmaf_float_r101(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
}

/**
 * Whether ks is one of libvmaf's accepted Gaussian kernel scales (SpEED
 * and float_vif share the list), matched within 1e-3.
 */
int ff_vmaf_float_kernelscale_valid(double ks);

/**
 * Taps of the Gaussian of "scale" q (0..4) for kernel scale ks:
 * 2^(4-q) + 1 scaled by ks, rounded up to an odd count, at least 3.
 */
int ff_vmaf_float_filter_size(int q, double ks);

/**
 * libvmaf's Gaussian of n taps and deviation sigma, normalised by its float
 * sum: exp in double, every other step in float.
 */
void ff_vmaf_float_gaussian(float *taps, int n, float sigma);

/**
 * Vertical pass of the separable convolution at row i of a w x h plane:
 * dst[j] = sum over k of f(g[k] * x[R101(i - n/2 + k)][j]), accumulated in
 * float from 0 in tap order. h must exceed n/2.
 */
void ff_vmaf_float_vfilter(float *dst, const float *src, ptrdiff_t stride,
                           int w, int h, int i, const float *g, int n);

/**
 * The five vertical passes of VIF's statistics in one sweep over two
 * planes x and y of one stride: dst[0..4] receive those of the samples x,
 * y and of the float products f(x * x), f(y * y), f(x * y).
 */
void ff_vmaf_float_vfilter_stats(float *const dst[5], const float *x,
                                 const float *y, ptrdiff_t stride,
                                 int w, int h, int i, const float *g, int n);

/**
 * Horizontal pass over one row: row[0..w-1] holds the samples and must be
 * writable from row[-n/2] to row[w - 1 + n/2], where the reflect-101
 * border is written first. dst[o] receives output column o * step for
 * o < nout. w must exceed n/2.
 */
void ff_vmaf_float_hfilter(float *dst, float *row, int w,
                           const float *g, int n, int step, int nout);

/** The reflect-101 border of r samples each side that ff_vmaf_float_hfilter() reads. */
static inline void ff_vmaf_float_hfilter_border(float *row, int w, int r)
{
    for (int t = 1; t <= r; t++) {
        row[-t]        = row[t];
        row[w - 1 + t] = row[w - 1 - t];
    }
}

/** Floats of scratch ff_vmaf_float_conv() needs for width w. */
static inline size_t ff_vmaf_float_conv_tmp_size(int w)
{
    return (size_t)w + FF_VMAF_FLOAT_MAX_TAPS;
}

/**
 * Separable convolution of a w x h plane with g on both axes (reflect-101
 * borders), keeping every step-th row and column from 0: step 1 is the
 * blur, step 2 the blur-and-decimate of a pyramid, which writes
 * floor(w / 2) x floor(h / 2) samples. w and h must exceed n/2.
 * tmp: ff_vmaf_float_conv_tmp_size(w) floats.
 */
void ff_vmaf_float_conv(const struct FFVmafFloatDSPContext *c,
                        float *dst, ptrdiff_t dst_stride,
                        const float *src, ptrdiff_t src_stride,
                        int w, int h, const float *g, int n, int step,
                        float *tmp);

/**
 * Direct (non-separable) n x n filter, n odd, of a w x h plane, as libvmaf's
 * ANSNR does it: each kernel row is summed in float over its columns, then
 * added to the total. Borders mirror as -t at the start and 2n - 1 - t at
 * the end (reflect-101, then symmetric). w, h must be at least n/2 + 1.
 * tmp: ff_vmaf_float_filter2d_tmp_size(w) floats.
 */
void ff_vmaf_float_filter2d(float *dst, ptrdiff_t dst_stride,
                            const float *src, ptrdiff_t src_stride,
                            int w, int h, const float *k, int n, float *tmp);

static inline size_t ff_vmaf_float_filter2d_tmp_size(int w)
{
    return 2 * (size_t)w + FF_VMAF_FLOAT_MAX_TAPS;
}

/**
 * Rows of one level of the db2 wavelet transform (libvmaf's float ADM).
 * Output index i of a length-n axis reads inputs 2i-1 .. 2i+2, where -1
 * becomes 1 and t >= n becomes 2n - 1 - t; each output sums the four
 * products in float. The vertical pass comes first.
 */
#define FF_VMAF_DWT_TAPS 4
extern const float ff_vmaf_dwt_lo[FF_VMAF_DWT_TAPS];
extern const float ff_vmaf_dwt_hi[FF_VMAF_DWT_TAPS];

/**
 * The border of the DWT and of ff_vmaf_float_filter2d(): -1 reads 1
 * (reflect-101), t >= n reads 2n - 1 - t (symmetric).
 */
static inline int ff_vmaf_float_dwt_index(int t, int n)
{
    return t < 0 ? -t : t >= n ? 2 * n - 1 - t : t;
}

/*
 * The scalar steps of ff_vmaf_float_dwt2_row(), here so that the SIMD
 * versions run the columns their vectors do not cover through the very
 * same code as the C one.
 */

/** One DWT output: the four products of c and s0..s3 summed in float from 0. */
static inline float ff_vmaf_float_dwt_sum(const float *c, float s0, float s1,
                                          float s2, float s3)
{
    float acc = 0.0f;
    acc += c[0] * s0;
    acc += c[1] * s1;
    acc += c[2] * s2;
    acc += c[3] * s3;
    return acc;
}

/** The vertical pass of columns j0 <= j < j1 of the rows src[] into lo and hi. */
static inline void ff_vmaf_float_dwt_vert(float *lo, float *hi,
                                          const float *const src[FF_VMAF_DWT_TAPS],
                                          int j0, int j1)
{
    const float *r0 = src[0], *r1 = src[1], *r2 = src[2], *r3 = src[3];

    for (int j = j0; j < j1; j++) {
        lo[j] = ff_vmaf_float_dwt_sum(ff_vmaf_dwt_lo, r0[j], r1[j], r2[j], r3[j]);
        hi[j] = ff_vmaf_float_dwt_sum(ff_vmaf_dwt_hi, r0[j], r1[j], r2[j], r3[j]);
    }
}

/** Output j of the horizontal pass of a row s of w samples, border mirrored. */
static inline void ff_vmaf_float_dwt_col(float *lo_out, float *hi_out,
                                         const float *s, int w, int j)
{
    float s0 = s[ff_vmaf_float_dwt_index(2 * j - 1, w)];
    float s1 = s[ff_vmaf_float_dwt_index(2 * j,     w)];
    float s2 = s[ff_vmaf_float_dwt_index(2 * j + 1, w)];
    float s3 = s[ff_vmaf_float_dwt_index(2 * j + 2, w)];
    lo_out[j] = ff_vmaf_float_dwt_sum(ff_vmaf_dwt_lo, s0, s1, s2, s3);
    hi_out[j] = ff_vmaf_float_dwt_sum(ff_vmaf_dwt_hi, s0, s1, s2, s3);
}

/**
 * Outputs j0 <= j < j1 (j1 <= ceil(w / 2)) of the horizontal pass of a row
 * s of w samples: output j reads s[2j - 1 .. 2j + 2], which leaves the row
 * only for column 0 and the last one or two; those take the mirror.
 */
static inline void ff_vmaf_float_dwt_horiz(float *lo_out, float *hi_out,
                                           const float *s, int w, int j0, int j1)
{
    int j = j0;

    if (j == 0 && j < j1)
        ff_vmaf_float_dwt_col(lo_out, hi_out, s, w, j++);
    for (; j < j1 && 2 * j + 2 < w; j++) {
        const float *p = s + 2 * j - 1;
        lo_out[j] = ff_vmaf_float_dwt_sum(ff_vmaf_dwt_lo, p[0], p[1], p[2], p[3]);
        hi_out[j] = ff_vmaf_float_dwt_sum(ff_vmaf_dwt_hi, p[0], p[1], p[2], p[3]);
    }
    for (; j < j1; j++)
        ff_vmaf_float_dwt_col(lo_out, hi_out, s, w, j);
}

/**
 * Output row i of one DWT level of a plane w samples wide (w >= 2), from
 * its source rows ff_vmaf_float_dwt_index(2i - 1 + k, h), k = 0..3, into
 * the four bands, each ceil(w / 2) wide: a = lo/lo, v = lo vertically and
 * hi horizontally, hb = hi/lo, d = hi/hi (libvmaf's band names).
 * tmp: 2 * w floats.
 */
void ff_vmaf_float_dwt2_row(float *a, float *v, float *hb, float *d,
                            const float *const src[FF_VMAF_DWT_TAPS], int w,
                            float *tmp);

/**
 * One DWT level of a w x h plane (w, h >= 2) into four bands of
 * ceil(w / 2) x ceil(h / 2). tmp: 2 * w floats.
 */
void ff_vmaf_float_dwt2(const struct FFVmafFloatDSPContext *c,
                        float *a, float *v, float *hb, float *d,
                        ptrdiff_t band_stride,
                        const float *src, ptrdiff_t src_stride,
                        int w, int h, float *tmp);

enum FFVmafResizeMethod {
    FF_VMAF_RESIZE_NEAREST,
    FF_VMAF_RESIZE_BILINEAR,
};

/**
 * Resample a w x h plane to dw x dh as libvmaf's prescale does (nearest:
 * truncated float source coordinates; bilinear: centre-aligned weights
 * with a mirrored border).
 */
void ff_vmaf_float_resize(float *dst, int dw, int dh,
                          const float *src, ptrdiff_t src_stride, int w, int h,
                          enum FFVmafResizeMethod method);

/** libvmaf's float_psnr peak and cap for bpc: (2^bpc - 1) / 2^(bpc-8), 6 bpc + 12. */
static inline double ff_vmaf_float_psnr_peak(int bpc)
{
    return (double)((1 << bpc) - 1) / (double)(1 << (bpc - 8));
}

static inline double ff_vmaf_float_psnr_cap(int bpc)
{
    return 6.0 * bpc + 12.0;
}

/**
 * float_vif's per-pixel information terms of one row, from the five
 * filtered statistics st[] = mu1, mu2, x², y², x·y: num[j] and den[j] are
 * the terms libvmaf sums (with its fast log2), for noise variance
 * sigma_nsq and enhancement gain limit egl. The caller sums them in order.
 */
void ff_vmaf_float_vif_terms(float *num, float *den, const float *const st[5],
                             int w, double sigma_nsq, float egl);

/**
 * float_adm's contrast masking of one inner row, columns j0 <= j < j1 of
 * bands w wide (w >= 2): out[ori][j] = max(|sig[ori][j]| - thr, 0), where
 * thr sums over the three orientations the 3x3 neighbourhood of the
 * masker's rows mflt[0..2][ori] with the centre replaced by twice its
 * weight of |mdst[ori][j]| (in double), each neighbourhood summed row by
 * row in float; columns -1 and w read 1 and w - 1. bypass: thr = 0.
 */
void ff_vmaf_float_adm_cm(float *const out[3], const float *const sig[3],
                          const float *const mdst[3], const float *const mflt[3][3],
                          int j0, int j1, int w, int bypass);

/**
 * float_adm's decoupling of one band row, columns j0 <= j < j1: the dis
 * detail t (h, v, d) split into the part restored from ref o and the
 * additive rest, enhancements up to gain limit egl counted as restored,
 * then weighted by the CSF factors rf[0] (h, v) and rf[1] (d): dst_* and
 * their masking contributions flt_* = f(0.0333333351 * |dst_*|).
 */
void ff_vmaf_float_adm_decouple(float *const dst_r[3], float *const flt_r[3],
                                float *const dst_a[3], float *const flt_a[3],
                                const float *const o[3], const float *const t[3],
                                const float rf[2], double egl, int j0, int j1);

/**
 * The estimate of 1 / x that float_adm's decouple refines with one Newton
 * step: the x86 RCPSS instruction, whose bits are the CPU vendor's (and
 * the same as a lane of RCPPS), or, where ff_vmaf_float_rcp_is_estimate()
 * is 0 (no SSE), the IEEE quotient. The GPU twin reproduces it from a table.
 */
float ff_vmaf_float_rcp_estimate(float x);
int ff_vmaf_float_rcp_is_estimate(void);

/**
 * The hot kernels above, as function pointers: the C versions
 * (ff_vmaf_float_from_luma, _vfilter, _vfilter_stats, _hfilter,
 * _dwt2_row, _vif_terms, _adm_cm, _adm_decouple, _filter2d) are the
 * reference, and every SIMD version gives the same bits
 * for the same arguments. The drivers ff_vmaf_float_conv() and
 * ff_vmaf_float_dwt2() call through them.
 */
typedef struct FFVmafFloatDSPContext {
    void (*from_luma)(float *dst, ptrdiff_t dst_stride,
                      const uint8_t *src, ptrdiff_t linesize,
                      int w, int h, int bpc, float offset);
    void (*vfilter)(float *dst, const float *src, ptrdiff_t stride,
                    int w, int h, int i, const float *g, int n);
    void (*vfilter_stats)(float *const dst[5], const float *x,
                          const float *y, ptrdiff_t stride,
                          int w, int h, int i, const float *g, int n);
    void (*hfilter)(float *dst, float *row, int w,
                    const float *g, int n, int step, int nout);
    void (*dwt2_row)(float *a, float *v, float *hb, float *d,
                     const float *const src[FF_VMAF_DWT_TAPS], int w,
                     float *tmp);
    void (*vif_terms)(float *num, float *den, const float *const st[5],
                      int w, double sigma_nsq, float egl);
    void (*adm_cm)(float *const out[3], const float *const sig[3],
                   const float *const mdst[3], const float *const mflt[3][3],
                   int j0, int j1, int w, int bypass);
    void (*adm_decouple)(float *const dst_r[3], float *const flt_r[3],
                         float *const dst_a[3], float *const flt_a[3],
                         const float *const o[3], const float *const t[3],
                         const float rf[2], double egl, int j0, int j1);
    void (*filter2d)(float *dst, ptrdiff_t dst_stride,
                     const float *src, ptrdiff_t src_stride,
                     int w, int h, const float *k, int n, float *tmp);
} FFVmafFloatDSPContext;

/** Set the fastest versions this CPU runs. */
void ff_vmaf_float_dsp_init(FFVmafFloatDSPContext *c);
void ff_vmaf_float_dsp_init_x86(FFVmafFloatDSPContext *c);

#endif /* AVFILTER_VMAF_FEATURES_FLOAT_DSP_H */
