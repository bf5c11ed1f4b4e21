/* Reference runs of the psnr_hvs_ciede extractors: entries of runs[] in vmaf_reference_test.c. */
