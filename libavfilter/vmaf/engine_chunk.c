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
 * A run scored in chunks: which frames a chunk needs around its own, which
 * frames it scores, and its values written in the chunk format
 * (vmaf/chunk.h) for the merge.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/log.h"

#include "chunk.h"
#include "engine.h"
#include "engine_state.h"
#include "feature.h"
#include "test_hooks.h"

/* The CPU extractor of an instance, whose context a GPU twin's begins with:
 * its callbacks read the options and sums of either. */
static const FFVmafExtractor *cpu_extractor(const FFVmafFeature *f)
{
    return f->ex->cpu ? f->ex->cpu : f->ex;
}

void ff_vmaf_engine_chunk_context(const FFVmafEngine *e, int *before, int *after)
{
    if (ff_vmaf_test_chunk_context(before, after))
        return;
    *before = *after = 0;
    for (int i = 0; i < e->nb_features; i++) {
        const FFVmafFeature *f = e->features[i];
        const FFVmafExtractor *ex = cpu_extractor(f);
        int b = 0, a = 0;

        if (ex->context)
            ex->context(f, &b, &a);
        *before = FFMAX(*before, b);
        *after  = FFMAX(*after, a);
    }
}

int ff_vmaf_engine_set_chunk(FFVmafEngine *e, int64_t first, int64_t start, int64_t end)
{
    if (e->configured || first < 0 || start < first || start - first >= UINT_MAX ||
        (end >= 0 && (end <= start || end - first >= UINT_MAX)))
        return AVERROR(EINVAL);
    e->chunk       = 1;
    e->chunk_first = first;
    e->win_start   = start - first;
    e->win_end     = end < 0 ? UINT_MAX : end - first;
    /* Aggregates sum the chunk's own frames: a neighbour sums its context. */
    for (int i = 0; i < e->nb_features; i++) {
        e->features[i]->sum_first = e->win_start;
        e->features[i]->sum_end   = e->win_end;
    }
    return 0;
}

void ff_vmaf_engine_mark_run_end(FFVmafEngine *e)
{
    e->run_ended = 1;
}

unsigned ff_vmaf_engine_nb_scored(const FFVmafEngine *e)
{
    unsigned first = ff_vmaf_engine_first_scored(e);
    unsigned end   = FFMIN(ff_vmaf_engine_nb_frames(e), e->win_end);

    return first < end ? (end - first - 1) / e->step + 1 : 0;
}

static void write_string_or_null(FILE *f, const char *s)
{
    if (s)
        ff_vmaf_write_json_string(f, s);
    else
        fputs("null", f);
}

/* The sums behind the aggregates, per extractor that has some. */
static int write_sums(const FFVmafEngine *e, FILE *f)
{
    int first = 1;

    fprintf(f, "  \"sums\": [");
    for (int i = 0; i < e->nb_features; i++) {
        const FFVmafFeature *feat = e->features[i];
        const FFVmafExtractor *ex = cpu_extractor(feat);
        uint64_t sums[FF_VMAF_CHUNK_MAX_SUMS];
        char opts[4096];
        int nb, ret;

        if (!ex->get_sums || (nb = ex->get_sums(feat, sums, FF_ARRAY_ELEMS(sums))) <= 0)
            continue;
        if ((ret = ff_vmaf_feature_options(feat, opts, sizeof(opts))) < 0) {
            av_log(e->log_ctx, AV_LOG_ERROR, "The options of feature '%s' cannot be written "
                   "in the chunk format.\n", ex->name);
            return ret;
        }
        fprintf(f, "%s\n    {\"feature\": ", first ? "" : ",");
        ff_vmaf_write_json_string(f, ex->name);
        fprintf(f, ", \"options\": ");
        ff_vmaf_write_json_string(f, opts);
        fprintf(f, ", \"values\": [");
        for (int j = 0; j < nb; j++)
            fprintf(f, "%s%"PRIu64, j ? ", " : "", sums[j]);
        fprintf(f, "]}");
        first = 0;
    }
    fprintf(f, "%s],\n", first ? "" : "\n  ");
    return 0;
}

/* Each frame of the chunk that has values: hexadecimal floats, which
 * strtod() reads back to the same doubles. */
static void write_frames(const FFVmafEngine *e, FILE *f, unsigned end)
{
    int nb_keys = ff_vmaf_collector_nb_keys(e->fc);
    int first = 1;

    fprintf(f, "  \"frames\": [");
    for (unsigned i = ff_vmaf_engine_first_scored(e); i < end && !ferror(f); i += e->step) {
        int any = 0;
        double v;

        for (int k = 0; k < nb_keys && !any; k++)
            any = ff_vmaf_collector_read_at(e->fc, k, i, &v) >= 0;
        if (!any)
            continue;
        fprintf(f, "%s\n    {\"frame\": %"PRIu64", \"values\": [", first ? "" : ",",
                e->chunk_first + i);
        for (int k = 0; k < nb_keys; k++) {
            if (ff_vmaf_collector_read_at(e->fc, k, i, &v) < 0)
                fprintf(f, "%snull", k ? ", " : "");
            else
                fprintf(f, "%s\"%a\"", k ? ", " : "", v);
        }
        fprintf(f, "]}");
        first = 0;
    }
    fprintf(f, "%s]\n", first ? "" : "\n  ");
}

int ff_vmaf_engine_write_chunk(const FFVmafEngine *e, FILE *f, double fps,
                               const char *pairing_mode, const FFVmafPairingStats *pairing)
{
    unsigned nb_frames = ff_vmaf_engine_nb_frames(e);
    unsigned end = FFMIN(nb_frames, e->win_end);
    int nb_keys = ff_vmaf_collector_nb_keys(e->fc);
    char backends[1024];
    int ret;

    /* A chunk cut short would pass for one that holds its frames. */
    if (e->win_end != UINT_MAX && nb_frames < e->win_end) {
        av_log(e->log_ctx, AV_LOG_ERROR, "The chunk holds frames %"PRIu64" to %"PRIu64" of "
               "the run, not up to frame %"PRIu64" as asked: no chunk file is written.\n",
               e->chunk_first + e->win_start, e->chunk_first + end - 1,
               e->chunk_first + e->win_end - 1);
        return AVERROR(EINVAL);
    }
    if (end <= e->win_start) {
        av_log(e->log_ctx, AV_LOG_ERROR, "The chunk holds no frame: no chunk file is "
               "written.\n");
        return AVERROR(EINVAL);
    }

    fprintf(f, "{\n  \"vmaf_hip_chunk\": %d,\n", FF_VMAF_CHUNK_VERSION);
    fprintf(f, "  \"version\": \"%s\",\n", FF_VMAF_REFERENCE_VERSION);
    fprintf(f, "  \"model\": ");
    write_string_or_null(f, e->model_cfg);
    fprintf(f, ",\n  \"feature\": ");
    write_string_or_null(f, e->feature_cfg);
    fprintf(f, ",\n  \"n_subsample\": %u,\n", e->step);
    fprintf(f, "  \"width\": %d, \"height\": %d, \"bpc\": %d, \"ss_x\": %d, \"ss_y\": %d,\n",
            e->geo.width, e->geo.height, e->geo.bpc, e->geo.ss_x, e->geo.ss_y);
    fprintf(f, "  \"start\": %"PRIu64", \"end\": %"PRIu64",\n",
            e->chunk_first + e->win_start, e->chunk_first + end);
    if (e->run_ended)
        fprintf(f, "  \"run_frames\": %"PRIu64",\n", e->chunk_first + e->nb_pushed);
    else
        fprintf(f, "  \"run_frames\": null,\n");
    fprintf(f, "  \"frames_pushed\": %u, \"fps\": %.6f,\n", e->nb_pushed,
            isfinite(fps) ? fps : 0.0);
    fprintf(f, "  \"backends\": ");
    if (e->gpu_name[0]) {
        ff_vmaf_engine_describe_backends(e, backends, sizeof(backends));
        ff_vmaf_write_json_string(f, backends);
    } else {
        fputs("null", f);
    }
    fprintf(f, ",\n  \"pairing\": ");
    if (pairing && pairing_mode) {
        fprintf(f, "{\"mode\": ");
        ff_vmaf_write_json_string(f, pairing_mode);
        fprintf(f, ", \"pairs\": %"PRId64", \"pairs_off\": %"PRId64", \"reference_unused\": "
                "%"PRId64", \"distorted_unpaired\": %"PRId64"}", pairing->pairs, pairing->off,
                pairing->ref_unused, pairing->dist_unpaired);
    } else {
        fputs("null", f);
    }
    fprintf(f, ",\n  \"keys\": [");
    for (int k = 0; k < nb_keys; k++) {
        fprintf(f, "%s\n    ", k ? "," : "");
        ff_vmaf_write_json_string(f, ff_vmaf_collector_key(e->fc, k));
    }
    fprintf(f, "%s],\n", nb_keys ? "\n  " : "");
    if ((ret = write_sums(e, f)) < 0)
        return ret;
    write_frames(e, f, end);
    fprintf(f, "}\n");
    /* errno tells why a write failed (ENOSPC, EPIPE...): see output.c. */
    return ferror(f) ? AVERROR(errno ? errno : EIO) : 0;
}
