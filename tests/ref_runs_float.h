/* Reference runs of the float extractors: entries of runs[] in vmaf_reference_test.c. */
