/*
 * Compare the engine with libvmaf 3.2.0's own output, value by value.
 *
 * Each case runs the engine over a clip pair from the test data with the
 * options libvmaf was run with, then reads libvmaf's full-precision JSON
 * (%.17g) and checks every value whose key matches the case's key prefixes:
 * present in our results and equal as a double (integer features, PSNR,
 * VMAF) or within the case's tolerance (float features). A case whose clip
 * or reference file is absent is skipped, never passed.
 *
 * float_adm divides by the x86 reciprocal estimate (RCPSS) refined once, as
 * libvmaf does, and that estimate is the CPU vendor's: the oracle ran on an
 * AMD EPYC (Zen), and Intel's estimates differ. On an AMD CPU the values
 * that depend on it are compared bit for bit like the rest; on any other
 * CPU (and without SSE, where the engine divides) they can only be libvmaf's
 * on that CPU, and are compared to within RCP_REL_TOLERANCE of the oracle's,
 * counted apart in the case's line.
 *
 * Usage: vmaf_reference_test <testdata-dir> <fullprecision-dir> [filter [threads]]
 * The last line printed is "N passed, N failed, N skipped".
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/engine.h"
#include "libavfilter/vmaf/feature.h"
#include "libavfilter/vmaf/features/float_dsp.h"
#include "libavfilter/vmaf/json.h"

#include "clips.h"

typedef struct Run {
    const char *what;       ///< reference file: <pair>__<what>.json
    const char *model;      ///< model option ("" for none)
    const char *features;   ///< feature option
    int n_subsample;
    /** '|'-separated key prefixes (output names) to compare; "" for all. */
    const char *keys;
    double tolerance;       ///< 0: bit-exact
    const char *only_pair;  ///< NULL: every pair with a reference file
    /** '|'-separated key prefixes whose values depend on the reciprocal
     * estimate (float_adm); NULL: none. */
    const char *rcp_keys;
} Run;

/* Relative bound on the values of rcp_keys where this CPU's reciprocal
 * estimate is not the oracle's. The largest difference the 12 pairs show
 * on an Intel Xeon is 1.26e-7 (adm_scale3, two float ulps); a wrong ADM is
 * off by far more. */
#define RCP_REL_TOLERANCE 1e-6

static const Run runs[] = {
    { "vmaf_v0.6.1__fullprec", "", "name=psnr", 1, "psnr_", 0 },
    { "vmaf_v0.6.1__fullprec__scalarC", "", "name=psnr", 1, "psnr_", 0 },
    { "opt_psnr_apsnr__fullprec", "", "name=psnr:enable_apsnr=true", 1, "psnr_|apsnr_", 0 },
    { "opt_psnr_min_sse0.5__fullprec", "", "name=psnr:min_sse=0.5", 1, "psnr_", 0 },
    { "opt_psnr_mse__fullprec", "", "name=psnr:enable_mse=true", 1, "psnr_|mse_", 0 },
    { "opt_psnr_no_chroma__fullprec", "", "name=psnr:enable_chroma=false", 1, "psnr_", 0 },
    { "opt_psnr_reduced_hbd_peak__fullprec", "", "name=psnr:reduced_hbd_peak=true", 1, "psnr_", 0 },
    { "vmaf_v0.6.1__fullprec", "", "name=motion:debug=true", 1,
      "integer_motion|VMAF_integer_feature_motion", 0 },
    { "vmaf_v0.6.1__fullprec", "", "name=vif:debug=true", 1,
      "integer_vif|VMAF_integer_feature_vif", 0 },
    { "vmaf_v0.6.1__fullprec__scalarC", "", "name=vif:debug=true", 1,
      "integer_vif|VMAF_integer_feature_vif", 0 },
    { "opt_vif_egl1.0__fullprec", "", "name=vif:vif_enhn_gain_limit=1.0", 1, "integer_vif", 0 },
    { "vmaf_v0.6.1__fullprec", "", "name=adm:debug=true", 1, "integer_adm|VMAF_integer_feature_a", 0 },
    { "vmaf_v0.6.1__fullprec__scalarC", "", "name=adm:debug=true", 1, "integer_adm|VMAF_integer_feature_a", 0 },
    { "opt_adm_egl1.2__fullprec__scalarC", "", "name=adm:adm_enhn_gain_limit=1.2", 1, "integer_adm|integer_aim", 0 },
    { "model_vmaf_v1.0.16_3d0h__fullprec", "",
      "name=adm:adm_csf_mode=2:adm_enhn_gain_limit=1.0:adm_noise_weight=0.02:adm_dlm_weight=0.7:adm_min_val=0.5",
      1, "integer_adm|integer_aim", 0 },
    /* VMAF with every feature it uses, debug values included. */
    { "vmaf_v0.6.1__fullprec", "version=vmaf_v0.6.1",
      "name=adm:debug=true|name=motion:debug=true|name=vif:debug=true|name=psnr", 1,
      "integer_|VMAF_integer|psnr_|vmaf", 0 },
    { "vmaf_v0.6.1__fullprec__scalarC", "version=vmaf_v0.6.1",
      "name=adm:debug=true|name=motion:debug=true|name=vif:debug=true|name=psnr", 1,
      "integer_|VMAF_integer|psnr_|vmaf", 0 },
    /* libvmaf's 6-decimal CLI logs: the printed digits must be the same. */
    { "vmaf_v0.6.1", "version=vmaf_v0.6.1", "name=psnr", 1, "integer_|VMAF_integer|psnr_|vmaf", -1 },
    { "vmaf_v0.6.1neg", "version=vmaf_v0.6.1neg", "", 1, "integer_|VMAF_integer|vmaf", -1 },
    { "vmaf_4k_v0.6.1", "version=vmaf_4k_v0.6.1", "", 1, "integer_|VMAF_integer|vmaf", -1 },
    { "model_vmaf_v0.6.1_disable_clip__fullprec", "version=vmaf_v0.6.1:disable_clip=true", "", 1,
      "integer_|VMAF_integer|vmaf", 0 },
    { "model_vmaf_v0.6.1_enable_transform__fullprec", "version=vmaf_v0.6.1:enable_transform=true", "", 1,
      "integer_|VMAF_integer|vmaf", 0 },
    { "model_vmaf_v0.6.1_enable_transform_disable_clip__fullprec",
      "version=vmaf_v0.6.1:enable_transform=true:disable_clip=true", "", 1, "integer_|VMAF_integer|vmaf", 0 },
    { "model_vmaf_v0.6.1_egl1__fullprec",
      "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.0:adm.adm_enhn_gain_limit=1.0", "", 1,
      "integer_|VMAF_integer|vmaf", 0 },
    { "model_vmaf_v0.6.1_from_path__fullprec", "path=models/vmaf_v0.6.1.json", "", 1,
      "integer_|VMAF_integer|vmaf", 0 },
    { "model_vmaf_b_v0.6.3__fullprec", "version=vmaf_b_v0.6.3", "", 1, "integer_|VMAF_integer|vmaf", 0 },
    { "model_vmaf_4k_v0.6.1neg__fullprec", "version=vmaf_4k_v0.6.1neg", "", 1, "integer_|VMAF_integer|vmaf", 0 },
    { "model_two_models__fullprec", "version=vmaf_v0.6.1:name=vmaf|version=vmaf_v0.6.1neg:name=vmaf_neg", "",
      1, "integer_|VMAF_integer|vmaf", 0 },
    { "opt_subsample1__fullprec", "version=vmaf_v0.6.1", "name=psnr", 1, "integer_|VMAF_integer|psnr_|vmaf", 0 },
    { "opt_subsample2__fullprec", "version=vmaf_v0.6.1", "name=psnr", 2, "integer_|VMAF_integer|psnr_|vmaf", 0 },
    { "opt_subsample5__fullprec", "version=vmaf_v0.6.1", "name=psnr", 5, "integer_|VMAF_integer|psnr_|vmaf", 0 },
    { "opt_motion_force_zero__fullprec", "", "name=motion:motion_force_zero=true", 1, "integer_motion", 0 },
    { "opt_motion_5fw_ma__fullprec", "",
      "name=motion:motion_five_frame_window=true:motion_moving_average=true", 1, "integer_motion", 0 },
    /* Whole runs: every key libvmaf wrote, from one engine. */
    { "model_vmaf_v1.0.16_3d0h__fullprec", "version=vmaf_v1.0.16_3d0h", "", 1, "", 0 },
    { "model_vmaf_v1.0.16_hfr_3d0h__fullprec", "version=vmaf_v1.0.16_hfr_3d0h", "", 1, "", 0 },
    { "opt_aom_ctc_v7.0__fullprec", "version=vmaf_v0.6.1:name=vmaf|version=vmaf_v0.6.1neg:name=vmaf_neg",
      "name=psnr:reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5|name=ciede|"
      "name=float_ssim:scale=1:enable_db=true:clip_db=true|name=float_ms_ssim:enable_db=true:clip_db=true|"
      "name=psnr_hvs|name=cambi", 1, "", 0 },
    { "model_vmaf_b_v0.6.3__fullprec", "version=vmaf_b_v0.6.3", "", 1, "", 0 },
#include "ref_runs_ssim.h"
#include "ref_runs_cambi.h"
#include "ref_runs_psnr_hvs_ciede.h"
#include "ref_runs_speed.h"
#include "ref_runs_float.h"
};

static int nb_passed, nb_failed, nb_skipped;
static int nb_threads = 1;
static int rcp_is_oracles;  ///< this CPU's RCPSS is the oracle's (AMD)

/* The oracle's reciprocal estimate is AMD's: an x86 CPU whose vendor is
 * AMD (and whose SSE the engine uses, ff_vmaf_float_rcp_is_estimate()). */
static int host_rcp_is_oracles(char *vendor, size_t size)
{
    snprintf(vendor, size, "not x86");
#if defined(__x86_64__) || defined(__i386__)
    {
        unsigned a, b, c, d;
        char id[13] = { 0 };
        if (!__get_cpuid(0, &a, &b, &c, &d))
            return 0;
        memcpy(id, &b, 4);
        memcpy(id + 4, &d, 4);
        memcpy(id + 8, &c, 4);
        snprintf(vendor, size, "%s", id);
        return !strcmp(id, "AuthenticAMD") && ff_vmaf_float_rcp_is_estimate();
    }
#else
    return 0;
#endif
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long size;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
        goto end;
    if (!(buf = malloc(size + 1)))
        goto end;
    if (fread(buf, 1, size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
        goto end;
    }
    buf[size] = 0;
    *len = size;
end:
    fclose(f);
    return buf;
}

/* prefixes "" selects every key. */
static int key_selected(const char *key, const char *prefixes)
{
    const char *p = prefixes;
    if (!*p)
        return 1;
    while (*p) {
        size_t n = strcspn(p, "|");
        if (!strncmp(key, p, n))
            return 1;
        p += n + !!p[n];
    }
    return 0;
}

static int find_result(const FFVmafFeatureCollector *fc, const char *ref_key)
{
    const char *want = ff_vmaf_feature_alias(ref_key);
    for (int k = 0; k < ff_vmaf_collector_nb_keys(fc); k++)
        if (!strcmp(ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k)), want))
            return k;
    return -1;
}

#include "libavfilter/vmaf/output.h"

static int values_match(double got, const FFVmafJson *want, double tol)
{
    if (want->type != FF_VMAF_JSON_NUMBER)
        return !isfinite(got);
    if (tol < 0) {
        char num[64];
        ff_vmaf_format_value(num, sizeof(num), got);
        return !strcmp(num, want->str);
    }
    if (tol == 0.0)
        return got == want->number;
    return fabs(got - want->number) <= tol;
}

/* values_match(), or for a key of r->rcp_keys where this CPU's reciprocal
 * estimate is not the oracle's, within RCP_REL_TOLERANCE (counted in *near
 * when not bit-exact). */
static int value_matches(const Run *r, const char *key, double got,
                         const FFVmafJson *want, int *near)
{
    if (values_match(got, want, r->tolerance))
        return 1;
    if (rcp_is_oracles || !r->rcp_keys || !key_selected(key, r->rcp_keys) ||
        want->type != FF_VMAF_JSON_NUMBER ||
        !(fabs(got - want->number) <= RCP_REL_TOLERANCE * fabs(want->number)))
        return 0;
    (*near)++;
    return 1;
}

static const FFVmafJson *frame_values(const FFVmafJson *frame)
{
    const FFVmafJson *m = ff_vmaf_json_get(frame, "metrics");
    return m ? m : frame;
}

static void run_case(const char *data_dir, const char *ref_dir,
                     const ClipPair *p, const Run *r)
{
    char path[4096], ref_path[2][4096], err[256];
    FFVmafJsonDoc *doc = NULL;
    FFVmafEngine *e = NULL;
    const FFVmafJson *frames, *agg;
    const FFVmafFeatureCollector *fc;
    FFVmafGeometry geo = { p->w, p->h, p->bpc, p->ss, p->ss };
    uint8_t *planes[2][3] = { { 0 } };
    size_t len;
    char *json;
    int compared = 0, mismatched = 0, missing = 0, near = 0, ret;

    /* A run with no name reads <pair>.json (libvmaf's cambi_*.json). */
    if (*r->what)
        snprintf(path, sizeof(path), "%s/%s__%s.json", ref_dir, p->name, r->what);
    else
        snprintf(path, sizeof(path), "%s/%s.json", ref_dir, p->name);
    if (!(json = read_file(path, &len)))
        return;
    snprintf(ref_path[0], sizeof(ref_path[0]), "%s/%s", data_dir, p->ref);
    snprintf(ref_path[1], sizeof(ref_path[1]), "%s/%s", data_dir, p->dis);
    {
        FILE *a = fopen(ref_path[0], "rb"), *b = fopen(ref_path[1], "rb");
        if (!a || !b) {
            if (a) fclose(a);
            if (b) fclose(b);
            printf("SKIP %s__%s [%s]: clips not found\n", p->name, r->what, r->features);
            nb_skipped++;
            free(json);
            return;
        }
        fclose(a);
        fclose(b);
    }

    if (ff_vmaf_json_parse(&doc, json, len, FF_VMAF_JSON_DEFAULT_MAX_DEPTH, err, sizeof(err)) < 0) {
        printf("FAIL %s: %s\n", path, err);
        nb_failed++;
        free(json);
        return;
    }

    if ((ret = ff_vmaf_engine_alloc(&e, NULL)) < 0 ||
        (ret = ff_vmaf_engine_parse_models(e, r->model)) < 0 ||
        (ret = ff_vmaf_engine_parse_features(e, r->features)) < 0 ||
        (ret = ff_vmaf_engine_configure(e, &geo, nb_threads, r->n_subsample)) < 0)
        goto fail;
    for (int n = 0; n < p->frames; n++) {
        FFVmafPicture ref, dis;
        if ((ret = clip_load_frame(&ref, planes[0], p, ref_path[0], n)) < 0 ||
            (ret = clip_load_frame(&dis, planes[1], p, ref_path[1], n)) < 0 ||
            (ret = ff_vmaf_engine_push(e, &ref, &dis)) < 0)
            goto fail;
    }
    if ((ret = ff_vmaf_engine_flush(e)) < 0)
        goto fail;
    fc = ff_vmaf_engine_results(e);

    frames = ff_vmaf_json_get(ff_vmaf_json_root(doc), "frames");
    for (int i = 0; frames && i < frames->nb_items; i++) {
        const FFVmafJson *fr = &frames->items[i], *vals = frame_values(fr);
        const FFVmafJson *num = ff_vmaf_json_get(fr, "frameNum");
        unsigned index = num ? (unsigned)num->number : (unsigned)i;
        for (int k = 0; k < vals->nb_items; k++) {
            const FFVmafJson *v = &vals->items[k];
            const char *key = ff_vmaf_feature_alias(v->key);
            int idx;
            double got;
            if (!strcmp(v->key, "frameNum") || !key_selected(key, r->keys))
                continue;
            idx = find_result(fc, v->key);
            if (idx < 0 || ff_vmaf_collector_read_at(fc, idx, index, &got) < 0) {
                if (missing++ < 5)
                    printf("  missing %s of frame %u\n", key, index);
                continue;
            }
            compared++;
            if (!value_matches(r, key, got, v, &near)) {
                if (mismatched++ < 5)
                    printf("  %s frame %u: got %.17g, libvmaf %.17g\n",
                           key, index, got, v->number);
            }
        }
    }
    /* Frames libvmaf did not write (n_subsample) must have no values. */
    for (unsigned n = 0; frames && n < (unsigned)p->frames; n++) {
        int listed = 0;
        for (int i = 0; i < frames->nb_items; i++) {
            const FFVmafJson *num = ff_vmaf_json_get(&frames->items[i], "frameNum");
            listed |= (num ? (unsigned)num->number : (unsigned)i) == n;
        }
        for (int k = 0; !listed && k < ff_vmaf_collector_nb_keys(fc); k++) {
            double got;
            const char *key = ff_vmaf_feature_alias(ff_vmaf_collector_key(fc, k));
            if (!strcmp(key, "vmaf") && ff_vmaf_collector_read_at(fc, k, n, &got) >= 0) {
                printf("  frame %u has a score libvmaf did not write\n", n);
                mismatched++;
            }
        }
    }
    agg = ff_vmaf_json_get(ff_vmaf_json_root(doc), "aggregate_metrics");
    for (int k = 0; agg && k < agg->nb_items; k++) {
        const FFVmafJson *v = &agg->items[k];
        double got = NAN;
        int found = 0;
        if (!key_selected(v->key, r->keys))
            continue;
        for (int a = 0; a < ff_vmaf_collector_nb_aggregates(fc); a++) {
            double val;
            if (!strcmp(ff_vmaf_collector_aggregate(fc, a, &val), v->key)) {
                got = val;
                found = 1;
            }
        }
        if (!found) {
            missing++;
            printf("  missing aggregate %s\n", v->key);
            continue;
        }
        compared++;
        if (!value_matches(r, v->key, got, v, &near) && mismatched++ < 5)
            printf("  aggregate %s: got %.17g, libvmaf %.17g\n", v->key, got, v->number);
    }

    if (!compared || mismatched || missing) {
        printf("FAIL %s__%s [%s %s]: %d values compared, %d differ, %d missing\n",
               p->name, r->what, r->model, r->features, compared, mismatched, missing);
        nb_failed++;
    } else {
        printf("PASS %s__%s [%s%s%s]: %d values %s", p->name, r->what, r->model,
               *r->model && *r->features ? " + " : "", r->features, compared,
               r->tolerance < 0 ? "print the same" :
               r->tolerance ? "within tolerance" : "bit-exact");
        if (near)
            printf(" except %d of %s within %g relative (this CPU's RCPSS)", near, r->rcp_keys,
                   RCP_REL_TOLERANCE);
        printf("\n");
        nb_passed++;
    }
    goto end;
fail:
    printf("FAIL %s__%s [%s]: engine error %s\n", p->name, r->what, r->features,
           av_err2str(ret));
    nb_failed++;
end:
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            av_freep(&planes[i][j]);
    ff_vmaf_engine_free(&e);
    ff_vmaf_json_free(&doc);
    free(json);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 3 && *argv[3] ? argv[3] : NULL;

    if (argc > 4)
        nb_threads = atoi(argv[4]);

    if (argc < 3) {
        fprintf(stderr, "usage: %s <testdata-dir> <fullprecision-dir> [filter]\n", argv[0]);
        return 2;
    }
    av_log_set_level(AV_LOG_ERROR);
    {
        char vendor[32];
        rcp_is_oracles = host_rcp_is_oracles(vendor, sizeof(vendor));
        if (rcp_is_oracles)
            printf("RCPSS: this CPU's (%s) is the oracle's: float_adm compared bit for bit\n", vendor);
        else
            printf("RCPSS: this CPU's (%s) is not the oracle's (AMD): float_adm's values where "
                   "not bit-exact compared to within %g relative\n", vendor, RCP_REL_TOLERANCE);
    }
    for (int r = 0; r < (int)(sizeof(runs) / sizeof(runs[0])); r++)
        for (int p = 0; p < (int)(nb_clip_pairs); p++) {
            if (runs[r].only_pair && strcmp(runs[r].only_pair, clip_pairs[p].name))
                continue;
            if (filter && !strstr(clip_pairs[p].name, filter) && !strstr(runs[r].what, filter) &&
                !strstr(runs[r].features, filter) && !strstr(runs[r].model, filter))
                continue;
            run_case(argv[1], argv[2], &clip_pairs[p], &runs[r]);
        }
    printf("%d passed, %d failed, %d skipped\n", nb_passed, nb_failed, nb_skipped);
    return nb_failed ? 1 : 0;
}
