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
 * The engine's state and its internal layers, from the bottom up:
 * engine_state.c (what scoring a pair asks of the state), engine_features.c
 * (the features of a run), engine_frames.c (frames in parallel on the CPU),
 * engine_gpu.c (the GPU twins), engine_model.c (the models), and engine.c,
 * the API of engine.h on top. A file calls only those below it.
 */

#ifndef AVFILTER_VMAF_ENGINE_STATE_H
#define AVFILTER_VMAF_ENGINE_STATE_H

#include <stdio.h>

#include "libavutil/dict.h"
#include "libavutil/frame.h"

#include "collector.h"
#include "engine.h"
#include "feature.h"

/** The libvmaf release whose numbers the engine reproduces. */
#define FF_VMAF_REFERENCE_VERSION "3.2.0"

#define MAX_FEATURES 64
#define MAX_MODELS   8
/** Pairs kept for a GPU started mid-stream: at least FF_VMAF_GPU_LOOKBACK. */
#define RECENT_PAIRS 2
/** Frame threads at most while the GPU's start is deferred. */
#define DEFERRED_GPU_THREADS 4

struct FFVmafEngine {
    void *log_ctx;
    FFVmafGeometry geo;
    FFVmafFeatureCollector *fc;

    FFVmafFeature *features[MAX_FEATURES];
    int nb_features;
    int delay;                  ///< max frame_delay of the features

    struct EngineModel *models[MAX_MODELS];
    int nb_models;
    unsigned nb_model_scored;   ///< frames [0, n) have model scores

    unsigned step;              ///< n_subsample
    unsigned nb_pushed;
    unsigned frame_limit;       ///< frames [0, n) are pooled and logged (UINT_MAX: all)
    int configured, flushed;

    /*
     * A chunk of a longer run (ff_vmaf_engine_set_chunk()): the first pair
     * pushed is frame chunk_first of the whole run, and only the frames
     * [win_start, win_end) (engine indices, from 0 at the first push) are
     * scored; those around them carry the temporal features' state. A
     * whole run: 0, 0 and UINT_MAX.
     */
    int chunk;
    uint64_t chunk_first;
    unsigned win_start, win_end;
    /** The last pair pushed is the whole run's last (its inputs ended). */
    int run_ended;
    /** The model and feature options parsed, as given: a chunk's file
     *  names them, so that chunks of other options are not merged. */
    char *model_cfg, *feature_cfg;

    /* GPU backend (engine_gpu.c) */
    enum FFVmafBackend backend;
    int device;
    struct FFVmafGpu *gpu;      ///< NULL when nothing runs on the GPU
    unsigned gpu_collected;     ///< GPU values of frames [0, n) are written
    /** Features (bit i: features[i]) whose collect of frame gpu_collected
     * wrote its values before another's failed: the CPU goes on from the
     * next frame for them. */
    uint64_t gpu_collected_by;
    unsigned gpu_staged;        ///< 1 + the frame whose collect stages run in the background; 0: none
    char gpu_name[256];
    int64_t gpu_fail_at;        ///< tests: make the GPU fail at this frame (-1: never)
    /** tests: make the collect of this frame's last GPU twin fail, after the
     * others wrote their values (-1: never) */
    int64_t gpu_fail_collect_at;
    int gpu_timing;             ///< measure the GPU time of each frame
    int gpu_graphs;             ///< run the twins' work as captured graphs where possible
    unsigned gpu_graph_runs, gpu_direct_runs; ///< of a ring freed
    double gpu_busy;            ///< of a ring freed by a fall back to the CPU
    unsigned gpu_timed;
    /* The calling thread's time in the GPU path (us), for the verbose log. */
    int64_t gpu_stage_us, gpu_queue_us, gpu_collect_us, gpu_wait_us;
    unsigned gpu_queued;
    void *cu_ctx, *cu_stream;   ///< hardware frames' CUDA context and stream, or NULL
    /*
     * The GPU is started mid-stream (ff_vmaf_engine_start_gpu()): until
     * then every feature runs on the CPU, and the last RECENT_PAIRS pairs
     * pushed are kept (references to the frames held for the workers, or
     * copies), for the ring to upload again.
     */
    int gpu_deferred;
    struct {
        AVFrame *hold[FF_VMAF_MAX_HOLD];
        int nb_hold;
        FFVmafPicture pic[2];
        int64_t index;          ///< -1: none
    } recent[RECENT_PAIRS];
    int recent_failed;          ///< a pair could not be kept: the GPU is not started

    /* Pictures the CPU extractors cannot read as they are (NV12, P010...)
     * are unpacked here first: ref, then dis. */
    uint8_t *unpack_buf[2];
    /* Pictures with samples above the depth's maximum are clamped into
     * unpack_buf (which a plain picture does not use otherwise); each input
     * warns the first time. */
    int clamp_warned[2];
    /* Keys whose values that are not finite numbers were reported
     * (engine_nonfinite.c). */
    AVDictionary *nonfinite_keys;

    /* Frames in parallel (engine_frames.c); NULL: one frame at a time, on
     * the caller's thread. */
    struct EngineFrames *frames;
    int nb_threads;
    int nb_threads_asked;       ///< configure's (0 there: one per core)
    /** Wall time of the frames scored on the CPU, and their count (the
     * workers' under frames->lock): ff_vmaf_engine_cpu_frame_us(). */
    int64_t cpu_frame_us;
    unsigned cpu_frames_timed;
};

/* Features (engine_features.c). */
/** Log libvmaf's words for a feature that cannot be set up. */
void ff_vmaf_engine_feature_failed(const FFVmafEngine *e, const char *what);
int ff_vmaf_engine_add_feature_instance(FFVmafEngine *e, const char *name,
                                        const AVDictionary *opts,
                                        FFVmafFeature **out);

/** Split list at '|' (libvmaf's filter syntax) and call add with each entry. */
int ff_vmaf_engine_parse_list(FFVmafEngine *e, const char *list,
                              int (*add)(FFVmafEngine *e, const char *entry));

int  ff_vmaf_engine_configure_models(FFVmafEngine *e);
/** How many features run on the CPU. */
int  ff_vmaf_engine_cpu_features(const FFVmafEngine *e);
/** A copy of a host picture's planes (chroma rounded up, ff_vmaf_picture_rows()), held by
 * an AVFrame (ENOSYS: a device picture, or bottom-up). */
int  ff_vmaf_engine_copy_picture(AVFrame **out, FFVmafPicture *dst, const FFVmafPicture *src);
/** While the GPU start is deferred: keep pair index, by reference when its
 * pictures lie in the frames held (hold), else as a copy (engine_gpu.c). */
void ff_vmaf_engine_keep_recent(FFVmafEngine *e, unsigned index, const FFVmafPicture *ref,
                                const FFVmafPicture *dis, AVFrame *const *hold, int nb_hold);
void ff_vmaf_engine_free_recent(FFVmafEngine *e);

/* The pictures as the CPU extractors read them (engine_state.c). *buf is
 * the scratch of the frame, allocated the first time it is needed. */
uint8_t *ff_vmaf_engine_unpack_buffer(FFVmafEngine *e, uint8_t **buf);
int  ff_vmaf_engine_clamp(FFVmafEngine *e, int which, uint8_t **buf, FFVmafPicture *pic);
int  ff_vmaf_engine_cpu_view(FFVmafEngine *e, uint8_t **buf, const FFVmafPicture *pic,
                             FFVmafPicture *view, const FFVmafPicture **out);

typedef struct EngineFrames EngineFrames;
/* Workers for the frames from e->nb_pushed on (room for
 * e->nb_threads_asked of them, set first). */
int      ff_vmaf_engine_frames_init(FFVmafEngine *e, int nb_threads);
/* More workers, up to e->nb_threads_asked, beside those running: no frame
 * in flight waits. */
int      ff_vmaf_engine_frames_grow(FFVmafEngine *e, int nb_threads);
void     ff_vmaf_engine_frames_free(FFVmafEngine *e);
/* Queues the frame; takes over hold[] only when it succeeds. */
int      ff_vmaf_engine_frames_push(FFVmafEngine *e, const FFVmafPicture *ref,
                                    const FFVmafPicture *dis, AVFrame **hold, int nb_hold);
int      ff_vmaf_engine_frames_drain(FFVmafEngine *e);
/* Whether the next frame's slot is still in use (a push would wait). */
int      ff_vmaf_engine_frames_full(const FFVmafEngine *e);
/* A GPU twin turned CPU extractor (no frame in flight): the workers run it
 * from frame index on. */
void     ff_vmaf_engine_frames_cpu_from(FFVmafEngine *e, const FFVmafFeature *f, unsigned index);
unsigned ff_vmaf_engine_frames_completed(const FFVmafEngine *e);

/** The first frame scored (n_subsample, a chunk's first frame). */
unsigned ff_vmaf_engine_first_scored(const FFVmafEngine *e);

/** Whether a feature that runs on the CPU scores frame index. */
int  ff_vmaf_engine_cpu_runs_on(const FFVmafEngine *e, unsigned index);
/** Warn, once per input, that picture which held samples above the depth's maximum. */
void ff_vmaf_engine_warn_clamped(FFVmafEngine *e, int which);

/**
 * Move the instances that have a GPU twin to the GPU, if one answers, from
 * frame nb_pushed on (their CPU extractors initialised, and run on the
 * frames before).
 */
int  ff_vmaf_engine_setup_gpu(FFVmafEngine *e);
/** Upload frame index and queue the GPU twins' work for it. */
int  ff_vmaf_engine_gpu_queue(FFVmafEngine *e, unsigned index,
                              const FFVmafPicture *ref, const FFVmafPicture *dis);
/** Write the GPU twins' values of frames before `end`. */
int  ff_vmaf_engine_gpu_collect(FFVmafEngine *e, unsigned end);
/** Wait for the collect stages running in the background, if any (before the twins close). */
void ff_vmaf_engine_gpu_wait_background(FFVmafEngine *e);
/**
 * After frame `queued` was queued: write the values of the frames that
 * have run, without waiting, and of those whose ring slot the next frame
 * needs, waiting if they have not.
 */
int  ff_vmaf_engine_gpu_collect_ready(FFVmafEngine *e, unsigned queued);
/** Wait for frame 0 on the GPU (falling back to the CPU if that fails). */
int  ff_vmaf_engine_gpu_wait_first(FFVmafEngine *e);
/** Write one GPU twin's values of frame index, which has run. */
int  ff_vmaf_engine_gpu_collect_feature(FFVmafEngine *e, FFVmafFeature *f, unsigned index);
void ff_vmaf_engine_free_gpu(FFVmafEngine *e);
/** Make the GPU current on this thread, if there is one (0 otherwise). */
int  ff_vmaf_engine_gpu_enter(FFVmafEngine *e);
void ff_vmaf_engine_gpu_leave(FFVmafEngine *e);
int  ff_vmaf_engine_runs_on(const FFVmafEngine *e, const FFVmafFeature *f, unsigned index);
int  ff_vmaf_engine_score_models(FFVmafEngine *e);
void ff_vmaf_engine_free_models(FFVmafEngine *e);

struct FFVmafModel;

/*
 * Warn, once per key, about values that are not finite numbers: a model's
 * outputs for frame index (with its inputs, which name the cause), every
 * value of frame index once its values are final, a pooled value.
 */
void ff_vmaf_engine_check_model(FFVmafEngine *e, const struct FFVmafModel *m, unsigned index,
                                const double *inputs, const char (*input_keys)[256],
                                const double *outputs);
void ff_vmaf_engine_check_frame(FFVmafEngine *e, unsigned index);
void ff_vmaf_engine_check_pooled(FFVmafEngine *e, int key_idx, enum FFVmafPoolMethod method,
                                 unsigned nb_frames, double v);

#endif /* AVFILTER_VMAF_ENGINE_STATE_H */
