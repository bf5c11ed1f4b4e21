/* Reference runs of the cambi extractors: entries of runs[] in vmaf_reference_test.c. */
