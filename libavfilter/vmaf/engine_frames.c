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

/*
 * Frames in parallel: with n_threads > 1 (and nothing on the GPU), frame
 * n + 1 does not wait for frame n. Each worker thread scores whole frames
 * with its own instances of the features that keep nothing from one frame
 * to the next (VIF, ADM, SSIM...: ff_vmaf_feature_clone()); the features
 * that do (motion needs the previous reference, PSNR sums every frame in
 * order: FF_VMAF_EXTRACTOR_TEMPORAL) keep their one instance and take
 * their turn: a worker runs one for frame n only after frame n - 1's run
 * of it, so their dependency holds while everything else overlaps.
 *
 * Every value is computed by the same code on the same pixels as in a
 * sequential run, so the results are identical for every thread count;
 * the keys keep a sequential run's order because each write carries the
 * frame it belongs to (FFVmafFeature.step).
 *
 * The pixels are not copied: the caller hands over references to its
 * frames, released when the frame is scored.
 */

#include <limits.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"
#include "libavutil/time.h"

#include "engine_state.h"

enum SlotState { SLOT_FREE, SLOT_QUEUED, SLOT_RUNNING, SLOT_DONE };

typedef struct FrameSlot {
    enum SlotState state;
    unsigned index;
    FFVmafPicture pic[2], host[2];
    AVFrame *hold[FF_VMAF_MAX_HOLD];
    int nb_hold;
    /* Unpacked (NV12, P010...) or clamped planes of this slot's pictures. */
    uint8_t *buf[2];
} FrameSlot;

typedef struct FrameWorker {
    struct EngineFrames *fr;
    pthread_t thread;
    int started;
    int index;
    int setup;                  ///< sets up its features on its thread
    /* This worker's instance of each feature: a clone, or the engine's own
     * (worker 0's, and the shared ones). */
    FFVmafFeature *features[MAX_FEATURES];
} FrameWorker;

struct EngineFrames {
    FFVmafEngine *e;
    FrameWorker *workers;
    int nb_workers;             ///< started
    int max_workers;            ///< allocated: up to the threads asked for
    FrameSlot *slots;
    int nb_slots;               ///< max_workers + 2; nb_workers + 2 in use

    AVMutex lock;
    AVCond cond;
    unsigned next_run;          ///< the frame the next free worker takes
    unsigned completed;         ///< frames [0, completed) are scored
    /**
     * Whether feature i has one instance that takes turns (decided at init:
     * a GPU twin that falls back to the CPU stays one instance).
     */
    uint8_t shared[MAX_FEATURES];
    /** shared features: the frame whose turn it is */
    unsigned turn[MAX_FEATURES];
    int err;                    ///< the first error of a worker
    int quit;
};

static int is_shared(const FFVmafFeature *f)
{
    return !!(f->ex->flags & (FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_GPU));
}

/* GPU twins run on the caller's thread (ff_vmaf_engine_gpu_queue()). */
static int on_cpu(const FFVmafFeature *f)
{
    return !(f->ex->flags & FF_VMAF_EXTRACTOR_GPU);
}

static FrameSlot *slot_of(EngineFrames *fr, unsigned index)
{
    return &fr->slots[index % fr->nb_slots];
}

/* Frame index may be queued: its slot is free, and no more frames are in
 * flight than the workers started can run with the next two queued (the
 * slots beyond are for workers started later). Under fr->lock. */
static int slot_ready(EngineFrames *fr, unsigned index)
{
    return slot_of(fr, index)->state == SLOT_FREE &&
           index - fr->completed < (unsigned)fr->nb_workers + 2;
}

static void release_slot(FrameSlot *s)
{
    for (int i = 0; i < s->nb_hold; i++)
        av_frame_free(&s->hold[i]);
    s->nb_hold = 0;
}

/* Wait for feature i's turn at frame index, run it, pass the turn on. */
static int run_shared(EngineFrames *fr, int i, FFVmafFeature *f, unsigned index,
                      const FFVmafPicture *ref, const FFVmafPicture *dis, int run,
                      int64_t *waited)
{
    FFVmafEngine *e = fr->e;
    int64_t t0 = av_gettime_relative();
    int ret = 0;

    ff_mutex_lock(&fr->lock);
    while (fr->turn[i] != index)
        ff_cond_wait(&fr->cond, &fr->lock);
    run = run && !fr->err;
    ff_mutex_unlock(&fr->lock);
    *waited += av_gettime_relative() - t0;
    if (run && ff_vmaf_engine_runs_on(e, f, index)) {
        f->step = index;
        ret = f->ex->extract(f, ref, dis, index, e->fc);
        f->step = -1;
    }
    ff_mutex_lock(&fr->lock);
    fr->turn[i] = index + 1;
    ff_cond_broadcast(&fr->cond);
    ff_mutex_unlock(&fr->lock);
    return ret;
}

/* *waited: the time spent waiting for shared features' turns. */
static int run_frame(FrameWorker *w, FrameSlot *s, int64_t *waited)
{
    EngineFrames *fr = w->fr;
    FFVmafEngine *e = fr->e;
    const FFVmafPicture *ref = &s->pic[0], *dis = &s->pic[1];
    FFVmafPicture views[2];
    unsigned index = s->index;
    int ret = 0, any = 0;

    /* GPU twins do not change while frames run: a fallback to the CPU
     * waits for every frame in flight first. */
    for (int i = 0; i < e->nb_features; i++)
        any |= on_cpu(e->features[i]) && ff_vmaf_engine_runs_on(e, e->features[i], index);
    if (any && (ret = ff_vmaf_engine_cpu_view(e, &s->buf[0], ref, &views[0], &ref)) >= 0)
        ret = ff_vmaf_engine_cpu_view(e, &s->buf[1], dis, &views[1], &dis);

    /* The shared features first: the next frame waits for them. Their
     * turn passes on even after an error, or the next frames would wait
     * for ever. */
    for (int i = 0; i < e->nb_features; i++) {
        int r;
        if (!fr->shared[i] || !on_cpu(e->features[i]))
            continue;
        r = run_shared(fr, i, e->features[i], index, ref, dis, ret >= 0, waited);
        if (ret >= 0)
            ret = r;
    }
    for (int i = 0; i < e->nb_features && ret >= 0; i++) {
        FFVmafFeature *f = w->features[i];
        /* A feature moved to the GPU mid-stream (its engine instance is
         * a twin now) leaves the workers' clones unused. */
        if (fr->shared[i] || !on_cpu(e->features[i]) || !ff_vmaf_engine_runs_on(e, f, index))
            continue;
        f->step = index;
        ret = f->ex->extract(f, ref, dis, index, e->fc);
        f->step = -1;
    }
    return ret;
}

static int worker_features(FrameWorker *w, int t);

static void *worker_main(void *arg)
{
    FrameWorker *w = arg;
    EngineFrames *fr = w->fr;
    int err = w->setup ? worker_features(w, w->index) : 0;

    ff_mutex_lock(&fr->lock);
    if (err < 0) {
        /* The frames wait for no worker that cannot run them. */
        if (!fr->err)
            fr->err = err;
        ff_cond_broadcast(&fr->cond);
        ff_mutex_unlock(&fr->lock);
        return NULL;
    }
    for (;;) {
        FrameSlot *s;
        int64_t t0, waited;
        int ret;
        while (!fr->quit && !(slot_of(fr, fr->next_run)->state == SLOT_QUEUED &&
                              slot_of(fr, fr->next_run)->index == fr->next_run))
            ff_cond_wait(&fr->cond, &fr->lock);
        if (fr->quit)
            break;
        s = slot_of(fr, fr->next_run++);
        s->state = SLOT_RUNNING;
        ff_mutex_unlock(&fr->lock);

        /* The frame's own time: not the waits for the turns of the
         * frames before it. */
        waited = 0;
        t0  = av_gettime_relative();
        ret = run_frame(w, s, &waited);
        t0  = av_gettime_relative() - t0 - waited;
        release_slot(s);

        ff_mutex_lock(&fr->lock);
        fr->e->cpu_frame_us += t0;
        fr->e->cpu_frames_timed++;
        s->state = SLOT_DONE;
        if (ret < 0 && !fr->err)
            fr->err = ret;
        /* Scored frames leave in order. */
        while (slot_of(fr, fr->completed)->state == SLOT_DONE &&
               slot_of(fr, fr->completed)->index == fr->completed) {
            slot_of(fr, fr->completed)->state = SLOT_FREE;
            fr->completed++;
        }
        ff_cond_broadcast(&fr->cond);
    }
    ff_mutex_unlock(&fr->lock);
    return NULL;
}

void ff_vmaf_engine_frames_free(FFVmafEngine *e)
{
    EngineFrames *fr = e->frames;
    if (!fr)
        return;
    ff_mutex_lock(&fr->lock);
    fr->quit = 1;
    ff_cond_broadcast(&fr->cond);
    ff_mutex_unlock(&fr->lock);
    for (int t = 0; t < fr->max_workers; t++) {
        FrameWorker *w = &fr->workers[t];
        if (w->started)
            pthread_join(w->thread, NULL);
        /* Worker 0 uses the engine's own instances, freed with it. */
        for (int i = 0; t && i < e->nb_features; i++) {
            FFVmafFeature *f = w->features[i];
            if (!f || f == e->features[i])
                continue;
            if (f->ex->close)
                f->ex->close(f);
            ff_vmaf_feature_free(&w->features[i]);
        }
    }
    for (int i = 0; i < fr->nb_slots; i++) {
        release_slot(&fr->slots[i]);
        av_freep(&fr->slots[i].buf[0]);
        av_freep(&fr->slots[i].buf[1]);
    }
    av_freep(&fr->slots);
    av_freep(&fr->workers);
    ff_cond_destroy(&fr->cond);
    ff_mutex_destroy(&fr->lock);
    av_freep(&e->frames);
}

/* Worker t's own instances of the features that keep nothing from one
 * frame to the next (worker 0 and the shared ones use the engine's). The
 * engine's instances may be running meanwhile: a clone reads only their
 * options. */
static int worker_features(FrameWorker *w, int t)
{
    EngineFrames *fr = w->fr;
    FFVmafEngine *e = fr->e;
    int ret;

    for (int i = 0; i < e->nb_features; i++) {
        FFVmafFeature *f = e->features[i];
        if (!t || fr->shared[i]) {
            w->features[i] = f;
            continue;
        }
        if ((ret = ff_vmaf_feature_clone(&w->features[i], f)) < 0)
            return ret;
        if (f->ex->init && (ret = f->ex->init(w->features[i], &e->geo)) < 0) {
            ff_vmaf_feature_free(&w->features[i]);
            return ret;
        }
    }
    return 0;
}

/* Workers [fr->nb_workers, nb). in_thread: each sets up its features on
 * its own thread (workers added mid-stream: the caller goes on, and they
 * set up in parallel); else here, first, so that a failure is the
 * caller's. */
static int start_workers(EngineFrames *fr, int nb, int in_thread)
{
    int ret;

    for (int t = fr->nb_workers; t < nb; t++) {
        FrameWorker *w = &fr->workers[t];
        w->fr    = fr;
        w->index = t;
        w->setup = in_thread;
        if (!in_thread && (ret = worker_features(w, t)) < 0)
            return ret;
    }
    for (int t = fr->nb_workers; t < nb; t++) {
        FrameWorker *w = &fr->workers[t];
        if ((ret = pthread_create(&w->thread, NULL, worker_main, w)))
            return AVERROR(ret);
        w->started = 1;
        /* Counted as it starts: a slot for it is usable at once. */
        ff_mutex_lock(&fr->lock);
        fr->nb_workers = t + 1;
        ff_cond_broadcast(&fr->cond);
        ff_mutex_unlock(&fr->lock);
    }
    return 0;
}

int ff_vmaf_engine_frames_init(FFVmafEngine *e, int nb_threads)
{
    EngineFrames *fr;
    int ret = 0;

    if (!(fr = av_mallocz(sizeof(*fr))))
        return AVERROR(ENOMEM);
    if (ff_mutex_init(&fr->lock, NULL)) {
        av_free(fr);
        return AVERROR(ENOMEM);
    }
    if (ff_cond_init(&fr->cond, NULL)) {
        ff_mutex_destroy(&fr->lock);
        av_free(fr);
        return AVERROR(ENOMEM);
    }
    e->frames = fr;
    fr->e = e;
    /* Room for the threads asked for, should fewer start now
     * (ff_vmaf_engine_frames_grow()). */
    fr->max_workers = FFMAX(nb_threads, e->nb_threads_asked);
    /* Every worker busy and the next frames already queued. */
    fr->nb_slots = fr->max_workers + 2;
    fr->workers = av_calloc(fr->max_workers, sizeof(*fr->workers));
    fr->slots   = av_calloc(fr->nb_slots, sizeof(*fr->slots));
    if (!fr->workers || !fr->slots) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    for (int i = 0; i < fr->nb_slots; i++)
        fr->slots[i].index = UINT_MAX;
    /* From the next frame: 0 at configure, later when the GPU took over
     * mid-stream and features remain on the CPU. */
    fr->next_run = fr->completed = e->nb_pushed;
    for (int i = 0; i < e->nb_features; i++) {
        fr->shared[i] = is_shared(e->features[i]);
        fr->turn[i]   = e->nb_pushed;
    }
    if ((ret = start_workers(fr, nb_threads, 0)) < 0)
        goto fail;
    return 0;
fail:
    ff_vmaf_engine_frames_free(e);
    return ret;
}

int ff_vmaf_engine_frames_grow(FFVmafEngine *e, int nb_threads)
{
    EngineFrames *fr = e->frames;
    nb_threads = FFMIN(nb_threads, fr->max_workers);
    if (nb_threads <= fr->nb_workers)
        return 0;
    return start_workers(fr, nb_threads, 1);
}

int ff_vmaf_engine_frames_push(FFVmafEngine *e, const FFVmafPicture *ref,
                               const FFVmafPicture *dis, AVFrame **hold, int nb_hold)
{
    EngineFrames *fr = e->frames;
    unsigned index = e->nb_pushed;
    FrameSlot *s = slot_of(fr, index);
    const FFVmafPicture *in[2] = { ref, dis };
    int ret;

    ff_mutex_lock(&fr->lock);
    while (!slot_ready(fr, index) && !fr->err)
        ff_cond_wait(&fr->cond, &fr->lock);
    ret = fr->err;
    ff_mutex_unlock(&fr->lock);
    if (ret < 0)
        return ret;

    for (int w = 0; w < 2; w++) {
        s->pic[w] = *in[w];
        if (in[w]->host) {
            s->host[w]       = *in[w]->host;
            s->pic[w].host   = &s->host[w];
        }
        /* Samples above the depth's maximum: clamped here, in order, so
         * that the warning names the first such frame; for the CPU's
         * features only (the GPU's copy is clamped as it is staged). */
        if (ff_vmaf_engine_cpu_runs_on(e, index) &&
            (ret = ff_vmaf_engine_clamp(e, w, &s->buf[w], &s->pic[w])) < 0)
            return ret;
    }
    for (int i = 0; i < nb_hold; i++)
        s->hold[s->nb_hold++] = hold[i];

    ff_mutex_lock(&fr->lock);
    s->index = index;
    s->state = SLOT_QUEUED;
    ff_cond_broadcast(&fr->cond);
    ff_mutex_unlock(&fr->lock);
    return 0;
}

int ff_vmaf_engine_frames_drain(FFVmafEngine *e)
{
    EngineFrames *fr = e->frames;
    int ret;
    ff_mutex_lock(&fr->lock);
    /* Every queued frame completes, after an error too. */
    while (fr->completed < e->nb_pushed)
        ff_cond_wait(&fr->cond, &fr->lock);
    ret = fr->err;
    ff_mutex_unlock(&fr->lock);
    return ret;
}

void ff_vmaf_engine_frames_cpu_from(FFVmafEngine *e, const FFVmafFeature *f, unsigned index)
{
    EngineFrames *fr = e->frames;
    ff_mutex_lock(&fr->lock);
    for (int i = 0; i < e->nb_features; i++)
        if (e->features[i] == f)
            fr->turn[i] = index;
    ff_cond_broadcast(&fr->cond);
    ff_mutex_unlock(&fr->lock);
}

int ff_vmaf_engine_frames_full(const FFVmafEngine *e)
{
    EngineFrames *fr = e->frames;
    int full;
    ff_mutex_lock(&fr->lock);
    full = !slot_ready(fr, e->nb_pushed);
    ff_mutex_unlock(&fr->lock);
    return full;
}

int64_t ff_vmaf_engine_cpu_frame_us(const FFVmafEngine *e)
{
    EngineFrames *fr = e->frames;
    int64_t us;
    unsigned n;

    if (fr)
        ff_mutex_lock(&fr->lock);
    us = e->cpu_frame_us;
    n  = e->cpu_frames_timed;
    if (fr)
        ff_mutex_unlock(&fr->lock);
    return n ? us / n : -1;
}

unsigned ff_vmaf_engine_frames_completed(const FFVmafEngine *e)
{
    EngineFrames *fr = e->frames;
    unsigned n;
    ff_mutex_lock(&fr->lock);
    n = fr->completed;
    ff_mutex_unlock(&fr->lock);
    return n;
}
