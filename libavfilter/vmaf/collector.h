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
 * Per-frame named values. Names are kept in the order a sequential run
 * creates them, whatever the threads: see ff_vmaf_collector_set_step().
 */

#ifndef AVFILTER_VMAF_COLLECTOR_H
#define AVFILTER_VMAF_COLLECTOR_H

#include <stdint.h>

typedef struct FFVmafFeatureCollector FFVmafFeatureCollector;

int  ff_vmaf_collector_alloc(FFVmafFeatureCollector **fc);
void ff_vmaf_collector_free(FFVmafFeatureCollector **fc);

/**
 * Store value under key for frame index. Safe to call from several threads.
 * Writing the same (key, index) twice is an error (AVERROR(EINVAL)).
 * A new key goes after every key of the current step, as if its writer
 * came after all ranked writers (the models after the features).
 */
int ff_vmaf_collector_write(FFVmafFeatureCollector *fc, const char *key,
                            unsigned index, double value);

/**
 * The same, for the writer of the given rank (the registration order of a
 * feature extractor). A new key is placed by (step, rank) among the others,
 * after the keys of the same step and rank, so that the order of the names
 * is that of a single-threaded run however the writers of a step
 * interleave.
 */
int ff_vmaf_collector_write_ranked(FFVmafFeatureCollector *fc, const char *key,
                                   unsigned index, double value, int rank);

/**
 * The same, in a given step (step < 0: the collector's): for writers that
 * run frames in parallel, each in the step of its own frame.
 */
int ff_vmaf_collector_write_at(FFVmafFeatureCollector *fc, const char *key,
                               unsigned index, double value, int rank, int64_t step);

/**
 * The step the next writes belong to: the frame whose push (extract, or a
 * GPU read-back of that frame) a single-threaded CPU run would write them
 * in, or the number of frames at the flush. Set by the engine while no
 * writer runs.
 */
void ff_vmaf_collector_set_step(FFVmafFeatureCollector *fc, unsigned step);
unsigned ff_vmaf_collector_get_step(const FFVmafFeatureCollector *fc);

/**
 * The handle of key: a small integer that stays valid as long as the
 * collector, created (placed as ff_vmaf_collector_write_at() places it)
 * when there is no such key yet. Writers resolve their keys once and then
 * write by handle, which takes no lock.
 */
int ff_vmaf_collector_handle(FFVmafFeatureCollector *fc, const char *key,
                             int rank, int64_t step);
/** The handle of an existing key, or AVERROR(ENOENT). */
int ff_vmaf_collector_find(const FFVmafFeatureCollector *fc, const char *key);
/** As ff_vmaf_collector_write(), by handle; safe from any thread. */
int ff_vmaf_collector_write_handle(FFVmafFeatureCollector *fc, int handle,
                                   unsigned index, double value);
/** As ff_vmaf_collector_read(), by handle. */
int ff_vmaf_collector_read_handle(const FFVmafFeatureCollector *fc, int handle,
                                  unsigned index, double *value);

/** 0 and *value set, or AVERROR(ENOENT) when there is no such value. */
int ff_vmaf_collector_read(const FFVmafFeatureCollector *fc, const char *key,
                           unsigned index, double *value);

/** Number of distinct keys, and the i-th in their order. */
int ff_vmaf_collector_nb_keys(const FFVmafFeatureCollector *fc);
const char *ff_vmaf_collector_key(const FFVmafFeatureCollector *fc, int i);

/** Same as read, by key position; faster for writers walking every key. */
int ff_vmaf_collector_read_at(const FFVmafFeatureCollector *fc, int key_idx,
                              unsigned index, double *value);

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
