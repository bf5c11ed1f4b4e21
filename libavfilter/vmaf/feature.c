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
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "collector.h"
#include "feature.h"

static const char *const alias_table[][2] = {
    { "VMAF_integer_feature_adm2_score",       "integer_adm2"       },
    { "VMAF_integer_feature_aim_score",        "integer_aim"        },
    { "VMAF_integer_feature_adm3_score",       "integer_adm3"       },
    { "VMAF_integer_feature_motion_score",     "integer_motion"     },
    { "VMAF_integer_feature_motion2_score",    "integer_motion2"    },
    { "VMAF_integer_feature_motion3_score",    "integer_motion3"    },
    { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0" },
    { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1" },
    { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2" },
    { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3" },
    { "Cambi_feature_cambi_score",             "cambi"              },
    { "Speed_chroma_feature_speed_chroma_u_score",  "speed_chroma_u"  },
    { "Speed_chroma_feature_speed_chroma_v_score",  "speed_chroma_v"  },
    { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv" },
    { "Speed_temporal_feature_speed_temporal_score", "speed_temporal" },
    { "VMAF_feature_adm2_score",               "adm2"               },
    { "VMAF_feature_aim_score",                "aim"                },
    { "VMAF_feature_adm3_score",               "adm3"               },
    { "VMAF_feature_adm_scale0_score",         "adm_scale0"         },
    { "VMAF_feature_adm_scale1_score",         "adm_scale1"         },
    { "VMAF_feature_adm_scale2_score",         "adm_scale2"         },
    { "VMAF_feature_adm_scale3_score",         "adm_scale3"         },
    { "VMAF_feature_motion_score",             "motion"             },
    { "VMAF_feature_motion2_score",            "motion2"            },
    { "VMAF_feature_motion3_score",            "motion3"            },
    { "VMAF_feature_vif_scale0_score",         "vif_scale0"         },
    { "VMAF_feature_vif_scale1_score",         "vif_scale1"         },
    { "VMAF_feature_vif_scale2_score",         "vif_scale2"         },
    { "VMAF_feature_vif_scale3_score",         "vif_scale3"         },
};

const char *ff_vmaf_feature_alias(const char *name)
{
    for (int i = 0; i < FF_ARRAY_ELEMS(alias_table); i++)
        if (!strcmp(alias_table[i][0], name))
            return alias_table[i][1];
    return name;
}

static void *option_ptr(const FFVmafFeature *f, const FFVmafOption *o)
{
    return (uint8_t *)f->priv + o->offset;
}

static int option_is_default(const FFVmafFeature *f, const FFVmafOption *o)
{
    const void *p = option_ptr(f, o);
    switch (o->type) {
    case FF_VMAF_OPT_BOOL:
    case FF_VMAF_OPT_INT:    return *(const int *)p == (int)o->def;
    case FF_VMAF_OPT_DOUBLE: return *(const double *)p == o->def;
    case FF_VMAF_OPT_STRING: {
        const char *s = *(char *const *)p;
        if (!s || !o->def_str)
            return s == o->def_str;
        return !strcmp(s, o->def_str);
    }
    }
    return 1;
}

static int cmp_option_names(const void *a, const void *b)
{
    const FFVmafOption *const *oa = a, *const *ob = b;
    return strcmp((*oa)->name, (*ob)->name);
}

void ff_vmaf_feature_update_suffix(FFVmafFeature *f)
{
    const FFVmafOption *params[64];
    int nb = 0;
    size_t len = 0;

    f->suffix[0] = 0;
    for (const FFVmafOption *o = f->ex->options; o && o->name; o++)
        if (o->is_param && !option_is_default(f, o) && nb < FF_ARRAY_ELEMS(params))
            params[nb++] = o;
    /* libvmaf sorts by the full option name, not by the alias. */
    qsort(params, nb, sizeof(*params), cmp_option_names);

    for (int i = 0; i < nb; i++) {
        const FFVmafOption *o = params[i];
        const char *alias = o->alias ? o->alias : o->name;
        const void *p = option_ptr(f, o);
        char *dst = f->suffix + len;
        size_t left = sizeof(f->suffix) - len;
        int n;

        switch (o->type) {
        case FF_VMAF_OPT_BOOL:
            n = snprintf(dst, left, "_%s", alias);
            break;
        case FF_VMAF_OPT_INT:
            n = snprintf(dst, left, "_%s_%d", alias, *(const int *)p);
            break;
        case FF_VMAF_OPT_DOUBLE:
            n = snprintf(dst, left, "_%s_%g", alias, *(const double *)p);
            break;
        default:
            n = snprintf(dst, left, "_%s_%s", alias, *(char *const *)p);
            break;
        }
        if (n < 0 || (size_t)n >= left)
            break;
        len += n;
    }
}

static void list_options(const FFVmafFeature *f, char *buf, size_t size)
{
    buf[0] = 0;
    for (const FFVmafOption *o = f->ex->options; o && o->name; o++)
        av_strlcatf(buf, size, "%s%s", buf[0] ? ", " : "", o->name);
    if (!buf[0])
        av_strlcpy(buf, "(none)", size);
}

int ff_vmaf_feature_set_option(FFVmafFeature *f, const char *key,
                               const char *value)
{
    const FFVmafOption *o;
    void *p;
    char *end;

    for (o = f->ex->options; o && o->name; o++)
        if (!strcmp(o->name, key))
            break;
    if (!o || !o->name) {
        char names[1024];
        list_options(f, names, sizeof(names));
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature '%s' has no option '%s'. Its options are: %s.\n",
               f->ex->name, key, names);
        return AVERROR(EINVAL);
    }

    p = option_ptr(f, o);
    switch (o->type) {
    case FF_VMAF_OPT_BOOL:
        if (!strcmp(value, "true") || !strcmp(value, "1")) {
            *(int *)p = 1;
        } else if (!strcmp(value, "false") || !strcmp(value, "0")) {
            *(int *)p = 0;
        } else {
            av_log(f->log_ctx, AV_LOG_ERROR,
                   "Invalid value '%s' for option '%s' of feature '%s': "
                   "expected true or false.\n", value, key, f->ex->name);
            return AVERROR(EINVAL);
        }
        break;
    case FF_VMAF_OPT_INT:
    case FF_VMAF_OPT_DOUBLE: {
        double d;
        errno = 0;
        d = strtod(value, &end);
        if (end == value || *end || errno || !isfinite(d) ||
            (o->type == FF_VMAF_OPT_INT && d != (int)d) ||
            d < o->min || d > o->max) {
            av_log(f->log_ctx, AV_LOG_ERROR,
                   "Invalid value '%s' for option '%s' of feature '%s': "
                   "expected %s in [%g, %g].\n", value, key, f->ex->name,
                   o->type == FF_VMAF_OPT_INT ? "an integer" : "a number",
                   o->min, o->max);
            return AVERROR(EINVAL);
        }
        if (o->type == FF_VMAF_OPT_INT)
            *(int *)p = (int)d;
        else
            *(double *)p = d;
        break;
    }
    case FF_VMAF_OPT_STRING: {
        char *s = av_strdup(value);
        if (!s)
            return AVERROR(ENOMEM);
        av_free(*(char **)p);
        *(char **)p = s;
        break;
    }
    }
    ff_vmaf_feature_update_suffix(f);
    return 0;
}

static int set_defaults(FFVmafFeature *f)
{
    for (const FFVmafOption *o = f->ex->options; o && o->name; o++) {
        void *p = option_ptr(f, o);
        switch (o->type) {
        case FF_VMAF_OPT_BOOL:
        case FF_VMAF_OPT_INT:    *(int *)p    = (int)o->def; break;
        case FF_VMAF_OPT_DOUBLE: *(double *)p = o->def;      break;
        case FF_VMAF_OPT_STRING:
            if (o->def_str && !(*(char **)p = av_strdup(o->def_str)))
                return AVERROR(ENOMEM);
            break;
        }
    }
    return 0;
}

int ff_vmaf_feature_alloc(FFVmafFeature **pf, const FFVmafExtractor *ex,
                          const char *opts, void *log_ctx)
{
    FFVmafFeature *f;
    char *copy = NULL, *saveptr = NULL, *tok;
    int ret;

    f = av_mallocz(sizeof(*f));
    if (!f)
        return AVERROR(ENOMEM);
    f->ex          = ex;
    f->log_ctx     = log_ctx;
    f->frame_delay = ex->frame_delay;
    f->sum_end     = UINT_MAX;
    f->step        = -1;
    f->priv    = av_mallocz(ex->priv_size ? ex->priv_size : 1);
    if (!f->priv) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    if ((ret = set_defaults(f)) < 0)
        goto fail;
    ff_vmaf_feature_update_suffix(f);

    if (opts && *opts) {
        copy = av_strdup(opts);
        if (!copy) {
            ret = AVERROR(ENOMEM);
            goto fail;
        }
        for (tok = av_strtok(copy, ":", &saveptr); tok;
             tok = av_strtok(NULL, ":", &saveptr)) {
            char *eq = strchr(tok, '=');
            if (!eq) {
                av_log(log_ctx, AV_LOG_ERROR,
                       "Option '%s' of feature '%s' has no value; "
                       "write it as key=value.\n", tok, ex->name);
                ret = AVERROR(EINVAL);
                goto fail;
            }
            *eq = 0;
            if ((ret = ff_vmaf_feature_set_option(f, tok, eq + 1)) < 0)
                goto fail;
        }
    }
    av_free(copy);
    *pf = f;
    return 0;
fail:
    av_free(copy);
    ff_vmaf_feature_free(&f);
    return ret;
}

int ff_vmaf_feature_clone(FFVmafFeature **pdst, const FFVmafFeature *src)
{
    FFVmafFeature *f;
    int ret = ff_vmaf_feature_alloc(&f, src->ex, NULL, src->log_ctx);
    if (ret < 0)
        return ret;
    for (const FFVmafOption *o = src->ex->options; o && o->name; o++) {
        const void *from = (const uint8_t *)src->priv + o->offset;
        void *to = option_ptr(f, o);
        switch (o->type) {
        case FF_VMAF_OPT_BOOL:
        case FF_VMAF_OPT_INT:    *(int *)to    = *(const int *)from;    break;
        case FF_VMAF_OPT_DOUBLE: *(double *)to = *(const double *)from; break;
        case FF_VMAF_OPT_STRING:
            av_freep(to);
            if (*(char *const *)from && !(*(char **)to = av_strdup(*(char *const *)from))) {
                ff_vmaf_feature_free(&f);
                return AVERROR(ENOMEM);
            }
            break;
        }
    }
    memcpy(f->suffix, src->suffix, sizeof(f->suffix));
    f->frame_delay = src->frame_delay;
    f->sum_first   = src->sum_first;
    f->sum_end     = src->sum_end;
    f->rank        = src->rank;
    *pdst = f;
    return 0;
}

int ff_vmaf_feature_options(const FFVmafFeature *f, char *buf, size_t size)
{
    buf[0] = 0;
    for (const FFVmafOption *o = f->ex->options; o && o->name; o++) {
        const void *p = option_ptr(f, o);
        const char *sep = buf[0] ? ":" : "";

        switch (o->type) {
        case FF_VMAF_OPT_BOOL:
        case FF_VMAF_OPT_INT:
            av_strlcatf(buf, size, "%s%s=%d", sep, o->name, *(const int *)p);
            break;
        case FF_VMAF_OPT_DOUBLE:
            /* Hexadecimal: strtod() reads back the very same double. */
            av_strlcatf(buf, size, "%s%s=%a", sep, o->name, *(const double *)p);
            break;
        case FF_VMAF_OPT_STRING: {
            const char *s = *(char *const *)p;
            if (!s)
                break;
            /* The list's separators cannot be escaped. */
            if (strpbrk(s, ":="))
                return AVERROR(EINVAL);
            av_strlcatf(buf, size, "%s%s=%s", sep, o->name, s);
            break;
        }
        }
    }
    return strlen(buf) + 1 < size ? 0 : AVERROR(ENOSPC);
}

void ff_vmaf_feature_free(FFVmafFeature **pf)
{
    FFVmafFeature *f = *pf;
    if (!f)
        return;
    if (f->priv) {
        for (const FFVmafOption *o = f->ex->options; o && o->name; o++)
            if (o->type == FF_VMAF_OPT_STRING)
                av_freep((uint8_t *)f->priv + o->offset);
    }
    av_free(f->priv);
    av_freep(pf);
}

static int is_declared(const FFVmafExtractor *ex, const char *name)
{
    for (const char *const *p = ex->provides; p && *p; p++)
        if (!strcmp(*p, name))
            return 1;
    return 0;
}

void ff_vmaf_feature_key(const FFVmafFeature *f, const char *name,
                         char *buf, size_t size)
{
    if (!f->suffix[0] || !is_declared(f->ex, name))
        av_strlcpy(buf, name, size);
    else
        snprintf(buf, size, "%s%s", ff_vmaf_feature_alias(name), f->suffix);
}

int ff_vmaf_feature_write(FFVmafFeature *f, struct FFVmafFeatureCollector *fc,
                          const char *name, unsigned index, double value)
{
    char key[512];
    int h = -1, ret;

    for (int i = 0; i < f->nb_handles; i++)
        if (!strcmp(f->handles[i].name, name)) {
            h = f->handles[i].handle;
            break;
        }
    if (h < 0) {
        ff_vmaf_feature_key(f, name, key, sizeof(key));
        if ((h = ff_vmaf_collector_handle(fc, key, f->rank, f->step)) < 0)
            return h;
        if (f->nb_handles < FF_ARRAY_ELEMS(f->handles) &&
            strlen(name) < sizeof(f->handles[0].name)) {
            av_strlcpy(f->handles[f->nb_handles].name, name, sizeof(f->handles[0].name));
            f->handles[f->nb_handles++].handle = h;
        }
    }
    ret = ff_vmaf_collector_write_handle(fc, h, index, value);
    if (ret == AVERROR(EINVAL)) {
        ff_vmaf_feature_key(f, name, key, sizeof(key));
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature '%s' wrote '%s' of frame %u twice.\n",
               f->ex->name, key, index);
    }
    return ret;
}
