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
 * The backend scheduler: when each frame pair of a stream is scored, and
 * where. It configures the engine, scores pairs as they come, holds them
 * (referenced AVFrames, no copy) while the GPU starts, and with backend
 * auto scores the stream's start on the CPU, then starts the GPU and moves
 * the features to it mid-stream, or keeps a short stream on the CPU.
 *
 * It uses only engine.h; its caller (the filter, a test) hands it every
 * distorted frame with its reference frame, and gets each back, in order,
 * with the engine's index of its scores.
 */

#ifndef AVFILTER_VMAF_SCHEDULER_H
#define AVFILTER_VMAF_SCHEDULER_H

#include <stdint.h>

#include "libavutil/frame.h"

#include "engine.h"
#include "picture.h"

typedef struct FFVmafScheduler FFVmafScheduler;

typedef struct FFVmafSchedulerOptions {
    enum FFVmafBackend backend;
    int device;                 ///< GPU device index
    int n_threads;              ///< CPU frame threads (0: one per core)
    unsigned n_subsample;       ///< score one frame in every n_subsample
    /** MiB of frames held at most while the GPU starts (0: wait for it). */
    int startup_buffer;
    /** backend auto: ms of the stream scored on the CPU before the GPU is
     * started (0: it starts with the scheduler). */
    int cpu_first;
} FFVmafSchedulerOptions;

typedef struct FFVmafSchedulerCallbacks {
    void *opaque;
    /**
     * Pair (dist, ref) is pushed now: fill pic[0] (the reference) and
     * pic[1] (the distorted picture), host[] if they need host views, and
     * hold[] (*nb_hold of FF_VMAF_MAX_HOLD) with the frames that own pixels
     * the engine reads after the push; the engine takes those over.
     */
    int (*pictures)(void *opaque, const AVFrame *dist, const AVFrame *ref,
                    FFVmafPicture *pic, FFVmafPicture *host, AVFrame **hold, int *nb_hold);
    /**
     * dist leaves the scheduler, in the order it came: scored as the
     * engine's frame index (its values final once ff_vmaf_engine_nb_done()
     * passes it), or -1, not scored: it had no reference frame (ref NULL),
     * or came after ff_vmaf_scheduler_flush(). dist is the callee's, even
     * on failure; it may call ff_vmaf_scheduler_flush().
     */
    int (*leave)(void *opaque, AVFrame *dist, const AVFrame *ref, int64_t index);
} FFVmafSchedulerCallbacks;

/** What the caller knows of its stream, given with each call (flags). */
#define FF_VMAF_SCHEDULER_INPUTS_ENDED  1   ///< no pair is coming
#define FF_VMAF_SCHEDULER_OUTPUT_ENDED  2   ///< the frames that leave are not wanted

/**
 * A scheduler for engine e, whose models and features are set; it starts
 * the GPU's warm-up when the options want the GPU from the start. e must
 * outlive it.
 */
int  ff_vmaf_scheduler_alloc(FFVmafScheduler **s, FFVmafEngine *e,
                             const FFVmafSchedulerOptions *opts,
                             const FFVmafSchedulerCallbacks *cb, void *log_ctx);
/** Frees the pairs still held, never scored nor handed back. */
void ff_vmaf_scheduler_free(FFVmafScheduler **s);

/**
 * Configure the engine for pictures of geo (after the engine's other
 * settings: hardware frames, GPU options), now or, while the GPU starts,
 * once it is ready or must be waited for.
 */
int  ff_vmaf_scheduler_configure(FFVmafScheduler *s, const FFVmafGeometry *geo);

/**
 * The next distorted frame, dist (the scheduler's from here on), and its
 * reference frame, ref (the caller's; NULL: none). A pair is scored now or
 * held; a frame without a pair waits for those held. Either way each frame
 * comes back through the leave callback, in order.
 */
int  ff_vmaf_scheduler_send(FFVmafScheduler *s, AVFrame *dist, const AVFrame *ref, int flags);
/** Score every pair held now, before anything else is sent. */
int  ff_vmaf_scheduler_release(FFVmafScheduler *s, int flags);
/** End of stream: the engine completes the last values; frames sent after pass unscored. */
int  ff_vmaf_scheduler_flush(FFVmafScheduler *s);

/** When the first pair came (av_gettime_relative()), 0 before. */
int64_t ff_vmaf_scheduler_start_time(const FFVmafScheduler *s);
/** The caller's thread's time scoring frames (us) and their number. */
void ff_vmaf_scheduler_busy(const FFVmafScheduler *s, int64_t *us, int64_t *nb);

#endif /* AVFILTER_VMAF_SCHEDULER_H */
