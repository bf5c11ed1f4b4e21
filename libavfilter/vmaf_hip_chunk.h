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
 * vmaf_hip's chunks: frames [chunk_start, chunk_end) of a run scored on
 * their own, from inputs seeked to a frame before them, so that each
 * chunk's values are those of the whole run and vmaf-merge writes the
 * run's log from the chunks' files (log_fmt=chunk).
 *
 * The pairs are numbered by their frame in the whole run from the one at
 * chunk_first_time (its distorted frame's), chunk_first: the inputs are
 * seeked to before it, and the pairs before it, which a seek to a key frame
 * gives, are skipped. Pairs before the context the temporal features need
 * pass unscored too; the context frames are scored but get no value; once
 * the frames after the chunk that its last frames need are in, the inputs
 * are ended. The pairing's counts are those of the chunk's frames: what
 * was left out before a pair counts with it.
 */

#ifndef AVFILTER_VMAF_HIP_CHUNK_H
#define AVFILTER_VMAF_HIP_CHUNK_H

#include <stdint.h>

#include "libavutil/frame.h"

#include "avfilter.h"
#include "vmaf/engine.h"
#include "vmaf/pairing.h"

typedef struct VMAFHIPChunk {
    /* Options, in the filter's table. */
    int64_t start;          ///< -1: the whole run
    int64_t end;            ///< -1: to the run's end
    int64_t first;
    char *first_time;

    int64_t first_us;       ///< first_time, or AV_NOPTS_VALUE
    int64_t push_from;      ///< the run's frame of the first pair pushed
    int64_t push_to;        ///< after the last pair needed (INT64_MAX: the run's end)
    int64_t next;           ///< the run's frame of the next pair
    FFVmafPairingStats seen;    ///< the pairing's counts at the last pair
    FFVmafPairingStats counts;  ///< those of the chunk's frames
    int started;            ///< the pair of chunk_first came
    int stop;               ///< every pair needed was pushed
    int run_ended;          ///< the inputs ended: the run's last frame came
} VMAFHIPChunk;

/**
 * Check the options against the others (log format, pairing mode) and
 * set the engine's chunk, once its features are parsed. Nothing to do
 * without chunk_start.
 */
int ff_vmaf_hip_chunk_init(VMAFHIPChunk *c, AVFilterContext *ctx, FFVmafEngine *e,
                           int has_log, int log_format, int pairing_mode);

/** Say at the stream's start which frames the chunk reads and scores. */
void ff_vmaf_hip_chunk_describe(const VMAFHIPChunk *c, AVFilterContext *ctx);

/**
 * The next pair, of distorted frame dist; now: the pairing's counts with
 * it. 1: score it, 0: pass dist unscored (before chunk_first_time, or
 * before the context needed); an error when the first pair from
 * chunk_first_time on is not at it.
 */
int ff_vmaf_hip_chunk_pair(VMAFHIPChunk *c, AVFilterContext *ctx, const AVFrame *dist,
                           const FFVmafPairingStats *now);

/**
 * The inputs ended: an error when the chunk did not get its frames; else
 * the engine learns that the run ended there.
 */
int ff_vmaf_hip_chunk_inputs_ended(VMAFHIPChunk *c, AVFilterContext *ctx, FFVmafEngine *e);

/**
 * The pairing's counts for the log: the run's (now), or a chunk's, which
 * has those after the run's last pair when it is the run's last chunk.
 */
FFVmafPairingStats ff_vmaf_hip_chunk_pairing(const VMAFHIPChunk *c,
                                             const FFVmafPairingStats *now);

#endif /* AVFILTER_VMAF_HIP_CHUNK_H */
