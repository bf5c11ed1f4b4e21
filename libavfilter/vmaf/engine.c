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


#include <limits.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/cpu.h"
#include "libavutil/dict.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"
#include "libavutil/time.h"

#include "engine.h"
#include "engine_state.h"
#include "feature.h"
#include "test_hooks.h"

int ff_vmaf_engine_alloc(FFVmafEngine **pe, void *log_ctx)
{
    FFVmafEngine *e = av_mallocz(sizeof(*e));
    int ret;
    if (!e)
        return AVERROR(ENOMEM);
    e->log_ctx = log_ctx;
    e->step    = 1;
    e->gpu_fail_at = ff_vmaf_test_gpu_fail_at();
    e->gpu_fail_collect_at = -1;
    e->frame_limit = UINT_MAX;
    e->win_end     = UINT_MAX;
    for (int i = 0; i < RECENT_PAIRS; i++)
        e->recent[i].index = -1;
    if ((ret = ff_vmaf_collector_alloc(&e->fc)) < 0) {
        av_free(e);
        return ret;
    }
    *pe = e;
    return 0;
}

void ff_vmaf_engine_free(FFVmafEngine **pe)
{
    FFVmafEngine *e = *pe;
    if (!e)
        return;
    /* The workers first: they use the features; so does the GPU's
     * background work. */
    ff_vmaf_engine_frames_free(e);
    ff_vmaf_engine_free_recent(e);
    ff_vmaf_engine_gpu_wait_background(e);
    av_freep(&e->unpack_buf[0]);
    av_freep(&e->unpack_buf[1]);
    /* GPU twins release device memory: their context must be current. */
    ff_vmaf_engine_gpu_enter(e);
    for (int i = 0; i < e->nb_features; i++) {
        FFVmafFeature *f = e->features[i];
        if (e->configured && f->ex->close)
            f->ex->close(f);
        ff_vmaf_feature_free(&e->features[i]);
    }
    ff_vmaf_engine_gpu_leave(e);
    ff_vmaf_engine_free_gpu(e);
    ff_vmaf_engine_free_models(e);
    ff_vmaf_collector_free(&e->fc);
    av_dict_free(&e->nonfinite_keys);
    av_freep(&e->model_cfg);
    av_freep(&e->feature_cfg);
    av_freep(pe);
}

/* Close the first n features, initialised: free() skips them, the engine
 * not being configured. */
static void close_features(FFVmafEngine *e, int n)
{
    for (int j = 0; j < n; j++)
        if (e->features[j]->ex->close)
            e->features[j]->ex->close(e->features[j]);
}

int ff_vmaf_engine_configure(FFVmafEngine *e, const FFVmafGeometry *geo,
                             int n_threads, unsigned n_subsample)
{
    int ret;

    if (!e->nb_features) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Nothing to compute: no model and no feature enabled.\n");
        return AVERROR(EINVAL);
    }
    /* Only plain pictures are checked for samples above the depth
     * (ff_vmaf_engine_clamp()): stored any other way, 10- and 12-bit samples must
     * be high-bit-packed (P010, P012), which the unpack brings into range. */
    for (int w = 0; w < 2; w++) {
        if ((geo->bpc == 10 || geo->bpc == 12) &&
            (geo->chroma_layout[w] != FF_VMAF_CHROMA_PLANAR || geo->sample_shift[w]) &&
            geo->sample_shift[w] < 16 - geo->bpc) {
            av_log(e->log_ctx, AV_LOG_ERROR, "%d-bit %s samples stored with interleaved chroma "
                   "or shifted must be high-bit-packed (shifted by %d), not shifted by %d.\n",
                   geo->bpc, w ? "distorted" : "reference", 16 - geo->bpc, geo->sample_shift[w]);
            return AVERROR(EINVAL);
        }
    }
    e->geo  = *geo;
    e->step = n_subsample ? n_subsample : 1;
    /* Every feature as its CPU extractor first; a GPU twin then adds its
     * GPU side to that state (now, or mid-stream when the GPU start is
     * deferred), and the CPU extractor goes on with it if the GPU fails. */
    for (int i = 0; i < e->nb_features; i++) {
        FFVmafFeature *f = e->features[i];
        if (f->ex->init && (ret = f->ex->init(f, geo)) < 0) {
            ff_vmaf_engine_feature_failed(e, f->ex->name);
            close_features(e, i);
            return ret;
        }
    }
    if (!e->gpu_deferred && (ret = ff_vmaf_engine_setup_gpu(e)) < 0) {
        close_features(e, e->nb_features);
        return ret;
    }
    e->configured = 1;
    for (int i = 0; i < e->nb_features; i++)
        e->delay = FFMAX(e->delay, e->features[i]->frame_delay);
    for (int w = 0; w < 2; w++)
        if ((geo->chroma_layout[w] != FF_VMAF_CHROMA_PLANAR || geo->sample_shift[w]) &&
            !ff_vmaf_engine_unpack_buffer(e, &e->unpack_buf[w]))
            return AVERROR(ENOMEM);

    if (n_threads <= 0)
        n_threads = av_cpu_count();
    e->nb_threads_asked = n_threads;
    /* Before a deferred GPU start, the CPU's work is a short run's whole
     * score, or the first frames of a long one whose reading it must not
     * slow: a few threads (on a 16-core H200 host, medians of a 1,200-frame
     * 1080p run: 1.27 s with 2 threads, 1.29 s with 4, 1.45 s with 16; one
     * frame 160 ms with 4, 173 with 16: tools/results/gpu-cpu-first-h200.txt). */
    if (e->gpu_deferred)
        n_threads = FFMIN(n_threads, DEFERRED_GPU_THREADS);
    if (n_threads != 1 && ff_vmaf_engine_cpu_features(e)) {
        /* Whole frames in parallel: as many threads as asked, however few
         * features there are (with the GPU: for those on the CPU). */
        if ((ret = ff_vmaf_engine_frames_init(e, n_threads)) < 0)
            return ret;
        e->nb_threads = n_threads;
    } else {
        /* One thread, or every feature on the GPU. */
        e->nb_threads = 1;
    }
    return ff_vmaf_engine_configure_models(e);
}

int ff_vmaf_engine_nb_threads(const FFVmafEngine *e)
{
    return e->nb_threads;
}

int ff_vmaf_engine_needs_host_pixels(const FFVmafEngine *e)
{
    return !ff_vmaf_engine_gpu_reads_device(e) || ff_vmaf_engine_cpu_runs_on(e, e->nb_pushed);
}

int ff_vmaf_engine_keeps_frames(const FFVmafEngine *e)
{
    return !!e->frames;
}

static void free_held(AVFrame **hold, int nb_hold)
{
    for (int i = 0; i < nb_hold; i++)
        av_frame_free(&hold[i]);
}

int ff_vmaf_engine_push(FFVmafEngine *e, const FFVmafPicture *ref,
                        const FFVmafPicture *dis)
{
    FFVmafPicture copies[2];
    AVFrame *hold[2] = { NULL };
    int ret;

    /* Scored later: the caller may reuse its buffers once this returns. */
    if (e->frames && e->configured && !e->flushed) {
        if ((ret = ff_vmaf_engine_copy_picture(&hold[0], &copies[0], ref)) < 0 ||
            (ret = ff_vmaf_engine_copy_picture(&hold[1], &copies[1], dis)) < 0) {
            free_held(hold, 2);
            return ret;
        }
        return ff_vmaf_engine_push_frames(e, &copies[0], &copies[1], hold, 2);
    }
    return ff_vmaf_engine_push_frames(e, ref, dis, NULL, 0);
}

/* Score frame e->nb_pushed on this thread, the CPU's part before returning. */
static int push_now(FFVmafEngine *e, const FFVmafPicture *ref, const FFVmafPicture *dis)
{
    unsigned index = e->nb_pushed;
    FFVmafPicture views[2], clamped[2];
    int ret;

    /* The keys this push creates come after those of earlier frames, in
     * the order of the features, whichever thread writes first. */
    ff_vmaf_collector_set_step(e->fc, index);

    /* GPU work first, so that it runs while the CPU features compute. A
     * GPU failure moves the GPU twins to the CPU (with backend=auto), and
     * they then run below like the others. The GPU's copy clamps samples
     * above the depth's maximum as it is staged. */
    if (e->gpu && (ret = ff_vmaf_engine_gpu_queue(e, index, ref, dis)) < 0)
        return ret;
    /* The CPU's, only for a frame it scores: a pass over the whole frame. */
    clamped[0] = *ref;
    clamped[1] = *dis;
    if (ff_vmaf_engine_cpu_runs_on(e, index) &&
        ((ret = ff_vmaf_engine_clamp(e, 0, &e->unpack_buf[0], &clamped[0])) < 0 ||
         (ret = ff_vmaf_engine_clamp(e, 1, &e->unpack_buf[1], &clamped[1])) < 0))
        return ret;
    ref = &clamped[0];
    dis = &clamped[1];
    /* From here on, only the CPU reads the pictures (the GPU, if it failed
     * just now, too). */
    if (ref->on_device || dis->on_device || !ff_vmaf_picture_is_plain(ref) ||
        !ff_vmaf_picture_is_plain(dis)) {
        if (!ff_vmaf_engine_cpu_runs_on(e, index)) {
            ref = dis = NULL;
        } else if ((ret = ff_vmaf_engine_cpu_view(e, &e->unpack_buf[0], ref, &views[0], &ref)) < 0 ||
                   (ret = ff_vmaf_engine_cpu_view(e, &e->unpack_buf[1], dis, &views[1], &dis)) < 0) {
            return ret;
        }
    }

    /* Frame 0 runs in registration order on this thread (its GPU values
     * read back in their turn) so that output keys are created, and
     * logged, in the same order for any thread count and backend. */
    if (index == 0) {
        if ((ret = ff_vmaf_engine_gpu_wait_first(e)) < 0)
            return ret;
        for (int i = 0; i < e->nb_features; i++) {
            FFVmafFeature *f = e->features[i];
            if (f->ex->flags & FF_VMAF_EXTRACTOR_GPU)
                ret = ff_vmaf_engine_gpu_collect_feature(e, f, 0);
            else if (ff_vmaf_engine_runs_on(e, f, 0))
                ret = f->ex->extract(f, ref, dis, 0, e->fc);
            else
                ret = 0;
            if (ret < 0)
                return ret;
        }
        e->gpu_collected = e->gpu ? 1 : 0;
    } else {
        for (int i = 0; i < e->nb_features; i++) {
            FFVmafFeature *f = e->features[i];
            if (!(f->ex->flags & FF_VMAF_EXTRACTOR_GPU) && ff_vmaf_engine_runs_on(e, f, index) &&
                (ret = f->ex->extract(f, ref, dis, index, e->fc)) < 0)
                return ret;
        }
    }
    return 0;
}

int ff_vmaf_engine_push_frames(FFVmafEngine *e, const FFVmafPicture *ref,
                               const FFVmafPicture *dis, AVFrame **hold, int nb_hold)
{
    unsigned index = e->nb_pushed;
    int ret;

    if (!e->configured || e->flushed) {
        free_held(hold, nb_hold);
        return AVERROR(EINVAL);
    }
    /* The GPU, started later, reads the last frames again. */
    if (e->gpu_deferred)
        ff_vmaf_engine_keep_recent(e, index, ref, dis, hold, nb_hold);
    /* Frame 0 too: the keys take their place from (frame, feature), not
     * from which thread writes first. */
    if (e->frames) {
        ff_vmaf_collector_set_step(e->fc, index);
        /* The GPU's work is queued here, in order; the CPU's goes to the
         * workers, and the GPU's values of the previous frame are read
         * back while they compute. */
        if ((e->gpu && (ret = ff_vmaf_engine_gpu_queue(e, index, ref, dis)) < 0) ||
            (ret = ff_vmaf_engine_frames_push(e, ref, dis, hold, nb_hold)) < 0) {
            free_held(hold, nb_hold);
            return ret;
        }
    } else {
        int64_t t0 = av_gettime_relative();
        ret = push_now(e, ref, dis);
        free_held(hold, nb_hold);
        if (ret < 0)
            return ret;
        if (!e->gpu) {
            e->cpu_frame_us += av_gettime_relative() - t0;
            e->cpu_frames_timed++;
        }
    }
    e->nb_pushed++;
    /* Read back the frames that have run, without waiting for the GPU
     * unless the next frame needs a ring slot still unread: up to
     * FF_VMAF_GPU_SLOTS frames stay in flight. */
    if (e->gpu && (ret = ff_vmaf_engine_gpu_collect_ready(e, index)) < 0)
        return ret;
    return ff_vmaf_engine_score_models(e);
}

int ff_vmaf_engine_flush(FFVmafEngine *e)
{
    int ret;
    if (!e->configured || e->flushed)
        return 0;
    if (e->frames && (ret = ff_vmaf_engine_frames_drain(e)) < 0)
        return ret;
    ff_vmaf_collector_set_step(e->fc, e->nb_pushed);
    if (e->gpu && (ret = ff_vmaf_engine_gpu_collect(e, e->nb_pushed)) < 0)
        return ret;
    e->flushed = 1;
    for (int i = 0; i < e->nb_features; i++) {
        FFVmafFeature *f = e->features[i];
        if (f->ex->flush && (ret = f->ex->flush(f, e->fc)) < 0)
            return ret;
    }
    return ff_vmaf_engine_score_models(e);
}

unsigned ff_vmaf_engine_nb_pushed(const FFVmafEngine *e)
{
    return e->nb_pushed;
}

void ff_vmaf_engine_limit_frames(FFVmafEngine *e, unsigned n)
{
    e->frame_limit = n;
}

unsigned ff_vmaf_engine_nb_frames(const FFVmafEngine *e)
{
    return FFMIN(e->nb_pushed, e->frame_limit);
}

unsigned ff_vmaf_engine_nb_done(const FFVmafEngine *e)
{
    /* Not the workers' progress itself: frames they finished since the
     * models last ran have no score yet. */
    return e->nb_model_scored;
}

const FFVmafFeatureCollector *ff_vmaf_engine_results(const FFVmafEngine *e)
{
    return e->fc;
}

int ff_vmaf_engine_pool(FFVmafEngine *e, const char *key,
                        enum FFVmafPoolMethod method, double *result)
{
    int nb_keys = ff_vmaf_collector_nb_keys(e->fc);
    for (int k = 0; k < nb_keys; k++) {
        const char *name = ff_vmaf_collector_key(e->fc, k);
        if (!strcmp(name, key) || !strcmp(ff_vmaf_feature_alias(name), key)) {
            unsigned nb_frames = ff_vmaf_engine_nb_frames(e);
            int ret = ff_vmaf_pool(e->fc, k, method, ff_vmaf_engine_first_scored(e),
                                   FFMIN(nb_frames, e->win_end), e->step, result);
            if (ret >= 0)
                ff_vmaf_engine_check_pooled(e, k, method, nb_frames, *result);
            return ret;
        }
    }
    return AVERROR(ENOENT);
}

int ff_vmaf_engine_write_log(const FFVmafEngine *e, FILE *f,
                             enum FFVmafLogFormat fmt, double fps,
                             const char *pairing_mode, const FFVmafPairingStats *pairing)
{
    char backends[1024];
    FFVmafLogInfo info;

    if (fmt == FF_VMAF_LOG_CHUNK)
        return AVERROR_BUG;  /* ff_vmaf_engine_write_chunk()'s */
    /* libvmaf's formats number the frames of a run from its first. */
    if (e->chunk) {
        av_log(e->log_ctx, AV_LOG_ERROR, "A chunk of a run is logged in the chunk format "
               "only.\n");
        return AVERROR(EINVAL);
    }
    info = (FFVmafLogInfo) {
        .width     = e->geo.width,
        .height    = e->geo.height,
        .fps       = fps,
        .nb_frames = ff_vmaf_engine_nb_frames(e),
        .step      = e->step,
        .version   = FF_VMAF_REFERENCE_VERSION,
        .pairing_mode = pairing_mode,
        .pairing      = pairing,
    };
    if (e->gpu_name[0]) {
        ff_vmaf_engine_describe_backends(e, backends, sizeof(backends));
        info.backends = backends;
    }
    return ff_vmaf_write_log(f, fmt, e->fc, &info);
}
