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

#include <string.h>

#include "libavutil/attributes.h"

#include "picture_dsp.h"

unsigned ff_vmaf_copy_clamp16_c(uint16_t *dst, const uint16_t *src, size_t n, unsigned max)
{
    unsigned over = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned v = src[i];
        over  |= v > max;
        dst[i] = v > max ? max : v;
    }
    return over;
}

void ff_vmaf_copy_stream_c(uint8_t *dst, const uint8_t *src, size_t n)
{
    memcpy(dst, src, n);
}

av_cold void ff_vmaf_picture_dsp_init(FFVmafPictureDSPContext *c)
{
    c->copy_clamp16 = ff_vmaf_copy_clamp16_c;
    c->copy_stream  = ff_vmaf_copy_stream_c;
#if ARCH_X86_64
    ff_vmaf_picture_dsp_init_x86(c);
#endif
}
