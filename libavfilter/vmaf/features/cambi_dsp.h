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
 * CAMBI kernels (libvmaf 3.2.0 "cambi"), plain C.
 *
 * Images are 10-bit samples in uint16_t (a 16-bit input rounds up to 1024
 * at most); masks are 0/1 bytes. Strides are in elements, not bytes, except
 * for the input picture of ff_vmaf_cambi_preprocess().
 */

#ifndef AVFILTER_VMAF_FEATURES_CAMBI_DSP_H
#define AVFILTER_VMAF_FEATURES_CAMBI_DSP_H

#include <stddef.h>
#include <stdint.h>

#define FF_VMAF_CAMBI_SCALES     5
/** Largest number of contrast steps (max_log_contrast 5). */
#define FF_VMAF_CAMBI_MAX_DIFFS  32
/** window² must stay below this + 1: the reciprocal table's last index. */
#define FF_VMAF_CAMBI_MAX_AREA   4225
/** Largest preprocessed sample: (65535 + 32) >> 6. */
#define FF_VMAF_CAMBI_MAX_SAMPLE 1024

/**
 * Row kernels of CAMBI's integer stages, C or SIMD. Every kernel writes
 * its w outputs only and reads nothing beyond what the C version reads.
 */
typedef struct FFVmafCambiDSPContext {
    /**
     * One row of 8-bit input with the 2x2 anti-dither average, in 10 bits:
     * dst[j] = p[j] + p[j+1] + q[j] + q[j+1] (the last column doubles
     * p[w-1] + q[w-1]); q == NULL for the last row, which averages p
     * alone horizontally.
     */
    void (*dither_row_8)(uint16_t *dst, const uint8_t *p, const uint8_t *q, int w);
    /** dst[j] = ((src[j] << up) + rnd) >> down, rnd = half of 1 << down. */
    void (*convert_row_16)(uint16_t *dst, const uint16_t *src, int w, int up, int down);
    /**
     * Flags of one row: z[j] = (p[j] == p[j+1]) & (p[j] == q[j]), the last
     * column comparing vertically only; q == NULL for the last row, which
     * compares horizontally only (z[w-1] = 1).
     */
    void (*zero_deriv)(uint8_t *z, const uint16_t *p, const uint16_t *q, int w);
    /**
     * colsum[j] += add[j] - sub[j] (add, sub may be NULL), then
     * mask[j] = colsum[j-3] + ... + colsum[j+3] > threshold; colsum[-4..-1]
     * and colsum[w..w+3] are zero, and every colsum stays within 0..7 (it
     * counts flags of 7 rows).
     */
    void (*mask_row)(uint8_t *mask, uint16_t *colsum, const uint8_t *add,
                     const uint8_t *sub, int w, int threshold);
    /**
     * d[j] = s[2j], dm[j] = m[2j] for j < (w + 1) >> 1, w the source
     * width; d may be s and dm may be m (in place).
     */
    void (*decimate_row)(uint16_t *d, uint8_t *dm, const uint16_t *s,
                         const uint8_t *m, int w);
    /** Horizontal 3-tap mode: dst[j] = mode3(src[j-1..j+1]), ends copied. */
    void (*mode_h)(uint16_t *dst, const uint16_t *src, int w);
    /** Vertical 3-tap mode: dst[j] = mode3(a[j], b[j], c[j]). */
    void (*mode_v)(uint16_t *dst, const uint16_t *a, const uint16_t *b,
                   const uint16_t *c, int w);
    /**
     * Bit j % 64 of bits[j / 64] = (m[j] != 0), for j < w; the bits past w
     * in the last word are 0.
     */
    void (*mask_bits)(uint64_t *bits, const uint8_t *m, int w);
    /**
     * Add a row to the column histograms of ff_vmaf_cambi_c_values():
     * off[j] = (m[j] ? lane_of[v[j]] : dummy) + base + 4 * j, then
     * lanes[off[j]]++ (all w targets distinct: one per column word).
     */
    void (*hist_add)(uint16_t *lanes, uint32_t *off, const uint16_t *v,
                     const uint8_t *m, const uint32_t *lane_of,
                     uint32_t dummy, uint32_t base, int w);
    /** Remove a row added by hist_add: lanes[off[j]]--. */
    void (*hist_sub)(uint16_t *lanes, const uint32_t *off, int w);
} FFVmafCambiDSPContext;

/** Set the C kernels, then the SIMD ones av_get_cpu_flags() allows. */
void ff_vmaf_cambi_dsp_init(FFVmafCambiDSPContext *c);
void ff_vmaf_cambi_dsp_init_x86(FFVmafCambiDSPContext *c);

/**
 * Fill tab[0..FF_VMAF_CAMBI_MAX_AREA] with libvmaf's float reciprocals:
 * 1/i rounded to float except 42 entries that are one ulp off; tab[0] = 0.
 */
void ff_vmaf_cambi_recip_init(float *tab);

/**
 * Nearest-neighbour source index of each of the out output positions of a
 * line of in samples, with libvmaf's float stepping.
 */
void ff_vmaf_cambi_resample_map(int *map, int in, int out);

/**
 * Convert a luma plane to 10-bit samples, resampling it through xmap/ymap
 * (both NULL: same size, w x h of the input).
 *
 * @param src         luma plane: uint8_t when bpc == 8, else uint16_t
 * @param linesize    of src, in bytes
 * @param anti_dither apply the 2x2 average of encodes below 10 bits: each
 *                    output averages itself and its right, lower and
 *                    lower-right neighbours before filtering (the last
 *                    column and row average two, the last pixel is kept)
 */
void ff_vmaf_cambi_preprocess(const FFVmafCambiDSPContext *dsp,
                              uint16_t *dst, ptrdiff_t stride, int w, int h,
                              const uint8_t *src, ptrdiff_t linesize, int bpc,
                              const int *xmap, const int *ymap, int anti_dither);

/** Scratch elements of ff_vmaf_cambi_spatial_mask(). */
#define FF_VMAF_CAMBI_MASK_TMP(w) (5 * (size_t)(w) + 8)

/** Number of flat 7x7 neighbours a pixel needs to be masked in, minus 1. */
int ff_vmaf_cambi_mask_threshold(int w, int h);

/**
 * Spatial mask: 1 where more than threshold pixels of the 7x7 window have a
 * zero forward derivative both horizontally and vertically.
 *
 * @param tmp FF_VMAF_CAMBI_MASK_TMP(w) elements
 */
void ff_vmaf_cambi_spatial_mask(const FFVmafCambiDSPContext *dsp,
                                uint8_t *mask, ptrdiff_t mstride,
                                const uint16_t *img, ptrdiff_t stride,
                                int w, int h, int threshold, uint16_t *tmp);

/**
 * Keep the samples (2i, 2j) of image and mask, in place; the new size is
 * ((w + 1) >> 1) x ((h + 1) >> 1), strides unchanged.
 */
void ff_vmaf_cambi_decimate(const FFVmafCambiDSPContext *dsp,
                            uint16_t *img, ptrdiff_t stride,
                            uint8_t *mask, ptrdiff_t mstride, int w, int h);

/**
 * 3x3 separable mode filter in place (rows 0 and h - 1 untouched).
 *
 * @param tmp 3 * w elements
 */
void ff_vmaf_cambi_mode_filter(const FFVmafCambiDSPContext *dsp,
                               uint16_t *img, ptrdiff_t stride, int w, int h,
                               uint16_t *tmp);

typedef struct FFVmafCambiParams {
    int window;             ///< odd side of the histogram window
    int nb_diffs;           ///< contrast steps 1..nb_diffs
    /** Largest sample value a c-value can look at (v + d of a live step). */
    int max_value;
    /** Per sample value 0..FF_VMAF_CAMBI_MAX_SAMPLE: bit d - 1 is set when
     *  contrast step d counts for a pixel of that value. */
    const uint32_t *active;
    const int *weights;     ///< weight of step d at index d
    const float *recip;     ///< ff_vmaf_cambi_recip_init()
} FFVmafCambiParams;

/** Bins of the top 16 bits of nonzero c-values: [0.5, 2^14). */
#define FF_VMAF_CAMBI_TOPK_BINS 2048

/** What ff_vmaf_cambi_c_values() gathers for the top-k pooling. */
typedef struct FFVmafCambiTopk {
    uint32_t hist[FF_VMAF_CAMBI_TOPK_BINS]; ///< nonzero values by top 16 bits
    uint64_t total;     ///< their sum in units of 2^-24 (exact)
    int nonzero;
    int out_of_range;   ///< a nonzero value outside [0.5, 2^14)
} FFVmafCambiTopk;

/** Scratch bytes of ff_vmaf_cambi_c_values() for rows of w pixels. */
size_t ff_vmaf_cambi_c_values_tmp_size(int w, const FFVmafCambiParams *p);

/**
 * Banding confidence of every masked pixel, row-major with stride w into c,
 * and the top-k statistics of all pixels into st. The pixels outside the
 * mask have confidence 0, but c is left unwritten there:
 * ff_vmaf_cambi_topk_mean() writes those zeros only when it reads c.
 */
void ff_vmaf_cambi_c_values(const FFVmafCambiDSPContext *dsp, float *c,
                            const uint16_t *img, ptrdiff_t stride,
                            const uint8_t *mask, ptrdiff_t mstride,
                            int w, int h, const FFVmafCambiParams *p,
                            void *tmp, FFVmafCambiTopk *st);

/** Scratch elements of ff_vmaf_cambi_topk_mean(). */
#define FF_VMAF_CAMBI_TOPK_TMP 65536

/**
 * Mean of the k = clip((int)(topk * n), 1, n) largest of the n = w * h
 * c-values, with the bits of libvmaf's sequential double sum; c, mask and
 * st as ff_vmaf_cambi_c_values() left them. c may be reordered.
 */
double ff_vmaf_cambi_topk_mean(float *c, int w, int h, const uint8_t *mask,
                               ptrdiff_t mstride, double topk,
                               const FFVmafCambiTopk *st, uint32_t *tmp);

#endif /* AVFILTER_VMAF_FEATURES_CAMBI_DSP_H */
