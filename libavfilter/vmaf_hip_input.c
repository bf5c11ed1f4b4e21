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

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

#include "libavutil/hwcontext.h"
#include "libavutil/pixdesc.h"

#include "filters.h"
#include "vmaf_hip_input.h"

#if CONFIG_CUDA
/* The driver API's types, as FFmpeg's CUDA hwcontext names them; nothing
 * of the driver is called here (the engine's runtime loads it). */
#include <ffnvcodec/dynlink_cuda.h>
#include "libavutil/hwcontext_cuda.h"
#endif

/* Planar YUV as libvmaf reads it, semi-planar (NV12...) and high-bit-packed
 * (P010...) as decoders and hardware give it, unpacked where the engine
 * computes; and CUDA hardware frames of any of these. */
#define SOFTWARE_FORMATS \
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P, \
    AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV444P10LE, \
    AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV444P12LE, \
    AV_PIX_FMT_YUV420P16LE, AV_PIX_FMT_YUV422P16LE, AV_PIX_FMT_YUV444P16LE, \
    AV_PIX_FMT_NV12, AV_PIX_FMT_NV21, AV_PIX_FMT_NV16, AV_PIX_FMT_NV24, AV_PIX_FMT_NV42, \
    AV_PIX_FMT_P010LE, AV_PIX_FMT_P012LE, AV_PIX_FMT_P016LE, \
    AV_PIX_FMT_P210LE, AV_PIX_FMT_P216LE, AV_PIX_FMT_P410LE, AV_PIX_FMT_P416LE

static const enum AVPixelFormat sw_pix_fmts[] = { SOFTWARE_FORMATS, AV_PIX_FMT_NONE };

const enum AVPixelFormat ff_vmaf_hip_input_formats[] = {
    SOFTWARE_FORMATS,
#if CONFIG_CUDA
    AV_PIX_FMT_CUDA,
#endif
    AV_PIX_FMT_NONE
};

static int is_sw_format(enum AVPixelFormat fmt)
{
    for (int i = 0; sw_pix_fmts[i] != AV_PIX_FMT_NONE; i++)
        if (sw_pix_fmts[i] == fmt)
            return 1;
    return 0;
}

/* The format of the samples: a hardware link's sw_format. */
static enum AVPixelFormat link_sw_format(const AVFilterLink *l)
{
    FilterLink *fl = ff_filter_link((AVFilterLink *)l);
    if (l->format == AV_PIX_FMT_CUDA && fl->hw_frames_ctx)
        return ((const AVHWFramesContext *)fl->hw_frames_ctx->data)->sw_format;
    return l->format;
}

int ff_vmaf_hip_input_init(VMAFHIPInput *in)
{
    in->host[0] = av_frame_alloc();
    in->host[1] = av_frame_alloc();
    return in->host[0] && in->host[1] ? 0 : AVERROR(ENOMEM);
}

void ff_vmaf_hip_input_uninit(VMAFHIPInput *in)
{
    av_frame_free(&in->host[0]);
    av_frame_free(&in->host[1]);
}

static void describe_link(char *buf, size_t size, const AVFilterLink *l)
{
    enum AVPixelFormat sw = link_sw_format(l);
    snprintf(buf, size, "%dx%d %s%s%s", l->w, l->h,
             av_get_pix_fmt_name(sw) ? av_get_pix_fmt_name(sw) : "none",
             l->format == AV_PIX_FMT_CUDA ? " " : "",
             l->format == AV_PIX_FMT_CUDA ? "(CUDA frames)" : "");
}

/* Storage aside (NV12 against yuv420p, P010 against yuv420p10le, hardware
 * frames against software ones), the pictures must be alike. */
static int same_samples(enum AVPixelFormat a, enum AVPixelFormat b)
{
    const AVPixFmtDescriptor *da = av_pix_fmt_desc_get(a), *db = av_pix_fmt_desc_get(b);
    return da && db && da->comp[0].depth == db->comp[0].depth &&
           da->log2_chroma_w == db->log2_chroma_w && da->log2_chroma_h == db->log2_chroma_h;
}

int ff_vmaf_hip_input_check_links(AVFilterContext *ctx)
{
    const AVFilterLink *main_link = ctx->inputs[0], *ref_link = ctx->inputs[1];

    for (int i = 0; i < 2; i++) {
        const AVFilterLink *l = ctx->inputs[i];
        enum AVPixelFormat sw = link_sw_format(l);
        if (!is_sw_format(sw)) {
            av_log(ctx, AV_LOG_ERROR,
                   "The %s input's hardware frames hold %s, which is not supported. Accepted: "
                   "yuv420p, yuv422p, yuv444p and their 10, 12 and 16-bit forms, nv12, nv21, "
                   "nv16, nv24, nv42, p010, p012, p016, p210, p216, p410 and p416.\n",
                   i ? "reference" : "main (distorted)",
                   av_get_pix_fmt_name(sw) ? av_get_pix_fmt_name(sw) : "none");
            return AVERROR(EINVAL);
        }
    }
    if (main_link->w != ref_link->w || main_link->h != ref_link->h ||
        !same_samples(link_sw_format(main_link), link_sw_format(ref_link))) {
        char d[128], r[128];
        describe_link(d, sizeof(d), main_link);
        describe_link(r, sizeof(r), ref_link);
        if (main_link->w == ref_link->h && main_link->h == ref_link->w &&
            main_link->w != main_link->h) {
            /* A phone video's rotation: ffmpeg turns it upright by its
             * display matrix; scaling would squash it instead. */
            av_log(ctx, AV_LOG_ERROR,
                   "The inputs differ: main (distorted) is %s, reference is %s: each is the "
                   "other turned on its side, as when one carries a rotation (a phone video) "
                   "that ffmpeg applies and the other does not. Score both as stored with "
                   "-noautorotate before each -i, or turn one with transpose=clock (or "
                   "transpose=cclock) before the filter; scaling would squash the picture.\n",
                   d, r);
            return AVERROR(EINVAL);
        }
        av_log(ctx, AV_LOG_ERROR,
               "The inputs differ: main (distorted) is %s, reference is %s. "
               "Both must have the same size, bit depth and chroma subsampling; scale or convert one "
               "input first (e.g. scale=%dx%d:flags=bicubic,format=%s).\n",
               d, r, ref_link->w, ref_link->h,
               av_get_pix_fmt_name(link_sw_format(ref_link)) ?
               av_get_pix_fmt_name(link_sw_format(ref_link)) : "yuv420p");
        return AVERROR(EINVAL);
    }
    return 0;
}

/*
 * CUDA frames on either input: the GPU works in their context, where it
 * can read them in place. Both inputs' hardware frames must share it.
 */
static void setup_hw_frames(VMAFHIPInput *in, AVFilterContext *ctx, FFVmafEngine *e, int use_cuda)
{
#if CONFIG_CUDA
    AVCUDADeviceContext *cuda = NULL;

    for (int i = 0; i < 2; i++) {
        FilterLink *fl = ff_filter_link(ctx->inputs[i]);
        AVHWFramesContext *frames;
        AVCUDADeviceContext *dev;
        if (ctx->inputs[i]->format != AV_PIX_FMT_CUDA || !fl->hw_frames_ctx)
            continue;
        frames = (AVHWFramesContext *)fl->hw_frames_ctx->data;
        dev    = frames->device_ctx->hwctx;
        if (cuda && cuda->cuda_ctx != dev->cuda_ctx) {
            /* Another CUDA context (hwupload_cuda's device and the
             * decoder's, each made by ffmpeg): the GPU works in the first
             * one's, and this input's frames reach it through the host. */
            in->hw_foreign[!i] = 1;
            av_log(ctx, AV_LOG_WARNING, "The two inputs' CUDA frames are in different CUDA "
                   "contexts (an hwupload_cuda's and a decoder's, say): the %s input's are "
                   "copied through the host. Software frames need no hwupload_cuda: the filter "
                   "uploads them itself.\n", i ? "reference" : "distorted");
            continue;
        }
        cuda = dev;
    }
    if (cuda && use_cuda)
        ff_vmaf_engine_set_cuda_frames(e, cuda->cuda_ctx, cuda->stream);
#endif
}

/*
 * Colour range: the engine scores the samples as they are, so a full-range
 * picture against a limited-range one scores the difference of ranges.
 * Say so, and say when ffmpeg converted an input's range on its way here
 * (a scale filter it inserted, to agree with the output's formats): the
 * picture scored is then not the file's.
 */
/* The range a link's samples are in: unspecified is limited, as swscale
 * takes it, and the deprecated yuvj formats are full. */
static enum AVColorRange link_range(const AVFilterLink *l)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(l->format);
    if (l->color_range == AVCOL_RANGE_JPEG || (desc && !strncmp(desc->name, "yuvj", 4)))
        return AVCOL_RANGE_JPEG;
    return AVCOL_RANGE_MPEG;
}

static void warn_range(AVFilterContext *ctx)
{
    static const char *const role[2] = { "distorted", "reference" };
    enum AVColorRange range[2];

    for (int i = 0; i < 2; i++) {
        const AVFilterLink *l = ctx->inputs[i];
        const AVFilterContext *src = l->src;
        range[i] = link_range(l);
        if (src && src->nb_inputs == 1 && !strncmp(src->name, "auto_scale", 10) &&
            link_range(src->inputs[0]) != range[i])
            av_log(ctx, AV_LOG_WARNING, "ffmpeg converted the %s input from %s range to %s "
                   "range before this filter: it is scored as converted, not as stored.\n",
                   role[i], av_color_range_name(link_range(src->inputs[0])),
                   av_color_range_name(range[i]));
    }
    if (range[0] != range[1])
        av_log(ctx, AV_LOG_WARNING, "The distorted input is %s range and the reference %s range: "
               "the scores include the difference of ranges. Convert one first (e.g. "
               "scale=in_range=%s:out_range=%s on the distorted input).\n",
               av_color_range_name(range[0]), av_color_range_name(range[1]),
               av_color_range_name(range[0]), av_color_range_name(range[1]));
}

int ff_vmaf_hip_input_configure(VMAFHIPInput *in, AVFilterContext *ctx, FFVmafEngine *e,
                                int use_cuda)
{
    const AVFilterLink *mainlink = ctx->inputs[0];
    const AVPixFmtDescriptor *desc;
    char d[128], r[128];

    in->geo.width  = mainlink->w;
    in->geo.height = mainlink->h;
    for (int w = 0; w < 2; w++) {
        in->sw_format[w] = link_sw_format(ctx->inputs[!w]);
        desc = av_pix_fmt_desc_get(in->sw_format[w]);
        in->geo.bpc  = desc->comp[0].depth;
        in->geo.ss_x = desc->log2_chroma_w;
        in->geo.ss_y = desc->log2_chroma_h;
        /* NV12 and its kind: U and V share a plane, in the order of their offsets. */
        in->geo.chroma_layout[w] = desc->comp[1].plane != desc->comp[2].plane ? FF_VMAF_CHROMA_PLANAR :
                                  desc->comp[1].offset < desc->comp[2].offset ? FF_VMAF_CHROMA_UV :
                                                                                FF_VMAF_CHROMA_VU;
        in->geo.sample_shift[w] = desc->comp[0].shift;
    }
    setup_hw_frames(in, ctx, e, use_cuda);

    describe_link(d, sizeof(d), ctx->inputs[0]);
    describe_link(r, sizeof(r), ctx->inputs[1]);
    av_log(ctx, AV_LOG_INFO, "main (input 0) = distorted: %s; reference (input 1) = reference: %s.\n",
           d, r);
    warn_range(ctx);
    if (mainlink->w < 40 || mainlink->h < 40)
        av_log(ctx, AV_LOG_WARNING, "At %dx%d, below 40 pixels a side, libvmaf's own ADM and "
               "VMAF values are undefined (it reads memory it never wrote, and its numbers vary "
               "from run to run): vmaf_hip's are defined, but no libvmaf value exists to compare "
               "them with.\n", mainlink->w, mainlink->h);
    return 0;
}

/*
 * Every frame must be what the links were configured with: a size or format
 * that changes inside the graph (scale with eval=frame, say) would be read
 * out of bounds, or scored as the wrong picture.
 */
int ff_vmaf_hip_input_check_frame(const VMAFHIPInput *in, void *log_ctx, const AVFrame *frame,
                                  int input)
{
    /* input 0 is the distorted picture, which the engine numbers 1. */
    enum AVPixelFormat want = in->sw_format[!input], sw = frame->format;
    const char *want_name = av_get_pix_fmt_name(want), *sw_name;

    if (frame->format == AV_PIX_FMT_CUDA && frame->hw_frames_ctx)
        sw = ((const AVHWFramesContext *)frame->hw_frames_ctx->data)->sw_format;
    if (frame->width == in->geo.width && frame->height == in->geo.height && sw == want)
        return 0;
    sw_name = av_get_pix_fmt_name(sw);
    av_log(log_ctx, AV_LOG_ERROR,
           "A %s frame is %dx%d %s, but the stream started as %dx%d %s: the size or format "
           "changed inside the filtergraph, which vmaf_hip does not follow. Scale and convert "
           "both inputs to one fixed size and format before it (e.g. scale=%d:%d,format=%s).\n",
           input ? "reference" : "distorted", frame->width, frame->height,
           sw_name ? sw_name : "none", in->geo.width, in->geo.height, want_name,
           in->geo.width, in->geo.height, want_name);
    return AVERROR(EINVAL);
}

/* which: 0 for the reference, 1 for the distorted, as the engine counts. */
static void picture_from_frame(FFVmafPicture *pic, const AVFrame *frame,
                               const FFVmafGeometry *geo, int which)
{
    ff_vmaf_picture_set_geometry(pic, geo);
    pic->chroma = geo->chroma_layout[which];
    pic->shift  = geo->sample_shift[which];
    for (int p = 0; p < 3; p++) {
        pic->data[p]     = frame->data[p];
        pic->linesize[p] = frame->linesize[p];
    }
}

/*
 * The picture of frame for the engine. A hardware frame is read in place
 * by the GPU when it can; it is downloaded (and counted) only when a
 * feature computes on the CPU: then host[] holds the copy, and the engine
 * reads it through pic->host.
 */
static int picture_for_engine(VMAFHIPInput *in, void *log_ctx, FFVmafEngine *e,
                              FFVmafPicture *pic, FFVmafPicture *host_pic,
                              const AVFrame *frame, int which, AVFrame **hold, int *nb_hold)
{
    int ret;

    if (frame->format != AV_PIX_FMT_CUDA) {
        /* The engine may read the pixels after this call (frames in
         * parallel): it keeps a reference to the frame, no copy. */
        if (ff_vmaf_engine_keeps_frames(e) &&
            !(hold[(*nb_hold)++] = av_frame_clone(frame)))
            return AVERROR(ENOMEM);
        picture_from_frame(pic, frame, &in->geo, which);
        return 0;
    }
    /* Read once, before the first push that could move the GPU to the CPU. */
    if (!in->hw_pictures++)
        in->hw_in_place = ff_vmaf_engine_gpu_reads_device(e);
    if (!in->hw_in_place || in->hw_foreign[which] || ff_vmaf_engine_needs_host_pixels(e)) {
        AVFrame *dst = in->host[which];
        /* An engine that scores frames in parallel reads the copy after
         * this call: each frame gets its own, and the hardware frame is
         * not held (a decoder's pool of surfaces is small). */
        if (ff_vmaf_engine_keeps_frames(e)) {
            if (!(dst = av_frame_alloc()))
                return AVERROR(ENOMEM);
            hold[(*nb_hold)++] = dst;
        }
        av_frame_unref(dst);
        dst->format = in->sw_format[which];
        if ((ret = av_hwframe_transfer_data(dst, frame, 0)) < 0) {
            av_log(log_ctx, AV_LOG_ERROR, "Cannot download a hardware frame to the host: %s.\n",
                   av_err2str(ret));
            return ret;
        }
        in->downloads++;
        if (!in->hw_in_place || in->hw_foreign[which]) {
            in->hw_copied += in->hw_in_place;
            picture_from_frame(pic, dst, &in->geo, which);
            return 0;
        }
        picture_from_frame(host_pic, dst, &in->geo, which);
        picture_from_frame(pic, frame, &in->geo, which);
        pic->on_device = 1;
        pic->host      = host_pic;
        return 0;
    }
    picture_from_frame(pic, frame, &in->geo, which);
    pic->on_device = 1;
    return 0;
}

int ff_vmaf_hip_input_pictures(VMAFHIPInput *in, void *log_ctx, FFVmafEngine *e,
                               const AVFrame *dist, const AVFrame *ref, FFVmafPicture *pic,
                               FFVmafPicture *host, AVFrame **hold, int *nb_hold)
{
    int ret = picture_for_engine(in, log_ctx, e, &pic[0], &host[0], ref, 0, hold, nb_hold);
    return ret < 0 ? ret : picture_for_engine(in, log_ctx, e, &pic[1], &host[1], dist, 1,
                                              hold, nb_hold);
}

void ff_vmaf_hip_input_summary(const VMAFHIPInput *in, void *log_ctx)
{
    if (in->hw_pictures)
        av_log(log_ctx, AV_LOG_INFO, "Hardware frames: %"PRId64" scored, %"PRId64" read in place "
               "on the GPU, %"PRId64" downloaded to the host.\n", in->hw_pictures,
               in->hw_in_place ? in->hw_pictures - in->hw_copied : 0, in->downloads);
}
