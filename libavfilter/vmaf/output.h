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
 * Pooling of per-frame values and libvmaf's four log formats.
 */

#ifndef AVFILTER_VMAF_OUTPUT_H
#define AVFILTER_VMAF_OUTPUT_H

#include <stdio.h>

#include "collector.h"
#include "pairing.h"

enum FFVmafPoolMethod {
    FF_VMAF_POOL_MIN,
    FF_VMAF_POOL_MAX,
    FF_VMAF_POOL_MEAN,
    FF_VMAF_POOL_HARMONIC_MEAN,
    FF_VMAF_POOL_NB
};

enum FFVmafLogFormat {
    FF_VMAF_LOG_XML,
    FF_VMAF_LOG_JSON,
    FF_VMAF_LOG_CSV,
    FF_VMAF_LOG_SUB,
    /**
     * Not libvmaf's: every value at full precision, for vmaf-merge to
     * write the log of a run scored in chunks (vmaf/chunk.h). The engine
     * writes it, not ff_vmaf_write_log().
     */
    FF_VMAF_LOG_CHUNK,
};

/** Exact, case-sensitive name lookup; -1 when unknown. */
int ff_vmaf_pool_method_from_name(const char *name);
const char *ff_vmaf_pool_method_name(enum FFVmafPoolMethod m);
int ff_vmaf_log_format_from_name(const char *name);

/**
 * Pool key_idx over frames first, first + step, ... < end that hold a
 * value (a whole run: 0, step, 2 * step...; a chunk: its own frames).
 * AVERROR(ENOENT) when none does.
 */
int ff_vmaf_pool(const FFVmafFeatureCollector *fc, int key_idx,
                 enum FFVmafPoolMethod method, unsigned first, unsigned end,
                 unsigned step, double *result);

typedef struct FFVmafLogInfo {
    int width, height;      ///< "qualityWidth/Height" in xml
    double fps;             ///< scoring speed, frames per second
    unsigned nb_frames;     ///< frames pushed
    unsigned step;          ///< n_subsample: only multiples are written
    const char *version;    ///< libvmaf version whose numbers are reproduced
    /**
     * Where features ran, when a GPU was used; NULL keeps the log
     * byte-identical to libvmaf's.
     */
    const char *backends;
    /**
     * How the frames were paired and what was left out, as fields libvmaf's
     * parsers skip; NULL (a run outside the filter) writes none.
     */
    const char *pairing_mode;
    const FFVmafPairingStats *pairing;
} FFVmafLogInfo;

/**
 * Write every key of fc, its pooled values and aggregates, libvmaf-style.
 * A failed write returns the AVERROR of its errno (ENOSPC, EPIPE...).
 */
int ff_vmaf_write_log(FILE *f, enum FFVmafLogFormat fmt,
                      const FFVmafFeatureCollector *fc,
                      const FFVmafLogInfo *info);

/** s as a JSON string, quoted and escaped. */
void ff_vmaf_write_json_string(FILE *f, const char *s);

/**
 * Print v as libvmaf does: "%.6f", or "%.16f" when the fraction is
 * non-zero but below 1e-6 (six or more zeros after the point).
 */
void ff_vmaf_format_value(char *buf, size_t size, double v);

#endif /* AVFILTER_VMAF_OUTPUT_H */
