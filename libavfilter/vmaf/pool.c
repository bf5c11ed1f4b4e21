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


#include <math.h>
#include <string.h>

#include "libavutil/error.h"

#include "output.h"

static const char *const pool_names[FF_VMAF_POOL_NB] = {
    [FF_VMAF_POOL_MIN]           = "min",
    [FF_VMAF_POOL_MAX]           = "max",
    [FF_VMAF_POOL_MEAN]          = "mean",
    [FF_VMAF_POOL_HARMONIC_MEAN] = "harmonic_mean",
};

int ff_vmaf_pool_method_from_name(const char *name)
{
    /* Exact match: a prefix or substring match once made harmonic_mean
     * silently pool as mean. */
    for (int i = 0; i < FF_VMAF_POOL_NB; i++)
        if (!strcmp(name, pool_names[i]))
            return i;
    return -1;
}

const char *ff_vmaf_pool_method_name(enum FFVmafPoolMethod m)
{
    return m < FF_VMAF_POOL_NB ? pool_names[m] : "unknown";
}

int ff_vmaf_pool(const FFVmafFeatureCollector *fc, int key_idx,
                 enum FFVmafPoolMethod method, unsigned first, unsigned end,
                 unsigned step, double *result)
{
    double acc = 0.0;
    unsigned n = 0;

    if (!step)
        step = 1;
    /* In frame order, whatever the range: a sum's rounding depends on it. */
    for (unsigned i = first; i < end; i += step) {
        double v;
        if (ff_vmaf_collector_read_at(fc, key_idx, i, &v) < 0)
            continue;
        switch (method) {
        case FF_VMAF_POOL_MIN:
            acc = (!n || v < acc) ? v : acc;
            break;
        case FF_VMAF_POOL_MAX:
            acc = (!n || v > acc) ? v : acc;
            break;
        case FF_VMAF_POOL_MEAN:
            acc += v;
            break;
        case FF_VMAF_POOL_HARMONIC_MEAN:
            /* libvmaf's harmonic mean is shifted by one so that zero
             * scores do not send it to zero. */
            acc += 1.0 / (v + 1.0);
            break;
        default:
            return AVERROR(EINVAL);
        }
        n++;
    }
    if (!n)
        return AVERROR(ENOENT);
    if (method == FF_VMAF_POOL_MEAN)
        acc /= n;
    else if (method == FF_VMAF_POOL_HARMONIC_MEAN)
        acc = n / acc - 1.0;
    *result = acc;
    return 0;
}
