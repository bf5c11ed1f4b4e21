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

#include "libavutil/avassert.h"
#include "libavutil/mathematics.h"

#include "filters.h"
#include "vmaf_hip_pairing.h"

static const AVRational ns_tb = { 1, FF_VMAF_NS };

static int64_t to_ns(int64_t pts, AVRational tb)
{
    return av_rescale_q(pts, tb, ns_tb);
}

/* Seconds, as the messages print them: to the microsecond. */
static const char *secs(char *buf, int64_t ns)
{
    snprintf(buf, 32, "%.6f", ns / 1e9);
    return buf;
}
#define SECS(ns) secs((char[32]){ 0 }, ns)

const char *ff_vmaf_hip_pairing_mode_name(int mode)
{
    return mode == VMAF_HIP_PAIRING_FRAMESYNC ? "framesync" :
           mode == VMAF_HIP_PAIRING_INDEX     ? "index" : "instant";
}

static void note_read(VMAFHIPPairing *p, int input, int64_t t)
{
    if (!p->nb_read[input]++)
        p->first_t[input] = t;
    p->last_t[input] = t;
}

/* A link's nominal frame duration (ns), else the frame's own, else 0. */
static int64_t frame_duration(AVFilterLink *l, const AVFrame *f)
{
    AVRational rate = ff_filter_link(l)->frame_rate;

    if (rate.num > 0 && rate.den > 0)
        return av_rescale_q(1, av_inv_q(rate), ns_tb);
    return f && f->duration > 0 ? to_ns(f->duration, l->time_base) : 0;
}

static void set_rule(VMAFHIPPairing *p, const AVFrame *dist, const AVFrame *ref)
{
    AVFilterContext *ctx = p->ctx;
    int64_t d = frame_duration(ctx->inputs[0], dist), r = frame_duration(ctx->inputs[1], ref);

    ff_vmaf_pairing_rule(&p->rule, d, r, to_ns(1, ctx->inputs[0]->time_base),
                         to_ns(1, ctx->inputs[1]->time_base));
    p->rule_set = 1;
    if (p->mode == VMAF_HIP_PAIRING_INSTANT && !p->rule.same_rate && d && r)
        av_log(ctx, AV_LOG_INFO, "The inputs' frame rates differ (distorted: %.3f fps, reference: "
               "%.3f fps): each distorted frame is scored against the reference frame on screen "
               "at its instant, and the summary counts the reference frames left out.\n",
               1e9 / d, 1e9 / r);
    av_log(ctx, AV_LOG_VERBOSE, "Pairing: %s; a reference frame is of a distorted frame's "
           "instant up to %.3f ms after it.\n", ff_vmaf_hip_pairing_mode_name(p->mode),
           p->rule.tolerance / 1e6);
}

/* The rule, once the first distorted frame and the reference's first frame
 * (or its end) are known. */
static void set_rule_once(VMAFHIPPairing *p)
{
    if (!p->rule_set && (p->nb_refs || p->ref_ended))
        set_rule(p, p->dist, p->nb_refs ? p->refs[0].frame : NULL);
}

/* Count a pair, and say once when its frames were not of one instant. */
static void check_pair(VMAFHIPPairing *p, int64_t t_dist, int64_t t_ref)
{
    if (!ff_vmaf_pairing_is_off(&p->rule, t_dist, t_ref))
        return;
    p->stats.off++;
    if (p->warned_off || p->mode == VMAF_HIP_PAIRING_INDEX)
        return;
    p->warned_off = 1;
    av_log(p->ctx, AV_LOG_WARNING, "Frame %"PRId64": the distorted frame at %s s is scored against "
           "the reference frame at %s s, %.3f ms away: the reference has no frame of that "
           "instant (a dropped frame, a gap, or inputs that do not start together). The "
           "summary counts such pairs.\n", p->stats.pairs, SECS(t_dist), SECS(t_ref),
           (t_dist - t_ref) / 1e6);
}

static void drop_refs(VMAFHIPPairing *p, int n)
{
    for (int i = 0; i < n; i++) {
        if (!p->refs[i].used) {
            p->stats.ref_unused++;
            if (!p->warned_skip && p->rule.same_rate && p->mode == VMAF_HIP_PAIRING_INSTANT &&
                p->nb_read[0] > 1) {
                p->warned_skip = 1;
                av_log(p->ctx, AV_LOG_WARNING, "The reference frame at %s s is not scored: the "
                       "distorted input has no frame of its instant (a dropped frame?). The "
                       "summary counts such frames.\n", SECS(p->refs[i].t));
            }
        }
        av_frame_free(&p->refs[i].frame);
    }
    memmove(p->refs, p->refs + n, (p->nb_refs - n) * sizeof(*p->refs));
    p->nb_refs -= n;
}

/* The inputs give no more pairs. */
static void end_pairs(VMAFHIPPairing *p)
{
    AVFilterContext *ctx = p->ctx;

    p->ended = 1;
    /* Reference frames read and never used count as left out (those not
     * read are not counted); past the distorted input's end they are no
     * sign of a dropped frame. */
    p->warned_skip = 1;
    drop_refs(p, p->nb_refs);
    for (int i = 0; i < 2; i++)
        ff_inlink_set_status(ctx->inputs[i], AVERROR_EOF);
}

/* Hand the distorted frame on, with ref (NULL: none). */
static int hand_on(VMAFHIPPairing *p, const AVFrame *ref, int64_t t_ref, int ref_ended)
{
    AVFrame *dist = p->dist;

    p->dist = NULL;
    if (ref) {
        check_pair(p, p->dist_t, t_ref);
        p->stats.pairs++;
    } else {
        p->stats.dist_unpaired++;
    }
    return p->on_pair(p->ctx, dist, ref, ref_ended);
}

/* The reference has ended before the distorted frame waiting. */
static int after_ref_end(VMAFHIPPairing *p)
{
    if (p->eof_action == EOF_ACTION_ENDALL || p->shortest) {
        p->stopped_at_ref_end = 1;
        p->stop_t = p->dist_t;
        p->stats.dist_unpaired++;
        av_frame_free(&p->dist);
        end_pairs(p);
        return 0;
    }
    if (p->eof_action == EOF_ACTION_REPEAT && p->repeatlast && p->nb_refs) {
        drop_refs(p, p->nb_refs - 1);
        p->refs[0].used = 1;
        return hand_on(p, p->refs[0].frame, p->refs[0].t, 0);
    }
    return hand_on(p, NULL, 0, 1);
}

/* By instant, a frame without a timestamp cannot be paired: an error
 * (frame is freed). input: 0 distorted, 1 reference. */
static int check_timestamp(VMAFHIPPairing *p, AVFrame **frame, int input)
{
    if ((*frame)->pts != AV_NOPTS_VALUE || p->mode != VMAF_HIP_PAIRING_INSTANT)
        return 0;
    av_log(p->ctx, AV_LOG_ERROR, "%s frame %"PRId64" has no timestamp, so the %s frame of its "
           "instant is unknown. pairing=index pairs the frames in order instead.\n",
           input ? "Reference" : "Distorted", p->nb_read[input], input ? "distorted" : "reference");
    av_frame_free(frame);
    return AVERROR(EINVAL);
}

/* Read a distorted frame if none waits: 1 when one waits, 0 when the
 * caller must return (requested, or ended). */
static int read_dist(VMAFHIPPairing *p)
{
    AVFilterContext *ctx = p->ctx;
    AVFilterLink *in = ctx->inputs[0];
    int64_t pts;
    int ret, status;

    if (p->dist)
        return 1;
    if ((ret = ff_inlink_consume_frame(in, &p->dist)) < 0)
        return ret;
    if (!ret) {
        if (ff_inlink_acknowledge_status(in, &status, &pts)) {
            p->dist_ended = 1;
            p->dist_end_pts = pts;
            end_pairs(p);
            return 0;
        }
        if (ff_outlink_frame_wanted(ctx->outputs[0]))
            ff_inlink_request_frame(in);
        return FFERROR_NOT_READY;
    }
    if ((ret = check_timestamp(p, &p->dist, 0)) < 0)
        return ret;
    p->dist_t = p->dist->pts == AV_NOPTS_VALUE ? 0 : to_ns(p->dist->pts, in->time_base);
    if (p->dist->pts != AV_NOPTS_VALUE)
        p->dist_end_pts = p->dist->pts + FFMAX(p->dist->duration, 1);
    note_read(p, 0, p->dist_t);
    return 1;
}

/* Read one more reference frame: 1 when read, 0 at its end (ref_ended
 * set), FFERROR_NOT_READY when one was requested. */
static int read_ref(VMAFHIPPairing *p)
{
    AVFilterContext *ctx = p->ctx;
    AVFilterLink *in = ctx->inputs[1];
    AVFrame *frame;
    int64_t pts;
    int ret, status;

    if ((ret = ff_inlink_consume_frame(in, &frame)) < 0)
        return ret;
    if (!ret) {
        if (ff_inlink_acknowledge_status(in, &status, &pts)) {
            p->ref_ended = 1;
            return 0;
        }
        ff_inlink_request_frame(in);
        return FFERROR_NOT_READY;
    }
    if ((ret = check_timestamp(p, &frame, 1)) < 0)
        return ret;
    av_assert0(p->nb_refs < VMAF_HIP_PAIRING_QUEUE);
    p->refs[p->nb_refs].frame = frame;
    p->refs[p->nb_refs].t     = frame->pts == AV_NOPTS_VALUE ? 0 : to_ns(frame->pts, in->time_base);
    p->refs[p->nb_refs].used  = 0;
    note_read(p, 1, p->refs[p->nb_refs].t);
    p->nb_refs++;
    return 1;
}

static int instant_step(VMAFHIPPairing *p)
{
    int64_t times[VMAF_HIP_PAIRING_QUEUE];
    int ret, k;

    if ((ret = read_dist(p)) <= 0)
        return ret;
    for (;;) {
        set_rule_once(p);
        for (int i = 0; i < p->nb_refs; i++)
            times[i] = p->refs[i].t;
        k = p->rule_set ? ff_vmaf_pairing_choose(&p->rule, p->dist_t, times, p->nb_refs,
                                                 p->ref_ended)
                        : FF_VMAF_PAIR_WAIT;
        if (k != FF_VMAF_PAIR_WAIT)
            break;
        /* Every reference frame read starts before this instant: only
         * the last can still be of it (or of a later one). */
        if (p->nb_refs > 1)
            drop_refs(p, p->nb_refs - 1);
        if ((ret = read_ref(p)) < 0)
            return ret;
    }
    if (k >= 0) {
        drop_refs(p, k);
        p->refs[0].used = 1;
        return hand_on(p, p->refs[0].frame, p->refs[0].t, 0);
    }
    if (k == FF_VMAF_PAIR_AFTER)
        return after_ref_end(p);
    /* Before the reference's first frame, or a distorted frame whose time
     * went back: no reference frame is of its instant. */
    if (p->stats.pairs && !p->warned_gap) {
        p->warned_gap = 1;
        av_log(p->ctx, AV_LOG_WARNING, "The distorted frame at %s s has no reference frame of "
               "its instant (the reference's next frame is at %s s): it is passed on unscored. "
               "The summary counts such frames.\n", SECS(p->dist_t), SECS(p->refs[0].t));
    }
    return hand_on(p, NULL, 0, 0);
}

static int index_step(VMAFHIPPairing *p)
{
    int ret;

    if ((ret = read_dist(p)) <= 0)
        return ret;
    if (!p->ref_ended && (!p->nb_refs || p->refs[p->nb_refs - 1].used)) {
        if ((ret = read_ref(p)) < 0)
            return ret;
    }
    set_rule_once(p);
    /* read_ref() has returned when it requested a frame: no new one here
     * means the reference has ended. */
    if (!p->nb_refs || p->refs[p->nb_refs - 1].used)
        return after_ref_end(p);
    drop_refs(p, p->nb_refs - 1);
    p->refs[0].used = 1;
    return hand_on(p, p->refs[0].frame, p->refs[0].t, 0);
}

/* framesync's pair: its times are in framesync's time base (the reference
 * frame's) and the output's (the distorted frame's, rewritten). */
static int framesync_event(FFFrameSync *fs)
{
    VMAFHIPPairing *p = (VMAFHIPPairing *)((uint8_t *)fs - offsetof(VMAFHIPPairing, fs));
    AVFilterContext *ctx = fs->parent;
    AVFrame *dist, *ref;
    int64_t t_ref = 0;
    int ret;

    if ((ret = ff_framesync_dualinput_get(fs, &dist, &ref)) < 0)
        return ret;
    p->dist    = dist;
    p->dist_t  = dist->pts == AV_NOPTS_VALUE ? 0 : to_ns(dist->pts, ctx->outputs[0]->time_base);
    note_read(p, 0, p->dist_t);
    if (!p->rule_set)
        set_rule(p, dist, ref);
    if (ref) {
        t_ref = ref->pts == AV_NOPTS_VALUE ? 0 : to_ns(ref->pts, fs->time_base);
        if (!p->refs_used || t_ref != p->last_ref_used)
            p->refs_used++;
        p->last_ref_used = t_ref;
    }
    return hand_on(p, ref, t_ref, !ref && p->stats.pairs);
}

int ff_vmaf_hip_pairing_configure(VMAFHIPPairing *p, AVFilterContext *ctx,
                                  VMAFHIPPairCallback on_pair)
{
    int ret;

    p->ctx     = ctx;
    p->on_pair = on_pair;
    p->dist_end_pts = AV_NOPTS_VALUE;
    if (p->mode != VMAF_HIP_PAIRING_FRAMESYNC)
        return 0;
    if ((ret = ff_framesync_init_dualinput(&p->fs, ctx)) < 0)
        return ret;
    p->fs.opt_eof_action   = p->eof_action;
    p->fs.opt_shortest     = p->shortest;
    p->fs.opt_repeatlast   = p->repeatlast;
    p->fs.opt_ts_sync_mode = p->ts_sync_mode;
    p->fs.on_event         = framesync_event;
    return ff_framesync_configure(&p->fs);
}

int ff_vmaf_hip_pairing_activate(VMAFHIPPairing *p)
{
    AVFilterContext *ctx = p->ctx;
    int ret;

    if (p->mode == VMAF_HIP_PAIRING_FRAMESYNC) {
        ret = ff_framesync_activate(&p->fs);
        p->ended = p->fs.eof;
        return ret;
    }
    FF_FILTER_FORWARD_STATUS_BACK_ALL(ctx->outputs[0], ctx);
    if (p->ended)
        return 0;
    ret = p->mode == VMAF_HIP_PAIRING_INDEX ? index_step(p) : instant_step(p);
    if (ret == FFERROR_NOT_READY)
        return 0;
    /* One distorted frame a call: the filter's output can end in between
     * (-frames:v), and the filter emits its frames little by little. */
    if (ret >= 0 && !p->ended)
        ff_filter_set_ready(ctx, 100);
    return ret;
}

void ff_vmaf_hip_pairing_stop(VMAFHIPPairing *p)
{
    if (!p->ended)
        end_pairs(p);
}

void ff_vmaf_hip_pairing_close(VMAFHIPPairing *p)
{
    if (p->mode != VMAF_HIP_PAIRING_FRAMESYNC)
        ff_outlink_set_status(p->ctx->outputs[0], AVERROR_EOF, p->dist_end_pts);
}

void ff_vmaf_hip_pairing_uninit(VMAFHIPPairing *p)
{
    if (p->mode == VMAF_HIP_PAIRING_FRAMESYNC)
        ff_framesync_uninit(&p->fs);
    for (int i = 0; i < p->nb_refs; i++)
        av_frame_free(&p->refs[i].frame);
    p->nb_refs = 0;
    av_frame_free(&p->dist);
}

FFVmafPairingStats ff_vmaf_hip_pairing_stats(const VMAFHIPPairing *p)
{
    FFVmafPairingStats st = p->stats;

    /* framesync drops the reference frames it passes over unseen: those
     * read and not among the distinct ones used. */
    if (p->mode == VMAF_HIP_PAIRING_FRAMESYNC && p->ctx)
        st.ref_unused = FFMAX(ff_filter_link(p->ctx->inputs[1])->frame_count_in - p->refs_used, 0);
    return st;
}

int ff_vmaf_hip_pairing_report_end(VMAFHIPPairing *p, int64_t scored)
{
    AVFilterContext *ctx = p->ctx;
    FFVmafPairingStats st = ff_vmaf_hip_pairing_stats(p);
    int64_t ref_in = ff_filter_link(ctx->inputs[1])->frame_count_in;

    if (!scored) {
        /* framesync does not show its reference frames' times. */
        if (p->mode == VMAF_HIP_PAIRING_FRAMESYNC || !p->nb_read[1])
            av_log(ctx, AV_LOG_ERROR, "No frame pair was scored: no reference frame is at the "
                   "time of a distorted frame (distorted: %"PRId64" frames from %s s to %s s; "
                   "reference: %"PRId64" frames). Align the inputs' timestamps "
                   "(setpts=PTS-STARTPTS on both), or pair frames in order with pairing=index.\n",
                   p->nb_read[0], SECS(p->first_t[0]), SECS(p->last_t[0]), ref_in);
        else
            av_log(ctx, AV_LOG_ERROR, "No frame pair was scored: the inputs do not overlap in "
                   "time. The distorted frames read run from %s s to %s s (%"PRId64" frame%s%s), "
                   "the reference frames read from %s s to %s s (%"PRId64" frame%s). Align the "
                   "inputs' timestamps (setpts=PTS-STARTPTS on both, or -itsoffset), or pair "
                   "frames in order with pairing=index.\n",
                   SECS(p->first_t[0]), SECS(p->last_t[0]), p->nb_read[0],
                   p->nb_read[0] == 1 ? "" : "s",
                   p->stopped_at_ref_end ? "; none after could meet the reference, which had ended" : "",
                   SECS(p->first_t[1]), SECS(p->last_t[1]), p->nb_read[1],
                   p->nb_read[1] == 1 ? "" : "s");
        return AVERROR(EINVAL);
    }
    if (p->stopped_at_ref_end)
        av_log(ctx, AV_LOG_WARNING, "The reference ended (its last frame at %s s) before the "
               "distorted input (a frame at %s s): scoring stopped there, and only complete "
               "pairs are scored. eof_action=repeat scores the rest against the reference's "
               "last frame, as libvmaf does; eof_action=pass passes it unscored.\n",
               SECS(p->last_t[1]), SECS(p->stop_t));
    else if (p->dist_ended && p->ref_ended == 0 && p->mode != VMAF_HIP_PAIRING_FRAMESYNC &&
             st.ref_unused)
        av_log(ctx, AV_LOG_INFO, "The distorted input ended (its last frame at %s s) before "
               "the reference: the reference was read to %s s.\n",
               SECS(p->last_t[0]), SECS(p->last_t[1]));
    return 0;
}
