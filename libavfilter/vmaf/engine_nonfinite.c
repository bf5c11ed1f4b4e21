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
 * Values that are not finite numbers, reported where they appear.
 *
 * No feature gives one on a picture within its depth, but a model with
 * extreme numbers can (a slope or score transform that overflows), and a
 * mean can overflow; NaN would otherwise reach the score line as "-nan"
 * without a word. Each key is reported once, at its first such value, and
 * then remembered in the engine's nonfinite_keys.
 */

#include <math.h>
#include <stdio.h>

#include "libavutil/dict.h"
#include "libavutil/log.h"

#include "engine_state.h"
#include "model.h"

/* "NaN", "+inf" or "-inf": printf's spelling of NaN varies ("-nan"). */
static const char *name_of(double v)
{
    return isnan(v) ? "NaN" : v > 0 ? "+inf" : "-inf";
}

/* Whether key was reported already; it is from now on. */
static int reported(FFVmafEngine *e, const char *key)
{
    if (av_dict_get(e->nonfinite_keys, key, NULL, AV_DICT_MATCH_CASE))
        return 1;
    av_dict_set(&e->nonfinite_keys, key, "", 0);
    return 0;
}

void ff_vmaf_engine_check_model(FFVmafEngine *e, const FFVmafModel *m, unsigned index,
                                const double *inputs, const char (*input_keys)[256],
                                const double *outputs)
{
    for (int k = 0; k < ff_vmaf_model_nb_outputs(m); k++) {
        const char *key = ff_vmaf_model_output_key(m, k);
        char cause[512] = "its inputs are finite: the model's numbers overflow on them";
        if (isfinite(outputs[k]) || reported(e, key))
            continue;
        for (int j = 0; j < ff_vmaf_model_nb_inputs(m); j++)
            if (!isfinite(inputs[j])) {
                snprintf(cause, sizeof(cause), "its input '%s' is %s", input_keys[j],
                         name_of(inputs[j]));
                break;
            }
        av_log(e->log_ctx, AV_LOG_WARNING,
               "Model '%s': %s of frame %u is %s, not a finite number (%s); its pooled values "
               "are not numbers either (null in JSON logs). Later frames are not reported.\n",
               ff_vmaf_model_name(m), key, index, name_of(outputs[k]), cause);
    }
}

void ff_vmaf_engine_check_frame(FFVmafEngine *e, unsigned index)
{
    int nb_keys = ff_vmaf_collector_nb_keys(e->fc);

    for (int k = 0; k < nb_keys; k++) {
        const char *key = ff_vmaf_collector_key(e->fc, k);
        double v;
        if (ff_vmaf_collector_read_at(e->fc, k, index, &v) < 0 || isfinite(v) ||
            reported(e, key))
            continue;
        av_log(e->log_ctx, AV_LOG_WARNING,
               "'%s' of frame %u is %s, not a finite number; its pooled values are not numbers "
               "either (null in JSON logs). Later frames are not reported.\n",
               ff_vmaf_feature_alias(key), index, name_of(v));
    }
}

void ff_vmaf_engine_check_pooled(FFVmafEngine *e, int key_idx, enum FFVmafPoolMethod method,
                                 unsigned nb_frames, double v)
{
    const char *key = ff_vmaf_collector_key(e->fc, key_idx);
    char cause[256] = "the frames' values are finite, but too large to pool";

    /* A frame's value that is not a number was reported with its frame. */
    if (isfinite(v) || reported(e, key))
        return;
    for (unsigned i = 0; i < nb_frames; i++) {
        double f;
        if (ff_vmaf_collector_read_at(e->fc, key_idx, i, &f) >= 0 && !isfinite(f)) {
            snprintf(cause, sizeof(cause), "frame %u's value is %s", i, name_of(f));
            break;
        }
    }
    av_log(e->log_ctx, AV_LOG_WARNING, "The pooled %s of '%s' is %s, not a finite number (%s).\n",
           ff_vmaf_pool_method_name(method), ff_vmaf_feature_alias(key), name_of(v), cause);
}
