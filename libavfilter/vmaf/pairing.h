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
 * Which reference frame a distorted frame is paired with: the rule, on
 * times in nanoseconds, apart from any filter API (the filter's glue feeds
 * it; tests/pairing_test.c checks it alone).
 *
 * A pair is the distorted frame and the reference frame shown at the same
 * instant. Containers round timestamps (Matroska and WebM to 1 ms, so a
 * 29.97 fps frame lands up to half a millisecond off its source frame), so
 * "the same instant" needs a tolerance:
 * - both inputs at one nominal rate (within 1 %, which covers 30 against
 *   30000/1001): the reference frame nearest to the distorted one, i.e.
 *   timestamps less than half a frame apart are one pair;
 * - other rates: the reference frame on screen at the distorted frame's
 *   instant (the last one that starts at or before it), where "at" allows
 *   the rounding of the inputs' time bases (one tick of each whose frame
 *   duration is not a whole number of ticks).
 * A pair is "off" when the reference frame it got was no longer on screen
 * by the rule's measure (a reference frame missing at that instant), and a
 * distorted frame has no partner before the reference's first frame and
 * after its last one has left the screen.
 */

#ifndef AVFILTER_VMAF_PAIRING_H
#define AVFILTER_VMAF_PAIRING_H

#include <stdint.h>

#define FF_VMAF_NS 1000000000

typedef struct FFVmafPairingRule {
    /** A reference frame that starts less than this after a distorted
     *  frame is still of its instant (ns, at least 1 us). */
    int64_t tolerance;
    /** How long a reference frame is on screen (ns; 0: unknown, then a
     *  pair is never counted off, and the last reference frame is taken
     *  to last as long as the gap before it). */
    int64_t ref_duration;
    int same_rate;
} FFVmafPairingRule;

typedef struct FFVmafPairingStats {
    int64_t pairs;          ///< pairs scored
    int64_t off;            ///< of which the reference frame was not the one of the instant
    int64_t ref_unused;     ///< reference frames read and never paired
    int64_t dist_unpaired;  ///< distorted frames read without a reference frame
} FFVmafPairingStats;

/**
 * The rule for two inputs: each one's nominal frame duration (ns, 0 when
 * unknown) and time base tick (ns).
 */
void ff_vmaf_pairing_rule(FFVmafPairingRule *r, int64_t dist_duration, int64_t ref_duration,
                          int64_t dist_tick, int64_t ref_tick);

enum {
    FF_VMAF_PAIR_WAIT   = -1,   ///< more reference frames are needed to decide
    FF_VMAF_PAIR_BEFORE = -2,   ///< before the reference frames given: no partner
    FF_VMAF_PAIR_AFTER  = -3,   ///< after the reference's end: no partner
};

/**
 * The reference frame of a distorted frame at time t, among the reference
 * frames at ref[0..nb) (ascending; ref[0] may be one paired before);
 * ref_ended: no reference frame follows ref[nb - 1].
 *
 * @return the index k of its partner (ref[0..k) are behind every later
 *         distorted frame of ascending time), or FF_VMAF_PAIR_*
 */
int ff_vmaf_pairing_choose(const FFVmafPairingRule *r, int64_t t,
                           const int64_t *ref, int nb, int ref_ended);

/** Whether a pair of a distorted frame at t_dist and a reference frame at
 *  t_ref is off: the reference frame had left the screen. */
int ff_vmaf_pairing_is_off(const FFVmafPairingRule *r, int64_t t_dist, int64_t t_ref);

#endif /* AVFILTER_VMAF_PAIRING_H */
