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

#include "../ssim_dsp.h"

av_cold void ff_vmaf_ssim_dsp_init_x86(FFVmafSsimDSPContext *c, int bpc)
{
    int flags = av_get_cpu_flags();

    (void)bpc; /* the AVX2 load takes every depth */
    if (flags & AV_CPU_FLAG_AVX2) {
        c->load             = ff_vmaf_ssim_load_avx2;
        c->box_decimate     = ff_vmaf_ssim_box_decimate_avx2;
        c->ms_ssim_decimate = ff_vmaf_ms_ssim_decimate_avx2;
        c->window_h         = ff_vmaf_ssim_window_h_avx2;
        c->window_v         = ff_vmaf_ssim_window_v_avx2;
    }
}
