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
#include <math.h>

#include "libavutil/common.h"
#include "libavutil/cpu.h"
#include "libavutil/error.h"
#include "libavutil/fifo.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"
#include "libavutil/time.h"

#include "scheduler.h"

/* Pairs held while the GPU started that are scored with each new pair. */
#define REPLAY_PER_PAIR 2

typedef struct HeldPair {
    AVFrame *dist, *ref;
} HeldPair;

struct FFVmafScheduler {
    FFVmafEngine *engine;
    void *log_ctx;
    FFVmafSchedulerOptions opts;
    FFVmafSchedulerCallbacks cb;
    FFVmafGeometry geo;
    int flushed;
    int64_t start_time;             ///< the first pair's
    int64_t busy_us, nb_events;     ///< time scoring, on the caller's thread

    /* While the GPU starts, pairs wait here (frames held, not copied) and
     * the engine is configured once it is ready: reading goes on meanwhile. */
    int deferred;                   ///< the engine is not configured yet
    /* backend=auto with host frames: the stream starts on the CPU, and
     * after cpu_first ms the GPU starts; pairs are held while it does, then
     * the features move to it mid-stream (ff_vmaf_engine_start_gpu()). A
     * shorter run never loads the GPU's runtime. */
    int cpu_phase;                  ///< the engine's GPU start is still deferred
    int gpu_warming;                ///< ... and the GPU is starting
    AVFifo *waiting;                ///< HeldPair, in order
    size_t waiting_bytes;
};

static const char *backend_name(enum FFVmafBackend b)
{
    return b == FF_VMAF_BACKEND_GPU ? "gpu" : b == FF_VMAF_BACKEND_CPU ? "cpu" : "auto";
}

static int threads_asked(const FFVmafScheduler *s)
{
    return s->opts.n_threads ? s->opts.n_threads : av_cpu_count();
}

static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

int ff_vmaf_scheduler_alloc(FFVmafScheduler **ps, FFVmafEngine *e,
                            const FFVmafSchedulerOptions *opts,
                            const FFVmafSchedulerCallbacks *cb, void *log_ctx)
{
    FFVmafScheduler *s = av_mallocz(sizeof(*s));

    if (!s)
        return AVERROR(ENOMEM);
    s->engine  = e;
    s->log_ctx = log_ctx;
    s->opts    = *opts;
    s->cb      = *cb;
    if (!(s->waiting = av_fifo_alloc2(4, sizeof(HeldPair), AV_FIFO_FLAG_AUTO_GROW))) {
        av_free(s);
        return AVERROR(ENOMEM);
    }
    ff_vmaf_engine_set_backend(e, opts->backend, opts->device);
    /* The GPU opens while the caller opens its inputs and decodes their
     * first frames; with backend=auto, once the stream has run cpu_first ms. */
    if (opts->backend == FF_VMAF_BACKEND_GPU ||
        (opts->backend == FF_VMAF_BACKEND_AUTO && !opts->cpu_first))
        ff_vmaf_engine_warm_up_gpu(opts->device);
    *ps = s;
    return 0;
}

void ff_vmaf_scheduler_free(FFVmafScheduler **ps)
{
    FFVmafScheduler *s = *ps;
    HeldPair d;

    if (!s)
        return;
    /* Held while the GPU started, and the run ended first (an error, a
     * signal): never scored, never handed back. */
    while (av_fifo_read(s->waiting, &d, 1) >= 0) {
        av_frame_free(&d.dist);
        av_frame_free(&d.ref);
    }
    av_fifo_freep2(&s->waiting);
    av_freep(ps);
}

int64_t ff_vmaf_scheduler_start_time(const FFVmafScheduler *s)
{
    return s->start_time;
}

void ff_vmaf_scheduler_busy(const FFVmafScheduler *s, int64_t *us, int64_t *nb)
{
    *us = s->busy_us;
    *nb = s->nb_events;
}

/* The first pair: the stream's time counts from here. */
static void start_clock(FFVmafScheduler *s)
{
    if (!s->start_time)
        s->start_time = av_gettime_relative();
}

static size_t frame_bytes(const AVFrame *frame)
{
    size_t n = 0;
    for (int i = 0; i < FF_ARRAY_ELEMS(frame->buf) && frame->buf[i]; i++)
        n += frame->buf[i]->size;
    return n;
}

/* Configure the engine and describe where it computes. */
static int configure_engine(FFVmafScheduler *s)
{
    char backends[1024];
    int ret, n;

    if ((ret = ff_vmaf_engine_configure(s->engine, &s->geo, threads_asked(s),
                                        s->opts.n_subsample)) < 0)
        return ret;
    ff_vmaf_engine_describe_backends(s->engine, backends, sizeof(backends));
    n = ff_vmaf_engine_nb_threads(s->engine);
    av_log(s->log_ctx, AV_LOG_INFO, "backend=%s: %s%s; %d CPU thread%s.\n",
           backend_name(s->opts.backend), backends,
           s->cpu_phase ? ", and on a GPU if the stream runs past cpu_first and one answers" :
           s->opts.backend == FF_VMAF_BACKEND_AUTO && !ff_vmaf_engine_uses_gpu(s->engine) ?
           " (no GPU answered)" : "", n, plural(n));
    return 0;
}

int ff_vmaf_scheduler_configure(FFVmafScheduler *s, const FFVmafGeometry *geo)
{
    s->geo = *geo;
    /* backend=auto: the CPU first, the GPU once the stream proves long
     * (hardware frames: their GPU is open already). */
    if (s->opts.backend == FF_VMAF_BACKEND_AUTO && s->opts.cpu_first) {
        ff_vmaf_engine_defer_gpu(s->engine);
        s->cpu_phase = ff_vmaf_engine_gpu_deferred(s->engine);
    }
    /* The GPU's runtime and context take a few hundred milliseconds to
     * start: rather than stall the inputs, hold the first pairs. */
    if (!s->cpu_phase && s->opts.startup_buffer && ff_vmaf_engine_gpu_starting(s->engine)) {
        av_log(s->log_ctx, AV_LOG_VERBOSE, "The GPU is still starting: up to %d MiB of frames "
               "are held until it is ready.\n", s->opts.startup_buffer);
        s->deferred = 1;
        return 0;
    }
    return configure_engine(s);
}

/* The stream ran cpu_first ms on the CPU and the GPU has started (or must
 * be waited for now): the features with a GPU kernel move to it from the
 * next pair on, or stay on the CPU if no GPU answers. */
static int move_to_gpu(FFVmafScheduler *s)
{
    unsigned first = ff_vmaf_engine_nb_pushed(s->engine);
    char backends[1024];
    int ret, n;

    if (s->gpu_warming)
        av_log(s->log_ctx, AV_LOG_VERBOSE, "%u frame pairs (%.1f MiB) were held while the GPU "
               "started.\n", (unsigned)av_fifo_can_read(s->waiting), s->waiting_bytes / 1048576.0);
    s->cpu_phase = s->gpu_warming = 0;
    if ((ret = ff_vmaf_engine_start_gpu(s->engine)) < 0)
        return ret;
    n = ff_vmaf_engine_nb_threads(s->engine);
    if (!ff_vmaf_engine_uses_gpu(s->engine)) {
        av_log(s->log_ctx, AV_LOG_VERBOSE, "No GPU answered; the stream stays on the CPU; %d CPU "
               "thread%s.\n", n, plural(n));
        return 0;
    }
    ff_vmaf_engine_describe_backends(s->engine, backends, sizeof(backends));
    av_log(s->log_ctx, AV_LOG_INFO, "From frame %u on: %s; %d CPU thread%s.\n", first, backends,
           n, plural(n));
    return 0;
}

/*
 * The inputs have ended, the GPU not started: whether the CPU would score
 * the pairs left (on the threads asked for, at the time a frame has taken
 * so far, longer with more threads) sooner than the GPU could take over:
 * its start, as it costs the process, and the CPU's frames in flight,
 * which finish first. 1: it would (*left_ms, its time); 0: the GPU is
 * worth it; -1: no frame timed yet, and the time since the first pair does
 * not decide it either.
 */
static int cpu_finishes_sooner(FFVmafScheduler *s, unsigned left, int64_t ran_us,
                               int64_t *left_ms)
{
    const int threads  = threads_asked(s);
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

/* On the CPU first, once the inputs have ended and the CPU goes on scoring
 * (no pair held, or no frame timed yet to decide on the GPU): the threads of
 * the CPU's start were few so as not to slow the decoders; with the inputs
 * read, the pairs left get all those asked for. Not when the GPU is to
 * start: more frames in flight would delay the move (e4c550a). */
static int cpu_all_threads(FFVmafScheduler *s)
{
    int ret, n = ff_vmaf_engine_nb_threads(s->engine);

    /* Once grown, the engine has as many as asked for: a call again is none. */
    if (!s->cpu_phase || s->gpu_warming)
        return 0;
    if ((ret = ff_vmaf_engine_cpu_all_threads(s->engine)) < 0)
        return ret;
    if (ff_vmaf_engine_nb_threads(s->engine) != n)
        av_log(s->log_ctx, AV_LOG_VERBOSE, "The inputs have ended: the CPU scores on %d "
               "threads, not %d.\n", ff_vmaf_engine_nb_threads(s->engine), n);
    return 0;
}

/* While the stream is on the CPU first: start the GPU once the stream has
 * run cpu_first ms, and move to it once it has started; or, when the
 * inputs end first and the CPU has little left to do, keep the stream on
 * the CPU. */
static int advance_cpu_phase(FFVmafScheduler *s, int flags)
{
    const int ended = flags & FF_VMAF_SCHEDULER_INPUTS_ENDED;
    int64_t ran_us, left_ms = 0;
    int cpu = 0, ret;

    /* An output that has ended (a trim after the filter) takes no more
     * frames: the pairs still coming are not worth a GPU. (framesync sets
     * that status too when the inputs end: then the pairs held are.) */
    if (!s->cpu_phase || ((flags & FF_VMAF_SCHEDULER_OUTPUT_ENDED) && !ended))
        return 0;
    ran_us = s->start_time ? av_gettime_relative() - s->start_time : 0;
    if (!s->gpu_warming && s->start_time && ended) {
        /* Pairs not yet scored: in flight and held. */
        unsigned left = ff_vmaf_engine_nb_pushed(s->engine) -
               ff_vmaf_engine_nb_features_done(s->engine) + av_fifo_can_read(s->waiting);
        if ((cpu = cpu_finishes_sooner(s, left, ran_us, &left_ms)) > 0) {
            int n;
            s->cpu_phase = 0;
            if ((ret = ff_vmaf_engine_finish_on_cpu(s->engine)) < 0)
                return ret;
            n = ff_vmaf_engine_nb_threads(s->engine);
            av_log(s->log_ctx, AV_LOG_VERBOSE, "The inputs ended with %u frame pairs left to "
                   "score, about %"PRId64" ms on the CPU: the GPU is not started; %d CPU "
                   "thread%s.\n", left, left_ms, n, plural(n));
            return 0;
        }
        /* No frame timed yet: the pairs go on on the CPU until one is. */
        if (cpu < 0 && (ret = cpu_all_threads(s)) < 0)
            return ret;
    }
    if (!s->gpu_warming && s->start_time && !cpu &&
        (ran_us >= s->opts.cpu_first * INT64_C(1000) || ended)) {
        if (ended)
            av_log(s->log_ctx, AV_LOG_VERBOSE, "The inputs ended with more left to score than "
                   "the GPU's start costs: starting the GPU.\n");
        else
            av_log(s->log_ctx, AV_LOG_VERBOSE, "The stream has run %d ms: starting the GPU; "
                   "frame pairs are held until it is ready.\n", s->opts.cpu_first);
        ff_vmaf_engine_warm_up_gpu(s->opts.device);
        s->gpu_warming = 1;
    }
    if (s->gpu_warming && !ff_vmaf_engine_gpu_starting(s->engine))
        return move_to_gpu(s);
    return 0;
}

/* Whether a new pair must join those held: the engine is not configured
 * yet, the GPU is starting, pairs are held already (order), or, on the CPU
 * first, every frame slot is in use (the inputs are not stalled for it). */
static int must_hold(const FFVmafScheduler *s)
{
    return s->deferred || s->gpu_warming || av_fifo_can_read(s->waiting) ||
           (s->cpu_phase && ff_vmaf_engine_push_would_wait(s->engine));
}

/* The GPU has started, or must be waited for now: configure the engine.
 * The pairs held meanwhile are scored after, in order (replay_held()). */
static int end_deferral(FFVmafScheduler *s)
{
    if (!s->deferred)
        return 0;
    s->deferred = 0;
    av_log(s->log_ctx, AV_LOG_VERBOSE, "%u frame pairs (%.1f MiB) were held while the GPU "
           "started.\n", (unsigned)av_fifo_can_read(s->waiting), s->waiting_bytes / 1048576.0);
    return configure_engine(s);
}

/* Score (or pass) dist with ref, which stays the caller's. */
static int score_now(FFVmafScheduler *s, AVFrame *dist, const AVFrame *ref)
{
    AVFrame *hold[FF_VMAF_MAX_HOLD];
    FFVmafPicture pic[2], host[2];
    int64_t index;
    int nb_hold = 0, ret;

    if (!ref || s->flushed)
        return s->cb.leave(s->cb.opaque, dist, ref, -1);
    start_clock(s);
    if ((ret = s->cb.pictures(s->cb.opaque, dist, ref, pic, host, hold, &nb_hold)) < 0) {
        for (int i = 0; i < nb_hold; i++)
            av_frame_free(&hold[i]);
        av_frame_free(&dist);
        return ret;
    }
    index = ff_vmaf_engine_nb_pushed(s->engine);
    if ((ret = ff_vmaf_engine_push_frames(s->engine, &pic[0], &pic[1], hold, nb_hold)) < 0) {
        av_log(s->log_ctx, AV_LOG_ERROR, "Failed to score frame %"PRId64".\n", index);
        av_frame_free(&dist);
        return ret;
    }
    return s->cb.leave(s->cb.opaque, dist, ref, index);
}

/* Each pair's time on the caller's thread: what bounds a run's speed when
 * the GPU waits on the host. */
static int score(FFVmafScheduler *s, AVFrame *dist, const AVFrame *ref)
{
    int64_t t0 = av_gettime_relative();
    int ret = score_now(s, dist, ref);
    s->busy_us += av_gettime_relative() - t0;
    s->nb_events++;
    return ret;
}

/* Score the oldest pair held. */
static int replay_held(FFVmafScheduler *s)
{
    HeldPair d;
    int ret;

    if (av_fifo_read(s->waiting, &d, 1) < 0)
        return 0;
    s->waiting_bytes -= frame_bytes(d.dist) + frame_bytes(d.ref);
    ret = score(s, d.dist, d.ref);
    av_frame_free(&d.ref);
    return ret;
}

/* Every pair held, now (before anything else is scored or passed). On the
 * CPU first, they are scored there, and on the GPU from when it is ready
 * if the stream has run long enough to start it. */
int ff_vmaf_scheduler_release(FFVmafScheduler *s, int flags)
{
    int ret = end_deferral(s);
    /* The inputs ended with no pair held: the CPU scores the rest. */
    if (ret >= 0 && (flags & FF_VMAF_SCHEDULER_INPUTS_ENDED) && !av_fifo_can_read(s->waiting))
        ret = cpu_all_threads(s);
    while (ret >= 0 && av_fifo_can_read(s->waiting))
        if ((ret = advance_cpu_phase(s, flags)) >= 0)
            ret = replay_held(s);
    return ret;
}

/* While the GPU starts, and while the pairs held then are scored, a pair
 * joins them if the buffer has room: 1 when held, 0 when it must be
 * scored now (after those held). */
static int hold_pair(FFVmafScheduler *s, AVFrame *dist, const AVFrame *ref)
{
    size_t bytes = frame_bytes(dist) + frame_bytes(ref);
    HeldPair d = { dist };
    int ret;

    if (s->flushed || s->waiting_bytes + bytes > (size_t)s->opts.startup_buffer << 20)
        return 0;
    if (s->deferred && !ff_vmaf_engine_gpu_starting(s->engine)) {
        if ((ret = end_deferral(s)) < 0)
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

int ff_vmaf_scheduler_send(FFVmafScheduler *s, AVFrame *dist, const AVFrame *ref, int flags)
{
    int ret;

    if (s->cpu_phase) {
        if (ref)
            start_clock(s);
        if ((ret = advance_cpu_phase(s, flags)) < 0) {
            av_frame_free(&dist);
            return ret;
        }
    }
    if (must_hold(s)) {
        /* Pairs only: anything else (a reference not yet started, or
         * ended) comes after the pairs held, and waits for the GPU. */
        start_clock(s);
        if (ref && (ret = hold_pair(s, dist, ref)) != 0) {
            if (ret < 0) {
                av_frame_free(&dist);
                return ret;
            }
            /* On the CPU first, held pairs go to it as its frame slots
             * free up, without waiting. Once the GPU is ready, a few held
             * pairs are scored for each new one: fast enough to catch up,
             * and the frames leave little by little, so that an output
             * that ends early (-frames:v) stops the scoring about where it
             * ends. */
            if (s->cpu_phase) {
                while (!s->gpu_warming && ret >= 0 && av_fifo_can_read(s->waiting) &&
                       !ff_vmaf_engine_push_would_wait(s->engine))
                    ret = replay_held(s);
                return ret;
            }
            for (int i = 0; i < REPLAY_PER_PAIR && !s->deferred && ret >= 0 &&
                            av_fifo_can_read(s->waiting); i++)
                ret = replay_held(s);
            return ret;
        }
        if ((ret = ff_vmaf_scheduler_release(s, flags)) < 0) {
            av_frame_free(&dist);
            return ret;
        }
    }
    return score(s, dist, ref);
}

int ff_vmaf_scheduler_flush(FFVmafScheduler *s)
{
    s->flushed = 1;
    return ff_vmaf_engine_flush(s->engine);
}
