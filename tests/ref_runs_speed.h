/* Reference runs of the speed extractors: entries of runs[] in vmaf_reference_test.c. */
    /* speed_temporal on every pair, 160x90 included (luma 10x5 after
     * decimation: one row of two blocks). */
    { "extra_other__fullprec", "", "name=speed_temporal", 1, "speed_temporal", 0 },
    /* speed_chroma: libvmaf did not run it on 160x90 (80x45 chroma is too
     * small, init fails here), so the other pairs are listed one by one. */
#define SPEED_CHROMA_RUN(pair) \
    { "extra_other__fullprec", "", "name=speed_chroma", 1, "speed_chroma", 0, pair }
    SPEED_CHROMA_RUN("src01_576x324_3f_8bit"),
    SPEED_CHROMA_RUN("src01_576x324_3f_10bit"),
    SPEED_CHROMA_RUN("src01_576x324_3f_12bit"),
    SPEED_CHROMA_RUN("src01_576x324_3f_8bit_identity"),
    SPEED_CHROMA_RUN("src01_576x324_3f_10bit_identity"),
    SPEED_CHROMA_RUN("sparks_480x270_5f_10bit"),
    SPEED_CHROMA_RUN("archer_1920x1080_1f_8bit"),
    SPEED_CHROMA_RUN("dark_scene_1920x1080_1f_8bit"),
    SPEED_CHROMA_RUN("hall_352x288_1f_8bit"),
    SPEED_CHROMA_RUN("akiyo_multiply_352x288_1f_8bit"),
    SPEED_CHROMA_RUN("test_image_100007_481x321_444_1f_8bit"),
#undef SPEED_CHROMA_RUN
    /* The speed_chroma instance of the vmaf_v1.0.16 models, with the
     * options of models/vmaf_v1.0.16_3d0h.json (the hfr model has the same). */
#define SPEED_CHROMA_V1_OPTS "name=speed_chroma:speed_kernelscale=1.0:speed_nn_floor=0.1:" \
    "speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45"
    { "model_vmaf_v1.0.16_3d0h__fullprec", "", SPEED_CHROMA_V1_OPTS, 1, "speed_chroma", 0 },
    { "model_vmaf_v1.0.16_hfr_3d0h__fullprec", "", SPEED_CHROMA_V1_OPTS, 1, "speed_chroma", 0 },
#undef SPEED_CHROMA_V1_OPTS
