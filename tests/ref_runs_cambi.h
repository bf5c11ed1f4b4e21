/* Reference runs of the cambi extractors: entries of runs[] in vmaf_reference_test.c. */

/*
 * cambi refuses frames whose width and height are both below 216, so the
 * runs whose reference files also exist for the 160x90 pair name their
 * pairs one by one.
 */
#define CAMBI_PAIR(what, tol, pair) { what, "", "name=cambi", 1, "cambi", tol, pair }
#define CAMBI_MAIN(what, tol)                                         \
    CAMBI_PAIR(what, tol, "src01_576x324_3f_8bit"),                   \
    CAMBI_PAIR(what, tol, "src01_576x324_3f_10bit"),                  \
    CAMBI_PAIR(what, tol, "src01_576x324_3f_12bit"),                  \
    CAMBI_PAIR(what, tol, "src01_576x324_3f_8bit_identity"),          \
    CAMBI_PAIR(what, tol, "src01_576x324_3f_10bit_identity"),         \
    CAMBI_PAIR(what, tol, "sparks_480x270_5f_10bit"),                 \
    CAMBI_PAIR(what, tol, "archer_1920x1080_1f_8bit"),                \
    CAMBI_PAIR(what, tol, "dark_scene_1920x1080_1f_8bit"),            \
    CAMBI_PAIR(what, tol, "hall_352x288_1f_8bit"),                    \
    CAMBI_PAIR(what, tol, "akiyo_multiply_352x288_1f_8bit")
    /* The main runs (model + psnr + ssim + cambi), full precision and CLI. */
    CAMBI_MAIN("vmaf_v0.6.1__fullprec", 0),
    CAMBI_PAIR("vmaf_v0.6.1__fullprec__scalarC", 0, "test_image_100007_481x321_444_1f_8bit"),
    CAMBI_PAIR("vmaf_v0.6.1__fullprec__avx512", 0, "test_image_100007_481x321_444_1f_8bit"),
    CAMBI_MAIN("vmaf_v0.6.1", -1),
    CAMBI_PAIR("vmaf_v0.6.1__scalarC", -1, "test_image_100007_481x321_444_1f_8bit"),
    CAMBI_PAIR("vmaf_v0.6.1__avx512", -1, "test_image_100007_481x321_444_1f_8bit"),
    CAMBI_MAIN("features_debug", -1),
    CAMBI_PAIR("features_debug", -1, "test_image_100007_481x321_444_1f_8bit"),
    /* --aom_ctc v7.0 includes a default cambi. */
    { "opt_aom_ctc_v7.0__fullprec", "", "name=cambi", 1, "cambi", 0 },
    { "opt_aom_ctc_v7.0", "", "name=cambi", 1, "cambi", -1 },
    /* Subsampling: cambi runs on frames 0, 2, 4 only. */
    { "opt_subsample2__fullprec", "", "name=cambi", 2, "cambi", 0, "src01_576x324_3f_8bit" },
    { "opt_subsample2__fullprec", "", "name=cambi", 2, "cambi", 0, "sparks_480x270_5f_10bit" },
    { "opt_subsample2", "", "name=cambi", 2, "cambi", -1, "src01_576x324_3f_8bit" },
    { "opt_subsample2", "", "name=cambi", 2, "cambi", -1, "sparks_480x270_5f_10bit" },
    /* Options. */
    { "opt_cambi_enc480x270__fullprec", "", "name=cambi:enc_width=480:enc_height=270", 1, "cambi", 0 },
    { "opt_cambi_enc480x270", "", "name=cambi:enc_width=480:enc_height=270", 1, "cambi", -1 },
    { "opt_cambi_enc320x180__fullprec", "", "name=cambi:enc_width=320:enc_height=180", 1, "cambi", 0 },
    { "opt_cambi_enc320x180", "", "name=cambi:enc_width=320:enc_height=180", 1, "cambi", -1 },
    { "opt_cambi_enc_bitdepth8__fullprec", "", "name=cambi:enc_bitdepth=8", 1, "cambi", 0 },
    { "opt_cambi_enc_bitdepth8", "", "name=cambi:enc_bitdepth=8", 1, "cambi", -1 },
    { "opt_cambi_full_ref__fullprec", "", "name=cambi:full_ref=true", 1, "cambi", 0 },
    { "opt_cambi_full_ref", "", "name=cambi:full_ref=true", 1, "cambi", -1 },
    /* The options of the vmaf_v1.0.16 models (speed-up inactive below 1080p). */
    { "model_vmaf_v1.0.16_3d0h__fullprec", "",
      "name=cambi:cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17", 1, "cambi", 0 },
    { "model_vmaf_v1.0.16_hfr_3d0h__fullprec", "",
      "name=cambi:cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17", 1, "cambi", 0 },
    { "model_vmaf_v1.0.16_3d0h", "",
      "name=cambi:cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17", 1, "cambi", -1 },
    { "model_vmaf_v1.0.16_hfr_3d0h", "",
      "name=cambi:cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17", 1, "cambi", -1 },
    /*
     * libvmaf's CAMBI test clips (6 decimals, ref = dis), files
     * <pair>.json: an empty `what` names them (pairs cambi_*).
     */
    CAMBI_PAIR("", -1, "cambi_KristenAndSara_1280x720_1f_8bit"),
    { "", "", "name=cambi:enc_width=960:enc_height=540", 1, "cambi", -1,
      "cambi_KristenAndSara_1280x720_1f_8bit_enc960x540" },
    CAMBI_PAIR("", -1, "cambi_blue_sky_640x360_3f_8bit"),
    CAMBI_PAIR("", -1, "cambi_src01_hrc00_576x324_3f_10bit"),
#undef CAMBI_MAIN
#undef CAMBI_PAIR
