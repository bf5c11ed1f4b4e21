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
 * The VMAF engine: a set of feature extractors and models over a stream of
 * (reference, distorted) picture pairs. It knows nothing of libavfilter, so
 * unit tests and fuzzers drive it directly.
 *
 * Usage: alloc, add features and models, configure with the geometry,
 * push pairs in order, flush at the end, read values from the collector,
 * pool, write logs, free.
 */

#ifndef AVFILTER_VMAF_ENGINE_H
#define AVFILTER_VMAF_ENGINE_H

#include "libavutil/frame.h"

#include "collector.h"
#include "output.h"
#include "picture.h"

typedef struct FFVmafEngine FFVmafEngine;

int  ff_vmaf_engine_alloc(FFVmafEngine **e, void *log_ctx);
void ff_vmaf_engine_free(FFVmafEngine **e);

/**
 * Enable features from the filter's feature option:
 * "name=psnr|name=vif:debug=true" ('|' between features). Instances whose
 * options give the same output names are merged, as in libvmaf.
 */
int ff_vmaf_engine_parse_features(FFVmafEngine *e, const char *list);

/**
 * Enable models from the filter's model option ('|' between models), each
 * "version=vmaf_v0.6.1:name=vmaf:disable_clip=true:enable_transform=true" or
 * "path=model.json", plus per-feature overrides "adm.adm_enhn_gain_limit=1".
 * Models pull in the features they need, with the model's options.
 */
int ff_vmaf_engine_parse_models(FFVmafEngine *e, const char *list);

/**
 * Check, once models and features are added, the names the results will
 * have, so that a clash is an error before the first frame: no two models
 * may write the same name, and no model a name that a feature writes (the
 * logs would hold two values under one name, and the score printed could
 * be the feature's). log_format (an FFVmafLogFormat, or -1 without a log)
 * adds that format's rules: XML writes names as attribute names, so each
 * must be a valid XML name; sub separates values with '|'. Errors name
 * what clashes; AVERROR(EINVAL).
 */
int ff_vmaf_engine_check_names(const FFVmafEngine *e, int log_format);

enum FFVmafBackend {
    FF_VMAF_BACKEND_AUTO,       ///< a GPU when one answers, else the CPU
    FF_VMAF_BACKEND_GPU,        ///< a GPU, or an error
    FF_VMAF_BACKEND_CPU,
};

/** Choose where features run; before configure. */
void ff_vmaf_engine_set_backend(FFVmafEngine *e, enum FFVmafBackend backend,
                                int device);
/**
 * Start opening GPU device on a thread, once per process (its runtime and
 * context take a quarter of a second), so that a later configure with a
 * GPU backend finds it ready.
 */
void ff_vmaf_engine_warm_up_gpu(int device);
/**
 * 1 when ff_vmaf_engine_configure() would now wait for the GPU to finish
 * starting (ff_vmaf_engine_warm_up_gpu()): a backend that may use it, a
 * feature with a GPU kernel, host frames, and the runtime still starting.
 * Call after ff_vmaf_engine_set_backend() and ff_vmaf_engine_set_cuda_frames().
 */
int  ff_vmaf_engine_gpu_starting(const FFVmafEngine *e);
/**
 * Score on the CPU from the start, the GPU to be started later, mid-stream,
 * by ff_vmaf_engine_start_gpu(): a short run then never loads the GPU's
 * runtime. Until then the engine keeps a copy of the last two pairs pushed
 * (the GPU reads them again). Before configure, after
 * ff_vmaf_engine_set_backend() and ff_vmaf_engine_set_cuda_frames(); no
 * effect with backend cpu or hardware frames.
 */
void ff_vmaf_engine_defer_gpu(FFVmafEngine *e);
/** Whether the GPU's start is deferred and has not happened yet. */
int  ff_vmaf_engine_gpu_deferred(const FFVmafEngine *e);
/**
 * Between two pushes, the GPU start deferred: move the features that have a
 * GPU kernel to the GPU from the next frame on (waiting for the GPU to
 * start, and for the CPU's frames in flight), their state that of the frames
 * the CPU scored, so that every value is the one a run on either would
 * give. When no GPU answers or it cannot be set up, everything stays on the
 * CPU (0 all the same).
 */
int  ff_vmaf_engine_start_gpu(FFVmafEngine *e);
/**
 * Between two pushes, the GPU start deferred: the rest of the stream stays
 * on the CPU (its inputs ended with little left to score), with the
 * threads configure was asked for rather than the few of the CPU's start.
 */
int  ff_vmaf_engine_finish_on_cpu(FFVmafEngine *e);
/**
 * While the GPU's start is deferred and its inputs have ended: the CPU's
 * next frames take the threads configure was asked for rather than the few
 * of the CPU's start, which were kept few not to slow the decoders. The GPU
 * may still start after.
 */
int  ff_vmaf_engine_cpu_all_threads(FFVmafEngine *e);
/**
 * About how long starting the GPU's runtime and context, and closing them
 * at exit, add to a process, in ms: what a stream must save to be worth
 * moving to the GPU.
 */
int  ff_vmaf_engine_gpu_start_cost_ms(void);
/**
 * The mean wall time, in us, of scoring a frame's CPU features on one
 * thread so far (frames in parallel: each frame's own); -1 before one was.
 */
int64_t ff_vmaf_engine_cpu_frame_us(const FFVmafEngine *e);
/** Frames [0, n) have every feature's value (the models may not have run). */
unsigned ff_vmaf_engine_nb_features_done(const FFVmafEngine *e);
/** Whether ff_vmaf_engine_push_frames() would now wait for frames in flight. */
int  ff_vmaf_engine_push_would_wait(const FFVmafEngine *e);
/** Tests: make the GPU path fail at frame index (-1: never). */
void ff_vmaf_engine_set_gpu_fail_at(FFVmafEngine *e, int64_t index);
/** Measure the GPU time of every frame (ff_vmaf_engine_gpu_busy()); before configure. */
void ff_vmaf_engine_set_gpu_timing(FFVmafEngine *e, int on);
/**
 * Run each GPU twin's work of a frame as a captured graph where the
 * platform has them (off by default: doc/gpu-speed.md says when they pay);
 * before configure.
 */
void ff_vmaf_engine_set_gpu_graphs(FFVmafEngine *e, int on);
/**
 * How the GPU twins' frames were queued so far: as captured graphs
 * (*graphs) or kernel by kernel (*direct), a twin's frame each.
 */
void ff_vmaf_engine_gpu_graph_runs(const FFVmafEngine *e, unsigned *graphs, unsigned *direct);
/**
 * Seconds of GPU time (each frame from its upload to its read-back copy,
 * summed) of the frames read back so far, and their number in *frames;
 * 0 without timing or GPU.
 */
double ff_vmaf_engine_gpu_busy(const FFVmafEngine *e, unsigned *frames);

/**
 * The pictures will come as hardware frames of this CUDA context (a
 * CUcontext) written on cu_stream (a CUstream, NULL: the default stream):
 * the GPU works in that context and reads them in place. Before configure.
 */
void ff_vmaf_engine_set_cuda_frames(FFVmafEngine *e, void *cu_ctx, void *cu_stream);
/** Whether the GPU reads device pictures (after configure). */
int  ff_vmaf_engine_gpu_reads_device(const FFVmafEngine *e);
/**
 * Whether the next frame's pictures must be readable on the host: a
 * device picture then needs its host view (a download).
 */
int  ff_vmaf_engine_needs_host_pixels(const FFVmafEngine *e);

/**
 * One line naming where each feature runs, e.g.
 * "adm, motion, vif: GPU (NVIDIA H200, CUDA); psnr: CPU".
 */
void ff_vmaf_engine_describe_backends(const FFVmafEngine *e, char *buf, size_t size);
/** Whether any feature runs on a GPU. */
int ff_vmaf_engine_uses_gpu(const FFVmafEngine *e);

/**
 * Initialise every extractor for pictures of geo. n_threads > 1 (0: one per
 * core) scores that many frames at once on the CPU, each on a thread of
 * its own.
 */
int ff_vmaf_engine_configure(FFVmafEngine *e, const FFVmafGeometry *geo,
                             int n_threads, unsigned n_subsample);

/**
 * Compute the next frame pair. The pictures are only read during the call
 * (when frames are scored in parallel, they are copied).
 */
int ff_vmaf_engine_push(FFVmafEngine *e, const FFVmafPicture *ref,
                        const FFVmafPicture *dis);

#define FF_VMAF_MAX_HOLD 4

/**
 * Compute the next frame pair, whose pixels (and host copies) belong to
 * the frames of hold[]: the engine takes them over, reads the pictures
 * until the pair is scored (later, when frames are scored in parallel)
 * and frees them then, or on failure. No pixel is copied.
 */
int ff_vmaf_engine_push_frames(FFVmafEngine *e, const FFVmafPicture *ref,
                               const FFVmafPicture *dis, AVFrame **hold, int nb_hold);

/**
 * Whether ff_vmaf_engine_push_frames() keeps the frames past the call
 * (frames in parallel): a caller that reuses a frame's buffer for the next
 * one (a download) must give it a new one instead.
 */
int ff_vmaf_engine_keeps_frames(const FFVmafEngine *e);

/** End of stream: complete the values of the last frames. */
int ff_vmaf_engine_flush(FFVmafEngine *e);

unsigned ff_vmaf_engine_nb_pushed(const FFVmafEngine *e);
/**
 * Pool and log frames [0, n) only (frames pushed after the last one that
 * left the filter, say); before the pooling and the log.
 */
void ff_vmaf_engine_limit_frames(FFVmafEngine *e, unsigned n);
/** Frames pooled and logged: those pushed, up to the limit. */
unsigned ff_vmaf_engine_nb_frames(const FFVmafEngine *e);
/** Frames [0, n) have all their values. */
unsigned ff_vmaf_engine_nb_done(const FFVmafEngine *e);
/** Whether frame index is scored (n_subsample) and so has values. */
int ff_vmaf_engine_is_scored(const FFVmafEngine *e, unsigned index);

/**
 * A run can be scored in chunks, each on its own (another process, another
 * machine), and merged (vmaf-merge): a chunk scores frames [start, end) of
 * the whole run and is pushed the frames around them whose state its
 * values depend on, so that its values are the whole run's, bit for bit.
 *
 * The frames a chunk needs around its own, for the features added (after
 * parsing; configure needs not have run): *before, the frames before its
 * first (motion's previous reference frame: at least 1 with motion);
 * *after, the frames after its last (motion2 needs the next frame's
 * motion), unless the run ends first.
 */
void ff_vmaf_engine_chunk_context(const FFVmafEngine *e, int *before, int *after);

/**
 * Score a chunk: the first pair pushed is frame first of the whole run
 * (counted from 0: n_subsample counts from there too), and only frames
 * [start, end) of the run are scored, pooled and logged (end < 0: to the
 * last pushed); the frames pushed around them only carry the features'
 * state, and get no value. Engine indices still count from 0 at the first
 * push. Before configure. AVERROR(EINVAL) when start < first or end <= start.
 */
int ff_vmaf_engine_set_chunk(FFVmafEngine *e, int64_t first, int64_t start, int64_t end);

/**
 * The last pair pushed is the last frame of the whole run (its inputs
 * ended), not a frame where the pushing stopped (a chunk's, or an output
 * that ended first): the chunk format says so, and how long the run is.
 */
void ff_vmaf_engine_mark_run_end(FFVmafEngine *e);

/** Frames scored among those pooled (n_subsample, a chunk's frames). */
unsigned ff_vmaf_engine_nb_scored(const FFVmafEngine *e);

const FFVmafFeatureCollector *ff_vmaf_engine_results(const FFVmafEngine *e);

int ff_vmaf_engine_nb_models(const FFVmafEngine *e);
/** Key of model i's score in the results ("vmaf" unless renamed). */
const char *ff_vmaf_engine_model_key(const FFVmafEngine *e, int i);

/**
 * Pool key (an output name, as written in logs) over the scored frames.
 * A result that is not a finite number is warned about, once per key.
 */
int ff_vmaf_engine_pool(FFVmafEngine *e, const char *key,
                        enum FFVmafPoolMethod method, double *result);

/** Write the log in one of libvmaf's formats (not FF_VMAF_LOG_CHUNK); fps
 *  is the measured scoring speed; pairing_mode and pairing (NULL: none)
 *  say how the frames were paired. */
int ff_vmaf_engine_write_log(const FFVmafEngine *e, FILE *f,
                             enum FFVmafLogFormat fmt, double fps,
                             const char *pairing_mode, const FFVmafPairingStats *pairing);
/** Write the chunk format (vmaf/chunk.h) of the frames pooled, the same
 *  arguments (engine_chunk.c). */
int ff_vmaf_engine_write_chunk(const FFVmafEngine *e, FILE *f, double fps,
                               const char *pairing_mode, const FFVmafPairingStats *pairing);

/** Threads actually used (after configure). */
int ff_vmaf_engine_nb_threads(const FFVmafEngine *e);

#endif /* AVFILTER_VMAF_ENGINE_H */
