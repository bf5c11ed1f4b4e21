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

#include "config.h"

#include "libavutil/attributes.h"

#include "motion_dsp.h"

/* The 5-tap Gaussian of VIF scale 2, symmetric: f0 f1 f2 f1 f0, sum 65536. */
#define F0  3571
#define F1 16004
#define F2 26386

/* Reflect-101 row index; valid for n >= 3 and i in [-2, n + 1]. */
static inline int mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - 2 - i;
    return i;
}

/*
 * wide: the vertical sum needs 64 bits. It is bounded by max|D| * 2^16,
 * which fits in int32 up to 15-bit samples.
 */
static av_always_inline void blur_v(int32_t *y, const uint8_t *const prev[5],
                                    const uint8_t *const cur[5], int w,
                                    int shift, int hbd, int wide)
{
    const int32_t rnd = 1 << (shift - 1);

    for (int x = 0; x < w; x++) {
        int32_t d[5];
        for (int k = 0; k < 5; k++)
            d[k] = hbd ? (int32_t)((const uint16_t *)prev[k])[x] - ((const uint16_t *)cur[k])[x]
                       : (int32_t)prev[k][x] - cur[k][x];
        if (wide)
            y[x] = (int32_t)(((int64_t)F0 * (d[0] + d[4]) +
                              (int64_t)F1 * (d[1] + d[3]) +
                              (int64_t)F2 *  d[2] + rnd) >> shift);
        else
            y[x] = (F0 * (d[0] + d[4]) + F1 * (d[1] + d[3]) +
                    F2 * d[2] + rnd) >> shift;
    }
}

static void blur_v_8_c(int32_t *y, const uint8_t *const prev[5],
                       const uint8_t *const cur[5], int w, int shift)
{
    blur_v(y, prev, cur, w, shift, 0, 0);
}

static void blur_v_16_c(int32_t *y, const uint8_t *const prev[5],
                        const uint8_t *const cur[5], int w, int shift)
{
    if (shift > 15)
        blur_v(y, prev, cur, w, shift, 1, 1);
    else
        blur_v(y, prev, cur, w, shift, 1, 0);
}

/* |y| < 2^16, so the Q16 products need 64 bits: the sum reaches 2^32. */
static uint64_t sad_h_c(const int32_t *y, int w)
{
    int64_t sad = 0;

    for (int x = 0; x < w; x++) {
        int64_t z = ((int64_t)F0 * (y[x - 2] + y[x + 2]) +
                     (int64_t)F1 * (y[x - 1] + y[x + 1]) +
                     (int64_t)F2 *  y[x] + 32768) >> 16;
        sad += z < 0 ? -z : z;
    }
    return sad;
}

av_cold void ff_vmaf_motion_dsp_init(FFVmafMotionDSPContext *c, int bpc)
{
    c->blur_v = bpc > 8 ? blur_v_16_c : blur_v_8_c;
    c->sad_h  = sad_h_c;
#if ARCH_X86_64
    ff_vmaf_motion_dsp_init_x86(c, bpc);
#endif
}

uint64_t ff_vmaf_motion_sad(const FFVmafMotionDSPContext *c,
                            const uint8_t *prev, ptrdiff_t prev_stride,
                            const uint8_t *cur, ptrdiff_t cur_stride,
                            int w, int h, int bpc, int32_t *tmp)
{
    /* One row of vertical output with two writable samples of padding on
     * each side: filling them with the mirrored samples keeps the
     * horizontal pass free of border tests. */
    int32_t *y = tmp + 2;
    int shift = bpc > 8 ? bpc : 8;
    uint64_t sad = 0;

    for (int r = 0; r < h; r++) {
        const uint8_t *p[5], *q[5];

        for (int k = 0; k < 5; k++) {
            int i = mirror(r - 2 + k, h);
            p[k] = prev + i * prev_stride;
            q[k] = cur  + i * cur_stride;
        }
        c->blur_v(y, p, q, w, shift);
        y[-1]    = y[1];
        y[-2]    = y[2];
        y[w]     = y[w - 2];
        y[w + 1] = y[w - 3];
        sad += c->sad_h(y, w);
    }
    return sad;
}

uint64_t ff_vmaf_motion_sad_8(const uint8_t *prev, ptrdiff_t prev_stride,
                              const uint8_t *cur, ptrdiff_t cur_stride,
                              int w, int h, int32_t *tmp)
{
    const FFVmafMotionDSPContext c = { blur_v_8_c, sad_h_c };
    return ff_vmaf_motion_sad(&c, prev, prev_stride, cur, cur_stride, w, h, 8, tmp);
}

uint64_t ff_vmaf_motion_sad_16(const uint8_t *prev, ptrdiff_t prev_stride,
                               const uint8_t *cur, ptrdiff_t cur_stride,
                               int w, int h, int bpc, int32_t *tmp)
{
    const FFVmafMotionDSPContext c = { blur_v_16_c, sad_h_c };
    return ff_vmaf_motion_sad(&c, prev, prev_stride, cur, cur_stride, w, h, bpc, tmp);
}
