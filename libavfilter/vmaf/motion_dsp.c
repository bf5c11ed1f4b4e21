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

static av_always_inline void diff_row(int32_t *dst, const uint8_t *prev,
                                      const uint8_t *cur, int w, int hbd)
{
    if (hbd) {
        const uint16_t *p = (const uint16_t *)prev;
        const uint16_t *c = (const uint16_t *)cur;
        for (int x = 0; x < w; x++)
            dst[x] = (int32_t)p[x] - c[x];
    } else {
        for (int x = 0; x < w; x++)
            dst[x] = (int32_t)prev[x] - cur[x];
    }
}

/*
 * Horizontal pass and |z| sum of one row of vertical output y, which has two
 * writable samples of padding on each side. Filling the padding with the
 * mirrored samples keeps the inner loop free of border tests.
 * |y| < 2^16, so the Q16 products need 64 bits: the sum reaches 2^32.
 */
static av_always_inline int64_t hsad_row(int32_t *y, int w)
{
    int64_t sad = 0;

    y[-1]    = y[1];
    y[-2]    = y[2];
    y[w]     = y[w - 2];
    y[w + 1] = y[w - 3];
    for (int x = 0; x < w; x++) {
        int64_t z = ((int64_t)F0 * (y[x - 2] + y[x + 2]) +
                     (int64_t)F1 * (y[x - 1] + y[x + 1]) +
                     (int64_t)F2 *  y[x] + 32768) >> 16;
        sad += z < 0 ? -z : z;
    }
    return sad;
}

/*
 * wide: the vertical sum needs 64 bits. It is bounded by max|D| * 2^16,
 * which fits in int32 up to 15-bit samples.
 */
static av_always_inline uint64_t motion_sad(const uint8_t *prev, ptrdiff_t prev_stride,
                                            const uint8_t *cur, ptrdiff_t cur_stride,
                                            int w, int h, int hbd, int shift,
                                            int wide, int32_t *tmp)
{
    int32_t *d[5];
    int32_t *y = tmp + 5 * (size_t)w + 2;
    const int32_t rnd = 1 << (shift - 1);
    int next = 0;   /* next difference row to compute */
    uint64_t sad = 0;

    /*
     * A ring of five difference rows: the rows a blurred row r reads lie in
     * [r - 2, r + 2] once mirrored, so row j can live in slot j % 5.
     */
    for (int i = 0; i < 5; i++)
        d[i] = tmp + i * (size_t)w;

    for (int r = 0; r < h; r++) {
        const int32_t *d0, *d1, *d2, *d3, *d4;
        int last = r + 2 < h ? r + 2 : h - 1;

        for (; next <= last; next++)
            diff_row(d[next % 5], prev + next * prev_stride,
                     cur + next * cur_stride, w, hbd);

        d0 = d[mirror(r - 2, h) % 5];
        d1 = d[mirror(r - 1, h) % 5];
        d2 = d[r % 5];
        d3 = d[mirror(r + 1, h) % 5];
        d4 = d[mirror(r + 2, h) % 5];
        if (wide) {
            for (int x = 0; x < w; x++)
                y[x] = (int32_t)(((int64_t)F0 * (d0[x] + d4[x]) +
                                  (int64_t)F1 * (d1[x] + d3[x]) +
                                  (int64_t)F2 *  d2[x] + rnd) >> shift);
        } else {
            for (int x = 0; x < w; x++)
                y[x] = (F0 * (d0[x] + d4[x]) + F1 * (d1[x] + d3[x]) +
                        F2 * d2[x] + rnd) >> shift;
        }
        sad += hsad_row(y, w);
    }
    return sad;
}

uint64_t ff_vmaf_motion_sad_8(const uint8_t *prev, ptrdiff_t prev_stride,
                              const uint8_t *cur, ptrdiff_t cur_stride,
                              int w, int h, int32_t *tmp)
{
    return motion_sad(prev, prev_stride, cur, cur_stride, w, h, 0, 8, 0, tmp);
}

uint64_t ff_vmaf_motion_sad_16(const uint8_t *prev, ptrdiff_t prev_stride,
                               const uint8_t *cur, ptrdiff_t cur_stride,
                               int w, int h, int bpc, int32_t *tmp)
{
    if (bpc > 15)
        return motion_sad(prev, prev_stride, cur, cur_stride, w, h, 1, bpc, 1, tmp);
    return motion_sad(prev, prev_stride, cur, cur_stride, w, h, 1, bpc, 0, tmp);
}
