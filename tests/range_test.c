/*
 * Pictures at and beyond the limits of their bit depth, and numbers that
 * are not numbers.
 *
 * - Out of range: 10- and 12-bit pairs holding samples above the depth's
 *   maximum (which no decoder writes, but a raw file or a mislabelled
 *   format can hold) score exactly as the same pairs clamped to that
 *   maximum: every value of every feature and model, on every frame, and
 *   all of them finite.
 * - Extremes: 8-, 10-, 12- and 16-bit pairs of black, white and noise that
 *   jumps between the two give finite values everywhere.
 * - A model whose numbers overflow: the engine warns, naming the model,
 *   and a pooled value that is not finite is named too.
 *
 * tests/sanitizers.sh also builds it against the engine compiled with
 * AddressSanitizer and UndefinedBehaviorSanitizer, where any overflow or
 * invalid shift on these pictures aborts the run.
 *
 * Usage: range_test <directory for temporary files> [gpu]
 * gpu scores the out-of-range pairs with backend=gpu (a GPU machine).
 * The last line printed is "N passed, N failed".
 */

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/engine.h"

#define NB_FRAMES 4

static int nb_passed, nb_failed;
/* Where the out-of-range pairs are scored; their clamped twins always run
 * on the CPU, so that on a GPU machine the GPU is held to the CPU's bits. */
static enum FFVmafBackend over_backend = FF_VMAF_BACKEND_CPU;

static void check(int ok, const char *fmt, ...)
{
    va_list vl;
    va_start(vl, fmt);
    printf("%s ", ok ? "PASS" : "FAIL");
    vprintf(fmt, vl);
    printf("\n");
    va_end(vl);
    if (ok)
        nb_passed++;
    else
        nb_failed++;
}

/* Warnings and errors of the engine, kept for the checks to search. */
static char log_text[16384];

static void log_callback(void *avcl, int level, const char *fmt, va_list vl)
{
    char line[1024];
    if (level > AV_LOG_WARNING)
        return;
    vsnprintf(line, sizeof(line), fmt, vl);
    av_strlcat(log_text, line, sizeof(log_text));
}

static uint32_t rng_state;

static uint32_t rng(void)
{
    /* xorshift32: the same pictures on every machine. */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

typedef struct TestPicture {
    FFVmafPicture pic;
    uint8_t *planes[3];
} TestPicture;

enum Content {
    CONTENT_NATURAL,    ///< a gradient with noise, as a camera would give
    CONTENT_EXTREMES,   ///< black, white and noise between the two
};

/*
 * Frame n of input `which` (0: reference). Chroma planes have the
 * rounded-up size FFmpeg allocates, rows a few samples of padding. over:
 * every eighth sample and a block in the middle of each plane hold values
 * above the depth's maximum (up to 65535); with clamp they are clamped.
 */
static int make_picture(TestPicture *t, const FFVmafGeometry *geo, enum Content content,
                        int which, int n, int over, int clamp)
{
    int bytes = geo->bpc > 8 ? 2 : 1;
    unsigned max = (1u << geo->bpc) - 1;

    memset(t, 0, sizeof(*t));
    ff_vmaf_picture_set_geometry(&t->pic, geo);
    rng_state = 0x9e3779b9u * (n + 1) + 7919 * which + 1;
    for (int p = 0; p < 3; p++) {
        int w = p ? -((-geo->width)  >> geo->ss_x) : geo->width;
        int h = p ? -((-geo->height) >> geo->ss_y) : geo->height;
        ptrdiff_t linesize = (ptrdiff_t)(w + 5) * bytes;
        if (!(t->planes[p] = av_malloc(linesize * h)))
            return AVERROR(ENOMEM);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w + 5; x++) {
                unsigned v;
                if (content == CONTENT_EXTREMES) {
                    /* Quadrants of black, white and full-range noise. */
                    int q = (x * 2 >= w) + 2 * (y * 2 >= h);
                    v = q == 0 ? 0 : q == 1 ? max : (rng() & 1) ? max : rng() % (max + 1);
                    if (which && q == 3)
                        v = max - v;
                } else {
                    unsigned base = (unsigned)((x * 5 + y * 3 + n * 7) * (max + 1) / (4 * (w + h) + 64));
                    int noise = (int)(rng() % 17) - 8;
                    v = (unsigned)av_clip((int)base + noise * (which ? 3 : 1), 0, max);
                }
                if (over && (x >= w || !(rng() & 7) ||
                             (x >= w / 3 && x < w / 2 && y >= h / 3 && y < h / 2)))
                    v = max + 1 + rng() % (65535 - max);
                if (clamp && v > max)
                    v = max;
                if (bytes == 1)
                    t->planes[p][y * linesize + x] = v;
                else
                    ((uint16_t *)(t->planes[p] + y * linesize))[x] = v;
            }
        }
        t->pic.data[p]     = t->planes[p];
        t->pic.linesize[p] = linesize;
    }
    return 0;
}

static void free_picture(TestPicture *t)
{
    for (int p = 0; p < 3; p++)
        av_freep(&t->planes[p]);
}

static const char all_features[] =
    "name=psnr|name=motion|name=vif|name=adm|name=cambi|name=float_ssim|name=float_ms_ssim|"
    "name=ciede|name=float_psnr|name=float_ansnr|name=float_moment|name=float_motion|"
    "name=float_vif|name=float_adm|name=speed_chroma|name=speed_temporal";
/* psnr_hvs stops at 12 bits, as libvmaf's does. */
static const char psnr_hvs[] = "|name=psnr_hvs";

static const char all_models[] =
    "version=vmaf_v0.6.1:name=vmaf|version=vmaf_b_v0.6.3:name=vmaf_b|"
    "version=vmaf_float_v0.6.1:name=vmaf_float|version=vmaf_v1.0.16_3d0h:name=vmaf_v1";

/* Score NB_FRAMES pairs; *pe is left for the caller to read and free. */
static int run(FFVmafEngine **pe, const FFVmafGeometry *geo, const char *models,
               const char *features, enum Content content, int over, int clamp, int threads)
{
    int ret;

    if ((ret = ff_vmaf_engine_alloc(pe, NULL)) < 0)
        return ret;
    ff_vmaf_engine_set_backend(*pe, over && !clamp ? over_backend : FF_VMAF_BACKEND_CPU, 0);
    if ((ret = ff_vmaf_engine_parse_models(*pe, models)) < 0 ||
        (ret = ff_vmaf_engine_parse_features(*pe, features)) < 0 ||
        (ret = ff_vmaf_engine_configure(*pe, geo, threads, 1)) < 0)
        return ret;
    for (int n = 0; n < NB_FRAMES; n++) {
        TestPicture ref, dis;
        if ((ret = make_picture(&ref, geo, content, 0, n, over, clamp)) >= 0 &&
            (ret = make_picture(&dis, geo, content, 1, n, over, clamp)) >= 0)
            ret = ff_vmaf_engine_push(*pe, &ref.pic, &dis.pic);
        free_picture(&ref);
        free_picture(&dis);
        if (ret < 0)
            return ret;
    }
    return ff_vmaf_engine_flush(*pe);
}

/* Values that are not finite; the first is described in what. */
static int count_nonfinite(const FFVmafEngine *e, char *what, size_t size)
{
    const FFVmafFeatureCollector *fc = ff_vmaf_engine_results(e);
    int bad = 0;
    *what = 0;
    for (int k = 0; k < ff_vmaf_collector_nb_keys(fc); k++)
        for (unsigned i = 0; i < NB_FRAMES; i++) {
            double v;
            if (ff_vmaf_collector_read_at(fc, k, i, &v) >= 0 && !isfinite(v) && !bad++)
                snprintf(what, size, "%s of frame %u is %f", ff_vmaf_collector_key(fc, k), i, v);
        }
    return bad;
}

/* Keys and values of a and b that differ (as bits); the first in what. */
static int count_differences(const FFVmafEngine *a, const FFVmafEngine *b, char *what, size_t size)
{
    const FFVmafFeatureCollector *fa = ff_vmaf_engine_results(a), *fb = ff_vmaf_engine_results(b);
    int diff = 0;
    *what = 0;

    if (ff_vmaf_collector_nb_keys(fa) != ff_vmaf_collector_nb_keys(fb)) {
        snprintf(what, size, "%d keys against %d", ff_vmaf_collector_nb_keys(fa),
                 ff_vmaf_collector_nb_keys(fb));
        return 1;
    }
    for (int k = 0; k < ff_vmaf_collector_nb_keys(fa); k++) {
        const char *key = ff_vmaf_collector_key(fa, k);
        if (strcmp(key, ff_vmaf_collector_key(fb, k))) {
            if (!diff++)
                snprintf(what, size, "key %d is %s against %s", k, key, ff_vmaf_collector_key(fb, k));
            continue;
        }
        for (unsigned i = 0; i < NB_FRAMES; i++) {
            double va, vb;
            int ha = ff_vmaf_collector_read_at(fa, k, i, &va) >= 0;
            int hb = ff_vmaf_collector_read_at(fb, k, i, &vb) >= 0;
            if (ha != hb || (ha && memcmp(&va, &vb, sizeof(va))))
                if (!diff++)
                    snprintf(what, size, "%s of frame %u: %.17g against %.17g", key, i,
                             ha ? va : NAN, hb ? vb : NAN);
        }
    }
    for (int i = 0; i < ff_vmaf_collector_nb_aggregates(fa); i++) {
        double va, vb = NAN;
        const char *key = ff_vmaf_collector_aggregate(fa, i, &va);
        for (int j = 0; j < ff_vmaf_collector_nb_aggregates(fb); j++) {
            double v;
            if (!strcmp(ff_vmaf_collector_aggregate(fb, j, &v), key))
                vb = v;
        }
        if (memcmp(&va, &vb, sizeof(va)) && !diff++)
            snprintf(what, size, "aggregate %s: %.17g against %.17g", key, va, vb);
    }
    return diff;
}

static const char *const ss_names[2][2] = { { "4:4:4", "4:4:0" }, { "4:2:2", "4:2:0" } };

/*
 * The range check alone: one sample above the maximum, anywhere in any
 * plane (the rounded-up chroma's last column included), is found, at every
 * width around the check's blocks of 4 and 16 samples; none is found in an
 * in-range picture whose row padding holds larger values.
 */
static void test_range_check(int bpc)
{
    int missed = 0, false_alarms = 0;
    char first[128] = "";

    for (int w = 1; w <= 40; w++) {
        for (int ss = 0; ss < 2; ss++) {
            FFVmafGeometry geo = { w, 3, bpc, ss, ss };
            TestPicture t;
            int cw = -((-w) >> ss), ch = -((-3) >> ss);
            if (make_picture(&t, &geo, CONTENT_NATURAL, 0, 0, 0, 0) < 0)
                break;
            for (int p = 0; p < 3; p++)
                for (int y = 0; y < (p ? ch : 3); y++)
                    ((uint16_t *)(t.planes[p] + y * t.pic.linesize[p]))[p ? cw : w] = 0xFFFF;
            if (ff_vmaf_picture_out_of_range(&t.pic, &geo) && !false_alarms++)
                snprintf(first, sizeof(first), "an in-range %dx3 picture", w);
            for (int p = 0; p < 3; p++)
                for (int y = 0; y < (p ? ch : 3); y++)
                    for (int x = 0; x < (p ? cw : w); x++) {
                        uint16_t *s = (uint16_t *)(t.planes[p] + y * t.pic.linesize[p]) + x;
                        uint16_t keep = *s;
                        *s = (1 << bpc) + x;
                        if (!ff_vmaf_picture_out_of_range(&t.pic, &geo) && !missed++)
                            snprintf(first, sizeof(first), "plane %d (%d, %d) of a %dx3 picture",
                                     p, x, y, w);
                        *s = keep;
                    }
            free_picture(&t);
        }
    }
    check(!missed && !false_alarms, "%d-bit range check: every sample above %d found, none in "
          "row padding%s%s", bpc, (1 << bpc) - 1, first[0] ? ": first wrong at " : "", first);
}

/* A pair with samples above the maximum scores as the clamped pair. */
static void test_out_of_range(int bpc, int ss_x, int ss_y, int w, int h, int threads)
{
    FFVmafGeometry geo = { w, h, bpc, ss_x, ss_y };
    FFVmafEngine *over = NULL, *clamped = NULL;
    char what[512] = "", name[128], features[1024];
    int ret;

    snprintf(features, sizeof(features), "%s%s", all_features, psnr_hvs);
    snprintf(name, sizeof(name), "%d-bit %s %dx%d%s%s with samples above %d", bpc,
             ss_names[ss_x][ss_y], w, h, threads > 1 ? " (2 threads)" : "",
             over_backend == FF_VMAF_BACKEND_GPU ? " on the GPU" : "", (1 << bpc) - 1);
    log_text[0] = 0;
    if ((ret = run(&over, &geo, all_models, features, CONTENT_NATURAL, 1, 0, threads)) < 0 ||
        (ret = run(&clamped, &geo, all_models, features, CONTENT_NATURAL, 1, 1, threads)) < 0) {
        check(0, "%s: engine error %s: %s", name, av_err2str(ret), log_text);
    } else {
        int diff = count_differences(over, clamped, what, sizeof(what));
        check(!diff, "%s scores as the clamped pair%s%s", name, diff ? ": " : "", what);
        diff = count_nonfinite(over, what, sizeof(what));
        check(!diff, "%s: every value finite%s%s", name, diff ? ": " : "", what);
        check(strstr(log_text, "clamped") != NULL,
              "%s: a warning says the samples are clamped", name);
    }
    ff_vmaf_engine_free(&over);
    ff_vmaf_engine_free(&clamped);
}

/*
 * Frames scored on two threads are the engine's copies of the pushed
 * pictures: the same values as on one thread, which reads the caller's.
 * At odd 4:2:0 sizes ciede reads the rounded-up chroma's last row, which the
 * copy must hold too.
 */
static void test_copied_frames(int bpc, int ss_x, int ss_y, int w, int h)
{
    FFVmafGeometry geo = { w, h, bpc, ss_x, ss_y };
    FFVmafEngine *one = NULL, *two = NULL;
    char what[512] = "", features[1024];
    int ret, diff;

    snprintf(features, sizeof(features), "%s%s", all_features, bpc <= 12 ? psnr_hvs : "");
    log_text[0] = 0;
    if ((ret = run(&one, &geo, all_models, features, CONTENT_NATURAL, 0, 0, 1)) < 0 ||
        (ret = run(&two, &geo, all_models, features, CONTENT_NATURAL, 0, 0, 2)) < 0) {
        check(0, "%d-bit %s %dx%d on 2 threads: engine error %s: %s", bpc, ss_names[ss_x][ss_y],
              w, h, av_err2str(ret), log_text);
    } else {
        diff = count_differences(one, two, what, sizeof(what));
        check(!diff, "%d-bit %s %dx%d: the same values on 1 and 2 threads (copied frames)%s%s",
              bpc, ss_names[ss_x][ss_y], w, h, diff ? ": " : "", what);
    }
    ff_vmaf_engine_free(&one);
    ff_vmaf_engine_free(&two);
}

/* Black, white and full-swing noise: every value finite. */
static void test_extremes(int bpc, int ss_x, int ss_y, int w, int h)
{
    FFVmafGeometry geo = { w, h, bpc, ss_x, ss_y };
    FFVmafEngine *e = NULL;
    char what[512] = "";
    char features[1024];
    int ret, bad;

    snprintf(features, sizeof(features), "%s%s", all_features, bpc <= 12 ? psnr_hvs : "");
    log_text[0] = 0;
    if ((ret = run(&e, &geo, all_models, features, CONTENT_EXTREMES, 0, 0, 1)) < 0) {
        check(0, "%d-bit %s %dx%d extremes: engine error %s: %s", bpc, ss_names[ss_x][ss_y],
              w, h, av_err2str(ret), log_text);
    } else {
        bad = count_nonfinite(e, what, sizeof(what));
        check(!bad, "%d-bit %s %dx%d extremes: every value finite%s%s", bpc,
              ss_names[ss_x][ss_y], w, h, bad ? ": " : "", what);
        /* (ciede's warning about odd sizes is expected.) */
        bad = strstr(log_text, "not a finite number") || strstr(log_text, "clamped");
        check(!bad, "%d-bit %s %dx%d extremes: no warning of values that are not numbers or "
              "samples out of range%s%s", bpc, ss_names[ss_x][ss_y], w, h, bad ? ": " : "",
              bad ? log_text : "");
    }
    ff_vmaf_engine_free(&e);
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f)
        ok &= !fclose(f);
    return ok ? 0 : AVERROR(EIO);
}

/*
 * One support vector over integer_motion2. Its output slope is the smallest
 * double, so the SVM's output (about 2) becomes a score of infinity; the
 * score transform -y + y^2 then gives inf - inf, not a number. The second
 * model's slope leaves a finite score near 1.3e308 instead, which only the
 * mean of two frames overflows.
 */
#define ABSURD_MODEL(slope) \
    "{\n" \
    "  \"model_dict\": {\n" \
    "    \"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.04\\nnr_class 2\\ntotal_sv 1\\n" \
    "rho -1.0\\nSV\\n1 1:0.5 \\n\",\n" \
    "    \"model_type\": \"LIBSVMNUSVR\",\n" \
    "    \"feature_names\": [\"VMAF_integer_feature_motion2_score\"],\n" \
    "    \"feature_dict\": {\"VMAF_integer_feature\": [\"motion2\"]},\n" \
    "    \"norm_type\": \"linear_rescale\",\n" \
    "    \"slopes\": [" slope ", 1.0],\n" \
    "    \"intercepts\": [0.0, 0.0],\n" \
    "    \"score_clip\": [0.0, 100.0],\n" \
    "    \"score_transform\": {\"p0\": 0.0, \"p1\": -1.0, \"p2\": 1.0, \"out_gte_in\": \"false\"}\n" \
    "  }\n" \
    "}\n"

static void test_absurd_models(const char *dir)
{
    FFVmafGeometry geo = { 64, 48, 8, 1, 1 };
    FFVmafEngine *e = NULL;
    char path[2][1024], models[2200], what[512] = "";
    double v;
    int ret, ok;

    snprintf(path[0], sizeof(path[0]), "%s/range_test_nan_model.json", dir);
    snprintf(path[1], sizeof(path[1]), "%s/range_test_huge_model.json", dir);
    if (write_file(path[0], ABSURD_MODEL("5e-324")) < 0 ||
        write_file(path[1], ABSURD_MODEL("1.5e-308")) < 0) {
        check(0, "absurd models: cannot write %s", path[0]);
        return;
    }

    /* Scores that are not a number: a warning names the model. */
    snprintf(models, sizeof(models), "path=%s:name=nan_score:enable_transform=true", path[0]);
    log_text[0] = 0;
    if ((ret = run(&e, &geo, models, "", CONTENT_NATURAL, 0, 0, 1)) < 0) {
        check(0, "NaN model: engine error %s", av_err2str(ret));
    } else {
        ret = ff_vmaf_engine_pool(e, "nan_score", FF_VMAF_POOL_MEAN, &v);
        check(ret >= 0 && isnan(v), "NaN model: its frames score NaN (got %f)", v);
        ok = strstr(log_text, "Model 'nan_score': nan_score of frame 0 is NaN, "
                              "not a finite number") != NULL;
        check(ok, "NaN model: a warning names the model and says its score is not a number%s%s",
              ok ? "" : ": ", ok ? "" : log_text);
    }
    ff_vmaf_engine_free(&e);

    /* Finite frame scores whose mean overflows: the pooled value is named. */
    snprintf(models, sizeof(models), "path=%s:name=huge_score:disable_clip=true", path[1]);
    log_text[0] = 0;
    if ((ret = run(&e, &geo, models, "", CONTENT_NATURAL, 0, 0, 1)) < 0) {
        check(0, "overflowing model: engine error %s", av_err2str(ret));
    } else {
        check(!count_nonfinite(e, what, sizeof(what)) && !log_text[0],
              "overflowing model: frame scores finite, no warning%s%s%s%s",
              what[0] ? ": " : "", what, log_text[0] ? ": " : "", log_text);
        ret = ff_vmaf_engine_pool(e, "huge_score", FF_VMAF_POOL_MEAN, &v);
        check(ret >= 0 && isinf(v), "overflowing model: the mean overflows (got %f)", v);
        ok = strstr(log_text, "The pooled mean of 'huge_score' is +inf, not a finite number") != NULL;
        check(ok, "overflowing model: a warning names the pooled key%s%s",
              ok ? "" : ": ", ok ? "" : log_text);
    }
    ff_vmaf_engine_free(&e);
    /* The models stay for tests/range.sh's run of the filter. */
}

int main(int argc, char **argv)
{
    static const int depths[] = { 8, 10, 12, 16 };

    if (argc < 2) {
        fprintf(stderr, "usage: %s <directory for temporary files> [gpu]\n", argv[0]);
        return 2;
    }
    if (argc > 2 && !strcmp(argv[2], "gpu"))
        over_backend = FF_VMAF_BACKEND_GPU;
    av_log_set_level(AV_LOG_WARNING);
    av_log_set_callback(log_callback);

    test_range_check(10);
    test_range_check(12);
    /* Odd sizes: FFmpeg's chroma planes are rounded up and ciede reads them. */
    test_out_of_range(10, 1, 1, 221, 181, 1);
    test_out_of_range(12, 1, 1, 221, 181, 1);
    test_out_of_range(10, 0, 0, 224, 176, 2);
    test_out_of_range(12, 1, 0, 219, 177, 1);
    test_copied_frames(8, 1, 1, 221, 181);
    test_copied_frames(10, 1, 1, 219, 177);
    for (int i = 0; i < 4; i++) {
        test_extremes(depths[i], 1, 1, 221, 181);
        test_extremes(depths[i], 0, 0, 224, 176);
    }
    test_absurd_models(argv[1]);

    printf("%d passed, %d failed\n", nb_passed, nb_failed);
    return nb_failed ? 1 : 0;
}
