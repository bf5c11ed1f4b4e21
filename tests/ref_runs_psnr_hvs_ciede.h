/* Reference runs of the psnr_hvs_ciede extractors: entries of runs[] in vmaf_reference_test.c. */
    /* Every pair, identity pairs included: identical planes give +inf,
     * which libvmaf prints as null. */
    { "extra_other__fullprec", "", "name=psnr_hvs", 1, "psnr_hvs", 0 },
    { "extra_other__fullprec", "", "name=ciede", 1, "ciede2000", 0 },
    { "extra_other", "", "name=psnr_hvs|name=ciede", 1, "psnr_hvs|ciede2000", -1 },
    /* The --aom_ctc v7.0 preset runs both with default options. */
    { "opt_aom_ctc_v7.0__fullprec", "", "name=psnr_hvs|name=ciede", 1, "psnr_hvs|ciede2000", 0 },
    { "opt_aom_ctc_v7.0", "", "name=psnr_hvs|name=ciede", 1, "psnr_hvs|ciede2000", -1 },
