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

#include "psnr_dsp.h"

uint64_t ff_vmaf_sse_plane_8(const uint8_t *a, ptrdiff_t a_stride,
                             const uint8_t *b, ptrdiff_t b_stride,
                             int w, int h)
{
    uint64_t sse = 0;
    for (int y = 0; y < h; y++) {
        uint64_t row = 0;
        for (int x = 0; x < w; x++) {
            int d = a[x] - b[x];
            row += d * d;
        }
        sse += row;
        a += a_stride;
        b += b_stride;
    }
    return sse;
}

uint64_t ff_vmaf_sse_plane_16(const uint8_t *a8, ptrdiff_t a_stride,
                              const uint8_t *b8, ptrdiff_t b_stride,
                              int w, int h)
{
    uint64_t sse = 0;
    for (int y = 0; y < h; y++) {
        const uint16_t *a = (const uint16_t *)(a8 + y * a_stride);
        const uint16_t *b = (const uint16_t *)(b8 + y * b_stride);
        for (int x = 0; x < w; x++) {
            int64_t d = (int64_t)a[x] - b[x];
            sse += (uint64_t)(d * d);
        }
    }
    return sse;
}

av_cold void ff_vmaf_psnr_dsp_init(FFVmafPSNRDSPContext *c, int bpc)
{
    c->sse_plane = bpc > 8 ? ff_vmaf_sse_plane_16 : ff_vmaf_sse_plane_8;
#if ARCH_X86_64
    ff_vmaf_psnr_dsp_init_x86(c, bpc);
#endif
}
