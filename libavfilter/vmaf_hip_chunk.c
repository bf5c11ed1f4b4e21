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

#include <inttypes.h>

#include "libavutil/avutil.h"
#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mathematics.h"
#include "libavutil/parseutils.h"

#include "vmaf_hip_chunk.h"
#include "vmaf_hip_pairing.h"
#include "vmaf/output.h"

/* A first pair further than this from chunk_first_time is another frame:
 * ffprobe prints times to the microsecond, Matroska keeps milliseconds,
 * and frames are 4 ms apart at 250 fps. */
#define FIRST_TIME_TOLERANCE_US 1000

static void add_counts(FFVmafPairingStats *dst, const FFVmafPairingStats *now,
                       const FFVmafPairingStats *before)
{
    dst->pairs         += now->pairs         - before->pairs;
    dst->off           += now->off           - before->off;
    dst->ref_unused    += now->ref_unused    - before->ref_unused;
    dst->dist_unpaired += now->dist_unpaired - before->dist_unpaired;
}

static int check_options(VMAFHIPChunk *c, AVFilterContext *ctx, int has_log, int log_format,
                         int pairing_mode)
{
    int ret;

    if (c->end >= 0 && c->end <= c->start) {
        av_log(ctx, AV_LOG_ERROR, "chunk_end=%"PRId64" must come after chunk_start=%"PRId64
               ": the chunk is frames [chunk_start, chunk_end) of the run.\n", c->end, c->start);
        return AVERROR(EINVAL);
    }
    if (c->first > c->start) {
        av_log(ctx, AV_LOG_ERROR, "chunk_first=%"PRId64" comes after chunk_start=%"PRId64": "
               "the inputs must start at the chunk's first frame or before it.\n",
               c->first, c->start);
        return AVERROR(EINVAL);
    }
    if (has_log && log_format != FF_VMAF_LOG_CHUNK) {
        av_log(ctx, AV_LOG_ERROR, "A chunk writes its log with log_fmt=chunk, which vmaf-merge "
               "turns into the run's log in libvmaf's formats (xml, json, csv, sub).\n");
        return AVERROR(EINVAL);
    }
    if (pairing_mode == VMAF_HIP_PAIRING_FRAMESYNC) {
        av_log(ctx, AV_LOG_ERROR, "A chunk pairs its frames by instant or by index: framesync's "
               "count of the reference frames it skips cannot be split between chunks.\n");
        return AVERROR(EINVAL);
    }
    if (pairing_mode == VMAF_HIP_PAIRING_INDEX && c->first > 0) {
        av_log(ctx, AV_LOG_ERROR, "With pairing=index, a chunk's inputs start at the run's "
               "first frame (chunk_first=0): frames are paired by their number from each "
               "input's first, which no seek keeps.\n");
        return AVERROR(EINVAL);
    }
    if (c->first_time && (ret = av_parse_time(&c->first_us, c->first_time, 1)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Invalid chunk_first_time '%s': expected seconds "
               "(12.345678) or [-][HH:]MM:SS[.m...].\n", c->first_time);
        return ret;
    }
    return 0;
}

int ff_vmaf_hip_chunk_init(VMAFHIPChunk *c, AVFilterContext *ctx, FFVmafEngine *e,
                           int has_log, int log_format, int pairing_mode)
{
    int64_t need;
    int before, after, ret;

    c->first_us = AV_NOPTS_VALUE;
    c->next     = c->first;
    c->push_to  = INT64_MAX;
    if (c->start < 0) {
        if (c->end >= 0 || c->first || c->first_time) {
            av_log(ctx, AV_LOG_ERROR, "chunk_end, chunk_first and chunk_first_time describe "
                   "a chunk: give its first frame too, chunk_start.\n");
            return AVERROR(EINVAL);
        }
        return 0;
    }
    if ((ret = check_options(c, ctx, has_log, log_format, pairing_mode)) < 0)
        return ret;

    ff_vmaf_engine_chunk_context(e, &before, &after);
    c->push_from = FFMAX(c->start - before, 0);
    /* What the pairing left out before the chunk's first pair counts with
     * it, and only the pair before shows where that starts. */
    need = c->start > 0 ? FFMIN(c->push_from, c->start - 1) : 0;
    if (c->first > need) {
        before = c->start - need;
        av_log(ctx, AV_LOG_ERROR, "chunk_start=%"PRId64" needs the inputs from frame %"PRId64
               " of the run on (the %d frame%s before the chunk that its values depend on: "
               "the temporal features' state, the pairing's counts), but they start at "
               "chunk_first=%"PRId64": seek them to that frame or earlier.\n", c->start,
               need, before, before == 1 ? "" : "s", c->first);
        return AVERROR(EINVAL);
    }
    if (c->end >= 0)
        c->push_to = c->end + after;
    return ff_vmaf_engine_set_chunk(e, c->push_from, c->start, c->end);
}

void ff_vmaf_hip_chunk_describe(const VMAFHIPChunk *c, AVFilterContext *ctx)
{
    if (c->start < 0)
        return;
    if (c->end >= 0)
        av_log(ctx, AV_LOG_INFO, "Chunk: frames %"PRId64" to %"PRId64" of the run, read from "
               "frame %"PRId64"; frames %"PRId64" to %"PRId64" are scored, those around the "
               "chunk for the temporal features' state only.\n", c->start, c->end - 1,
               c->first, c->push_from, c->push_to - 1);
    else
        av_log(ctx, AV_LOG_INFO, "Chunk: frames %"PRId64" to the run's end, read from frame "
               "%"PRId64"; frames from %"PRId64" on are scored, those before the chunk for the "
               "temporal features' state only.\n", c->start, c->first, c->push_from);
}

/*
 * Before chunk_first_time: pairs the seek gave before the frame asked for
 * (seeks land on a key frame, some containers' before it), skipped (1).
 * At it: the frame asked for (0). After it: an error, the frame missing
 * or the seek past it.
 */
static int before_first(VMAFHIPChunk *c, AVFilterContext *ctx, const AVFrame *dist)
{
    int64_t t = AV_NOPTS_VALUE;

    if (c->first_us == AV_NOPTS_VALUE)
        return 0;
    if (dist->pts != AV_NOPTS_VALUE)
        t = av_rescale_q(dist->pts, ctx->inputs[0]->time_base, AV_TIME_BASE_Q);
    if (t != AV_NOPTS_VALUE && t < c->first_us - FIRST_TIME_TOLERANCE_US)
        return 1;
    if (t != AV_NOPTS_VALUE && t <= c->first_us + FIRST_TIME_TOLERANCE_US)
        return 0;
    if (t == AV_NOPTS_VALUE)
        av_log(ctx, AV_LOG_ERROR, "chunk_first=%"PRId64": asked for frame %"PRId64" of the run "
               "at t=%.6f s, got a pair without a timestamp.\n", c->first, c->first,
               c->first_us / 1e6);
    else
        av_log(ctx, AV_LOG_ERROR, "chunk_first=%"PRId64": asked for frame %"PRId64" of the run "
               "at t=%.6f s, got t=%.6f s (the first pair from there, by its distorted "
               "frame): the inputs have no frame at that time, or were seeked past it. Seek "
               "each input to before it, keeping the timestamps a whole run sees (-copyts "
               "-start_at_zero).\n", c->first, c->first, c->first_us / 1e6, t / 1e6);
    return AVERROR(EINVAL);
}

int ff_vmaf_hip_chunk_pair(VMAFHIPChunk *c, AVFilterContext *ctx, const AVFrame *dist,
                           const FFVmafPairingStats *now)
{
    int64_t index;
    int ret;

    if (c->start < 0)
        return 1;
    if (!c->started) {
        if ((ret = before_first(c, ctx, dist)) < 0)
            return ret;
        /* Skipped: what the pairing counted up to here is before the run's
         * frame chunk_first, in no chunk's counts. */
        if (ret) {
            c->seen = *now;
            return 0;
        }
        c->started = 1;
    }
    index = c->next++;
    if (index >= c->start && (c->end < 0 || index < c->end))
        add_counts(&c->counts, now, &c->seen);
    c->seen = *now;
    if (index + 1 == c->push_to)
        c->stop = 1;
    return index >= c->push_from;
}

int ff_vmaf_hip_chunk_inputs_ended(VMAFHIPChunk *c, AVFilterContext *ctx, FFVmafEngine *e)
{
    if (c->start >= 0 && !c->started) {
        av_log(ctx, AV_LOG_ERROR, "The inputs ended before frame chunk_first=%"PRId64" of the "
               "run (at t=%.6f s): no pair there or after it.\n", c->first, c->first_us / 1e6);
        return AVERROR(EINVAL);
    }
    if (c->start >= 0 && c->next <= c->start) {
        av_log(ctx, AV_LOG_ERROR, "The inputs ended before the chunk's first frame, "
               "chunk_start=%"PRId64": they gave frames %"PRId64" to %"PRId64" of the run.\n",
               c->start, c->first, c->next - 1);
        return AVERROR(EINVAL);
    }
    if (c->start >= 0 && c->end >= 0 && c->next < c->end) {
        av_log(ctx, AV_LOG_ERROR, "The inputs ended after frame %"PRId64" of the run, before "
               "the chunk's last frame, %"PRId64" (chunk_end=%"PRId64"): the chunk is "
               "incomplete, and no chunk file is written.\n", c->next - 1, c->end - 1, c->end);
        return AVERROR(EINVAL);
    }
    c->run_ended = 1;
    ff_vmaf_engine_mark_run_end(e);
    return 0;
}

FFVmafPairingStats ff_vmaf_hip_chunk_pairing(const VMAFHIPChunk *c, const FFVmafPairingStats *now)
{
    FFVmafPairingStats st = c->counts;

    if (c->start < 0)
        return *now;
    /* What was left out after the run's last pair counts with its last chunk. */
    if (c->run_ended && c->end < 0)
        add_counts(&st, now, &c->seen);
    return st;
}
