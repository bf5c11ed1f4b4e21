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

#include "../cambi_dsp.h"
#include "cambi.h"

av_cold void ff_vmaf_cambi_dsp_init_x86(FFVmafCambiDSPContext *c)
{
    int flags = av_get_cpu_flags();

    if (flags & AV_CPU_FLAG_AVX2) {
        c->dither_row_8   = ff_vmaf_cambi_dither_row_8_avx2;
        c->convert_row_16 = ff_vmaf_cambi_convert_row_16_avx2;
        c->zero_deriv     = ff_vmaf_cambi_zero_deriv_avx2;
        c->mask_row       = ff_vmaf_cambi_mask_row_avx2;
        c->decimate_row   = ff_vmaf_cambi_decimate_row_avx2;
        c->mode_h         = ff_vmaf_cambi_mode_h_avx2;
        c->mode_v         = ff_vmaf_cambi_mode_v_avx2;
        c->mask_bits      = ff_vmaf_cambi_mask_bits_avx2;
        c->hist_add       = ff_vmaf_cambi_hist_add_avx2;
        c->hist_sub       = ff_vmaf_cambi_hist_sub_avx2;
    }
}
