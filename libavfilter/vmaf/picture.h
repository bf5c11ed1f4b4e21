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
 * A borrowed view of one planar YUV picture, as the VMAF engine sees it.
 */

#ifndef AVFILTER_VMAF_PICTURE_H
#define AVFILTER_VMAF_PICTURE_H

#include <stddef.h>
#include <stdint.h>

/**
 * Geometry shared by every picture of a stream.
 *
 * Chroma planes are (w >> ss_x) x (h >> ss_y): libvmaf rounds the chroma
 * size down, while FFmpeg stores the rounded-up plane, so consumers of
 * chroma read the top-left block of FFmpeg's plane.
 */
typedef struct FFVmafGeometry {
    int width, height;
    int bpc;            ///< 8, 10, 12 or 16
    int ss_x, ss_y;     ///< chroma subsampling shifts (4:2:0: 1, 1)
    /**
     * How the pictures of each input store their samples (FFVmafPicture's
     * chroma and shift), [0] the reference, [1] the distorted: the engine
     * turns them into planar, low-bit samples where it computes. The two
     * may differ (NV12 from a hardware decoder against yuv420p).
     */
    int chroma_layout[2];
    int sample_shift[2];
} FFVmafGeometry;

enum FFVmafChromaLayout {
    FF_VMAF_CHROMA_PLANAR,  ///< U in data[1], V in data[2]
    FF_VMAF_CHROMA_UV,      ///< U,V pairs in data[1] (NV12, P010, NV16...)
    FF_VMAF_CHROMA_VU,      ///< V,U pairs in data[1] (NV21, NV42)
};

/**
 * Samples are uint8_t when bpc == 8 and native-endian uint16_t otherwise,
 * holding the value in the low bits. linesize is in bytes. Chroma planes
 * must hold the rounded-up size FFmpeg allocates (ceil(w/2) for 4:2:0):
 * ciede reads the column and row past the rounded-down plane at odd sizes.
 */
typedef struct FFVmafPicture {
    const uint8_t *data[3];
    ptrdiff_t linesize[3];
    int w[3], h[3];     ///< plane sizes as libvmaf defines them
    int bpc;

    /* Storage, for sources that are not planar low-bit host memory. */
    int chroma;         ///< enum FFVmafChromaLayout
    int shift;          ///< samples are stored << shift (P010: 6), 0 otherwise
    /**
     * data[] are device addresses (FFGpuPtr) in the engine's GPU context,
     * as in a hardware frame. The GPU reads them in place; features that run
     * on the CPU read host, which the caller sets when
     * ff_vmaf_engine_needs_host_pixels() says so.
     */
    int on_device;
    const struct FFVmafPicture *host;
} FFVmafPicture;

/**
 * Fill the plane sizes of pic from geo; data and linesize are left alone.
 */
static inline void ff_vmaf_picture_set_geometry(FFVmafPicture *pic,
                                                const FFVmafGeometry *geo)
{
    pic->w[0] = geo->width;
    pic->h[0] = geo->height;
    pic->w[1] = pic->w[2] = geo->width  >> geo->ss_x;
    pic->h[1] = pic->h[2] = geo->height >> geo->ss_y;
    pic->bpc  = geo->bpc;
    pic->chroma = FF_VMAF_CHROMA_PLANAR;
    pic->shift  = 0;
    pic->on_device = 0;
    pic->host   = NULL;
}

/**
 * Rows of plane p that pic's storage holds: h[p], or for vertically
 * subsampled chroma the rounded-up ceil(h[0] / 2) of FFmpeg's planes, one
 * more than libvmaf's size at odd heights (ciede reads that row).
 */
static inline int ff_vmaf_picture_rows(const FFVmafPicture *pic, int p)
{
    return p && pic->h[p] < pic->h[0] ? (pic->h[0] + 1) >> 1 : pic->h[p];
}

/** Whether the CPU extractors can read pic as it is. */
static inline int ff_vmaf_picture_is_plain(const FFVmafPicture *pic)
{
    return !pic->on_device && pic->chroma == FF_VMAF_CHROMA_PLANAR && !pic->shift;
}

/**
 * One plane: dst[x] = src[x * step + offset] >> shift on every row, samples of
 * bytes bytes (1 or 2). The reference of the GPU's unpack kernels.
 */
void ff_vmaf_picture_unpack_plane(uint8_t *dst, ptrdiff_t dst_linesize,
                                  const uint8_t *src, ptrdiff_t src_linesize,
                                  int w, int h, int bytes, int step, int offset, int shift);

/**
 * Bytes ff_vmaf_picture_unpack() needs for pictures of geo: planar planes,
 * chroma of the rounded-up size FFmpeg allocates.
 */
size_t ff_vmaf_picture_unpack_size(const FFVmafGeometry *geo);

/**
 * Make dst a planar, low-bit view of the host picture src, writing the
 * samples that need it into buf (ff_vmaf_picture_unpack_size() bytes, 64-byte
 * aligned); planes that already are plain are referenced, not copied.
 */
void ff_vmaf_picture_unpack(FFVmafPicture *dst, uint8_t *buf, const FFVmafPicture *src,
                            const FFVmafGeometry *geo);

/**
 * Whether the plain (ff_vmaf_picture_is_plain()) picture pic holds samples
 * above (1 << bpc) - 1, the rounded-up chroma FFmpeg allocates included.
 * Only 10- and 12-bit pictures can: 0 for the others.
 */
int ff_vmaf_picture_out_of_range(const FFVmafPicture *pic, const FFVmafGeometry *geo);

/**
 * Make dst a copy of the plain picture src with every sample above
 * (1 << bpc) - 1 set to that maximum, written into buf
 * (ff_vmaf_picture_unpack_size() bytes, 64-byte aligned).
 */
void ff_vmaf_picture_clamp(FFVmafPicture *dst, uint8_t *buf, const FFVmafPicture *src,
                           const FFVmafGeometry *geo);

#endif /* AVFILTER_VMAF_PICTURE_H */
