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
 * vmaf-merge: the log of a run scored in chunks (vmaf_hip with
 * chunk_start, chunk_end and log_fmt=chunk), written by the engine's own
 * log writer from the chunks' values, byte for byte the log of one run
 * (but its fps).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/output.h"
#include "chunk_file.h"
#include "merge.h"

static const char usage_text[] =
"usage: vmaf-merge [-f FORMAT] [-o FILE] [-n FRAMES] CHUNK...\n"
"\n"
"Write the log of a run scored in chunks: each CHUNK is the log_fmt=chunk\n"
"file of vmaf_hip run on frames [chunk_start, chunk_end) of the same pair\n"
"with the same options. The log is byte for byte the one a single run\n"
"writes (its fps aside): the same values, pooled in the same order.\n"
"\n"
"  -f, --format FORMAT  xml (the default), json, csv or sub: libvmaf's\n"
"  -o, --output FILE    write the log to FILE (default: standard output)\n"
"  -n, --frames N       the run has N frames: an error otherwise\n"
"  -h, --help           this help\n"
"\n"
"The chunks come in any order. They must hold every frame from 0 to the\n"
"run's end once (the last one scored to the inputs' end, chunk_end=-1),\n"
"with the same models, features, n_subsample, pictures and pairing.\n"
"Exit status: 0, 1 when the chunks do not merge or the log cannot be\n"
"written, 2 for a wrong command line.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "vmaf-merge: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage_text);
    return 2;
}

/* "-n 12", "--frames 12" or "--frames=12": the value, or NULL. */
static const char *option_value(int argc, char **argv, int *i, const char *s, const char *l)
{
    size_t n = strlen(l);

    if (!strcmp(argv[*i], s) || !strcmp(argv[*i], l))
        return *i + 1 < argc ? argv[++*i] : NULL;
    if (!strncmp(argv[*i], l, n) && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    return NULL;
}

static int is_option(const char *arg, const char *s, const char *l)
{
    size_t n = strlen(l);
    return !strcmp(arg, s) || !strcmp(arg, l) || (!strncmp(arg, l, n) && arg[n] == '=');
}

int main(int argc, char **argv)
{
    const char *format = "xml", *output = NULL, **paths;
    int64_t nb_frames = -1;
    MergeChunk *chunks;
    char err[1024];
    int nb = 0, fmt, ret = 0, only_paths = 0;
    FILE *out = stdout;

    if (!(paths = av_calloc(argc, sizeof(*paths))))
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (only_paths || a[0] != '-' || !a[1]) {
            paths[nb++] = a;
        } else if (!strcmp(a, "--")) {
            only_paths = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            av_free(paths);
            return 0;
        } else if (is_option(a, "-f", "--format")) {
            if (!(v = option_value(argc, argv, &i, "-f", "--format")))
                return usage_error("%s needs a format", a);
            format = v;
        } else if (is_option(a, "-o", "--output")) {
            if (!(v = option_value(argc, argv, &i, "-o", "--output")))
                return usage_error("%s needs a file name", a);
            output = v;
        } else if (is_option(a, "-n", "--frames")) {
            char *end;
            if (!(v = option_value(argc, argv, &i, "-n", "--frames")))
                return usage_error("%s needs a number of frames", a);
            errno = 0;
            nb_frames = strtoll(v, &end, 10);
            if (*end || errno || nb_frames < 1)
                return usage_error("'%s' is not a number of frames", v);
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    fmt = ff_vmaf_log_format_from_name(format);
    if (fmt < 0 || fmt == FF_VMAF_LOG_CHUNK)
        return usage_error("unknown format '%s': xml, json, csv or sub", format);
    if (!nb)
        return usage_error("%s", "no chunk file given");

    if (!(chunks = av_calloc(nb, sizeof(*chunks))))
        return 1;
    for (int i = 0; i < nb && !ret; i++)
        if (merge_chunk_read(&chunks[i], paths[i], err, sizeof(err)) < 0) {
            fprintf(stderr, "vmaf-merge: %s: %s\n", paths[i], err);
            ret = 1;
            nb = i;
        }
    if (!ret && merge_check(chunks, nb, nb_frames, err, sizeof(err)) < 0) {
        fprintf(stderr, "vmaf-merge: %s\n", err);
        ret = 1;
    }
    if (!ret && output && !(out = fopen(output, "w"))) {
        fprintf(stderr, "vmaf-merge: cannot write '%s': %s\n", output, strerror(errno));
        ret = 1;
    }
    if (!ret && merge_write_log(chunks, nb, out, fmt, err, sizeof(err)) < 0) {
        fprintf(stderr, "vmaf-merge: %s\n", err);
        ret = 1;
    }
    if (out == stdout && fflush(stdout) && !ret) {
        fprintf(stderr, "vmaf-merge: cannot write the log: %s\n", strerror(errno));
        ret = 1;
    }
    if (out && out != stdout) {
        if (fclose(out) && !ret) {
            fprintf(stderr, "vmaf-merge: cannot write '%s': %s\n", output, strerror(errno));
            ret = 1;
        }
        /* No half log where a whole one is expected. */
        if (ret)
            remove(output);
    }
    for (int i = 0; i < nb; i++)
        merge_chunk_free(&chunks[i]);
    av_free(chunks);
    av_free(paths);
    return ret;
}
