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

#include "../vif_dsp.h"
#include "vif.h"

av_cold void ff_vmaf_vif_dsp_init_x86(FFVmafVifDSPContext *c)
{
    int flags = av_get_cpu_flags();

    if (flags & AV_CPU_FLAG_AVX2) {
        c->statistic = ff_vmaf_vif_statistic_avx2;
        c->decimate  = ff_vmaf_vif_decimate_avx2;
    }
    if (flags & AV_CPU_FLAG_AVX512) {
        c->statistic = ff_vmaf_vif_statistic_avx512;
        c->decimate  = ff_vmaf_vif_decimate_avx512;
    }
}
