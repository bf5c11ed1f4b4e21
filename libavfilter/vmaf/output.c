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
 * Log writers in libvmaf's xml, json, csv and sub (MicroDVD) schemas, so
 * tools that parse libvmaf logs parse ours unchanged.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "feature.h"
#include "output.h"

static const char *const log_format_names[] = {
    [FF_VMAF_LOG_XML]  = "xml",
    [FF_VMAF_LOG_JSON] = "json",
    [FF_VMAF_LOG_CSV]  = "csv",
    [FF_VMAF_LOG_SUB]  = "sub",
    [FF_VMAF_LOG_CHUNK] = "chunk",
};

int ff_vmaf_log_format_from_name(const char *name)
{
    for (int i = 0; i < FF_ARRAY_ELEMS(log_format_names); i++)
        if (!strcmp(name, log_format_names[i]))
            return i;
    return -1;
}

void ff_vmaf_format_value(char *buf, size_t size, double v)
{
    double a = fabs(v), frac = a - floor(a);
    snprintf(buf, size, isfinite(v) && frac > 0.0 && frac < 1e-6 ?
             "%.16f" : "%.6f", v);
}

static int frame_has_values(const FFVmafFeatureCollector *fc, int nb_keys,
                            unsigned frame)
{
    double v;
    for (int k = 0; k < nb_keys; k++)
        if (ff_vmaf_collector_read_at(fc, k, frame, &v) >= 0)
            return 1;
    return 0;
}

/*
 * Names are written as each format needs: XML as attribute names (which
 * ff_vmaf_engine_check_names() has checked) and, in attribute values,
 * escaped; JSON as escaped strings; CSV quoted where a name holds a comma,
 * a quote or a line break (RFC 4180). Plain names come out unchanged.
 */
static void xml_attr_value(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f);  break;
        case '<': fputs("&lt;", f);   break;
        case '>': fputs("&gt;", f);   break;
        case '"': fputs("&quot;", f); break;
        default:  putc(*s, f);        break;
        }
    }
}

void ff_vmaf_write_json_string(FILE *f, const char *s)
{
    putc('"', f);
    for (; *s; s++) {
        unsigned char c = *s;
        switch (c) {
        case '"':  fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f);  break;
        case '\r': fputs("\\r", f);  break;
        case '\t': fputs("\\t", f);  break;
        default:
            if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                putc(c, f);
        }
    }
    putc('"', f);
}

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    putc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', f);
        putc(*s, f);
    }
    putc('"', f);
}

#define FOR_EACH_FRAME(i, info) \
    for (unsigned i = 0; i < (info)->nb_frames; i += FFMAX((info)->step, 1))

static void write_xml(FILE *f, const FFVmafFeatureCollector *fc,
                      const FFVmafLogInfo *info)
{
    int nb_keys = ff_vmaf_collector_nb_keys(fc);
    int nb_aggs = ff_vmaf_collector_nb_aggregates(fc);
    char num[64];

    fprintf(f, "<VMAF version=\"%s\">\n", info->version);
    fprintf(f, "  <params qualityWidth=\"%d\" qualityHeight=\"%d\" />\n",
            info->width, info->height);
    if (info->backends) {
        fprintf(f, "  <fyi fps=\"%.2f\" backends=\"", info->fps);
        xml_attr_value(f, info->backends);
        fprintf(f, "\" />\n");
    } else
        fprintf(f, "  <fyi fps=\"%.2f\" />\n", info->fps);
    if (info->pairing)
        fprintf(f, "  <pairing mode=\"%s\" pairs=\"%"PRId64"\" pairs_off=\"%"PRId64"\" "
                "reference_unused=\"%"PRId64"\" distorted_unpaired=\"%"PRId64"\" />\n",
                info->pairing_mode, info->pairing->pairs, info->pairing->off,
                info->pairing->ref_unused, info->pairing->dist_unpaired);
    fprintf(f, "  <frames>\n");
    FOR_EACH_FRAME(i, info) {
        if (ferror(f))
            return;
        if (!frame_has_values(fc, nb_keys, i))
            continue;
        fprintf(f, "    <frame frameNum=\"%u\"", i);
        for (int k = 0; k < nb_keys; k++) {
            double v;
            if (ff_vmaf_collector_read_at(fc, k, i, &v) < 0)
                continue;
            ff_vmaf_format_value(num, sizeof(num), v);
            fprintf(f, " %s=\"%s\"",
                    ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k)), num);
        }
        fprintf(f, " />\n");
    }
    fprintf(f, "  </frames>\n");
    fprintf(f, "  <pooled_metrics>\n");
    for (int k = 0; k < nb_keys; k++) {
        fprintf(f, "    <metric name=\"");
        xml_attr_value(f, ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k)));
        fprintf(f, "\"");
        for (int m = 0; m < FF_VMAF_POOL_NB; m++) {
            double v;
            if (ff_vmaf_pool(fc, k, m, 0, info->nb_frames, info->step, &v) < 0)
                continue;
            ff_vmaf_format_value(num, sizeof(num), v);
            fprintf(f, " %s=\"%s\"", ff_vmaf_pool_method_name(m), num);
        }
        fprintf(f, " />\n");
    }
    fprintf(f, "  </pooled_metrics>\n");
    fprintf(f, "  <aggregate_metrics");
    for (int a = 0; a < nb_aggs; a++) {
        double v;
        const char *key = ff_vmaf_collector_aggregate(fc, a, &v);
        ff_vmaf_format_value(num, sizeof(num), v);
        fprintf(f, " %s=\"%s\"", key, num);
    }
    fprintf(f, " />\n");
    fprintf(f, "</VMAF>\n");
}

/* libvmaf writes non-finite numbers as null and then drops the newline
 * that would follow, so the next key continues on the same line; we keep
 * that quirk, since byte-level diffs against its logs are how users
 * check a drop-in. */
static void json_value(FILE *f, double v, int last)
{
    char num[64];
    if (!isfinite(v)) {
        /* The newline is dropped after the last value too: libvmaf then
         * closes the object on the same line. */
        fprintf(f, "null%s", last ? "" : ",");
        return;
    }
    ff_vmaf_format_value(num, sizeof(num), v);
    fprintf(f, "%s%s\n", num, last ? "" : ",");
}

static void write_json(FILE *f, const FFVmafFeatureCollector *fc,
                       const FFVmafLogInfo *info)
{
    int nb_keys = ff_vmaf_collector_nb_keys(fc);
    int nb_aggs = ff_vmaf_collector_nb_aggregates(fc);
    int first_frame = 1;

    fprintf(f, "{\n");
    fprintf(f, "  \"version\": \"%s\",\n", info->version);
    if (isfinite(info->fps))
        fprintf(f, "  \"fps\": %.2f,\n", info->fps);
    else
        fprintf(f, "  \"fps\": null,\n");
    if (info->backends) {
        fprintf(f, "  \"backends\": ");
        ff_vmaf_write_json_string(f, info->backends);
        fprintf(f, ",\n");
    }
    if (info->pairing)
        fprintf(f, "  \"pairing\": {\"mode\": \"%s\", \"pairs\": %"PRId64", \"pairs_off\": %"PRId64", "
                "\"reference_unused\": %"PRId64", \"distorted_unpaired\": %"PRId64"},\n",
                info->pairing_mode, info->pairing->pairs, info->pairing->off,
                info->pairing->ref_unused, info->pairing->dist_unpaired);
    fprintf(f, "  \"frames\": [");
    FOR_EACH_FRAME(i, info) {
        int nb = 0, written = 0;
        double v;

        if (ferror(f))
            return;
        if (!frame_has_values(fc, nb_keys, i))
            continue;
        for (int k = 0; k < nb_keys; k++)
            nb += ff_vmaf_collector_read_at(fc, k, i, &v) >= 0;
        fprintf(f, "%s\n    {\n", first_frame ? "" : ",");
        first_frame = 0;
        fprintf(f, "      \"frameNum\": %u,\n", i);
        fprintf(f, "      \"metrics\": {\n");
        for (int k = 0; k < nb_keys; k++) {
            if (ff_vmaf_collector_read_at(fc, k, i, &v) < 0)
                continue;
            fprintf(f, "        ");
            ff_vmaf_write_json_string(f, ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k)));
            fprintf(f, ": ");
            json_value(f, v, ++written == nb);
        }
        fprintf(f, "      }\n");
        fprintf(f, "    }");
    }
    fprintf(f, "\n  ],\n");
    fprintf(f, "  \"pooled_metrics\": {");
    for (int k = 0; k < nb_keys; k++) {
        fprintf(f, "%s\n    ", k ? "," : "");
        ff_vmaf_write_json_string(f, ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k)));
        fprintf(f, ": {\n");
        for (int m = 0; m < FF_VMAF_POOL_NB; m++) {
            double v = NAN;
            ff_vmaf_pool(fc, k, m, 0, info->nb_frames, info->step, &v);
            fprintf(f, "      \"%s\": ", ff_vmaf_pool_method_name(m));
            if (!isfinite(v))
                /* In the pooled block libvmaf keeps the line break. */
                fprintf(f, "null%s\n", m == FF_VMAF_POOL_NB - 1 ? "" : ",");
            else
                json_value(f, v, m == FF_VMAF_POOL_NB - 1);
        }
        fprintf(f, "    }");
    }
    fprintf(f, "\n  },\n");
    fprintf(f, "  \"aggregate_metrics\": {");
    for (int a = 0; a < nb_aggs; a++) {
        double v;
        const char *key = ff_vmaf_collector_aggregate(fc, a, &v);
        char num[64] = "null";
        if (isfinite(v))
            ff_vmaf_format_value(num, sizeof(num), v);
        fprintf(f, "%s\n    ", a ? "," : "");
        ff_vmaf_write_json_string(f, key);
        fprintf(f, ": %s", num);
    }
    fprintf(f, "\n  }\n");
    fprintf(f, "}\n");
}

static void write_csv(FILE *f, const FFVmafFeatureCollector *fc,
                      const FFVmafLogInfo *info)
{
    int nb_keys = ff_vmaf_collector_nb_keys(fc);
    char num[64];

    fprintf(f, "Frame,");
    for (int k = 0; k < nb_keys; k++) {
        csv_field(f, ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k)));
        putc(',', f);
    }
    fprintf(f, "\n");
    FOR_EACH_FRAME(i, info) {
        if (ferror(f))
            return;
        if (!frame_has_values(fc, nb_keys, i))
            continue;
        fprintf(f, "%u,", i);
        for (int k = 0; k < nb_keys; k++) {
            double v;
            if (ff_vmaf_collector_read_at(fc, k, i, &v) < 0) {
                fprintf(f, ",");
                continue;
            }
            ff_vmaf_format_value(num, sizeof(num), v);
            fprintf(f, "%s,", num);
        }
        fprintf(f, "\n");
    }
}

static void write_sub(FILE *f, const FFVmafFeatureCollector *fc,
                      const FFVmafLogInfo *info)
{
    int nb_keys = ff_vmaf_collector_nb_keys(fc);
    char num[64];

    FOR_EACH_FRAME(i, info) {
        if (ferror(f))
            return;
        if (!frame_has_values(fc, nb_keys, i))
            continue;
        fprintf(f, "{%u}{%u}frame: %u|", i, i + 1, i);
        for (int k = 0; k < nb_keys; k++) {
            double v;
            if (ff_vmaf_collector_read_at(fc, k, i, &v) < 0)
                continue;
            ff_vmaf_format_value(num, sizeof(num), v);
            fprintf(f, "%s: %s|",
                    ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k)), num);
        }
        fprintf(f, "\n");
    }
}

int ff_vmaf_write_log(FILE *f, enum FFVmafLogFormat fmt,
                      const FFVmafFeatureCollector *fc,
                      const FFVmafLogInfo *info)
{
    switch (fmt) {
    case FF_VMAF_LOG_XML:  write_xml(f, fc, info);  break;
    case FF_VMAF_LOG_JSON: write_json(f, fc, info); break;
    case FF_VMAF_LOG_CSV:  write_csv(f, fc, info);  break;
    case FF_VMAF_LOG_SUB:  write_sub(f, fc, info);  break;
    default: return AVERROR(EINVAL);
    }
    /* A write that fails sets errno, and stdio calls that succeed leave it:
     * the writers stop after the frame whose output failed, so errno still
     * tells why (ENOSPC, EPIPE, EFBIG...), which ferror() alone does not. */
    return ferror(f) ? AVERROR(errno ? errno : EIO) : 0;
}
