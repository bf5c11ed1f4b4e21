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
 * CIEDE2000 kernels (libvmaf 3.2.0 "ciede"), plain C.
 *
 * Each pixel is converted from BT.709 limited-range YCbCr to CIELAB and
 * the colour difference of the two pictures is libvmaf's variant of
 * Delta E 2000. The float/double mix and the glibc libm calls are part
 * of the definition: every intermediate is rounded where libvmaf rounds
 * it, so keep -ffp-contract=off and the operation order.
 */

#ifndef AVFILTER_VMAF_FEATURES_CIEDE_DSP_H
#define AVFILTER_VMAF_FEATURES_CIEDE_DSP_H

#include <stddef.h>
#include <stdint.h>

typedef struct FFVmafLab {
    float l, a, b;
} FFVmafLab;

/** Per-bit-depth normalisation of the samples. */
typedef struct FFVmafCiedeScale {
    double y_off, y_mul;    ///< y = (Y - y_off) * y_mul
    double c_off, c_mul;    ///< same for Cb and Cr
} FFVmafCiedeScale;

void ff_vmaf_ciede_scale_init(FFVmafCiedeScale *sc, int bpc);

/** CIELAB of one pixel given its integer samples. */
FFVmafLab ff_vmaf_ciede_yuv_to_lab(const FFVmafCiedeScale *sc,
                                   int y, int u, int v);

/** libvmaf's Delta E 2000 (weights kL 0.65, kC 1, kH 4) of two colours. */
float ff_vmaf_ciede_delta_e(const FFVmafLab *ref, const FFVmafLab *dis);

/**
 * Colours seen so far in one picture pair, so that repeated colours (flat
 * areas, shared chroma) and repeated colour pairs are converted and
 * compared only once. A stored value is exactly what a new computation
 * would give, so the cache never changes a result. The tables are
 * direct-mapped (a collision evicts the older entry) and each is dropped
 * for the rest of the picture when it answers too few lookups to pay for
 * them (noise-like content).
 */
typedef struct FFVmafCiedeCacheLab {
    uint64_t key;       ///< Y << 32 | Cb << 16 | Cr; UINT64_MAX: empty
    FFVmafLab lab;
} FFVmafCiedeCacheLab;

typedef struct FFVmafCiedeCacheDE {
    uint64_t ref, dis;  ///< colour keys as above
    float de;
} FFVmafCiedeCacheDE;

typedef struct FFVmafCiedeCache {
    FFVmafCiedeCacheLab *lab;
    FFVmafCiedeCacheDE  *de;
    int lab_bits, de_bits;  ///< log2 of the entry counts
    int use_lab, use_de;
    unsigned lab_lookups, lab_hits, de_lookups, de_hits;
    /** Last colour converted in each picture: neighbours often repeat. */
    uint64_t last_key[2];
    FFVmafLab last_lab[2];
} FFVmafCiedeCache;

/** Allocate an empty cache suited to nb_pixels pixels; < 0 on error. */
int  ff_vmaf_ciede_cache_alloc(FFVmafCiedeCache *c, int64_t nb_pixels);
void ff_vmaf_ciede_cache_free(FFVmafCiedeCache *c);

/**
 * One picture row: add the Delta E of its w pixels, left to right, to sum
 * and return the new sum. ref[0] and dis[0] are luma rows, [1] and [2]
 * chroma rows whose sample j >> ss_x goes with luma sample j. Samples are
 * uint8_t when bpc == 8, else uint16_t.
 */
double ff_vmaf_ciede_row(double sum, const FFVmafCiedeScale *sc,
                         FFVmafCiedeCache *cache,
                         const uint8_t *const ref[3],
                         const uint8_t *const dis[3],
                         int w, int ss_x, int bpc);

typedef struct FFVmafCiedeDSPContext {
    /**
     * One picture row, as ff_vmaf_ciede_row() (for the init's depth: bpc
     * is passed on unchanged).
     */
    double (*row)(double sum, const FFVmafCiedeScale *sc,
                  FFVmafCiedeCache *cache,
                  const uint8_t *const ref[3], const uint8_t *const dis[3],
                  int w, int ss_x, int bpc);
} FFVmafCiedeDSPContext;

/**
 * Set the C kernels for samples of bpc bits, then the SIMD ones
 * av_get_cpu_flags() allows (none so far: the time goes to libm's pow,
 * atan2, sin, cos and exp, which must stay scalar libm calls to keep
 * libvmaf's bits).
 */
void ff_vmaf_ciede_dsp_init(FFVmafCiedeDSPContext *c, int bpc);
void ff_vmaf_ciede_dsp_init_x86(FFVmafCiedeDSPContext *c, int bpc);

#endif /* AVFILTER_VMAF_FEATURES_CIEDE_DSP_H */
