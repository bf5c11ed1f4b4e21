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
 * Integer VIF kernels (libvmaf 3.2.0 "vif"), plain C.
 *
 * This is the reference that SIMD and GPU versions are checked against.
 * A plane is described by its sample depth only: bpc == 8 means uint8_t
 * samples, anything else uint16_t. Pyramid levels 1..3 are uint16_t in Q8
 * of 8-bit units, and every rounding rule of libvmaf for them is the one
 * of a 16-bit input, so they are passed with bpc = 16.
 *
 * Strides are in bytes.
 *
 * Everything a scale contributes is an exact integer (FFVmafVifAccum), so
 * other implementations can be compared without any float tolerance.
 */

#ifndef AVFILTER_VMAF_FEATURES_VIF_DSP_H
#define AVFILTER_VMAF_FEATURES_VIF_DSP_H

#include <stddef.h>
#include <stdint.h>

#define FF_VMAF_VIF_SCALES   4
#define FF_VMAF_VIF_MAX_TAPS 17
/** Largest half filter width: the padding of the row buffers. */
#define FF_VMAF_VIF_MAX_HALF (FF_VMAF_VIF_MAX_TAPS / 2)

/** Q16 Gaussian taps of each scale (sum 65536) and their counts. */
extern const uint16_t ff_vmaf_vif_filter[FF_VMAF_VIF_SCALES][FF_VMAF_VIF_MAX_TAPS];
extern const int      ff_vmaf_vif_filter_width[FF_VMAF_VIF_SCALES];

/** Entries of the log2 table: indices 32768..65535 (16-bit mantissas). */
#define FF_VMAF_VIF_LOG2_SIZE 32768
/**
 * Entries to allocate for the table: SIMD versions gather it 32 bits at a
 * time, so one entry past the last must be readable.
 */
#define FF_VMAF_VIF_LOG2_ALLOC (FF_VMAF_VIF_LOG2_SIZE + 2)

/**
 * Fill tab[i - 32768] = round(2048 * log2f(i)) for i in 32768..65535.
 */
void ff_vmaf_vif_log2_init(uint16_t tab[FF_VMAF_VIF_LOG2_SIZE]);

/**
 * Scratch needed by ff_vmaf_vif_statistic() and ff_vmaf_vif_decimate()
 * for planes up to w samples wide, in bytes.
 */
#define FF_VMAF_VIF_TMP_SIZE(w) \
    (((size_t)(w) + 2 * FF_VMAF_VIF_MAX_HALF) * (24 * FF_VMAF_VIF_MAX_TAPS + 32))

/**
 * Reflect-101 index of i in [0, n): the reflection repeats for planes
 * smaller than the filter. The C and SIMD kernels' one border rule.
 */
static inline int ff_vmaf_vif_mirror(int i, int n)
{
    if (n <= 1)
        return 0;
    for (;;) {
        if (i < 0)
            i = -i;
        else if (i >= n)
            i = 2 * n - 2 - i;
        else
            return i;
    }
}

/** Mirror the half samples on each side of a row of w values at buf[0..w-1]. */
#define FF_VMAF_VIF_PAD_ROW(buf, w, half) do {                                   \
        for (int p_ = 1; p_ <= (half); p_++) {                                   \
            (buf)[-p_]          = (buf)[ff_vmaf_vif_mirror(-p_, (w))];           \
            (buf)[(w) - 1 + p_] = (buf)[ff_vmaf_vif_mirror((w) - 1 + p_, (w))];  \
        }                                                                        \
    } while (0)

/** The exact integer sums of one scale. */
typedef struct FFVmafVifAccum {
    int64_t num_log;    ///< Σ 2048*log2 of the gain terms (textured pixels)
    int64_t den_log;    ///< Σ 2048*log2(1 + σ1²/σn²) (textured pixels)
    int64_t num_nonlog; ///< Σ σ2² in Q16 over flat pixels (σ1² < σn²)
    int64_t den_nonlog; ///< number of flat pixels
} FFVmafVifAccum;

/**
 * Statistics of one scale: Gaussian-filtered means, variances and
 * covariance of (ref, dis) and the per-pixel VIF terms, summed into acc
 * (which is overwritten).
 *
 * @param bpc   8 for uint8_t samples, else the depth of uint16_t samples
 *              (16 for pyramid levels)
 * @param scale selects the filter (0..3)
 * @param egl   enhancement gain limit (1.0 .. 100)
 * @param log2_tab the table of ff_vmaf_vif_log2_init(), allocated with
 *              FF_VMAF_VIF_LOG2_ALLOC entries
 * @param tmp   FF_VMAF_VIF_TMP_SIZE(w) bytes of scratch
 */
void ff_vmaf_vif_statistic(FFVmafVifAccum *acc,
                           const uint8_t *ref, ptrdiff_t ref_stride,
                           const uint8_t *dis, ptrdiff_t dis_stride,
                           int w, int h, int bpc, int scale, double egl,
                           const uint16_t *log2_tab, void *tmp);

/**
 * Make pyramid level `scale` (1..3) from the previous level: Gaussian
 * filter of that scale, then keep even rows and columns. dst is
 * (w / 2) x (h / 2) uint16_t samples in Q8 of 8-bit units.
 *
 * @param bpc  depth of src as for ff_vmaf_vif_statistic()
 * @param tmp  FF_VMAF_VIF_TMP_SIZE(w) bytes of scratch
 */
void ff_vmaf_vif_decimate(uint16_t *dst, ptrdiff_t dst_stride,
                          const uint8_t *src, ptrdiff_t src_stride,
                          int w, int h, int bpc, int scale, void *tmp);

/**
 * The per-scale numerator and denominator as libvmaf reports them
 * (single precision; the scale score is num / den in float).
 */
void ff_vmaf_vif_accum_to_float(const FFVmafVifAccum *acc,
                                float *num, float *den);

/**
 * The kernels of one scale, by plane: ff_vmaf_vif_dsp_init() sets the C
 * ones (ff_vmaf_vif_statistic(), ff_vmaf_vif_decimate()), then the best
 * the CPU runs. Every version gives the same bits: the same sums and the
 * same decimated planes, for any size, stride and depth.
 */
typedef struct FFVmafVifDSPContext {
    /** As ff_vmaf_vif_statistic(). */
    void (*statistic)(FFVmafVifAccum *acc,
                      const uint8_t *ref, ptrdiff_t ref_stride,
                      const uint8_t *dis, ptrdiff_t dis_stride,
                      int w, int h, int bpc, int scale, double egl,
                      const uint16_t *log2_tab, void *tmp);
    /** As ff_vmaf_vif_decimate(). */
    void (*decimate)(uint16_t *dst, ptrdiff_t dst_stride,
                     const uint8_t *src, ptrdiff_t src_stride,
                     int w, int h, int bpc, int scale, void *tmp);
} FFVmafVifDSPContext;

void ff_vmaf_vif_dsp_init(FFVmafVifDSPContext *c);
void ff_vmaf_vif_dsp_init_x86(FFVmafVifDSPContext *c);

#endif /* AVFILTER_VMAF_FEATURES_VIF_DSP_H */
