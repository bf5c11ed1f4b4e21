/* Reference runs of the float extractors: entries of runs[] in vmaf_reference_test.c. */
    /* libvmaf's __extra_float run on all 12 pairs, one extractor at a time;
     * spec section 20 reports every key bit-exact (float_adm given the
     * oracle's RCPSS reciprocal: its keys are the last field, compared bit
     * for bit only on a CPU with the oracle's estimate). */
    { "extra_float__fullprec", "", "name=float_psnr", 1, "float_psnr", 0 },
    { "extra_float__fullprec", "", "name=float_ansnr", 1, "float_ansnr|float_anpsnr", 0 },
    { "extra_float__fullprec", "", "name=float_moment", 1, "float_moment_", 0 },
    { "extra_float__fullprec", "", "name=float_motion", 1, "motion", 0 },
    { "extra_float__fullprec", "", "name=float_vif:debug=true", 1, "vif", 0 },
    { "extra_float__fullprec", "", "name=float_adm:debug=true", 1, "adm|aim", 0, NULL, "adm|aim" },
    /* The same run as libvmaf made it, every extractor at once. */
    { "extra_float__fullprec", "",
      "name=float_psnr|name=float_ansnr|name=float_adm:debug=true|name=float_vif:debug=true|"
      "name=float_motion|name=float_moment", 1,
      "float_|adm|aim|vif|motion", 0, NULL, "adm|aim" },
    /* VMAF from the float features (vmaf_v0.6.1's SVM). */
    { "model_vmaf_float_v0.6.1__fullprec", "version=vmaf_float_v0.6.1", "", 1,
      "adm|aim|motion|vif|vmaf", 0, NULL, "adm|aim|vmaf" },
