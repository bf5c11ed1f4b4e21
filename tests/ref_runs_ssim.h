/* Reference runs of the ssim extractors: entries of runs[] in vmaf_reference_test.c. */
