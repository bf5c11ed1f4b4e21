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
 * The GPU side of the engine: a ring of frame slots, each holding the
 * reference and distorted planes of one frame in page-locked host memory
 * and on the device. A frame pair is uploaded once; every GPU extractor
 * queues its kernels on a lane of its own (a stream), writes its results
 * to the slot's results region, and the region is read back
 * asynchronously once every lane has run the frame. Everything is
 * allocated at configuration and freed at close.
 */

#ifndef AVFILTER_VMAF_GPU_VMAF_GPU_H
#define AVFILTER_VMAF_GPU_VMAF_GPU_H

#include <stdatomic.h>

#include "libavutil/thread.h"

#include "libavfilter/vmaf/picture.h"
#include "libavfilter/vmaf/picture_dsp.h"

#include "code_object.h"
#include "gpu_runtime.h"

/**
 * Frames that can be in flight: the one being queued, up to
 * FF_VMAF_GPU_SLOTS - 1 earlier ones still running or waiting to be read
 * back (the engine reads a frame back once it has run, and must before its
 * slot is reused).
 */
#define FF_VMAF_GPU_SLOTS 6

/**
 * How many frames back a twin may read the ring's planes (frame index -
 * 2 at most: motion's five-frame window); the upload into a slot waits
 * for the frames that may still read its previous picture.
 */
#define FF_VMAF_GPU_LOOKBACK 2

/** A copy into page-locked memory, made by the staging threads. */
typedef struct FFVmafGpuStaged {
    uint8_t *dst;
    const uint8_t *src;
    ptrdiff_t linesize;
    size_t row, rows;
    int which;                  ///< the picture: 0 reference, 1 distorted
    unsigned max;               ///< 16-bit samples clamped to this; 0: a plain copy
} FFVmafGpuStaged;

struct AVSliceThread;

/** Code objects and device allocations a ring can own. */
#define FF_VMAF_GPU_MAX_MODULES 16
#define FF_VMAF_GPU_MAX_BUFFERS 64
/** Lanes (streams) for the twins; more twins than this share them. */
#define FF_VMAF_GPU_MAX_LANES 12

/** Graphs a ring keeps: a twin's work of a frame repeats with the ring's period. */
#define FF_VMAF_GPU_MAX_GRAPHS 128
/** Recent works' hashes, to capture only work that comes again. */
#define FF_VMAF_GPU_SEEN 256

typedef struct FFVmafGpuGraph {
    FFGpuWork work;             ///< what it was captured from
    FFGpuGraph exec;
} FFVmafGpuGraph;

/** Threads of the ring (none: the caller alone) and the jobs they run. */
typedef struct FFVmafGpuPool {
    struct AVSliceThread *threads;
    void (*job)(void *priv, int job, int nb_jobs);
    void *priv;
} FFVmafGpuPool;

typedef struct FFVmafGpu {
    FFGpu *gpu;
    FFGpuStream stream;         ///< the frames' read-backs, in frame order; set-up work
    FFGpuStream upload_stream;  ///< host pictures' uploads and results' zeroing, beside the kernels
    /**
     * The twins' lanes. A twin's frames run in order on its lane (its
     * intermediates are one set), but the lanes run beside each other: a
     * frame's twins at once, and one twin's next frame beside another's
     * slower one. Each lane waits for the frame's upload (slot.uploaded);
     * the read-back on stream waits for every lane that ran the frame.
     */
    FFGpuStream lanes[FF_VMAF_GPU_MAX_LANES];
    FFGpuEvent  lane_done[FF_VMAF_GPU_MAX_LANES];
    int nb_lanes, nb_twins;
    FFGpuStream queue;          ///< where the twin being queued launches: its lane, or stream
    void *log_ctx;
    FFVmafGeometry geo;
    int nb_planes;              ///< 1: luma only; 3 when a GPU feature reads chroma
    int bytes;                  ///< per sample
    int w[3], h[3];             ///< what the features read: chroma rounded down, as libvmaf
    /**
     * What the planes hold: chroma rounded up, as FFmpeg stores it, since
     * ciede reads the last column and row of odd-sized subsampled frames.
     */
    int stored_w[3], stored_h[3];
    size_t plane_size[3];       ///< packed: pitch = stored_w * bytes
    size_t frame_size;          ///< all planes of one picture
    size_t slot_size;           ///< a slot's bytes, host and device alike

    /**
     * Sources that are not planar low-bit (NV12, P010...) are uploaded as
     * they are, raw_size bytes a picture, and unpacked on the device.
     */
    int plain[2];               ///< per picture: [0] reference, [1] distorted
    int src_planes[2];          ///< planes of such a source: 2 when interleaved
    size_t raw_pitch[2][3], raw_rows[2][3], raw_size[2];
    FFGpuFunction unpack;       ///< vmaf_unpack_8 or _16; NULL when nothing needs it

    /* Hardware frames (on_device pictures): unpacked on copy_stream after
     * the frames' own stream, which the host then waits for alone, so the
     * frames can be released as soon as push returns. */
    FFGpuStream copy_stream;
    FFGpuStream src_stream;     ///< the frames' stream; NULL: the default stream
    FFGpuEvent  src_ready;
    int nb_device_pictures;     ///< counted; the ring has no host copy of these

    /* What the twins share, loaded or allocated once and freed with the
     * ring: code objects by FFVmafGpuCode, device buffers, and the per-frame
     * results, one region per slot that is zeroed with the frame's upload
     * and read back with one copy after its last kernel. */
    struct {
        const FFVmafGpuCode *code;
        FFGpuModule module;
    } modules[FF_VMAF_GPU_MAX_MODULES];
    int nb_modules;
    FFGpuPtr buffers[FF_VMAF_GPU_MAX_BUFFERS];
    int nb_buffers;
    size_t results_size;        ///< bytes reserved per frame
    FFGpuPtr results_dev;       ///< FF_VMAF_GPU_SLOTS * results_size
    uint8_t *results_host;      ///< page-locked, the same layout

    /* The copies of host pictures into the slot, made by nb_stagers
     * threads (the caller's among them); the twins' host work between
     * frames, through ff_vmaf_gpu_parallel(), on the same threads. */
    FFVmafGpuPool stagers;
    FFVmafPictureDSPContext pdsp;
    int nb_stagers;

    /* Host work behind the caller's back (ff_vmaf_gpu_background()): a
     * thread of the ring's, and threads of its own for
     * ff_vmaf_gpu_parallel() called from it, so that it runs beside the
     * staging. Started at its first use. */
    pthread_t bg_thread;
    int bg_started;
    AVMutex bg_lock;
    AVCond bg_cond;
    void (*bg_fn)(void *priv);  ///< the work posted, NULL once done
    void *bg_priv;
    int bg_quit;
    FFVmafGpuPool bg_pool;

    /*
     * Captured graphs (ff_vmaf_gpu_set_graphs()): a twin's launches of a
     * frame are recorded between lane_begin and lane_end; work equal to
     * work captured before (the same kernels, grids and argument bytes)
     * runs as that graph, with one call; other work runs as queued, and is
     * captured when its hash was seen before.
     */
    int graphs;
    int recording;
    FFVmafGpuGraph graph[FF_VMAF_GPU_MAX_GRAPHS];
    int nb_graphs;
    FFGpuWork work;
    uint64_t seen[FF_VMAF_GPU_SEEN];
    unsigned nb_seen;
    unsigned graph_runs, direct_runs; ///< a twin's frame each
    int64_t capture_us;         ///< host time capturing the graphs

    FFVmafGpuStaged staged[8];
    int nb_staged;
    /** After an upload: bit w set when picture w had samples above the depth's maximum. */
    atomic_uint clamped;

    /* Host time of the filter thread in the staging copies (us, all frames). */
    int64_t stage_us;

    /*
     * GPU time from each frame's upload to its last copy, once read back;
     * frames overlap on the lanes, so a frame counts only from the end of
     * the one before (frames end in order). Their ends are events of their
     * own, kept one frame longer than a slot (a slot is reused before the
     * next frame is read back).
     */
    int timing;
    double busy;
    unsigned nb_timed;
    FFGpuEvent ends[FF_VMAF_GPU_SLOTS + 1];
    int64_t last_timed;         ///< the last frame counted, -1: none

    struct {
        uint8_t   *host;        ///< ref planes, dis planes, then the raw copies of each
        FFGpuPtr   dev;         ///< the same layout
        FFGpuEvent done;        ///< recorded after the frame's last kernel and copy
        FFGpuEvent begin;       ///< where its kernels may start, when timing
        FFGpuEvent uploaded;    ///< its pictures are on the device, its results zeroed
        FFGpuEvent unpacked;    ///< hardware frames read
        int64_t    index;       ///< frame in this slot, -1 if none
        int        raw;         ///< bit w: picture w's host copy is raw, not planes yet
        int        from_device; ///< a picture came from a hardware frame: no host copy
        int        timed;       ///< its GPU time is counted
    } slot[FF_VMAF_GPU_SLOTS];
} FFVmafGpu;

/**
 * Open GPU `device` and allocate the ring for pictures of geo.
 * AVERROR(ENODEV) when no GPU answers. With cu_ctx (a CUcontext), work in
 * that context instead, the one hardware frames live in, whose stream
 * cu_stream (NULL: the default stream) writes them. max_threads > 0: the
 * pictures are staged on that many threads at most, the caller's included
 * (n_threads); 0: as many as help.
 */
int  ff_vmaf_gpu_alloc(FFVmafGpu **g, int device, void *cu_ctx, void *cu_stream,
                       const FFVmafGeometry *geo, int nb_planes, int max_threads,
                       void *log_ctx);
void ff_vmaf_gpu_free(FFVmafGpu **g);

/**
 * Stage and upload frame index (waits if its slot is still in use); device
 * pictures are read in place, and are no longer needed when this returns.
 */
int ff_vmaf_gpu_upload(FFVmafGpu *g, unsigned index, const FFVmafPicture *ref,
                       const FFVmafPicture *dis);

/** Device address of a plane of frame index (which: 0 ref, 1 dis); pitch = w * bytes. */
FFGpuPtr ff_vmaf_gpu_plane(const FFVmafGpu *g, unsigned index, int which, int plane);
/**
 * Host copy of the same plane (page-locked), valid while the frame is in its
 * slot, after ff_vmaf_gpu_host_copies_planar().
 */
const uint8_t *ff_vmaf_gpu_host_plane(const FFVmafGpu *g, unsigned index, int which, int plane);
/**
 * Whether frame index is in its slot (uploaded, not yet replaced): a ring
 * made in the middle of a stream holds none of the frames before it until
 * they are uploaded again.
 */
int ff_vmaf_gpu_holds(const FFVmafGpu *g, unsigned index);
/**
 * Before the CPU takes over: turn the raw host copies of the frames in the
 * ring into planes. AVERROR(ENOSYS) when a frame came from hardware frames
 * (the ring has no host copy of it).
 */
int ff_vmaf_gpu_host_copies_planar(FFVmafGpu *g);
int ff_vmaf_gpu_slot(unsigned index);

/**
 * GPU twins' helpers. Everything a twin gets here belongs to the ring and
 * is freed with it, so a twin has nothing of its own to release.
 */
/** Look up names[] (NULL-terminated) in code; the code object is loaded once a ring. */
int ff_vmaf_gpu_functions(FFVmafGpu *g, const FFVmafGpuCode *code,
                          const char *const *names, FFGpuFunction *fns);
/** Device memory for the twin's intermediates, kept until the ring is freed. */
int ff_vmaf_gpu_buffer(FFVmafGpu *g, FFGpuPtr *p, size_t size);
/** A device copy of size bytes of host constants (src may go once this returns). */
int ff_vmaf_gpu_constants(FFVmafGpu *g, FFGpuPtr *p, const void *src, size_t size);
/**
 * At init: reserve size bytes of per-frame results, zeroed before each
 * frame's kernels and read back after them. Returns their offset.
 */
size_t ff_vmaf_gpu_reserve(FFVmafGpu *g, size_t size);
/** Once every twin has reserved: allocate the results of every slot. */
int ff_vmaf_gpu_results_alloc(FFVmafGpu *g);
/** Frame index's results at offset: on the device, for the kernels... */
FFGpuPtr ff_vmaf_gpu_results(const FFVmafGpu *g, unsigned index, size_t offset);
/** ...and on the host, for collect(), once the frame has run. */
const void *ff_vmaf_gpu_results_host(const FFVmafGpu *g, unsigned index, size_t offset);
/**
 * At init, once a twin is set up: the lane its kernels will be queued on
 * (>= 0), or an error. Its set-up work, on g->stream, is finished before
 * the first frame (ff_vmaf_gpu_results_alloc()).
 */
int ff_vmaf_gpu_add_lane(FFVmafGpu *g);
/**
 * Around a twin's extract() of frame index: its launches go to the lane
 * (g->queue), after the frame's upload, and the frame's read-back waits
 * for them. lane_end() also when extract() failed.
 */
int ff_vmaf_gpu_lane_begin(FFVmafGpu *g, int lane, unsigned index);
int ff_vmaf_gpu_lane_end(FFVmafGpu *g, int lane);
/**
 * Launch fn on the queue (the twin's lane) over a w x h grid of outputs in bx x by blocks,
 * at most max_gy blocks down (0: no limit); nothing for an empty grid.
 */
int ff_vmaf_gpu_launch_2d(FFVmafGpu *g, FFGpuFunction fn, const char *name, int w, int h,
                          unsigned bx, unsigned by, unsigned max_gy, void **args);
/** Bytes from one row of plane p to the next in the ring (kernels take it). */
size_t ff_vmaf_gpu_pitch(const FFVmafGpu *g, int plane);

/**
 * Run each twin's work of a frame as a captured graph where the platform
 * has them (CUDA), from the next frame on: one call instead of a call per
 * kernel. Returns 1 when on.
 */
int ff_vmaf_gpu_set_graphs(FFVmafGpu *g, int on);

/** Everything for frame index is queued. */
int ff_vmaf_gpu_frame_queued(FFVmafGpu *g, unsigned index);
/** Wait until everything queued for frame index has run. */
int ff_vmaf_gpu_frame_wait(FFVmafGpu *g, unsigned index);
/** 1 when frame index has run, 0 if not yet (< 0: error). */
int ff_vmaf_gpu_frame_ready(FFVmafGpu *g, unsigned index);
/** Count the GPU time of every frame (busy, nb_timed), from the next upload on. */
int ff_vmaf_gpu_enable_timing(FFVmafGpu *g);

/**
 * Run fn(priv, j, nb_jobs) for every j in [0, nb_jobs) on the ring's
 * threads (the caller's among them) and return when all have: for a
 * twin's host work in collect(), which the caller's thread would
 * otherwise do alone. At most ff_vmaf_gpu_nb_threads() run at once.
 */
void ff_vmaf_gpu_parallel(FFVmafGpu *g, void (*fn)(void *priv, int job, int nb_jobs),
                          void *priv, int nb_jobs);
int  ff_vmaf_gpu_nb_threads(const FFVmafGpu *g);

/**
 * Run fn(priv) on the ring's background thread and return at once, after
 * the work posted before has finished (ff_vmaf_gpu_background_wait()).
 * ff_vmaf_gpu_parallel() called from fn runs on threads of the
 * background's own. fn must not use the GPU. A negative error when no
 * thread could be started: the caller runs fn itself.
 */
int  ff_vmaf_gpu_background(FFVmafGpu *g, void (*fn)(void *priv), void *priv);
/** Wait until the work posted to the background thread has finished. */
void ff_vmaf_gpu_background_wait(FFVmafGpu *g);

#endif /* AVFILTER_VMAF_GPU_VMAF_GPU_H */
