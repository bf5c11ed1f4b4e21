/*
 * GPU against CPU, value by value: every key of every frame must be the
 * same double with backend GPU as with backend CPU. Runs on the clip pairs
 * found in <testdata-dir> and on generated 1080p and 4K pairs (8 and 10
 * bit, plus an odd size), for several option sets; then once more with a
 * GPU failure simulated mid-stream, which must change nothing.
 *
 * Usage: gpu_parity_test <testdata-dir> [max-frames] [config]
 * config: run only the option sets whose name contains it.
 * Exit status 0 when every case matches; 77 when no GPU answers.
 */

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/engine.h"
#include "libavfilter/vmaf/engine_state.h"
#include "libavfilter/vmaf/feature.h"

#include "clips.h"

typedef struct Config {
    const char *name, *model, *features;
    const char *on_gpu;     ///< features that must run on the GPU, ", "-separated
} Config;

/* Models outside the built-in set are read from <testdata-dir>/../models;
 * "%s" in model stands for that folder. */
static const Config configs[] = {
    { "vmaf+debug", "version=vmaf_v0.6.1",
      "name=adm:debug=true|name=vif:debug=true|name=motion:debug=true|name=psnr" },
    { "neg", "version=vmaf_v0.6.1neg", "" },
    { "options", "", "name=psnr:enable_mse=true:enable_apsnr=true|"
      "name=motion:motion_five_frame_window=true:motion_moving_average=true|"
      "name=adm:adm_csf_mode=2:adm_enhn_gain_limit=1.0:adm_noise_weight=0.02:adm_dlm_weight=0.7:adm_min_val=0.5" },
    { "skips", "", "name=adm:adm_skip_aim=true:adm_skip_scale0=true:debug=true|"
      "name=vif:vif_skip_scale0=true:vif_enhn_gain_limit=1.0:debug=true" },
    { "float", "version=vmaf_float_v0.6.1",
      "name=float_psnr|name=float_ansnr|name=float_moment|name=float_motion:debug=true|"
      "name=float_vif:debug=true|name=float_adm:debug=true" },
    { "float_motion-options", "",
      "name=float_motion:motion_filter_size=3:motion_blend_factor=0.5:motion_blend_offset=2|"
      "name=float_motion:motion_filter_size=1:motion_fps_weight=2:motion_max_val=3|"
      "name=float_motion:motion_force_zero=true" },
    { "ssim", "", "name=float_ssim:enable_lcs=true|name=float_ms_ssim:enable_lcs=true" },
    { "ssim_db", "", "name=float_ssim:enable_db=true:clip_db=true:scale=3:enable_lcs=true|"
      "name=float_ms_ssim:enable_db=true:clip_db=true:enable_lcs=true" },
    { "ssim_scale1", "", "name=float_ssim:scale=1:enable_db=true|name=float_ms_ssim:enable_db=true" },
    { "cambi", "", "name=cambi|name=cambi:full_ref=true:cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17|"
      "name=cambi:enc_width=960:enc_height=540:enc_bitdepth=8:topk=0.05:max_log_contrast=3|"
      "name=cambi:window_size=40:max_log_contrast=5:cambi_topk=0.01:eotf=pq" },
    /* ciede at odd 4:2:0 sizes too: it reads the chroma past libvmaf's size. */
    { "psnr_hvs+ciede", "", "name=psnr_hvs|name=ciede", "psnr_hvs, ciede" },
    { "speed", "", "name=speed_chroma|name=speed_temporal" },
    /* The speed_chroma instances of the vmaf_v1.0.16 models; the _2160 ones
     * prescale (apart: small clips refuse them). */
    { "speed_v1", "", "name=speed_chroma:speed_kernelscale=1.0:speed_nn_floor=0.1:speed_sigma_nn=0.19:"
      "speed_weight_var_mode=5:speed_max_val=45" },
    { "speed_v1_2160", "", "name=speed_chroma:speed_prescale=0.5:speed_prescale_method=bilinear:"
      "speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45" },
    { "speed_options", "", "name=speed_temporal:speed_prescale=0.6:speed_prescale_method=bilinear:"
      "speed_use_ref_diff=true|name=speed_temporal:speed_kernelscale=1.5:speed_nn_floor=0.1|"
      "name=speed_chroma:speed_weight_var_mode=3:speed_prescale=1.3|"
      "name=speed_chroma:speed_prescale=0.8:speed_prescale_method=bicubic:speed_sigma_nn=0.5|"
      "name=speed_temporal:speed_prescale=1.25:speed_prescale_method=lanczos4:speed_kernelscale=0.5" },
    { "3d0h", "path=%s/vmaf_v1.0.16_3d0h.json", "" },
    { "hfr_3d0h", "path=%s/vmaf_v1.0.16_hfr_3d0h.json", "" },
    { "extras", "version=vmaf_v0.6.1", "name=psnr|name=float_ssim|name=float_ms_ssim|name=cambi" },
    { "float_vif_adm_options", "",
      "name=float_vif:debug=true:vif_skip_scale0=true:vif_kernelscale=0.5:vif_enhn_gain_limit=1.0|"
      "name=float_adm:debug=true:adm_skip_scale0=true:adm_bypass_cm=true|"
      "name=float_adm:debug=true:adm_csf_mode=2:adm_enhn_gain_limit=1.0:adm_noise_weight=0.02" },
};
static const char *only;        ///< run only the sets whose name contains this
static char models_dir[4096];

typedef struct Source {
    const ClipPair *clip;   ///< NULL: generated
    int w, h, bpc, frames;
    int over;               ///< generated: some samples above the depth's maximum
    int threads;            ///< the engine's n_threads; 0: 2 (frames scored in parallel)
} Source;

static int nb_passed, nb_failed;
/* Feature frames that ran as captured graphs, and runs long enough to
 * capture some on CUDA (a twin's work repeats every FF_VMAF_GPU_SLOTS frames). */
static unsigned nb_graph_runs, nb_long_cuda_runs;

/* Textured, moving content with a distorted copy: a gradient plus
 * pseudo-random detail, shifted per frame; the copy adds noise. */
static void generate(FFVmafPicture *pic, uint8_t **planes, int w, int h, int bpc,
                     int n, int distorted, int over)
{
    int bytes = bpc > 8 ? 2 : 1, maxv = (1 << bpc) - 1;
    uint32_t seed = 12345u + 977u * n + (distorted ? 55555u : 0);

    for (int p = 0; p < 3; p++) {
        /* Chroma planes rounded up, as FFmpeg's are (ciede reads the last
         * column and row at odd sizes); the picture's size rounded down. */
        int pw = p ? (w + 1) >> 1 : w, ph = p ? (h + 1) >> 1 : h;
        av_freep(&planes[p]);
        planes[p] = av_malloc((size_t)pw * ph * bytes);
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                int xs = x + 3 * n, v;
                uint32_t r = (uint32_t)(xs * 2654435761u) ^ (uint32_t)(y * 40503u);
                v = ((xs * 7 + y * 3) & 255) + (int)((r >> 13) & 31) - 16;
                if (distorted) {
                    seed = seed * 1664525u + 1013904223u;
                    v += (int)(seed >> 28) - 8;
                }
                v = v < 0 ? 0 : v > 255 ? 255 : v;
                v = v << (bpc - 8) | (distorted ? (int)(seed >> 24) & ((1 << (bpc - 8)) - 1) : 0);
                v = v > maxv ? maxv : v;
                /* Out of range, as a raw file read with the wrong format
                 * holds: both backends must score it clamped. */
                if (over && bpc < 16 && (x * 7 + y * 13 + n) % 61 == 0)
                    v = maxv + 1 + ((x + y) & 0xfff);
                if (bytes == 2)
                    ((uint16_t *)planes[p])[(size_t)y * pw + x] = v;
                else
                    planes[p][(size_t)y * pw + x] = v;
            }
        pic->data[p]     = planes[p];
        pic->linesize[p] = (ptrdiff_t)pw * bytes;
        pic->w[p] = p ? w >> 1 : w;
        pic->h[p] = p ? h >> 1 : h;
    }
    pic->bpc = bpc;
}

/* Where a simulated GPU failure strikes. */
enum Failure {
    FAIL_QUEUE,     ///< queueing the frame's work
    FAIL_COLLECT,   ///< reading back its last twin, the others' values written
};

/*
 * The engine over the source. fail_at >= 0: the GPU fails there (where:
 * fail); start_at > 0: the frames before it are scored on the CPU, and the
 * GPU takes over there, mid-stream (ff_vmaf_engine_start_gpu()).
 */
static int run(FFVmafEngine **pe, const char *dir, const Source *src, const Config *c,
               enum FFVmafBackend backend, int64_t fail_at, enum Failure fail, int start_at,
               char *backends, size_t size)
{
    FFVmafGeometry geo = { src->w, src->h, src->bpc, 1, 1 };
    uint8_t *planes[2][3] = { { 0 } };
    FFVmafEngine *e = NULL;
    char path[2][4096];
    int ret;

    if (src->clip) {
        geo.ss_x = geo.ss_y = src->clip->ss;
        snprintf(path[0], sizeof(path[0]), "%s/%s", dir, src->clip->ref);
        snprintf(path[1], sizeof(path[1]), "%s/%s", dir, src->clip->dis);
    }
    char model[8192];

    snprintf(model, sizeof(model), c->model, models_dir);
    if ((ret = ff_vmaf_engine_alloc(&e, NULL)) < 0 ||
        (ret = ff_vmaf_engine_parse_models(e, model)) < 0 ||
        (ret = ff_vmaf_engine_parse_features(e, c->features)) < 0)
        goto end;
    ff_vmaf_engine_set_backend(e, backend, 0);
    e->gpu_fail_at         = fail == FAIL_QUEUE   ? fail_at : -1;
    e->gpu_fail_collect_at = fail == FAIL_COLLECT ? fail_at : -1;
    /* The GPU runs with captured graphs: the runs without them are the
     * engine's default, which every other GPU test and bench runs. */
    ff_vmaf_engine_set_gpu_graphs(e, 1);
    if (start_at > 0)
        ff_vmaf_engine_defer_gpu(e);
    if ((ret = ff_vmaf_engine_configure(e, &geo, src->threads ? src->threads : 2, 1)) < 0)
        goto end;
    ff_vmaf_engine_describe_backends(e, backends, size);
    for (int n = 0; n < src->frames; n++) {
        FFVmafPicture ref, dis;
        if (start_at > 0 && n == start_at) {
            if ((ret = ff_vmaf_engine_start_gpu(e)) < 0)
                goto end;
            /* Not a run on the CPU alone, which would match trivially. */
            if (!ff_vmaf_engine_uses_gpu(e)) {
                ret = AVERROR(ENODEV);
                goto end;
            }
            ff_vmaf_engine_describe_backends(e, backends, size);
        }
        if (src->clip) {
            if ((ret = clip_load_frame(&ref, planes[0], src->clip, path[0], n)) < 0 ||
                (ret = clip_load_frame(&dis, planes[1], src->clip, path[1], n)) < 0)
                goto end;
        } else {
            generate(&ref, planes[0], src->w, src->h, src->bpc, n, 0, src->over);
            generate(&dis, planes[1], src->w, src->h, src->bpc, n, 1, src->over);
        }
        if ((ret = ff_vmaf_engine_push(e, &ref, &dis)) < 0)
            goto end;
    }
    ret = ff_vmaf_engine_flush(e);
end:
    for (int i = 0; i < 2; i++)
        for (int p = 0; p < 3; p++)
            av_freep(&planes[i][p]);
    if (ret < 0)
        ff_vmaf_engine_free(&e);
    *pe = e;
    return ret;
}

/* Every value of a, bit for bit, in b, and the same number of keys. */
static int compare(const FFVmafEngine *a, const FFVmafEngine *b, int frames,
                   long *compared, char *first_diff, size_t size)
{
    const FFVmafFeatureCollector *fa = ff_vmaf_engine_results(a), *fb = ff_vmaf_engine_results(b);
    int diffs = 0;

    if (ff_vmaf_collector_nb_keys(fa) != ff_vmaf_collector_nb_keys(fb)) {
        snprintf(first_diff, size, "%d keys on the CPU, %d with the GPU",
                 ff_vmaf_collector_nb_keys(fa), ff_vmaf_collector_nb_keys(fb));
        return 1;
    }
    for (int k = 0; k < ff_vmaf_collector_nb_keys(fa); k++) {
        const char *key = ff_vmaf_collector_key(fa, k);
        int key_diffs = 0;
        for (int n = 0; n < frames; n++) {
            double va, vb;
            int ha = ff_vmaf_collector_read_at(fa, k, n, &va) >= 0;
            int hb = ff_vmaf_collector_read(fb, key, n, &vb) >= 0;
            if (ha != hb || (ha && memcmp(&va, &vb, sizeof(va)))) {
                if (!diffs)
                    snprintf(first_diff, size, "%s frame %d: CPU %.17g, GPU %.17g",
                             key, n, ha ? va : 0.0 / 0.0, hb ? vb : 0.0 / 0.0);
                /* Every differing key once. */
                if (!key_diffs++)
                    printf("  differs: %s (frame %d: CPU %.17g, GPU %.17g)\n", key, n,
                           ha ? va : 0.0 / 0.0, hb ? vb : 0.0 / 0.0);
                diffs++;
            }
            *compared += ha;
        }
    }
    for (int k = 0; k < ff_vmaf_collector_nb_aggregates(fa); k++) {
        double va, vb = 0;
        const char *key = ff_vmaf_collector_aggregate(fa, k, &va);
        int found = 0;
        for (int j = 0; j < ff_vmaf_collector_nb_aggregates(fb); j++)
            if (!strcmp(ff_vmaf_collector_aggregate(fb, j, &vb), key)) {
                found = 1;
                break;
            }
        if (!found || memcmp(&va, &vb, sizeof(va)))
            diffs++;
        (*compared)++;
    }
    return diffs;
}

/* Whether every feature of names (", "-separated) is in the GPU part of
 * backends (ff_vmaf_engine_describe_backends(): "a, b on the GPU (...);
 * c on the CPU"). */
static int all_on_gpu(const char *backends, const char *names)
{
    const char *end = strstr(backends, " on the GPU (");
    char list[1024];

    if (!names)
        return 1;
    if (!end || end - backends + 3 > (ptrdiff_t)sizeof(list))
        return 0;
    /* ", a, b, c, ": each name then appears as ", name, ". */
    snprintf(list, sizeof(list), ", %.*s, ", (int)(end - backends), backends);
    while (*names) {
        size_t n = strcspn(names, ",");
        char item[128];

        snprintf(item, sizeof(item), ", %.*s, ", (int)n, names);
        if (!strstr(list, item))
            return 0;
        names += n;
        names += strspn(names, ", ");
    }
    return 1;
}

static void check(const char *dir, const Source *src, const char *label, const Config *c,
                  int64_t fail_at, enum Failure fail, int start_at)
{
    char mode[64] = "";
    FFVmafEngine *cpu = NULL, *gpu = NULL;
    char b_cpu[1024] = "", b_gpu[1024] = "", diff[512] = "";
    long compared = 0;
    int ret, diffs;

    if (only && !strstr(c->name, only))
        return;
    if (!strncmp(c->model, "path=%s/", 8)) {
        char path[8192];
        FILE *f;
        snprintf(path, sizeof(path), c->model + 5, models_dir);
        if (!(f = fopen(path, "r"))) {
            printf("SKIP %s [%s]: no %s\n", label, c->name, path);
            return;
        }
        fclose(f);
    }
    if (fail_at >= 0)
        snprintf(mode, sizeof(mode), " (GPU failure simulated at frame %"PRId64"%s)", fail_at,
                 fail == FAIL_COLLECT ? ", in a read-back" : "");
    else if (start_at > 0)
        snprintf(mode, sizeof(mode), " GPU from frame %d", start_at);
    if ((ret = run(&cpu, dir, src, c, FF_VMAF_BACKEND_CPU, -1, fail, 0, b_cpu, sizeof(b_cpu))) < 0) {
        /* cambi and speed_chroma refuse small frames: nothing to compare. */
        printf("SKIP %s [%s]: the CPU refuses it too: %s\n", label, c->name, av_err2str(ret));
        goto end;
    }
    if (/* A failure is only survived, and the GPU only started late, with
         * backend=auto. */
        (ret = run(&gpu, dir, src, c,
                   fail_at >= 0 || start_at > 0 ? FF_VMAF_BACKEND_AUTO : FF_VMAF_BACKEND_GPU,
                   fail_at, fail, start_at, b_gpu, sizeof(b_gpu))) < 0) {
        printf("FAIL %s [%s]%s: %s\n", label, c->name, mode, av_err2str(ret));
        nb_failed++;
        goto end;
    }
    diffs = compare(cpu, gpu, src->frames, &compared, diff, sizeof(diff));
    /* Where the GPU ran: not failed, and started before the last frame. */
    if (fail_at < 0 && start_at < src->frames && !all_on_gpu(b_gpu, c->on_gpu)) {
        printf("FAIL %s [%s]%s: %s must run on the GPU; %s\n", label, c->name, mode,
               c->on_gpu, b_gpu);
        nb_failed++;
    } else if (diffs || !compared) {
        printf("FAIL %s [%s]%s: %d of %ld values differ; first: %s\n", label, c->name,
               mode, diffs, compared, diff);
        nb_failed++;
    } else {
        unsigned graphs, direct;
        ff_vmaf_engine_gpu_graph_runs(gpu, &graphs, &direct);
        printf("PASS %s [%s]%s: %ld values bit-identical, %u of %u feature frames as graphs; %s\n",
               label, c->name, mode,
               compared, graphs, graphs + direct, b_gpu);
        nb_graph_runs += graphs;
        nb_long_cuda_runs += src->frames >= 24 && fail_at < 0 && strstr(b_gpu, "CUDA");
        nb_passed++;
    }
end:
    ff_vmaf_engine_free(&cpu);
    ff_vmaf_engine_free(&gpu);
}

int main(int argc, char **argv)
{
    static const Source generated[] = {
        { NULL, 1920, 1080,  8, 4 },
        { NULL, 1920, 1080, 10, 4 },
        { NULL, 3840, 2160,  8, 3 },
        { NULL, 3840, 2160, 10, 3 },
        { NULL, 1917, 1079,  8, 3 },
        { NULL, 1280,  720, 12, 3 },
        { NULL,  640,  360, 16, 3 },
        { NULL,  640,  360, 10, 3, 1 },
        { NULL,  640,  360, 12, 3, 1, 1 },
        /* Long enough for the captured graphs to run most frames. */
        { NULL,  640,  360,  8, 30 },
    };
    int max_frames = argc > 2 ? atoi(argv[2]) : 48;
    int nb_configs = (int)(sizeof(configs) / sizeof(configs[0]));
    FFVmafEngine *e = NULL;
    FFVmafGeometry geo = { 64, 64, 8, 1, 1 };

    if (argc < 2) {
        fprintf(stderr, "usage: %s <testdata-dir> [max-frames]\n", argv[0]);
        return 2;
    }
    only = argc > 3 ? argv[3] : NULL;
    snprintf(models_dir, sizeof(models_dir), "%s/../models", argv[1]);
    av_log_set_level(AV_LOG_WARNING);
    ff_vmaf_engine_alloc(&e, NULL);
    ff_vmaf_engine_parse_features(e, "name=psnr");
    ff_vmaf_engine_set_backend(e, FF_VMAF_BACKEND_GPU, 0);
    if (ff_vmaf_engine_configure(e, &geo, 1, 1) < 0) {
        printf("No GPU answers: nothing to compare.\n");
        ff_vmaf_engine_free(&e);
        return 77;
    }
    {
        char b[1024];
        ff_vmaf_engine_describe_backends(e, b, sizeof(b));
        printf("GPU: %s\n", b);
    }
    ff_vmaf_engine_free(&e);

    for (int i = 0; i < nb_clip_pairs; i++) {
        const ClipPair *p = &clip_pairs[i];
        Source src = { p, p->w, p->h, p->bpc, p->frames < max_frames ? p->frames : max_frames };
        char path[4096];
        FILE *f;
        snprintf(path, sizeof(path), "%s/%s", argv[1], p->ref);
        if (!(f = fopen(path, "rb")))
            continue;
        fclose(f);
        for (int c = 0; c < nb_configs; c++)
            check(argv[1], &src, p->name, &configs[c], -1, FAIL_QUEUE, 0);
        /* The GPU started mid-stream, after a third of the frames. */
        for (int c = 0; c < nb_configs; c++)
            check(argv[1], &src, p->name, &configs[c], -1, FAIL_QUEUE, FFMAX(src.frames / 3, 1));
    }
    for (int i = 0; i < (int)(sizeof(generated) / sizeof(generated[0])); i++) {
        char label[96];
        snprintf(label, sizeof(label), "generated_%dx%d_%df_%dbit%s%s", generated[i].w,
                 generated[i].h, generated[i].frames, generated[i].bpc,
                 generated[i].over ? "_out_of_range" : "",
                 generated[i].threads == 1 ? "_1thread" : "");
        for (int c = 0; c < nb_configs; c++)
            check(argv[1], &generated[i], label, &configs[c], -1, FAIL_QUEUE, 0);
        /* A GPU failure at frame 1 must leave every value unchanged, be it
         * in queueing the frame or in reading back one of its twins. */
        for (int c = 0; c < nb_configs; c++)
            if (!c || only) {
                check(argv[1], &generated[i], label, &configs[c], 1, FAIL_QUEUE, 0);
                check(argv[1], &generated[i], label, &configs[c], 1, FAIL_COLLECT, 0);
            }
        /* So must a GPU started mid-stream (up to 1080p: the time). */
        for (int c = 0; c < nb_configs && generated[i].w * generated[i].h <= 1920 * 1080; c++)
            check(argv[1], &generated[i], label, &configs[c], -1, FAIL_QUEUE,
                  FFMAX(generated[i].frames / 3, 1));
    }
    if (nb_long_cuda_runs && !nb_graph_runs) {
        printf("FAIL graphs: %u runs of 24 frames or more on CUDA, and no feature frame ran as a "
               "captured graph\n", nb_long_cuda_runs);
        nb_failed++;
    }
    printf("%d passed, %d failed\n", nb_passed, nb_failed);
    return nb_failed ? 1 : 0;
}
