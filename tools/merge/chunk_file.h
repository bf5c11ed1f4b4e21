/*
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/**
 * @file
 * One chunk file (libavfilter/vmaf/chunk.h) read and checked for its form:
 * what it says of its run, and its frames' values.
 */

#ifndef TOOLS_MERGE_CHUNK_FILE_H
#define TOOLS_MERGE_CHUNK_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "libavfilter/vmaf/chunk.h"
#include "libavfilter/vmaf/pairing.h"

typedef struct MergeSums {
    char *feature;              ///< the extractor's name
    char *options;              ///< as ff_vmaf_feature_options() wrote them
    uint64_t values[FF_VMAF_CHUNK_MAX_SUMS];
    int nb;
} MergeSums;

typedef struct MergeChunk {
    char *path;
    /* Strings are NULL where the file says null. */
    char *version, *model, *feature, *backends;
    int n_subsample, width, height, bpc, ss_x, ss_y;
    int64_t start, end;
    int64_t run_frames;         ///< -1: the chunk did not see the run's end
    int64_t frames_pushed;
    double fps;
    char *pairing_mode;         ///< NULL: no pairing counts
    FFVmafPairingStats pairing;
    char **keys;
    int nb_keys;
    MergeSums *sums;
    int nb_sums;
    /* The frames that have values: frame[i] of the run, whose value of
     * keys[k] is values[i * nb_keys + k] when present[] says so. */
    int64_t *frame;
    double *values;
    uint8_t *present;
    int nb_frames;
} MergeChunk;

/**
 * Read the chunk file at path into c (zeroed first). On failure err says
 * what is wrong, and where; c is then freed.
 */
int  merge_chunk_read(MergeChunk *c, const char *path, char *err, size_t err_size);
void merge_chunk_free(MergeChunk *c);

#endif /* TOOLS_MERGE_CHUNK_FILE_H */
