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
 * A small, strict JSON (RFC 8259) reader producing a read-only tree.
 *
 * It exists to load VMAF model files: numbers are converted from their
 * source text with strtod (correctly rounded, independent of the C locale)
 * so that model coefficients are bit-identical to libvmaf's, and errors say
 * where (line:column) and what was expected.
 */

#ifndef AVFILTER_VMAF_JSON_H
#define AVFILTER_VMAF_JSON_H

#include <stddef.h>

/** Nesting depth used when the caller passes 0. */
#define FF_VMAF_JSON_DEFAULT_MAX_DEPTH 32

enum FFVmafJsonType {
    FF_VMAF_JSON_NULL,
    FF_VMAF_JSON_BOOL,
    FF_VMAF_JSON_NUMBER,
    FF_VMAF_JSON_STRING,
    FF_VMAF_JSON_ARRAY,
    FF_VMAF_JSON_OBJECT,
};

typedef struct FFVmafJson {
    enum FFVmafJsonType type;
    int line, column;           ///< where the value starts, 1-based
    /** Member name when this value is inside an object, else NULL. */
    const char *key;
    int boolean;
    double number;
    /**
     * String: the unescaped value (NUL-terminated; str_len excludes the
     * terminator and may be larger than strlen() after a \u0000).
     * Number: its source text, e.g. "1080" or "0.06".
     */
    const char *str;
    size_t str_len;
    /** Array elements or object members, in document order. */
    const struct FFVmafJson *items;
    int nb_items;
} FFVmafJson;

typedef struct FFVmafJsonDoc FFVmafJsonDoc;

/**
 * Parse len bytes of buf (which need not be NUL-terminated) as one JSON
 * value, optionally preceded by a UTF-8 BOM and surrounded by whitespace.
 *
 * @param max_depth  deepest accepted nesting of arrays/objects; 0 = default
 * @param err        on failure, receives "line L, column C: <what>"
 * @return 0, AVERROR_INVALIDDATA for malformed input, AVERROR(ENOMEM)
 */
int ff_vmaf_json_parse(FFVmafJsonDoc **doc, const char *buf, size_t len,
                       int max_depth, char *err, size_t err_size);

const FFVmafJson *ff_vmaf_json_root(const FFVmafJsonDoc *doc);

void ff_vmaf_json_free(FFVmafJsonDoc **doc);

/**
 * Member key of object obj, NULL if obj is not an object or lacks it.
 * With duplicate keys the last one wins, as in a streaming reader.
 */
const FFVmafJson *ff_vmaf_json_get(const FFVmafJson *obj, const char *key);

/** "null", "boolean", "number", "string", "array" or "object". */
const char *ff_vmaf_json_type_name(enum FFVmafJsonType type);

/**
 * strtod() that always takes '.' as the decimal separator, whatever
 * LC_NUMERIC the host application has set.
 */
double ff_vmaf_strtod(const char *s, char **end);

#endif /* AVFILTER_VMAF_JSON_H */
