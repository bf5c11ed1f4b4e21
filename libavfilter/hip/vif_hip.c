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
 * per-scale sums on the GPU (hip/vif.hip), the scores on the host with
 * the CPU extractor's code (vif.c).
 */

#include <stdint.h>
#include <stdio.h>

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/vif.h"

#include "code_object.h"
#include "vmaf_gpu.h"

static const char *const vif_kernels[] = {
    "vmaf_vif_vert0_8", "vmaf_vif_vert0_16",
    "vmaf_vif_vert1", "vmaf_vif_vert2", "vmaf_vif_vert3",
    "vmaf_vif_stat0", "vmaf_vif_stat1", "vmaf_vif_stat2", "vmaf_vif_stat3",
    "vmaf_vif_decimate1_8", "vmaf_vif_decimate1_16",
    "vmaf_vif_decimate2", "vmaf_vif_decimate3",
    NULL
};
FF_VMAF_GPU_CODE(vif, vif_kernels);

/* The kernels' block: 32 x 8 threads. */
#define BLOCK_X 32
#define BLOCK_Y 8
/* Blocks down a plane for the sums: each adds 4 atomics, so the grid
 * stays short and its threads walk several rows. */
#define STAT_MAX_GY 32
#define GRID_MAX_Y 65535

/* The 4 sums of each scale, as in FFVmafVifAccum, per ring slot. */
#define NB_SUMS   (4 * FF_VMAF_VIF_SCALES)
#define ACC_BYTES (NB_SUMS * sizeof(uint64_t))

/* Device constants: the log2 table, then the taps of every scale. */
#define TAB_BYTES  (FF_VMAF_VIF_LOG2_SIZE * sizeof(uint16_t))
#define TAPS_BYTES sizeof(ff_vmaf_vif_filter)

#define ALIGN(x) (((x) + 255) & ~(size_t)255)

typedef struct VIFHipContext {
    VIFContext cpu;             ///< first: the CPU extractor's options and state
    FFGpuModule module;
    FFGpuFunction vert[FF_VMAF_VIF_SCALES];
    FFGpuFunction stat[FF_VMAF_VIF_SCALES];
    FFGpuFunction decimate[FF_VMAF_VIF_SCALES];    ///< [0] unused
    FFGpuPtr consts;            ///< TAB_BYTES of log2 table, then the taps
    FFGpuPtr scratch;           ///< the vertical results and the pyramid
    FFGpuPtr muv, xxv, yyv, xyv;///< vertical results, scale-0 sized
    FFGpuPtr lvl[FF_VMAF_VIF_SCALES][2];           ///< levels 1..3, ref and dis
    FFGpuPtr dev_acc;           ///< NB_SUMS per ring slot
    uint64_t *host_acc;         ///< page-locked copy of dev_acc
} VIFHipContext;

/* Release the GPU resources only; the CPU context stays usable. */
static void vif_hip_release(FFVmafFeature *f)
{
    VIFHipContext *s = f->priv;
    FFGpu *gpu = f->gpu ? f->gpu->gpu : NULL;
    if (!gpu)
        return;
    ff_gpu_free(gpu, &s->consts);
    ff_gpu_free(gpu, &s->scratch);
    ff_gpu_free(gpu, &s->dev_acc);
    ff_gpu_host_free(gpu, (void **)&s->host_acc);
    ff_gpu_module_unload(gpu, s->module);
    s->module = NULL;
}

static void vif_hip_close(FFVmafFeature *f)
{
    vif_hip_release(f);
    ff_vmaf_vif_close(f);
}

static int get_functions(FFVmafFeature *f, FFGpu *gpu, int hbd)
{
    VIFHipContext *s = f->priv;
    char name[32];
    int ret;

    if ((ret = ff_gpu_function(gpu, s->module, hbd ? "vmaf_vif_vert0_16" : "vmaf_vif_vert0_8",
                               &s->vert[0])) < 0 ||
        (ret = ff_gpu_function(gpu, s->module, hbd ? "vmaf_vif_decimate1_16" : "vmaf_vif_decimate1_8",
                               &s->decimate[1])) < 0)
        return ret;
    for (int i = 0; i < FF_VMAF_VIF_SCALES; i++) {
        snprintf(name, sizeof(name), "vmaf_vif_stat%d", i);
        if ((ret = ff_gpu_function(gpu, s->module, name, &s->stat[i])) < 0)
            return ret;
        if (!i)
            continue;
        snprintf(name, sizeof(name), "vmaf_vif_vert%d", i);
        if ((ret = ff_gpu_function(gpu, s->module, name, &s->vert[i])) < 0)
            return ret;
        if (i == 1)
            continue;
        snprintf(name, sizeof(name), "vmaf_vif_decimate%d", i);
        if ((ret = ff_gpu_function(gpu, s->module, name, &s->decimate[i])) < 0)
            return ret;
    }
    return 0;
}

/* Carve the vertical results and the pyramid levels out of one buffer. */
static int alloc_scratch(VIFHipContext *s, FFGpu *gpu, int w, int h)
{
    const size_t n = (size_t)w * h;
    size_t off[FF_VMAF_VIF_SCALES][2], size;
    int ret;

    size = 4 * ALIGN(n * sizeof(uint64_t));     /* muv is the widest */
    for (int i = 1; i < FF_VMAF_VIF_SCALES; i++) {
        /* Each level is the previous one's floor halves, as in vif.c. */
        w /= 2;
        h /= 2;
        for (int k = 0; k < 2; k++) {
            off[i][k] = size;
            size += ALIGN((size_t)w * h * sizeof(uint16_t));
        }
    }
    if ((ret = ff_gpu_malloc(gpu, &s->scratch, size)) < 0)
        return ret;
    s->muv = s->scratch;
    s->xxv = s->muv + ALIGN(n * sizeof(uint64_t));
    s->yyv = s->xxv + ALIGN(n * sizeof(uint32_t));
    s->xyv = s->yyv + ALIGN(n * sizeof(uint32_t));
    for (int i = 1; i < FF_VMAF_VIF_SCALES; i++)
        for (int k = 0; k < 2; k++)
            s->lvl[i][k] = s->scratch + off[i][k];
    return 0;
}

static int vif_hip_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    VIFHipContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpu *gpu = g->gpu;
    size_t acc_size = FF_VMAF_GPU_SLOTS * ACC_BYTES;
    int ret;

    if ((ret = ff_vmaf_vif_init(f, geo)) < 0)
        return ret;
    /* The kernels read the host's own table and taps: one copy of the
     * numbers for both sides. Both sources outlive the copy. */
    if ((ret = ff_gpu_module_load(gpu, &s->module, "vif", ff_vmaf_gpu_code_vif.amd,
                                  ff_vmaf_gpu_code_vif.nv)) < 0 ||
        (ret = get_functions(f, gpu, geo->bpc > 8)) < 0 ||
        (ret = ff_gpu_malloc(gpu, &s->consts, TAB_BYTES + TAPS_BYTES)) < 0 ||
        (ret = alloc_scratch(s, gpu, g->w[0], g->h[0])) < 0 ||
        (ret = ff_gpu_malloc(gpu, &s->dev_acc, acc_size)) < 0 ||
        (ret = ff_gpu_host_alloc(gpu, (void **)&s->host_acc, acc_size)) < 0 ||
        (ret = ff_gpu_upload(gpu, s->consts, s->cpu.log2_tab, TAB_BYTES, g->stream)) < 0 ||
        (ret = ff_gpu_upload(gpu, s->consts + TAB_BYTES, ff_vmaf_vif_filter, TAPS_BYTES,
                             g->stream)) < 0 ||
        (ret = ff_gpu_stream_sync(gpu, g->stream)) < 0) {
        vif_hip_close(f);
        return ret;
    }
    return 0;
}

/* Launch over a w x h grid of outputs, at most max_gy blocks down. */
static int launch(FFVmafGpu *g, FFGpuFunction fn, const char *name,
                  int w, int h, unsigned max_gy, void **args)
{
    if (w <= 0 || h <= 0)
        return 0;   /* an empty level: its sums stay 0, as on the CPU */
    return ff_gpu_launch(g->gpu, fn, name, (w + BLOCK_X - 1) / BLOCK_X,
                         FFMIN((h + BLOCK_Y - 1) / BLOCK_Y, max_gy),
                         BLOCK_X, BLOCK_Y, g->stream, args);
}

static int vif_hip_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                           const FFVmafPicture *dis, unsigned index,
                           FFVmafFeatureCollector *fc)
{
    VIFHipContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    const int slot = ff_vmaf_gpu_slot(index);
    const int hbd = g->geo.bpc > 8;
    FFGpuPtr sums = s->dev_acc + slot * ACC_BYTES;
    FFGpuPtr tab  = s->consts;
    FFGpuPtr cur_ref = ff_vmaf_gpu_plane(g, index, 0, 0);
    FFGpuPtr cur_dis = ff_vmaf_gpu_plane(g, index, 1, 0);
    int w = g->w[0], h = g->h[0], bpc = g->geo.bpc, ret;
    double egl = s->cpu.enhn_gain_limit;

    if ((ret = ff_gpu_memset(g->gpu, sums, 0, ACC_BYTES, g->stream)) < 0)
        return ret;
    for (int scale = 0; scale < FF_VMAF_VIF_SCALES; scale++) {
        FFGpuPtr taps = s->consts + TAB_BYTES + scale * sizeof(ff_vmaf_vif_filter[0]);
        FFGpuPtr acc  = sums + 4 * scale * sizeof(uint64_t);

        if (scale > 0) {
            FFGpuPtr dst_ref = s->lvl[scale][0], dst_dis = s->lvl[scale][1];
            void *args8[]  = { &dst_ref, &dst_dis, &cur_ref, &cur_dis, &w, &h, &taps };
            void *args16[] = { &dst_ref, &dst_dis, &cur_ref, &cur_dis, &w, &h, &bpc, &taps };
            /* Only scale 1 reads the input, and only its 16-bit kernel
             * takes the depth; the levels are always bpc 16. */
            ret = launch(g, s->decimate[scale], "vmaf_vif_decimate", w / 2, h / 2, GRID_MAX_Y,
                         scale == 1 && hbd ? args16 : args8);
            if (ret < 0)
                return ret;
            cur_ref = dst_ref;
            cur_dis = dst_dis;
            w  /= 2;
            h  /= 2;
            bpc = 16;
        }
        if (scale == 0 && s->cpu.skip_scale0)
            continue;   /* written by ff_vmaf_vif_write() */
        {
            void *vargs8[]  = { &s->muv, &s->xxv, &s->yyv, &s->xyv, &cur_ref, &cur_dis,
                                &w, &h, &taps };
            void *vargs16[] = { &s->muv, &s->xxv, &s->yyv, &s->xyv, &cur_ref, &cur_dis,
                                &w, &h, &bpc, &taps };
            void *sargs[]   = { &s->muv, &s->xxv, &s->yyv, &s->xyv, &w, &h, &taps,
                                &egl, &tab, &acc };
            if ((ret = launch(g, s->vert[scale], "vmaf_vif_vert", w, h, GRID_MAX_Y,
                              scale == 0 && hbd ? vargs16 : vargs8)) < 0 ||
                (ret = launch(g, s->stat[scale], "vmaf_vif_stat", w, h, STAT_MAX_GY,
                              sargs)) < 0)
                return ret;
        }
    }
    return ff_gpu_download(g->gpu, s->host_acc + slot * NB_SUMS, sums, ACC_BYTES, g->stream);
}

static int vif_hip_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    VIFHipContext *s = f->priv;
    const uint64_t *sum = s->host_acc + ff_vmaf_gpu_slot(index) * NB_SUMS;
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

static int vif_hip_to_cpu(FFVmafFeature *f, unsigned first)
{
    /* Frames are independent and the log2 table is the CPU context's:
     * only the GPU resources go. Their context may not be current here. */
    FFGpu *gpu = f->gpu ? f->gpu->gpu : NULL;
    if (gpu && ff_gpu_enter(gpu) >= 0) {
        vif_hip_release(f);
        ff_gpu_leave(gpu);
    }
    return 0;
}

extern const FFVmafExtractor ff_vmaf_extractor_vif;

const FFVmafExtractor ff_vmaf_extractor_vif_hip = {
    .name        = "vif",
    .options     = ff_vmaf_vif_options,
    .priv_size   = sizeof(VIFHipContext),
    .flags       = FF_VMAF_EXTRACTOR_GPU,
    .provides    = ff_vmaf_vif_provides,
    .frame_delay = 1,
    .init        = vif_hip_init,
    .extract     = vif_hip_extract,
    .close       = vif_hip_close,
    .collect     = vif_hip_collect,
    .to_cpu      = vif_hip_to_cpu,
    .cpu         = &ff_vmaf_extractor_vif,
};
