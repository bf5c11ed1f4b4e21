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
 * The GPU twin of the integer VIF extractor: the pyramid and the exact
 * per-scale sums on the GPU (vif.hip), the scores on the host with
 * the CPU extractor's code (vif.c).
 */

#include <stdint.h>

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/features/vif.h"

#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

/* In the order of enum VIFKernel. */
static const char *const vif_kernels[] = {
    "vmaf_vif_scale0_8", "vmaf_vif_scale0_16",
    "vmaf_vif_scale1", "vmaf_vif_scale2", "vmaf_vif_scale3",
    "vmaf_vif_decimate1_8", "vmaf_vif_decimate1_16",
    "vmaf_vif_decimate2", "vmaf_vif_decimate3",
    NULL
};
FF_VMAF_GPU_CODE(vif, vif_kernels);

enum VIFKernel {
    K_SCALE0_8, K_SCALE0_16, K_SCALE1, K_SCALE2, K_SCALE3,
    K_DECIMATE1_8, K_DECIMATE1_16, K_DECIMATE2, K_DECIMATE3,
    NB_KERNELS
};

/* The tiles of the statistics and of the decimation, and their block
 * (every kernel's), as in vif.hip. */
#define TILE_W  64
#define TILE_H  16
#define DEC_TILE_W 32
#define DEC_TILE_H 16
#define THREADS 256
/* The small levels' decimation: a thread an output, 32 x 8 a block. */
#define BLOCK_X 32
#define BLOCK_Y (THREADS / BLOCK_X)
#define GRID_MAX_Y 65535

/* The 4 sums of each scale, as in FFVmafVifAccum, in the frame's results. */
#define NB_SUMS   (4 * FF_VMAF_VIF_SCALES)
#define ACC_BYTES (NB_SUMS * sizeof(uint64_t))

#define TAB_BYTES  (FF_VMAF_VIF_LOG2_SIZE * sizeof(uint16_t))

#define ALIGN(x) (((x) + 255) & ~(size_t)255)

typedef struct VIFGpuContext {
    VIFContext cpu;             ///< first: the CPU extractor's options and state
    FFGpuFunction fn[NB_KERNELS];
    FFGpuFunction stat[FF_VMAF_VIF_SCALES];
    FFGpuFunction decimate[FF_VMAF_VIF_SCALES];    ///< [0] unused
    FFGpuPtr tab;               ///< the log2 table
    FFGpuPtr taps;              ///< ff_vmaf_vif_filter
    FFGpuPtr lvl[FF_VMAF_VIF_SCALES][2];           ///< levels 1..3, ref and dis
    size_t sums;                ///< NB_SUMS uint64 in the frame's results
} VIFGpuContext;

/* Carve the pyramid levels out of one buffer. */
static int alloc_scratch(VIFGpuContext *s, FFVmafGpu *g, int w, int h)
{
    size_t off[FF_VMAF_VIF_SCALES][2], size = 0;
    FFGpuPtr scratch;
    int ret;

    for (int i = 1; i < FF_VMAF_VIF_SCALES; i++) {
        /* Each level is the previous one's floor halves, as in vif.c. */
        w /= 2;
        h /= 2;
        for (int k = 0; k < 2; k++) {
            off[i][k] = size;
            size += ALIGN((size_t)w * h * sizeof(uint16_t));
        }
    }
    if ((ret = ff_vmaf_gpu_buffer(g, &scratch, size)) < 0)
        return ret;
    for (int i = 1; i < FF_VMAF_VIF_SCALES; i++)
        for (int k = 0; k < 2; k++)
            s->lvl[i][k] = scratch + off[i][k];
    return 0;
}

static int vif_gpu_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    VIFGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    const int hbd = geo->bpc > 8;
    int ret;

    /* The kernels read the host's own table and taps: one copy of the
     * numbers for both sides. */
    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_vif, vif_kernels, s->fn)) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->tab, s->cpu.log2_tab, TAB_BYTES)) < 0 ||
        (ret = ff_vmaf_gpu_constants(g, &s->taps, ff_vmaf_vif_filter,
                                     sizeof(ff_vmaf_vif_filter))) < 0 ||
        (ret = alloc_scratch(s, g, g->w[0], g->h[0])) < 0)
        return ret;
    s->stat[0]     = s->fn[hbd ? K_SCALE0_16 : K_SCALE0_8];
    s->decimate[1] = s->fn[hbd ? K_DECIMATE1_16 : K_DECIMATE1_8];
    s->decimate[2] = s->fn[K_DECIMATE2];
    s->decimate[3] = s->fn[K_DECIMATE3];
    for (int i = 1; i < FF_VMAF_VIF_SCALES; i++)
        s->stat[i] = s->fn[K_SCALE1 + i - 1];
    s->sums = ff_vmaf_gpu_reserve(g, ACC_BYTES);
    return 0;
}

static int vif_gpu_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                           const FFVmafPicture *dis, unsigned index,
                           FFVmafFeatureCollector *fc)
{
    VIFGpuContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    const int hbd = g->geo.bpc > 8;
    FFGpuPtr cur_ref = ff_vmaf_gpu_plane(g, index, 0, 0);
    FFGpuPtr cur_dis = ff_vmaf_gpu_plane(g, index, 1, 0);
    size_t pitch = ff_vmaf_gpu_pitch(g, 0);
    int w = g->w[0], h = g->h[0], bpc = g->geo.bpc, ret;
    double egl = s->cpu.enhn_gain_limit;

    /* The sums start at 0: the ring zeroes the results with the upload. */
    for (int scale = 0; scale < FF_VMAF_VIF_SCALES; scale++) {
        FFGpuPtr taps = s->taps + scale * sizeof(ff_vmaf_vif_filter[0]);
        FFGpuPtr acc  = ff_vmaf_gpu_results(g, index, s->sums + 4 * scale * sizeof(uint64_t));

        if (scale > 0) {
            FFGpuPtr dst_ref = s->lvl[scale][0], dst_dis = s->lvl[scale][1];
            void *args8[]  = { &dst_ref, &dst_dis, &cur_ref, &pitch, &cur_dis, &pitch,
                               &w, &h, &taps };
            void *args16[] = { &dst_ref, &dst_dis, &cur_ref, &pitch, &cur_dis, &pitch,
                               &w, &h, &bpc, &taps };
            /* Only scale 1 reads the input, and only its 16-bit kernel
             * takes the depth; the levels are always bpc 16. An empty
             * level launches nothing: its sums stay 0, as on the CPU. */
            /* Scale 1: a block a DEC_TILE_W x DEC_TILE_H tile of the
             * level; 2 and 3: a thread an output, 32 x 8 a block. Rows
             * beyond GRID_MAX_Y are a grid-stride loop. */
            if (scale == 1)
                ret = ff_vmaf_gpu_launch_2d(g, s->decimate[scale], "vmaf_vif_decimate",
                                            (w / 2 + DEC_TILE_W - 1) / DEC_TILE_W * THREADS,
                                            (h / 2 + DEC_TILE_H - 1) / DEC_TILE_H, THREADS, 1,
                                            GRID_MAX_Y, hbd ? args16 : args8);
            else
                ret = ff_vmaf_gpu_launch_2d(g, s->decimate[scale], "vmaf_vif_decimate",
                                            w / 2, h / 2, BLOCK_X, BLOCK_Y, GRID_MAX_Y, args8);
            if (ret < 0)
                return ret;
            cur_ref = dst_ref;
            cur_dis = dst_dis;
            w  /= 2;
            h  /= 2;
            bpc = 16;
            pitch = w * sizeof(uint16_t);   /* the levels are packed */
        }
        if (scale == 0 && s->cpu.skip_scale0)
            continue;   /* written by ff_vmaf_vif_write() */
        {
            void *args8[]  = { &cur_ref, &pitch, &cur_dis, &pitch, &w, &h, &taps,
                               &egl, &s->tab, &acc };
            void *args16[] = { &cur_ref, &pitch, &cur_dis, &pitch, &w, &h, &bpc, &taps,
                               &egl, &s->tab, &acc };
            /* A block of THREADS threads a TILE_W x TILE_H tile. */
            int tiles_x = (w + TILE_W - 1) / TILE_W, tiles_y = (h + TILE_H - 1) / TILE_H;
            if ((ret = ff_vmaf_gpu_launch_2d(g, s->stat[scale], "vmaf_vif_scale",
                                             tiles_x * THREADS, tiles_y, THREADS, 1, 0,
                                             scale == 0 && hbd ? args16 : args8)) < 0)
                return ret;
        }
    }
    return 0;
}

static int vif_gpu_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    VIFGpuContext *s = f->priv;
    const uint64_t *sum = ff_vmaf_gpu_results_host(f->gpu, index, s->sums);
    FFVmafVifAccum acc[FF_VMAF_VIF_SCALES];

    /* The device adds the int64 terms as two's complement uint64. */
    for (int i = 0; i < FF_VMAF_VIF_SCALES; i++, sum += 4) {
        acc[i].num_log    = (int64_t)sum[0];
        acc[i].den_log    = (int64_t)sum[1];
        acc[i].num_nonlog = (int64_t)sum[2];
        acc[i].den_nonlog = (int64_t)sum[3];
    }
    return ff_vmaf_vif_write(f, fc, index, acc);
}

extern const FFVmafExtractor ff_vmaf_extractor_vif;

const FFVmafExtractor ff_vmaf_extractor_vif_gpu = {
    .name        = "vif",
    .options     = ff_vmaf_vif_options,
    .priv_size   = sizeof(VIFGpuContext),
    .flags       = FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_vif_provides,
    .frame_delay = 1,
    .init        = vif_gpu_init,
    .extract     = vif_gpu_extract,
    .close       = ff_vmaf_vif_close,
    .collect     = vif_gpu_collect,
    .cpu         = &ff_vmaf_extractor_vif,
};
