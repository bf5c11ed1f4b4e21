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
 * CAMBI banding detector ("cambi"), bit-exact with libvmaf 3.2.0.
 *
 * No-reference: the distorted luma is converted to 10 bits at the encode
 * resolution, masked to its flat areas, and scored at five scales by the
 * contrast of neighbouring bands (kernels in cambi_dsp.c). With full_ref
 * the reference is scored too, at the source resolution. Frames are
 * independent; the engine scores them in parallel with one instance per
 * thread, so the scratch belongs to the instance, allocated once at init
 * (a fresh allocation per frame cost its page faults every frame).
 */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"

#if HAVE_UNISTD_H
#include <unistd.h>
#endif

#include "libavutil/avstring.h"
#include "libavutil/error.h"
#include "libavutil/file_open.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"

#include "cambi.h"
#include "cambi_dsp.h"
#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"

#define CAMBI_NAME      "Cambi_feature_cambi_score"
#define CAMBI_MIN_SIZE  216
#define DEFAULT_TOPK    0.6
#define DEFAULT_EOTF    "bt1886"

/* Limited-range 10-bit luma. */
#define LUMA_FOOT 64
#define LUMA_HEAD 940

static const int scale_weights[FF_VMAF_CAMBI_SCALES] = { 16, 8, 4, 2, 1 };

const int ff_vmaf_cambi_contrast_weights[FF_VMAF_CAMBI_MAX_DIFFS + 1] = {
    0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
    8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
};

#define OFFSET(x) offsetof(CambiContext, x)
const FFVmafOption ff_vmaf_cambi_options[] = {
    { "enc_width",               "encw",  FF_VMAF_OPT_INT,    OFFSET(enc_width),         0,     NULL, 0, 16384, 1 },
    { "enc_height",              "ench",  FF_VMAF_OPT_INT,    OFFSET(enc_height),        0,     NULL, 0, 16384, 1 },
    { "enc_bitdepth",            "encbd", FF_VMAF_OPT_INT,    OFFSET(enc_bitdepth),      0,     NULL, 0, 16, 1 },
    { "src_width",               "srcw",  FF_VMAF_OPT_INT,    OFFSET(src_width),         0,     NULL, 0, 16384, 1 },
    { "src_height",              "srch",  FF_VMAF_OPT_INT,    OFFSET(src_height),        0,     NULL, 0, 16384, 1 },
    { "window_size",             "ws",    FF_VMAF_OPT_INT,    OFFSET(window_size),       65,    NULL, 1, 1000, 1 },
    { "topk",                    NULL,    FF_VMAF_OPT_DOUBLE, OFFSET(topk),              DEFAULT_TOPK, NULL, 0.0001, 1.0, 1 },
    { "cambi_topk",              "ctpk",  FF_VMAF_OPT_DOUBLE, OFFSET(cambi_topk),        DEFAULT_TOPK, NULL, 0.0001, 1.0, 1 },
    { "tvi_threshold",           "tvit",  FF_VMAF_OPT_DOUBLE, OFFSET(tvi_threshold),     0.019, NULL, 0.0001, 1.0, 1 },
    { "cambi_vis_lum_threshold", "vlt",   FF_VMAF_OPT_DOUBLE, OFFSET(vis_lum_threshold), 0.0,   NULL, 0.0, 300.0, 1 },
    { "max_log_contrast",        "mlc",   FF_VMAF_OPT_INT,    OFFSET(max_log_contrast),  2,     NULL, 0, 5, 1 },
    { "eotf",                    NULL,    FF_VMAF_OPT_STRING, OFFSET(eotf),              0, DEFAULT_EOTF, 0, 0, 1 },
    { "cambi_eotf",              "ceot",  FF_VMAF_OPT_STRING, OFFSET(cambi_eotf),        0, DEFAULT_EOTF, 0, 0, 1 },
    { "cambi_high_res_speedup",  "hrs",   FF_VMAF_OPT_INT,    OFFSET(high_res_speedup),  0,     NULL, 0, 2160, 1 },
    { "cambi_max_val",           "cmxv",  FF_VMAF_OPT_DOUBLE, OFFSET(max_val),           1000.0, NULL, 0.0, 1000.0, 1 },
    { "full_ref",                NULL,    FF_VMAF_OPT_BOOL,   OFFSET(full_ref),          0,     NULL, 0, 1, 0 },
    { "heatmaps_path",           NULL,    FF_VMAF_OPT_STRING, OFFSET(heatmaps_path),     0,     NULL, 0, 0, 0 },
    { NULL }
};

/* Display luminance (cd/m²) of a 10-bit limited-range code. */
static double luminance(int code, int pq)
{
    double v = (double)(FFMIN(FFMAX(code, LUMA_FOOT), LUMA_HEAD) - LUMA_FOOT) /
               (LUMA_HEAD - LUMA_FOOT);

    if (pq) {
        /* SMPTE ST 2084 */
        const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128;
        const double c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32;
        const double c3 = 2392.0 / 4096 * 32;
        double e = pow(v, 1.0 / m2);
        return 10000.0 * pow(FFMAX(e - c1, 0.0) / (c2 - c3 * e), 1.0 / m1);
    } else {
        /* BT.1886 with a 300 cd/m² white and a 0.01 cd/m² black */
        const double gamma = 2.4, lw = 300.0, lb = 0.01;
        double rw = pow(lw, 1.0 / gamma), rb = pow(lb, 1.0 / gamma);
        double a = pow(rw - rb, gamma), b = rb / (rw - rb);
        return a * pow(FFMAX(v + b, 0.0), gamma);
    }
}

/* Is a step of d codes above code visible (Weber fraction over the
 * threshold)? */
static int step_visible(int code, int d, double threshold, int pq)
{
    double l = luminance(code, pq);
    return (luminance(code + d, pq) - l) / l > threshold;
}

/*
 * The largest code at which a step of d is still visible; the fraction
 * falls with the code, so bisect between foot and the last code whose
 * step stays in range. -1 when no step is visible.
 */
static int tvi_for_diff(int d, double threshold, int pq)
{
    int lo = LUMA_FOOT, hi = LUMA_HEAD - d;

    if (!step_visible(lo, d, threshold, pq))
        return -1;
    if (step_visible(hi, d, threshold, pq))
        return hi;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (step_visible(mid, d, threshold, pq))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The first code as bright as the visibility threshold; 0 when the foot
 * already is. */
static int vis_lum_code(double threshold, int pq)
{
    for (int code = LUMA_FOOT; code <= 1023; code++)
        if (luminance(code, pq) >= threshold)
            return code == LUMA_FOOT ? 0 : code;
    return FF_VMAF_CAMBI_MAX_SAMPLE + 1;
}

/* libvmaf refuses frames whose width and height are both below 216. */
static int check_size(FFVmafFeature *f, int w, int h, const char *what)
{
    if (w < CAMBI_MIN_SIZE && h < CAMBI_MIN_SIZE) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'cambi' needs frames at least %d pixels wide or high; "
               "the %s size is %dx%d.\n", CAMBI_MIN_SIZE, what, w, h);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* The largest window the kernels take: its area is FF_VMAF_CAMBI_MAX_AREA. */
#define CAMBI_MAX_WINDOW 65

/* The window option is for 4K; it is scaled with the frame size, halved
 * with the high-resolution speed-up, and odd. */
static int cambi_window(int window_size, int w, int h, int high_res)
{
    int ws = ((window_size * (w + h)) / 375) >> 4;
    if (high_res)
        ws = (ws + 1) >> 1;
    return ws | 1;
}

static int setup_size(FFVmafFeature *f, CambiSize *sz, int w, int h)
{
    CambiContext *s = f->priv;
    int high_res = 0, ws;

    sz->w = w;
    sz->h = h;

    /* The speed-up applies only from its nominal resolution on. */
    if (s->high_res_speedup) {
        static const int modes[][3] = {
            { 1080, 1920, 1080 }, { 1440, 2560, 1440 }, { 2160, 3840, 2160 },
        };
        int found = 0;
        for (int i = 0; i < FF_ARRAY_ELEMS(modes); i++) {
            if (s->high_res_speedup != modes[i][0])
                continue;
            found = 1;
            high_res = (int64_t)w * h >= (int64_t)modes[i][1] * modes[i][2];
        }
        if (!found) {
            av_log(f->log_ctx, AV_LOG_ERROR,
                   "Feature 'cambi': cambi_high_res_speedup must be 0, 1080, "
                   "1440 or 2160, got %d.\n", s->high_res_speedup);
            return AVERROR(EINVAL);
        }
    }
    sz->high_res = high_res;

    ws = cambi_window(s->window_size, w, h, high_res);
    if (ws * ws > FF_VMAF_CAMBI_MAX_AREA) {
        int max = s->window_size, max_hrs = 0;
        char hint[160] = "";
        while (max > 1 && cambi_window(max, w, h, high_res) * cambi_window(max, w, h, high_res) >
                          FF_VMAF_CAMBI_MAX_AREA)
            max--;
        /* The speed-up halves the window from 1080p on. */
        if (!high_res && (int64_t)w * h >= 1920 * 1080)
            for (max_hrs = s->window_size; max_hrs > 1 &&
                 cambi_window(max_hrs, w, h, 1) * cambi_window(max_hrs, w, h, 1) >
                 FF_VMAF_CAMBI_MAX_AREA; max_hrs--)
                ;
        if (max_hrs > max)
            snprintf(hint, sizeof(hint), ", or add cambi_high_res_speedup=1080, which halves "
                     "the window at this size and allows window_size up to %d", max_hrs);
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'cambi': window_size=%d gives a %dx%d window at %dx%d, larger than "
               "the %dx%d CAMBI allows: set window_size to %d or less (the option accepts 1 "
               "to 1000 and is scaled from 4K to the frame size; e.g. "
               "feature=name=cambi\\\\:window_size=%d)%s.\n", s->window_size, ws, ws, w, h,
               CAMBI_MAX_WINDOW, CAMBI_MAX_WINDOW, max, max, hint);
        return AVERROR(EINVAL);
    }
    sz->window = ws;
    sz->mask_threshold = ff_vmaf_cambi_mask_threshold(w, h);

    if (w != s->in_w || h != s->in_h) {
        sz->xmap = av_malloc_array(w, sizeof(*sz->xmap));
        sz->ymap = av_malloc_array(h, sizeof(*sz->ymap));
        if (!sz->xmap || !sz->ymap)
            return AVERROR(ENOMEM);
        ff_vmaf_cambi_resample_map(sz->xmap, s->in_w, w);
        ff_vmaf_cambi_resample_map(sz->ymap, s->in_h, h);
    }

    s->params.window = ws;
    sz->tmp_size = ff_vmaf_cambi_c_values_tmp_size(high_res ? (w + 1) >> 1 : w,
                                                   &s->params);
    return 0;
}

#define ALIGN32(x) (((x) + 31) & ~(size_t)31)

/* Scratch of cambi_score(), carved out of one allocation. */
typedef struct ScoreBuf {
    float *c;               ///< c-values of a scale
    uint32_t *topk_tmp;
    FFVmafCambiTopk *topk;
    void *c_tmp;
    uint16_t *img, *line;
    uint8_t *mask;
} ScoreBuf;

static size_t score_buf_layout(const CambiSize *sz, uint8_t *base, ScoreBuf *b)
{
    size_t npix = (size_t)sz->w * sz->h, off = 0;

#define CARVE(field, bytes) do {                        \
        if (b)                                          \
            b->field = (void *)(base + off);            \
        off += ALIGN32(bytes);                          \
    } while (0)
    CARVE(c,        npix * sizeof(float));
    CARVE(topk_tmp, FF_VMAF_CAMBI_TOPK_TMP * sizeof(uint32_t));
    CARVE(topk,     sizeof(FFVmafCambiTopk));
    CARVE(c_tmp,    sz->tmp_size);
    CARVE(img,      npix * sizeof(uint16_t));
    CARVE(line,     FFMAX(3 * (size_t)sz->w, FF_VMAF_CAMBI_MASK_TMP(sz->w)) *
                    sizeof(uint16_t));
    CARVE(mask,     npix);
#undef CARVE
    return off;
}

/*
 * Heatmaps (heatmaps_path): libvmaf's files of the distorted picture's
 * c-values, one a scale, named after the scale's nominal size, holding
 * 16-bit little-endian samples and no header. Frame f's block starts at
 * f * w * h * 2 (the scale's actual size), so frames land at their own
 * index whatever order they are scored in, and a frame that n_subsample
 * skips leaves a hole.
 *
 * The engine scores frames in parallel with one instance per worker
 * thread, and makes the workers' instances again when their number
 * changes in the middle of the stream. So the first instance of a path
 * creates and truncates its files, and every instance alive with it
 * writes through the same descriptors: a later one must not truncate
 * what earlier frames wrote. pwrite() carries its own offset, so writes
 * need no lock.
 */
#if HAVE_UNISTD_H && !defined(_WIN32)
#define HEATMAPS 1
#else
#define HEATMAPS 0
#endif

/* Samples converted and written at a time. */
#define HEATMAP_CHUNK 32768

struct CambiHeatmaps {
    char *key;          ///< the path of scale 0's file
    int fd[FF_VMAF_CAMBI_SCALES];
    int refs;           ///< instances using the files
    CambiHeatmaps *next;
};

static AVMutex heatmaps_lock = AV_MUTEX_INITIALIZER;
static CambiHeatmaps *heatmaps_list;

static void heatmaps_release(FFVmafFeature *f, CambiHeatmaps **phm)
{
    CambiHeatmaps *hm = *phm;

    if (!hm)
        return;
    ff_mutex_lock(&heatmaps_lock);
    if (!--hm->refs) {
        CambiHeatmaps **p = &heatmaps_list;
        while (*p != hm)
            p = &(*p)->next;
        *p = hm->next;
#if HEATMAPS
        for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES; scale++)
            if (hm->fd[scale] >= 0 && close(hm->fd[scale]) < 0)
                av_log(f->log_ctx, AV_LOG_ERROR,
                       "Feature 'cambi': closing the heatmap of scale %d in %s "
                       "failed: %s.\n", scale, hm->key, av_err2str(AVERROR(errno)));
#endif
        av_free(hm->key);
        av_free(hm);
    }
    ff_mutex_unlock(&heatmaps_lock);
    *phm = NULL;
}

#if HEATMAPS
/*
 * mkdir -p with mode 0770: each component of path in turn (path is
 * restored). Returns 0, or the errno of the first component that could
 * not be made, which *failed names (an av_malloc'ed copy); the file open
 * that follows decides whether that mattered.
 */
static int make_dirs(char *path, char **failed)
{
    int err = 0;

    for (char *p = path + 1; ; p++) {
        char c = *p;
        if (c && c != '/')
            continue;
        *p = 0;
        if (mkdir(path, 0770) < 0 && errno != EEXIST && !err) {
            err = errno;
            *failed = av_strdup(path);
        }
        *p = c;
        if (!c)
            break;
    }
    return err;
}

/* Create heatmaps_path and open its files, or share those another
 * instance opened. */
static int heatmaps_open(FFVmafFeature *f, CambiContext *s)
{
    const char *dir = s->heatmaps_path;
    char *name[FF_VMAF_CAMBI_SCALES] = { NULL };
    CambiHeatmaps *hm = NULL;
    int w = s->enc.w, h = s->enc.h, ret = 0;

    /* Named after the encode size halved per scale, even where the
     * speed-up has halved scale 0 already. */
    for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES; scale++) {
        name[scale] = av_asprintf("%s/cambi_heatmap_scale_%d_%dx%d_16b.gray",
                                  dir, scale, w, h);
        if (!name[scale]) {
            ret = AVERROR(ENOMEM);
            goto end;
        }
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }

    ff_mutex_lock(&heatmaps_lock);
    for (hm = heatmaps_list; hm; hm = hm->next)
        if (!strcmp(hm->key, name[0]))
            break;
    if (hm) {
        hm->refs++;
    } else if (!(hm = av_mallocz(sizeof(*hm)))) {
        ret = AVERROR(ENOMEM);
    } else {
        char *path = av_strdup(dir), *failed = NULL;
        int mkdir_err = path ? make_dirs(path, &failed) : 0;

        for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES; scale++)
            hm->fd[scale] = -1;
        if (!path)
            ret = AVERROR(ENOMEM);
        for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES && ret >= 0; scale++) {
            char why[512] = "";
            int err;
            if ((hm->fd[scale] = avpriv_open(name[scale], O_WRONLY | O_CREAT | O_TRUNC,
                                             0666)) >= 0)
                continue;
            err = errno;
            ret = AVERROR(err);
            if (mkdir_err)
                snprintf(why, sizeof(why), " Creating the directory %s failed: %s "
                         "(errno %d).", failed ? failed : dir,
                         av_err2str(AVERROR(mkdir_err)), mkdir_err);
            av_log(f->log_ctx, AV_LOG_ERROR,
                   "Feature 'cambi': could not open heatmaps_path file %s: %s "
                   "(errno %d). heatmaps_path must name a directory that can be "
                   "created and written to; the heatmap of each scale is written "
                   "there.%s\n", name[scale], av_err2str(ret), err, why);
        }
        av_free(failed);
        av_free(path);
        if (ret < 0) {
            for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES; scale++)
                if (hm->fd[scale] >= 0)
                    close(hm->fd[scale]);
            av_freep(&hm);
        } else {
            hm->key  = name[0];
            name[0]  = NULL;
            hm->refs = 1;
            hm->next = heatmaps_list;
            heatmaps_list = hm;
        }
    }
    ff_mutex_unlock(&heatmaps_lock);
    s->heatmaps = hm;

end:
    for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES; scale++)
        av_free(name[scale]);
    return ret;
}

static int write_at(int fd, const uint8_t *buf, size_t size, int64_t pos)
{
    while (size) {
        ssize_t n = pwrite(fd, buf, size, pos);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? AVERROR(errno) : AVERROR(EIO);
        buf  += n;
        size -= n;
        pos  += n;
    }
    return 0;
}

/*
 * The heatmap of a scale (w x h, its c-values c and mask m) of frame
 * index. c is left unwritten outside the mask, where it is 0.
 *
 * libvmaf stores (uint16_t)(k * c), which x86 converts through a 32-bit
 * int. k * c stays below 65536 where M is exactly max_weight * window^2 / 4
 * (max_log_contrast 2, the default, or 4); with the other weights the
 * largest c can pass M a little, and the conversion through int keeps
 * libvmaf's wrap-around there instead of undefined behaviour.
 */
static int heatmap_write(const CambiContext *s, int scale, unsigned index,
                         const float *c, const uint8_t *m, ptrdiff_t mstride,
                         int w, int h)
{
    uint8_t *buf = s->heatmap_buf;
    int64_t pos = ((int64_t)index * h) * w * 2;
    int fd = s->heatmaps->fd[scale], n = 0, ret;

    for (int i = 0; i < h; i++, c += w, m += mstride) {
        for (int j = 0; j < w; j++) {
            unsigned v = 0;
            if (m[j] && c[j] > 0.0f)
                v = (uint16_t)(int)(s->heatmap_k * c[j]);
            AV_WL16(buf + 2 * n, v);
            if (++n == HEATMAP_CHUNK) {
                if ((ret = write_at(fd, buf, 2 * n, pos)) < 0)
                    return ret;
                pos += 2 * n;
                n = 0;
            }
        }
    }
    return n ? write_at(fd, buf, 2 * n, pos) : 0;
}
#endif /* HEATMAPS */

void ff_vmaf_cambi_close(FFVmafFeature *f)
{
    CambiContext *s = f->priv;

    heatmaps_release(f, &s->heatmaps);
    av_freep(&s->heatmap_buf);
    av_freep(&s->enc.xmap);
    av_freep(&s->enc.ymap);
    av_freep(&s->src.xmap);
    av_freep(&s->src.ymap);
    av_freep(&s->buf);
}

int ff_vmaf_cambi_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    CambiContext *s = f->priv;
    const char *eotf;
    int nd, pq, max_value = 0, ret;

    s->in_w = geo->width;
    s->in_h = geo->height;
    s->bitdepth = s->enc_bitdepth ? s->enc_bitdepth : geo->bpc;

    /* The non-prefixed topk and the prefixed eotf win when set. */
    s->eff_topk = s->topk != DEFAULT_TOPK ? s->topk : s->cambi_topk;
    eotf = strcmp(s->cambi_eotf, DEFAULT_EOTF) ? s->cambi_eotf : s->eotf;
    if (!strcmp(eotf, "bt1886")) {
        pq = 0;
    } else if (!strcmp(eotf, "pq")) {
        pq = 1;
    } else {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'cambi': unknown eotf '%s' (bt1886 or pq).\n", eotf);
        return AVERROR(EINVAL);
    }
    /* An empty path would put the files in the root directory. */
    if (s->heatmaps_path && !*s->heatmaps_path)
        av_freep(&s->heatmaps_path);

    /* Contrast steps: the brightest code at which each is visible, and
     * which steps count for each sample value. */
    nd = 1 << s->max_log_contrast;
    s->vlt_luma = vis_lum_code(s->vis_lum_threshold, pq);
    for (int d = 1; d <= nd; d++)
        s->tvi[d] = tvi_for_diff(d, s->tvi_threshold, pq);
    for (int v = 0; v <= FF_VMAF_CAMBI_MAX_SAMPLE; v++) {
        uint32_t act = 0;
        for (int d = 1; d <= nd; d++) {
            if (v <= s->tvi[d] && v + d + nd > s->vlt_luma) {
                act |= 1u << (d - 1);
                max_value = FFMAX(max_value, v + d);
            }
        }
        s->active[v] = act;
    }
    ff_vmaf_cambi_recip_init(s->recip);
    ff_vmaf_cambi_dsp_init(&s->dsp);
    /* active and recip are set per picture: they point into the context */
    s->params.nb_diffs  = nd;
    s->params.max_value = max_value;
    s->params.weights   = ff_vmaf_cambi_contrast_weights;

    /* The encode size defaults to, and cannot exceed, the input size. */
    {
        int ew = s->enc_width, eh = s->enc_height;
        int sw = s->src_width  ? s->src_width  : geo->width;
        int sh = s->src_height ? s->src_height : geo->height;
        if (!ew || ew > geo->width)
            ew = geo->width;
        if (!eh || eh > geo->height)
            eh = geo->height;
        if ((sw > ew && sh < eh) || (sw < ew && sh > eh)) {
            av_log(f->log_ctx, AV_LOG_ERROR,
                   "Feature 'cambi': source size %dx%d and encode size %dx%d "
                   "must not be larger in one dimension and smaller in the "
                   "other.\n", sw, sh, ew, eh);
            return AVERROR(EINVAL);
        }
        if ((ret = check_size(f, ew, eh, "encode")) < 0 ||
            (ret = check_size(f, sw, sh, "source")) < 0)
            return ret;
        if ((ret = setup_size(f, &s->enc, ew, eh)) < 0 ||
            (s->full_ref && (ret = setup_size(f, &s->src, sw, sh)) < 0)) {
            ff_vmaf_cambi_close(f);
            return ret;
        }
    }

    {
        size_t size = score_buf_layout(&s->enc, NULL, NULL);
        if (s->full_ref)
            size = FFMAX(size, score_buf_layout(&s->src, NULL, NULL));
        s->buf = av_malloc(size);
        if (!s->buf) {
            ff_vmaf_cambi_close(f);
            return AVERROR(ENOMEM);
        }
    }

    if (s->heatmaps_path) {
#if HEATMAPS
        /* M in integer arithmetic, as libvmaf has it */
        int m = ff_vmaf_cambi_contrast_weights[nd] * s->enc.window * s->enc.window / 4;
        s->heatmap_k = 65535.0 / m;
        if (!(s->heatmap_buf = av_malloc(2 * HEATMAP_CHUNK)))
            ret = AVERROR(ENOMEM);
        else
            ret = heatmaps_open(f, s);
#else
        av_log(f->log_ctx, AV_LOG_ERROR, "Feature 'cambi': could not open heatmaps_path "
               "%s: heatmaps need pwrite(), which this system lacks.\n", s->heatmaps_path);
        ret = AVERROR(ENOSYS);
#endif
        if (ret < 0) {
            ff_vmaf_cambi_close(f);
            return ret;
        }
    }
    return 0;
}

int ff_vmaf_cambi_topk_count(const CambiContext *s, int n)
{
    /* as ff_vmaf_cambi_topk_mean() takes it */
    int k = (int)(s->eff_topk * n);
    return k < 1 ? 1 : k > n ? n : k;
}

double ff_vmaf_cambi_pool(const CambiContext *s, const CambiSize *sz, const double *means)
{
    double score = 0.0;

    for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES; scale++)
        score += means[scale] * scale_weights[scale];
    score /= (double)(sz->window * sz->window);
    return FFMIN(score, s->max_val);
}

/* CAMBI of a picture into *score; with heatmap_frame >= 0, also that
 * frame's heatmaps. */
static int score_picture(const CambiContext *s, const CambiSize *sz,
                         const FFVmafPicture *pic, int64_t heatmap_frame,
                         double *score)
{
    FFVmafCambiParams params = s->params;
    int w = sz->w, h = sz->h;
    double means[FF_VMAF_CAMBI_SCALES];
    ScoreBuf b;

    score_buf_layout(sz, s->buf, &b);
    params.window = sz->window;
    /* The tables from where the context is now, not where init found it:
     * the engine moves the context into a GPU twin's (which may decline,
     * or fail and hand the frames back to this code). */
    params.active = s->active;
    params.recip  = s->recip;

    /* Encodes below 10 bits are dithered: average that out. */
    ff_vmaf_cambi_preprocess(&s->dsp, b.img, w, w, h, pic->data[0],
                             pic->linesize[0], pic->bpc, sz->xmap, sz->ymap,
                             s->bitdepth < 10);
    /* The mask is taken at full resolution, before any filtering. */
    ff_vmaf_cambi_spatial_mask(&s->dsp, b.mask, w, b.img, w, w, h,
                               sz->mask_threshold, b.line);

    /* With the speed-up, scale 0 is the first decimation. */
    for (int scale = 0; scale < FF_VMAF_CAMBI_SCALES + sz->high_res; scale++) {
        if (scale) {
            ff_vmaf_cambi_decimate(&s->dsp, b.img, sz->w, b.mask, sz->w, w, h);
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        if (scale < sz->high_res)
            continue;
        ff_vmaf_cambi_mode_filter(&s->dsp, b.img, sz->w, w, h, b.line);
        ff_vmaf_cambi_c_values(&s->dsp, b.c, b.img, sz->w, b.mask, sz->w, w, h,
                               &params, b.c_tmp, b.topk);
#if HEATMAPS
        /* before the pooling, which may reorder c */
        if (heatmap_frame >= 0) {
            int ret = heatmap_write(s, scale - sz->high_res, heatmap_frame, b.c,
                                    b.mask, sz->w, w, h);
            if (ret < 0)
                return ret;
        }
#endif
        means[scale - sz->high_res] =
            ff_vmaf_cambi_topk_mean(b.c, w, h, b.mask, sz->w, s->eff_topk,
                                    b.topk, b.topk_tmp);
    }
    *score = ff_vmaf_cambi_pool(s, sz, means);
    return 0;
}

double ff_vmaf_cambi_score(const CambiContext *s, const CambiSize *sz,
                           const FFVmafPicture *pic)
{
    double score;
    score_picture(s, sz, pic, -1, &score);
    return score;
}

int ff_vmaf_cambi_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                        unsigned index, double dist, double src)
{
    const CambiContext *s = f->priv;
    int ret = ff_vmaf_feature_write(f, fc, CAMBI_NAME, index, dist);

    if (ret >= 0 && s->full_ref) {
        ret = ff_vmaf_feature_write(f, fc, "cambi_source", index, src);
        if (ret >= 0)
            ret = ff_vmaf_feature_write(f, fc, "cambi_full_reference", index,
                                        FFMIN(FFMAX(dist - src, 0.0), s->max_val));
    }
    return ret;
}

static int cambi_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                         const FFVmafPicture *dis, unsigned index,
                         struct FFVmafFeatureCollector *fc)
{
    const CambiContext *s = f->priv;
    double dist, src = 0.0;
    /* Heatmaps are of the distorted picture only. */
    int ret = score_picture(s, &s->enc, dis, s->heatmaps ? (int64_t)index : -1, &dist);

    if (ret < 0) {
        av_log(f->log_ctx, AV_LOG_ERROR, "Feature 'cambi': writing the heatmaps of "
               "frame %u to %s failed: %s.\n", index, s->heatmaps_path, av_err2str(ret));
        return ret;
    }
    if (s->full_ref)
        src = ff_vmaf_cambi_score(s, &s->src, ref);
    return ff_vmaf_cambi_write(f, fc, index, dist, src);
}

const char *const ff_vmaf_cambi_provides[] = { CAMBI_NAME, NULL };
const char *const ff_vmaf_cambi_plain_outputs[] = {
    "cambi_source", "cambi_full_reference", NULL
};

const FFVmafExtractor ff_vmaf_extractor_cambi = {
    .name      = "cambi",
    .options   = ff_vmaf_cambi_options,
    .priv_size = sizeof(CambiContext),
    .provides  = ff_vmaf_cambi_provides,
    .plain_outputs = ff_vmaf_cambi_plain_outputs,
    .init      = ff_vmaf_cambi_init,
    .extract   = cambi_extract,
    .close     = ff_vmaf_cambi_close,
};
