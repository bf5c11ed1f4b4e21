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
 * vmaf_hip's frame pairing: which reference frame each distorted frame is
 * scored against, read from the filter's two inputs. Three modes:
 * - instant (the default): the reference frame shown at the distorted
 *   frame's instant, by the rule of vmaf/pairing.h, robust to container
 *   rounding and time bases that differ;
 * - framesync: FFmpeg's framesync, exact timestamps (what the libvmaf
 *   filter does);
 * - index: frame i against frame i, whatever the timestamps.
 * The filter gets each distorted frame once, with its partner or none, in
 * order, and counts what was paired.
 */

#ifndef AVFILTER_VMAF_HIP_PAIRING_H
#define AVFILTER_VMAF_HIP_PAIRING_H

#include "libavutil/frame.h"

#include "avfilter.h"
#include "framesync.h"
#include "vmaf/pairing.h"

enum VMAFHIPPairingMode {
    VMAF_HIP_PAIRING_INSTANT,
    VMAF_HIP_PAIRING_FRAMESYNC,
    VMAF_HIP_PAIRING_INDEX,
};

/**
 * A distorted frame (the callee's) and its reference frame (the caller's;
 * NULL when it has none: ref_ended says whether the reference has ended,
 * else the frame comes before its first frame or between two of its
 * frames without either being of its instant).
 */
typedef int (*VMAFHIPPairCallback)(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref,
                                   int ref_ended);

typedef struct VMAFHIPRefFrame {
    AVFrame *frame;
    int64_t t;      ///< ns
    int used;
} VMAFHIPRefFrame;

#define VMAF_HIP_PAIRING_QUEUE 4

typedef struct VMAFHIPPairing {
    /* Options, in the filter's table. */
    int mode;
    int eof_action;         ///< EOF_ACTION_*: when the reference ends first
    int shortest;
    int repeatlast;
    int ts_sync_mode;       ///< framesync only

    AVFilterContext *ctx;
    VMAFHIPPairCallback on_pair;
    FFFrameSync fs;
    FFVmafPairingRule rule;
    int rule_set;
    FFVmafPairingStats stats;

    VMAFHIPRefFrame refs[VMAF_HIP_PAIRING_QUEUE];
    int nb_refs;
    AVFrame *dist;          ///< read, waiting for its partner
    int64_t dist_t;
    int dist_ended, ref_ended;
    int64_t dist_end_pts;   ///< where the output ends, in its time base

    /** No pair is coming any more: the filter finishes its scores, then
     *  ff_vmaf_hip_pairing_close() ends the output. */
    int ended;
    /** The reference ended first and the distorted frames after it were
     *  dropped (eof_action=endall, shortest): at this distorted time (ns). */
    int stopped_at_ref_end;
    int64_t stop_t;

    /* Of the frames read, for the messages: ns, per input (0 distorted). */
    int64_t nb_read[2];
    int64_t first_t[2], last_t[2];
    int64_t last_ref_used;  ///< ns, framesync: distinct reference frames used
    int64_t refs_used;      ///< framesync: their number

    int warned_off, warned_skip, warned_gap;
} VMAFHIPPairing;

/** Before the first frame (config_props of the output). */
int  ff_vmaf_hip_pairing_configure(VMAFHIPPairing *p, AVFilterContext *ctx,
                                   VMAFHIPPairCallback on_pair);
/** The filter's activate: reads the inputs and hands on the pairs. */
int  ff_vmaf_hip_pairing_activate(VMAFHIPPairing *p);
/**
 * No more pair is wanted (a chunk of a run has the frames it needs): the
 * inputs are ended as if they had, by instant or index.
 */
void ff_vmaf_hip_pairing_stop(VMAFHIPPairing *p);
/** After the scores of every frame have left: end the output. */
void ff_vmaf_hip_pairing_close(VMAFHIPPairing *p);
void ff_vmaf_hip_pairing_uninit(VMAFHIPPairing *p);

/** The counts so far (framesync's reference frames never used included). */
FFVmafPairingStats ff_vmaf_hip_pairing_stats(const VMAFHIPPairing *p);
const char *ff_vmaf_hip_pairing_mode_name(int mode);

/** The end of the run, said once at the end: why scoring stopped where it
 *  did and what was not paired; an error when no pair was scored. */
int  ff_vmaf_hip_pairing_report_end(VMAFHIPPairing *p, int64_t scored);

#endif /* AVFILTER_VMAF_HIP_PAIRING_H */
