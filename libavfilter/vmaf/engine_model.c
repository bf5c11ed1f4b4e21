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
 * Models inside the engine: which features they pull in, and their
 * per-frame scores once every input of a frame is final.
 */

#include "libavutil/error.h"
#include "libavutil/log.h"

#include "engine_internal.h"

static int add_model_entry(FFVmafEngine *e, AVDictionary *entry)
{
    av_log(e->log_ctx, AV_LOG_ERROR,
           "VMAF models are not implemented yet. Set model='' and ask for "
           "features with the feature option instead.\n");
    return AVERROR_PATCHWELCOME;
}

int ff_vmaf_engine_add_model(FFVmafEngine *e, const char *spec)
{
    return ff_vmaf_engine_parse_list(e, spec, add_model_entry);
}

int ff_vmaf_engine_parse_models(FFVmafEngine *e, const char *list)
{
    return ff_vmaf_engine_parse_list(e, list, add_model_entry);
}

int ff_vmaf_engine_configure_models(FFVmafEngine *e)
{
    return 0;
}

int ff_vmaf_engine_score_models(FFVmafEngine *e)
{
    return 0;
}

void ff_vmaf_engine_free_models(FFVmafEngine *e)
{
}

int ff_vmaf_engine_nb_models(const FFVmafEngine *e)
{
    return e->nb_models;
}

const char *ff_vmaf_engine_model_key(const FFVmafEngine *e, int i)
{
    return NULL;
}
