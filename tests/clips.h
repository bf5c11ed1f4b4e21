/*
 * Clip pairs of the test data (see testdata/README.md) and a loader.
 */

#ifndef TESTS_CLIPS_H
#define TESTS_CLIPS_H

#include <stdint.h>

#include "libavfilter/vmaf/picture.h"

typedef struct ClipPair {
    const char *name;       ///< reference file prefix
    const char *ref, *dis;  ///< clip files
    int w, h, bpc, ss;      ///< ss: 1 for 4:2:0, 0 for 4:4:4
    int file_bpc;           ///< depth stored in the file (8: shift up to bpc)
    int frames;
} ClipPair;

extern const ClipPair clip_pairs[];
extern const int nb_clip_pairs;

/**
 * Load frame n of a raw planar file into a picture of the pair's geometry
 * (chroma planes rounded down, as libvmaf has them); planes[] are
 * (re)allocated with av_malloc.
 */
int clip_load_frame(FFVmafPicture *pic, uint8_t **planes, const ClipPair *p,
                    const char *path, int n);

#endif /* TESTS_CLIPS_H */
