/* Reference runs of the speed extractors: entries of runs[] in vmaf_reference_test.c. */
