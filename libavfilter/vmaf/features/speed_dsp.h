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
 * SpEED-QA kernels (libvmaf 3.2.0 "speed_chroma" and "speed_temporal"),
 * plain C.
 *
 * ff_vmaf_speed_plane_stats() takes a plane (or the difference of two)
 * through conversion to float (8-bit units minus 128), optional
 * resampling, anti-alias blur, decimation by 16 and local mean removal,
 * then fits a Gaussian-scale-mixture model of 5x5 blocks giving a
 * variance and an entropy per block; ff_vmaf_speed_score() compares those
 * of a (ref, dis) pair.
 *
 * Everything is float32 with one rounding per operation, in libvmaf's
 * order, except where a comment says double: the results are bit-exact
 * with libvmaf's, so nothing here may be reassociated or fused.
 */

#ifndef AVFILTER_VMAF_FEATURES_SPEED_DSP_H
#define AVFILTER_VMAF_FEATURES_SPEED_DSP_H

#include <stddef.h>
#include <stdint.h>

/** Side of the blocks of the statistical model, and their pixel count. */
#define FF_VMAF_SPEED_B  5
#define FF_VMAF_SPEED_B2 (FF_VMAF_SPEED_B * FF_VMAF_SPEED_B)
/** The picture is blurred, then decimated by this factor. */
#define FF_VMAF_SPEED_DECIMATION 16
/** The operating size (after decimation) must hold one block each way. */
#define FF_VMAF_SPEED_MIN_OPERATING FF_VMAF_SPEED_B
/** Enough for every allowed kernel scale (35 taps at 360/97). */
#define FF_VMAF_SPEED_MAX_TAPS 64
/** Slots per output sample in ff_vmaf_speed_resample_taps() (Lanczos-4). */
#define FF_VMAF_SPEED_RESAMPLE_TAPS 8

enum FFVmafSpeedScaleMethod {
    FF_VMAF_SPEED_SCALE_NEAREST,
    FF_VMAF_SPEED_SCALE_BILINEAR,
    FF_VMAF_SPEED_SCALE_BICUBIC,
    FF_VMAF_SPEED_SCALE_LANCZOS4,
};

/** Everything that depends on the options and the plane size only. */
typedef struct FFVmafSpeedConfig {
    int w, h;           ///< input plane
    int resample;       ///< 0: prescale is (nearly) 1 and is skipped
    int scale_method;   ///< enum FFVmafSpeedScaleMethod
    int ws, hs;         ///< after prescale
    int wo, ho;         ///< operating size: (ws, hs) >> 4
    int nbh, nbv;       ///< blocks per row and per column
    int n_blur, n_mean; ///< taps of the anti-alias and local-mean filters
    float g_blur[FF_VMAF_SPEED_MAX_TAPS];
    float g_mean[FF_VMAF_SPEED_MAX_TAPS];
    float sigma_nn;     ///< neural-noise variance added to every eigenvalue
    float base;         ///< entropy of a flat block: such blocks are skipped
    int wvm;            ///< speed_weight_var_mode, 0..6
} FFVmafSpeedConfig;

/**
 * Whether ks is one of the kernel scales libvmaf accepts (within 1e-3).
 */
int ff_vmaf_speed_kernelscale_valid(double ks);

/**
 * Fill c for a w x h plane. Does not fail: check c->wo and c->ho against
 * FF_VMAF_SPEED_MIN_OPERATING before using it.
 */
void ff_vmaf_speed_config_init(FFVmafSpeedConfig *c, int w, int h,
                               double kernelscale, double prescale,
                               int scale_method, double sigma_nn,
                               double nn_floor, int wvm);

/**
 * Working memory of ff_vmaf_speed_plane_stats() for one configuration.
 * One instance must not be used by two threads at once.
 */
typedef struct FFVmafSpeedScratch {
    float  *plane;      ///< w x h input as floats, only when resampling
    float  *scaled;     ///< ws x hs, only when resampling
    int    *xi;         ///< per output column: resampling taps
    float  *xw;         ///< and their weights
    float  *rows;       ///< n_blur input rows, when not resampling
    float  *row;        ///< one vertically blurred row, ws
    float  *d, *t, *mu; ///< wo x ho each
    double *cen;        ///< centred values of a chunk of model pixels
    float  *y, *x, *qy; ///< 25 x nb each
} FFVmafSpeedScratch;

int  ff_vmaf_speed_scratch_alloc(FFVmafSpeedScratch *s, const FFVmafSpeedConfig *c);
void ff_vmaf_speed_scratch_free(FFVmafSpeedScratch *s);

/** Number of blocks: the length of the s and e arrays below. */
static inline int ff_vmaf_speed_nb_blocks(const FFVmafSpeedConfig *c)
{
    return c->nbh * c->nbv;
}

/**
 * The plane a model is computed on, read a row at a time (only the rows
 * the blur needs are read when there is no prescale): the samples of a,
 * or with b set the difference a - b (speed_temporal: previous minus
 * current frame), each sample taken as float in 8-bit units minus 128.
 * bpc == 8 means uint8_t samples, else uint16_t of that depth. Strides
 * are in bytes.
 */
typedef struct FFVmafSpeedSource {
    const uint8_t *a;
    ptrdiff_t a_stride;
    const uint8_t *b;
    ptrdiff_t b_stride;
    int bpc;
} FFVmafSpeedSource;

typedef struct FFVmafSpeedDSPContext {
    /**
     * One row of a plane as floats in 8-bit units minus 128:
     * dst[j] = a[j] - 128 for 8-bit samples, a[j] / 2^(bpc - 8) - 128 for
     * 16-bit ones (bpc 9..16), j < w.
     */
    void (*to_float_8)(float *dst, const uint8_t *a, int w, int bpc);
    void (*to_float_16)(float *dst, const uint8_t *a, int w, int bpc);
    /** The same for the difference of two rows: (a - 128) - (b - 128). */
    void (*diff_to_float_8)(float *dst, const uint8_t *a, const uint8_t *b,
                            int w, int bpc);
    void (*diff_to_float_16)(float *dst, const uint8_t *a, const uint8_t *b,
                             int w, int bpc);
    /**
     * Vertical filter: row[j] = +0 + g[0] in[0][j] + ... + g[n-1] in[n-1][j],
     * summed in that order, j < w.
     */
    void (*blur_v)(float *row, const float *const *in, const float *g,
                   int n, int w);
    /**
     * Covariance sums over a chunk of len pixels: for each q <= p < 25,
     * acc[p][q] += cen[p][n] * cen[q][n] for n = 0..len-1 in that order,
     * product and sum rounded to double each (row p of cen starts at
     * cen + p * stride). Entries q > p are left alone.
     */
    void (*cov_chunk)(double acc[FF_VMAF_SPEED_B2][FF_VMAF_SPEED_B2],
                      const double *cen, ptrdiff_t stride, int len);
} FFVmafSpeedDSPContext;

/** Set the C kernels, then the SIMD ones av_get_cpu_flags() allows. */
void ff_vmaf_speed_dsp_init(FFVmafSpeedDSPContext *c);
void ff_vmaf_speed_dsp_init_x86(FFVmafSpeedDSPContext *c);

/* AVX2 kernels (x86/speed_avx2.c). */
void ff_vmaf_speed_to_float_8_avx2(float *dst, const uint8_t *a, int w, int bpc);
void ff_vmaf_speed_to_float_16_avx2(float *dst, const uint8_t *a, int w, int bpc);
void ff_vmaf_speed_diff_to_float_8_avx2(float *dst, const uint8_t *a,
                                        const uint8_t *b, int w, int bpc);
void ff_vmaf_speed_diff_to_float_16_avx2(float *dst, const uint8_t *a,
                                         const uint8_t *b, int w, int bpc);
/* The float features' vertical filter over the rows in (x86/float_avx2.c). */
void ff_vmaf_speed_blur_v_avx2(float *row, const float *const *in,
                               const float *g, int n, int w);
void ff_vmaf_speed_cov_chunk_avx2(double acc[FF_VMAF_SPEED_B2][FF_VMAF_SPEED_B2],
                                  const double *cen, ptrdiff_t stride, int len);

/**
 * Per-block variance s[] and entropy e[] of a c->w x c->h plane, with
 * the kernels of dsp.
 *
 * @return 1 if the covariance of the model is singular (then s[] is 0,
 *         as in libvmaf), 0 otherwise
 */
int ff_vmaf_speed_plane_stats(const FFVmafSpeedConfig *c,
                              const FFVmafSpeedDSPContext *dsp,
                              const FFVmafSpeedSource *src,
                              float *s, float *e, FFVmafSpeedScratch *tmp);

/**
 * The resampling taps of every output column (vertical = 0: c->ws of
 * them, from c->w) or row (vertical = 1: c->hs, from c->h), exactly as
 * ff_vmaf_speed_plane_stats() computes them, FF_VMAF_SPEED_RESAMPLE_TAPS
 * slots each (unused ones 0): nearest: idx[0]; bilinear: idx[0], idx[1]
 * and the weight of the second, wt[0]; bicubic (4 taps) and Lanczos-4
 * (8 taps): idx[] and wt[]. Only for c->resample.
 */
void ff_vmaf_speed_resample_taps(const FFVmafSpeedConfig *c, int vertical,
                                 int *idx, float *wt);

/** What the block model needs of the 25x25 covariance, for every block. */
typedef struct FFVmafSpeedFactor {
    float lambda[FF_VMAF_SPEED_B2];                     ///< its eigenvalues
    float q[FF_VMAF_SPEED_B2][FF_VMAF_SPEED_B2];        ///< and QR factors
    float r[FF_VMAF_SPEED_B2][FF_VMAF_SPEED_B2];
    int singular;                                       ///< 1: s[] is 0
} FFVmafSpeedFactor;

/**
 * ff_vmaf_speed_block_model() in two steps, so that ranges of blocks can
 * be computed apart (on several threads): the factors of k, then blocks
 * [b0, b1) of s[] and e[] (and of tmp's y, x and qy). The results do not
 * depend on how the blocks are split.
 */
void ff_vmaf_speed_block_factor(const float k[FF_VMAF_SPEED_B2][FF_VMAF_SPEED_B2],
                                FFVmafSpeedFactor *fac);
void ff_vmaf_speed_block_range(const FFVmafSpeedConfig *c, const FFVmafSpeedFactor *fac,
                               const float *d, ptrdiff_t stride, float *s, float *e,
                               FFVmafSpeedScratch *tmp, int b0, int b1);

/**
 * The block model of a pre-processed plane: from the 25x25 covariance k
 * and the operating plane d (rows of stride floats; only its first
 * 5 * c->nbv rows and 5 * c->nbh columns are read), the per-block
 * variance s[] and entropy e[], as ff_vmaf_speed_plane_stats() ends.
 *
 * @return 1 if the covariance is singular, 0 otherwise
 */
int ff_vmaf_speed_block_model(const FFVmafSpeedConfig *c,
                              const float k[FF_VMAF_SPEED_B2][FF_VMAF_SPEED_B2],
                              const float *d, ptrdiff_t stride,
                              float *s, float *e, FFVmafSpeedScratch *tmp);

/** The SpEED score of a (ref, dis) pair of plane statistics. */
float ff_vmaf_speed_score(const FFVmafSpeedConfig *c,
                          const float *s_ref, const float *e_ref,
                          const float *s_dis, const float *e_dis);

#endif /* AVFILTER_VMAF_FEATURES_SPEED_DSP_H */
