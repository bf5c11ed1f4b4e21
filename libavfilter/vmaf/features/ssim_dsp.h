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
 * Kernels of libvmaf 3.2.0's float_ssim and float_ms_ssim, plain C.
 *
 * This is the reference that SIMD and GPU versions are checked against.
 * Every stage works on float planes in 8-bit units; strides are counted
 * in floats. The evaluation types (float products, double accumulation,
 * float storage) are part of the contract: they decide the bits.
 */

#ifndef AVFILTER_VMAF_FEATURES_SSIM_DSP_H
#define AVFILTER_VMAF_FEATURES_SSIM_DSP_H

#include <stddef.h>
#include <stdint.h>

/** Taps of the Gaussian window; its output is (w - 10) x (h - 10). */
#define FF_VMAF_SSIM_WINDOW 11

/** Taps per dimension of the MS-SSIM low-pass kernel. */
#define FF_VMAF_MS_SSIM_LOWPASS 9

extern const float ff_vmaf_ssim_window[FF_VMAF_SSIM_WINDOW];
extern const float ff_vmaf_ms_ssim_lowpass[FF_VMAF_MS_SSIM_LOWPASS][FF_VMAF_MS_SSIM_LOWPASS];

/**
 * Size of one dimension after decimation by factor. libvmaf adds one for
 * every odd size, whatever the factor.
 */
static inline int ff_vmaf_ssim_decimated_size(int n, int factor)
{
    return n / factor + (n & 1);
}

/**
 * Convert a w x h luma plane to float in 8-bit units (value / 2^(bpc - 8)).
 *
 * @param bpc 8 for uint8_t samples, else the depth of uint16_t samples
 * @param src_stride in bytes
 */
void ff_vmaf_ssim_load(float *dst, ptrdiff_t dst_stride,
                       const uint8_t *src, ptrdiff_t src_stride,
                       int w, int h, int bpc);

/**
 * Decimate by factor (2 to 16) with a factor x factor box filter (weights
 * 1/factor^2 in float) centred on (x * factor, y * factor), taps from
 * -factor/2 to (factor + 1)/2 - 1, symmetric borders. The output is
 * ff_vmaf_ssim_decimated_size(w, factor) x ..._size(h, factor).
 */
void ff_vmaf_ssim_box_decimate(float *dst, ptrdiff_t dst_stride,
                               const float *src, ptrdiff_t src_stride,
                               int w, int h, int factor);

/**
 * MS-SSIM's decimation by 2 with the 9 x 9 low-pass table, symmetric
 * borders. The output is ff_vmaf_ssim_decimated_size(w, 2) x (h, 2).
 */
void ff_vmaf_ms_ssim_decimate(float *dst, ptrdiff_t dst_stride,
                              const float *src, ptrdiff_t src_stride,
                              int w, int h);

/**
 * Sums over the (w - 10) x (h - 10) window positions, each a sequential
 * double sum in raster order.
 */
typedef struct FFVmafSsimSums {
    double l, c, s;     ///< luminance, contrast and structure terms
    double ssim;        ///< (l * c) * s
} FFVmafSsimSums;

/**
 * Floats between two maps of one slot of ff_vmaf_ssim_sums()' ring: the
 * w - 10 outputs of a row, rounded up to 8 so that SIMD kernels may work
 * on whole vectors.
 */
static inline int ff_vmaf_ssim_map_stride(int w)
{
    return (w - FF_VMAF_SSIM_WINDOW + 1 + 7) & ~7;
}

/** Floats of scratch that FFVmafSsimDSPContext.window_h needs for width w. */
static inline size_t ff_vmaf_ssim_row_tmp_floats(int w)
{
    return (size_t)5 * (((w + 7) & ~7) + 16);
}

/** Floats of scratch that ff_vmaf_ssim_sums() needs for width w. */
static inline size_t ff_vmaf_ssim_tmp_floats(int w)
{
    return (size_t)5 * FF_VMAF_SSIM_WINDOW * ff_vmaf_ssim_map_stride(w) +
           ff_vmaf_ssim_row_tmp_floats(w);
}

/**
 * The SSIM core at one scale: Gaussian-window means, variances and
 * covariance of (ref, dis) and the per-position l, c, s terms.
 * w and h must be at least FF_VMAF_SSIM_WINDOW. The C reference: the
 * driver below with the C kernels.
 *
 * @param tmp ff_vmaf_ssim_tmp_floats(w) floats
 */
void ff_vmaf_ssim_sums(FFVmafSsimSums *sums,
                       const float *ref, ptrdiff_t ref_stride,
                       const float *dis, ptrdiff_t dis_stride,
                       int w, int h, float *tmp);

/* C kernels of the dsp context (see FFVmafSsimDSPContext). */
void ff_vmaf_ssim_window_h_c(float *dst, ptrdiff_t map_stride,
                             const float *a, const float *b, int w, float *tmp);
void ff_vmaf_ssim_window_v_c(FFVmafSsimSums *sums,
                             const float *const rows[FF_VMAF_SSIM_WINDOW],
                             ptrdiff_t map_stride, int ow);

typedef struct FFVmafSsimDSPContext {
    /** ff_vmaf_ssim_load(), for the bpc of the init. */
    void (*load)(float *dst, ptrdiff_t dst_stride,
                 const uint8_t *src, ptrdiff_t src_stride,
                 int w, int h, int bpc);
    /** ff_vmaf_ssim_box_decimate(). */
    void (*box_decimate)(float *dst, ptrdiff_t dst_stride,
                         const float *src, ptrdiff_t src_stride,
                         int w, int h, int factor);
    /** ff_vmaf_ms_ssim_decimate(). */
    void (*ms_ssim_decimate)(float *dst, ptrdiff_t dst_stride,
                             const float *src, ptrdiff_t src_stride,
                             int w, int h);
    /**
     * Horizontal Gaussian pass of one row: the five maps ref, dis, ref^2,
     * dis^2 and ref dis (float products), each filtered to ow = w - 10
     * outputs (a double sum of float products in tap order, stored as
     * float) at dst + m * map_stride, m = 0..4.
     * May write up to ff_vmaf_ssim_map_stride(w) floats of each map (the
     * lanes past ow with finite values of no meaning); map_stride is at
     * least that.
     *
     * @param tmp ff_vmaf_ssim_row_tmp_floats(w) floats of scratch
     */
    void (*window_h)(float *dst, ptrdiff_t map_stride,
                     const float *a, const float *b, int w, float *tmp);
    /**
     * Vertical Gaussian pass of one output row and its SSIM terms: rows[k]
     * holds window_h's maps of input row k of the window. Adds the ow
     * positions' l, c, s and (l c) s to sums, in x order.
     * May read up to (ow + 7) & ~7 floats of each map.
     */
    void (*window_v)(FFVmafSsimSums *sums,
                     const float *const rows[FF_VMAF_SSIM_WINDOW],
                     ptrdiff_t map_stride, int ow);
} FFVmafSsimDSPContext;

/**
 * Set the C kernels, then the SIMD ones av_get_cpu_flags() allows.
 * @param bpc the depth load will be called with (8..16)
 */
void ff_vmaf_ssim_dsp_init(FFVmafSsimDSPContext *c, int bpc);
void ff_vmaf_ssim_dsp_init_x86(FFVmafSsimDSPContext *c, int bpc);

/* AVX2 kernels (x86/ssim_avx2.c), same contracts as the C ones. */
void ff_vmaf_ssim_load_avx2(float *dst, ptrdiff_t dst_stride,
                            const uint8_t *src, ptrdiff_t src_stride,
                            int w, int h, int bpc);
/* Vector code for factors 2, 4 and 8; the C kernel for the others. */
void ff_vmaf_ssim_box_decimate_avx2(float *dst, ptrdiff_t dst_stride,
                                    const float *src, ptrdiff_t src_stride,
                                    int w, int h, int factor);
void ff_vmaf_ms_ssim_decimate_avx2(float *dst, ptrdiff_t dst_stride,
                                   const float *src, ptrdiff_t src_stride,
                                   int w, int h);
void ff_vmaf_ssim_window_h_avx2(float *dst, ptrdiff_t map_stride,
                                const float *a, const float *b, int w, float *tmp);
void ff_vmaf_ssim_window_v_avx2(FFVmafSsimSums *sums,
                                const float *const rows[FF_VMAF_SSIM_WINDOW],
                                ptrdiff_t map_stride, int ow);

/** ff_vmaf_ssim_sums() through the kernels of c. */
void ff_vmaf_ssim_sums_dsp(const FFVmafSsimDSPContext *c, FFVmafSsimSums *sums,
                           const float *ref, ptrdiff_t ref_stride,
                           const float *dis, ptrdiff_t dis_stride,
                           int w, int h, float *tmp);

/**
 * The cap of enable_db: ceil(10 log10(peak^2 / (0.5 / (w h)))) with
 * peak = 2^bpc - 1 when clip is set, +inf otherwise.
 */
double ff_vmaf_ssim_max_db(int clip, int w, int h, int bpc);

/** v in dB: min(-10 log10(1 - v), max_db). */
double ff_vmaf_ssim_to_db(double v, double max_db);

#endif /* AVFILTER_VMAF_FEATURES_SSIM_DSP_H */
