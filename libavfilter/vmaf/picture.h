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
} FFVmafGeometry;

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
}

#endif /* AVFILTER_VMAF_PICTURE_H */
