/* Reference runs of the ssim extractors: entries of runs[] in vmaf_reference_test.c. */

/* float_ms_ssim refuses frames below 176x176, so its runs name the pairs
 * (all but src01_160x90). */
#define SSIM_MS_RUN(what, nsub, tol, pair) \
    { what, "", "name=float_ms_ssim", nsub, "float_ms_ssim", tol, pair },
#define SSIM_MS_RUNS(what, tol) \
    SSIM_MS_RUN(what, 1, tol, "src01_576x324_3f_8bit")                 \
    SSIM_MS_RUN(what, 1, tol, "src01_576x324_3f_10bit")                \
    SSIM_MS_RUN(what, 1, tol, "src01_576x324_3f_12bit")                \
    SSIM_MS_RUN(what, 1, tol, "src01_576x324_3f_8bit_identity")        \
    SSIM_MS_RUN(what, 1, tol, "src01_576x324_3f_10bit_identity")       \
    SSIM_MS_RUN(what, 1, tol, "sparks_480x270_5f_10bit")               \
    SSIM_MS_RUN(what, 1, tol, "archer_1920x1080_1f_8bit")              \
    SSIM_MS_RUN(what, 1, tol, "dark_scene_1920x1080_1f_8bit")          \
    SSIM_MS_RUN(what, 1, tol, "hall_352x288_1f_8bit")                  \
    SSIM_MS_RUN(what, 1, tol, "akiyo_multiply_352x288_1f_8bit")        \
    SSIM_MS_RUN(what, 1, tol, "test_image_100007_481x321_444_1f_8bit")

    /* The model runs printed with %.17g (every pair, both layouts). */
    { "vmaf_v0.6.1__fullprec", "", "name=float_ssim", 1, "float_ssim", 0 },
    { "vmaf_v0.6.1__fullprec__scalarC", "", "name=float_ssim", 1, "float_ssim", 0 },
    { "vmaf_v0.6.1__fullprec__avx512", "", "name=float_ssim", 1, "float_ssim", 0 },
    SSIM_MS_RUNS("vmaf_v0.6.1__fullprec", 0)
    SSIM_MS_RUNS("vmaf_v0.6.1__fullprec__scalarC", 0)
    SSIM_MS_RUNS("vmaf_v0.6.1__fullprec__avx512", 0)
    /* Options (src01 8-bit and sparks 10-bit). */
    { "opt_ssim_lcs__fullprec", "",
      "name=float_ssim:enable_lcs=true|name=float_ms_ssim:enable_lcs=true", 1,
      "float_ssim|float_ms_ssim", 0 },
    { "opt_ssim_db__fullprec", "",
      "name=float_ssim:enable_db=true:clip_db=true|name=float_ms_ssim:enable_db=true:clip_db=true", 1,
      "float_ssim|float_ms_ssim", 0 },
    { "opt_ssim_scale1__fullprec", "", "name=float_ssim:scale=1", 1, "float_ssim", 0 },
    /* The SSIM part of the --aom_ctc v7.0 preset. */
    { "opt_aom_ctc_v7.0__fullprec", "",
      "name=float_ssim:scale=1:enable_db=true:clip_db=true|name=float_ms_ssim:enable_db=true:clip_db=true", 1,
      "float_ssim|float_ms_ssim", 0 },
    /* Subsampled model runs: only frames index % n == 0 are written. */
    { "opt_subsample1__fullprec", "", "name=float_ssim", 1, "float_ssim", 0 },
    { "opt_subsample2__fullprec", "", "name=float_ssim", 2, "float_ssim", 0 },
    { "opt_subsample5__fullprec", "", "name=float_ssim", 5, "float_ssim", 0 },
    SSIM_MS_RUN("opt_subsample2__fullprec", 2, 0, "src01_576x324_3f_8bit")
    SSIM_MS_RUN("opt_subsample2__fullprec", 2, 0, "sparks_480x270_5f_10bit")
    /* The 6-decimal CLI logs: the printed digits must be the same. */
    { "vmaf_v0.6.1", "", "name=float_ssim", 1, "float_ssim", -1 },
    { "features_debug", "", "name=float_ssim", 1, "float_ssim", -1 },
    { "vmaf_v0.6.1__avx512", "", "name=float_ssim", 1, "float_ssim", -1 },
    { "vmaf_v0.6.1__scalarC", "", "name=float_ssim", 1, "float_ssim", -1 },
    SSIM_MS_RUNS("vmaf_v0.6.1", -1)
    SSIM_MS_RUNS("features_debug", -1)
    SSIM_MS_RUNS("vmaf_v0.6.1__avx512", -1)
    SSIM_MS_RUNS("vmaf_v0.6.1__scalarC", -1)
    { "opt_ssim_lcs", "",
      "name=float_ssim:enable_lcs=true|name=float_ms_ssim:enable_lcs=true", 1,
      "float_ssim|float_ms_ssim", -1 },
    { "opt_ssim_db", "",
      "name=float_ssim:enable_db=true:clip_db=true|name=float_ms_ssim:enable_db=true:clip_db=true", 1,
      "float_ssim|float_ms_ssim", -1 },
    { "opt_ssim_scale1", "", "name=float_ssim:scale=1", 1, "float_ssim", -1 },
    { "opt_aom_ctc_v7.0", "",
      "name=float_ssim:scale=1:enable_db=true:clip_db=true|name=float_ms_ssim:enable_db=true:clip_db=true", 1,
      "float_ssim|float_ms_ssim", -1 },
    { "opt_subsample1", "", "name=float_ssim", 1, "float_ssim", -1 },
    { "opt_subsample2", "", "name=float_ssim", 2, "float_ssim", -1 },
    { "opt_subsample5", "", "name=float_ssim", 5, "float_ssim", -1 },
    SSIM_MS_RUN("opt_subsample2", 2, -1, "src01_576x324_3f_8bit")
    SSIM_MS_RUN("opt_subsample2", 2, -1, "sparks_480x270_5f_10bit")

#undef SSIM_MS_RUNS
#undef SSIM_MS_RUN
