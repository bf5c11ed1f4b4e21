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
 * The GPU twin of the CIEDE2000 extractor: per-pixel Delta E and per-row
 * sums on the GPU (ciede.hip), the total and the score (ciede.c) on the
 * host. The device's pow, atan2, sin, cos and exp are not glibc's, so
 * ciede2000 may differ from the CPU's in its last digits.
 */

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/ciede.h"

#include "code_object.h"
#include "vmaf_gpu.h"

static const char *const ciede_kernels[] = {
    "vmaf_ciede_de_8", "vmaf_ciede_de_16", "vmaf_ciede_rows", NULL
};
FF_VMAF_GPU_CODE(ciede, ciede_kernels);

/* Must match CIEDE_ROWS_THREADS in ciede.hip. */
#define ROWS_THREADS 64

typedef struct CIEDEHipContext {
    CIEDEContext cpu;           ///< first: the CPU extractor's state
    FFGpuFunction de[2];        ///< 8-bit, 16-bit
    FFGpuFunction rows;
    FFGpuPtr buf;               ///< w * h floats: each pixel's Delta E
    size_t sums;                ///< h doubles, each row's sum, in the frame's results
} CIEDEHipContext;

static int ciede_hip_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    CIEDEHipContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuFunction fns[3];
    int ret;

    /* At odd sizes the CPU reads the chroma column/row past the rounded-down
     * plane from the frame; the ring holds the rounded-down planes only. */
    if ((geo->ss_x && (geo->width & 1)) || (geo->ss_y && (geo->height & 1)))
        return AVERROR(ENOSYS);
    if ((ret = ff_vmaf_gpu_functions(g, &ff_vmaf_gpu_code_ciede, ciede_kernels, fns)) < 0 ||
        (ret = ff_vmaf_gpu_buffer(g, &s->buf, (size_t)g->w[0] * g->h[0] * sizeof(float))) < 0)
        return ret;
    s->de[0] = fns[0];
    s->de[1] = fns[1];
    s->rows  = fns[2];
    s->sums  = ff_vmaf_gpu_reserve(g, (size_t)g->h[0] * sizeof(double));
    return 0;
}

static int ciede_hip_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                             const FFVmafPicture *dis, unsigned index,
                             FFVmafFeatureCollector *fc)
{
    CIEDEHipContext *s = f->priv;
    FFVmafGpu *g = f->gpu;
    FFGpuPtr r[3], d[3], buf = s->buf;
    FFGpuPtr sums = ff_vmaf_gpu_results(g, index, s->sums);
    int pitch = ff_vmaf_gpu_pitch(g, 0), cpitch = ff_vmaf_gpu_pitch(g, 1);
    int w = g->w[0], h = g->h[0], ss_x = s->cpu.ss_x, ss_y = s->cpu.ss_y, ret;
    double y_off = s->cpu.scale.y_off, y_mul = s->cpu.scale.y_mul;
    double c_off = s->cpu.scale.c_off, c_mul = s->cpu.scale.c_mul;
    void *de_args[] = { &r[0], &r[1], &r[2], &d[0], &d[1], &d[2], &pitch, &cpitch,
                        &w, &h, &ss_x, &ss_y, &y_off, &y_mul, &c_off, &c_mul, &buf };
    void *rows_args[] = { &buf, &w, &h, &sums };

    for (int p = 0; p < 3; p++) {
        r[p] = ff_vmaf_gpu_plane(g, index, 0, p);
        d[p] = ff_vmaf_gpu_plane(g, index, 1, p);
    }
    if ((ret = ff_vmaf_gpu_launch_2d(g, s->de[g->bytes > 1], "vmaf_ciede_de", w, h,
                                     32, 8, 0, de_args)) < 0)
        return ret;
    return ff_gpu_launch(g->gpu, s->rows, "vmaf_ciede_rows", (h + ROWS_THREADS - 1) / ROWS_THREADS,
                         1, ROWS_THREADS, 1, g->queue, rows_args);
}

static int ciede_hip_collect(FFVmafFeature *f, unsigned index, FFVmafFeatureCollector *fc)
{
    CIEDEHipContext *s = f->priv;
    const double *rows = ff_vmaf_gpu_results_host(f->gpu, index, s->sums);
    int w = f->gpu->w[0], h = f->gpu->h[0];
    double sum = 0.0;

    /* The rows in the CPU's order; within a row the device added in order. */
    for (int i = 0; i < h; i++)
        sum += rows[i];
    return ff_vmaf_ciede_write(f, fc, index, sum, w, h);
}

extern const FFVmafExtractor ff_vmaf_extractor_ciede;

const FFVmafExtractor ff_vmaf_extractor_ciede_hip = {
    .name      = "ciede",
    .priv_size = sizeof(CIEDEHipContext),
    .flags     = FF_VMAF_EXTRACTOR_GPU | FF_VMAF_EXTRACTOR_CHROMA,
    .provides  = ff_vmaf_ciede_provides,
    .init      = ciede_hip_init,
    .extract   = ciede_hip_extract,
    .collect   = ciede_hip_collect,
    .cpu       = &ff_vmaf_extractor_ciede,
};
