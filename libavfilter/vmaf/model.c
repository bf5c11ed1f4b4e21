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
 * libvmaf's model files and its prediction arithmetic: normalisation,
 * the v1 chroma correction, score transform, clipping and the bootstrap
 * statistics, in libvmaf's evaluation order so that scores are
 * bit-identical.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/bprint.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "json.h"
#include "model.h"
#include "svm.h"

#define MAX_FEATURES     64     ///< libvmaf's limit on feature_names
#define MAX_FEATURE_OPTS 32
#define MAX_KNOTS        10     ///< libvmaf's limit on score_transform knots
#define MAX_MEMBERS      256    ///< bootstrap members, model "0" included

typedef struct ScoreTransform {
    int enabled;
    int has_p[3];
    double p[3];
    int nb_knots;
    double knots[MAX_KNOTS][2];
    int out_lte_in, out_gte_in;
} ScoreTransform;

/** One support-vector regressor: a whole model, or a collection member. */
typedef struct Regressor {
    int nb_features;
    int input[MAX_FEATURES];    ///< model input index of each SVM feature
    int linear_rescale;
    /** [0] maps the SVM output to the score, [1 + i] feature i. */
    double slope[MAX_FEATURES + 1], intercept[MAX_FEATURES + 1];
    int clip;
    double clip_min, clip_max;
    ScoreTransform transform;
    /** v1 chroma-from-luma correction; feature indices, -1 when off. */
    int chroma_guided, chroma_guiding;
    double chroma_param;
    FFVmafSvm *svm;
} Regressor;

typedef struct ModelInput {
    FFVmafModelInput pub;
    int nb_opts;
    char *opt_key[MAX_FEATURE_OPTS], *opt_val[MAX_FEATURE_OPTS];
} ModelInput;

struct FFVmafModel {
    char *name;
    /* A collection holds model "0" in reg[0] and its members after it. */
    Regressor *reg;
    int nb_reg;
    ModelInput *inputs;
    int nb_inputs;
    char **output_keys;
    int nb_outputs;
};

/* Where loading stands, for messages naming the file and the member. */
typedef struct LoadCtx {
    void *log_ctx;
    const char *origin;
    const char *member;         ///< "3" inside a collection, else NULL
} LoadCtx;

/*
 * The extractor libvmaf finds for each feature name (the names its
 * extractors declare as provided). A trailing '*' matches a prefix.
 */
static const struct {
    const char *feature;
    const char *extractor;
} feature_extractors[] = {
    { "VMAF_integer_feature_adm2_score",             "adm"            },
    { "VMAF_integer_feature_aim_score",              "adm"            },
    { "VMAF_integer_feature_adm3_score",             "adm"            },
    { "integer_adm*",                                "adm"            },
    { "VMAF_integer_feature_vif_scale*",             "vif"            },
    { "integer_vif*",                                "vif"            },
    { "VMAF_integer_feature_motion_score",           "motion"         },
    { "VMAF_integer_feature_motion2_score",          "motion"         },
    { "VMAF_integer_feature_motion3_score",          "motion"         },
    { "VMAF_integer_feature_motion_sad_score",       "motion"         },
    { "VMAF_feature_adm2_score",                     "float_adm"      },
    { "VMAF_feature_aim_score",                      "float_adm"      },
    { "VMAF_feature_adm3_score",                     "float_adm"      },
    { "VMAF_feature_adm_scale*",                     "float_adm"      },
    { "VMAF_feature_vif_scale*",                     "float_vif"      },
    { "VMAF_feature_motion_score",                   "float_motion"   },
    { "VMAF_feature_motion2_score",                  "float_motion"   },
    { "VMAF_feature_motion3_score",                  "float_motion"   },
    { "Cambi_feature_cambi_score",                   "cambi"          },
    { "Speed_chroma_feature_speed_chroma_*",         "speed_chroma"   },
    { "Speed_temporal_feature_speed_temporal_score", "speed_temporal" },
    { "psnr_y",                                      "psnr"           },
    { "psnr_cb",                                     "psnr"           },
    { "psnr_cr",                                     "psnr"           },
    { "float_ssim*",                                 "float_ssim"     },
    { "float_ms_ssim*",                              "float_ms_ssim"  },
    { "float_psnr",                                  "float_psnr"     },
    { "float_ansnr",                                 "float_ansnr"    },
    { "float_anpsnr",                                "float_ansnr"    },
    { "float_moment_*",                              "float_moment"   },
    { "psnr_hvs*",                                   "psnr_hvs"       },
    { "ciede2000",                                   "ciede"          },
};

static const char *extractor_of(const char *feature)
{
    for (int i = 0; i < FF_ARRAY_ELEMS(feature_extractors); i++) {
        const char *pat = feature_extractors[i].feature;
        size_t n = strlen(pat);
        if (pat[n - 1] == '*' ? !strncmp(pat, feature, n - 1)
                              : !strcmp(pat, feature))
            return feature_extractors[i].extractor;
    }
    return NULL;
}

/* "an array", "a string", ... */
static const char *type_with_article(enum FFVmafJsonType type)
{
    switch (type) {
    case FF_VMAF_JSON_NULL:   return "null";
    case FF_VMAF_JSON_BOOL:   return "a boolean";
    case FF_VMAF_JSON_NUMBER: return "a number";
    case FF_VMAF_JSON_STRING: return "a string";
    case FF_VMAF_JSON_ARRAY:  return "an array";
    case FF_VMAF_JSON_OBJECT: return "an object";
    }
    return "unknown";
}

static int load_error(const LoadCtx *lc, const FFVmafJson *at,
                      const char *fmt, ...)
{
    char msg[512], where[64] = "";
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (at)
        snprintf(where, sizeof(where), " (line %d, column %d)",
                 at->line, at->column);
    av_log(lc->log_ctx, AV_LOG_ERROR, "Invalid VMAF model %s%s%s%s: %s%s.\n",
           lc->origin, lc->member ? ", member \"" : "",
           lc->member ? lc->member : "", lc->member ? "\"" : "", msg, where);
    return AVERROR_INVALIDDATA;
}

/* obj[key] of the given type; NULL and *ret < 0 if it is missing or wrong. */
static const FFVmafJson *get_typed(const LoadCtx *lc, const FFVmafJson *obj,
                                   const char *key, enum FFVmafJsonType type,
                                   int optional, int *ret)
{
    const FFVmafJson *v = ff_vmaf_json_get(obj, key);

    *ret = 0;
    if (!v || (optional && v->type == FF_VMAF_JSON_NULL)) {
        if (!optional)
            *ret = load_error(lc, obj, "\"model_dict\" has no \"%s\"", key);
        return NULL;
    }
    if (v->type != type) {
        *ret = load_error(lc, v, "\"%s\" is %s, expected %s", key,
                          type_with_article(v->type),
                          type_with_article(type));
        return NULL;
    }
    return v;
}

static int read_numbers(const LoadCtx *lc, const FFVmafJson *arr,
                        const char *key, double *out, int n)
{
    if (arr->nb_items != n)
        return load_error(lc, arr, "\"%s\" has %d elements, expected %d",
                          key, arr->nb_items, n);
    for (int i = 0; i < n; i++) {
        if (arr->items[i].type != FF_VMAF_JSON_NUMBER)
            return load_error(lc, &arr->items[i], "element %d of \"%s\" "
                              "is not a number", i, key);
        out[i] = arr->items[i].number;
    }
    return 0;
}

/* "true" as a JSON boolean or, as libvmaf's files spell it, a string. */
static int read_flag(const LoadCtx *lc, const FFVmafJson *obj,
                     const char *key, int *flag)
{
    const FFVmafJson *v = ff_vmaf_json_get(obj, key);

    if (!v || v->type == FF_VMAF_JSON_NULL)
        return 0;
    if (v->type == FF_VMAF_JSON_BOOL)
        *flag = v->boolean;
    else if (v->type == FF_VMAF_JSON_STRING && !strcmp(v->str, "true"))
        *flag = 1;
    else if (v->type == FF_VMAF_JSON_STRING && !strcmp(v->str, "false"))
        *flag = 0;
    else
        return load_error(lc, v, "\"%s\" must be true or false", key);
    return 0;
}

static int load_transform(const LoadCtx *lc, ScoreTransform *t,
                          const FFVmafJson *obj, int force_enable)
{
    static const char *const pnames[3] = { "p0", "p1", "p2" };
    const FFVmafJson *knots;
    int ret;

    if ((ret = read_flag(lc, obj, "enabled", &t->enabled)) < 0 ||
        (ret = read_flag(lc, obj, "out_lte_in", &t->out_lte_in)) < 0 ||
        (ret = read_flag(lc, obj, "out_gte_in", &t->out_gte_in)) < 0)
        return ret;
    t->enabled |= force_enable;

    for (int i = 0; i < 3; i++) {
        const FFVmafJson *p = get_typed(lc, obj, pnames[i],
                                        FF_VMAF_JSON_NUMBER, 1, &ret);
        if (ret < 0)
            return ret;
        if (p) {
            t->has_p[i] = 1;
            t->p[i]     = p->number;
        }
    }

    knots = get_typed(lc, obj, "knots", FF_VMAF_JSON_ARRAY, 1, &ret);
    if (ret < 0 || !knots)
        return ret;
    if (knots->nb_items < 2 || knots->nb_items > MAX_KNOTS)
        return load_error(lc, knots, "\"knots\" has %d points, expected "
                          "2 to %d", knots->nb_items, MAX_KNOTS);
    for (int i = 0; i < knots->nb_items; i++) {
        const FFVmafJson *k = &knots->items[i];
        if (k->type != FF_VMAF_JSON_ARRAY)
            return load_error(lc, k, "knot %d is not an [x, y] pair", i);
        if ((ret = read_numbers(lc, k, "knots", t->knots[i], 2)) < 0)
            return ret;
    }
    t->nb_knots = knots->nb_items;
    return 0;
}

/*
 * Feature option values become text for ff_vmaf_feature_alloc(). Numbers
 * keep their JSON spelling, which strtod() reads back to the same double.
 */
static int option_text(const LoadCtx *lc, const FFVmafJson *v,
                       const char **text)
{
    switch (v->type) {
    case FF_VMAF_JSON_BOOL:
        *text = v->boolean ? "true" : "false";
        return 1;
    case FF_VMAF_JSON_NUMBER:
    case FF_VMAF_JSON_STRING:
        if (strchr(v->str, ':') || strchr(v->str, '=') ||
            strlen(v->str) != v->str_len || !v->str_len)
            return load_error(lc, v, "value of feature option \"%s\" is "
                              "empty or contains ':', '=' or NUL", v->key);
        *text = v->str;
        return 1;
    default:
        /* libvmaf only takes scalars; it skips other values. */
        av_log(lc->log_ctx, AV_LOG_WARNING, "VMAF model %s: ignoring "
               "feature option \"%s\", which is %s (line %d).\n",
               lc->origin, v->key, type_with_article(v->type), v->line);
        return 0;
    }
}

static int rebuild_opts(ModelInput *in)
{
    AVBPrint bp;
    char *opts;
    int ret;

    av_bprint_init(&bp, 0, AV_BPRINT_SIZE_UNLIMITED);
    for (int i = 0; i < in->nb_opts; i++)
        av_bprintf(&bp, "%s%s=%s", i ? ":" : "", in->opt_key[i],
                   in->opt_val[i]);
    if ((ret = av_bprint_finalize(&bp, &opts)) < 0)
        return ret;
    av_free((char *)in->pub.opts);
    in->pub.opts = opts;
    return 0;
}

/* Add or replace one option of an input. */
static int input_set_option(ModelInput *in, const char *key,
                            const char *value)
{
    char *v = av_strdup(value);
    int i;

    if (!v)
        return AVERROR(ENOMEM);
    for (i = 0; i < in->nb_opts; i++)
        if (!strcmp(in->opt_key[i], key))
            break;
    if (i == in->nb_opts) {
        if (i == MAX_FEATURE_OPTS) {
            av_free(v);
            return AVERROR(ENOSPC);
        }
        if (!(in->opt_key[i] = av_strdup(key))) {
            av_free(v);
            return AVERROR(ENOMEM);
        }
        in->nb_opts++;
    }
    av_free(in->opt_val[i]);
    in->opt_val[i] = v;
    return 0;
}

static void input_uninit(ModelInput *in)
{
    av_freep(&in->pub.feature);
    av_freep(&in->pub.opts);
    for (int i = 0; i < in->nb_opts; i++) {
        av_freep(&in->opt_key[i]);
        av_freep(&in->opt_val[i]);
    }
}

/*
 * Index of the model input for (feature, opts), created if new. Collection
 * members share their inputs, so each value is computed once.
 */
static int find_or_add_input(FFVmafModel *m, const LoadCtx *lc,
                             const FFVmafJson *name, const FFVmafJson *opts)
{
    ModelInput in = { 0 }, *tmp;
    const char *extractor = extractor_of(name->str);
    int ret;

    if (!extractor)
        return load_error(lc, name, "no feature extractor computes "
                          "\"%s\"", name->str);
    in.pub.extractor = extractor;
    if (!(in.pub.feature = av_strdup(name->str))) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    for (int i = 0; opts && i < opts->nb_items; i++) {
        const FFVmafJson *o = &opts->items[i];
        const char *text = NULL;
        if (!o->key[0] || strchr(o->key, ':') || strchr(o->key, '=')) {
            ret = load_error(lc, o, "invalid feature option name \"%s\"",
                             o->key);
            goto fail;
        }
        if ((ret = option_text(lc, o, &text)) < 0)
            goto fail;
        if (ret && (ret = input_set_option(&in, o->key, text)) < 0) {
            if (ret == AVERROR(ENOSPC))
                ret = load_error(lc, opts, "more than %d options for "
                                 "\"%s\"", MAX_FEATURE_OPTS, name->str);
            goto fail;
        }
    }
    if ((ret = rebuild_opts(&in)) < 0)
        goto fail;

    for (int j = 0; j < m->nb_inputs; j++) {
        if (!strcmp(m->inputs[j].pub.feature, in.pub.feature) &&
            !strcmp(m->inputs[j].pub.opts, in.pub.opts)) {
            input_uninit(&in);
            return j;
        }
    }
    tmp = av_realloc_array(m->inputs, m->nb_inputs + 1, sizeof(*tmp));
    if (!tmp) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    m->inputs = tmp;
    m->inputs[m->nb_inputs] = in;
    return m->nb_inputs++;
fail:
    input_uninit(&in);
    return ret;
}

static int load_features(FFVmafModel *m, const LoadCtx *lc, Regressor *r,
                         const FFVmafJson *md)
{
    const FFVmafJson *names, *opts;
    int ret;

    names = get_typed(lc, md, "feature_names", FF_VMAF_JSON_ARRAY, 0, &ret);
    if (!names)
        return ret;
    if (names->nb_items < 1 || names->nb_items > MAX_FEATURES)
        return load_error(lc, names, "\"feature_names\" has %d entries, "
                          "expected 1 to %d", names->nb_items, MAX_FEATURES);
    opts = get_typed(lc, md, "feature_opts_dicts", FF_VMAF_JSON_ARRAY, 1,
                     &ret);
    if (ret < 0)
        return ret;
    if (opts && opts->nb_items != names->nb_items)
        return load_error(lc, opts, "\"feature_opts_dicts\" has %d entries "
                          "but \"feature_names\" %d", opts->nb_items,
                          names->nb_items);

    r->nb_features = names->nb_items;
    for (int i = 0; i < r->nb_features; i++) {
        const FFVmafJson *name = &names->items[i];
        const FFVmafJson *dict = opts ? &opts->items[i] : NULL;
        if (name->type != FF_VMAF_JSON_STRING)
            return load_error(lc, name, "feature name %d is not a string", i);
        if (dict && dict->type == FF_VMAF_JSON_NULL)
            dict = NULL;
        if (dict && dict->type != FF_VMAF_JSON_OBJECT)
            return load_error(lc, dict, "entry %d of \"feature_opts_dicts\" "
                              "is not an object", i);
        if ((ret = find_or_add_input(m, lc, name, dict)) < 0)
            return ret;
        r->input[i] = ret;
    }
    return 0;
}

static int find_feature(const FFVmafModel *m, const Regressor *r,
                        const char *part)
{
    for (int i = 0; i < r->nb_features; i++)
        if (strstr(m->inputs[r->input[i]].pub.feature, part))
            return i;
    return -1;
}

static int load_regressor(FFVmafModel *m, const LoadCtx *lc, Regressor *r,
                          const FFVmafJson *obj, const FFVmafModelConfig *cfg)
{
    const FFVmafJson *md, *v;
    char err[256];
    int ret;

    r->chroma_guided = r->chroma_guiding = -1;

    if (obj->type != FF_VMAF_JSON_OBJECT)
        return load_error(lc, obj, "expected an object, found %s",
                          type_with_article(obj->type));
    md = ff_vmaf_json_get(obj, "model_dict");
    if (!md)
        return load_error(lc, obj, "no \"model_dict\"");
    if (md->type != FF_VMAF_JSON_OBJECT)
        return load_error(lc, md, "\"model_dict\" is not an object");

    v = get_typed(lc, md, "model_type", FF_VMAF_JSON_STRING, 0, &ret);
    if (!v)
        return ret;
    if (strcmp(v->str, "LIBSVMNUSVR") &&
        strcmp(v->str, "BOOTSTRAP_LIBSVMNUSVR") &&
        strcmp(v->str, "RESIDUEBOOTSTRAP_LIBSVMNUSVR"))
        return load_error(lc, v, "model_type \"%s\" is not supported "
                          "(expected LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR or "
                          "RESIDUEBOOTSTRAP_LIBSVMNUSVR)", v->str);

    v = get_typed(lc, md, "norm_type", FF_VMAF_JSON_STRING, 1, &ret);
    if (ret < 0)
        return ret;
    if (v && !strcmp(v->str, "linear_rescale"))
        r->linear_rescale = 1;
    else if (v && strcmp(v->str, "none"))
        return load_error(lc, v, "norm_type \"%s\" is not supported "
                          "(expected linear_rescale or none)", v->str);

    if ((ret = load_features(m, lc, r, md)) < 0)
        return ret;

    if (r->linear_rescale) {
        v = get_typed(lc, md, "slopes", FF_VMAF_JSON_ARRAY, 0, &ret);
        if (!v || (ret = read_numbers(lc, v, "slopes", r->slope,
                                      r->nb_features + 1)) < 0)
            return ret;
        v = get_typed(lc, md, "intercepts", FF_VMAF_JSON_ARRAY, 0, &ret);
        if (!v || (ret = read_numbers(lc, v, "intercepts", r->intercept,
                                      r->nb_features + 1)) < 0)
            return ret;
    }

    v = get_typed(lc, md, "score_clip", FF_VMAF_JSON_ARRAY, 1, &ret);
    if (ret < 0)
        return ret;
    if (v) {
        double clip[2] = { 0 };
        if ((ret = read_numbers(lc, v, "score_clip", clip, 2)) < 0)
            return ret;
        if (clip[0] > clip[1])
            return load_error(lc, v, "\"score_clip\" minimum %g exceeds "
                              "its maximum %g", clip[0], clip[1]);
        r->clip     = !cfg->disable_clip;
        r->clip_min = clip[0];
        r->clip_max = clip[1];
    }

    v = get_typed(lc, md, "score_transform", FF_VMAF_JSON_OBJECT, 1, &ret);
    if (ret < 0)
        return ret;
    if (v && (ret = load_transform(lc, &r->transform, v,
                                   cfg->enable_transform)) < 0)
        return ret;

    v = get_typed(lc, md, "chroma_correction_parameter",
                  FF_VMAF_JSON_NUMBER, 1, &ret);
    if (ret < 0)
        return ret;
    if (v) {
        /* v1.0.16: SpEED chroma is re-derived from adm3 where it is 0. */
        r->chroma_param   = v->number;
        r->chroma_guided  = find_feature(m, r, "speed_chroma");
        r->chroma_guiding = find_feature(m, r, "adm3");
        if (r->chroma_guided < 0 || r->chroma_guiding < 0) {
            av_log(lc->log_ctx, AV_LOG_WARNING, "VMAF model %s: "
                   "chroma_correction_parameter without a speed_chroma and "
                   "an adm3 feature; no correction.\n", lc->origin);
            r->chroma_guided = r->chroma_guiding = -1;
        }
    }

    v = get_typed(lc, md, "model", FF_VMAF_JSON_STRING, 0, &ret);
    if (!v)
        return ret;
    ret = ff_vmaf_svm_parse(&r->svm, v->str, v->str_len, r->nb_features,
                            err, sizeof(err));
    if (ret == AVERROR_INVALIDDATA)
        return load_error(lc, v, "bad SVM text in \"model\", %s", err);
    return ret;
}

/* Members "0", "1", ... of a bootstrap collection, in that order. */
static int count_members(const FFVmafJson *root)
{
    char key[16];
    int n = 0;
    for (;;) {
        snprintf(key, sizeof(key), "%d", n);
        if (!ff_vmaf_json_get(root, key) || n == MAX_MEMBERS)
            return n;
        n++;
    }
}

static int make_output_keys(FFVmafModel *m)
{
    static const char *const stats[] = {
        "bagging", "stddev", "ci_p95_lo", "ci_p95_hi",
    };
    int n = m->nb_reg == 1 ? 1 : m->nb_reg + FF_ARRAY_ELEMS(stats);

    m->output_keys = av_calloc(n, sizeof(*m->output_keys));
    if (!m->output_keys)
        return AVERROR(ENOMEM);
    m->nb_outputs = n;
    m->output_keys[0] = av_strdup(m->name);
    for (int k = 1; k < m->nb_reg; k++)
        m->output_keys[k] = av_asprintf("%s_%04d", m->name, k);
    for (int k = m->nb_reg; k < n; k++)
        m->output_keys[k] = av_asprintf("%s_%s", m->name,
                                        stats[k - m->nb_reg]);
    for (int k = 0; k < n; k++)
        if (!m->output_keys[k])
            return AVERROR(ENOMEM);
    return 0;
}

static int load_tree(FFVmafModel *m, LoadCtx *lc, const FFVmafJson *root,
                     const FFVmafModelConfig *cfg)
{
    int ret;

    if (root->type != FF_VMAF_JSON_OBJECT)
        return load_error(lc, root, "the top level is %s, expected an "
                          "object", type_with_article(root->type));

    if (ff_vmaf_json_get(root, "model_dict")) {
        m->nb_reg = 1;
    } else {
        m->nb_reg = count_members(root);
        if (m->nb_reg < 2)
            return load_error(lc, NULL, "neither a single model (no "
                              "\"model_dict\") nor a bootstrap collection "
                              "(members \"0\", \"1\", ...)");
        if (m->nb_reg == MAX_MEMBERS)
            return load_error(lc, NULL, "more than %d collection members",
                              MAX_MEMBERS - 1);
    }
    m->reg = av_calloc(m->nb_reg, sizeof(*m->reg));
    if (!m->reg)
        return AVERROR(ENOMEM);

    if (m->nb_reg == 1)
        return load_regressor(m, lc, &m->reg[0], root, cfg);
    for (int k = 0; k < m->nb_reg; k++) {
        char key[16];
        snprintf(key, sizeof(key), "%d", k);
        lc->member = key;
        ret = load_regressor(m, lc, &m->reg[k],
                             ff_vmaf_json_get(root, key), cfg);
        lc->member = NULL;
        if (ret < 0)
            return ret;
    }
    return 0;
}

int ff_vmaf_model_load_buffer(FFVmafModel **pm, const char *json, size_t len,
                              const FFVmafModelConfig *cfg,
                              const char *origin, void *log_ctx)
{
    static const FFVmafModelConfig default_cfg = { 0 };
    LoadCtx lc = { .log_ctx = log_ctx,
                   .origin  = origin ? origin : "(buffer)" };
    FFVmafJsonDoc *doc = NULL;
    FFVmafModel *m;
    char err[256];
    int ret;

    *pm = NULL;
    if (!cfg)
        cfg = &default_cfg;
    if (cfg->name && !cfg->name[0]) {
        av_log(log_ctx, AV_LOG_ERROR, "VMAF model %s: the model name must "
               "not be empty.\n", lc.origin);
        return AVERROR(EINVAL);
    }

    ret = ff_vmaf_json_parse(&doc, json, len, 0, err, sizeof(err));
    if (ret < 0) {
        av_log(log_ctx, AV_LOG_ERROR, "Invalid VMAF model %s: malformed "
               "JSON at %s.\n", lc.origin, err);
        return ret;
    }

    m = av_mallocz(sizeof(*m));
    if (!m || !(m->name = av_strdup(cfg->name ? cfg->name : "vmaf"))) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    if ((ret = load_tree(m, &lc, ff_vmaf_json_root(doc), cfg)) < 0 ||
        (ret = make_output_keys(m)) < 0)
        goto end;
    *pm = m;
    m   = NULL;
end:
    ff_vmaf_model_free(&m);
    ff_vmaf_json_free(&doc);
    return ret;
}

int ff_vmaf_model_set_feature_option(FFVmafModel *m, const char *extractor,
                                     const char *opt, const char *value)
{
    int changed = 0, ret;

    if (!*opt || strchr(opt, ':') || strchr(opt, '=') ||
        strchr(value, ':'))
        return AVERROR(EINVAL);
    for (int j = 0; j < m->nb_inputs; j++) {
        ModelInput *in = &m->inputs[j];
        if (strcmp(in->pub.extractor, extractor))
            continue;
        if ((ret = input_set_option(in, opt, value)) < 0 ||
            (ret = rebuild_opts(in)) < 0)
            return ret;
        changed++;
    }
    return changed;
}

void ff_vmaf_model_free(FFVmafModel **pm)
{
    FFVmafModel *m = *pm;
    if (!m)
        return;
    for (int k = 0; m->reg && k < m->nb_reg; k++)
        ff_vmaf_svm_free(&m->reg[k].svm);
    av_free(m->reg);
    for (int j = 0; j < m->nb_inputs; j++)
        input_uninit(&m->inputs[j]);
    av_free(m->inputs);
    for (int k = 0; m->output_keys && k < m->nb_outputs; k++)
        av_free(m->output_keys[k]);
    av_free(m->output_keys);
    av_free(m->name);
    av_freep(pm);
}

const char *ff_vmaf_model_name(const FFVmafModel *m)
{
    return m->name;
}

int ff_vmaf_model_nb_inputs(const FFVmafModel *m)
{
    return m->nb_inputs;
}

const FFVmafModelInput *ff_vmaf_model_input(const FFVmafModel *m, int j)
{
    return j >= 0 && j < m->nb_inputs ? &m->inputs[j].pub : NULL;
}

int ff_vmaf_model_nb_outputs(const FFVmafModel *m)
{
    return m->nb_outputs;
}

const char *ff_vmaf_model_output_key(const FFVmafModel *m, int k)
{
    return k >= 0 && k < m->nb_outputs ? m->output_keys[k] : NULL;
}

/* The SVM output mapped back to the score scale, before transform/clip. */
static double regressor_score(const Regressor *r, const double *inputs)
{
    double x[MAX_FEATURES], y;

    for (int i = 0; i < r->nb_features; i++) {
        double f = inputs[r->input[i]];
        x[i] = r->linear_rescale ? r->slope[i + 1] * f + r->intercept[i + 1]
                                 : f;
    }

    if (r->chroma_guided >= 0) {
        /*
         * v1 models: where SpEED chroma is exactly 0 (no usable chroma),
         * libvmaf substitutes param * (1 - adm3), in normalised units.
         */
        int s = r->chroma_guided + 1, a = r->chroma_guiding + 1;
        double guided  = x[s - 1], guiding = x[a - 1];
        if (r->linear_rescale) {
            guided  = (guided  - r->intercept[s]) / r->slope[s];
            guiding = (guiding - r->intercept[a]) / r->slope[a];
        }
        if (guided == 0.0) {
            double v = -r->chroma_param * guiding + r->chroma_param;
            x[s - 1] = r->linear_rescale ? r->slope[s] * v + r->intercept[s]
                                         : v;
        }
    }

    y = ff_vmaf_svm_predict(r->svm, x);
    if (r->linear_rescale)
        y = (y - r->intercept[0]) / r->slope[0];
    return y;
}

static double apply_knots(const ScoreTransform *t, double x)
{
    int i = 0;
    double x0, y0, x1, y1;

    /* The segment containing x; the first/last one extrapolates. */
    while (i < t->nb_knots - 2 && x > t->knots[i + 1][0])
        i++;
    x0 = t->knots[i][0];
    y0 = t->knots[i][1];
    x1 = t->knots[i + 1][0];
    y1 = t->knots[i + 1][1];
    if (y0 == y1 || x0 == x1)
        return y0;
    return y0 + (x - x0) * (y1 - y0) / (x1 - x0);
}

/* score_transform (when enabled), then score_clip (unless disabled). */
static double regressor_post(const Regressor *r, double y)
{
    const ScoreTransform *t = &r->transform;

    if (t->enabled) {
        double y0 = y;
        if (t->has_p[0] || t->has_p[1] || t->has_p[2]) {
            y = 0.0;
            if (t->has_p[0])
                y += t->p[0];
            if (t->has_p[1])
                y += t->p[1] * y0;
            if (t->has_p[2])
                y += t->p[2] * y0 * y0;
        }
        if (t->nb_knots)
            y = apply_knots(t, y);
        if (t->out_lte_in && y > y0)
            y = y0;
        if (t->out_gte_in && y < y0)
            y = y0;
    }
    if (r->clip)
        y = y < r->clip_min ? r->clip_min : y > r->clip_max ? r->clip_max : y;
    return y;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Linear interpolation between the closest ranks, as numpy's default. */
static double percentile(const double *sorted, int n, double q)
{
    double t = q * (n - 1) / 100.0;
    double l = floor(t), u = ceil(t);

    if (l == u)
        return sorted[(int)l];
    return sorted[(int)l] * (u - t) + sorted[(int)u] * (t - l);
}

int ff_vmaf_model_predict(const FFVmafModel *m, const double *inputs,
                          int nb_inputs, double *out)
{
    double s[MAX_MEMBERS], sorted[MAX_MEMBERS];
    double sum = 0.0, ssd = 0.0, mean, sd;
    const Regressor *first;
    int n = m->nb_reg - 1;

    if (nb_inputs != m->nb_inputs)
        return AVERROR(EINVAL);

    out[0] = regressor_post(&m->reg[0], regressor_score(&m->reg[0], inputs));
    if (m->nb_reg == 1)
        return 0;

    /* Collection statistics use the raw member scores; "0" is not one. */
    for (int k = 1; k <= n; k++) {
        s[k - 1] = regressor_score(&m->reg[k], inputs);
        out[k]   = regressor_post(&m->reg[k], s[k - 1]);
        sum     += s[k - 1];
    }
    mean = sum / n;
    for (int k = 0; k < n; k++)
        ssd += (s[k] - mean) * (s[k] - mean);
    sd = sqrt(ssd / n);
    memcpy(sorted, s, n * sizeof(*s));
    qsort(sorted, n, sizeof(*sorted), cmp_double);

    /* The summary values go through member 1's transform and clip. */
    first = &m->reg[1];
    out[n + 1] = regressor_post(first, mean);
    /* The spread is scaled by the local slope of post(), computed first. */
    out[n + 2] = sd * ((regressor_post(first, mean + 0.01) -
                        regressor_post(first, mean - 0.01)) / 0.02);
    out[n + 3] = regressor_post(first, percentile(sorted, n, 2.5));
    out[n + 4] = regressor_post(first, percentile(sorted, n, 97.5));
    return 0;
}

void ff_vmaf_model_describe(const FFVmafModel *m, void *log_ctx, int level)
{
    const Regressor *r = &m->reg[0];

    if (m->nb_reg == 1)
        av_log(log_ctx, level, "VMAF model '%s': %d support vectors, "
               "transform %s, clip %s.\n", m->name,
               ff_vmaf_svm_nb_sv(r->svm), r->transform.enabled ? "on" : "off",
               r->clip ? "on" : "off");
    else
        av_log(log_ctx, level, "VMAF model '%s': bootstrap collection of "
               "%d models plus model \"0\".\n", m->name, m->nb_reg - 1);
    for (int j = 0; j < m->nb_inputs; j++)
        av_log(log_ctx, level, "  input %d: %s from extractor '%s'%s%s\n",
               j, m->inputs[j].pub.feature, m->inputs[j].pub.extractor,
               m->inputs[j].pub.opts[0] ? " with " : "",
               m->inputs[j].pub.opts);
    for (int k = 0; k < m->nb_outputs; k++)
        av_log(log_ctx, level, "  output %d: %s\n", k, m->output_keys[k]);
}
