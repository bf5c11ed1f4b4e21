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
 * The GPU side of the engine: one stream, and a ring of frame slots, each
 * holding the reference and distorted planes of one frame in page-locked
 * host memory and on the device. A frame pair is uploaded once; every GPU
 * extractor runs its kernels on it in stream order, writes its results to
 * its own per-slot buffers and reads them back asynchronously. Everything
 * is allocated at configuration and freed at close.
 */

#ifndef AVFILTER_HIP_VMAF_GPU_H
#define AVFILTER_HIP_VMAF_GPU_H

#include "libavfilter/vmaf/picture.h"

#include "gpu_runtime.h"

/** Frames that can be in flight: the one being queued, the one being read back, slack. */
#define FF_VMAF_GPU_SLOTS 4

typedef struct FFVmafGpu {
    FFGpu *gpu;
    FFGpuStream stream;
    void *log_ctx;
    FFVmafGeometry geo;
    int nb_planes;              ///< 1: luma only; 3 when a GPU feature reads chroma
    int bytes;                  ///< per sample
    int w[3], h[3];
    size_t plane_size[3];       ///< packed: pitch = w * bytes
    size_t frame_size;          ///< all planes of one picture

    struct {
        uint8_t   *host;        ///< ref planes, then dis planes
        FFGpuPtr   dev;
        FFGpuEvent done;        ///< recorded after the frame's last kernel and copy
        int64_t    index;       ///< frame in this slot, -1 if none
    } slot[FF_VMAF_GPU_SLOTS];
} FFVmafGpu;

/**
 * Open GPU `device` and allocate the ring for pictures of geo.
 * AVERROR(ENODEV) when no GPU answers.
 */
int  ff_vmaf_gpu_alloc(FFVmafGpu **g, int device, const FFVmafGeometry *geo,
                       int nb_planes, void *log_ctx);
void ff_vmaf_gpu_free(FFVmafGpu **g);

/** Stage and upload frame index (waits if its slot is still in use). */
int ff_vmaf_gpu_upload(FFVmafGpu *g, unsigned index, const FFVmafPicture *ref,
                       const FFVmafPicture *dis);

/** Device address of a plane of frame index (which: 0 ref, 1 dis); pitch = w * bytes. */
FFGpuPtr ff_vmaf_gpu_plane(const FFVmafGpu *g, unsigned index, int which, int plane);
/** Host copy of the same plane (page-locked), valid while the frame is in its slot. */
const uint8_t *ff_vmaf_gpu_host_plane(const FFVmafGpu *g, unsigned index, int which, int plane);
int ff_vmaf_gpu_slot(unsigned index);

/** Everything for frame index is queued. */
int ff_vmaf_gpu_frame_queued(FFVmafGpu *g, unsigned index);
/** Wait until everything queued for frame index has run. */
int ff_vmaf_gpu_frame_wait(FFVmafGpu *g, unsigned index);

#endif /* AVFILTER_HIP_VMAF_GPU_H */
