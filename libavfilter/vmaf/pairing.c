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

#include "libavutil/common.h"

#include "pairing.h"

/* Below any frame interval of real video, above the rounding of times
 * rescaled to nanoseconds. */
#define MIN_TOLERANCE 1000

/* The rounding one input's timestamps may carry: a tick of its time base,
 * unless its frames last a whole number of ticks (then they are exact). An
 * unknown duration may not. */
static int64_t rounding(int64_t duration, int64_t tick)
{
    if (tick <= 1)
        return 0;
    return duration > 0 && duration % tick == 0 ? 0 : tick;
}

void ff_vmaf_pairing_rule(FFVmafPairingRule *r, int64_t dist_duration, int64_t ref_duration,
                          int64_t dist_tick, int64_t ref_tick)
{
    int64_t shortest = 0;

    r->ref_duration = FFMAX(ref_duration, 0);
    r->same_rate = dist_duration > 0 && ref_duration > 0 &&
                   FFABS(dist_duration - ref_duration) * 100 <= FFMAX(dist_duration, ref_duration);
    if (r->same_rate) {
        r->tolerance = FFMAX(FFMIN(dist_duration, ref_duration) / 2, MIN_TOLERANCE);
        return;
    }
    r->tolerance = FFMAX(rounding(dist_duration, dist_tick) + rounding(ref_duration, ref_tick),
                         MIN_TOLERANCE);
    /* Never so wide that a frame of either input could be taken for its
     * neighbour. */
    if (dist_duration > 0)
        shortest = dist_duration;
    if (ref_duration > 0)
        shortest = shortest ? FFMIN(shortest, ref_duration) : ref_duration;
    if (shortest)
        r->tolerance = FFMAX(FFMIN(r->tolerance, shortest / 2), FFMIN(MIN_TOLERANCE, shortest / 2));
}

int ff_vmaf_pairing_choose(const FFVmafPairingRule *r, int64_t t,
                           const int64_t *ref, int nb, int ref_ended)
{
    int64_t on_screen;
    int j = 0, k;

    /* The candidates start before t + tolerance; the last of them is the
     * one of t's instant, known once a reference frame starts after. */
    while (j < nb && ref[j] - t < r->tolerance)
        j++;
    if (j == nb && !ref_ended)
        return FF_VMAF_PAIR_WAIT;
    if (!j)
        return nb ? FF_VMAF_PAIR_BEFORE : FF_VMAF_PAIR_AFTER;
    k = j - 1;
    if (j < nb)
        return k;

    /* The reference's last frame: on screen for a frame's duration. */
    on_screen = r->ref_duration ? r->ref_duration : nb > 1 ? ref[k] - ref[k - 1] : 0;
    if (t - ref[k] >= FFMAX(on_screen - r->tolerance, r->tolerance))
        return FF_VMAF_PAIR_AFTER;
    return k;
}

int ff_vmaf_pairing_is_off(const FFVmafPairingRule *r, int64_t t_dist, int64_t t_ref)
{
    if (t_ref - t_dist >= r->tolerance)
        return 1;
    return r->ref_duration && t_dist - t_ref >= FFMAX(r->ref_duration - r->tolerance, r->tolerance);
}
