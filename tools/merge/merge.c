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
#include <stdlib.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/bprint.h"
#include "libavutil/error.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "merge.h"

#define FAIL(...) do { snprintf(err, err_size, __VA_ARGS__); return AVERROR(EINVAL); } while (0)

static int by_start(const void *a, const void *b)
{
    const MergeChunk *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

static int same(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static const char *shown(const char *s)
{
    return s ? s : "(unset)";
}

static int key_index(const MergeChunk *c, const char *key)
{
    for (int k = 0; k < c->nb_keys; k++)
        if (!strcmp(c->keys[k], key))
            return k;
    return -1;
}

/* Chunk c against the first: the same run, scored with the same options. */
static int check_compatible(const MergeChunk *first, const MergeChunk *c,
                            char *err, size_t err_size)
{
#define DIFFERS(what, a, b) FAIL("%s and %s differ in their %s (%s, %s): they are not chunks " \
                                 "of one run scored with one set of options", \
                                 first->path, c->path, what, a, b)
    char a[64], b[64];

    if (!same(first->version, c->version))
        DIFFERS("libvmaf version", shown(first->version), shown(c->version));
    if (!same(first->model, c->model))
        DIFFERS("model option", shown(first->model), shown(c->model));
    if (!same(first->feature, c->feature))
        DIFFERS("feature option", shown(first->feature), shown(c->feature));
    if (first->n_subsample != c->n_subsample) {
        snprintf(a, sizeof(a), "%d", first->n_subsample);
        snprintf(b, sizeof(b), "%d", c->n_subsample);
        DIFFERS("n_subsample", a, b);
    }
    if (first->width != c->width || first->height != c->height || first->bpc != c->bpc ||
        first->ss_x != c->ss_x || first->ss_y != c->ss_y) {
        snprintf(a, sizeof(a), "%dx%d %d-bit", first->width, first->height, first->bpc);
        snprintf(b, sizeof(b), "%dx%d %d-bit", c->width, c->height, c->bpc);
        DIFFERS("pictures", a, b);
    }
    if (!same(first->pairing_mode, c->pairing_mode))
        DIFFERS("pairing", shown(first->pairing_mode), shown(c->pairing_mode));
    if (first->nb_sums != c->nb_sums)
        DIFFERS("features with aggregates", "", "");
    for (int i = 0; i < c->nb_sums; i++)
        if (strcmp(first->sums[i].feature, c->sums[i].feature) ||
            strcmp(first->sums[i].options, c->sums[i].options) ||
            first->sums[i].nb != c->sums[i].nb)
            DIFFERS("features with aggregates", first->sums[i].feature, c->sums[i].feature);
    for (int k = 0; k < c->nb_keys; k++)
        if (key_index(first, c->keys[k]) < 0)
            FAIL("%s has values of '%s', which %s, the run's first chunk, has not: where its "
                 "column goes in the log is unknown", c->path, c->keys[k], first->path);
    return 0;
#undef DIFFERS
}

/* Every frame in exactly one chunk, from 0 to the run's end. */
static int check_tiling(const MergeChunk *c, int nb, int64_t nb_frames,
                        char *err, size_t err_size)
{
    const MergeChunk *last = &c[nb - 1];

    if (c[0].start)
        FAIL("no chunk holds frames 0 to %"PRId64": the first, %s, starts at frame %"PRId64,
             c[0].start - 1, c[0].path, c[0].start);
    for (int i = 1; i < nb; i++) {
        if (c[i].start > c[i - 1].end)
            FAIL("no chunk holds frames %"PRId64" to %"PRId64": %s ends before them, %s "
                 "starts after them", c[i - 1].end, c[i].start - 1, c[i - 1].path, c[i].path);
        if (c[i].start < c[i - 1].end)
            FAIL("%s and %s both hold frames %"PRId64" to %"PRId64": chunks must not overlap",
                 c[i - 1].path, c[i].path, c[i].start, FFMIN(c[i].end, c[i - 1].end) - 1);
    }
    if (last->run_frames != last->end)
        FAIL("the last chunk, %s (frames %"PRId64" to %"PRId64"), did not see the run end: "
             "the frames after it are in no chunk (the run's last chunk is scored to the "
             "inputs' end, with chunk_end=-1)", last->path, last->start, last->end - 1);
    for (int i = 0; i < nb; i++)
        if (c[i].run_frames >= 0 && c[i].run_frames != last->end)
            FAIL("%s saw the run end after frame %"PRId64", but the chunks hold frames up to "
                 "%"PRId64": were its inputs cut short?", c[i].path, c[i].run_frames - 1,
                 last->end - 1);
    if (nb_frames >= 0 && last->end != nb_frames)
        FAIL("the chunks make a run of %"PRId64" frames, not %"PRId64, last->end, nb_frames);
    return 0;
}

int merge_check(MergeChunk *chunks, int nb, int64_t nb_frames, char *err, size_t err_size)
{
    int ret;

    if (nb < 1)
        FAIL("no chunk");
    qsort(chunks, nb, sizeof(*chunks), by_start);
    for (int i = 1; i < nb; i++)
        if ((ret = check_compatible(&chunks[0], &chunks[i], err, err_size)) < 0)
            return ret;
    return check_tiling(chunks, nb, nb_frames, err, err_size);
}

/* Every chunk's values, under the first chunk's keys, created in its order:
 * the first chunk ran from frame 0, as the whole run did. */
static int collect_values(const MergeChunk *c, int nb, FFVmafFeatureCollector *fc,
                          char *err, size_t err_size)
{
    int *handles = av_calloc(c[0].nb_keys, sizeof(*handles));
    int ret = 0;

    if (!handles)
        return AVERROR(ENOMEM);
    for (int k = 0; k < c[0].nb_keys && ret >= 0; k++)
        if ((handles[k] = ff_vmaf_collector_handle(fc, c[0].keys[k], 0, 0)) < 0)
            ret = handles[k];
    for (int i = 0; i < nb && ret >= 0; i++) {
        for (int k = 0; k < c[i].nb_keys && ret >= 0; k++) {
            int h = handles[key_index(&c[0], c[i].keys[k])];
            for (int j = 0; j < c[i].nb_frames && ret >= 0; j++) {
                size_t at = (size_t)j * c[i].nb_keys + k;
                if (c[i].present[at])
                    ret = ff_vmaf_collector_write_handle(fc, h, c[i].frame[j], c[i].values[at]);
            }
        }
    }
    av_free(handles);
    if (ret < 0)
        snprintf(err, err_size, "cannot hold the values: %s", av_err2str(ret));
    return ret;
}

/* The aggregates, by the extractors that make them, from every chunk's sums. */
static int make_aggregates(const MergeChunk *c, int nb, FFVmafFeatureCollector *fc,
                           char *err, size_t err_size)
{
    FFVmafGeometry geo = {
        .width = c[0].width, .height = c[0].height, .bpc = c[0].bpc,
        .ss_x = c[0].ss_x, .ss_y = c[0].ss_y,
    };

    for (int s = 0; s < c[0].nb_sums; s++) {
        const MergeSums *sums = &c[0].sums[s];
        const FFVmafExtractor *ex = ff_vmaf_extractor_find(sums->feature);
        FFVmafFeature *f = NULL;
        int ret;

        if (!ex || !ex->add_sums || !ex->flush)
            FAIL("%s has sums of feature '%s', which has no aggregate here", c[0].path,
                 sums->feature);
        if ((ret = ff_vmaf_feature_alloc(&f, ex, sums->options, NULL)) < 0)
            FAIL("%s: feature '%s' does not take the options '%s'", c[0].path, sums->feature,
                 sums->options);
        if (ex->init && (ret = ex->init(f, &geo)) < 0) {
            ff_vmaf_feature_free(&f);
            FAIL("feature '%s' cannot be set up for %dx%d %d-bit pictures", sums->feature,
                 geo.width, geo.height, geo.bpc);
        }
        for (int i = 0; i < nb && ret >= 0; i++)
            ret = ex->add_sums(f, c[i].sums[s].values, c[i].sums[s].nb);
        if (ret >= 0)
            ret = ex->flush(f, fc);
        if (ex->close)
            ex->close(f);
        ff_vmaf_feature_free(&f);
        if (ret < 0)
            FAIL("cannot make the aggregates of feature '%s' from the chunks' sums: %s",
                 sums->feature, av_err2str(ret));
    }
    return 0;
}

/* The scoring speed of one process that would have done every chunk's work. */
static double merged_fps(const MergeChunk *c, int nb)
{
    double frames = 0, secs = 0;

    for (int i = 0; i < nb; i++) {
        if (c[i].fps <= 0)
            return 0;
        frames += c[i].frames_pushed;
        secs   += c[i].frames_pushed / c[i].fps;
    }
    return secs > 0 ? frames / secs : 0;
}

/* Where the features ran: the chunks' one answer, or each of theirs. */
static char *merged_backends(const MergeChunk *c, int nb)
{
    AVBPrint bp;
    char *joined = NULL;
    int any = 0;

    for (int i = 0; i < nb; i++)
        any |= !same(c[i].backends, c[0].backends);
    if (!any)
        return c[0].backends ? av_strdup(c[0].backends) : NULL;
    av_bprint_init(&bp, 0, AV_BPRINT_SIZE_UNLIMITED);
    for (int i = 0; i < nb; i++)
        av_bprintf(&bp, "%sframes %"PRId64"-%"PRId64": %s", i ? "; " : "", c[i].start,
                   c[i].end - 1, c[i].backends ? c[i].backends : "CPU");
    return av_bprint_finalize(&bp, &joined) < 0 ? NULL : joined;
}

int merge_write_log(const MergeChunk *c, int nb, FILE *out, enum FFVmafLogFormat fmt,
                    char *err, size_t err_size)
{
    FFVmafFeatureCollector *fc = NULL;
    FFVmafPairingStats pairing = { 0 };
    FFVmafLogInfo info;
    char *backends;
    int ret;

    if ((ret = ff_vmaf_collector_alloc(&fc)) < 0)
        FAIL("out of memory");
    if ((ret = collect_values(c, nb, fc, err, err_size)) < 0 ||
        (ret = make_aggregates(c, nb, fc, err, err_size)) < 0) {
        ff_vmaf_collector_free(&fc);
        return ret;
    }
    for (int i = 0; i < nb; i++) {
        pairing.pairs         += c[i].pairing.pairs;
        pairing.off           += c[i].pairing.off;
        pairing.ref_unused    += c[i].pairing.ref_unused;
        pairing.dist_unpaired += c[i].pairing.dist_unpaired;
    }
    backends = merged_backends(c, nb);
    info = (FFVmafLogInfo) {
        .width        = c[0].width,
        .height       = c[0].height,
        .fps          = merged_fps(c, nb),
        .nb_frames    = c[nb - 1].end,
        .step         = c[0].n_subsample,
        .version      = c[0].version,
        .backends     = backends,
        .pairing_mode = c[0].pairing_mode,
        .pairing      = c[0].pairing_mode ? &pairing : NULL,
    };
    ret = ff_vmaf_write_log(out, fmt, fc, &info);
    if (ret < 0)
        snprintf(err, err_size, "cannot write the log: %s", av_err2str(ret));
    av_free(backends);
    ff_vmaf_collector_free(&fc);
    return ret;
}
