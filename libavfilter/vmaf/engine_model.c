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
 * Models inside the engine: the features each pulls in, and its per-frame
 * scores once every input of a frame is final.
 */

#include <stdio.h>
#include <limits.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/dict.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "engine_state.h"
#include "model.h"

typedef struct EngineModel {
    FFVmafModel *model;
    int nb_inputs, nb_outputs;
    char (*input_keys)[256];    ///< collector key of each model input
    /* Their collector handles, and those of the outputs, once known
     * (-1 before): resolved at the first frame, by handle after. */
    int *input_handles, *output_handles;
    double *inputs, *outputs;
} EngineModel;

static void free_model(EngineModel **pm)
{
    EngineModel *m = *pm;
    if (!m)
        return;
    ff_vmaf_model_free(&m->model);
    av_free(m->input_keys);
    av_free(m->input_handles);
    av_free(m->output_handles);
    av_free(m->inputs);
    av_free(m->outputs);
    av_freep(pm);
}

/*
 * Whether extractor ex can write the value a model file names. Model files
 * name values that libvmaf finds by prefix ("integer_adm*" is adm's), so a
 * name can lead to an extractor that never writes it: that must fail here,
 * naming both, not when the first frame is scored.
 */
static int check_model_feature(FFVmafEngine *e, const FFVmafModel *model, const char *entry,
                               const FFVmafModelInput *in)
{
    const FFVmafExtractor *ex = ff_vmaf_extractor_find(in->extractor);
    const char *const *lists[2];
    char names[2048] = "";

    if (!ex)
        return 0;   /* reported by ff_vmaf_engine_add_feature_instance() */
    lists[0] = ex->provides;
    lists[1] = ex->plain_outputs;
    for (int l = 0; l < 2; l++)
        for (const char *const *p = lists[l]; p && *p; p++) {
            if (!strcmp(*p, in->feature))
                return 0;
            av_strlcatf(names, sizeof(names), "%s%s", names[0] ? ", " : "", *p);
        }
    av_log(e->log_ctx, AV_LOG_ERROR,
           "Model '%s' (%s) needs feature '%s', which no extractor computes: the name "
           "leads to extractor '%s' by its prefix, and '%s' computes %s. Correct the name "
           "in the model's \"feature_names\".\n", ff_vmaf_model_name(model), entry,
           in->feature, ex->name, ex->name, names);
    return AVERROR(EINVAL);
}

static int load_model_entry(FFVmafEngine *e, const char *entry)
{
    EngineModel *m;
    int ret;

    if (e->nb_models == MAX_MODELS) {
        av_log(e->log_ctx, AV_LOG_ERROR, "Too many models (at most %d).\n", MAX_MODELS);
        return AVERROR(EINVAL);
    }
    if (!(m = av_mallocz(sizeof(*m))))
        return AVERROR(ENOMEM);
    if ((ret = ff_vmaf_model_open(&m->model, entry, e->log_ctx)) < 0)
        goto fail;

    m->nb_inputs  = ff_vmaf_model_nb_inputs(m->model);
    m->nb_outputs = ff_vmaf_model_nb_outputs(m->model);
    m->input_keys = av_calloc(FFMAX(m->nb_inputs, 1), sizeof(*m->input_keys));
    m->inputs     = av_calloc(FFMAX(m->nb_inputs, 1), sizeof(*m->inputs));
    m->outputs    = av_calloc(FFMAX(m->nb_outputs, 1), sizeof(*m->outputs));
    m->input_handles  = av_malloc_array(FFMAX(m->nb_inputs, 1), sizeof(*m->input_handles));
    m->output_handles = av_malloc_array(FFMAX(m->nb_outputs, 1), sizeof(*m->output_handles));
    if (!m->input_keys || !m->inputs || !m->outputs || !m->input_handles || !m->output_handles) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    for (int j = 0; j < m->nb_inputs; j++)
        m->input_handles[j] = -1;
    for (int k = 0; k < m->nb_outputs; k++)
        m->output_handles[k] = -1;

    /* A model pulls in its features, with the options it gives them. */
    for (int j = 0; j < m->nb_inputs; j++) {
        const FFVmafModelInput *in = ff_vmaf_model_input(m->model, j);
        AVDictionary *opts = NULL;
        FFVmafFeature *f;

        if ((ret = check_model_feature(e, m->model, entry, in)) < 0)
            goto fail;
        if (in->opts && *in->opts &&
            (ret = av_dict_parse_string(&opts, in->opts, "=", ":", 0)) < 0) {
            av_dict_free(&opts);    /* it may hold the pairs before the bad one */
            goto fail;
        }
        ret = ff_vmaf_engine_add_feature_instance(e, in->extractor, opts, &f);
        av_dict_free(&opts);
        if (ret < 0) {
            av_log(e->log_ctx, AV_LOG_ERROR,
                   "Model '%s' needs feature '%s' (extractor '%s'), which is not available.\n",
                   ff_vmaf_model_name(m->model), in->feature, in->extractor);
            goto fail;
        }
        ff_vmaf_feature_key(f, in->feature, m->input_keys[j], sizeof(m->input_keys[j]));
    }
    e->models[e->nb_models++] = m;
    return 0;
fail:
    free_model(&m);
    return ret;
}

/* A model that does not load, for whatever reason, is also reported as
 * libvmaf's filter reports it, once. */
static int add_model_entry(FFVmafEngine *e, const char *entry)
{
    int ret = load_model_entry(e, entry);
    if (ret < 0)
        ff_vmaf_model_log_not_loaded(entry, e->log_ctx);
    return ret;
}

int ff_vmaf_engine_parse_models(FFVmafEngine *e, const char *list)
{
    av_freep(&e->model_cfg);
    if (list && !(e->model_cfg = av_strdup(list)))
        return AVERROR(ENOMEM);
    return ff_vmaf_engine_parse_list(e, list, add_model_entry);
}

int ff_vmaf_engine_configure_models(FFVmafEngine *e)
{
    for (int i = 0; i < e->nb_models; i++)
        ff_vmaf_model_describe(e->models[i]->model, e->log_ctx, AV_LOG_VERBOSE);
    return 0;
}

static int score_frame(FFVmafEngine *e, EngineModel *m, unsigned index)
{
    int ret;

    for (int j = 0; j < m->nb_inputs; j++) {
        if (m->input_handles[j] < 0)
            m->input_handles[j] = ff_vmaf_collector_find(e->fc, m->input_keys[j]);
        if (ff_vmaf_collector_read_handle(e->fc, m->input_handles[j], index, &m->inputs[j]) < 0) {
            av_log(e->log_ctx, AV_LOG_ERROR,
                   "Model '%s': feature '%s' of frame %u is missing.\n",
                   ff_vmaf_model_name(m->model), m->input_keys[j], index);
            return AVERROR_BUG;
        }
    }
    if ((ret = ff_vmaf_model_predict(m->model, m->inputs, m->nb_inputs, m->outputs)) < 0)
        return ret;
    ff_vmaf_engine_check_model(e, m->model, index, m->inputs, m->input_keys, m->outputs);
    for (int k = 0; k < m->nb_outputs; k++) {
        /* After every feature's key, as if the models were the last writers,
         * in the step a sequential run scores the frame in (when frames run
         * in parallel, the frame is scored whenever its features are done). */
        int64_t step = e->frames ? FFMIN(index + (unsigned)e->delay, e->nb_pushed) : -1;
        if (m->output_handles[k] < 0 &&
            (m->output_handles[k] = ff_vmaf_collector_handle(e->fc, ff_vmaf_model_output_key(m->model, k),
                                                             INT_MAX, step)) < 0)
            return m->output_handles[k];
        if ((ret = ff_vmaf_collector_write_handle(e->fc, m->output_handles[k], index,
                                                  m->outputs[k])) < 0)
            return ret;
    }
    return 0;
}

int ff_vmaf_engine_score_models(FFVmafEngine *e)
{
    unsigned done = ff_vmaf_engine_nb_features_done(e);
    int ret;

    for (; e->nb_model_scored < done; e->nb_model_scored++) {
        unsigned index = e->nb_model_scored;
        if (!ff_vmaf_engine_is_scored(e, index))
            continue;
        for (int i = 0; i < e->nb_models; i++)
            if ((ret = score_frame(e, e->models[i], index)) < 0)
                return ret;
        ff_vmaf_engine_check_frame(e, index);
    }
    return 0;
}

void ff_vmaf_engine_free_models(FFVmafEngine *e)
{
    for (int i = 0; i < e->nb_models; i++)
        free_model(&e->models[i]);
    e->nb_models = 0;
}

int ff_vmaf_engine_nb_models(const FFVmafEngine *e)
{
    return e->nb_models;
}

const char *ff_vmaf_engine_model_key(const FFVmafEngine *e, int i)
{
    if (i < 0 || i >= e->nb_models)
        return NULL;
    return ff_vmaf_model_output_key(e->models[i]->model, 0);
}

/* As the XML log can hold a name as an attribute name: an ASCII letter or
 * '_', then letters, digits, '_', '-' and '.'. */
static int is_xml_name_char(char c, int first)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           (!first && (av_isdigit(c) || c == '-' || c == '.'));
}

static int is_xml_name(const char *s)
{
    if (!is_xml_name_char(*s, 1))
        return 0;
    for (s++; *s; s++)
        if (!is_xml_name_char(*s, 0))
            return 0;
    return 1;
}

/* what: the name and whose it is, e.g. "Model 1's name 'x'". */
static int check_log_name(const FFVmafEngine *e, const char *what, const char *name,
                          int log_format)
{
    if (log_format == FF_VMAF_LOG_XML && !is_xml_name(name)) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "%s cannot be written in the XML log, which writes names as attribute "
               "names: a name must start with a letter (A-Z, a-z) or '_' and hold only "
               "letters, digits, '_', '-' and '.'. Choose another name, or log_fmt=json "
               "or log_fmt=csv.\n", what);
        return AVERROR(EINVAL);
    }
    if (log_format == FF_VMAF_LOG_SUB && strpbrk(name, "|\r\n")) {
        av_log(e->log_ctx, AV_LOG_ERROR,
               "%s cannot be written in the sub log, which separates values with '|' and "
               "frames with line breaks. Choose another name, or another log_fmt.\n", what);
        return AVERROR(EINVAL);
    }
    return 0;
}

/*
 * Whether feature f writes key under its own name or under the name the
 * logs show; with log_format >= 0, also check each of its names for it.
 */
static int feature_names_check(const FFVmafEngine *e, const FFVmafFeature *f,
                               const char *key, int log_format, int *found)
{
    const char *const *lists[2] = { f->ex->provides, f->ex->plain_outputs };
    char name[512], what[700];
    int ret;

    for (int l = 0; l < 2; l++) {
        for (const char *const *p = lists[l]; p && *p; p++) {
            const char *shown;
            ff_vmaf_feature_key(f, *p, name, sizeof(name));
            shown = ff_vmaf_feature_alias(name);
            if (key && (!strcmp(key, name) || !strcmp(key, shown)))
                *found = 1;
            if (log_format < 0)
                continue;
            snprintf(what, sizeof(what), "The name '%s' of a value of feature '%s'",
                     shown, f->ex->name);
            if ((ret = check_log_name(e, what, shown, log_format)) < 0)
                return ret;
        }
    }
    return 0;
}

int ff_vmaf_engine_check_names(const FFVmafEngine *e, int log_format)
{
    char what[512];
    int ret;

    for (int i = 0; i < e->nb_models; i++) {
        const FFVmafModel *m = e->models[i]->model;

        snprintf(what, sizeof(what), "Model %d's name '%s'", i + 1, ff_vmaf_model_name(m));
        if ((ret = check_log_name(e, what, ff_vmaf_model_name(m), log_format)) < 0)
            return ret;
        for (int k = 0; k < ff_vmaf_model_nb_outputs(m); k++) {
            const char *key = ff_vmaf_model_output_key(m, k);

            for (int j = 0; j < i; j++) {
                const FFVmafModel *o = e->models[j]->model;
                for (int l = 0; l < ff_vmaf_model_nb_outputs(o); l++) {
                    if (strcmp(key, ff_vmaf_model_output_key(o, l)))
                        continue;
                    av_log(e->log_ctx, AV_LOG_ERROR,
                           "Model %d ('%s') writes '%s', which model %d ('%s') writes too: "
                           "give one of them another name (name=...), so that each model's "
                           "scores have their own.\n", i + 1, ff_vmaf_model_name(m), key,
                           j + 1, ff_vmaf_model_name(o));
                    return AVERROR(EINVAL);
                }
            }
            for (int j = 0; j < e->nb_features; j++) {
                int found = 0;
                feature_names_check(e, e->features[j], key, -1, &found);
                if (!found)
                    continue;
                av_log(e->log_ctx, AV_LOG_ERROR,
                       "Model %d ('%s') writes '%s', which feature '%s' writes too: the logs "
                       "would hold both under one name, and the score printed could be the "
                       "feature's. Give the model another name (name=...).\n", i + 1,
                       ff_vmaf_model_name(m), key, e->features[j]->ex->name);
                return AVERROR(EINVAL);
            }
        }
    }
    for (int j = 0; j < e->nb_features && log_format >= 0; j++) {
        int found;
        if ((ret = feature_names_check(e, e->features[j], NULL, log_format, &found)) < 0)
            return ret;
    }
    return 0;
}

unsigned ff_vmaf_engine_nb_features_done(const FFVmafEngine *e)
{
    unsigned n = e->frames ? ff_vmaf_engine_frames_completed(e) : e->nb_pushed;
    if (e->flushed)
        return e->nb_pushed;
    /* The GPU's values are read back a few frames late. */
    if (e->gpu)
        n = FFMIN(n, e->gpu_collected);
    return n > (unsigned)e->delay ? n - e->delay : 0;
}
