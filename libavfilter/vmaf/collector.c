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


#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"

#include "collector.h"

/*
 * Values are stored per key in blocks of BLOCK_FRAMES frames, found through
 * a table of MAX_BLOCKS block pointers allocated with the key, so that the
 * table never moves: writers and readers of values take no lock (a block is
 * published with a release store, a value with its present flag). Only the
 * creation of a key, and of a block, takes the lock.
 *
 * A key is known by its handle, the order of its creation, which never
 * changes; the order the logs list keys in, sorted[], is a separate
 * permutation of the handles.
 */
#define BLOCK_FRAMES 1024
#define MAX_BLOCKS   8192   /* 8.4 million frames: 3.9 days at 25 fps */
#define MAX_KEYS     1024

typedef struct ValueBlock {
    double value[BLOCK_FRAMES];
    atomic_uchar present[BLOCK_FRAMES];
} ValueBlock;

typedef struct KeyValues {
    char    *key;
    uint64_t order;         ///< (step, rank) of the write that created it
    ValueBlock *_Atomic *blocks;
} KeyValues;

struct FFVmafFeatureCollector {
    KeyValues *keys[MAX_KEYS];  ///< by handle
    int sorted[MAX_KEYS];       ///< handles in the logs' order
    int nb_keys;
    char  **agg_keys;
    double *agg_values;
    int nb_aggs;
    unsigned step;
    AVMutex lock;
};

int ff_vmaf_collector_alloc(FFVmafFeatureCollector **pfc)
{
    FFVmafFeatureCollector *fc = av_mallocz(sizeof(*fc));
    if (!fc)
        return AVERROR(ENOMEM);
    if (ff_mutex_init(&fc->lock, NULL)) {
        av_free(fc);
        return AVERROR(ENOMEM);
    }
    *pfc = fc;
    return 0;
}

static void free_key(KeyValues **pkv)
{
    KeyValues *kv = *pkv;
    if (!kv)
        return;
    if (kv->blocks)
        for (int b = 0; b < MAX_BLOCKS; b++)
            av_free(atomic_load_explicit(&kv->blocks[b], memory_order_relaxed));
    av_free((void *)kv->blocks);
    av_free(kv->key);
    av_freep(pkv);
}

void ff_vmaf_collector_free(FFVmafFeatureCollector **pfc)
{
    FFVmafFeatureCollector *fc = *pfc;
    if (!fc)
        return;
    for (int i = 0; i < fc->nb_keys; i++)
        free_key(&fc->keys[i]);
    for (int i = 0; i < fc->nb_aggs; i++)
        av_free(fc->agg_keys[i]);
    av_free(fc->agg_keys);
    av_free(fc->agg_values);
    ff_mutex_destroy(&fc->lock);
    av_freep(pfc);
}

static int find_locked(const FFVmafFeatureCollector *fc, const char *key)
{
    for (int i = 0; i < fc->nb_keys; i++)
        if (!strcmp(fc->keys[i]->key, key))
            return i;
    return AVERROR(ENOENT);
}

/*
 * A new key goes after every key whose order is lower or equal: keys of
 * earlier steps first, then by rank, and in creation order for equal
 * (step, rank) (several outputs of one extractor).
 */
static int add_key(FFVmafFeatureCollector *fc, const char *key, uint64_t order)
{
    KeyValues *kv;
    int pos, h = fc->nb_keys;

    if (h == MAX_KEYS)
        return AVERROR(ENOSPC);
    if (!(kv = av_mallocz(sizeof(*kv))) ||
        !(kv->key = av_strdup(key)) ||
        !(kv->blocks = av_calloc(MAX_BLOCKS, sizeof(*kv->blocks)))) {
        free_key(&kv);
        return AVERROR(ENOMEM);
    }
    kv->order = order;
    for (pos = h; pos > 0 && fc->keys[fc->sorted[pos - 1]]->order > order; pos--)
        fc->sorted[pos] = fc->sorted[pos - 1];
    fc->sorted[pos] = h;
    fc->keys[h] = kv;
    fc->nb_keys++;
    return h;
}

void ff_vmaf_collector_set_step(FFVmafFeatureCollector *fc, unsigned step)
{
    ff_mutex_lock(&fc->lock);
    fc->step = step;
    ff_mutex_unlock(&fc->lock);
}

unsigned ff_vmaf_collector_get_step(const FFVmafFeatureCollector *fc)
{
    unsigned step;
    ff_mutex_lock((AVMutex *)&fc->lock);
    step = fc->step;
    ff_mutex_unlock((AVMutex *)&fc->lock);
    return step;
}

/*
 * Key h was first written by a later frame than this write's: frames run
 * in parallel, so it takes the place the earliest write gives it, as in a
 * sequential run. (Every frame's first write of a name comes here: a
 * writer resolves a name once, and each writer sees frames in order.)
 */
static void move_key(FFVmafFeatureCollector *fc, int h, uint64_t order)
{
    int pos, to;
    for (pos = 0; fc->sorted[pos] != h; pos++)
        ;
    for (; pos + 1 < fc->nb_keys; pos++)
        fc->sorted[pos] = fc->sorted[pos + 1];
    for (to = fc->nb_keys - 1; to > 0 && fc->keys[fc->sorted[to - 1]]->order > order; to--)
        fc->sorted[to] = fc->sorted[to - 1];
    fc->sorted[to] = h;
    fc->keys[h]->order = order;
}

int ff_vmaf_collector_handle(FFVmafFeatureCollector *fc, const char *key,
                             int rank, int64_t step)
{
    uint64_t order;
    int h;
    ff_mutex_lock(&fc->lock);
    order = (uint64_t)(step >= 0 ? (unsigned)step : fc->step) << 32 | (uint32_t)FFMAX(rank, 0);
    h = find_locked(fc, key);
    if (h < 0)
        h = add_key(fc, key, order);
    else if (order < fc->keys[h]->order)
        move_key(fc, h, order);
    ff_mutex_unlock(&fc->lock);
    return h;
}

int ff_vmaf_collector_find(const FFVmafFeatureCollector *fc, const char *key)
{
    int h;
    ff_mutex_lock((AVMutex *)&fc->lock);
    h = find_locked(fc, key);
    ff_mutex_unlock((AVMutex *)&fc->lock);
    return h;
}

/* Handles are published under the lock; a handle a caller holds is valid. */
static KeyValues *key_of(const FFVmafFeatureCollector *fc, int h)
{
    KeyValues *kv;
    if (h < 0 || h >= MAX_KEYS)
        return NULL;
    ff_mutex_lock((AVMutex *)&fc->lock);
    kv = h < fc->nb_keys ? fc->keys[h] : NULL;
    ff_mutex_unlock((AVMutex *)&fc->lock);
    return kv;
}

int ff_vmaf_collector_write_handle(FFVmafFeatureCollector *fc, int h,
                                   unsigned index, double value)
{
    unsigned block = index / BLOCK_FRAMES, slot = index % BLOCK_FRAMES;
    KeyValues *kv = h >= 0 && h < MAX_KEYS ? fc->keys[h] : NULL;
    ValueBlock *b;

    /* keys[h] was stored under the lock before the handle was handed out,
     * and the handle reached this thread through that lock or after it. */
    if (!kv)
        return AVERROR(EINVAL);
    if (block >= MAX_BLOCKS)
        return AVERROR(ENOSPC);
    b = atomic_load_explicit(&kv->blocks[block], memory_order_acquire);
    if (!b) {
        ff_mutex_lock(&fc->lock);
        b = atomic_load_explicit(&kv->blocks[block], memory_order_relaxed);
        if (!b && (b = av_mallocz(sizeof(*b))))
            atomic_store_explicit(&kv->blocks[block], b, memory_order_release);
        ff_mutex_unlock(&fc->lock);
        if (!b)
            return AVERROR(ENOMEM);
    }
    if (atomic_load_explicit(&b->present[slot], memory_order_relaxed))
        return AVERROR(EINVAL);
    b->value[slot] = value;
    atomic_store_explicit(&b->present[slot], 1, memory_order_release);
    return 0;
}

int ff_vmaf_collector_read_handle(const FFVmafFeatureCollector *fc, int h,
                                  unsigned index, double *value)
{
    unsigned block = index / BLOCK_FRAMES, slot = index % BLOCK_FRAMES;
    KeyValues *kv = key_of(fc, h);
    ValueBlock *b;

    if (!kv || block >= MAX_BLOCKS)
        return AVERROR(ENOENT);
    b = atomic_load_explicit(&kv->blocks[block], memory_order_acquire);
    if (!b || !atomic_load_explicit(&b->present[slot], memory_order_acquire))
        return AVERROR(ENOENT);
    *value = b->value[slot];
    return 0;
}

int ff_vmaf_collector_write_at(FFVmafFeatureCollector *fc, const char *key,
                               unsigned index, double value, int rank, int64_t step)
{
    int h = ff_vmaf_collector_handle(fc, key, rank, step);
    return h < 0 ? h : ff_vmaf_collector_write_handle(fc, h, index, value);
}

int ff_vmaf_collector_write_ranked(FFVmafFeatureCollector *fc, const char *key,
                                   unsigned index, double value, int rank)
{
    return ff_vmaf_collector_write_at(fc, key, index, value, rank, -1);
}

int ff_vmaf_collector_write(FFVmafFeatureCollector *fc, const char *key,
                            unsigned index, double value)
{
    return ff_vmaf_collector_write_ranked(fc, key, index, value, INT_MAX);
}

int ff_vmaf_collector_read_at(const FFVmafFeatureCollector *fc, int key_idx,
                              unsigned index, double *value)
{
    int h = -1;
    ff_mutex_lock((AVMutex *)&fc->lock);
    if (key_idx >= 0 && key_idx < fc->nb_keys)
        h = fc->sorted[key_idx];
    ff_mutex_unlock((AVMutex *)&fc->lock);
    return ff_vmaf_collector_read_handle(fc, h, index, value);
}

int ff_vmaf_collector_read(const FFVmafFeatureCollector *fc, const char *key,
                           unsigned index, double *value)
{
    return ff_vmaf_collector_read_handle(fc, ff_vmaf_collector_find(fc, key), index, value);
}

int ff_vmaf_collector_nb_keys(const FFVmafFeatureCollector *fc)
{
    int n;
    ff_mutex_lock((AVMutex *)&fc->lock);
    n = fc->nb_keys;
    ff_mutex_unlock((AVMutex *)&fc->lock);
    return n;
}

const char *ff_vmaf_collector_key(const FFVmafFeatureCollector *fc, int i)
{
    const char *key = NULL;
    ff_mutex_lock((AVMutex *)&fc->lock);
    if (i >= 0 && i < fc->nb_keys)
        key = fc->keys[fc->sorted[i]]->key;
    ff_mutex_unlock((AVMutex *)&fc->lock);
    return key;
}

int ff_vmaf_collector_set_aggregate(FFVmafFeatureCollector *fc,
                                    const char *key, double value)
{
    int i, ret = 0;

    ff_mutex_lock(&fc->lock);
    for (i = 0; i < fc->nb_aggs; i++)
        if (!strcmp(fc->agg_keys[i], key))
            break;
    if (i == fc->nb_aggs) {
        char  **keys   = av_realloc_array(fc->agg_keys, i + 1, sizeof(*keys));
        double *values;
        if (!keys) {
            ret = AVERROR(ENOMEM);
            goto end;
        }
        fc->agg_keys = keys;
        values = av_realloc_array(fc->agg_values, i + 1, sizeof(*values));
        if (!values) {
            ret = AVERROR(ENOMEM);
            goto end;
        }
        fc->agg_values = values;
        if (!(fc->agg_keys[i] = av_strdup(key))) {
            ret = AVERROR(ENOMEM);
            goto end;
        }
        fc->nb_aggs++;
    }
    fc->agg_values[i] = value;
end:
    ff_mutex_unlock(&fc->lock);
    return ret;
}

int ff_vmaf_collector_nb_aggregates(const FFVmafFeatureCollector *fc)
{
    return fc->nb_aggs;
}

const char *ff_vmaf_collector_aggregate(const FFVmafFeatureCollector *fc,
                                        int i, double *value)
{
    if (i < 0 || i >= fc->nb_aggs)
        return NULL;
    *value = fc->agg_values[i];
    return fc->agg_keys[i];
}
