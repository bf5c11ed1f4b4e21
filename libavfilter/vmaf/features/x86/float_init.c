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

#include "float_simd.h"

av_cold void ff_vmaf_float_dsp_init_x86(FFVmafFloatDSPContext *c)
{
    int flags = av_get_cpu_flags();

    if (flags & AV_CPU_FLAG_AVX2) {
        c->from_luma     = ff_vmaf_float_from_luma_avx2;
        c->vfilter       = ff_vmaf_float_vfilter_avx2;
        c->vfilter_stats = ff_vmaf_float_vfilter_stats_avx2;
        c->hfilter       = ff_vmaf_float_hfilter_avx2;
        c->dwt2_row      = ff_vmaf_float_dwt2_row_avx2;
        c->vif_terms     = ff_vmaf_float_vif_terms_avx2;
        c->adm_cm        = ff_vmaf_float_adm_cm_avx2;
        c->adm_decouple  = ff_vmaf_float_adm_decouple_avx2;
        c->filter2d      = ff_vmaf_float_filter2d_avx2;
    }
}
