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
 * Where models come from: the built-in table, files, and the model
 * descriptions of FFmpeg's libvmaf filter ("version=...:name=...").
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "model.h"
#include "models_data.h"

/* Far above any real model (the largest is 409 KB). */
#define MAX_FILE_SIZE (64 << 20)

static int read_file(const char *path, char **data, size_t *size,
                     void *log_ctx)
{
    FILE *f = fopen(path, "rb");
    size_t len = 0, cap = 0;
    char *buf = NULL;
    int ret = 0;

    if (!f) {
        ret = AVERROR(errno);
        av_log(log_ctx, AV_LOG_ERROR, "Cannot open VMAF model file '%s': "
               "%s.\n", path, av_err2str(ret));
        return ret;
    }
    for (;;) {
        if (cap - len < 4096) {
            char *tmp;
            cap = FFMAX(2 * cap, 64 * 1024);
            if (cap > MAX_FILE_SIZE + 4096) {
                av_log(log_ctx, AV_LOG_ERROR, "VMAF model file '%s' is "
                       "larger than %d MiB; not a model.\n", path,
                       MAX_FILE_SIZE >> 20);
                ret = AVERROR_INVALIDDATA;
                break;
            }
            if (!(tmp = av_realloc(buf, cap))) {
                ret = AVERROR(ENOMEM);
                break;
            }
            buf = tmp;
        }
        errno = 0;
        len += fread(buf + len, 1, cap - len, f);
        if (ferror(f)) {
            ret = AVERROR(errno ? errno : EIO);
            av_log(log_ctx, AV_LOG_ERROR, "Cannot read VMAF model file "
                   "'%s': %s.\n", path, av_err2str(ret));
            break;
        }
        if (feof(f))
            break;
    }
    fclose(f);
    if (ret < 0) {
        av_free(buf);
        return ret;
    }
    *data = buf;
    *size = len;
    return 0;
}

int ff_vmaf_model_load_file(FFVmafModel **m, const char *path,
                            const FFVmafModelConfig *cfg, void *log_ctx)
{
    char *data = NULL, *origin;
    size_t len = 0;
    int ret;

    *m = NULL;
    if ((ret = read_file(path, &data, &len, log_ctx)) < 0)
        return ret;
    origin = av_asprintf("file '%s'", path);
    if (!origin)
        ret = AVERROR(ENOMEM);
    else
        ret = ff_vmaf_model_load_buffer(m, data, len, cfg, origin, log_ctx);
    av_free(origin);
    av_free(data);
    return ret;
}

int ff_vmaf_model_builtin(const char *version, const char **json,
                          size_t *len)
{
    for (const FFVmafBuiltinModel *b = ff_vmaf_builtin_models; b->version;
         b++) {
        if (!strcmp(b->version, version)) {
            *json = (const char *)b->json;
            *len  = b->len;
            return 0;
        }
    }
    return AVERROR(ENOENT);
}

const char *ff_vmaf_model_builtin_version(int i)
{
    if (i < 0)
        return NULL;
    for (int k = 0; k < i; k++)
        if (!ff_vmaf_builtin_models[k].version)
            return NULL;
    return ff_vmaf_builtin_models[i].version;
}

void ff_vmaf_model_builtin_list(char *buf, size_t size)
{
    const char *v;
    if (size)
        buf[0] = 0;
    for (int i = 0; (v = ff_vmaf_model_builtin_version(i)); i++)
        av_strlcatf(buf, size, "%s%s", i ? ", " : "", v);
}

int ff_vmaf_model_load_builtin(FFVmafModel **m, const char *version,
                               const FFVmafModelConfig *cfg, void *log_ctx)
{
    const char *json;
    char origin[128];
    size_t len;

    *m = NULL;
    if (ff_vmaf_model_builtin(version, &json, &len) < 0) {
        char list[1024];
        ff_vmaf_model_builtin_list(list, sizeof(list));
        av_log(log_ctx, AV_LOG_ERROR, "There is no built-in VMAF model "
               "'%s'. Built-in models: %s. Use path=<file> for others.\n",
               version, list);
        return AVERROR(EINVAL);
    }
    snprintf(origin, sizeof(origin), "'%s' (built-in)", version);
    return ff_vmaf_model_load_buffer(m, json, len, cfg, origin, log_ctx);
}

static int parse_flag(const char *key, const char *value, int *flag,
                      void *log_ctx)
{
    if (!value || !av_strcasecmp(value, "true") || !strcmp(value, "1")) {
        *flag = 1;
    } else if (!av_strcasecmp(value, "false") || !strcmp(value, "0")) {
        *flag = 0;
    } else {
        av_log(log_ctx, AV_LOG_ERROR, "Invalid value '%s' for model option "
               "'%s': expected true or false.\n", value, key);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* Apply the <extractor>.<option>=value entries of a model description. */
static int apply_overrides(FFVmafModel *m, char **keys, char **values,
                           int n, void *log_ctx)
{
    for (int i = 0; i < n; i++) {
        char *dot = strchr(keys[i], '.');
        int ret;

        *dot = 0;
        if (!values[i] || !*values[i] || !dot[1] || dot == keys[i]) {
            av_log(log_ctx, AV_LOG_ERROR, "Model option '%s.%s' needs the "
                   "form <feature>.<option>=<value>.\n", keys[i], dot + 1);
            return AVERROR(EINVAL);
        }
        ret = ff_vmaf_model_set_feature_option(m, keys[i], dot + 1,
                                               values[i]);
        if (ret == AVERROR(EINVAL))
            av_log(log_ctx, AV_LOG_ERROR, "Invalid model option "
                   "'%s.%s=%s'.\n", keys[i], dot + 1, values[i]);
        if (ret < 0)
            return ret;
        if (!ret)
            av_log(log_ctx, AV_LOG_WARNING, "Model '%s' uses no '%s' "
                   "feature; option '%s.%s' has no effect.\n",
                   ff_vmaf_model_name(m), keys[i], keys[i], dot + 1);
    }
    return 0;
}

void ff_vmaf_model_log_not_loaded(const char *desc, void *log_ctx)
{
    const char *version = NULL, *path = NULL;
    char *copy = av_strdup(desc ? desc : ""), *saveptr = NULL, *tok;

    /* The entry's version and path as ff_vmaf_model_open() reads them:
     * the last of each counts. */
    for (tok = copy ? av_strtok(copy, ":", &saveptr) : NULL; tok;
         tok = av_strtok(NULL, ":", &saveptr)) {
        const char *value;
        if (av_strstart(tok, "version=", &value))
            version = *value ? value : NULL;
        else if (av_strstart(tok, "path=", &value))
            path = *value ? value : NULL;
    }
    /* libvmaf's filter words it so, naming the version or the path it was
     * given, and tools that run it (easyVmaf, scripts probing for the
     * built-in models) look for these words in its output. */
    if (version && !path)
        av_log(log_ctx, AV_LOG_ERROR, "could not load libvmaf model with version: %s\n",
               version);
    else if (path && !version)
        av_log(log_ctx, AV_LOG_ERROR, "could not load libvmaf model with path: %s\n", path);
    else
        av_log(log_ctx, AV_LOG_ERROR, "could not load libvmaf model '%s'\n", desc ? desc : "");
    av_free(copy);
}

int ff_vmaf_model_open(FFVmafModel **m, const char *desc, void *log_ctx)
{
    FFVmafModelConfig cfg = { 0 };
    const char *version = NULL, *path = NULL;
    char *copy, *saveptr = NULL, *tok;
    char *ov_key[64], *ov_val[64];
    int nb_ov = 0, ret = 0;

    *m = NULL;
    copy = av_strdup(desc ? desc : "");
    if (!copy)
        return AVERROR(ENOMEM);

    for (tok = av_strtok(copy, ":", &saveptr); tok && ret >= 0;
         tok = av_strtok(NULL, ":", &saveptr)) {
        char *value = strchr(tok, '=');
        if (value)
            *value++ = 0;
        if (strchr(tok, '.')) {
            if (nb_ov == FF_ARRAY_ELEMS(ov_key)) {
                av_log(log_ctx, AV_LOG_ERROR, "Too many feature options "
                       "in model description.\n");
                ret = AVERROR(EINVAL);
                break;
            }
            ov_key[nb_ov]   = tok;
            ov_val[nb_ov++] = value;
        } else if (!strcmp(tok, "enable_transform")) {
            ret = parse_flag(tok, value, &cfg.enable_transform, log_ctx);
        } else if (!strcmp(tok, "disable_clip")) {
            ret = parse_flag(tok, value, &cfg.disable_clip, log_ctx);
        } else if (!strcmp(tok, "version") || !strcmp(tok, "path") ||
                   !strcmp(tok, "name")) {
            if (!value || !*value) {
                av_log(log_ctx, AV_LOG_ERROR, "Model option '%s' needs a "
                       "value.\n", tok);
                ret = AVERROR(EINVAL);
            } else if (tok[0] == 'v') {
                version = value;
            } else if (tok[0] == 'p') {
                path = value;
            } else {
                cfg.name = value;
            }
        } else {
            av_log(log_ctx, AV_LOG_ERROR, "Unknown model option '%s'. "
                   "Accepted: version, path, name, enable_transform, "
                   "disable_clip, <feature>.<option>.\n", tok);
            ret = AVERROR(EINVAL);
        }
    }
    if (ret >= 0 && version && path) {
        av_log(log_ctx, AV_LOG_ERROR, "A model takes either version=%s or "
               "path=%s, not both.\n", version, path);
        ret = AVERROR(EINVAL);
    }
    if (ret >= 0)
        ret = path ? ff_vmaf_model_load_file(m, path, &cfg, log_ctx)
                   : ff_vmaf_model_load_builtin(m, version ? version :
                                                FF_VMAF_MODEL_DEFAULT_VERSION,
                                                &cfg, log_ctx);
    if (ret >= 0)
        ret = apply_overrides(*m, ov_key, ov_val, nb_ov, log_ctx);
    if (ret < 0)
        ff_vmaf_model_free(m);
    av_free(copy);
    return ret;
}
