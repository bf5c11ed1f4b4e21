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
 * Calculate VMAF (Netflix's Video Multi-method Assessment Fusion) between a
 * distorted input (main) and a reference input, with the engine in vmaf/,
 * bit-exact with libvmaf. Scores are attached to the main frames as
 * lavfi.vmaf.* metadata, written to a libvmaf-format log and summarised at
 * the end.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "config_components.h"

#include "libavutil/avstring.h"
#include "libavutil/dict.h"
#include "libavutil/fifo.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/time.h"
#include "libavutil/timestamp.h"
#include "libavutil/mathematics.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "video.h"
#include "vmaf_hip_chunk.h"
#include "vmaf_hip_input.h"
#include "vmaf_hip_pairing.h"

#include "vmaf/engine.h"
#include "vmaf/feature.h"
#include "vmaf/log_file.h"
#include "vmaf/output.h"
#include "vmaf/scheduler.h"

/* What configure built the kernels for (configure.patch): -h shows it. */
#ifndef VMAF_HIP_GPU_CODE
#define VMAF_HIP_GPU_CODE "unknown"
#endif

/** A main frame waiting for its scores (integer motion2 needs the next frame). */
typedef struct PendingFrame {
    AVFrame *frame;
    int64_t index;      ///< engine frame index, or -1 for a frame passed unscored
} PendingFrame;

typedef struct VMAFHIPContext {
    const AVClass *class;
    VMAFHIPPairing pairing;
    VMAFHIPInput input;
    VMAFHIPChunk chunk;

    char *log_path;
    char *log_fmt;
    char *pool;
    char *model_cfg;
    char *feature_cfg;
    int n_threads;
    int n_subsample;
    int backend;                    ///< an FFVmafBackend
    int device;
    int gpu_graphs;
    int startup_buffer;             ///< MiB of frames held while the GPU starts
    int cpu_first;                  ///< ms on the CPU first (backend=auto)

    FFVmafEngine *engine;
    FFVmafScheduler *sched;
    FFVmafLogFile *log;             ///< NULL without log_path
    int in_uninit;
    enum FFVmafLogFormat log_format;
    enum FFVmafPoolMethod pool_method;
    AVFifo *pending;
    int flushed;
    int64_t end_time;
    int64_t frames_in[2];       ///< frames received per input, for the summary
    int ref_started;                ///< a reference frame has come
    int ref_ended;                  ///< the reference has ended (frames pass unscored)
    int64_t skipped_before_ref;     ///< distorted frames before the reference's first
    int64_t nb_emitted;             ///< scored frames that have left the filter
} VMAFHIPContext;

#define OFFSET(x) offsetof(VMAFHIPContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

static const AVOption vmaf_hip_options[] = {
    { "model",       "models to use, '|'-separated: version=NAME or path=FILE, with name=, disable_clip, enable_transform",
        OFFSET(model_cfg),   AV_OPT_TYPE_STRING, { .str = "version=vmaf_v0.6.1" }, 0, 0, FLAGS },
    { "feature",     "extra features, '|'-separated: name=FEATURE:option=value...",
        OFFSET(feature_cfg), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_path",    "file to write the per-frame and pooled scores to",
        OFFSET(log_path),    AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt",     "log format: xml (default), json, csv or sub, libvmaf's; or chunk, every value at full precision for vmaf-merge; needs log_path",
        OFFSET(log_fmt),     AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "pool",        "pooling of the printed score: min, mean or harmonic_mean",
        OFFSET(pool),        AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "n_threads",   "CPU threads (0: one per core)",
        OFFSET(n_threads),   AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 1024, FLAGS },
    { "n_subsample", "score one frame in every n_subsample",
        OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { "backend",     "where to compute: auto (GPU when one answers), gpu or cpu",
        OFFSET(backend),     AV_OPT_TYPE_INT, { .i64 = FF_VMAF_BACKEND_AUTO }, FF_VMAF_BACKEND_AUTO, FF_VMAF_BACKEND_CPU, FLAGS, .unit = "backend" },
        { "auto", "a GPU when one answers, else the CPU", 0, AV_OPT_TYPE_CONST, { .i64 = FF_VMAF_BACKEND_AUTO }, 0, 0, FLAGS, .unit = "backend" },
        { "gpu",  "the GPU; an error when none answers",  0, AV_OPT_TYPE_CONST, { .i64 = FF_VMAF_BACKEND_GPU  }, 0, 0, FLAGS, .unit = "backend" },
        /* The name this value had first: command lines that pass it keep working. */
        { "hip",  "same as gpu",                          0, AV_OPT_TYPE_CONST, { .i64 = FF_VMAF_BACKEND_GPU  }, 0, 0, FLAGS, .unit = "backend" },
        { "cpu",  "the CPU only",                         0, AV_OPT_TYPE_CONST, { .i64 = FF_VMAF_BACKEND_CPU  }, 0, 0, FLAGS, .unit = "backend" },
    { "device",      "GPU device index (this build's GPU code: " VMAF_HIP_GPU_CODE ")",
        OFFSET(device),      AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 255, FLAGS },
    { "startup_buffer", "MiB of input frames held while the GPU starts, so that reading goes on (0: wait for the GPU)",
        OFFSET(startup_buffer), AV_OPT_TYPE_INT, { .i64 = 2048 }, 0, INT_MAX / 2, FLAGS },
    { "cpu_first",   "backend=auto: milliseconds of a stream scored on the CPU before the GPU is started, so that shorter runs never load its runtime (0: start it with the filter)",
        OFFSET(cpu_first),   AV_OPT_TYPE_INT, { .i64 = 100 }, 0, INT_MAX / 1000, FLAGS },
    { "gpu_graphs",  "run each feature's GPU work of a frame as one captured graph where the platform has them (CUDA)",
        OFFSET(gpu_graphs),  AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    /* Pairing. framesync's options keep their names and values (scripts
     * pass them to libvmaf), with this filter's defaults: only complete
     * pairs are scored (eof_action=endall), where framesync's default
     * would pair the rest of the distorted input with a stale last
     * reference frame (a reference cut short by 'q', say). */
    { "pairing",     "which reference frame each distorted frame is scored against: instant (the one shown at its instant, robust to timestamp rounding), framesync (framesync's exact timestamps, as libvmaf) or index (in order)",
        OFFSET(pairing.mode), AV_OPT_TYPE_INT, { .i64 = VMAF_HIP_PAIRING_INSTANT }, 0, VMAF_HIP_PAIRING_INDEX, FLAGS, .unit = "pairing" },
        { "instant",   "the reference frame shown at the distorted frame's instant", 0, AV_OPT_TYPE_CONST, { .i64 = VMAF_HIP_PAIRING_INSTANT },   0, 0, FLAGS, .unit = "pairing" },
        { "framesync", "framesync's pairing by exact timestamps",                  0, AV_OPT_TYPE_CONST, { .i64 = VMAF_HIP_PAIRING_FRAMESYNC }, 0, 0, FLAGS, .unit = "pairing" },
        { "index",     "frame i against frame i, whatever the timestamps",          0, AV_OPT_TYPE_CONST, { .i64 = VMAF_HIP_PAIRING_INDEX },     0, 0, FLAGS, .unit = "pairing" },
    { "eof_action",  "when the reference ends first: endall (stop scoring), repeat (score the rest against its last frame, as libvmaf) or pass (pass the rest unscored)",
        OFFSET(pairing.eof_action), AV_OPT_TYPE_INT, { .i64 = EOF_ACTION_ENDALL }, EOF_ACTION_REPEAT, EOF_ACTION_PASS, FLAGS, .unit = "eof_action" },
        { "repeat", "score the rest against the reference's last frame", 0, AV_OPT_TYPE_CONST, { .i64 = EOF_ACTION_REPEAT }, 0, 0, FLAGS, .unit = "eof_action" },
        { "endall", "stop scoring; the output ends",                     0, AV_OPT_TYPE_CONST, { .i64 = EOF_ACTION_ENDALL }, 0, 0, FLAGS, .unit = "eof_action" },
        { "pass",   "pass the rest of the distorted input unscored",     0, AV_OPT_TYPE_CONST, { .i64 = EOF_ACTION_PASS },   0, 0, FLAGS, .unit = "eof_action" },
    { "shortest",    "end when the shorter input ends (as eof_action=endall)",
        OFFSET(pairing.shortest), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "repeatlast",  "with eof_action=repeat, repeat the reference's last frame (0: pass the rest unscored)",
        OFFSET(pairing.repeatlast), AV_OPT_TYPE_BOOL, { .i64 = 1 }, 0, 1, FLAGS },
    { "ts_sync_mode", "pairing=framesync: default (the reference frame at or before) or nearest",
        OFFSET(pairing.ts_sync_mode), AV_OPT_TYPE_INT, { .i64 = TS_DEFAULT }, TS_DEFAULT, TS_NEAREST, FLAGS, .unit = "ts_sync_mode" },
        { "default", "the reference frame at or before the distorted frame's timestamp", 0, AV_OPT_TYPE_CONST, { .i64 = TS_DEFAULT }, 0, 0, FLAGS, .unit = "ts_sync_mode" },
        { "nearest", "the reference frame with the nearest timestamp",                   0, AV_OPT_TYPE_CONST, { .i64 = TS_NEAREST }, 0, 0, FLAGS, .unit = "ts_sync_mode" },
    /* Chunks: a run scored in parts, each on its own, merged by vmaf-merge
     * (vmaf_hip_chunk.h). */
    { "chunk_start", "score frames [chunk_start, chunk_end) of the run only (frame pairs, counted from 0), with the frames around them the temporal features need (-1: the whole run)",
        OFFSET(chunk.start), AV_OPT_TYPE_INT64, { .i64 = -1 }, -1, INT64_MAX / 4, FLAGS },
    { "chunk_end",   "the run's frame after the chunk's last (-1: the run's end, where the inputs end)",
        OFFSET(chunk.end),   AV_OPT_TYPE_INT64, { .i64 = -1 }, -1, INT64_MAX / 4, FLAGS },
    { "chunk_first", "the run's frame of the inputs' first pair (at chunk_first_time)",
        OFFSET(chunk.first), AV_OPT_TYPE_INT64, { .i64 = 0 }, 0, INT64_MAX / 4, FLAGS },
    { "chunk_first_time", "the time of chunk_first's distorted frame, in seconds, from the input's start: pairs before it are skipped, and the first from it must be at it",
        OFFSET(chunk.first_time), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { NULL }
};

/* One option table under each of the filter's names: the class name is
 * what option errors and log lines say. */
#define VMAF_HIP_CLASS(var, name)                   \
    static const AVClass var = {                    \
        .class_name = name,                         \
        .item_name  = av_default_item_name,         \
        .option     = vmaf_hip_options,             \
        .version    = LIBAVUTIL_VERSION_INT,        \
        .category   = AV_CLASS_CATEGORY_FILTER,     \
    }

VMAF_HIP_CLASS(vmaf_hip_class, "vmaf_hip");

static void set_meta(AVDictionary **metadata, const char *key, double value)
{
    char name[256], num[64];
    snprintf(name, sizeof(name), "lavfi.vmaf.%s", key);
    ff_vmaf_format_value(num, sizeof(num), value);
    av_dict_set(metadata, name, num, 0);
}

static void attach_scores(VMAFHIPContext *s, AVFrame *frame, unsigned index)
{
    const FFVmafFeatureCollector *fc = ff_vmaf_engine_results(s->engine);
    int nb_keys = ff_vmaf_collector_nb_keys(fc);
    const char *first_model = ff_vmaf_engine_model_key(s->engine, 0);

    for (int k = 0; k < nb_keys; k++) {
        const char *key = ff_vmaf_collector_key(fc, k);
        double v;
        if (ff_vmaf_collector_read_at(fc, k, index, &v) < 0)
            continue;
        set_meta(&frame->metadata, ff_vmaf_feature_alias(key), v);
        if (first_model && !strcmp(key, first_model))
            set_meta(&frame->metadata, "score", v);
    }
}

/* Send the pending frames whose values are final, in order, up to max.
 * A pair in lets at most EMIT_PER_PAIR out: scores of several frames may
 * become final at once (the GPU's read-back, the pairs held while it
 * started), and an output that ends early (-frames:v) only learns of its
 * end between two pairs, so frames sent in bursts would be scored and
 * logged past it. */
#define EMIT_PER_PAIR 2
static int emit_ready(AVFilterContext *ctx, unsigned max)
{
    VMAFHIPContext *s = ctx->priv;
    unsigned done = ff_vmaf_engine_nb_done(s->engine);
    PendingFrame p;
    int ret;

    while (max-- && av_fifo_peek(s->pending, &p, 1, 0) >= 0) {
        if (p.index >= 0 && (uint64_t)p.index >= done)
            break;
        av_fifo_drain2(s->pending, 1);
        if (p.index >= 0 && ff_vmaf_engine_is_scored(s->engine, p.index))
            attach_scores(s, p.frame, p.index);
        if ((ret = ff_filter_frame(ctx->outputs[0], p.frame)) < 0)
            return ret;
        if (p.index >= 0)
            s->nb_emitted = p.index + 1;
    }
    return 0;
}

/*
 * Write the log and put it in place, at the end of the stream or, for a
 * run cut short, in uninit. A failure keeps the previous log and is
 * returned.
 */
static int finish_log(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    unsigned pushed = ff_vmaf_engine_nb_pushed(s->engine);
    double secs = (s->end_time - ff_vmaf_scheduler_start_time(s->sched)) / 1e6;
    FFVmafPairingStats pairing, now;

    if (!s->log)
        return 0;
    now = ff_vmaf_hip_pairing_stats(&s->pairing);
    pairing = ff_vmaf_hip_chunk_pairing(&s->chunk, &now);
    return ff_vmaf_log_file_write(s->log, s->engine, s->log_format,
                                  secs > 0 ? pushed / secs : 0.0,
                                  ff_vmaf_hip_pairing_mode_name(s->pairing.mode),
                                  &pairing, !s->in_uninit);
}

static int flush_engine(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    int ret;

    if (s->flushed)
        return 0;
    s->flushed  = 1;
    s->end_time = av_gettime_relative();
    if ((ret = ff_vmaf_scheduler_flush(s->sched)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Failed to complete the last frames' scores.\n");
        /* The scores are incomplete: the previous log stays. */
        ff_vmaf_log_file_discard(s->log);
        return ret;
    }
    /* The end of the stream: the log is complete, and a failure to write it
     * fails the run (uninit cannot return one). uninit writes it itself,
     * after limiting the frames to those that left the filter. */
    return s->in_uninit ? 0 : finish_log(ctx);
}

/* What the scheduler must know of the stream with each call. */
static int stream_flags(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    return (s->pairing.ended ? FF_VMAF_SCHEDULER_INPUTS_ENDED : 0) |
           (ff_outlink_get_status(ctx->outputs[0]) ? FF_VMAF_SCHEDULER_OUTPUT_ENDED : 0);
}

/* The scheduler scores a pair now: its pictures for the engine. */
static int pair_pictures(void *opaque, const AVFrame *dist, const AVFrame *ref,
                         FFVmafPicture *pic, FFVmafPicture *host, AVFrame **hold, int *nb_hold)
{
    AVFilterContext *ctx = opaque;
    VMAFHIPContext *s = ctx->priv;

    if (dist->color_range != ref->color_range)
        av_log(ctx, AV_LOG_WARNING,
               "The distorted and reference frames use different color ranges (%s, %s).\n",
               av_color_range_name(dist->color_range),
               av_color_range_name(ref->color_range));
    if (!s->ref_started && s->skipped_before_ref)
        av_log(ctx, AV_LOG_WARNING,
               "The reference starts later than the distorted input: the first %"PRId64" "
               "distorted frame%s had no reference frame and %s not scored. If the inputs "
               "should start together, align them (e.g. setpts=PTS-STARTPTS on both).\n",
               s->skipped_before_ref, s->skipped_before_ref == 1 ? "" : "s",
               s->skipped_before_ref == 1 ? "was" : "were");
    s->ref_started = 1;
    return ff_vmaf_hip_input_pictures(&s->input, ctx, s->engine, dist, ref, pic, host,
                                      hold, nb_hold);
}

/* A distorted frame leaves the scheduler, scored as frame index or passed
 * unscored (-1); it waits in pending until its values are final. */
static int pair_left(void *opaque, AVFrame *dist, const AVFrame *ref, int64_t index)
{
    AVFilterContext *ctx = opaque;
    VMAFHIPContext *s = ctx->priv;
    PendingFrame p = { dist, index };
    int ret;

    if (index < 0 && !ref && !s->ref_ended && !s->flushed) {
        /* No reference frame of its instant: the reference starts later,
         * or has none there. */
        if (!s->ref_started)
            s->skipped_before_ref++;
    } else if (index < 0 && (ret = flush_engine(ctx)) < 0) {
        /* The reference has ended (eof_action=pass): finish the scored
         * frames and pass the rest through unscored. */
        av_frame_free(&dist);
        return ret;
    }
    if ((ret = av_fifo_write(s->pending, &p, 1)) < 0) {
        av_frame_free(&dist);
        return ret;
    }
    return emit_ready(ctx, EMIT_PER_PAIR);
}

/* The distorted frame of a pair before the frames a chunk needs: on to the
 * output as it came, with the frames scored after it. */
static int pass_unscored(AVFilterContext *ctx, AVFrame *dist)
{
    VMAFHIPContext *s = ctx->priv;
    PendingFrame p = { dist, -1 };
    int ret;

    if ((ret = av_fifo_write(s->pending, &p, 1)) < 0) {
        av_frame_free(&dist);
        return ret;
    }
    return emit_ready(ctx, EMIT_PER_PAIR);
}

/* A distorted frame and its reference frame (the pairing's; NULL: none). */
static int on_pair(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref, int ref_ended)
{
    VMAFHIPContext *s = ctx->priv;
    int ret;

    s->ref_ended |= ref_ended;
    if (ref) {
        FFVmafPairingStats now = ff_vmaf_hip_pairing_stats(&s->pairing);
        if ((ret = ff_vmaf_hip_chunk_pair(&s->chunk, ctx, dist, &now)) < 0) {
            av_frame_free(&dist);
            return ret;
        }
        if (!ret)
            return pass_unscored(ctx, dist);
    }
    if ((ret = ff_vmaf_hip_input_check_frame(&s->input, ctx, dist, 0)) < 0 ||
        (ref && (ret = ff_vmaf_hip_input_check_frame(&s->input, ctx, ref, 1)) < 0)) {
        av_frame_free(&dist);
        return ret;
    }
    return ff_vmaf_scheduler_send(s->sched, dist, ref, stream_flags(ctx));
}

static av_cold int init(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    int ret;

    /* log_fmt defaults to NULL, meaning xml, so that one given without a
     * log_path is an error instead of a log silently not written. */
    if ((ret = ff_vmaf_log_format_from_name(s->log_fmt ? s->log_fmt : "xml")) < 0) {
        av_log(ctx, AV_LOG_ERROR,
               "Invalid log_fmt '%s': accepted values are xml, json, csv and sub, libvmaf's "
               "formats, and chunk, for vmaf-merge.\n", s->log_fmt);
        return AVERROR(EINVAL);
    }
    s->log_format = ret;
    if ((ret = ff_vmaf_log_file_check_path(s->log_path, ctx)) < 0)
        return ret;
    if (s->log_fmt && !s->log_path) {
        av_log(ctx, AV_LOG_ERROR,
               "log_fmt=%s needs log_path=FILE: the log is only written to a file.\n",
               s->log_fmt);
        return AVERROR(EINVAL);
    }

    s->pool_method = FF_VMAF_POOL_MEAN;
    if (s->pool) {
        if ((ret = ff_vmaf_pool_method_from_name(s->pool)) < 0 ||
            ret == FF_VMAF_POOL_MAX) {
            av_log(ctx, AV_LOG_ERROR,
                   "Invalid pool '%s': accepted values are min, mean and harmonic_mean.\n",
                   s->pool);
            return AVERROR(EINVAL);
        }
        s->pool_method = ret;
    }

    if ((ret = ff_vmaf_engine_alloc(&s->engine, ctx)) < 0)
        return ret;
    /* Models first, then extra features, as libvmaf registers them: this
     * is the order of the keys in the logs. */
    if ((ret = ff_vmaf_engine_parse_models(s->engine, s->model_cfg)) < 0)
        return ret;
    if ((ret = ff_vmaf_engine_parse_features(s->engine, s->feature_cfg)) < 0)
        return ret;
    /* Names that clash, or that the log cannot hold, fail here rather than
     * at the first frame (or not at all). */
    if ((ret = ff_vmaf_engine_check_names(s->engine, s->log_path ? (int)s->log_format : -1)) < 0)
        return ret;
    /* A chunk's context is known once the features are. */
    if ((ret = ff_vmaf_hip_chunk_init(&s->chunk, ctx, s->engine, !!s->log_path, s->log_format,
                                      s->pairing.mode)) < 0)
        return ret;

    /* Create the log's file now so a bad path fails before any frame. */
    if (s->log_path &&
        (ret = ff_vmaf_log_file_open(&s->log, s->log_path,
                                     ctx->name ? ctx->name : ctx->filter->name, ctx)) < 0)
        return ret;

    s->pending = av_fifo_alloc2(4, sizeof(PendingFrame), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->pending)
        return AVERROR(ENOMEM);
    if ((ret = ff_vmaf_hip_input_init(&s->input)) < 0)
        return ret;
    /* The options hold: the scheduler may start the GPU now. */
    return ff_vmaf_scheduler_alloc(&s->sched, s->engine, &(FFVmafSchedulerOptions) {
                                       .backend = s->backend, .device = s->device,
                                       .n_threads = s->n_threads, .n_subsample = s->n_subsample,
                                       .startup_buffer = s->startup_buffer,
                                       .cpu_first = s->cpu_first },
                                   &(FFVmafSchedulerCallbacks) {
                                       .opaque = ctx, .pictures = pair_pictures,
                                       .leave = pair_left }, ctx);
}

static int query_formats(const AVFilterContext *ctx,
                         AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    AVFilterFormats *main_fmts = ff_make_pixel_format_list(ff_vmaf_hip_input_formats);
    AVFilterFormats *ref_fmts  = ff_make_pixel_format_list(ff_vmaf_hip_input_formats);
    int ret;

    /* The main input and the output share one list (frames pass through);
     * the reference negotiates on its own so that a format mismatch is
     * reported instead of silently converted. */
    if ((ret = ff_formats_ref(main_fmts, &cfg_in[0]->formats)) < 0 ||
        (ret = ff_formats_ref(main_fmts, &cfg_out[0]->formats)) < 0 ||
        (ret = ff_formats_ref(ref_fmts,  &cfg_in[1]->formats)) < 0)
        return ret;
    return 0;
}

static int config_input_ref(AVFilterLink *inlink)
{
    return ff_vmaf_hip_input_check_links(inlink->dst);
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    VMAFHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    FilterLink *il = ff_filter_link(mainlink);
    FilterLink *ol = ff_filter_link(outlink);
    int ret;

    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    outlink->time_base = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ol->frame_rate = il->frame_rate;
    if ((ret = ff_vmaf_hip_pairing_configure(&s->pairing, ctx, on_pair)) < 0)
        return ret;

    /* Hardware frames pass through: the output is the main input's. */
    if (il->hw_frames_ctx) {
        av_buffer_unref(&ol->hw_frames_ctx);
        if (!(ol->hw_frames_ctx = av_buffer_ref(il->hw_frames_ctx)))
            return AVERROR(ENOMEM);
    }

    ff_vmaf_hip_chunk_describe(&s->chunk, ctx);
    ff_vmaf_engine_set_gpu_graphs(s->engine, s->gpu_graphs);
    if ((ret = ff_vmaf_hip_input_configure(&s->input, ctx, s->engine,
                                           s->backend != FF_VMAF_BACKEND_CPU)) < 0)
        return ret;
    return ff_vmaf_scheduler_configure(s->sched, &s->input.geo);
}

static int activate(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    int ret;

    if ((ret = ff_vmaf_hip_pairing_activate(&s->pairing)) < 0)
        return ret;
    /* A chunk with every pair it needs reads no further. */
    if (s->chunk.stop)
        ff_vmaf_hip_pairing_stop(&s->pairing);
    /* Counted here: the links are gone by the time uninit prints them. */
    for (int i = 0; i < 2; i++)
        s->frames_in[i] = ff_filter_link(ctx->inputs[i])->frame_count_in;
    /* No pair is coming: the frames still waiting for their successor get
     * their final scores and leave before the output ends (with framesync,
     * it has ended it: queued frames are consumed before a link's status). */
    if (s->pairing.ended && s->engine && !s->flushed) {
        for (int i = 0; i < 2; i++) {
            if (s->frames_in[i])
                continue;
            av_log(ctx, AV_LOG_ERROR, "The %s input (input %d) ended without a single frame: "
                   "nothing to score.\n", i ? "reference" : "main (distorted)", i);
            return AVERROR(EINVAL);
        }
        /* The run's end, unless a chunk stopped reading; a chunk that did
         * not get its frames writes no log. */
        if (!s->chunk.stop &&
            (ret = ff_vmaf_hip_chunk_inputs_ended(&s->chunk, ctx, s->engine)) < 0) {
            ff_vmaf_log_file_set_aside(s->log);
            return ret;
        }
        if ((ret = ff_vmaf_scheduler_release(s->sched, stream_flags(ctx))) < 0)
            return ret;
        if ((ret = ff_vmaf_hip_pairing_report_end(&s->pairing,
                                                  ff_vmaf_engine_nb_pushed(s->engine))) < 0) {
            ff_vmaf_log_file_set_aside(s->log);
            return ret;
        }
        if ((ret = flush_engine(ctx)) < 0 || (ret = emit_ready(ctx, UINT_MAX)) < 0)
            return ret;
        ff_vmaf_hip_pairing_close(&s->pairing);
        return 0;
    }
    return 0;
}

static void print_summary(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    const FFVmafFeatureCollector *fc = ff_vmaf_engine_results(s->engine);
    unsigned pushed = ff_vmaf_engine_nb_frames(s->engine);
    unsigned scored = ff_vmaf_engine_nb_scored(s->engine);
    int nb_keys = ff_vmaf_collector_nb_keys(fc);
    char line[4096] = "", backends[1024];
    FFVmafPairingStats pairing;
    double v;

    for (int i = 0; i < ff_vmaf_engine_nb_models(s->engine); i++) {
        const char *key = ff_vmaf_engine_model_key(s->engine, i);
        if (ff_vmaf_engine_pool(s->engine, key, s->pool_method, &v) < 0)
            continue;
        /* The first model's line is exactly libvmaf's, which scripts
         * scrape; the others name their model. */
        if (!i)
            av_log(ctx, AV_LOG_INFO, "VMAF score: %f\n", v);
        else
            av_log(ctx, AV_LOG_INFO, "VMAF score (%s): %f\n", key, v);
    }
    for (int k = 0; k < nb_keys; k++) {
        const char *key = ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k));
        if (ff_vmaf_engine_pool(s->engine, key, s->pool_method, &v) >= 0)
            av_strlcatf(line, sizeof(line), " %s=%f", key, v);
    }
    ff_vmaf_engine_describe_backends(s->engine, backends, sizeof(backends));
    av_log(ctx, AV_LOG_INFO, "Scored %u of %u frame pairs (main: %"PRId64" frames in, "
           "reference: %"PRId64" frames in); %s; %s:%s\n",
           scored, pushed, s->frames_in[0], s->frames_in[1], backends,
           ff_vmaf_pool_method_name(s->pool_method), line);
    pairing = ff_vmaf_hip_pairing_stats(&s->pairing);
    av_log(ctx, pairing.off || pairing.dist_unpaired ? AV_LOG_WARNING : AV_LOG_INFO,
           "Pairing (%s): %"PRId64" pairs scored (off by more than the tolerance: %"PRId64"); "
           "reference frames not used: %"PRId64"; distorted frames without a reference frame: "
           "%"PRId64".\n", ff_vmaf_hip_pairing_mode_name(s->pairing.mode),
           pairing.pairs, pairing.off, pairing.ref_unused, pairing.dist_unpaired);
    ff_vmaf_hip_input_summary(&s->input, ctx);
}

static av_cold void uninit(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    PendingFrame p;
    int64_t busy_us, nb_events;

    ff_vmaf_hip_pairing_uninit(&s->pairing);

    /* A run that did not reach the end of the stream (the output ended
     * first, a signal) gets its log here; a failure can only be logged. */
    s->in_uninit = 1;
    if (s->engine && ff_vmaf_engine_nb_pushed(s->engine)) {
        flush_engine(ctx);
        /* The output ended first (-frames:v, a trim after the filter, 'q'):
         * the log and the pooled scores hold exactly the frames that left
         * the filter, each with its final values, so they agree with the
         * metadata and do not depend on how far the inputs were read.
         * A log that failed at the end of the stream failed the graph
         * before the scored frames left: every pair is pooled. */
        if (s->nb_emitted < ff_vmaf_engine_nb_pushed(s->engine) &&
            !ff_vmaf_log_file_failed(s->log)) {
            av_log(ctx, AV_LOG_INFO, "The output ended after %"PRId64" frames; the %u frame%s "
                   "read past them %s not pooled or logged.\n", s->nb_emitted,
                   ff_vmaf_engine_nb_pushed(s->engine) - (unsigned)s->nb_emitted,
                   ff_vmaf_engine_nb_pushed(s->engine) - s->nb_emitted == 1 ? "" : "s",
                   ff_vmaf_engine_nb_pushed(s->engine) - s->nb_emitted == 1 ? "is" : "are");
            ff_vmaf_engine_limit_frames(s->engine, s->nb_emitted);
        }
        print_summary(ctx);
        finish_log(ctx);
    }
    /* Nothing scored, or the log failed: the previous log stays. */
    ff_vmaf_log_file_close(&s->log);

    busy_us = nb_events = 0;
    if (s->sched)
        ff_vmaf_scheduler_busy(s->sched, &busy_us, &nb_events);
    if (nb_events)
        av_log(ctx, AV_LOG_VERBOSE, "%.1f us per frame pair in the filter, on the "
               "filtergraph's thread (%"PRId64" pairs).\n",
               (double)busy_us / nb_events, nb_events);
    while (s->pending && av_fifo_read(s->pending, &p, 1) >= 0)
        av_frame_free(&p.frame);
    /* Pairs held while the GPU started, when the run ended first. */
    ff_vmaf_scheduler_free(&s->sched);
    ff_vmaf_hip_input_uninit(&s->input);
    av_fifo_freep2(&s->pending);
    ff_vmaf_engine_free(&s->engine);
}

static const AVFilterPad vmaf_hip_inputs[] = {
    {
        .name         = "main",
        .type         = AVMEDIA_TYPE_VIDEO,
    },
    {
        .name         = "reference",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_input_ref,
    },
};

static const AVFilterPad vmaf_hip_outputs[] = {
    {
        .name          = "default",
        .type          = AVMEDIA_TYPE_VIDEO,
        .config_props  = config_output,
    },
};

/* Everything but the name, the class and the output pads, shared by
 * vmaf_hip and its aliases: a field added here reaches all three. */
#define VMAF_HIP_FILTER_COMMON                                  \
    .p.flags       = AVFILTER_FLAG_METADATA_ONLY,               \
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,             \
    .init          = init,                                      \
    .uninit        = uninit,                                    \
    .activate      = activate,                                  \
    .priv_size     = sizeof(VMAFHIPContext),                    \
    FILTER_INPUTS(vmaf_hip_inputs),                             \
    FILTER_QUERY_FUNC2(query_formats)

const FFFilter ff_vf_vmaf_hip = {
    .p.name        = "vmaf_hip",
    .p.description = NULL_IF_CONFIG_SMALL("Calculate VMAF between a distorted (main) and a reference input, on a GPU or the CPU."),
    .p.priv_class  = &vmaf_hip_class,
    FILTER_OUTPUTS(vmaf_hip_outputs),
    VMAF_HIP_FILTER_COMMON,
};

#if CONFIG_VMAF_HIP_LIBVMAF_FILTER || CONFIG_VMAF_HIP_LIBVMAF_CUDA_FILTER
/* The aliases say at start-up whose numbers they give. */
static int config_output_libvmaf(AVFilterLink *outlink)
{
    av_log(outlink->src, AV_LOG_INFO,
           "%s is provided by vmaf_hip (libvmaf 3.2.0 numbers, on a GPU when one "
           "answers); this FFmpeg was built without libvmaf.\n", outlink->src->filter->name);
    return config_output(outlink);
}

static const AVFilterPad libvmaf_outputs[] = {
    {
        .name          = "default",
        .type          = AVMEDIA_TYPE_VIDEO,
        .config_props  = config_output_libvmaf,
    },
};
#endif

#if CONFIG_VMAF_HIP_LIBVMAF_FILTER
/* The same filter under the name "libvmaf", built when FFmpeg is built
 * without libvmaf (configure makes the two conflict), so that scripts and
 * tools calling libvmaf get this engine unchanged. It has libvmaf's class
 * name, so option errors and log lines say "libvmaf". */
VMAF_HIP_CLASS(libvmaf_class, "libvmaf");

const FFFilter ff_vf_vmaf_hip_libvmaf = {
    .p.name        = "libvmaf",
    .p.description = NULL_IF_CONFIG_SMALL("Calculate VMAF between a distorted (main) and a reference input: vmaf_hip under libvmaf's name."),
    .p.priv_class  = &libvmaf_class,
    FILTER_OUTPUTS(libvmaf_outputs),
    VMAF_HIP_FILTER_COMMON,
};
#endif

#if CONFIG_VMAF_HIP_LIBVMAF_CUDA_FILTER
/* And under "libvmaf_cuda", for scripts that ask for libvmaf's CUDA
 * filter (easyVmaf's -gpu): the same options; the CUDA frames it is given
 * (NVDEC's, hwupload_cuda's) are scored on their GPU where they are, and
 * software frames are accepted too. */
VMAF_HIP_CLASS(libvmaf_cuda_class, "libvmaf_cuda");

const FFFilter ff_vf_vmaf_hip_libvmaf_cuda = {
    .p.name        = "libvmaf_cuda",
    .p.description = NULL_IF_CONFIG_SMALL("Calculate VMAF between a distorted (main) and a reference input on a GPU: vmaf_hip under libvmaf_cuda's name."),
    .p.priv_class  = &libvmaf_cuda_class,
    FILTER_OUTPUTS(libvmaf_outputs),
    VMAF_HIP_FILTER_COMMON,
};
#endif
