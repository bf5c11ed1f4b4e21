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
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "config_components.h"

#if HAVE_DIRENT_H
#include <dirent.h>
#endif
#if HAVE_UNISTD_H
#include <unistd.h>
#endif

#include "libavutil/avstring.h"
#include "libavutil/cpu.h"
#include "libavutil/dict.h"
#include "libavutil/fifo.h"
#include "libavutil/file_open.h"
#include "libavutil/hwcontext.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/thread.h"
#include "libavutil/time.h"
#include "libavutil/timestamp.h"
#include "libavutil/mathematics.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "video.h"
#include "vmaf_hip_pairing.h"

#if CONFIG_CUDA
/* The driver API's types, as FFmpeg's CUDA hwcontext names them; nothing
 * of the driver is called here (the engine's runtime loads it). */
#include <ffnvcodec/dynlink_cuda.h>
#include "libavutil/hwcontext_cuda.h"
#endif

#include "vmaf/engine.h"
#include "vmaf/feature.h"
#include "vmaf/output.h"

enum VMAFBackend {
    BACKEND_AUTO,
    BACKEND_HIP,
    BACKEND_CPU,
};

/** A main frame waiting for its scores (integer motion2 needs the next frame). */
typedef struct PendingFrame {
    AVFrame *frame;
    int64_t index;      ///< engine frame index, or -1 for a frame passed unscored
} PendingFrame;

typedef struct VMAFHIPContext {
    const AVClass *class;
    VMAFHIPPairing pairing;

    char *log_path;
    char *log_fmt;
    char *pool;
    char *model_cfg;
    char *feature_cfg;
    int n_threads;
    int n_subsample;
    int backend;
    int device;
    int64_t gpu_fail_at;
    int gpu_graphs;

    FFVmafEngine *engine;
    FILE *log_file;
    /* The log is written into log_tmp, beside log_final, and renamed over
     * it once complete: a run that fails or is killed keeps the previous
     * log. log_tmp is NULL when log_final is written directly (a device,
     * a pipe). */
    char *log_final;            ///< log_path, or the file its symlink names
    char *log_tmp;
    int log_done;               ///< written, or given up
    int log_failed;             ///< the log could not be written
    int holds_sighup;           ///< counted in hup_users
    int in_uninit;
    enum FFVmafLogFormat log_format;
    enum FFVmafPoolMethod pool_method;
    FFVmafGeometry geo;
    AVFifo *pending;
    int flushed;
    int64_t start_time, end_time;
    int64_t busy_us, nb_events;     ///< the filter's own time per frame pair (verbose log)
    int64_t frames_in[2];       ///< frames received per input, for the summary
    int ref_started;                ///< a reference frame has come
    int ref_ended;                  ///< the reference has ended (frames pass unscored)
    int64_t skipped_before_ref;     ///< distorted frames before the reference's first
    int64_t nb_emitted;             ///< scored frames that have left the filter

    /* While the GPU starts, pairs wait here (frames held, not copied) and
     * the engine is configured once it is ready: reading goes on meanwhile. */
    int startup_buffer;             ///< MiB of frames held at most (0: wait instead)
    int deferred;                   ///< the engine is not configured yet
    /* backend=auto with host frames: the stream starts on the CPU, and
     * after cpu_first ms the GPU starts; pairs are held while it does, then
     * the features move to it mid-stream (ff_vmaf_engine_start_gpu()). A
     * shorter run never loads the GPU's runtime. */
    int cpu_first;                  ///< ms on the CPU first (0: the GPU starts with the filter)
    int cpu_phase;                  ///< the engine's GPU start is still deferred
    int gpu_warming;                ///< ... and the GPU is starting
    AVFifo *waiting;                ///< DeferredPair, in order
    size_t waiting_bytes;

    /* Per picture as the engine numbers them: [0] reference, [1] distorted. */
    enum AVPixelFormat sw_format[2];    ///< of the samples (hardware frames: their sw_format)
    int hw_in_place;                ///< the GPU reads hardware frames where they are
    int hw_foreign[2];              ///< ... but not these, of another CUDA context: copied
    AVFrame *host[2];               ///< downloads of hardware frames
    int64_t hw_pictures;            ///< hardware frames scored
    int64_t downloads;              ///< of which downloaded to the host
    int64_t hw_copied;              ///< ... only, from another CUDA context
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
    { "log_fmt",     "log format: xml (default), json, csv or sub; needs log_path",
        OFFSET(log_fmt),     AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "pool",        "pooling of the printed score: min, mean or harmonic_mean",
        OFFSET(pool),        AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "n_threads",   "CPU threads (0: one per core)",
        OFFSET(n_threads),   AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 1024, FLAGS },
    { "n_subsample", "score one frame in every n_subsample",
        OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { "backend",     "where to compute: auto (GPU when one answers), hip or cpu",
        OFFSET(backend),     AV_OPT_TYPE_INT, { .i64 = BACKEND_AUTO }, BACKEND_AUTO, BACKEND_CPU, FLAGS, .unit = "backend" },
        { "auto", "a GPU when one answers, else the CPU", 0, AV_OPT_TYPE_CONST, { .i64 = BACKEND_AUTO }, 0, 0, FLAGS, .unit = "backend" },
        { "hip",  "the GPU; an error when none answers",  0, AV_OPT_TYPE_CONST, { .i64 = BACKEND_HIP  }, 0, 0, FLAGS, .unit = "backend" },
        { "cpu",  "the CPU only",                         0, AV_OPT_TYPE_CONST, { .i64 = BACKEND_CPU  }, 0, 0, FLAGS, .unit = "backend" },
    { "device",      "GPU device index",
        OFFSET(device),      AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 255, FLAGS },
    { "startup_buffer", "MiB of input frames held while the GPU starts, so that reading goes on (0: wait for the GPU)",
        OFFSET(startup_buffer), AV_OPT_TYPE_INT, { .i64 = 2048 }, 0, INT_MAX / 2, FLAGS },
    { "cpu_first",   "backend=auto: milliseconds of a stream scored on the CPU before the GPU is started, so that shorter runs never load its runtime (0: start it with the filter)",
        OFFSET(cpu_first),   AV_OPT_TYPE_INT, { .i64 = 100 }, 0, INT_MAX / 1000, FLAGS },
    { "gpu_graphs",  "run each feature's GPU work of a frame as one captured graph where the platform has them (CUDA)",
        OFFSET(gpu_graphs),  AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "gpu_fail_at", "testing: make the GPU path fail at this frame, to exercise the move to the CPU (-1: never)",
        OFFSET(gpu_fail_at), AV_OPT_TYPE_INT64, { .i64 = -1 }, -1, INT64_MAX, FLAGS },
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
    { NULL }
};

static const AVClass vmaf_hip_class = {
    .class_name = "vmaf_hip",
    .item_name  = av_default_item_name,
    .option     = vmaf_hip_options,
    .version    = LIBAVUTIL_VERSION_INT,
    .category   = AV_CLASS_CATEGORY_FILTER,
};

/* Planar YUV as libvmaf reads it, semi-planar (NV12...) and high-bit-packed
 * (P010...) as decoders and hardware give it, unpacked where the engine
 * computes; and CUDA hardware frames of any of these. */
#define SOFTWARE_FORMATS \
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P, \
    AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV444P10LE, \
    AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV444P12LE, \
    AV_PIX_FMT_YUV420P16LE, AV_PIX_FMT_YUV422P16LE, AV_PIX_FMT_YUV444P16LE, \
    AV_PIX_FMT_NV12, AV_PIX_FMT_NV21, AV_PIX_FMT_NV16, AV_PIX_FMT_NV24, AV_PIX_FMT_NV42, \
    AV_PIX_FMT_P010LE, AV_PIX_FMT_P012LE, AV_PIX_FMT_P016LE, \
    AV_PIX_FMT_P210LE, AV_PIX_FMT_P216LE, AV_PIX_FMT_P410LE, AV_PIX_FMT_P416LE

static const enum AVPixelFormat sw_pix_fmts[] = { SOFTWARE_FORMATS, AV_PIX_FMT_NONE };

static const enum AVPixelFormat pix_fmts[] = {
    SOFTWARE_FORMATS,
#if CONFIG_CUDA
    AV_PIX_FMT_CUDA,
#endif
    AV_PIX_FMT_NONE
};

static int is_sw_format(enum AVPixelFormat fmt)
{
    for (int i = 0; sw_pix_fmts[i] != AV_PIX_FMT_NONE; i++)
        if (sw_pix_fmts[i] == fmt)
            return 1;
    return 0;
}

/* The format of the samples: a hardware link's sw_format. */
static enum AVPixelFormat link_sw_format(const AVFilterLink *l)
{
    FilterLink *fl = ff_filter_link((AVFilterLink *)l);
    if (l->format == AV_PIX_FMT_CUDA && fl->hw_frames_ctx)
        return ((const AVHWFramesContext *)fl->hw_frames_ctx->data)->sw_format;
    return l->format;
}

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
 * Logs written in this process by instances of the filter that did not see
 * the end of their stream: ffmpeg re-creates the filter graph when an
 * input's resolution changes, without an end of stream for the old one,
 * and the new instance must not replace the log of the frames before.
 */
static AVMutex cut_logs_lock = AV_MUTEX_INITIALIZER;
static struct {
    char *path;
    int parts;
} cut_logs[32];

/*
 * The part of the stream a log of path holds: 1, or 2, 3... after parts
 * written by instances cut short. An instance that saw the end of its
 * stream ends the series: a later graph scores another stream.
 */
static int claim_log_part(const char *path, int stream_ended)
{
    int part = 1, i, n;

    ff_mutex_lock(&cut_logs_lock);
    for (n = 0; n < FF_ARRAY_ELEMS(cut_logs) && cut_logs[n].path; n++)
        ;
    for (i = 0; i < n; i++)
        if (!strcmp(cut_logs[i].path, path))
            break;
    if (i < n)
        part = cut_logs[i].parts + 1;
    if (stream_ended && i < n) {
        av_freep(&cut_logs[i].path);
        cut_logs[i] = cut_logs[n - 1];
        cut_logs[n - 1].path = NULL;
    } else if (!stream_ended && i < FF_ARRAY_ELEMS(cut_logs)) {
        if (i == n)
            cut_logs[i].path = av_strdup(path);
        cut_logs[i].parts = part;
    }
    ff_mutex_unlock(&cut_logs_lock);
    return part;
}

/* "dir/vmaf.json" -> "dir/vmaf.part2.json" */
static char *log_part_name(const char *path, int part)
{
    const char *base = strrchr(path, '/'), *dot;

    base = base ? base + 1 : path;
    dot  = strrchr(base, '.');
    if (!dot || dot == base)
        return av_asprintf("%s.part%d", path, part);
    return av_asprintf("%.*s.part%d%s", (int)(dot - path), path, part, dot);
}

/*
 * Whether this process has the file st describes open. When ffmpeg
 * configures the graph that scores them, its inputs are open: a log_path
 * naming one would replace it. Only where /proc/self/fd lists the open
 * files (Linux); elsewhere the temporary file at least keeps the input
 * intact until it has been read.
 */
static int is_open_in_process(const struct stat *st)
{
    int found = 0;
#if HAVE_DIRENT_H
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *de;

    if (!dir)
        return 0;
    while (!found && (de = readdir(dir))) {
        char fd_path[300];
        struct stat fd_st;
        if (de->d_name[0] == '.')
            continue;
        snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%s", de->d_name);
        found = !stat(fd_path, &fd_st) && fd_st.st_dev == st->st_dev &&
                fd_st.st_ino == st->st_ino;
    }
    closedir(dir);
#endif
    return found;
}

#define MAX_LINK_DEPTH 40

/*
 * Where the chain of symlinks that starts at path ends, the file there
 * existing or not (realpath() fails on a dangling link): the log goes
 * there and the links stay, as with libvmaf's fopen(), where a rename
 * over path would replace the first link. A relative target is relative
 * to its link's directory. *target is NULL when path is no symlink.
 */
static int follow_log_links(const char *path, char **target)
{
    *target = NULL;
#if HAVE_LSTAT && HAVE_UNISTD_H
    for (int depth = 0;; depth++) {
        const char *link = *target ? *target : path, *slash = strrchr(link, '/');
        char buf[4096], *next;
        struct stat st;
        ssize_t len;

        if (lstat(link, &st) || !S_ISLNK(st.st_mode))
            return 0;
        if (depth == MAX_LINK_DEPTH) {
            av_freep(target);
            return AVERROR(ELOOP);
        }
        if ((len = readlink(link, buf, sizeof(buf))) < 0 || len >= (ssize_t)sizeof(buf)) {
            int err = len < 0 ? errno : ENAMETOOLONG;
            av_freep(target);
            return AVERROR(err);
        }
        buf[len] = 0;
        next = buf[0] == '/' || !slash ? av_strdup(buf)
             : av_asprintf("%.*s/%s", (int)(slash - link), link, buf);
        av_free(*target);
        if (!(*target = next))
            return AVERROR(ENOMEM);
    }
#else
    return 0;
#endif
}

/*
 * The absolute name of path, which may not exist yet (its directory then
 * resolved); path itself where it cannot be resolved.
 */
static char *absolute_log_path(const char *path)
{
#if HAVE_LSTAT && HAVE_UNISTD_H
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char *real = realpath(path, NULL), *dir, *ret;

    if (!real) {
        dir  = slash ? av_strndup(path, slash - path + 1) : av_strdup(".");
        real = dir ? realpath(dir, NULL) : NULL;
        av_free(dir);
        if (!real)
            return av_strdup(path);
        ret = av_asprintf("%s%s%s", real, real[strlen(real) - 1] == '/' ? "" : "/", base);
    } else {
        ret = av_strdup(real);
    }
    free(real);
    return ret;
#else
    return av_strdup(path);
#endif
}

/*
 * The log files the instances of the filter in this process write. Two
 * instances writing one file would each replace the other's log, the one
 * that ends last winning: the second is refused at init. A file is known
 * by its absolute name and, where it exists, by its device and inode
 * (another spelling, a hard link). Devices and pipes are not counted
 * (log_path=/dev/null twice is fine). ffmpeg frees a graph before it
 * creates the one that replaces it (an input's resolution changed), so
 * the new instance finds the file free.
 */
typedef struct LogUser {
    struct LogUser *next;
    const AVFilterContext *ctx;
    char *name;
    char *path;
    int has_inode;
    dev_t dev;
    ino_t ino;
} LogUser;

static AVMutex log_users_lock = AV_MUTEX_INITIALIZER;
static LogUser *log_users;

static void free_log_user(LogUser **u)
{
    if (!*u)
        return;
    av_freep(&(*u)->name);
    av_freep(&(*u)->path);
    av_freep(u);
}

static int claim_log_file(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    LogUser *u = av_mallocz(sizeof(*u)), *o;
    struct stat st;

    if (!u)
        return AVERROR(ENOMEM);
    u->ctx  = ctx;
    u->name = av_strdup(ctx->name ? ctx->name : ctx->filter->name);
    u->path = absolute_log_path(s->log_final);
    if (!u->name || !u->path) {
        free_log_user(&u);
        return AVERROR(ENOMEM);
    }
    if (!stat(s->log_final, &st)) {
        u->has_inode = 1;
        u->dev = st.st_dev;
        u->ino = st.st_ino;
    }

    ff_mutex_lock(&log_users_lock);
    for (o = log_users; o; o = o->next)
        if (!strcmp(o->path, u->path) ||
            (o->has_inode && u->has_inode && o->dev == u->dev && o->ino == u->ino))
            break;
    if (o) {
        av_log(ctx, AV_LOG_ERROR, "%s and %s both write their log to '%s' (log_path '%s'): "
               "the log of the one that ends last would replace the other's. Give each "
               "instance its own log_path.\n", o->name, u->name, o->path, s->log_path);
    } else {
        u->next   = log_users;
        log_users = u;
    }
    ff_mutex_unlock(&log_users_lock);

    if (o) {
        free_log_user(&u);
        return AVERROR(EINVAL);
    }
    return 0;
}

static void release_log_file(AVFilterContext *ctx)
{
    LogUser **p, *u = NULL;

    ff_mutex_lock(&log_users_lock);
    for (p = &log_users; *p; p = &(*p)->next) {
        if ((*p)->ctx == ctx) {
            u  = *p;
            *p = u->next;
            break;
        }
    }
    ff_mutex_unlock(&log_users_lock);
    free_log_user(&u);
}

#if HAVE_SIGACTION
/*
 * SIGHUP (the terminal or the ssh session closed) kills the process where
 * its action is the default, and ffmpeg handles SIGINT and SIGTERM (it
 * ends the run, and uninit writes the log) but not SIGHUP: the run left
 * no log, only an empty temporary file. A filter cannot end the run
 * itself, so while an instance with a log lives, SIGHUP raises SIGTERM,
 * and ffmpeg's handler ends the run as for SIGTERM (a program that does
 * not handle SIGTERM ends as SIGHUP would have ended it). An action
 * someone else chose (SIG_IGN under nohup, a handler) is kept, and the
 * default comes back with the last instance if ours is still there.
 */
static AVMutex hup_lock = AV_MUTEX_INITIALIZER;
static int hup_users;
static int hup_installed;

static void sighup_to_sigterm(int sig)
{
    raise(SIGTERM);
}
#endif

static void hold_sighup(VMAFHIPContext *s)
{
#if HAVE_SIGACTION
    struct sigaction old, sa = { 0 };

    ff_mutex_lock(&hup_lock);
    if (!hup_users++ && !sigaction(SIGHUP, NULL, &old) &&
        !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
        sa.sa_handler = sighup_to_sigterm;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags   = SA_RESTART;
        hup_installed = !sigaction(SIGHUP, &sa, NULL);
    }
    ff_mutex_unlock(&hup_lock);
    s->holds_sighup = 1;
#endif
}

static void release_sighup(VMAFHIPContext *s)
{
#if HAVE_SIGACTION
    struct sigaction cur, dfl = { 0 };

    if (!s->holds_sighup)
        return;
    s->holds_sighup = 0;
    ff_mutex_lock(&hup_lock);
    if (!--hup_users && hup_installed) {
        if (!sigaction(SIGHUP, NULL, &cur) && !(cur.sa_flags & SA_SIGINFO) &&
            cur.sa_handler == sighup_to_sigterm) {
            dfl.sa_handler = SIG_DFL;
            sigemptyset(&dfl.sa_mask);
            sigaction(SIGHUP, &dfl, NULL);
        }
        hup_installed = 0;
    }
    ff_mutex_unlock(&hup_lock);
#endif
}

/*
 * Create the log's temporary file beside log_path, so that an unwritable
 * path fails before any frame, and log_path itself is only replaced once
 * the log is complete.
 */
static int open_log(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    struct stat st;
    int fd = -1, pid = 0, ret;

    /* The target of a symlink gets the log, as it did when the path was
     * opened for writing; the links stay. */
    if ((ret = follow_log_links(s->log_path, &s->log_final)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Cannot open log_path '%s' for writing: %s.\n",
               s->log_path, av_err2str(ret));
        return ret;
    }
#if HAVE_LSTAT && HAVE_UNISTD_H
    /* An existing target by its canonical name, as the messages give it. */
    if (s->log_final) {
        char *real = realpath(s->log_final, NULL);
        if (real) {
            av_free(s->log_final);
            s->log_final = av_strdup(real);
            free(real);
            if (!s->log_final)
                return AVERROR(ENOMEM);
        }
    }
#endif
    if (!s->log_final && !(s->log_final = av_strdup(s->log_path)))
        return AVERROR(ENOMEM);

    if (!stat(s->log_final, &st)) {
        if (S_ISDIR(st.st_mode)) {
            av_log(ctx, AV_LOG_ERROR, "Cannot open log_path '%s' for writing: it is a "
                   "directory.\n", s->log_path);
            return AVERROR(EISDIR);
        }
        if (!S_ISREG(st.st_mode)) {
            /* A device or a pipe keeps nothing to protect, and a file
             * renamed over it would replace it: write it directly. */
            if (!(s->log_file = avpriv_fopen_utf8(s->log_final, "w"))) {
                ret = AVERROR(errno);
                av_log(ctx, AV_LOG_ERROR, "Cannot open log_path '%s' for writing: %s.\n",
                       s->log_path, av_err2str(ret));
                return ret;
            }
            return 0;
        }
        if (is_open_in_process(&st)) {
            av_log(ctx, AV_LOG_ERROR, "log_path '%s' is a file this process has open (one of "
                   "the inputs?): the log would replace it. Choose another log_path.\n",
                   s->log_path);
            return AVERROR(EINVAL);
        }
    }

#if HAVE_UNISTD_H
    pid = getpid();
#endif
    /* O_EXCL: never write into a file someone else is writing (another
     * instance of the filter, a left-over of a killed run). */
    for (int n = 0; n < 100 && fd < 0; n++) {
        av_freep(&s->log_tmp);
        s->log_tmp = n ? av_asprintf("%s.tmp-%d-%d", s->log_final, pid, n)
                       : av_asprintf("%s.tmp-%d", s->log_final, pid);
        if (!s->log_tmp)
            return AVERROR(ENOMEM);
        fd = avpriv_open(s->log_tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0 || !(s->log_file = fdopen(fd, "w"))) {
        ret = AVERROR(errno);
        av_log(ctx, AV_LOG_ERROR, "Cannot open log_path '%s' for writing: cannot create "
               "the file '%s' beside it: %s.\n", s->log_path, s->log_tmp, av_err2str(ret));
        if (fd >= 0) {
            close(fd);
            remove(s->log_tmp);
        }
        av_freep(&s->log_tmp);
        return ret;
    }
    return 0;
}

/* Drop the log: close it, and remove its temporary file. */
static void discard_log(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;

    if (s->log_file)
        fclose(s->log_file);
    s->log_file = NULL;
    if (s->log_tmp)
        remove(s->log_tmp);
    av_freep(&s->log_tmp);
    s->log_done = 1;
}

/*
 * A run that scored no pair writes no log, and an older log at log_path
 * must not pass for its result (a script that reads it without looking at
 * the exit status): it is moved aside, and the run says where.
 */
static void set_aside_log(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    struct stat st;
    char *old;

    discard_log(ctx);
    if (!s->log_final || stat(s->log_final, &st) || !S_ISREG(st.st_mode))
        return;
    if (!(old = av_asprintf("%s.old", s->log_final)))
        return;
    if (rename(s->log_final, old))
        av_log(ctx, AV_LOG_ERROR, "log_path '%s' holds an earlier run's log, which could not be "
               "moved aside to '%s' (%s): it is not this run's result.\n", s->log_path, old,
               av_err2str(AVERROR(errno)));
    else
        av_log(ctx, AV_LOG_ERROR, "log_path '%s' held an earlier run's log: it was moved to '%s' "
               "so that it is not taken for this run's result; this run wrote no log.\n",
               s->log_path, old);
    av_free(old);
}

/*
 * Write the log into its temporary file and rename it over log_path. A
 * failure keeps the previous log and is returned.
 */
static int finish_log(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    FFVmafPairingStats pairing;
    unsigned pushed;
    double secs, fps;
    char *dst = NULL;
    int part, ret;

    if (!s->log_file || s->log_done)
        return 0;
    if (!(pushed = ff_vmaf_engine_nb_pushed(s->engine))) {
        discard_log(ctx);
        return 0;
    }
    s->log_done = 1;
    secs = (s->end_time - s->start_time) / 1e6;
    fps  = secs > 0 ? pushed / secs : 0.0;
    pairing = ff_vmaf_hip_pairing_stats(&s->pairing);
    ret  = ff_vmaf_engine_write_log(s->engine, s->log_file, s->log_format, fps,
                                    ff_vmaf_hip_pairing_mode_name(s->pairing.mode), &pairing);
    if (ret >= 0 && fflush(s->log_file))
        ret = AVERROR(errno);
#if HAVE_UNISTD_H
    /* On the disk before the rename: a crash then leaves the old log or
     * the new one, never a part. */
    if (ret >= 0 && s->log_tmp && fsync(fileno(s->log_file)))
        ret = AVERROR(errno);
#endif
    if (fclose(s->log_file) && ret >= 0)
        ret = AVERROR(errno);
    s->log_file = NULL;
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "Error writing the log to '%s': %s.%s\n",
               s->log_tmp ? s->log_tmp : s->log_final, av_err2str(ret),
               s->log_tmp ? " The previous log_path is kept." : "");
        discard_log(ctx);
        s->log_failed = 1;
        return ret;
    }
    if (!s->log_tmp)
        return 0;

    if ((part = claim_log_part(s->log_final, !s->in_uninit)) > 1) {
        if (!(dst = log_part_name(s->log_final, part))) {
            discard_log(ctx);
            return AVERROR(ENOMEM);
        }
        av_log(ctx, AV_LOG_WARNING, "An earlier instance of this filter wrote log_path '%s' "
               "without reaching the end of its stream: ffmpeg re-created the filter graph "
               "(an input's resolution changed, say), so "
               "this instance scored only the frames from there on; writing this part's log "
               "to '%s' to keep the earlier one. For one log of the whole stream, give the "
               "filter one size (a scale filter before it) and add -reinit_filter 0 before "
               "the input.\n", s->log_final, dst);
    }
    if (rename(s->log_tmp, dst ? dst : s->log_final)) {
        ret = AVERROR(errno);
        av_log(ctx, AV_LOG_ERROR, "Cannot put the log in place: renaming '%s' to '%s' "
               "failed: %s.\n", s->log_tmp, dst ? dst : s->log_final, av_err2str(ret));
        discard_log(ctx);
        s->log_failed = 1;
    } else {
        av_freep(&s->log_tmp);
    }
    av_free(dst);
    return ret;
}

static int flush_engine(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    int ret;

    if (s->flushed)
        return 0;
    s->flushed  = 1;
    s->end_time = av_gettime_relative();
    if ((ret = ff_vmaf_engine_flush(s->engine)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Failed to complete the last frames' scores.\n");
        /* The scores are incomplete: the previous log stays. */
        discard_log(ctx);
        return ret;
    }
    /* The end of the stream: the log is complete, and a failure to write it
     * fails the run (uninit cannot return one). uninit writes it itself,
     * after limiting the frames to those that left the filter. */
    return s->in_uninit ? 0 : finish_log(ctx);
}

/* which: 0 for the reference, 1 for the distorted, as the engine counts. */
static void picture_from_frame(FFVmafPicture *pic, const AVFrame *frame,
                               const FFVmafGeometry *geo, int which)
{
    ff_vmaf_picture_set_geometry(pic, geo);
    pic->chroma = geo->chroma_layout[which];
    pic->shift  = geo->sample_shift[which];
    for (int p = 0; p < 3; p++) {
        pic->data[p]     = frame->data[p];
        pic->linesize[p] = frame->linesize[p];
    }
}

/*
 * The picture of frame for the engine. A hardware frame is read in place
 * by the GPU when it can; it is downloaded (and counted) only when a
 * feature computes on the CPU: then host[] holds the copy, and the engine
 * reads it through pic->host.
 */
static int picture_for_engine(AVFilterContext *ctx, FFVmafPicture *pic, FFVmafPicture *host_pic,
                              const AVFrame *frame, int which, AVFrame **hold, int *nb_hold)
{
    VMAFHIPContext *s = ctx->priv;
    int ret;

    if (frame->format != AV_PIX_FMT_CUDA) {
        /* The engine may read the pixels after this call (frames in
         * parallel): it keeps a reference to the frame, no copy. */
        if (ff_vmaf_engine_keeps_frames(s->engine) &&
            !(hold[(*nb_hold)++] = av_frame_clone(frame)))
            return AVERROR(ENOMEM);
        picture_from_frame(pic, frame, &s->geo, which);
        return 0;
    }
    s->hw_pictures++;
    if (!s->hw_in_place || s->hw_foreign[which] || ff_vmaf_engine_needs_host_pixels(s->engine)) {
        AVFrame *dst = s->host[which];
        /* An engine that scores frames in parallel reads the copy after
         * this call: each frame gets its own, and the hardware frame is
         * not held (a decoder's pool of surfaces is small). */
        if (ff_vmaf_engine_keeps_frames(s->engine)) {
            if (!(dst = av_frame_alloc()))
                return AVERROR(ENOMEM);
            hold[(*nb_hold)++] = dst;
        }
        av_frame_unref(dst);
        dst->format = s->sw_format[which];
        if ((ret = av_hwframe_transfer_data(dst, frame, 0)) < 0) {
            av_log(ctx, AV_LOG_ERROR, "Cannot download a hardware frame to the host: %s.\n",
                   av_err2str(ret));
            return ret;
        }
        s->downloads++;
        if (!s->hw_in_place || s->hw_foreign[which]) {
            s->hw_copied += s->hw_in_place;
            picture_from_frame(pic, dst, &s->geo, which);
            return 0;
        }
        picture_from_frame(host_pic, dst, &s->geo, which);
        picture_from_frame(pic, frame, &s->geo, which);
        pic->on_device = 1;
        pic->host      = host_pic;
        return 0;
    }
    picture_from_frame(pic, frame, &s->geo, which);
    pic->on_device = 1;
    return 0;
}

/*
 * Every frame must be what the links were configured with: a size or format
 * that changes inside the graph (scale with eval=frame, say) would be read
 * out of bounds, or scored as the wrong picture.
 */
static int check_frame(AVFilterContext *ctx, const AVFrame *frame, int input)
{
    VMAFHIPContext *s = ctx->priv;
    /* input 0 is the distorted picture, which the engine numbers 1. */
    enum AVPixelFormat want = s->sw_format[!input], sw = frame->format;
    const char *want_name = av_get_pix_fmt_name(want), *sw_name;

    if (frame->format == AV_PIX_FMT_CUDA && frame->hw_frames_ctx)
        sw = ((const AVHWFramesContext *)frame->hw_frames_ctx->data)->sw_format;
    if (frame->width == s->geo.width && frame->height == s->geo.height && sw == want)
        return 0;
    sw_name = av_get_pix_fmt_name(sw);
    av_log(ctx, AV_LOG_ERROR,
           "A %s frame is %dx%d %s, but the stream started as %dx%d %s: the size or format "
           "changed inside the filtergraph, which vmaf_hip does not follow. Scale and convert "
           "both inputs to one fixed size and format before it (e.g. scale=%d:%d,format=%s).\n",
           input ? "reference" : "distorted", frame->width, frame->height,
           sw_name ? sw_name : "none", s->geo.width, s->geo.height, want_name,
           s->geo.width, s->geo.height, want_name);
    return AVERROR(EINVAL);
}

/* The first pair: the log's fps counts from here. */
static void start_clock(VMAFHIPContext *s)
{
    if (!s->start_time)
        s->start_time = av_gettime_relative();
}

/* Pairs held while the GPU started that are scored with each new pair. */
#define REPLAY_PER_PAIR 2

typedef struct DeferredPair {
    AVFrame *dist, *ref;
} DeferredPair;

static int score_pair(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref);

static size_t frame_bytes(const AVFrame *frame)
{
    size_t n = 0;
    for (int i = 0; i < FF_ARRAY_ELEMS(frame->buf) && frame->buf[i]; i++)
        n += frame->buf[i]->size;
    return n;
}

/* Configure the engine and describe where it computes. */
static int configure_engine(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    char backends[1024];
    int n_threads = s->n_threads ? s->n_threads : av_cpu_count(), ret;

    if ((ret = ff_vmaf_engine_configure(s->engine, &s->geo, n_threads,
                                        s->n_subsample)) < 0)
        return ret;
    s->hw_in_place = ff_vmaf_engine_gpu_reads_device(s->engine);
    ff_vmaf_engine_describe_backends(s->engine, backends, sizeof(backends));
    av_log(ctx, AV_LOG_INFO, "backend=%s: %s%s; %d CPU thread%s.\n",
           s->backend == BACKEND_HIP ? "hip" : s->backend == BACKEND_CPU ? "cpu" : "auto",
           backends,
           s->cpu_phase ? ", and on a GPU if the stream runs past cpu_first and one answers" :
           s->backend == BACKEND_AUTO && !ff_vmaf_engine_uses_gpu(s->engine) ?
           " (no GPU answered)" : "",
           ff_vmaf_engine_nb_threads(s->engine),
           ff_vmaf_engine_nb_threads(s->engine) == 1 ? "" : "s");
    return 0;
}

/* The stream ran cpu_first ms on the CPU and the GPU has started (or must
 * be waited for now): the features with a GPU kernel move to it from the
 * next pair on, or stay on the CPU if no GPU answers. */
static int move_to_gpu(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    unsigned first = ff_vmaf_engine_nb_pushed(s->engine);
    char backends[1024];
    int ret;

    if (s->gpu_warming)
        av_log(ctx, AV_LOG_VERBOSE, "%u frame pairs (%.1f MiB) were held while the GPU "
               "started.\n", (unsigned)av_fifo_can_read(s->waiting), s->waiting_bytes / 1048576.0);
    s->cpu_phase = s->gpu_warming = 0;
    if ((ret = ff_vmaf_engine_start_gpu(s->engine)) < 0)
        return ret;
    if (!ff_vmaf_engine_uses_gpu(s->engine)) {
        av_log(ctx, AV_LOG_VERBOSE, "No GPU answered; the stream stays on the CPU; %d CPU "
               "thread%s.\n", ff_vmaf_engine_nb_threads(s->engine),
               ff_vmaf_engine_nb_threads(s->engine) == 1 ? "" : "s");
        return 0;
    }
    ff_vmaf_engine_describe_backends(s->engine, backends, sizeof(backends));
    av_log(ctx, AV_LOG_INFO, "From frame %u on: %s; %d CPU thread%s.\n", first, backends,
           ff_vmaf_engine_nb_threads(s->engine),
           ff_vmaf_engine_nb_threads(s->engine) == 1 ? "" : "s");
    return 0;
}

/*
 * The inputs have ended, the GPU not started: whether the CPU would score
 * the pairs left (on the threads asked for, at the time a frame has taken
 * so far, longer with more threads) sooner than the GPU could take over:
 * its start, as it costs the process, and the CPU's frames in flight,
 * which finish first. 1: it
 * would (*left_ms, its time); 0: the GPU is worth it; -1: no frame timed
 * yet, and the time since the first pair does not decide it either.
 */
static int cpu_finishes_sooner(VMAFHIPContext *s, unsigned left, int64_t ran_us,
                               int64_t *left_ms)
{
    const int threads  = s->n_threads ? s->n_threads : av_cpu_count();
    const int64_t cost = ff_vmaf_engine_gpu_start_cost_ms();
    const int64_t rounds = (left + threads - 1) / threads;
    int64_t frame_us = ff_vmaf_engine_cpu_frame_us(s->engine);

    if (frame_us < 0) {
        /* No frame done yet: the first has taken longer than the stream
         * has run, but it starts cold and takes longer than later ones, so
         * only a wide margin decides. */
        return rounds * ran_us / 1000 >= 2 * cost ? 0 : -1;
    }
    /* With more threads sharing the cores (memory, SMT), each frame takes
     * longer: taken as the square root of the ratio (on a 16-core H200
     * host, 1.5 times as long on 16 threads as on 4). */
    if (threads > ff_vmaf_engine_nb_threads(s->engine))
        frame_us = llrint(frame_us * sqrt((double)threads / ff_vmaf_engine_nb_threads(s->engine)));
    *left_ms = rounds * frame_us / 1000;
    return *left_ms < cost + frame_us / 1000;
}

/* While the stream is on the CPU first: start the GPU once the stream has
 * run cpu_first ms, and move to it once it has started; or, when the
 * inputs end first and the CPU has little left to do, keep the stream on
 * the CPU. */
static int advance_cpu_phase(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    int64_t ran_us, left_ms = 0;
    int cpu = 0;

    /* An output that has ended (a trim after the filter) takes no more
     * frames: the pairs still coming are not worth a GPU. (framesync sets
     * that status too when the inputs end: then the pairs held are.) */
    if (!s->cpu_phase || (ff_outlink_get_status(ctx->outputs[0]) && !s->pairing.ended))
        return 0;
    ran_us = s->start_time ? av_gettime_relative() - s->start_time : 0;
    if (!s->gpu_warming && s->start_time && s->pairing.ended) {
        /* Pairs not yet scored: in flight and held. */
        unsigned left = ff_vmaf_engine_nb_pushed(s->engine) -
               ff_vmaf_engine_nb_features_done(s->engine) + av_fifo_can_read(s->waiting);
        if ((cpu = cpu_finishes_sooner(s, left, ran_us, &left_ms)) > 0) {
            int ret;
            s->cpu_phase = 0;
            if ((ret = ff_vmaf_engine_finish_on_cpu(s->engine)) < 0)
                return ret;
            av_log(ctx, AV_LOG_VERBOSE, "The inputs ended with %u frame pairs left to score, "
                   "about %"PRId64" ms on the CPU: the GPU is not started; %d CPU thread%s.\n",
                   left, left_ms, ff_vmaf_engine_nb_threads(s->engine),
                   ff_vmaf_engine_nb_threads(s->engine) == 1 ? "" : "s");
            return 0;
        }
    }
    if (!s->gpu_warming && s->start_time && !cpu &&
        (ran_us >= s->cpu_first * INT64_C(1000) || s->pairing.ended)) {
        if (s->pairing.ended)
            av_log(ctx, AV_LOG_VERBOSE, "The inputs ended with more left to score than the "
                   "GPU's start costs: starting the GPU.\n");
        else
            av_log(ctx, AV_LOG_VERBOSE, "The stream has run %d ms: starting the GPU; frame pairs "
                   "are held until it is ready.\n", s->cpu_first);
        ff_vmaf_engine_warm_up_gpu(s->device);
        s->gpu_warming = 1;
    }
    if (s->gpu_warming && !ff_vmaf_engine_gpu_starting(s->engine))
        return move_to_gpu(ctx);
    return 0;
}

/* Whether a new pair must join those held: the engine is not configured
 * yet, the GPU is starting, pairs are held already (order), or, on the CPU
 * first, every frame slot is in use (the inputs are not stalled for it). */
static int must_hold(VMAFHIPContext *s)
{
    return s->deferred || s->gpu_warming || av_fifo_can_read(s->waiting) ||
           (s->cpu_phase && ff_vmaf_engine_push_would_wait(s->engine));
}

/* The GPU has started, or must be waited for now: configure the engine.
 * The pairs held meanwhile are scored after, in order (replay_held()). */
static int end_deferral(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;

    if (!s->deferred)
        return 0;
    s->deferred = 0;
    av_log(ctx, AV_LOG_VERBOSE, "%u frame pairs (%.1f MiB) were held while the GPU started.\n",
           (unsigned)av_fifo_can_read(s->waiting), s->waiting_bytes / 1048576.0);
    return configure_engine(ctx);
}

/* Score the oldest pair held. */
static int replay_held(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    DeferredPair d;
    int ret;

    if (av_fifo_read(s->waiting, &d, 1) < 0)
        return 0;
    s->waiting_bytes -= frame_bytes(d.dist) + frame_bytes(d.ref);
    ret = score_pair(ctx, d.dist, d.ref);
    av_frame_free(&d.ref);
    return ret;
}

/* Every pair held, now (before anything else is scored or passed). On the
 * CPU first, they are scored there, and on the GPU from when it is ready
 * if the stream has run long enough to start it. */
static int release_held(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    int ret = end_deferral(ctx);
    while (ret >= 0 && av_fifo_can_read(s->waiting))
        if ((ret = advance_cpu_phase(ctx)) >= 0)
            ret = replay_held(ctx);
    return ret;
}

/* While the GPU starts, and while the pairs held then are scored, a pair
 * joins them if the buffer has room: 1 when held, 0 when it must be
 * scored now (after those held). */
static int hold_pair(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref)
{
    VMAFHIPContext *s = ctx->priv;
    size_t bytes = frame_bytes(dist) + frame_bytes(ref);
    DeferredPair d = { dist };
    int ret;

    if (s->flushed || s->waiting_bytes + bytes > (size_t)s->startup_buffer << 20)
        return 0;
    if (s->deferred && !ff_vmaf_engine_gpu_starting(s->engine)) {
        if ((ret = end_deferral(ctx)) < 0)
            return ret;
        if (!av_fifo_can_read(s->waiting))
            return 0;
    }
    if (!(d.ref = av_frame_clone(ref)))
        return AVERROR(ENOMEM);
    if ((ret = av_fifo_write(s->waiting, &d, 1)) < 0) {
        av_frame_free(&d.ref);
        return ret;
    }
    s->waiting_bytes += bytes;
    return 1;
}

/* A distorted frame and its reference frame (the pairing's; NULL: none). */
static int on_pair(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref, int ref_ended)
{
    VMAFHIPContext *s = ctx->priv;
    int ret;

    s->ref_ended |= ref_ended;
    if ((ret = check_frame(ctx, dist, 0)) < 0 || (ref && (ret = check_frame(ctx, ref, 1)) < 0)) {
        av_frame_free(&dist);
        return ret;
    }
    if (s->cpu_phase) {
        if (ref)
            start_clock(s);
        if ((ret = advance_cpu_phase(ctx)) < 0) {
            av_frame_free(&dist);
            return ret;
        }
    }
    if (must_hold(s)) {
        /* Pairs only: anything else (a reference not yet started, or
         * ended) comes after the pairs held, and waits for the GPU. */
        start_clock(s);
        if (ref && (ret = hold_pair(ctx, dist, ref)) != 0) {
            if (ret < 0) {
                av_frame_free(&dist);
                return ret;
            }
            /* On the CPU first, held pairs go to it as its frame slots
             * free up, without waiting. Once the GPU is ready, a few held
             * pairs are scored for each new one: fast enough to catch up,
             * and the frames go out little by little, so that an output
             * that ends early (-frames:v) stops the scoring about where it
             * ends. */
            if (s->cpu_phase) {
                while (!s->gpu_warming && ret >= 0 && av_fifo_can_read(s->waiting) &&
                       !ff_vmaf_engine_push_would_wait(s->engine))
                    ret = replay_held(ctx);
                return ret;
            }
            for (int i = 0; i < REPLAY_PER_PAIR && !s->deferred && ret >= 0 &&
                            av_fifo_can_read(s->waiting); i++)
                ret = replay_held(ctx);
            return ret;
        }
        if ((ret = release_held(ctx)) < 0) {
            av_frame_free(&dist);
            return ret;
        }
    }
    return score_pair(ctx, dist, ref);
}

static int score_pair_now(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref);

/* Each pair's time in the filter, on the filtergraph's thread: what bounds
 * a run's speed when the GPU waits on the host. */
static int score_pair(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref)
{
    VMAFHIPContext *s = ctx->priv;
    int64_t t0 = av_gettime_relative();
    int ret = score_pair_now(ctx, dist, ref);
    s->busy_us += av_gettime_relative() - t0;
    s->nb_events++;
    return ret;
}

/* Score (or pass) dist with ref, which stays the caller's. */
static int score_pair_now(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref)
{
    VMAFHIPContext *s = ctx->priv;
    AVFrame *hold[FF_VMAF_MAX_HOLD];
    FFVmafPicture pic_ref, pic_dist, host_ref, host_dist;
    PendingFrame p;
    int nb_hold = 0, ret;

    if (!ref && !s->ref_ended && !s->flushed) {
        /* No reference frame of its instant: the reference starts later,
         * or has none there. */
        if (!s->ref_started)
            s->skipped_before_ref++;
        p.frame = dist;
        p.index = -1;
    } else if (!ref || s->flushed) {
        /* The reference has ended (eof_action=pass): finish the scored
         * frames and pass the rest through unscored. */
        if ((ret = flush_engine(ctx)) < 0) {
            av_frame_free(&dist);
            return ret;
        }
        p.frame = dist;
        p.index = -1;
    } else {
        if (dist->color_range != ref->color_range)
            av_log(ctx, AV_LOG_WARNING,
                   "The distorted and reference frames use different color ranges (%s, %s).\n",
                   av_color_range_name(dist->color_range),
                   av_color_range_name(ref->color_range));
        start_clock(s);
        if (!s->ref_started && s->skipped_before_ref)
            av_log(ctx, AV_LOG_WARNING,
                   "The reference starts later than the distorted input: the first %"PRId64" "
                   "distorted frame%s had no reference frame and %s not scored. If the inputs "
                   "should start together, align them (e.g. setpts=PTS-STARTPTS on both).\n",
                   s->skipped_before_ref, s->skipped_before_ref == 1 ? "" : "s",
                   s->skipped_before_ref == 1 ? "was" : "were");
        s->ref_started = 1;
        if ((ret = picture_for_engine(ctx, &pic_ref, &host_ref, ref, 0, hold, &nb_hold)) < 0 ||
            (ret = picture_for_engine(ctx, &pic_dist, &host_dist, dist, 1, hold, &nb_hold)) < 0) {
            for (int i = 0; i < nb_hold; i++)
                av_frame_free(&hold[i]);
            av_frame_free(&dist);
            return ret;
        }
        p.frame = dist;
        p.index = ff_vmaf_engine_nb_pushed(s->engine);
        if ((ret = ff_vmaf_engine_push_frames(s->engine, &pic_ref, &pic_dist, hold, nb_hold)) < 0) {
            av_log(ctx, AV_LOG_ERROR, "Failed to score frame %"PRId64".\n", p.index);
            av_frame_free(&dist);
            return ret;
        }
    }
    if ((ret = av_fifo_write(s->pending, &p, 1)) < 0) {
        av_frame_free(&dist);
        return ret;
    }
    return emit_ready(ctx, EMIT_PER_PAIR);
}

static av_cold int init(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    int ret;

    /* log_fmt defaults to NULL, meaning xml, so that one given without a
     * log_path is an error instead of a log silently not written. */
    if ((ret = ff_vmaf_log_format_from_name(s->log_fmt ? s->log_fmt : "xml")) < 0) {
        av_log(ctx, AV_LOG_ERROR,
               "Invalid log_fmt '%s': accepted values are xml, json, csv and sub.\n",
               s->log_fmt);
        return AVERROR(EINVAL);
    }
    s->log_format = ret;
    /* Refused here: it would fail only once the stream is scored. */
    if (s->log_path && !*s->log_path) {
        av_log(ctx, AV_LOG_ERROR, "log_path is empty: give a file name, or leave log_path "
               "out to write no log.\n");
        return AVERROR(EINVAL);
    }
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

    /* Create the log's file now so a bad path fails before any frame. */
    if (s->log_path) {
        if ((ret = open_log(ctx)) < 0 || (s->log_tmp && (ret = claim_log_file(ctx)) < 0))
            return ret;
        hold_sighup(s);
    }

    s->pending = av_fifo_alloc2(4, sizeof(PendingFrame), AV_FIFO_FLAG_AUTO_GROW);
    s->waiting = av_fifo_alloc2(4, sizeof(DeferredPair), AV_FIFO_FLAG_AUTO_GROW);
    s->host[0] = av_frame_alloc();
    s->host[1] = av_frame_alloc();
    if (!s->pending || !s->waiting || !s->host[0] || !s->host[1])
        return AVERROR(ENOMEM);
    /* The options hold: the GPU opens while ffmpeg opens the inputs and
     * decodes their first frames; with backend=auto, once the stream has
     * run cpu_first ms. */
    if (s->backend == BACKEND_HIP || (s->backend == BACKEND_AUTO && !s->cpu_first))
        ff_vmaf_engine_warm_up_gpu(s->device);
    return 0;
}

static int query_formats(const AVFilterContext *ctx,
                         AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    AVFilterFormats *main_fmts = ff_make_pixel_format_list(pix_fmts);
    AVFilterFormats *ref_fmts  = ff_make_pixel_format_list(pix_fmts);
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

static void describe_link(char *buf, size_t size, const AVFilterLink *l)
{
    enum AVPixelFormat sw = link_sw_format(l);
    snprintf(buf, size, "%dx%d %s%s%s", l->w, l->h,
             av_get_pix_fmt_name(sw) ? av_get_pix_fmt_name(sw) : "none",
             l->format == AV_PIX_FMT_CUDA ? " " : "",
             l->format == AV_PIX_FMT_CUDA ? "(CUDA frames)" : "");
}

/* Storage aside (NV12 against yuv420p, P010 against yuv420p10le, hardware
 * frames against software ones), the pictures must be alike. */
static int same_samples(enum AVPixelFormat a, enum AVPixelFormat b)
{
    const AVPixFmtDescriptor *da = av_pix_fmt_desc_get(a), *db = av_pix_fmt_desc_get(b);
    return da && db && da->comp[0].depth == db->comp[0].depth &&
           da->log2_chroma_w == db->log2_chroma_w && da->log2_chroma_h == db->log2_chroma_h;
}

static int config_input_ref(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    const AVFilterLink *main_link = ctx->inputs[0], *ref_link = ctx->inputs[1];

    for (int i = 0; i < 2; i++) {
        const AVFilterLink *l = ctx->inputs[i];
        enum AVPixelFormat sw = link_sw_format(l);
        if (!is_sw_format(sw)) {
            av_log(ctx, AV_LOG_ERROR,
                   "The %s input's hardware frames hold %s, which is not supported. Accepted: "
                   "yuv420p, yuv422p, yuv444p and their 10, 12 and 16-bit forms, nv12, nv21, "
                   "nv16, nv24, nv42, p010, p012, p016, p210, p216, p410 and p416.\n",
                   i ? "reference" : "main (distorted)",
                   av_get_pix_fmt_name(sw) ? av_get_pix_fmt_name(sw) : "none");
            return AVERROR(EINVAL);
        }
    }
    if (main_link->w != ref_link->w || main_link->h != ref_link->h ||
        !same_samples(link_sw_format(main_link), link_sw_format(ref_link))) {
        char d[128], r[128];
        describe_link(d, sizeof(d), main_link);
        describe_link(r, sizeof(r), ref_link);
        if (main_link->w == ref_link->h && main_link->h == ref_link->w &&
            main_link->w != main_link->h) {
            /* A phone video's rotation: ffmpeg turns it upright by its
             * display matrix; scaling would squash it instead. */
            av_log(ctx, AV_LOG_ERROR,
                   "The inputs differ: main (distorted) is %s, reference is %s: each is the "
                   "other turned on its side, as when one carries a rotation (a phone video) "
                   "that ffmpeg applies and the other does not. Score both as stored with "
                   "-noautorotate before each -i, or turn one with transpose=clock (or "
                   "transpose=cclock) before the filter; scaling would squash the picture.\n",
                   d, r);
            return AVERROR(EINVAL);
        }
        av_log(ctx, AV_LOG_ERROR,
               "The inputs differ: main (distorted) is %s, reference is %s. "
               "Both must have the same size, bit depth and chroma subsampling; scale or convert one "
               "input first (e.g. scale=%dx%d:flags=bicubic,format=%s).\n",
               d, r, ref_link->w, ref_link->h,
               av_get_pix_fmt_name(link_sw_format(ref_link)) ?
               av_get_pix_fmt_name(link_sw_format(ref_link)) : "yuv420p");
        return AVERROR(EINVAL);
    }
    return 0;
}

/*
 * CUDA frames on either input: the GPU works in their context, where it
 * can read them in place. Both inputs' hardware frames must share it.
 */
static int setup_hw_frames(AVFilterContext *ctx)
{
#if CONFIG_CUDA
    VMAFHIPContext *s = ctx->priv;
    AVCUDADeviceContext *cuda = NULL;

    for (int i = 0; i < 2; i++) {
        FilterLink *fl = ff_filter_link(ctx->inputs[i]);
        AVHWFramesContext *frames;
        AVCUDADeviceContext *dev;
        if (ctx->inputs[i]->format != AV_PIX_FMT_CUDA || !fl->hw_frames_ctx)
            continue;
        frames = (AVHWFramesContext *)fl->hw_frames_ctx->data;
        dev    = frames->device_ctx->hwctx;
        if (cuda && cuda->cuda_ctx != dev->cuda_ctx) {
            /* Another CUDA context (hwupload_cuda's device and the
             * decoder's, each made by ffmpeg): the GPU works in the first
             * one's, and this input's frames reach it through the host. */
            s->hw_foreign[!i] = 1;
            av_log(ctx, AV_LOG_WARNING, "The two inputs' CUDA frames are in different CUDA "
                   "contexts (an hwupload_cuda's and a decoder's, say): the %s input's are "
                   "copied through the host. Software frames need no hwupload_cuda: the filter "
                   "uploads them itself.\n", i ? "reference" : "distorted");
            continue;
        }
        cuda = dev;
    }
    if (cuda && s->backend != BACKEND_CPU)
        ff_vmaf_engine_set_cuda_frames(s->engine, cuda->cuda_ctx, cuda->stream);
#endif
    return 0;
}

/*
 * Colour range: the engine scores the samples as they are, so a full-range
 * picture against a limited-range one scores the difference of ranges.
 * Say so, and say when ffmpeg converted an input's range on its way here
 * (a scale filter it inserted, to agree with the output's formats): the
 * picture scored is then not the file's.
 */
/* The range a link's samples are in: unspecified is limited, as swscale
 * takes it, and the deprecated yuvj formats are full. */
static enum AVColorRange link_range(const AVFilterLink *l)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(l->format);
    if (l->color_range == AVCOL_RANGE_JPEG || (desc && !strncmp(desc->name, "yuvj", 4)))
        return AVCOL_RANGE_JPEG;
    return AVCOL_RANGE_MPEG;
}

static void warn_range(AVFilterContext *ctx)
{
    static const char *const role[2] = { "distorted", "reference" };
    enum AVColorRange range[2];

    for (int i = 0; i < 2; i++) {
        const AVFilterLink *l = ctx->inputs[i];
        const AVFilterContext *src = l->src;
        range[i] = link_range(l);
        if (src && src->nb_inputs == 1 && !strncmp(src->name, "auto_scale", 10) &&
            link_range(src->inputs[0]) != range[i])
            av_log(ctx, AV_LOG_WARNING, "ffmpeg converted the %s input from %s range to %s "
                   "range before this filter: it is scored as converted, not as stored.\n",
                   role[i], av_color_range_name(link_range(src->inputs[0])),
                   av_color_range_name(range[i]));
    }
    if (range[0] != range[1])
        av_log(ctx, AV_LOG_WARNING, "The distorted input is %s range and the reference %s range: "
               "the scores include the difference of ranges. Convert one first (e.g. "
               "scale=in_range=%s:out_range=%s on the distorted input).\n",
               av_color_range_name(range[0]), av_color_range_name(range[1]),
               av_color_range_name(range[0]), av_color_range_name(range[1]));
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    VMAFHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    FilterLink *il = ff_filter_link(mainlink);
    FilterLink *ol = ff_filter_link(outlink);
    const AVPixFmtDescriptor *desc;
    char d[128], r[128];
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

    s->geo.width  = mainlink->w;
    s->geo.height = mainlink->h;
    for (int w = 0; w < 2; w++) {
        s->sw_format[w] = link_sw_format(ctx->inputs[!w]);
        desc = av_pix_fmt_desc_get(s->sw_format[w]);
        s->geo.bpc  = desc->comp[0].depth;
        s->geo.ss_x = desc->log2_chroma_w;
        s->geo.ss_y = desc->log2_chroma_h;
        /* NV12 and its kind: U and V share a plane, in the order of their offsets. */
        s->geo.chroma_layout[w] = desc->comp[1].plane != desc->comp[2].plane ? FF_VMAF_CHROMA_PLANAR :
                                  desc->comp[1].offset < desc->comp[2].offset ? FF_VMAF_CHROMA_UV :
                                                                                FF_VMAF_CHROMA_VU;
        s->geo.sample_shift[w] = desc->comp[0].shift;
    }

    ff_vmaf_engine_set_backend(s->engine,
                               s->backend == BACKEND_HIP ? FF_VMAF_BACKEND_GPU :
                               s->backend == BACKEND_CPU ? FF_VMAF_BACKEND_CPU :
                                                           FF_VMAF_BACKEND_AUTO, s->device);
    ff_vmaf_engine_set_gpu_fail_at(s->engine, s->gpu_fail_at);
    ff_vmaf_engine_set_gpu_graphs(s->engine, s->gpu_graphs);
    if ((ret = setup_hw_frames(ctx)) < 0)
        return ret;

    describe_link(d, sizeof(d), ctx->inputs[0]);
    describe_link(r, sizeof(r), ctx->inputs[1]);
    av_log(ctx, AV_LOG_INFO, "main (input 0) = distorted: %s; reference (input 1) = reference: %s.\n",
           d, r);
    warn_range(ctx);
    if (mainlink->w < 40 || mainlink->h < 40)
        av_log(ctx, AV_LOG_WARNING, "At %dx%d, below 40 pixels a side, libvmaf's own ADM and "
               "VMAF values are undefined (it reads memory it never wrote, and its numbers vary "
               "from run to run): vmaf_hip's are defined, but no libvmaf value exists to compare "
               "them with.\n", mainlink->w, mainlink->h);
    /* backend=auto: the CPU first, the GPU once the stream proves long
     * (hardware frames: their GPU is open already). */
    if (s->backend == BACKEND_AUTO && s->cpu_first) {
        ff_vmaf_engine_defer_gpu(s->engine);
        s->cpu_phase = ff_vmaf_engine_gpu_deferred(s->engine);
    }
    /* The GPU's runtime and context take a few hundred milliseconds to
     * start: rather than stall the inputs, hold the first pairs. */
    if (!s->cpu_phase && s->startup_buffer && ff_vmaf_engine_gpu_starting(s->engine)) {
        av_log(ctx, AV_LOG_VERBOSE, "The GPU is still starting: up to %d MiB of frames are held "
               "until it is ready.\n", s->startup_buffer);
        s->deferred = 1;
        return 0;
    }
    return configure_engine(ctx);
}

static int activate(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    int ret;

    if ((ret = ff_vmaf_hip_pairing_activate(&s->pairing)) < 0)
        return ret;
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
        if ((ret = release_held(ctx)) < 0)
            return ret;
        if ((ret = ff_vmaf_hip_pairing_report_end(&s->pairing,
                                                  ff_vmaf_engine_nb_pushed(s->engine))) < 0) {
            set_aside_log(ctx);
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
    unsigned scored = (pushed + s->n_subsample - 1) / s->n_subsample;
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
    if (s->hw_pictures)
        av_log(ctx, AV_LOG_INFO, "Hardware frames: %"PRId64" scored, %"PRId64" read in place "
               "on the GPU, %"PRId64" downloaded to the host.\n", s->hw_pictures,
               s->hw_in_place ? s->hw_pictures - s->hw_copied : 0, s->downloads);
}

static av_cold void uninit(AVFilterContext *ctx)
{
    VMAFHIPContext *s = ctx->priv;
    PendingFrame p;
    DeferredPair d;

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
        if (s->nb_emitted < ff_vmaf_engine_nb_pushed(s->engine) && !s->log_failed) {
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
    discard_log(ctx);
    release_log_file(ctx);
    release_sighup(s);
    av_freep(&s->log_final);

    if (s->nb_events)
        av_log(ctx, AV_LOG_VERBOSE, "%.1f us per frame pair in the filter, on the "
               "filtergraph's thread (%"PRId64" pairs).\n",
               (double)s->busy_us / s->nb_events, s->nb_events);
    while (s->pending && av_fifo_read(s->pending, &p, 1) >= 0)
        av_frame_free(&p.frame);
    /* Held while the GPU started, and the run ended first (an error, a
     * signal): never scored, never sent on. */
    while (s->waiting && av_fifo_read(s->waiting, &d, 1) >= 0) {
        av_frame_free(&d.dist);
        av_frame_free(&d.ref);
    }
    av_fifo_freep2(&s->waiting);
    av_frame_free(&s->host[0]);
    av_frame_free(&s->host[1]);
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
 * vmaf_hip and its libvmaf alias: a field added here reaches both. */
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
static const AVClass libvmaf_class = {
    .class_name = "libvmaf",
    .item_name  = av_default_item_name,
    .option     = vmaf_hip_options,
    .version    = LIBAVUTIL_VERSION_INT,
    .category   = AV_CLASS_CATEGORY_FILTER,
};

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
static const AVClass libvmaf_cuda_class = {
    .class_name = "libvmaf_cuda",
    .item_name  = av_default_item_name,
    .option     = vmaf_hip_options,
    .version    = LIBAVUTIL_VERSION_INT,
    .category   = AV_CLASS_CATEGORY_FILTER,
};

const FFFilter ff_vf_vmaf_hip_libvmaf_cuda = {
    .p.name        = "libvmaf_cuda",
    .p.description = NULL_IF_CONFIG_SMALL("Calculate VMAF between a distorted (main) and a reference input on a GPU: vmaf_hip under libvmaf_cuda's name."),
    .p.priv_class  = &libvmaf_cuda_class,
    FILTER_OUTPUTS(libvmaf_outputs),
    VMAF_HIP_FILTER_COMMON,
};
#endif
