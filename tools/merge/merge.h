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
 * Chunks of one run merged into the run's log: they must tile its frames
 * and come from one set of options; their values go into a collector in
 * the order a whole run creates its keys, the aggregates are made again
 * from the chunks' sums by the extractors that wrote them, and the
 * engine's own log writer writes it all, pooling as a whole run pools.
 */

#ifndef TOOLS_MERGE_MERGE_H
#define TOOLS_MERGE_MERGE_H

#include <stdio.h>

#include "libavfilter/vmaf/output.h"
#include "chunk_file.h"

/**
 * Sort the chunks by their first frame and check that they make one run:
 * its frames from 0, each in exactly one chunk, the last chunk the one
 * that saw the run end, and the same options, geometry and version
 * throughout (nb_frames >= 0: the run has that many frames). err says
 * what is wrong, naming the files.
 */
int merge_check(MergeChunk *chunks, int nb, int64_t nb_frames, char *err, size_t err_size);

/** Write the log of the run that the checked chunks make, in format fmt. */
int merge_write_log(const MergeChunk *chunks, int nb, FILE *out, enum FFVmafLogFormat fmt,
                    char *err, size_t err_size);

#endif /* TOOLS_MERGE_MERGE_H */
