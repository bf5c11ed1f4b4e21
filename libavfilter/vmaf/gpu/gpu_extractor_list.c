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


/**
 * @file
 * The GPU twins of the CPU extractors, and their code objects.
 */

#include <stddef.h>

#include "libavutil/macros.h"

#include "libavfilter/vmaf/feature.h"

#include "code_object.h"

extern const FFVmafExtractor ff_vmaf_extractor_psnr_gpu;
extern const FFVmafExtractor ff_vmaf_extractor_motion_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_psnr;
extern const FFVmafGpuCode ff_vmaf_gpu_code_motion;
extern const FFVmafExtractor ff_vmaf_extractor_vif_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_vif;
extern const FFVmafExtractor ff_vmaf_extractor_adm_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_adm;
extern const FFVmafGpuCode ff_vmaf_gpu_code_unpack;
extern const FFVmafExtractor ff_vmaf_extractor_psnr_hvs_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_psnr_hvs;
extern const FFVmafExtractor ff_vmaf_extractor_ciede_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_ciede;
extern const FFVmafExtractor ff_vmaf_extractor_float_ssim_gpu;
extern const FFVmafExtractor ff_vmaf_extractor_float_ms_ssim_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_ssim;
extern const FFVmafExtractor ff_vmaf_extractor_float_psnr_gpu;
extern const FFVmafExtractor ff_vmaf_extractor_float_ansnr_gpu;
extern const FFVmafExtractor ff_vmaf_extractor_float_moment_gpu;
extern const FFVmafExtractor ff_vmaf_extractor_float_motion_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_float_simple;
extern const FFVmafExtractor ff_vmaf_extractor_cambi_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_cambi;
extern const FFVmafExtractor ff_vmaf_extractor_float_vif_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_float_vif;
extern const FFVmafExtractor ff_vmaf_extractor_float_adm_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_float_adm;
extern const FFVmafExtractor ff_vmaf_extractor_speed_chroma_gpu;
extern const FFVmafExtractor ff_vmaf_extractor_speed_temporal_gpu;
extern const FFVmafGpuCode ff_vmaf_gpu_code_speed;

static const FFVmafExtractor *const gpu_extractors[] = {
    &ff_vmaf_extractor_psnr_gpu,
    &ff_vmaf_extractor_motion_gpu,
    &ff_vmaf_extractor_vif_gpu,
    &ff_vmaf_extractor_adm_gpu,
    &ff_vmaf_extractor_psnr_hvs_gpu,
    &ff_vmaf_extractor_ciede_gpu,
    &ff_vmaf_extractor_float_ssim_gpu,
    &ff_vmaf_extractor_float_ms_ssim_gpu,
    &ff_vmaf_extractor_float_psnr_gpu,
    &ff_vmaf_extractor_float_ansnr_gpu,
    &ff_vmaf_extractor_float_moment_gpu,
    &ff_vmaf_extractor_float_motion_gpu,
    &ff_vmaf_extractor_cambi_gpu,
    &ff_vmaf_extractor_float_vif_gpu,
    &ff_vmaf_extractor_float_adm_gpu,
    &ff_vmaf_extractor_speed_chroma_gpu,
    &ff_vmaf_extractor_speed_temporal_gpu,
};

const FFVmafGpuCode *const ff_vmaf_gpu_codes[] = {
    &ff_vmaf_gpu_code_psnr,
    &ff_vmaf_gpu_code_motion,
    &ff_vmaf_gpu_code_vif,
    &ff_vmaf_gpu_code_adm,
    &ff_vmaf_gpu_code_unpack,
    &ff_vmaf_gpu_code_psnr_hvs,
    &ff_vmaf_gpu_code_ciede,
    &ff_vmaf_gpu_code_ssim,
    &ff_vmaf_gpu_code_float_simple,
    &ff_vmaf_gpu_code_cambi,
    &ff_vmaf_gpu_code_float_vif,
    &ff_vmaf_gpu_code_float_adm,
    &ff_vmaf_gpu_code_speed,
    NULL
};

const FFVmafExtractor *ff_vmaf_gpu_extractor_find(const FFVmafExtractor *cpu)
{
    for (int i = 0; i < FF_ARRAY_ELEMS(gpu_extractors); i++)
        if (gpu_extractors[i]->cpu == cpu)
            return gpu_extractors[i];
    return NULL;
}
