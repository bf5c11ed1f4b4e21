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
 * The features a run computes: the feature= list and the models' features
 * parsed into extractor instances, one instance per output, merged with a
 * twin that asks for the same values.
 */

#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/dict.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "engine.h"
#include "engine_state.h"
#include "feature.h"

/* Same extractor and same output names: libvmaf keeps one instance. */
static FFVmafFeature *find_twin(FFVmafEngine *e, const FFVmafFeature *f)
{
    for (int i = 0; i < e->nb_features; i++)
        if (e->features[i]->ex == f->ex &&
            !strcmp(e->features[i]->suffix, f->suffix))
            return e->features[i];
    return NULL;
}

static int alloc_from_dict(FFVmafFeature **pf, const FFVmafExtractor *ex,
                           const AVDictionary *opts, void *log_ctx)
{
    const AVDictionaryEntry *t = NULL;
    int ret = ff_vmaf_feature_alloc(pf, ex, NULL, log_ctx);
    if (ret < 0)
        return ret;
    while ((t = av_dict_iterate(opts, t)))
        if ((ret = ff_vmaf_feature_set_option(*pf, t->key, t->value)) < 0) {
            ff_vmaf_feature_free(pf);
            return ret;
        }
    return 0;
}

/* Only options that do not rename outputs (debug, ...) can differ between
 * twins; one request turning such an option on turns it on for both. */
static void merge_into_twin(FFVmafFeature *twin, const FFVmafFeature *f)
{
    for (const FFVmafOption *o = f->ex->options; o && o->name; o++) {
        const int *src = (const int *)((const uint8_t *)f->priv + o->offset);
        int *dst = (int *)((uint8_t *)twin->priv + o->offset);
        if (o->is_param || o->type != FF_VMAF_OPT_BOOL)
            continue;
        if (*src != (int)o->def)
            *dst = *src;
    }
}

/*
 * libvmaf reports a feature it cannot set up with these words, and tools
 * that run FFmpeg's libvmaf filter (ffmpeg-quality-metrics) look for them
 * in its output: every such failure ends with this line, once, after the
 * message that says why.
 */
void ff_vmaf_engine_feature_failed(const FFVmafEngine *e, const char *what)
{
    av_log(e->log_ctx, AV_LOG_ERROR, "could not initialize feature extractor \"%s\"\n", what);
}

static int add_feature(FFVmafEngine *e, const char *name, const AVDictionary *opts,
                       FFVmafFeature **out)
{
    const FFVmafExtractor *ex = ff_vmaf_extractor_find(name);
    FFVmafFeature *f, *twin;
    int ret;

    if (!ex) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Unknown feature '%s'. Available features: %s.\n",
               name, ff_vmaf_extractor_names());
        return AVERROR(EINVAL);
    }
    if (e->configured)
        return AVERROR(EINVAL);
    if ((ret = alloc_from_dict(&f, ex, opts, e->log_ctx)) < 0)
        return ret;

    if ((twin = find_twin(e, f))) {
        merge_into_twin(twin, f);
        ff_vmaf_feature_free(&f);
        if (out)
            *out = twin;
        return 0;
    }
    if (e->nb_features == MAX_FEATURES) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Too many feature extractors (at most %d).\n", MAX_FEATURES);
        ff_vmaf_feature_free(&f);
        return AVERROR(EINVAL);
    }
    f->rank = e->nb_features;
    e->features[e->nb_features++] = f;
    if (out)
        *out = f;
    return 0;
}

int ff_vmaf_engine_add_feature_instance(FFVmafEngine *e, const char *name,
                                        const AVDictionary *opts,
                                        FFVmafFeature **out)
{
    int ret = add_feature(e, name, opts, out);
    if (ret < 0)
        ff_vmaf_engine_feature_failed(e, name);
    return ret;
}

int ff_vmaf_engine_parse_list(FFVmafEngine *e, const char *list,
                              int (*add)(FFVmafEngine *e, const char *entry))
{
    char *copy, *saveptr = NULL, *entry;
    int ret = 0;

    if (!list || !*list)
        return 0;
    if (!(copy = av_strdup(list)))
        return AVERROR(ENOMEM);
    /* As libvmaf's filter: entries are split at '|'. */
    for (entry = av_strtok(copy, "|", &saveptr); entry && ret >= 0;
         entry = av_strtok(NULL, "|", &saveptr))
        ret = add(e, entry);
    av_free(copy);
    return ret;
}

/*
 * A feature entry without name=: the word it starts with when that is no
 * key=value pair (feature=psnr), else a key that is a feature's name
 * (feature=psnr=true), in word; 1 when that word is a feature's name.
 */
static int meant_feature(const char *spec, const AVDictionary *entry, char *word, size_t size)
{
    const AVDictionaryEntry *t = NULL;
    size_t n = strcspn(spec, "=:\\'");

    word[0] = 0;
    if (n && spec[n] != '=' && spec[n] != '\\' && spec[n] != '\'') {
        av_strlcpy(word, spec, FFMIN(n + 1, size));
        return !!ff_vmaf_extractor_find(word);
    }
    while ((t = av_dict_iterate(entry, t)))
        if (ff_vmaf_extractor_find(t->key)) {
            av_strlcpy(word, t->key, size);
            return 1;
        }
    return 0;
}

static int add_feature_entry(FFVmafEngine *e, const char *spec)
{
    AVDictionary *entry = NULL, *opts = NULL;
    const AVDictionaryEntry *name;
    char word[256] = "";
    int ret;

    /* key=value pairs at ':' with FFmpeg's usual backslash escaping. */
    ret  = av_dict_parse_string(&entry, spec, "=", ":", 0);
    name = ret < 0 ? NULL : av_dict_get(entry, "name", NULL, 0);
    if (!name && meant_feature(spec, entry, word, sizeof(word))) {
        /* A feature's name where name=<feature> was expected: say what to
         * write, not only what was wrong. */
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Feature entry '%s' has no name=<feature>: did you mean name=%s?\n",
               spec, word);
        ff_vmaf_engine_feature_failed(e, word);
        ret = AVERROR(EINVAL);
    } else if (!name && word[0]) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Feature entry '%s' has no name=<feature>, and '%s' is not a feature. "
               "Available features: %s.\n", spec, word, ff_vmaf_extractor_names());
        ff_vmaf_engine_feature_failed(e, word);
        ret = AVERROR(EINVAL);
    } else if (ret < 0) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "Cannot parse '%s': expected key=value pairs separated by ':'.\n", spec);
        ff_vmaf_engine_feature_failed(e, spec);
    } else if (!name) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "A feature entry needs name=<feature>. Available features: %s.\n",
               ff_vmaf_extractor_names());
        ff_vmaf_engine_feature_failed(e, spec);
        ret = AVERROR(EINVAL);
    } else if ((ret = av_dict_copy(&opts, entry, 0)) < 0) {
        ff_vmaf_engine_feature_failed(e, name->value);
    } else {
        av_dict_set(&opts, "name", NULL, 0);
        ret = ff_vmaf_engine_add_feature_instance(e, name->value, opts, NULL);
    }
    av_dict_free(&opts);
    av_dict_free(&entry);
    return ret;
}

int ff_vmaf_engine_parse_features(FFVmafEngine *e, const char *list)
{
    av_freep(&e->feature_cfg);
    if (list && !(e->feature_cfg = av_strdup(list)))
        return AVERROR(ENOMEM);
    return ff_vmaf_engine_parse_list(e, list, add_feature_entry);
}
