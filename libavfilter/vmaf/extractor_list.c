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
 * The table of feature extractors the engine knows, by libvmaf's names.
 */

#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/macros.h"

#include "feature.h"

extern const FFVmafExtractor ff_vmaf_extractor_psnr;
extern const FFVmafExtractor ff_vmaf_extractor_motion;
extern const FFVmafExtractor ff_vmaf_extractor_vif;
extern const FFVmafExtractor ff_vmaf_extractor_adm;
extern const FFVmafExtractor ff_vmaf_extractor_cambi;
extern const FFVmafExtractor ff_vmaf_extractor_float_ssim;
extern const FFVmafExtractor ff_vmaf_extractor_float_ms_ssim;
extern const FFVmafExtractor ff_vmaf_extractor_psnr_hvs;
extern const FFVmafExtractor ff_vmaf_extractor_ciede;
extern const FFVmafExtractor ff_vmaf_extractor_float_psnr;
extern const FFVmafExtractor ff_vmaf_extractor_float_ansnr;
extern const FFVmafExtractor ff_vmaf_extractor_float_moment;
extern const FFVmafExtractor ff_vmaf_extractor_float_motion;
extern const FFVmafExtractor ff_vmaf_extractor_float_vif;
extern const FFVmafExtractor ff_vmaf_extractor_float_adm;
extern const FFVmafExtractor ff_vmaf_extractor_speed_chroma;
extern const FFVmafExtractor ff_vmaf_extractor_speed_temporal;

static const FFVmafExtractor *const extractors[] = {
    &ff_vmaf_extractor_psnr,
    &ff_vmaf_extractor_motion,
    &ff_vmaf_extractor_vif,
    &ff_vmaf_extractor_adm,
    &ff_vmaf_extractor_cambi,
    &ff_vmaf_extractor_float_ssim,
    &ff_vmaf_extractor_float_ms_ssim,
    &ff_vmaf_extractor_psnr_hvs,
    &ff_vmaf_extractor_ciede,
    &ff_vmaf_extractor_float_psnr,
    &ff_vmaf_extractor_float_ansnr,
    &ff_vmaf_extractor_float_moment,
    &ff_vmaf_extractor_float_motion,
    &ff_vmaf_extractor_float_vif,
    &ff_vmaf_extractor_float_adm,
    &ff_vmaf_extractor_speed_chroma,
    &ff_vmaf_extractor_speed_temporal,
};

const FFVmafExtractor *ff_vmaf_extractor_find(const char *name)
{
    for (int i = 0; i < FF_ARRAY_ELEMS(extractors); i++)
        if (!strcmp(extractors[i]->name, name))
            return extractors[i];
    return NULL;
}

const char *ff_vmaf_extractor_names(void)
{
    static char names[512];
    if (!names[0])
        for (int i = 0; i < FF_ARRAY_ELEMS(extractors); i++)
            av_strlcatf(names, sizeof(names), "%s%s", i ? ", " : "",
                        extractors[i]->name);
    return names;
}
