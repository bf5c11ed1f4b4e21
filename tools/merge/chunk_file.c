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

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/json.h"
#include "chunk_file.h"

#define FAIL(...) do { snprintf(err, err_size, __VA_ARGS__); return AVERROR_INVALIDDATA; } while (0)

static int read_whole_file(const char *path, char **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    char *b = NULL, *nb;
    int ret = 0;

    if (!f)
        return AVERROR(errno);
    for (;;) {
        if (!(nb = av_realloc(b, cap))) {
            ret = AVERROR(ENOMEM);
            break;
        }
        b  = nb;
        n += fread(b + n, 1, cap - n, f);
        if (n < cap) {
            if (ferror(f))
                ret = AVERROR(EIO);
            break;
        }
        cap *= 2;
    }
    fclose(f);
    if (ret < 0) {
        av_free(b);
        return ret;
    }
    *buf = b;
    *len = n;
    return 0;
}

/* A member that must be there, of the given type (or null when allowed). */
static const FFVmafJson *member(const FFVmafJson *obj, const char *key, enum FFVmafJsonType type,
                                int null_ok, char *err, size_t err_size)
{
    const FFVmafJson *v = ff_vmaf_json_get(obj, key);

    if (!v)
        snprintf(err, err_size, "no \"%s\"", key);
    else if (v->type == FF_VMAF_JSON_NULL && null_ok)
        return v;
    else if (v->type != type)
        snprintf(err, err_size, "line %d: \"%s\" is a %s, not a %s", v->line, key,
                 ff_vmaf_json_type_name(v->type), ff_vmaf_json_type_name(type));
    else
        return v;
    return NULL;
}

/* An integer member, read from its source text (strtod() would round
 * 64-bit sums). */
static int get_int(const FFVmafJson *obj, const char *key, int64_t min, int64_t max,
                   int null_ok, int64_t *out, char *err, size_t err_size)
{
    const FFVmafJson *v = member(obj, key, FF_VMAF_JSON_NUMBER, null_ok, err, err_size);
    char *end;
    long long x;

    if (!v)
        return AVERROR_INVALIDDATA;
    if (v->type == FF_VMAF_JSON_NULL) {
        *out = -1;
        return 0;
    }
    errno = 0;
    x = strtoll(v->str, &end, 10);
    if (*end || errno || x < min || x > max)
        FAIL("line %d: \"%s\" is %s, not an integer in [%"PRId64", %"PRId64"]",
             v->line, key, v->str, min, max);
    *out = x;
    return 0;
}

static int get_string(const FFVmafJson *obj, const char *key, int null_ok, char **out,
                      char *err, size_t err_size)
{
    const FFVmafJson *v = member(obj, key, FF_VMAF_JSON_STRING, null_ok, err, err_size);

    if (!v)
        return AVERROR_INVALIDDATA;
    *out = NULL;
    if (v->type == FF_VMAF_JSON_STRING && !(*out = av_strdup(v->str)))
        return AVERROR(ENOMEM);
    return 0;
}

static int read_header(MergeChunk *c, const FFVmafJson *root, char *err, size_t err_size)
{
    struct { const char *key; int *dst; int min, max; } ints[] = {
        { "n_subsample", &c->n_subsample, 1, INT32_MAX },
        { "width",  &c->width,  1, INT32_MAX }, { "height", &c->height, 1, INT32_MAX },
        { "bpc",    &c->bpc,    8, 16 },
        { "ss_x",   &c->ss_x,   0, 1 },         { "ss_y",   &c->ss_y,   0, 1 },
    };
    const FFVmafJson *fps;
    int64_t v;
    int ret;

    if ((ret = get_int(root, "vmaf_hip_chunk", 0, INT32_MAX, 0, &v, err, err_size)) < 0)
        return ret;
    if (v != FF_VMAF_CHUNK_VERSION)
        FAIL("chunk format %"PRId64"; this vmaf-merge reads format %d", v, FF_VMAF_CHUNK_VERSION);
    if ((ret = get_string(root, "version", 0, &c->version, err, err_size)) < 0 ||
        (ret = get_string(root, "model", 1, &c->model, err, err_size)) < 0 ||
        (ret = get_string(root, "feature", 1, &c->feature, err, err_size)) < 0 ||
        (ret = get_string(root, "backends", 1, &c->backends, err, err_size)) < 0)
        return ret;
    for (int i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
        if ((ret = get_int(root, ints[i].key, ints[i].min, ints[i].max, 0, &v, err, err_size)) < 0)
            return ret;
        *ints[i].dst = v;
    }
    if ((ret = get_int(root, "start", 0, INT32_MAX, 0, &c->start, err, err_size)) < 0 ||
        (ret = get_int(root, "end", c->start + 1, INT32_MAX, 0, &c->end, err, err_size)) < 0 ||
        (ret = get_int(root, "run_frames", c->end, INT32_MAX, 1, &c->run_frames, err, err_size)) < 0 ||
        (ret = get_int(root, "frames_pushed", 0, INT64_MAX, 0, &c->frames_pushed, err, err_size)) < 0)
        return ret;
    if (!(fps = member(root, "fps", FF_VMAF_JSON_NUMBER, 0, err, err_size)))
        return AVERROR_INVALIDDATA;
    c->fps = fps->number;
    return 0;
}

static int read_pairing(MergeChunk *c, const FFVmafJson *root, char *err, size_t err_size)
{
    const FFVmafJson *p = member(root, "pairing", FF_VMAF_JSON_OBJECT, 1, err, err_size);
    int ret;

    if (!p)
        return AVERROR_INVALIDDATA;
    if (p->type == FF_VMAF_JSON_NULL)
        return 0;
    if ((ret = get_string(p, "mode", 0, &c->pairing_mode, err, err_size)) < 0 ||
        (ret = get_int(p, "pairs", 0, INT64_MAX, 0, &c->pairing.pairs, err, err_size)) < 0 ||
        (ret = get_int(p, "pairs_off", 0, INT64_MAX, 0, &c->pairing.off, err, err_size)) < 0 ||
        (ret = get_int(p, "reference_unused", 0, INT64_MAX, 0, &c->pairing.ref_unused, err, err_size)) < 0 ||
        (ret = get_int(p, "distorted_unpaired", 0, INT64_MAX, 0, &c->pairing.dist_unpaired, err, err_size)) < 0)
        return ret;
    return 0;
}

static int read_keys(MergeChunk *c, const FFVmafJson *root, char *err, size_t err_size)
{
    const FFVmafJson *keys = member(root, "keys", FF_VMAF_JSON_ARRAY, 0, err, err_size);

    if (!keys)
        return AVERROR_INVALIDDATA;
    if (!keys->nb_items)
        FAIL("line %d: \"keys\" is empty", keys->line);
    if (!(c->keys = av_calloc(keys->nb_items, sizeof(*c->keys))))
        return AVERROR(ENOMEM);
    for (int k = 0; k < keys->nb_items; k++) {
        const FFVmafJson *key = &keys->items[k];
        if (key->type != FF_VMAF_JSON_STRING || !key->str[0])
            FAIL("line %d: key %d is not a name", key->line, k);
        for (int j = 0; j < k; j++)
            if (!strcmp(c->keys[j], key->str))
                FAIL("line %d: key '%s' is there twice", key->line, key->str);
        if (!(c->keys[k] = av_strdup(key->str)))
            return AVERROR(ENOMEM);
        c->nb_keys++;
    }
    return 0;
}

static int read_sums(MergeChunk *c, const FFVmafJson *root, char *err, size_t err_size)
{
    const FFVmafJson *sums = member(root, "sums", FF_VMAF_JSON_ARRAY, 0, err, err_size);
    int ret;

    if (!sums)
        return AVERROR_INVALIDDATA;
    if (sums->nb_items && !(c->sums = av_calloc(sums->nb_items, sizeof(*c->sums))))
        return AVERROR(ENOMEM);
    for (int i = 0; i < sums->nb_items; i++) {
        const FFVmafJson *s = &sums->items[i], *values;
        MergeSums *m = &c->sums[i];

        c->nb_sums++;
        if (s->type != FF_VMAF_JSON_OBJECT)
            FAIL("line %d: a sums entry is not an object", s->line);
        if ((ret = get_string(s, "feature", 0, &m->feature, err, err_size)) < 0 ||
            (ret = get_string(s, "options", 0, &m->options, err, err_size)) < 0)
            return ret;
        if (!(values = member(s, "values", FF_VMAF_JSON_ARRAY, 0, err, err_size)))
            return AVERROR_INVALIDDATA;
        if (values->nb_items > FF_VMAF_CHUNK_MAX_SUMS)
            FAIL("line %d: more than %d sums", values->line, FF_VMAF_CHUNK_MAX_SUMS);
        for (int j = 0; j < values->nb_items; j++) {
            const FFVmafJson *v = &values->items[j];
            char *end;
            errno = 0;
            if (v->type != FF_VMAF_JSON_NUMBER ||
                (m->values[j] = strtoull(v->str, &end, 10), *end || errno || v->str[0] == '-'))
                FAIL("line %d: a sum is not an unsigned 64-bit integer", v->line);
        }
        m->nb = values->nb_items;
    }
    return 0;
}

/* One value: "%a" text, which strtod() reads back exactly, or null. */
static int read_value(const FFVmafJson *v, double *out, int *present)
{
    char *end;

    *present = v->type != FF_VMAF_JSON_NULL;
    if (!*present)
        return 0;
    if (v->type != FF_VMAF_JSON_STRING)
        return AVERROR_INVALIDDATA;
    *out = strtod(v->str, &end);
    return end == v->str || *end ? AVERROR_INVALIDDATA : 0;
}

static int read_frames(MergeChunk *c, const FFVmafJson *root, char *err, size_t err_size)
{
    const FFVmafJson *frames = member(root, "frames", FF_VMAF_JSON_ARRAY, 0, err, err_size);
    int n;

    if (!frames)
        return AVERROR_INVALIDDATA;
    n = frames->nb_items;
    if (n && (!(c->frame   = av_calloc(n, sizeof(*c->frame))) ||
              !(c->values  = av_calloc((size_t)n * c->nb_keys, sizeof(*c->values))) ||
              !(c->present = av_calloc((size_t)n * c->nb_keys, sizeof(*c->present)))))
        return AVERROR(ENOMEM);
    for (int i = 0; i < n; i++) {
        const FFVmafJson *fr = &frames->items[i], *values;
        int64_t index;
        int ret;

        if (fr->type != FF_VMAF_JSON_OBJECT)
            FAIL("line %d: a frame is not an object", fr->line);
        if ((ret = get_int(fr, "frame", c->start, c->end - 1, 0, &index, err, err_size)) < 0)
            return ret;
        if (i && index <= c->frame[i - 1])
            FAIL("line %d: frame %"PRId64" comes after frame %"PRId64, fr->line, index,
                 c->frame[i - 1]);
        if (index % c->n_subsample)
            FAIL("line %d: frame %"PRId64" is not scored with n_subsample=%d", fr->line,
                 index, c->n_subsample);
        if (!(values = member(fr, "values", FF_VMAF_JSON_ARRAY, 0, err, err_size)))
            return AVERROR_INVALIDDATA;
        if (values->nb_items != c->nb_keys)
            FAIL("line %d: frame %"PRId64" has %d values for %d keys", values->line, index,
                 values->nb_items, c->nb_keys);
        for (int k = 0; k < c->nb_keys; k++) {
            size_t at = (size_t)i * c->nb_keys + k;
            int present;
            if (read_value(&values->items[k], &c->values[at], &present) < 0)
                FAIL("line %d: frame %"PRId64"'s value of '%s' is not a number written with "
                     "%%a, nor null", values->items[k].line, index, c->keys[k]);
            c->present[at] = present;
        }
        c->frame[i] = index;
        c->nb_frames++;
    }
    return 0;
}

int merge_chunk_read(MergeChunk *c, const char *path, char *err, size_t err_size)
{
    FFVmafJsonDoc *doc = NULL;
    const FFVmafJson *root;
    char *buf = NULL, what[512];
    size_t len;
    int ret;

    memset(c, 0, sizeof(*c));
    if (!(c->path = av_strdup(path)))
        return AVERROR(ENOMEM);
    if ((ret = read_whole_file(path, &buf, &len)) < 0) {
        snprintf(err, err_size, "cannot read it: %s", av_err2str(ret));
        goto end;
    }
    /* Sized for a run of days: the frames are one array. */
    if ((ret = ff_vmaf_json_parse(&doc, buf, len, 8, what, sizeof(what))) < 0) {
        snprintf(err, err_size, "not JSON: %s", what);
        goto end;
    }
    root = ff_vmaf_json_root(doc);
    if (root->type != FF_VMAF_JSON_OBJECT || !ff_vmaf_json_get(root, "vmaf_hip_chunk")) {
        snprintf(err, err_size, "not a chunk file (vmaf_hip's log_fmt=chunk writes them)");
        ret = AVERROR_INVALIDDATA;
        goto end;
    }
    if ((ret = read_header(c, root, err, err_size)) < 0 ||
        (ret = read_pairing(c, root, err, err_size)) < 0 ||
        (ret = read_keys(c, root, err, err_size)) < 0 ||
        (ret = read_sums(c, root, err, err_size)) < 0 ||
        (ret = read_frames(c, root, err, err_size)) < 0)
        goto end;
end:
    ff_vmaf_json_free(&doc);
    av_free(buf);
    if (ret < 0)
        merge_chunk_free(c);
    return ret;
}

void merge_chunk_free(MergeChunk *c)
{
    av_freep(&c->path);
    av_freep(&c->version);
    av_freep(&c->model);
    av_freep(&c->feature);
    av_freep(&c->backends);
    av_freep(&c->pairing_mode);
    for (int k = 0; k < c->nb_keys; k++)
        av_freep(&c->keys[k]);
    av_freep(&c->keys);
    for (int i = 0; i < c->nb_sums; i++) {
        av_freep(&c->sums[i].feature);
        av_freep(&c->sums[i].options);
    }
    av_freep(&c->sums);
    av_freep(&c->frame);
    av_freep(&c->values);
    av_freep(&c->present);
    c->nb_keys = c->nb_sums = c->nb_frames = 0;
}
