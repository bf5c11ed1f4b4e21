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
 * Recursive-descent JSON reader. Every string, number text and child array
 * of a document lives in one arena, so a tree is freed in one go and the
 * parser never has to undo partial allocations on error.
 */

#include <ctype.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "json.h"

#define ARENA_ALIGN      16
#define ARENA_BLOCK_SIZE (64 * 1024)

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t size, used;
} ArenaBlock;

#define ARENA_HEADER FFALIGN(sizeof(ArenaBlock), ARENA_ALIGN)

struct FFVmafJsonDoc {
    ArenaBlock *blocks;
    const FFVmafJson *root;
};

typedef struct JsonParser {
    FFVmafJsonDoc *doc;
    const char *p, *end;
    const char *line_start;
    int line;
    int depth, max_depth;
    /* Children of the containers being parsed, innermost last. */
    FFVmafJson *stack;
    size_t nb_stack, stack_cap;
    char *err;
    size_t err_size;
    int error;
} JsonParser;

static void *arena_alloc(FFVmafJsonDoc *doc, size_t size)
{
    ArenaBlock *b = doc->blocks;
    uint8_t *ptr;

    size = FFALIGN(size ? size : 1, ARENA_ALIGN);
    if (!b || b->size - b->used < size) {
        size_t bsize = FFMAX(size, ARENA_BLOCK_SIZE);
        b = av_malloc(ARENA_HEADER + bsize);
        if (!b)
            return NULL;
        b->size = bsize;
        b->used = 0;
        b->next = doc->blocks;
        doc->blocks = b;
    }
    ptr = (uint8_t *)b + ARENA_HEADER + b->used;
    b->used += size;
    return ptr;
}

static int fail_at(JsonParser *ps, const char *at, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (ps->error)
        return ps->error;
    ps->error = AVERROR_INVALIDDATA;
    if (!ps->err_size)
        return ps->error;
    n = snprintf(ps->err, ps->err_size, "line %d, column %d: ",
                 ps->line, (int)(at - ps->line_start) + 1);
    if (n >= 0 && (size_t)n < ps->err_size) {
        va_start(ap, fmt);
        vsnprintf(ps->err + n, ps->err_size - n, fmt, ap);
        va_end(ap);
    }
    return ps->error;
}

static int fail_nomem(JsonParser *ps)
{
    if (!ps->error) {
        ps->error = AVERROR(ENOMEM);
        if (ps->err_size)
            snprintf(ps->err, ps->err_size, "out of memory");
    }
    return ps->error;
}

/** What sits at at, for "found ..." in messages. */
static const char *describe(const JsonParser *ps, const char *at,
                            char *buf, size_t size)
{
    unsigned char c;

    if (at >= ps->end)
        return "end of input";
    c = *at;
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "byte 0x%02x", c);
    return buf;
}

static int fail_expected(JsonParser *ps, const char *what)
{
    char found[16];
    return fail_at(ps, ps->p, "expected %s, found %s", what,
                   describe(ps, ps->p, found, sizeof(found)));
}

static void skip_whitespace(JsonParser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->line_start = ps->p + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            break;
        }
        ps->p++;
    }
}

static int push_child(JsonParser *ps, const FFVmafJson *v)
{
    if (ps->nb_stack == ps->stack_cap) {
        size_t cap = ps->stack_cap ? 2 * ps->stack_cap : 64;
        FFVmafJson *s = av_realloc_array(ps->stack, cap, sizeof(*s));
        if (!s)
            return fail_nomem(ps);
        ps->stack     = s;
        ps->stack_cap = cap;
    }
    ps->stack[ps->nb_stack++] = *v;
    return 0;
}

/** Move the children pushed since base into the arena, as v's items. */
static int pop_children(JsonParser *ps, size_t base, FFVmafJson *v)
{
    size_t n = ps->nb_stack - base;
    FFVmafJson *items;

    if (n > INT_MAX / sizeof(*items))
        return fail_at(ps, ps->p, "too many elements in one container");
    v->nb_items = n;
    if (n) {
        items = arena_alloc(ps->doc, n * sizeof(*items));
        if (!items)
            return fail_nomem(ps);
        memcpy(items, ps->stack + base, n * sizeof(*items));
        v->items = items;
    }
    ps->nb_stack = base;
    return 0;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/** Read the 4 hex digits after "\u" at p; -1 if they are not all there. */
static int read_hex4(const JsonParser *ps, const char *p)
{
    int v = 0;
    if (ps->end - p < 4)
        return -1;
    for (int i = 0; i < 4; i++) {
        int h = hex_value(p[i]);
        if (h < 0)
            return -1;
        v = (v << 4) | h;
    }
    return v;
}

static char *put_utf8(char *dst, unsigned cp)
{
    if (cp < 0x80) {
        *dst++ = cp;
    } else if (cp < 0x800) {
        *dst++ = 0xc0 | (cp >> 6);
        *dst++ = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
        *dst++ = 0xe0 | (cp >> 12);
        *dst++ = 0x80 | ((cp >> 6) & 0x3f);
        *dst++ = 0x80 | (cp & 0x3f);
    } else {
        *dst++ = 0xf0 | (cp >> 18);
        *dst++ = 0x80 | ((cp >> 12) & 0x3f);
        *dst++ = 0x80 | ((cp >> 6) & 0x3f);
        *dst++ = 0x80 | (cp & 0x3f);
    }
    return dst;
}

/* Decode one escape sequence starting at the backslash; advance ps->p. */
static int parse_escape(JsonParser *ps, char **dst)
{
    const char *esc = ps->p;
    int cp, lo;

    if (ps->end - esc < 2)
        return fail_at(ps, esc, "unterminated escape sequence");
    switch (esc[1]) {
    case '"':  *(*dst)++ = '"';  break;
    case '\\': *(*dst)++ = '\\'; break;
    case '/':  *(*dst)++ = '/';  break;
    case 'b':  *(*dst)++ = '\b'; break;
    case 'f':  *(*dst)++ = '\f'; break;
    case 'n':  *(*dst)++ = '\n'; break;
    case 'r':  *(*dst)++ = '\r'; break;
    case 't':  *(*dst)++ = '\t'; break;
    case 'u':
        cp = read_hex4(ps, esc + 2);
        if (cp < 0)
            return fail_at(ps, esc, "expected 4 hex digits after \\u");
        if (cp >= 0xdc00 && cp <= 0xdfff)
            return fail_at(ps, esc, "unpaired low surrogate \\u%04x", cp);
        if (cp >= 0xd800 && cp <= 0xdbff) {
            /* UTF-16 pair: the low half must follow as a second escape. */
            if (ps->end - esc < 12 || esc[6] != '\\' || esc[7] != 'u' ||
                (lo = read_hex4(ps, esc + 8)) < 0xdc00 || lo > 0xdfff)
                return fail_at(ps, esc, "high surrogate \\u%04x is not "
                               "followed by a low surrogate", cp);
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            ps->p += 6;
        }
        *dst = put_utf8(*dst, cp);
        ps->p += 4;
        break;
    default:
        return fail_at(ps, esc, "invalid escape sequence '\\%c'",
                       (unsigned char)esc[1] >= 0x20 &&
                       (unsigned char)esc[1] < 0x7f ? esc[1] : '?');
    }
    ps->p += 2;
    return 0;
}

/* ps->p is at the opening quote. */
static int parse_string(JsonParser *ps, const char **out, size_t *out_len)
{
    const char *open = ps->p, *q;
    char *buf, *dst;

    /* The decoded form is never longer than the escaped source. */
    for (q = open + 1; q < ps->end && *q != '"'; q++)
        if (*q == '\\' && q + 1 < ps->end)
            q++;
    if (q >= ps->end)
        return fail_at(ps, open, "unterminated string");

    buf = arena_alloc(ps->doc, q - open);
    if (!buf)
        return fail_nomem(ps);
    dst = buf;
    ps->p = open + 1;
    while (*ps->p != '"') {
        unsigned char c = *ps->p;
        if (c == '\\') {
            int ret = parse_escape(ps, &dst);
            if (ret < 0)
                return ret;
        } else if (c < 0x20) {
            return fail_at(ps, ps->p, "control character 0x%02x in string "
                           "(it must be escaped)", c);
        } else {
            *dst++ = c;
            ps->p++;
        }
    }
    ps->p++;
    *dst = 0;
    *out = buf;
    *out_len = dst - buf;
    return 0;
}

static int is_digit(const JsonParser *ps, const char *p)
{
    return p < ps->end && *p >= '0' && *p <= '9';
}

static int parse_number(JsonParser *ps, FFVmafJson *v)
{
    const char *start = ps->p, *p = ps->p;
    char *text, *end;

    if (*p == '-')
        p++;
    if (!is_digit(ps, p)) {
        ps->p = p;
        return fail_expected(ps, "a digit");
    }
    if (*p == '0') {
        p++;
        if (is_digit(ps, p))
            return fail_at(ps, start, "leading zeros are not allowed "
                           "in numbers");
    } else {
        while (is_digit(ps, p))
            p++;
    }
    if (p < ps->end && *p == '.') {
        p++;
        if (!is_digit(ps, p)) {
            ps->p = p;
            return fail_expected(ps, "a digit after the decimal point");
        }
        while (is_digit(ps, p))
            p++;
    }
    if (p < ps->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < ps->end && (*p == '+' || *p == '-'))
            p++;
        if (!is_digit(ps, p)) {
            ps->p = p;
            return fail_expected(ps, "a digit in the exponent");
        }
        while (is_digit(ps, p))
            p++;
    }

    text = arena_alloc(ps->doc, p - start + 1);
    if (!text)
        return fail_nomem(ps);
    memcpy(text, start, p - start);
    text[p - start] = 0;

    v->type    = FF_VMAF_JSON_NUMBER;
    v->number  = ff_vmaf_strtod(text, &end);
    v->str     = text;
    v->str_len = p - start;
    if (!isfinite(v->number))
        return fail_at(ps, start, "number %s is out of range", text);
    ps->p = p;
    return 0;
}

static int parse_literal(JsonParser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
        return fail_at(ps, ps->p, "invalid literal (expected '%s')", word);
    ps->p += n;
    return 0;
}

static int parse_value(JsonParser *ps, FFVmafJson *v);

static int enter_container(JsonParser *ps)
{
    if (++ps->depth > ps->max_depth)
        return fail_at(ps, ps->p, "nesting deeper than %d levels",
                       ps->max_depth);
    ps->p++;
    skip_whitespace(ps);
    return 0;
}

static int parse_array(JsonParser *ps, FFVmafJson *v)
{
    size_t base = ps->nb_stack;
    int ret;

    v->type = FF_VMAF_JSON_ARRAY;
    if ((ret = enter_container(ps)) < 0)
        return ret;
    if (ps->p < ps->end && *ps->p == ']')
        goto done;
    for (;;) {
        FFVmafJson item;
        if ((ret = parse_value(ps, &item)) < 0 ||
            (ret = push_child(ps, &item)) < 0)
            return ret;
        skip_whitespace(ps);
        if (ps->p < ps->end && *ps->p == ']')
            break;
        if (ps->p >= ps->end || *ps->p != ',')
            return fail_expected(ps, "',' or ']' after an array element");
        ps->p++;
        skip_whitespace(ps);
    }
done:
    ps->p++;
    ps->depth--;
    return pop_children(ps, base, v);
}

static int parse_object(JsonParser *ps, FFVmafJson *v)
{
    size_t base = ps->nb_stack;
    int ret;

    v->type = FF_VMAF_JSON_OBJECT;
    if ((ret = enter_container(ps)) < 0)
        return ret;
    if (ps->p < ps->end && *ps->p == '}')
        goto done;
    for (;;) {
        FFVmafJson member;
        const char *key;
        size_t key_len;

        if (ps->p >= ps->end || *ps->p != '"')
            return fail_expected(ps, ps->nb_stack == base ?
                                 "a string key or '}'" : "a string key");
        if ((ret = parse_string(ps, &key, &key_len)) < 0)
            return ret;
        skip_whitespace(ps);
        if (ps->p >= ps->end || *ps->p != ':') {
            char what[128];
            snprintf(what, sizeof(what), "':' after key \"%.80s\"", key);
            return fail_expected(ps, what);
        }
        ps->p++;
        skip_whitespace(ps);
        if ((ret = parse_value(ps, &member)) < 0)
            return ret;
        member.key = key;
        if ((ret = push_child(ps, &member)) < 0)
            return ret;
        skip_whitespace(ps);
        if (ps->p < ps->end && *ps->p == '}')
            break;
        if (ps->p >= ps->end || *ps->p != ',')
            return fail_expected(ps, "',' or '}' after an object member");
        ps->p++;
        skip_whitespace(ps);
    }
done:
    ps->p++;
    ps->depth--;
    return pop_children(ps, base, v);
}

/* ps->p is at the first character of the value (whitespace skipped). */
static int parse_value(JsonParser *ps, FFVmafJson *v)
{
    memset(v, 0, sizeof(*v));
    v->line   = ps->line;
    v->column = ps->p - ps->line_start + 1;
    if (ps->p >= ps->end)
        return fail_expected(ps, "a value");

    switch (*ps->p) {
    case '{':
        return parse_object(ps, v);
    case '[':
        return parse_array(ps, v);
    case '"':
        v->type = FF_VMAF_JSON_STRING;
        return parse_string(ps, &v->str, &v->str_len);
    case 't':
        v->type    = FF_VMAF_JSON_BOOL;
        v->boolean = 1;
        return parse_literal(ps, "true");
    case 'f':
        v->type = FF_VMAF_JSON_BOOL;
        return parse_literal(ps, "false");
    case 'n':
        v->type = FF_VMAF_JSON_NULL;
        return parse_literal(ps, "null");
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        return parse_number(ps, v);
    default:
        return fail_expected(ps, "a value (object, array, string, number, "
                             "true, false or null)");
    }
}

int ff_vmaf_json_parse(FFVmafJsonDoc **pdoc, const char *buf, size_t len,
                       int max_depth, char *err, size_t err_size)
{
    JsonParser ps = { 0 };
    FFVmafJson *root;
    int ret;

    *pdoc = NULL;
    if (err_size)
        err[0] = 0;
    ps.doc = av_mallocz(sizeof(*ps.doc));
    root   = ps.doc ? arena_alloc(ps.doc, sizeof(*root)) : NULL;
    if (!root) {
        ff_vmaf_json_free(&ps.doc);
        if (err_size)
            snprintf(err, err_size, "out of memory");
        return AVERROR(ENOMEM);
    }
    ps.p          = buf;
    ps.end        = buf + len;
    ps.line       = 1;
    ps.max_depth  = max_depth > 0 ? max_depth : FF_VMAF_JSON_DEFAULT_MAX_DEPTH;
    ps.err        = err;
    ps.err_size   = err_size;

    if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
        ps.p += 3;
    ps.line_start = ps.p;

    skip_whitespace(&ps);
    ret = parse_value(&ps, root);
    if (ret >= 0) {
        skip_whitespace(&ps);
        if (ps.p < ps.end)
            ret = fail_expected(&ps, "end of input after the JSON value");
    }
    av_free(ps.stack);
    if (ret < 0) {
        ff_vmaf_json_free(&ps.doc);
        return ret;
    }
    ps.doc->root = root;
    *pdoc = ps.doc;
    return 0;
}

const FFVmafJson *ff_vmaf_json_root(const FFVmafJsonDoc *doc)
{
    return doc ? doc->root : NULL;
}

void ff_vmaf_json_free(FFVmafJsonDoc **pdoc)
{
    FFVmafJsonDoc *doc = *pdoc;
    if (!doc)
        return;
    while (doc->blocks) {
        ArenaBlock *next = doc->blocks->next;
        av_free(doc->blocks);
        doc->blocks = next;
    }
    av_freep(pdoc);
}

const FFVmafJson *ff_vmaf_json_get(const FFVmafJson *obj, const char *key)
{
    if (!obj || obj->type != FF_VMAF_JSON_OBJECT)
        return NULL;
    for (int i = obj->nb_items - 1; i >= 0; i--)
        if (!strcmp(obj->items[i].key, key))
            return &obj->items[i];
    return NULL;
}

const char *ff_vmaf_json_type_name(enum FFVmafJsonType type)
{
    switch (type) {
    case FF_VMAF_JSON_NULL:   return "null";
    case FF_VMAF_JSON_BOOL:   return "boolean";
    case FF_VMAF_JSON_NUMBER: return "number";
    case FF_VMAF_JSON_STRING: return "string";
    case FF_VMAF_JSON_ARRAY:  return "array";
    case FF_VMAF_JSON_OBJECT: return "object";
    }
    return "unknown";
}

double ff_vmaf_strtod(const char *s, char **end)
{
    const char *dp = localeconv()->decimal_point, *start = s;
    char buf[128], *bend;
    size_t n = 0, dp_len;
    const char *q;
    double d;

    if (!dp || !strcmp(dp, "."))
        return strtod(s, end);

    /*
     * Another locale is active: copy the number, spelling its '.' the
     * locale's way, and map the end position back to s.
     */
    dp_len = strlen(dp);
    while (isspace((unsigned char)*s))
        s++;
    for (q = s; *q && strchr("0123456789+-.eE", *q); q++) {
        size_t add = *q == '.' ? dp_len : 1;
        if (n + add >= sizeof(buf))
            break;
        if (*q == '.')
            memcpy(buf + n, dp, dp_len);
        else
            buf[n] = *q;
        n += add;
    }
    buf[n] = 0;
    d = strtod(buf, &bend);
    if (end) {
        size_t used = bend - buf, i = 0;
        for (q = s; i < used; q++)
            i += *q == '.' ? dp_len : 1;
        *end = (char *)(used ? q : start);
    }
    return d;
}
