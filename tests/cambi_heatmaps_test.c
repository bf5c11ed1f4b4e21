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

/*
 * CAMBI's heatmaps_path (libvmaf's heatmap files, spec section 21), through
 * the engine: synthetic banded clips are scored with cambi writing heatmaps,
 * and the files are checked against the definition.
 *
 * The expected c-values come from a plain recomputation of section 8 and
 * 19.4 written here (preprocess, spatial mask, decimation, mode filter and
 * the c-value of every pixel counted over its window, the spec's 42-entry
 * reciprocal corrections included), nothing of the engine's histograms.
 * The CAMBI score pooled from those c-values must be the engine's, bit for
 * bit, and every heatmap sample must be (uint16_t)(k * c). Also: the five
 * names and sizes (the speed-up at an odd 1080p size too), frames at their
 * own index with holes for n_subsample, the same bytes with 1 and 3
 * threads and when the worker threads are made again mid-stream, cambi
 * kept on the CPU when a GPU answers (the simulated one), and a path that
 * cannot be written being an init error with libvmaf's phrase.
 *
 * Usage: cambi_heatmaps_test (no data needed; files go to a new directory
 * under $TMPDIR or /tmp, removed at the end).
 * The last line printed is "N passed, N failed".
 */

#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/engine.h"
#include "libavfilter/vmaf/feature.h"

#define SCALES   5
#define NB_DIFFS 4

static int passed, failed;

static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s ", ok ? "PASS" : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (ok)
        passed++;
    else
        failed++;
}

/* ---- what the engine logs, to look for the init error's message ---- */

static char logbuf[16384];

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    size_t len = strlen(logbuf);
    if (level > AV_LOG_WARNING || len >= sizeof(logbuf) - 1)
        return;
    vsnprintf(logbuf + len, sizeof(logbuf) - len, fmt, vl);
}

/* ---- the clips: banded gradients, a noisy patch, a flat patch ---- */

typedef struct Clip {
    int w, h, bpc;
} Clip;

static const Clip clip_main = { 576, 324, 8 };
/* From 1920x1080 on the speed-up halves scale 0; odd, to round up. */
static const Clip clip_hrs  = { 1921, 1081, 10 };

static unsigned hash3(unsigned x, unsigned y, unsigned z)
{
    unsigned v = x * 73856093u ^ y * 19349663u ^ z * 83492791u;
    v ^= v >> 13;
    v *= 0x5bd1e995u;
    return v ^ v >> 15;
}

/* Luma of frame f of the distorted (ref = 0) or reference clip: bands a
 * few codes apart that move with the frame, so every frame differs. */
static int luma(const Clip *c, int ref, int f, int x, int y)
{
    int max = (1 << c->bpc) - 1;
    int v = c->bpc == 8 ? 40 + (x + 2 * y + 11 * f) / 24
                        : 160 + (x + 2 * y + 11 * f) / 10;

    if (x >= c->w / 2 && x < c->w / 2 + c->w / 5 && y >= c->h / 4 && y < c->h / 2)
        v += (int)(hash3(x, y, f) % 9) - 4;
    if (x < c->w / 6 && y > c->h * 2 / 3)
        v = c->bpc == 8 ? 100 : 400;
    if (ref)
        v = max - v;
    return v < 0 ? 0 : v > max ? max : v;
}

typedef struct Frame {
    uint8_t *plane[3];
    FFVmafPicture pic;
} Frame;

/* 4:2:0 as FFmpeg stores it: chroma rounded up (libvmaf's planes, rounded
 * down, are their top-left part). */
static int frame_make(Frame *fr, const Clip *c, int ref, int f)
{
    int bytes = c->bpc > 8 ? 2 : 1, cw = (c->w + 1) >> 1, ch = (c->h + 1) >> 1;

    memset(fr, 0, sizeof(*fr));
    fr->pic.bpc = c->bpc;
    for (int p = 0; p < 3; p++) {
        int w = p ? cw : c->w, h = p ? ch : c->h;
        if (!(fr->plane[p] = av_malloc((size_t)w * h * bytes)))
            return AVERROR(ENOMEM);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int v = p ? 1 << (c->bpc - 1) : luma(c, ref, f, x, y);
                if (bytes == 2)
                    ((uint16_t *)fr->plane[p])[(size_t)y * w + x] = v;
                else
                    fr->plane[p][(size_t)y * w + x] = v;
            }
        fr->pic.data[p]     = fr->plane[p];
        fr->pic.linesize[p] = (ptrdiff_t)w * bytes;
        fr->pic.w[p] = p ? c->w >> 1 : w;
        fr->pic.h[p] = p ? c->h >> 1 : h;
    }
    return 0;
}

static void frame_free(Frame *fr)
{
    for (int p = 0; p < 3; p++)
        av_freep(&fr->plane[p]);
}

/* ---- CAMBI from its definition (spec 8, 19.4), default options ---- */

/* BT.1886 thresholds of steps 1..4 and their weights (spec 8.2). */
static const int tvi[NB_DIFFS + 1]     = { 0, 178, 305, 432, 559 };
static const int weight[NB_DIFFS + 1]  = { 0, 1, 2, 3, 4 };
static const int scale_weight[SCALES]  = { 16, 8, 4, 2, 1 };

/* libvmaf's reciprocals: 1/i in float but for these (spec 19.4). */
static const struct { int i; float r; } recip_fix[] = {
    {   82, 0x1.8f9c1ap-7  }, {   83, 0x1.8acb92p-7  }, {  244, 0x1.0c9716p-8  },
    {  488, 0x1.0c9716p-9  }, {  504, 0x1.04104p-9   }, {  510, 0x1.0101p-9    },
    {  528, 0x1.f07c1ep-10 }, {  564, 0x1.d0cb5ap-10 }, {  614, 0x1.aaf1d4p-10 },
    {  664, 0x1.8acb92p-10 }, {  749, 0x1.5dfdf2p-10 }, {  760, 0x1.58ed22p-10 },
    {  892, 0x1.25e226p-10 }, { 1419, 0x1.717a24p-11 }, { 1699, 0x1.349614p-11 },
    { 1906, 0x1.13128ap-11 }, { 2040, 0x1.0101p-11   }, { 2071, 0x1.fa5058p-12 },
    { 2112, 0x1.f07c1ep-12 }, { 2223, 0x1.d7b1bp-12  }, { 2443, 0x1.ad377p-12  },
    { 2555, 0x1.9a66ccp-12 }, { 2740, 0x1.7eb126p-12 }, { 2927, 0x1.663e18p-12 },
    { 3285, 0x1.3f3382p-12 }, { 3515, 0x1.2a508cp-12 }, { 3525, 0x1.2977e6p-12 },
    { 3705, 0x1.1b0436p-12 }, { 3795, 0x1.144dfap-12 }, { 3797, 0x1.1428b8p-12 },
    { 3812, 0x1.13128ap-12 }, { 3837, 0x1.1147b8p-12 }, { 3885, 0x1.0de75ap-12 },
    { 4033, 0x1.03ffbep-12 }, { 4080, 0x1.0101p-12   }, { 4091, 0x1.005018p-12 },
    { 4095, 0x1.001p-12    }, { 4130, 0x1.fbc8f6p-13 }, { 4142, 0x1.fa5058p-13 },
    { 4203, 0x1.f2f72ap-13 }, { 4218, 0x1.f130eap-13 }, { 4224, 0x1.f07c1ep-13 },
};

#define MAX_AREA 4225
static float recip[MAX_AREA + 1];

static void recip_init(void)
{
    recip[0] = 0.0f;
    for (int i = 1; i <= MAX_AREA; i++)
        recip[i] = 1.0f / (float)i;
    for (size_t k = 0; k < sizeof(recip_fix) / sizeof(recip_fix[0]); k++)
        recip[recip_fix[k].i] = recip_fix[k].r;
}

static int ceil_log2(unsigned n)
{
    int k = 0;
    while (n > (1u << k))
        k++;
    return k;
}

static int window_of(const Clip *c, int hrs)
{
    int ws = ((65 * (c->w + c->h)) / 375) >> 4;
    return (hrs ? (ws + 1) >> 1 : ws) | 1;
}

static int mode3(int a, int b, int c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/* Keep the pixels (2i, 2j) of img and mask (w x h, packed). */
static void decimate(uint16_t *img, uint8_t *mask, int *w, int *h)
{
    int nw = (*w + 1) >> 1, nh = (*h + 1) >> 1;
    for (int i = 0; i < nh; i++)
        for (int j = 0; j < nw; j++) {
            img[i * nw + j]  = img[2 * i * *w + 2 * j];
            mask[i * nw + j] = mask[2 * i * *w + 2 * j];
        }
    *w = nw;
    *h = nh;
}

typedef struct Expected {
    int w[SCALES], h[SCALES];   ///< the scales' actual sizes
    float *c[SCALES];
    double score;
} Expected;

static int cmp_desc(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* c-values and score of the distorted picture of frame f. */
static int recompute(Expected *ex, const Clip *c, int f, int hrs)
{
    int w = c->w, h = c->h, ws = window_of(c, hrs), r = ws >> 1;
    size_t npix = (size_t)w * h;
    uint16_t *p = av_malloc_array(npix, sizeof(*p)), *img = av_malloc_array(npix, sizeof(*img));
    uint16_t *tmp = av_malloc_array(npix, sizeof(*tmp));
    uint8_t *mask = av_malloc(npix), *z = av_malloc(npix);
    int *integral = av_malloc_array((size_t)(w + 1) * (h + 1), sizeof(*integral));
    int thr, ret = 0;

    memset(ex, 0, sizeof(*ex));
    if (!p || !img || !tmp || !mask || !z || !integral) {
        ret = AVERROR(ENOMEM);
        goto end;
    }

    /* 10 bits; an 8-bit encode is averaged 2x2 (from the unfiltered values) */
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            p[i * w + j] = luma(c, 0, f, j, i) << (10 - c->bpc);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int a = p[i * w + j], v = a;
            if (c->bpc < 10) {
                int right = j < w - 1, down = i < h - 1;
                if (right && down)
                    v = (a + p[i * w + j + 1] + p[(i + 1) * w + j] + p[(i + 1) * w + j + 1]) >> 2;
                else if (down)
                    v = (a + p[(i + 1) * w + j]) >> 1;
                else if (right)
                    v = (a + p[i * w + j + 1]) >> 1;
            }
            img[i * w + j] = v;
        }

    /* spatial mask: more than thr zero-derivative pixels in the 7x7 window */
    thr = (49 + 3 * (ceil_log2((unsigned)((w >> 6) * (h >> 6))) - 11) - 1) >> 1;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int v = img[i * w + j];
            z[i * w + j] = (j == w - 1 || v == img[i * w + j + 1]) &&
                           (i == h - 1 || v == img[(i + 1) * w + j]);
        }
    for (int i = 0; i <= h; i++)
        for (int j = 0; j <= w; j++)
            integral[i * (w + 1) + j] = !i || !j ? 0 :
                z[(i - 1) * w + j - 1] + integral[(i - 1) * (w + 1) + j] +
                integral[i * (w + 1) + j - 1] - integral[(i - 1) * (w + 1) + j - 1];
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int i0 = i - 3 < 0 ? 0 : i - 3, i1 = i + 4 > h ? h : i + 4;
            int j0 = j - 3 < 0 ? 0 : j - 3, j1 = j + 4 > w ? w : j + 4;
            int sum = integral[i1 * (w + 1) + j1] - integral[i0 * (w + 1) + j1] -
                      integral[i1 * (w + 1) + j0] + integral[i0 * (w + 1) + j0];
            mask[i * w + j] = sum > thr;
        }

    if (hrs)
        decimate(img, mask, &w, &h);
    ex->score = 0.0;
    for (int s = 0; s < SCALES; s++) {
        float *cv, *sorted;
        double sum = 0.0;
        int n, k;

        if (s)
            decimate(img, mask, &w, &h);
        /* mode filter: horizontal of every row, then vertical of rows
         * 1..h-2 from those; rows 0 and h-1 untouched */
        if (h >= 3) {
            for (int i = 0; i < h; i++)
                for (int j = 0; j < w; j++)
                    tmp[i * w + j] = j == 0 || j == w - 1 ? img[i * w + j] :
                        mode3(img[i * w + j - 1], img[i * w + j], img[i * w + j + 1]);
            for (int i = 1; i < h - 1; i++)
                for (int j = 0; j < w; j++)
                    img[i * w + j] = mode3(tmp[(i - 1) * w + j], tmp[i * w + j],
                                           tmp[(i + 1) * w + j]);
        }

        n = w * h;
        ex->w[s] = w;
        ex->h[s] = h;
        if (!(cv = ex->c[s] = av_malloc_array(n, sizeof(*cv))) ||
            !(sorted = av_malloc_array(n, sizeof(*sorted)))) {
            ret = AVERROR(ENOMEM);
            goto end;
        }
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                int v = img[i * w + j], p0 = 0, plus[NB_DIFFS + 1] = { 0 }, minus[NB_DIFFS + 1] = { 0 };
                float cmax = 0.0f;
                if (!mask[i * w + j]) {
                    cv[i * w + j] = 0.0f;
                    continue;
                }
                for (int y = i - r; y <= i + r; y++)
                    for (int x = j - r; x <= j + r; x++) {
                        int d;
                        if (y < 0 || y >= h || x < 0 || x >= w || !mask[y * w + x])
                            continue;
                        d = img[y * w + x] - v;
                        if (!d)
                            p0++;
                        else if (d > 0 && d <= NB_DIFFS)
                            plus[d]++;
                        else if (d < 0 && -d <= NB_DIFFS)
                            minus[-d]++;
                    }
                for (int d = 1; d <= NB_DIFFS; d++) {
                    int pm = plus[d] > minus[d] ? plus[d] : minus[d];
                    float val;
                    if (v > tvi[d])
                        continue;
                    val = (float)(weight[d] * p0 * pm) * recip[pm + p0];
                    if (val > cmax)
                        cmax = val;
                }
                cv[i * w + j] = cmax;
            }

        /* top-k mean: c-values are multiples of 2^-24, so the sum is exact
         * in any order */
        memcpy(sorted, cv, n * sizeof(*cv));
        qsort(sorted, n, sizeof(*sorted), cmp_desc);
        k = (int)(0.6 * n);
        k = k < 1 ? 1 : k > n ? n : k;
        for (int i = 0; i < k; i++)
            sum += sorted[i];
        av_free(sorted);
        ex->score += sum / k * scale_weight[s];
    }
    ex->score /= (double)(ws * ws);
    if (ex->score > 1000.0)
        ex->score = 1000.0;

end:
    av_free(p);
    av_free(img);
    av_free(tmp);
    av_free(mask);
    av_free(z);
    av_free(integral);
    return ret;
}

static void expected_free(Expected *ex)
{
    for (int s = 0; s < SCALES; s++)
        av_freep(&ex->c[s]);
}

/* ---- the engine ---- */

typedef struct Run {
    const char *what;
    const Clip *clip;
    const char *options;    ///< cambi options besides heatmaps_path
    int frames, threads;
    unsigned subsample;
    int deferred;           ///< CPU first, the GPU's start after frame 2
    int hrs;                ///< the speed-up is active
    /** A GPU answers (simulated, on any machine): its twin of cambi must
     *  decline, and the CPU extractor score from its moved context. */
    int gpu;
} Run;

/* Score run r with the heatmaps in dir; scores[f] of every frame (NAN
 * where none). Returns the engine's error, 0 on success. */
static int run_engine(const Run *r, const char *dir, double *scores)
{
    const Clip *c = r->clip;
    FFVmafGeometry geo = { c->w, c->h, c->bpc, 1, 1 };
    FFVmafEngine *e = NULL;
    char features[1024];
    int ret, threads_before = 0;

    snprintf(features, sizeof(features), "name=cambi%s%s:heatmaps_path=%s",
             *r->options ? ":" : "", r->options, dir);
    logbuf[0] = 0;
    if (r->gpu)
        setenv("VMAF_HIP_SIMULATE_GPU", "1", 1);
    if ((ret = ff_vmaf_engine_alloc(&e, NULL)) < 0 ||
        (ret = ff_vmaf_engine_parse_models(e, "")) < 0 ||
        (ret = ff_vmaf_engine_parse_features(e, features)) < 0)
        goto end;
    if (r->deferred)
        ff_vmaf_engine_defer_gpu(e);
    if ((ret = ff_vmaf_engine_configure(e, &geo, r->threads, r->subsample)) < 0)
        goto end;
    threads_before = ff_vmaf_engine_nb_threads(e);
    for (int f = 0; f < r->frames; f++) {
        Frame ref = { { 0 } }, dis = { { 0 } };
        if (r->deferred && f == 2 && (ret = ff_vmaf_engine_start_gpu(e)) < 0)
            goto end;
        if ((ret = frame_make(&ref, c, 1, f)) >= 0 &&
            (ret = frame_make(&dis, c, 0, f)) >= 0)
            ret = ff_vmaf_engine_push(e, &ref.pic, &dis.pic);
        frame_free(&ref);
        frame_free(&dis);
        if (ret < 0)
            goto end;
    }
    if ((ret = ff_vmaf_engine_flush(e)) < 0)
        goto end;

    {
        const FFVmafFeatureCollector *fc = ff_vmaf_engine_results(e);
        char where[1024];
        int key = -1;
        for (int k = 0; k < ff_vmaf_collector_nb_keys(fc); k++) {
            const char *name = ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k));
            if (!strncmp(name, "cambi", 5) && !strstr(name, "source") &&
                !strstr(name, "full_reference"))
                key = k;
        }
        for (int f = 0; f < r->frames; f++)
            if (key < 0 || ff_vmaf_collector_read_at(fc, key, f, &scores[f]) < 0)
                scores[f] = NAN;
        /* The heatmaps need the c-values on the host: never the GPU. */
        ff_vmaf_engine_describe_backends(e, where, sizeof(where));
        check(!strstr(where, "GPU"), "%s: cambi runs on the CPU (%s)", r->what, where);
        if (r->deferred)
            check(ff_vmaf_engine_nb_threads(e) != threads_before,
                  "%s: the worker threads were made again mid-stream (%d, then %d)",
                  r->what, threads_before, ff_vmaf_engine_nb_threads(e));
    }
end:
    ff_vmaf_engine_free(&e);
    if (r->gpu)
        unsetenv("VMAF_HIP_SIMULATE_GPU");
    return ret;
}

/* ---- the files ---- */

static uint8_t *read_whole(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long len;

    if (!f)
        return NULL;
    if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
        (buf = malloc(len ? len : 1)) && fread(buf, 1, len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = buf ? (size_t)len : 0;
    return buf;
}

static void heatmap_name(char *buf, size_t size, const char *dir, const Clip *c, int s)
{
    int w = c->w, h = c->h;
    for (int k = 0; k < s; k++) {
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }
    snprintf(buf, size, "%s/cambi_heatmap_scale_%d_%dx%d_16b.gray", dir, s, w, h);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    if (!d)
        return -1;
    while ((de = readdir(d)))
        n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    closedir(d);
    return n;
}

/*
 * The files of run r in dir against the expected c-values (exp[f], for
 * every frame) and the scores the engine gave.
 */
static void check_run(const Run *r, const char *dir, Expected *exp, const double *scores)
{
    const Clip *c = r->clip;
    int last = -1, bad_scores = 0, ws = window_of(c, r->hrs);
    /* k = 65535 / M, M = max_weight * window^2 / 4 in integers */
    double k = 65535.0 / (weight[NB_DIFFS] * ws * ws / 4);

    for (int f = 0; f < r->frames; f++) {
        int scored = f % r->subsample == 0;
        if (scored)
            last = f;
        if (scored ? scores[f] != exp[f].score : !isnan(scores[f])) {
            if (bad_scores++ < 3)
                printf("  %s: frame %d: cambi %.17g, from the definition %.17g\n",
                       r->what, f, scores[f], scored ? exp[f].score : NAN);
        }
    }
    check(!bad_scores, "%s: cambi of each scored frame is the definition's, bit for bit "
          "(%d frames)", r->what, r->frames);
    check(count_entries(dir) == SCALES, "%s: %s holds the five heatmaps and nothing else",
          r->what, dir);

    for (int s = 0; s < SCALES; s++) {
        char path[4096];
        int w = exp[0].w[s], h = exp[0].h[s], bad = 0, big = 0;
        size_t block = (size_t)w * h * 2, size;
        uint8_t *data;

        heatmap_name(path, sizeof(path), dir, c, s);
        data = read_whole(path, &size);
        if (!data) {
            check(0, "%s: %s exists", r->what, path);
            continue;
        }
        check(size == (size_t)(last + 1) * block,
              "%s: scale %d: %s is %zu bytes: %d frames of %dx%d samples",
              r->what, s, strrchr(path, '/') + 1, size, last + 1, w, h);
        for (int f = 0; f <= last && (size_t)(f + 1) * block <= size; f++) {
            const uint8_t *b = data + (size_t)f * block;
            int scored = f % r->subsample == 0;
            for (int i = 0; i < w * h; i++) {
                unsigned got = b[2 * i] | b[2 * i + 1] << 8, want = 0;
                if (scored) {
                    double kc = k * exp[f].c[s][i];
                    big |= kc >= 65536.0;
                    want = kc < 65536.0 ? (uint16_t)kc : 65535;
                }
                if (got != want && bad++ < 3)
                    printf("  %s: scale %d frame %d (%d, %d): %u, expected %u%s\n", r->what,
                           s, f, i % w, i / w, got, want, scored ? "" : " (a hole)");
            }
        }
        check(!bad && !big, "%s: scale %d: every sample is (uint16_t)(k * c) of its frame, "
              "the skipped frames' blocks zero (%d differ)", r->what, s, bad);
        free(data);
    }
}

static int same_files(const char *a, const char *b, const Clip *c)
{
    for (int s = 0; s < SCALES; s++) {
        char pa[4096], pb[4096];
        size_t na, nb;
        uint8_t *da, *db;
        int same;
        heatmap_name(pa, sizeof(pa), a, c, s);
        heatmap_name(pb, sizeof(pb), b, c, s);
        da = read_whole(pa, &na);
        db = read_whole(pb, &nb);
        same = da && db && na == nb && !memcmp(da, db, na);
        free(da);
        free(db);
        if (!same)
            return 0;
    }
    return 1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    char base[1024], dir[4096], dir1[4096], blocker[4096];
    Expected exp_main[6] = { { { 0 } } }, exp_hrs[2] = { { { 0 } } };
    double scores[8];
    mode_t mask;
    int ret;

    /* Every run: 576x324 has a 9x9 window; full_ref scores a reference that
     * differs, whose c-values must not reach the files. */
    static const Run plain = { "576x324 8-bit, 1 thread, full_ref", &clip_main,
                               "full_ref=true", 4, 1, 1 };
    static const Run threads = { "576x324 8-bit, 3 threads, full_ref", &clip_main,
                                 "full_ref=true", 4, 3, 1 };
    static const Run sub = { "576x324 8-bit, n_subsample=2, 3 threads", &clip_main,
                             "", 5, 3, 2 };
    static const Run deferred = { "576x324 8-bit, threads made again mid-stream", &clip_main,
                                  "", 6, 6, 1, 1 };
    static const Run gpu = { "576x324 8-bit, a GPU answers (simulated)", &clip_main,
                             "", 4, 1, 1, 0, 0, 1 };
    static const Run hrs = { "1921x1081 10-bit, cambi_high_res_speedup=1080, 3 threads",
                             &clip_hrs, "cambi_high_res_speedup=1080", 2, 3, 1, 0, 1 };

    av_log_set_callback(log_cb);
    recip_init();
    mask = umask(0);
    umask(mask);

    snprintf(base, sizeof(base), "%s/cambi_heatmaps_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(base)) {
        printf("FAIL cannot make a directory in %s\n0 passed, 1 failed\n", tmp ? tmp : "/tmp");
        return 1;
    }

    for (int f = 0; f < 6; f++)
        if (recompute(&exp_main[f], &clip_main, f, 0) < 0)
            goto oom;
    for (int f = 0; f < 2; f++)
        if (recompute(&exp_hrs[f], &clip_hrs, f, 1) < 0)
            goto oom;
    {
        int nonzero = 0, total = 0;
        for (int i = 0; i < exp_main[0].w[0] * exp_main[0].h[0]; i++) {
            nonzero += exp_main[0].c[0][i] > 0.0f;
            total++;
        }
        /* a clip without banding would make the checks weak */
        check(nonzero > total / 10 && nonzero < total,
              "the clip has banding: %d of %d c-values of scale 0 nonzero", nonzero, total);
    }

    /* 1 thread, into a path whose parents do not exist yet */
    snprintf(dir1, sizeof(dir1), "%s/plain/a/b", base);
    ret = run_engine(&plain, dir1, scores);
    check(ret >= 0, "%s: runs (%s)%s%s", plain.what, av_err2str(ret), *logbuf ? ": " : "", logbuf);
    if (ret >= 0) {
        struct stat st;
        check_run(&plain, dir1, exp_main, scores);
        snprintf(dir, sizeof(dir), "%s/plain", base);
        check(!stat(dir, &st) && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == (0770 & ~mask),
              "the directory and its parents are made with mode 0770 (less the umask)");
    }

    snprintf(dir, sizeof(dir), "%s/threads", base);
    ret = run_engine(&threads, dir, scores);
    check(ret >= 0, "%s: runs (%s)", threads.what, av_err2str(ret));
    if (ret >= 0) {
        check_run(&threads, dir, exp_main, scores);
        check(same_files(dir1, dir, &clip_main), "1 and 3 threads write the same bytes");
    }

    snprintf(dir, sizeof(dir), "%s/subsample", base);
    ret = run_engine(&sub, dir, scores);
    check(ret >= 0, "%s: runs (%s)", sub.what, av_err2str(ret));
    if (ret >= 0)
        check_run(&sub, dir, exp_main, scores);

    /* The workers' instances are made again when the deferred GPU start
     * lifts the cap on the threads: they must not truncate the files. */
    snprintf(dir, sizeof(dir), "%s/deferred", base);
    ret = run_engine(&deferred, dir, scores);
    check(ret >= 0, "%s: runs (%s)", deferred.what, av_err2str(ret));
    if (ret >= 0)
        check_run(&deferred, dir, exp_main, scores);

    snprintf(dir, sizeof(dir), "%s/gpu", base);
    ret = run_engine(&gpu, dir, scores);
    check(ret >= 0, "%s: runs (%s)", gpu.what, av_err2str(ret));
    if (ret >= 0) {
        /* declined at init, not taken back from a failed GPU */
        check(strstr(logbuf, "simulated GPU") && !strstr(logbuf, "GPU failed"),
              "%s: the GPU was set up and cambi's twin declined it", gpu.what);
        check_run(&gpu, dir, exp_main, scores);
    }

    snprintf(dir, sizeof(dir), "%s/hrs", base);
    ret = run_engine(&hrs, dir, scores);
    check(ret >= 0, "%s: runs (%s)", hrs.what, av_err2str(ret));
    if (ret >= 0) {
        check(exp_hrs[0].w[0] == 961 && exp_hrs[0].h[0] == 541 &&
              exp_hrs[0].w[4] == 61 && exp_hrs[0].h[4] == 34,
              "%s: scale 0 is 961x541 and scale 4 61x34, named 1921x1081 and 121x68", hrs.what);
        check_run(&hrs, dir, exp_hrs, scores);
    }

    /* A path under a regular file cannot be made. */
    snprintf(blocker, sizeof(blocker), "%s/file", base);
    {
        FILE *f = fopen(blocker, "w");
        if (f)
            fclose(f);
    }
    snprintf(dir, sizeof(dir), "%s/file/sub", base);
    {
        Run one = plain;
        one.what   = "576x324 8-bit, 1 frame";
        one.frames = 1;
        ret = run_engine(&one, dir, scores);
        check(ret < 0 && strstr(logbuf, "could not open heatmaps_path") &&
              strstr(logbuf, dir) && strstr(logbuf, "errno"),
              "a path under a file: init fails (%s) with libvmaf's phrase, the path and "
              "the errno: %s", av_err2str(ret), logbuf);

        /* A file of one scale that cannot be opened (a directory has its
         * name), then the same path once that is fixed. */
        snprintf(dir, sizeof(dir), "%s/busy", base);
        heatmap_name(blocker, sizeof(blocker), dir, &clip_main, 3);
        mkdir(dir, 0700);
        mkdir(blocker, 0700);
        ret = run_engine(&one, dir, scores);
        check(ret < 0 && strstr(logbuf, "could not open heatmaps_path") &&
              strstr(logbuf, blocker),
              "scale 3's file cannot be opened: init fails (%s) naming it: %s",
              av_err2str(ret), logbuf);
        rmdir(blocker);
        ret = run_engine(&one, dir, scores);
        check(ret >= 0, "the same path once it can be written: runs (%s)", av_err2str(ret));
        if (ret >= 0)
            check_run(&one, dir, exp_main, scores);
    }

    goto end;
oom:
    check(0, "memory for the expected values");
end:
    for (int f = 0; f < 6; f++)
        expected_free(&exp_main[f]);
    for (int f = 0; f < 2; f++)
        expected_free(&exp_hrs[f]);
    nftw(base, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
