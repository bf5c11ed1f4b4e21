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

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/mem.h"

#include "json.h"
#include "svm.h"

/* Far above any real model; bounds the allocation a bad file can ask for. */
#define MAX_SUPPORT_VECTORS 1000000

typedef struct SvmNode {
    int index;          ///< 1-based feature index, increasing within an SV
    double value;
} SvmNode;

struct FFVmafSvm {
    int nb_features;
    double gamma, rho;
    int nb_sv;
    double *coef;
    int *sv_start;      ///< SV i is nodes[sv_start[i] .. sv_start[i + 1] - 1]
    SvmNode *nodes;
};

typedef struct TextReader {
    const char *p, *end;
    const char *line, *line_end;
    int line_no;
    char *err;
    size_t err_size;
} TextReader;

static int reader_fail(TextReader *r, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(r->err, r->err_size, "line %d: ", r->line_no);
    if (n >= 0 && (size_t)n < r->err_size) {
        va_start(ap, fmt);
        vsnprintf(r->err + n, r->err_size - n, fmt, ap);
        va_end(ap);
    }
    return AVERROR_INVALIDDATA;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static int line_is_blank(const TextReader *r)
{
    for (const char *p = r->line; p < r->line_end; p++)
        if (!is_blank(*p))
            return 0;
    return 1;
}

static int next_line(TextReader *r)
{
    const char *nl;
    if (r->p >= r->end)
        return 0;
    nl = memchr(r->p, '\n', r->end - r->p);
    r->line     = r->p;
    r->line_end = nl ? nl : r->end;
    r->p        = nl ? nl + 1 : r->end;
    r->line_no++;
    return 1;
}

/*
 * Copy the next whitespace-separated token of the current line into tok;
 * 0 at the end of the line, AVERROR_INVALIDDATA if it does not fit.
 */
static int next_token(TextReader *r, char *tok, size_t size)
{
    const char *start;
    size_t n;

    while (r->line < r->line_end && is_blank(*r->line))
        r->line++;
    start = r->line;
    while (r->line < r->line_end && !is_blank(*r->line))
        r->line++;
    n = r->line - start;
    if (n >= size)
        return reader_fail(r, "token '%.20s...' is too long", start);
    memcpy(tok, start, n);
    tok[n] = 0;
    return n > 0;
}

static int parse_double(TextReader *r, const char *tok, const char *what,
                        double *v)
{
    char *end;
    *v = ff_vmaf_strtod(tok, &end);
    if (end == tok || *end || !isfinite(*v))
        return reader_fail(r, "invalid %s '%s'", what, tok);
    return 0;
}

static int parse_int(TextReader *r, const char *tok, const char *what,
                     int min, int max, int *v)
{
    char *end;
    long l = strtol(tok, &end, 10);
    if (end == tok || *end || l < min || l > max)
        return reader_fail(r, "invalid %s '%s' (expected an integer in "
                           "[%d, %d])", what, tok, min, max);
    *v = l;
    return 0;
}

/* The value token after a header keyword. */
static int header_value(TextReader *r, const char *key, char *tok,
                        size_t size)
{
    int ret = next_token(r, tok, size);
    if (!ret)
        return reader_fail(r, "'%s' has no value", key);
    return ret < 0 ? ret : 0;
}

static int parse_header(FFVmafSvm *svm, TextReader *r)
{
    char key[32], tok[64];
    int have_type = 0, have_kernel = 0, have_gamma = 0, have_rho = 0;
    int nr_class = 2, ret;

    svm->nb_sv = -1;
    for (;;) {
        if (!next_line(r))
            return reader_fail(r, "end of text before the 'SV' line");
        if ((ret = next_token(r, key, sizeof(key))) < 0)
            return ret;
        if (!ret)
            continue;
        if (!strcmp(key, "SV"))
            break;

        if (!strcmp(key, "svm_type")) {
            if ((ret = header_value(r, key, tok, sizeof(tok))) < 0)
                return ret;
            /* Both regression types predict the same way. */
            if (strcmp(tok, "nu_svr") && strcmp(tok, "epsilon_svr"))
                return reader_fail(r, "svm_type '%s' is not supported "
                                   "(expected nu_svr or epsilon_svr)", tok);
            have_type = 1;
        } else if (!strcmp(key, "kernel_type")) {
            if ((ret = header_value(r, key, tok, sizeof(tok))) < 0)
                return ret;
            if (strcmp(tok, "rbf"))
                return reader_fail(r, "kernel_type '%s' is not supported "
                                   "(expected rbf)", tok);
            have_kernel = 1;
        } else if (!strcmp(key, "gamma")) {
            if ((ret = header_value(r, key, tok, sizeof(tok))) < 0 ||
                (ret = parse_double(r, tok, "gamma", &svm->gamma)) < 0)
                return ret;
            have_gamma = 1;
        } else if (!strcmp(key, "nr_class")) {
            if ((ret = header_value(r, key, tok, sizeof(tok))) < 0 ||
                (ret = parse_int(r, tok, "nr_class", 2, 2, &nr_class)) < 0)
                return ret;
        } else if (!strcmp(key, "total_sv")) {
            if ((ret = header_value(r, key, tok, sizeof(tok))) < 0 ||
                (ret = parse_int(r, tok, "total_sv", 1, MAX_SUPPORT_VECTORS,
                                 &svm->nb_sv)) < 0)
                return ret;
        } else if (!strcmp(key, "rho")) {
            if ((ret = header_value(r, key, tok, sizeof(tok))) < 0 ||
                (ret = parse_double(r, tok, "rho", &svm->rho)) < 0)
                return ret;
            if (next_token(r, tok, sizeof(tok)))
                return reader_fail(r, "a regression model has one rho");
            have_rho = 1;
        } else if (strcmp(key, "degree") && strcmp(key, "coef0") &&
                   strcmp(key, "label") && strcmp(key, "nr_sv") &&
                   strcmp(key, "probA") && strcmp(key, "probB")) {
            return reader_fail(r, "unknown header keyword '%s'", key);
        }
    }
    if (!have_type || !have_kernel || !have_gamma || !have_rho ||
        svm->nb_sv < 0)
        return reader_fail(r, "the header lacks %s",
                           !have_type   ? "svm_type"    :
                           !have_kernel ? "kernel_type" :
                           !have_gamma  ? "gamma"       :
                           !have_rho    ? "rho"         : "total_sv");
    return 0;
}

static int parse_support_vector(FFVmafSvm *svm, TextReader *r, int i,
                                int *nb_nodes)
{
    char tok[80];
    int prev = 0, ret;

    if ((ret = next_token(r, tok, sizeof(tok))) < 0 ||
        (ret = parse_double(r, tok, "coefficient", &svm->coef[i])) < 0)
        return ret;
    svm->sv_start[i] = *nb_nodes;
    while ((ret = next_token(r, tok, sizeof(tok))) > 0) {
        SvmNode *node = &svm->nodes[*nb_nodes];
        char *colon = strchr(tok, ':');
        if (!colon)
            return reader_fail(r, "expected index:value, found '%s'", tok);
        *colon = 0;
        if ((ret = parse_int(r, tok, "feature index", 1, svm->nb_features,
                             &node->index)) < 0 ||
            (ret = parse_double(r, colon + 1, "support vector value",
                                &node->value)) < 0)
            return ret;
        /* The kernel walks both vectors in index order. */
        if (node->index <= prev)
            return reader_fail(r, "feature index %d after %d: indices "
                               "must increase", node->index, prev);
        prev = node->index;
        (*nb_nodes)++;
    }
    return ret;
}

static int parse_support_vectors(FFVmafSvm *svm, TextReader *r)
{
    size_t max_nodes = 0;
    int nb_nodes = 0, ret;

    /* Each node has one ':', so this bounds the node count. */
    for (const char *p = r->p; p < r->end; p++)
        max_nodes += *p == ':';
    if (max_nodes > INT_MAX / 2)
        return reader_fail(r, "too many support vector entries");

    svm->coef     = av_malloc_array(svm->nb_sv, sizeof(*svm->coef));
    svm->sv_start = av_malloc_array(svm->nb_sv + 1, sizeof(*svm->sv_start));
    svm->nodes    = av_malloc_array(max_nodes ? max_nodes : 1,
                                    sizeof(*svm->nodes));
    if (!svm->coef || !svm->sv_start || !svm->nodes)
        return AVERROR(ENOMEM);

    for (int i = 0; i < svm->nb_sv; i++) {
        do {
            if (!next_line(r))
                return reader_fail(r, "the text has %d support vectors, "
                                   "total_sv says %d", i, svm->nb_sv);
        } while (line_is_blank(r));
        if ((ret = parse_support_vector(svm, r, i, &nb_nodes)) < 0)
            return ret;
    }
    svm->sv_start[svm->nb_sv] = nb_nodes;

    while (next_line(r))
        if (!line_is_blank(r))
            return reader_fail(r, "more support vectors than total_sv %d",
                               svm->nb_sv);
    return 0;
}

int ff_vmaf_svm_parse(FFVmafSvm **psvm, const char *text, size_t len,
                      int nb_features, char *err, size_t err_size)
{
    TextReader r = { .p = text, .end = text + len,
                     .err = err, .err_size = err_size };
    FFVmafSvm *svm;
    int ret;

    *psvm = NULL;
    svm = av_mallocz(sizeof(*svm));
    if (!svm)
        return AVERROR(ENOMEM);
    svm->nb_features = nb_features;

    if ((ret = parse_header(svm, &r)) < 0 ||
        (ret = parse_support_vectors(svm, &r)) < 0) {
        if (ret == AVERROR(ENOMEM))
            snprintf(err, err_size, "out of memory");
        ff_vmaf_svm_free(&svm);
        return ret;
    }
    *psvm = svm;
    return 0;
}

void ff_vmaf_svm_free(FFVmafSvm **psvm)
{
    FFVmafSvm *svm = *psvm;
    if (!svm)
        return;
    av_free(svm->coef);
    av_free(svm->sv_start);
    av_free(svm->nodes);
    av_freep(psvm);
}

int ff_vmaf_svm_nb_sv(const FFVmafSvm *svm)
{
    return svm->nb_sv;
}

/*
 * LIBSVM's RBF kernel: the squared distance is accumulated walking the
 * input and the sparse support vector together in index order; an index
 * the support vector lacks contributes x^2. Each step rounds separately,
 * so the order is part of the result.
 */
static double rbf_kernel(const FFVmafSvm *svm, int i, const double *x)
{
    const SvmNode *node = svm->nodes + svm->sv_start[i];
    const SvmNode *end  = svm->nodes + svm->sv_start[i + 1];
    double sum = 0.0;

    for (int j = 1; j <= svm->nb_features; j++) {
        if (node < end && node->index == j) {
            double d = x[j - 1] - node->value;
            sum += d * d;
            node++;
        } else {
            sum += x[j - 1] * x[j - 1];
        }
    }
    return exp(-svm->gamma * sum);
}

double ff_vmaf_svm_predict(const FFVmafSvm *svm, const double *x)
{
    double sum = 0.0;
    for (int i = 0; i < svm->nb_sv; i++)
        sum += svm->coef[i] * rbf_kernel(svm, i, x);
    return sum - svm->rho;
}
