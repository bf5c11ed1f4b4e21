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

#include "../adm_dsp.h"
#include "adm.h"

av_cold void ff_vmaf_adm_dsp_init_x86(FFVmafADMDSPContext *c)
{
    int flags = av_get_cpu_flags();

    if (flags & AV_CPU_FLAG_AVX2) {
        c->dwt_vert_s0    = ff_vmaf_adm_dwt_vert_s0_avx2;
        c->dwt_horiz_s0   = ff_vmaf_adm_dwt_horiz_s0_avx2;
        c->dwt_vert_s1    = ff_vmaf_adm_dwt_vert_s1_avx2;
        c->dwt_vert_s23   = ff_vmaf_adm_dwt_vert_s23_avx2;
        c->dwt_horiz_s123 = ff_vmaf_adm_dwt_horiz_s123_avx2;
        c->decouple_s0    = ff_vmaf_adm_decouple_s0_avx2;
        c->decouple_s123  = ff_vmaf_adm_decouple_s123_avx2;
        c->csf_s0         = ff_vmaf_adm_csf_s0_avx2;
        c->csf_s123       = ff_vmaf_adm_csf_s123_avx2;
        c->hsum3_32       = ff_vmaf_adm_hsum3_32_avx2;
        c->hsum3_64       = ff_vmaf_adm_hsum3_64_avx2;
        c->cm_row_s0      = ff_vmaf_adm_cm_row_s0_avx2;
        c->cm_row_s123    = ff_vmaf_adm_cm_row_s123_avx2;
        c->den_row_s0     = ff_vmaf_adm_den_row_s0_avx2;
        c->den_row_s123   = ff_vmaf_adm_den_row_s123_avx2;
    }
}
