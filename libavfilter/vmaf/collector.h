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
 * Per-frame named values, in the order their names were first written.
 */

#ifndef AVFILTER_VMAF_COLLECTOR_H
#define AVFILTER_VMAF_COLLECTOR_H

typedef struct FFVmafFeatureCollector FFVmafFeatureCollector;

int  ff_vmaf_collector_alloc(FFVmafFeatureCollector **fc);
void ff_vmaf_collector_free(FFVmafFeatureCollector **fc);

/**
 * Store value under key for frame index. Safe to call from several threads.
 * Writing the same (key, index) twice is an error (AVERROR(EINVAL)).
 */
int ff_vmaf_collector_write(FFVmafFeatureCollector *fc, const char *key,
                            unsigned index, double value);

/** 0 and *value set, or AVERROR(ENOENT) when there is no such value. */
int ff_vmaf_collector_read(const FFVmafFeatureCollector *fc, const char *key,
                           unsigned index, double *value);

/** Number of distinct keys, and the i-th in first-write order. */
int ff_vmaf_collector_nb_keys(const FFVmafFeatureCollector *fc);
const char *ff_vmaf_collector_key(const FFVmafFeatureCollector *fc, int i);

/** Same as read, by key position; faster for writers walking every key. */
int ff_vmaf_collector_read_at(const FFVmafFeatureCollector *fc, int key_idx,
                              unsigned index, double *value);

/**
 * Pin key at the next free position so that logs list it there even if
 * another key is written first (libvmaf orders keys by registration).
 */
int ff_vmaf_collector_register(FFVmafFeatureCollector *fc, const char *key);

/**
 * Sequence-level values (libvmaf's "aggregate_metrics", e.g. apsnr_y),
 * kept in the order first set; setting a key again replaces its value.
 */
int ff_vmaf_collector_set_aggregate(FFVmafFeatureCollector *fc,
                                    const char *key, double value);
int ff_vmaf_collector_nb_aggregates(const FFVmafFeatureCollector *fc);
const char *ff_vmaf_collector_aggregate(const FFVmafFeatureCollector *fc,
                                        int i, double *value);

#endif /* AVFILTER_VMAF_COLLECTOR_H */
