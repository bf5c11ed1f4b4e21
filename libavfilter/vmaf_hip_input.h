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
 * vmaf_hip's two inputs: what their links carry (checked against each
 * other and described), each frame checked against that, and the frames
 * as the engine's pictures: software frames read where they are, CUDA
 * frames read in place on the GPU, or downloaded when a feature computes
 * on the CPU. Pictures are numbered as the engine numbers them: [0] the
 * reference (input 1), [1] the distorted (input 0).
 */

#ifndef AVFILTER_VMAF_HIP_INPUT_H
#define AVFILTER_VMAF_HIP_INPUT_H

#include <stdint.h>

#include "libavutil/frame.h"
#include "libavutil/pixfmt.h"

#include "avfilter.h"
#include "vmaf/engine.h"
#include "vmaf/picture.h"

typedef struct VMAFHIPInput {
    FFVmafGeometry geo;
    enum AVPixelFormat sw_format[2];    ///< of the samples (hardware frames: their sw_format)
    int hw_in_place;                ///< the GPU reads hardware frames where they are (as at the first)
    int hw_foreign[2];              ///< ... but not these, of another CUDA context: copied
    AVFrame *host[2];               ///< downloads of hardware frames
    int64_t hw_pictures;            ///< hardware frames scored
    int64_t downloads;              ///< of which downloaded to the host
    int64_t hw_copied;              ///< ... only, from another CUDA context
} VMAFHIPInput;

/** The formats the inputs (and the output) take, AV_PIX_FMT_NONE-terminated. */
extern const enum AVPixelFormat ff_vmaf_hip_input_formats[];

int  ff_vmaf_hip_input_init(VMAFHIPInput *in);
void ff_vmaf_hip_input_uninit(VMAFHIPInput *in);

/** The reference's config_props: the two links must carry alike pictures. */
int  ff_vmaf_hip_input_check_links(AVFilterContext *ctx);

/**
 * Once the links are configured: the pictures' geometry and formats, and
 * the CUDA context that hardware frames give the engine's GPU (none when
 * use_cuda is 0); says what the inputs are, and warns of what would score
 * other than expected.
 */
int  ff_vmaf_hip_input_configure(VMAFHIPInput *in, AVFilterContext *ctx, FFVmafEngine *e,
                                 int use_cuda);

/** A frame of input (0 the distorted, 1 the reference) is as configured. */
int  ff_vmaf_hip_input_check_frame(const VMAFHIPInput *in, void *log_ctx, const AVFrame *frame,
                                   int input);

/**
 * The engine's pictures of a pair pushed now, pic[0] the reference's and
 * pic[1] the distorted frame's (host[]: their host views, where needed);
 * hold[] gets the frames that own pixels the engine reads after the push.
 */
int  ff_vmaf_hip_input_pictures(VMAFHIPInput *in, void *log_ctx, FFVmafEngine *e,
                                const AVFrame *dist, const AVFrame *ref, FFVmafPicture *pic,
                                FFVmafPicture *host, AVFrame **hold, int *nb_hold);

/** The summary's line on hardware frames, when there were any. */
void ff_vmaf_hip_input_summary(const VMAFHIPInput *in, void *log_ctx);

#endif /* AVFILTER_VMAF_HIP_INPUT_H */
