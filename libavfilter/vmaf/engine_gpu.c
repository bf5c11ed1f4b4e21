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
 * The engine's GPU backend: which instances run on the GPU, the per-frame
 * queue and read-back, and the move to the CPU when the GPU fails.
 */

#include <limits.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"
#include "libavutil/time.h"

#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

#include "engine_state.h"

void ff_vmaf_engine_set_backend(FFVmafEngine *e, enum FFVmafBackend backend, int device)
{
    e->backend = backend;
    e->device  = device;
}

void ff_vmaf_engine_set_gpu_fail_at(FFVmafEngine *e, int64_t index)
{
    e->gpu_fail_at = index;
}

void ff_vmaf_engine_warm_up_gpu(int device)
{
    ff_gpu_warm_up(device);
}

int ff_vmaf_engine_gpu_starting(const FFVmafEngine *e)
{
    int twins = 0;
    if (e->backend == FF_VMAF_BACKEND_CPU || e->cu_ctx)
        return 0;
    for (int i = 0; i < e->nb_features; i++)
        twins += !!ff_vmaf_gpu_extractor_find(e->features[i]->ex);
    return twins && ff_gpu_warm_up_pending();
}

void ff_vmaf_engine_set_gpu_graphs(FFVmafEngine *e, int on)
{
    e->gpu_graphs = on;
}

void ff_vmaf_engine_gpu_graph_runs(const FFVmafEngine *e, unsigned *graphs, unsigned *direct)
{
    *graphs = e->gpu_graph_runs + (e->gpu ? e->gpu->graph_runs : 0);
    *direct = e->gpu_direct_runs + (e->gpu ? e->gpu->direct_runs : 0);
}

void ff_vmaf_engine_set_gpu_timing(FFVmafEngine *e, int on)
{
    e->gpu_timing = on;
}

double ff_vmaf_engine_gpu_busy(const FFVmafEngine *e, unsigned *frames)
{
    *frames = e->gpu_timed + (e->gpu ? e->gpu->nb_timed : 0);
    return e->gpu_busy + (e->gpu ? e->gpu->busy : 0);
}

void ff_vmaf_engine_set_cuda_frames(FFVmafEngine *e, void *cu_ctx, void *cu_stream)
{
    e->cu_ctx    = cu_ctx;
    e->cu_stream = cu_stream;
}

int ff_vmaf_engine_gpu_reads_device(const FFVmafEngine *e)
{
    return e->gpu && e->gpu->copy_stream;
}

int ff_vmaf_engine_uses_gpu(const FFVmafEngine *e)
{
    return !!e->gpu;
}

/* The counts of a ring about to be freed, kept for the engine's accounts. */
static void keep_ring_counts(FFVmafEngine *e, const FFVmafGpu *g)
{
    e->gpu_busy        += g->busy;
    e->gpu_timed       += g->nb_timed;
    e->gpu_stage_us    += g->stage_us;
    e->gpu_graph_runs  += g->graph_runs;
    e->gpu_direct_runs += g->direct_runs;
}

void ff_vmaf_engine_free_gpu(FFVmafEngine *e)
{
    int64_t t0;
    if (!e->gpu)
        return;
    keep_ring_counts(e, e->gpu);
    if (e->gpu_queued) {
        double n = e->gpu_queued;
        /* Where the caller's thread spends its time per frame: what an
         * ffmpeg run's speed is bounded by when the GPU is not busy. */
        av_log(e->log_ctx, AV_LOG_VERBOSE, "GPU path, caller's thread, per frame over %u frames: "
               "%.1f us staging the pictures, %.1f us queueing uploads and kernels, "
               "%.1f us waiting for the GPU, %.1f us reading results back.\n", e->gpu_queued,
               e->gpu_stage_us / n, (e->gpu_queue_us - e->gpu_stage_us) / n, e->gpu_wait_us / n,
               (e->gpu_collect_us - e->gpu_wait_us) / n);
    }
    if (e->gpu->graph_runs || e->gpu->graphs)
        av_log(e->log_ctx, AV_LOG_VERBOSE, "GPU graphs: %u of %u twin frames ran as one of %d "
               "captured graphs (captured in %.1f ms).\n", e->gpu->graph_runs,
               e->gpu->graph_runs + e->gpu->direct_runs, e->gpu->nb_graphs,
               e->gpu->capture_us / 1000.0);
    t0 = av_gettime_relative();
    ff_vmaf_gpu_free(&e->gpu);
    av_log(e->log_ctx, AV_LOG_VERBOSE, "GPU released in %.1f ms.\n",
           (av_gettime_relative() - t0) / 1000.0);
}

/* Give f the GPU twin's larger context, the CPU one's bytes first: the
 * CPU extractor's options and state, which the twin goes on with. */
static int convert_to_twin(FFVmafFeature *f, const FFVmafExtractor *twin)
{
    void *priv = av_mallocz(twin->priv_size);
    if (!priv)
        return AVERROR(ENOMEM);
    memcpy(priv, f->priv, f->ex->priv_size);
    av_free(f->priv);
    f->priv = priv;
    f->ex   = twin;
    return 0;
}

/* Sets of intermediates a twin keeps, each on a lane of its own. */
static int nb_sets(const FFVmafFeature *f)
{
    return FFMAX(f->ex->gpu_sets, 1);
}

/* The lane of frame index: the twin's first, or one per set. */
static int lane_of(const FFVmafFeature *f, unsigned index)
{
    return (f->gpu_lane + index % nb_sets(f)) % FF_VMAF_GPU_MAX_LANES;
}

static int enter(FFVmafEngine *e)
{
    return ff_gpu_enter(e->gpu->gpu);
}

static void leave(FFVmafEngine *e)
{
    ff_gpu_leave(e->gpu->gpu);
}

/* Stages of a frame still running in the background: finished (they
 * read the ring's host copies and the twins' scratch). */
void ff_vmaf_engine_gpu_wait_background(FFVmafEngine *e)
{
    if (e->gpu_staged && e->gpu)
        ff_vmaf_gpu_background_wait(e->gpu);
}

int ff_vmaf_engine_gpu_enter(FFVmafEngine *e)
{
    return e->gpu ? enter(e) : 0;
}

void ff_vmaf_engine_gpu_leave(FFVmafEngine *e)
{
    if (e->gpu)
        leave(e);
}

/* The twin f back to its CPU extractor, whose state its init left intact;
 * the host memory of its GPU side is freed (to_cpu()). */
static void twin_back_to_cpu(FFVmafEngine *e, FFVmafFeature *f, unsigned first, int cpu_delay)
{
    if (f->ex->to_cpu && f->ex->to_cpu(f, first) < 0)
        av_log(e->log_ctx, AV_LOG_WARNING, "Could not release the GPU resources of '%s'.\n",
               f->ex->name);
    f->ex  = f->ex->cpu;
    f->gpu = NULL;
    f->frame_delay = cpu_delay;
}

/*
 * A ring made mid-stream, at frame first: upload again the frames before
 * it that the twins read (motion's and SpEED's previous pictures), and let
 * the twins with device state across frames rebuild it from them.
 */
static int prime_ring(FFVmafEngine *e, unsigned first)
{
    unsigned from = first > FF_VMAF_GPU_LOOKBACK ? first - FF_VMAF_GPU_LOOKBACK : 0;
    int ret = 0;

    for (unsigned j = from; j < first && ret >= 0; j++) {
        const FFVmafPicture *pic = e->recent[j % RECENT_PAIRS].pic;
        if (e->recent[j % RECENT_PAIRS].index != j)
            return AVERROR_BUG;
        if ((ret = ff_vmaf_gpu_upload(e->gpu, j, &pic[0], &pic[1])) < 0)
            break;
        for (int i = 0; i < e->nb_features && ret >= 0 && j + 1 == first; i++) {
            FFVmafFeature *f = e->features[i];
            int lane = lane_of(f, j), end;
            if (!(f->ex->flags & FF_VMAF_EXTRACTOR_GPU) || !f->ex->from_cpu)
                continue;
            if ((ret = ff_vmaf_gpu_lane_begin(e->gpu, lane, j)) >= 0)
                ret = f->ex->from_cpu(f, first);
            end = ff_vmaf_gpu_lane_end(e->gpu, lane);
            ret = ret < 0 ? ret : end;
        }
        if (ret >= 0)
            ret = ff_vmaf_gpu_frame_queued(e->gpu, j);
    }
    return ret;
}

int ff_vmaf_engine_setup_gpu(FFVmafEngine *e)
{
    const FFVmafExtractor *twins[MAX_FEATURES] = { 0 };
    int cpu_delay[MAX_FEATURES];
    unsigned first = e->nb_pushed;
    int nb_twins = 0, nb_planes = 1, ret;
    int64_t t0, t1;

    if (e->backend == FF_VMAF_BACKEND_CPU)
        return 0;
    for (int i = 0; i < e->nb_features; i++) {
        cpu_delay[i] = e->features[i]->frame_delay;
        twins[i] = ff_vmaf_gpu_extractor_find(e->features[i]->ex);
        if (twins[i]) {
            nb_twins++;
            if (twins[i]->flags & FF_VMAF_EXTRACTOR_CHROMA)
                nb_planes = 3;
        }
    }
    if (!nb_twins) {
        av_log(e->log_ctx, e->backend == FF_VMAF_BACKEND_GPU ? AV_LOG_WARNING : AV_LOG_VERBOSE,
               "None of the requested features has a GPU kernel; all run on the CPU.\n");
        return 0;
    }

    t0  = av_gettime_relative();
    ret = ff_vmaf_gpu_alloc(&e->gpu, e->device, e->cu_ctx, e->cu_stream, &e->geo,
                            nb_planes, e->nb_threads_asked, e->log_ctx);
    t1  = av_gettime_relative();
    if (ret < 0) {
        if (e->backend == FF_VMAF_BACKEND_GPU) {
            av_log(e->log_ctx, AV_LOG_ERROR,
                   "backend=gpu: no usable GPU (no HIP or CUDA runtime, or no device %d).\n",
                   e->device);
            return ret == AVERROR(ENODEV) ? ret : AVERROR(ENODEV);
        }
        av_log(e->log_ctx, AV_LOG_VERBOSE, "No GPU answers; computing on the CPU.\n");
        return 0;
    }
    snprintf(e->gpu_name, sizeof(e->gpu_name), "%s, %s",
             ff_gpu_device_name(e->gpu->gpu), ff_gpu_platform_name(e->gpu->gpu));

    if ((ret = enter(e)) < 0)
        goto fail;
    ff_vmaf_gpu_set_graphs(e->gpu, e->gpu_graphs);
    if (e->gpu_timing && (ret = ff_vmaf_gpu_enable_timing(e->gpu)) < 0) {
        leave(e);
        goto fail;
    }
    for (int i = 0; i < e->nb_features; i++) {
        FFVmafFeature *f = e->features[i];
        if (!twins[i])
            continue;
        if ((ret = convert_to_twin(f, twins[i])) < 0)
            break;
        f->gpu = e->gpu;
        ret = f->ex->init(f, &e->geo);
        if (ret >= 0) {
            for (int k = 0; k < nb_sets(f) && ret >= 0; k++)
                if ((ret = ff_vmaf_gpu_add_lane(e->gpu)) >= 0 && !k)
                    f->gpu_lane = ret;
            if (ret >= 0) {
                /* Its values are read back one push late. */
                f->frame_delay = cpu_delay[i] + 1;
                continue;
            }
            twin_back_to_cpu(e, f, first, cpu_delay[i]);
        } else {
            /* No code object for this device, say: that feature stays on
             * the CPU, with the state its CPU extractor has. */
            f->ex  = f->ex->cpu;
            f->gpu = NULL;
        }
        if (e->backend == FF_VMAF_BACKEND_GPU && ret != AVERROR(ENOSYS))
            break;
        /* ENOSYS: by design, no GPU version for these options or this size
         * (the start-up line says where each feature runs). */
        if (ret == AVERROR(ENOSYS))
            av_log(e->log_ctx, AV_LOG_VERBOSE, "Feature '%s' runs on the CPU: no GPU version "
                   "for its options or this frame size.\n", f->ex->name);
        else
            av_log(e->log_ctx, AV_LOG_WARNING, "Feature '%s' runs on the CPU: its GPU setup "
                   "failed (%s).\n", f->ex->name, av_err2str(ret));
        ret = 0;
    }
    if (ret >= 0)
        ret = ff_vmaf_gpu_results_alloc(e->gpu);
    if (ret >= 0 && first)
        ret = prime_ring(e, first);
    leave(e);
    if (ret < 0)
        goto fail;
    e->gpu_collected = first;
    av_log(e->log_ctx, AV_LOG_VERBOSE, "GPU ready in %.1f ms: runtime, context and ring "
           "%.1f ms, kernels %.1f ms; pictures staged on %d thread%s.\n",
           (av_gettime_relative() - t0) / 1000.0, (t1 - t0) / 1000.0,
           (av_gettime_relative() - t1) / 1000.0, e->gpu->nb_stagers,
           e->gpu->nb_stagers == 1 ? "" : "s");
    return 0;
fail:
    enter(e);
    for (int i = 0; i < e->nb_features; i++) {
        FFVmafFeature *f = e->features[i];
        if (f->ex->flags & FF_VMAF_EXTRACTOR_GPU)
            twin_back_to_cpu(e, f, first, cpu_delay[i]);
    }
    leave(e);
    ff_vmaf_gpu_free(&e->gpu);
    e->gpu_name[0] = 0;
    return ret;
}

void ff_vmaf_engine_defer_gpu(FFVmafEngine *e)
{
    int twins = 0;
    for (int i = 0; i < e->nb_features; i++)
        twins += !!ff_vmaf_gpu_extractor_find(e->features[i]->ex);
    e->gpu_deferred = twins && e->backend != FF_VMAF_BACKEND_CPU && !e->cu_ctx;
}

int ff_vmaf_engine_gpu_deferred(const FFVmafEngine *e)
{
    return e->gpu_deferred;
}

int ff_vmaf_engine_push_would_wait(const FFVmafEngine *e)
{
    return e->frames && ff_vmaf_engine_frames_full(e);
}

/* Whether every plane of pic lies in a buffer of the frames held. */
static int picture_in_frames(const FFVmafPicture *pic, AVFrame *const *hold, int nb_hold)
{
    if (pic->on_device)
        return 0;
    for (int p = 0; p < 3; p++) {
        const uint8_t *start = pic->data[p], *end;
        int found = 0;
        if (!start)
            continue;
        if (pic->linesize[p] < 0)
            return 0;
        end = start + (size_t)pic->linesize[p] * ff_vmaf_picture_rows(pic, p);
        for (int k = 0; k < nb_hold && !found; k++)
            for (int b = 0; b < FF_ARRAY_ELEMS(hold[k]->buf) && hold[k]->buf[b] && !found; b++)
                found = start >= hold[k]->buf[b]->data &&
                        end <= hold[k]->buf[b]->data + hold[k]->buf[b]->size;
        if (!found)
            return 0;
    }
    return 1;
}

static void free_recent_pair(FFVmafEngine *e, int r)
{
    for (int k = 0; k < e->recent[r].nb_hold; k++)
        av_frame_free(&e->recent[r].hold[k]);
    e->recent[r].nb_hold = 0;
    e->recent[r].index   = -1;
}

void ff_vmaf_engine_keep_recent(FFVmafEngine *e, unsigned index, const FFVmafPicture *ref,
                                const FFVmafPicture *dis, AVFrame *const *hold, int nb_hold)
{
    const FFVmafPicture *in[2] = { ref, dis };
    int r = index % RECENT_PAIRS;
    if (e->recent_failed)
        return;
    free_recent_pair(e, r);
    if (picture_in_frames(ref, hold, nb_hold) && picture_in_frames(dis, hold, nb_hold)) {
        /* The frames the engine holds for its workers: a reference more
         * each, not a copy of every pixel on the caller's thread. */
        for (int k = 0; k < nb_hold; k++) {
            if (!(e->recent[r].hold[k] = av_frame_clone(hold[k])))
                goto fail;
            e->recent[r].nb_hold++;
        }
        e->recent[r].pic[0] = *ref;
        e->recent[r].pic[1] = *dis;
    } else {
        for (int w = 0; w < 2; w++) {
            if (ff_vmaf_engine_copy_picture(&e->recent[r].hold[w], &e->recent[r].pic[w], in[w]) < 0)
                goto fail;
            e->recent[r].nb_hold++;
        }
    }
    e->recent[r].index = index;
    return;
fail:
    /* Nothing the ring could read again: the stream stays on the CPU. */
    free_recent_pair(e, r);
    e->recent_failed = 1;
}

void ff_vmaf_engine_free_recent(FFVmafEngine *e)
{
    for (int r = 0; r < RECENT_PAIRS; r++)
        free_recent_pair(e, r);
}

/* New frame workers, nb_threads of them (none for 1), for the frames from
 * the next on, once those in flight are done. */
static int restart_frame_workers(FFVmafEngine *e, int nb_threads)
{
    int ret;

    if ((ret = ff_vmaf_engine_frames_drain(e)) < 0)
        return ret;
    ff_vmaf_engine_frames_free(e);
    e->nb_threads = 1;
    if (nb_threads == 1)
        return 0;
    if ((ret = ff_vmaf_engine_frames_init(e, nb_threads)) < 0)
        return ret;
    e->nb_threads = nb_threads;
    return 0;
}

/* The stream stays on the CPU after its start: the cap on the threads of
 * the CPU's start is lifted, the rest on as many as asked for; the frames
 * in flight go on meanwhile. */
static int cpu_threads_as_asked(FFVmafEngine *e)
{
    int ret;

    if (!e->frames || e->nb_threads_asked <= e->nb_threads || e->flushed)
        return 0;
    if ((ret = ff_vmaf_engine_frames_grow(e, e->nb_threads_asked)) < 0)
        return ret;
    e->nb_threads = e->nb_threads_asked;
    return 0;
}

int ff_vmaf_engine_finish_on_cpu(FFVmafEngine *e)
{
    if (!e->gpu_deferred)
        return 0;
    e->gpu_deferred = 0;
    ff_vmaf_engine_free_recent(e);
    return cpu_threads_as_asked(e);
}

int ff_vmaf_engine_cpu_all_threads(FFVmafEngine *e)
{
    return e->gpu_deferred ? cpu_threads_as_asked(e) : 0;
}

int ff_vmaf_engine_start_gpu(FFVmafEngine *e)
{
    unsigned first = e->nb_pushed;
    int ret;

    if (!e->gpu_deferred)
        return 0;
    e->gpu_deferred = 0;
    if (!e->configured || e->flushed) {
        ff_vmaf_engine_free_recent(e);
        return 0;
    }
    /* The CPU's frames in flight finish first: the twins take over the
     * state they leave. */
    if (e->frames && (ret = ff_vmaf_engine_frames_drain(e)) < 0)
        return ret;
    if (e->recent_failed) {
        av_log(e->log_ctx, AV_LOG_VERBOSE, "The pictures cannot be kept for the GPU (device "
               "or bottom-up pictures); the stream stays on the CPU.\n");
        ret = 0;
    } else if ((ret = ff_vmaf_engine_setup_gpu(e)) < 0) {
        av_log(e->log_ctx, AV_LOG_WARNING, "The GPU could not be set up (%s); the stream "
               "stays on the CPU.\n", av_err2str(ret));
        ret = 0;
    }
    ff_vmaf_engine_free_recent(e);
    if (!e->gpu)
        return cpu_threads_as_asked(e);
    e->delay = 0;
    for (int i = 0; i < e->nb_features; i++)
        e->delay = FFMAX(e->delay, e->features[i]->frame_delay);
    /* The workers of the CPU's start go: with nothing left for them, one
     * thread and no copy of each picture; features left on the CPU get
     * the threads asked for. */
    if (e->frames &&
        (ret = restart_frame_workers(e, ff_vmaf_engine_cpu_features(e) ? e->nb_threads_asked : 1)) < 0)
        return ret;
    av_log(e->log_ctx, AV_LOG_DEBUG, "GPU started at frame %u.\n", first);
    return 0;
}

int ff_vmaf_engine_gpu_start_cost_ms(void)
{
    return ff_gpu_start_cost_ms();
}

/*
 * The GPU failed while frames [e->gpu_collected, end) still had GPU work
 * pending. Move every GPU twin to the CPU and compute those frames from the
 * host copies the ring still holds, so no frame is lost or mis-scored.
 * Frames from `end` on are left to the caller, which now sees CPU
 * extractors.
 */
/* The first frame the CPU computes for features[i]: the one after `first`
 * for a twin that wrote it before another's read-back failed. */
static unsigned cpu_from(unsigned first, uint64_t collected_by, int i)
{
    return first + !!(collected_by & (UINT64_C(1) << i));
}

static int fall_back_to_cpu(FFVmafEngine *e, unsigned end, int err)
{
    unsigned first = e->gpu_collected, step = ff_vmaf_collector_get_step(e->fc);
    /* Twins that wrote frame `first` before another's read-back failed go
     * on from the next frame: their values are written, and written once. */
    const uint64_t collected_by = e->gpu_collected_by;
    FFVmafGpu *gpu = e->gpu;
    int ret = 0;

    e->gpu_collected_by = 0;

    /* The frame whose stages run in the background is recomputed below. */
    ff_vmaf_engine_gpu_wait_background(e);
    e->gpu_staged = 0;
    if (e->backend == FF_VMAF_BACKEND_GPU)
        return err;
    /* The CPU reads the ring's host copies as planes. Hardware frames have
     * none: the frames in flight are lost, so the stream cannot go on. */
    if (ff_vmaf_gpu_host_copies_planar(gpu) < 0) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "The GPU failed while scoring hardware frames; the frames in flight cannot be "
               "recomputed on the CPU.\n");
        return err;
    }
    /* Frames scored in parallel: none may run while the twins change. */
    if (e->frames && (ret = ff_vmaf_engine_frames_drain(e)) < 0)
        return ret;
    av_log(e->log_ctx, AV_LOG_WARNING,
           "The GPU failed; finishing the stream on the CPU from frame %u.\n", first);
    /* A broken context may refuse even this; the ring goes regardless. */
    ff_gpu_enter(gpu->gpu);
    for (int i = 0; i < e->nb_features; i++) {
        FFVmafFeature *f = e->features[i];
        if ((f->ex->flags & FF_VMAF_EXTRACTOR_GPU) && f->ex->to_cpu &&
            f->ex->to_cpu(f, cpu_from(first, collected_by, i)) < 0)
            av_log(e->log_ctx, AV_LOG_WARNING, "Could not release the GPU resources of '%s'.\n",
                   f->ex->name);
    }
    ff_gpu_leave(gpu->gpu);
    e->gpu = NULL;
    for (int i = 0; i < e->nb_features && ret >= 0; i++) {
        FFVmafFeature *f = e->features[i];
        if (!(f->ex->flags & FF_VMAF_EXTRACTOR_GPU))
            continue;
        f->ex  = f->ex->cpu;
        f->gpu = NULL;
        f->frame_delay = f->ex->frame_delay;
        if (ret < 0)
            break;
        for (unsigned k = cpu_from(first, collected_by, i); k < end && ret >= 0; k++) {
            FFVmafPicture pic[2];
            if (!ff_vmaf_engine_runs_on(e, f, k))
                continue;
            for (int w = 0; w < 2; w++) {
                ff_vmaf_picture_set_geometry(&pic[w], &e->geo);
                for (int p = 0; p < 3; p++) {
                    pic[w].data[p]     = p < gpu->nb_planes ? ff_vmaf_gpu_host_plane(gpu, k, w, p) : NULL;
                    pic[w].linesize[p] = ff_vmaf_gpu_pitch(gpu, p);
                }
            }
            /* Frame k's values, as the CPU would have written them. */
            ff_vmaf_collector_set_step(e->fc, k);
            ret = f->ex->extract(f, &pic[0], &pic[1], k, e->fc);
        }
        if (e->frames)
            ff_vmaf_engine_frames_cpu_from(e, f, end);
    }
    ff_vmaf_collector_set_step(e->fc, step);
    /* Frees the ring (and the host copies) only now. */
    keep_ring_counts(e, gpu);
    ff_vmaf_gpu_free(&gpu);
    e->delay = 0;
    for (int i = 0; i < e->nb_features; i++)
        e->delay = FFMAX(e->delay, e->features[i]->frame_delay);
    return ret;
}

int ff_vmaf_engine_gpu_queue(FFVmafEngine *e, unsigned index,
                             const FFVmafPicture *ref, const FFVmafPicture *dis)
{
    int64_t t0 = av_gettime_relative();
    int ret;

    if ((ret = enter(e)) < 0)
        return fall_back_to_cpu(e, index, ret);
    ret = ff_vmaf_gpu_upload(e->gpu, index, ref, dis);
    for (int w = 0; w < 2 && ret >= 0; w++)
        if (atomic_load(&e->gpu->clamped) & (1 << w))
            ff_vmaf_engine_warn_clamped(e, w);
    if (ret >= 0 && index == e->gpu_fail_at) {
        av_log(e->log_ctx, AV_LOG_WARNING, "Simulating a GPU failure at frame %u.\n", index);
        ret = AVERROR_EXTERNAL;
    }
    for (int i = 0; i < e->nb_features && ret >= 0; i++) {
        FFVmafFeature *f = e->features[i];
        int lane, end;
        if (!(f->ex->flags & FF_VMAF_EXTRACTOR_GPU) || !ff_vmaf_engine_runs_on(e, f, index))
            continue;
        lane = lane_of(f, index);
        if ((ret = ff_vmaf_gpu_lane_begin(e->gpu, lane, index)) >= 0)
            ret = f->ex->extract(f, ref, dis, index, e->fc);
        end = ff_vmaf_gpu_lane_end(e->gpu, lane);
        ret = ret < 0 ? ret : end;
    }
    if (ret >= 0)
        ret = ff_vmaf_gpu_frame_queued(e->gpu, index);
    leave(e);
    if (ret < 0)
        return fall_back_to_cpu(e, index, ret);
    e->gpu_queue_us += av_gettime_relative() - t0;
    e->gpu_queued++;
    return 0;
}

int ff_vmaf_engine_gpu_wait_first(FFVmafEngine *e)
{
    int ret;
    if (!e->gpu)
        return 0;
    if ((ret = enter(e)) < 0)
        return fall_back_to_cpu(e, 0, ret);
    ret = ff_vmaf_gpu_frame_wait(e->gpu, 0);
    leave(e);
    /* Nothing of frame 0 is written yet: the caller computes it on the CPU. */
    return ret < 0 ? fall_back_to_cpu(e, 0, ret) : 0;
}

int ff_vmaf_engine_gpu_collect_feature(FFVmafEngine *e, FFVmafFeature *f, unsigned index)
{
    /* The frame has run: collect() only reads page-locked host memory. */
    if (!ff_vmaf_engine_runs_on(e, f, index))
        return 0;
    return f->ex->collect(f, index, e->fc);
}

/* The jobs of one collect stage of every twin of a frame, numbered in turn. */
typedef struct StageJobs {
    int nb_parts;
    struct {
        void (*job)(void *priv, int j, int nb_jobs);
        void *priv;
        int first, count;
    } part[MAX_FEATURES];
} StageJobs;

static void stage_job(void *priv, int j, int nb_jobs)
{
    const StageJobs *s = priv;
    int p = 0;
    while (j >= s->part[p].first + s->part[p].count)
        p++;
    s->part[p].job(s->part[p].priv, j - s->part[p].first, s->part[p].count);
}

/* Whether f is a twin with collect stages that runs on frame index. */
static int has_stages(const FFVmafEngine *e, const FFVmafFeature *f, unsigned index)
{
    return (f->ex->flags & FF_VMAF_EXTRACTOR_GPU) && f->ex->collect_stage &&
           ff_vmaf_engine_runs_on(e, f, index);
}

/* The collect stages of frame index, each twin's jobs of a stage together. */
static void run_collect_stages(FFVmafEngine *e, unsigned index)
{
    for (int stage = 0; stage < FF_VMAF_COLLECT_STAGES; stage++) {
        StageJobs s = { 0 };
        int total = 0;
        for (int i = 0; i < e->nb_features; i++) {
            FFVmafFeature *f = e->features[i];
            void (*job)(void *priv, int j, int nb_jobs) = NULL;
            int n;
            if (!has_stages(e, f, index) || (n = f->ex->collect_stage(f, index, stage, &job)) <= 0)
                continue;
            s.part[s.nb_parts].job   = job;
            s.part[s.nb_parts].priv  = f->priv;
            s.part[s.nb_parts].first = total;
            s.part[s.nb_parts].count = n;
            s.nb_parts++;
            total += n;
        }
        if (total)
            ff_vmaf_gpu_parallel(e->gpu, stage_job, &s, total);
    }
}

static void collect_stages_in_background(void *priv)
{
    FFVmafEngine *e = priv;
    run_collect_stages(e, e->gpu_staged - 1);
}

/* Whether a twin has collect stages for frame index. */
static int has_collect_stages(const FFVmafEngine *e, unsigned index)
{
    for (int i = 0; i < e->nb_features; i++)
        if (has_stages(e, e->features[i], index))
            return 1;
    return 0;
}

/* The position in e->features of the last GPU twin that runs on frame index. */
static int last_twin(const FFVmafEngine *e, unsigned index)
{
    int last = -1;
    for (int i = 0; i < e->nb_features; i++)
        if ((e->features[i]->ex->flags & FF_VMAF_EXTRACTOR_GPU) &&
            ff_vmaf_engine_runs_on(e, e->features[i], index))
            last = i;
    return last;
}

/*
 * Write the GPU values of frames [gpu_collected, end). The collect stages
 * of the last one, when it is from keep on, may be left running in the
 * background, that frame written at the next call: its host work (SpEED's
 * block models) then overlaps the caller's next frame instead of holding
 * the caller up.
 */
static int collect_frames(FFVmafEngine *e, unsigned end, unsigned keep)
{
    unsigned step = ff_vmaf_collector_get_step(e->fc);
    int64_t t0 = av_gettime_relative(), t1;
    int ret = 0;

    if (!e->gpu)
        return 0;
    /* Every pushed frame not yet collected has GPU work pending. */
    if ((ret = enter(e)) < 0)
        return fall_back_to_cpu(e, e->nb_pushed, ret);
    for (; e->gpu_collected < end && ret >= 0; e->gpu_collected++) {
        unsigned index = e->gpu_collected;
        /* A frame read back one push late creates its keys where the
         * CPU's extract() of that frame would have. */
        ff_vmaf_collector_set_step(e->fc, index);
        if (e->gpu_staged == index + 1) {
            ff_vmaf_gpu_background_wait(e->gpu);
            e->gpu_staged = 0;
        } else {
            t1  = av_gettime_relative();
            ret = ff_vmaf_gpu_frame_wait(e->gpu, index);
            e->gpu_wait_us += av_gettime_relative() - t1;
            if (ret >= 0 && index + 1 == end && index >= keep && has_collect_stages(e, index)) {
                /* Set before the thread can read it. */
                e->gpu_staged = index + 1;
                if (ff_vmaf_gpu_background(e->gpu, collect_stages_in_background, e) >= 0)
                    break;
                e->gpu_staged = 0;
            }
            if (ret >= 0)
                run_collect_stages(e, index);
        }
        /* gpu_collected_by is 0 here: cleared after each frame collected
         * whole, and by the fall-back that follows one that was not. */
        for (int i = 0; i < e->nb_features && ret >= 0; i++) {
            FFVmafFeature *f = e->features[i];
            if (!(f->ex->flags & FF_VMAF_EXTRACTOR_GPU) || !ff_vmaf_engine_runs_on(e, f, index))
                continue;
            if (index == e->gpu_fail_collect_at && i == last_twin(e, index)) {
                av_log(e->log_ctx, AV_LOG_WARNING,
                       "Simulating a failed read-back of '%s' at frame %u.\n", f->ex->name, index);
                ret = AVERROR_EXTERNAL;
            } else if ((ret = f->ex->collect(f, index, e->fc)) >= 0) {
                e->gpu_collected_by |= UINT64_C(1) << i;
            }
        }
        if (ret < 0)
            break;
        e->gpu_collected_by = 0;
    }
    leave(e);
    ff_vmaf_collector_set_step(e->fc, step);
    if (ret < 0)
        return fall_back_to_cpu(e, e->nb_pushed, ret);
    e->gpu_collect_us += av_gettime_relative() - t0;
    return 0;
}

int ff_vmaf_engine_gpu_collect(FFVmafEngine *e, unsigned end)
{
    return collect_frames(e, end, UINT_MAX);
}

int ff_vmaf_engine_gpu_collect_ready(FFVmafEngine *e, unsigned queued)
{
    /* The next frame's upload reuses the slot of frame
     * queued + 1 - FF_VMAF_GPU_SLOTS: that one must be read back first. */
    unsigned must = queued + 2 > FF_VMAF_GPU_SLOTS ? queued + 2 - FF_VMAF_GPU_SLOTS : 0;
    unsigned end;
    int ret;

    if (!e->gpu)
        return 0;
    if ((ret = enter(e)) < 0)
        return fall_back_to_cpu(e, e->nb_pushed, ret);
    /* Then every frame that has run, in order, without waiting. */
    for (end = FFMAX(must, e->gpu_collected); end <= queued; end++) {
        if ((ret = ff_vmaf_gpu_frame_ready(e->gpu, end)) <= 0)
            break;
    }
    leave(e);
    if (ret < 0)
        return fall_back_to_cpu(e, e->nb_pushed, ret);
    return end > e->gpu_collected ? collect_frames(e, end, must) : 0;
}

/* Whether name is an item of list ("a, b, c"): whole names, since some
 * are part of others (psnr of psnr_hvs, motion of float_motion). */
static int listed(const char *list, const char *name)
{
    const size_t n = strlen(name);

    for (const char *at = list; (at = strstr(at, name)); at += n)
        if ((at == list || at[-1] == ' ') && (!at[n] || at[n] == ','))
            return 1;
    return 0;
}

void ff_vmaf_engine_describe_backends(const FFVmafEngine *e, char *buf, size_t size)
{
    char gpu[512] = "", cpu[512] = "";
    for (int i = 0; i < e->nb_features; i++) {
        const FFVmafFeature *f = e->features[i];
        char *dst = (f->ex->flags & FF_VMAF_EXTRACTOR_GPU) ? gpu : cpu;
        if (listed(dst, f->ex->name))
            continue;
        av_strlcatf(dst, 512, "%s%s", *dst ? ", " : "", f->ex->name);
    }
    buf[0] = 0;
    if (*gpu)
        av_strlcatf(buf, size, "%s on the GPU (%s)", gpu, e->gpu_name);
    if (*cpu)
        av_strlcatf(buf, size, "%s%s on the CPU", *buf ? "; " : "", cpu);
}
