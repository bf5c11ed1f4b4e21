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
#include "libavutil/cpu.h"

#include "../ciede_dsp.h"

av_cold void ff_vmaf_ciede_dsp_init_x86(FFVmafCiedeDSPContext *c, int bpc)
{
    int flags = av_get_cpu_flags();

    /* No AVX2 row yet: most of its time is in libm's pow, atan2, sin, cos
     * and exp, which must stay scalar libm calls (a vector approximation
     * would change libvmaf's bits), and the colour caches are serial. */
    if (flags & AV_CPU_FLAG_AVX2) {
    }
}
