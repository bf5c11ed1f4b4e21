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
#include "engine_internal.h"
#include "feature.h"

int ff_vmaf_engine_alloc(FFVmafEngine **pe, void *log_ctx)
{
    FFVmafEngine *e = av_mallocz(sizeof(*e));
    int ret;
    if (!e)
        return AVERROR(ENOMEM);
    e->log_ctx = log_ctx;
    e->step    = 1;
    e->gpu_fail_at = -1;
    e->gpu_fail_collect_at = -1;
    e->frame_limit = UINT_MAX;
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
    av_freep(pe);
}

/* Same extractor and same output names: libvmaf keeps one instance. */
static FFVmafFeature *find_twin(FFVmafEngine *e, const FFVmafFeature *f)
{
    for (int i = 0; i < e->nb_features; i++)
        if (e->features[i]->ex == f->ex &&
            !strcmp(e->features[i]->suffix, f->suffix))
            return e->features[i];
    return NULL;
}

static int alloc_from_dict(FFVmafFeature **pf, const FFVmafExtractor *ex,
                           const AVDictionary *opts, void *log_ctx)
{
    const AVDictionaryEntry *t = NULL;
    int ret = ff_vmaf_feature_alloc(pf, ex, NULL, log_ctx);
    if (ret < 0)
        return ret;
    while ((t = av_dict_iterate(opts, t)))
        if ((ret = ff_vmaf_feature_set_option(*pf, t->key, t->value)) < 0) {
            ff_vmaf_feature_free(pf);
            return ret;
        }
    return 0;
}

/* Only options that do not rename outputs (debug, ...) can differ between
 * twins; one request turning such an option on turns it on for both. */
static void merge_into_twin(FFVmafFeature *twin, const FFVmafFeature *f)
{
    for (const FFVmafOption *o = f->ex->options; o && o->name; o++) {
        const int *src = (const int *)((const uint8_t *)f->priv + o->offset);
        int *dst = (int *)((uint8_t *)twin->priv + o->offset);
        if (o->is_param || o->type != FF_VMAF_OPT_BOOL)
            continue;
        if (*src != (int)o->def)
            *dst = *src;
    }
}

/*
 * libvmaf reports a feature it cannot set up with these words, and tools
 * that run FFmpeg's libvmaf filter (ffmpeg-quality-metrics) look for them
 * in its output: every such failure ends with this line, once, after the
 * message that says why.
 */
static void feature_failed(const FFVmafEngine *e, const char *what)
{
    av_log(e->log_ctx, AV_LOG_ERROR, "could not initialize feature extractor \"%s\"\n", what);
}

static int add_feature(FFVmafEngine *e, const char *name, const AVDictionary *opts,
                       FFVmafFeature **out)
{
    const FFVmafExtractor *ex = ff_vmaf_extractor_find(name);
    FFVmafFeature *f, *twin;
    int ret;

    if (!ex) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Unknown feature '%s'. Available features: %s.\n",
               name, ff_vmaf_extractor_names());
        return AVERROR(EINVAL);
    }
    if (e->configured)
        return AVERROR(EINVAL);
    if ((ret = alloc_from_dict(&f, ex, opts, e->log_ctx)) < 0)
        return ret;

    if ((twin = find_twin(e, f))) {
        merge_into_twin(twin, f);
        ff_vmaf_feature_free(&f);
        if (out)
            *out = twin;
        return 0;
    }
    if (e->nb_features == MAX_FEATURES) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Too many feature extractors (at most %d).\n", MAX_FEATURES);
        ff_vmaf_feature_free(&f);
        return AVERROR(EINVAL);
    }
    f->rank = e->nb_features;
    e->features[e->nb_features++] = f;
    if (out)
        *out = f;
    return 0;
}

int ff_vmaf_engine_add_feature_instance(FFVmafEngine *e, const char *name,
                                        const AVDictionary *opts,
                                        FFVmafFeature **out)
{
    int ret = add_feature(e, name, opts, out);
    if (ret < 0)
        feature_failed(e, name);
    return ret;
}

int ff_vmaf_engine_parse_list(FFVmafEngine *e, const char *list,
                              int (*add)(FFVmafEngine *e, const char *entry))
{
    char *copy, *saveptr = NULL, *entry;
    int ret = 0;

    if (!list || !*list)
        return 0;
    if (!(copy = av_strdup(list)))
        return AVERROR(ENOMEM);
    /* As libvmaf's filter: entries are split at '|'. */
    for (entry = av_strtok(copy, "|", &saveptr); entry && ret >= 0;
         entry = av_strtok(NULL, "|", &saveptr))
        ret = add(e, entry);
    av_free(copy);
    return ret;
}

/*
 * A feature entry without name=: the word it starts with when that is no
 * key=value pair (feature=psnr), else a key that is a feature's name
 * (feature=psnr=true), in word; 1 when that word is a feature's name.
 */
static int meant_feature(const char *spec, const AVDictionary *entry, char *word, size_t size)
{
    const AVDictionaryEntry *t = NULL;
    size_t n = strcspn(spec, "=:\\'");

    word[0] = 0;
    if (n && spec[n] != '=' && spec[n] != '\\' && spec[n] != '\'') {
        av_strlcpy(word, spec, FFMIN(n + 1, size));
        return !!ff_vmaf_extractor_find(word);
    }
    while ((t = av_dict_iterate(entry, t)))
        if (ff_vmaf_extractor_find(t->key)) {
            av_strlcpy(word, t->key, size);
            return 1;
        }
    return 0;
}

static int add_feature_entry(FFVmafEngine *e, const char *spec)
{
    AVDictionary *entry = NULL, *opts = NULL;
    const AVDictionaryEntry *name;
    char word[256] = "";
    int ret;

    /* key=value pairs at ':' with FFmpeg's usual backslash escaping. */
    ret  = av_dict_parse_string(&entry, spec, "=", ":", 0);
    name = ret < 0 ? NULL : av_dict_get(entry, "name", NULL, 0);
    if (!name && meant_feature(spec, entry, word, sizeof(word))) {
        /* A feature's name where name=<feature> was expected: say what to
         * write, not only what was wrong. */
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Feature entry '%s' has no name=<feature>: did you mean name=%s?\n",
               spec, word);
        feature_failed(e, word);
        ret = AVERROR(EINVAL);
    } else if (!name && word[0]) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Feature entry '%s' has no name=<feature>, and '%s' is not a feature. "
               "Available features: %s.\n", spec, word, ff_vmaf_extractor_names());
        feature_failed(e, word);
        ret = AVERROR(EINVAL);
    } else if (ret < 0) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Cannot parse '%s': expected key=value pairs separated by ':'.\n", spec);
        feature_failed(e, spec);
    } else if (!name) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "A feature entry needs name=<feature>. Available features: %s.\n",
               ff_vmaf_extractor_names());
        feature_failed(e, spec);
        ret = AVERROR(EINVAL);
    } else if ((ret = av_dict_copy(&opts, entry, 0)) < 0) {
        feature_failed(e, name->value);
    } else {
        av_dict_set(&opts, "name", NULL, 0);
        ret = ff_vmaf_engine_add_feature_instance(e, name->value, opts, NULL);
    }
    av_dict_free(&opts);
    av_dict_free(&entry);
    return ret;
}

int ff_vmaf_engine_parse_features(FFVmafEngine *e, const char *list)
{
    return ff_vmaf_engine_parse_list(e, list, add_feature_entry);
}

/* The scratch planes *buf, allocated the first time they are needed. */
static uint8_t *unpack_buffer(FFVmafEngine *e, uint8_t **buf)
{
    if (!*buf)
        *buf = av_malloc(ff_vmaf_picture_unpack_size(&e->geo));
    return *buf;
}

int ff_vmaf_engine_cpu_features(const FFVmafEngine *e)
{
    int n = 0;
    for (int i = 0; i < e->nb_features; i++)
        n += !(e->features[i]->ex->flags & FF_VMAF_EXTRACTOR_GPU);
    return n;
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
            feature_failed(e, f->ex->name);
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
            !unpack_buffer(e, &e->unpack_buf[w]))
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

int ff_vmaf_engine_is_scored(const FFVmafEngine *e, unsigned index)
{
    return index % e->step == 0;
}

int ff_vmaf_engine_runs_on(const FFVmafEngine *e, const FFVmafFeature *f, unsigned index)
{
    return ff_vmaf_engine_is_scored(e, index) ||
           (f->ex->flags & FF_VMAF_EXTRACTOR_EVERY_FRAME);
}

int ff_vmaf_engine_cpu_runs_on(const FFVmafEngine *e, unsigned index)
{
    for (int i = 0; i < e->nb_features; i++) {
        const FFVmafFeature *f = e->features[i];
        if (!(f->ex->flags & FF_VMAF_EXTRACTOR_GPU) && ff_vmaf_engine_runs_on(e, f, index))
            return 1;
    }
    return 0;
}

int ff_vmaf_engine_needs_host_pixels(const FFVmafEngine *e)
{
    return !ff_vmaf_engine_gpu_reads_device(e) || ff_vmaf_engine_cpu_runs_on(e, e->nb_pushed);
}

/*
 * A 10- or 12-bit picture with samples above (1 << bpc) - 1 is scored as
 * the picture clamped to that maximum, by the GPU and the CPU alike: no
 * decoder writes such samples (a raw file read with the wrong format can
 * hold them), libvmaf's result on them is undefined (its integer kernels
 * overflow), and every in-range picture is left untouched, bit for bit.
 * Only plain host pictures are looked at: the unpack of high-bit-packed
 * ones (P010...) shifts their samples into range, 8- and 16-bit samples
 * cannot exceed it, and hardware frames come in such formats only.
 */
int ff_vmaf_engine_clamp(FFVmafEngine *e, int which, uint8_t **buf, FFVmafPicture *pic)
{
    FFVmafPicture view;
    if (!ff_vmaf_picture_is_plain(pic) || !ff_vmaf_picture_out_of_range(pic, &e->geo))
        return 0;
    if (!unpack_buffer(e, buf))
        return AVERROR(ENOMEM);
    ff_vmaf_picture_clamp(&view, *buf, pic, &e->geo);
    *pic = view;
    ff_vmaf_engine_warn_clamped(e, which);
    return 0;
}

void ff_vmaf_engine_warn_clamped(FFVmafEngine *e, int which)
{
    if (!e->clamp_warned[which]) {
        av_log(e->log_ctx, AV_LOG_WARNING,
               "The %s picture of frame %u holds samples above %d, the largest %d-bit value: "
               "they are clamped to %d, here and in any later frame (a decoder never writes "
               "them; is the input's pixel format the right one?).\n",
               which ? "distorted" : "reference", e->nb_pushed, (1 << e->geo.bpc) - 1,
               e->geo.bpc, (1 << e->geo.bpc) - 1);
        e->clamp_warned[which] = 1;
    }
}

/* The picture as the CPU extractors read it: planar, low-bit, in host
 * memory (a device picture's host view, unpacked where needed). */
int ff_vmaf_engine_cpu_view(FFVmafEngine *e, uint8_t **buf, const FFVmafPicture *pic,
                            FFVmafPicture *view, const FFVmafPicture **out)
{
    if (pic->on_device) {
        if (!(pic = pic->host)) {
            av_log(e->log_ctx, AV_LOG_ERROR,
                   "Internal error: a hardware frame without its host copy.\n");
            return AVERROR_BUG;
        }
    }
    if (!ff_vmaf_picture_is_plain(pic)) {
        if (!unpack_buffer(e, buf))
            return AVERROR(ENOMEM);
        ff_vmaf_picture_unpack(view, *buf, pic, &e->geo);
        pic = view;
    }
    *out = pic;
    return 0;
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

int ff_vmaf_engine_copy_picture(AVFrame **out, FFVmafPicture *dst, const FFVmafPicture *src)
{
    size_t size[3] = { 0 }, total = 0;
    AVFrame *f;
    uint8_t *p;

    if (src->on_device)
        return AVERROR(ENOSYS);
    for (int i = 0; i < 3; i++)
        if (src->data[i]) {
            if (src->linesize[i] < 0)
                return AVERROR(ENOSYS);
            size[i] = (size_t)src->linesize[i] * ff_vmaf_picture_rows(src, i);
            total  += size[i];
        }
    if (!(f = av_frame_alloc()))
        return AVERROR(ENOMEM);
    if (!(f->buf[0] = av_buffer_alloc(total ? total : 1))) {
        av_frame_free(&f);
        return AVERROR(ENOMEM);
    }
    *dst = *src;
    p = f->buf[0]->data;
    for (int i = 0; i < 3; i++)
        if (src->data[i]) {
            memcpy(p, src->data[i], size[i]);
            dst->data[i] = p;
            p += size[i];
        }
    *out = f;
    return 0;
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
        ff_vmaf_engine_keep_recent(e, index, ref, dis);
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

unsigned ff_vmaf_engine_nb_features_done(const FFVmafEngine *e)
{
    unsigned n = e->frames ? ff_vmaf_engine_frames_completed(e) : e->nb_pushed;
    if (e->flushed)
        return e->nb_pushed;
    /* The GPU's values are read back a few frames late. */
    if (e->gpu)
        n = FFMIN(n, e->gpu_collected);
    return n > (unsigned)e->delay ? n - e->delay : 0;
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
            int ret = ff_vmaf_pool(e->fc, k, method, nb_frames, e->step, result);
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
    FFVmafLogInfo info = {
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
