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
 * Semi-planar and high-bit-packed pictures (NV12, P010, ...) turned into the
 * planar low-bit pictures the CPU extractors read. The GPU does the same on
 * the device (gpu/unpack.hip); this is its reference.
 */

#include "libavutil/common.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/macros.h"

#include "picture.h"

#define UNPACK_ALIGN 64

static size_t plane_bytes(int w, int h, int bytes)
{
    return FFALIGN((size_t)w * bytes, UNPACK_ALIGN) * h;
}

static void chroma_size(const FFVmafGeometry *geo, int *cw, int *ch)
{
    /* Rounded up, as FFmpeg allocates: ciede reads past libvmaf's size. */
    *cw = AV_CEIL_RSHIFT(geo->width,  geo->ss_x);
    *ch = AV_CEIL_RSHIFT(geo->height, geo->ss_y);
}

size_t ff_vmaf_picture_unpack_size(const FFVmafGeometry *geo)
{
    int bytes = geo->bpc > 8 ? 2 : 1, cw, ch;
    chroma_size(geo, &cw, &ch);
    return plane_bytes(geo->width, geo->height, bytes) + 2 * plane_bytes(cw, ch, bytes);
}

void ff_vmaf_picture_unpack_plane(uint8_t *dst, ptrdiff_t dst_linesize,
                                  const uint8_t *src, ptrdiff_t src_linesize,
                                  int w, int h, int bytes, int step, int offset, int shift)
{
    for (int y = 0; y < h; y++) {
        if (bytes == 1) {
            const uint8_t *s = src + y * src_linesize + offset;
            uint8_t *d = dst + y * dst_linesize;
            for (int x = 0; x < w; x++)
                d[x] = s[x * step] >> shift;
        } else {
            const uint16_t *s = (const uint16_t *)(src + y * src_linesize) + offset;
            uint16_t *d = (uint16_t *)(dst + y * dst_linesize);
            for (int x = 0; x < w; x++)
                d[x] = s[x * step] >> shift;
        }
    }
}

void ff_vmaf_picture_unpack(FFVmafPicture *dst, uint8_t *buf, const FFVmafPicture *src,
                            const FFVmafGeometry *geo)
{
    int bytes = geo->bpc > 8 ? 2 : 1, cw, ch;
    int interleaved = src->chroma != FF_VMAF_CHROMA_PLANAR;

    chroma_size(geo, &cw, &ch);
    *dst = *src;
    dst->chroma = FF_VMAF_CHROMA_PLANAR;
    dst->shift  = 0;
    dst->host   = NULL;

    if (src->shift) {
        dst->linesize[0] = FFALIGN((size_t)geo->width * bytes, UNPACK_ALIGN);
        ff_vmaf_picture_unpack_plane(buf, dst->linesize[0], src->data[0], src->linesize[0],
                                     geo->width, geo->height, bytes, 1, 0, src->shift);
        dst->data[0] = buf;
    }
    buf += plane_bytes(geo->width, geo->height, bytes);
    if (!interleaved && !src->shift)
        return;
    for (int p = 1; p < 3; p++) {
        /* UV pairs: U at 0, V at 1; VU pairs the other way round. */
        int offset = !interleaved ? 0 : (p == 1) == (src->chroma == FF_VMAF_CHROMA_UV) ? 0 : 1;
        const uint8_t *plane = interleaved ? src->data[1] : src->data[p];
        dst->linesize[p] = FFALIGN((size_t)cw * bytes, UNPACK_ALIGN);
        ff_vmaf_picture_unpack_plane(buf, dst->linesize[p], plane,
                                     interleaved ? src->linesize[1] : src->linesize[p],
                                     cw, ch, bytes, interleaved ? 2 : 1, offset, src->shift);
        dst->data[p] = buf;
        buf += plane_bytes(cw, ch, bytes);
    }
}

/* Rows of 16-bit samples: any bit at or above bpc set in any sample. Four
 * samples are read as one word (FFmpeg builds without auto-vectorization),
 * into four independent ORs: about 0.25 ms for a 1080p 4:2:0 picture on one
 * core of a 2-vCPU EPYC, against 0.6 ms with a single chain of ORs. */
static int plane_out_of_range(const uint8_t *data, ptrdiff_t linesize, int w, int h, int bpc)
{
    const uint64_t high = 0x0001000100010001ULL * (uint16_t)(0xFFFF << bpc);

    for (int y = 0; y < h; y++) {
        const uint8_t *row = data + y * linesize;
        uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        int x = 0;
        for (; x + 16 <= w; x += 16) {
            a0 |= AV_RN64(row + 2 * x);
            a1 |= AV_RN64(row + 2 * x + 8);
            a2 |= AV_RN64(row + 2 * x + 16);
            a3 |= AV_RN64(row + 2 * x + 24);
        }
        for (; x + 4 <= w; x += 4)
            a0 |= AV_RN64(row + 2 * x);
        for (; x < w; x++)
            a0 |= AV_RN16(row + 2 * x);
        if ((a0 | a1 | a2 | a3) & high)
            return 1;
    }
    return 0;
}

int ff_vmaf_picture_out_of_range(const FFVmafPicture *pic, const FFVmafGeometry *geo)
{
    int cw, ch;

    if (geo->bpc != 10 && geo->bpc != 12)
        return 0;
    chroma_size(geo, &cw, &ch);
    for (int p = 0; p < 3; p++)
        if (plane_out_of_range(pic->data[p], pic->linesize[p], p ? cw : geo->width,
                               p ? ch : geo->height, geo->bpc))
            return 1;
    return 0;
}

void ff_vmaf_picture_clamp(FFVmafPicture *dst, uint8_t *buf, const FFVmafPicture *src,
                           const FFVmafGeometry *geo)
{
    const unsigned max = (1u << geo->bpc) - 1;
    int cw, ch;

    chroma_size(geo, &cw, &ch);
    *dst = *src;
    for (int p = 0; p < 3; p++) {
        int w = p ? cw : geo->width, h = p ? ch : geo->height;
        ptrdiff_t linesize = FFALIGN((size_t)w * 2, UNPACK_ALIGN);
        for (int y = 0; y < h; y++) {
            const uint16_t *s = (const uint16_t *)(src->data[p] + y * src->linesize[p]);
            uint16_t *d = (uint16_t *)(buf + y * linesize);
            for (int x = 0; x < w; x++)
                d[x] = FFMIN(s[x], max);
        }
        dst->data[p]     = buf;
        dst->linesize[p] = linesize;
        buf += plane_bytes(w, h, 2);
    }
}
