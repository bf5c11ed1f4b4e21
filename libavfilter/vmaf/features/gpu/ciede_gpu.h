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
 * What ciede.hip's kernels and ciede_gpu.c, which reads their output,
 * share: the launch width of the row kernel, the records of pixels the
 * host finishes, the marks that stand for them among the Delta E values,
 * and each row's summary.
 */

#ifndef AVFILTER_VMAF_FEATURES_GPU_CIEDE_GPU_H
#define AVFILTER_VMAF_FEATURES_GPU_CIEDE_GPU_H

#include <stdint.h>

/** Threads of a vmaf_ciede_rows block (one row). */
#define CIEDE_ROWS_THREADS 128
/** Records a frame holds; more: the frame cannot be finished (ENOSPC). */
#define CIEDE_MAX_RECORDS  16384
/* A Delta E the host finishes: the pixel's record, or its left neighbour's
 * value (the same colours). Quiet NaNs no arithmetic here makes. */
#define CIEDE_MARK_RECORD  0xffc1de01u
#define CIEDE_MARK_LEFT    0xffc1de02u

/** A pixel whose Delta E the host computes from its colours. */
typedef struct CiedeRecord {
    uint32_t index;         ///< i * w + j
    uint16_t c[6];          ///< y, u, v of the reference, then of the distorted
} CiedeRecord;

/** One row of Delta E values, summed on the device. */
typedef struct CiedeRow {
    double  sum;            ///< the row's plain values, added in any order
    int32_t lsb;            ///< lowest bit any of them holds (2^lsb); INT32_MAX: all 0
    int32_t special;        ///< values the host must see: marks, NaN, infinities, < 0
} CiedeRow;

#endif /* AVFILTER_VMAF_FEATURES_GPU_CIEDE_GPU_H */
