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
#include <stdint.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"

#include "collector.h"

/* Frames per block of a key's value store; blocks keep earlier values in
 * place while later frames arrive, so readers never see them move. */
#define BLOCK_FRAMES 1024

typedef struct KeyValues {
    char    *key;
    uint64_t order;         ///< (step, rank) of the write that created it
    double **blocks;        ///< blocks[i] holds frames [i * BLOCK_FRAMES, ...)
    uint8_t **present;
    unsigned nb_blocks;
} KeyValues;

struct FFVmafFeatureCollector {
    KeyValues *keys;
    int nb_keys, keys_size;
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

void ff_vmaf_collector_free(FFVmafFeatureCollector **pfc)
{
    FFVmafFeatureCollector *fc = *pfc;
    if (!fc)
        return;
    for (int i = 0; i < fc->nb_keys; i++) {
        KeyValues *kv = &fc->keys[i];
        for (unsigned b = 0; b < kv->nb_blocks; b++) {
            av_free(kv->blocks[b]);
            av_free(kv->present[b]);
        }
        av_free(kv->blocks);
        av_free(kv->present);
        av_free(kv->key);
    }
    av_free(fc->keys);
    for (int i = 0; i < fc->nb_aggs; i++)
        av_free(fc->agg_keys[i]);
    av_free(fc->agg_keys);
    av_free(fc->agg_values);
    ff_mutex_destroy(&fc->lock);
    av_freep(pfc);
}

static int find_key(const FFVmafFeatureCollector *fc, const char *key)
{
    for (int i = 0; i < fc->nb_keys; i++)
        if (!strcmp(fc->keys[i].key, key))
            return i;
    return -1;
}

/*
 * Insert key after every key of an order up to its own: a sequential run
 * creates keys in (step, rank) order, and threads only reorder the writes
 * within a step. Keys move only here, under the lock, while no reader holds
 * a position (readers run between the engine's steps).
 */
static int add_key(FFVmafFeatureCollector *fc, const char *key, uint64_t order)
{
    KeyValues *kv;
    int pos;

    if (fc->nb_keys == fc->keys_size) {
        int size = fc->keys_size ? 2 * fc->keys_size : 32;
        KeyValues *keys = av_realloc_array(fc->keys, size, sizeof(*keys));
        if (!keys)
            return AVERROR(ENOMEM);
        fc->keys      = keys;
        fc->keys_size = size;
    }
    for (pos = fc->nb_keys; pos > 0 && fc->keys[pos - 1].order > order; pos--)
        ;
    kv = &fc->keys[pos];
    memmove(kv + 1, kv, (fc->nb_keys - pos) * sizeof(*kv));
    memset(kv, 0, sizeof(*kv));
    kv->order = order;
    if (!(kv->key = av_strdup(key))) {
        memmove(kv, kv + 1, (fc->nb_keys - pos) * sizeof(*kv));
        return AVERROR(ENOMEM);
    }
    fc->nb_keys++;
    return pos;
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

static int grow_blocks(KeyValues *kv, unsigned nb_blocks)
{
    double  **blocks;
    uint8_t **present;

    blocks = av_realloc_array(kv->blocks, nb_blocks, sizeof(*blocks));
    if (!blocks)
        return AVERROR(ENOMEM);
    kv->blocks = blocks;
    present = av_realloc_array(kv->present, nb_blocks, sizeof(*present));
    if (!present)
        return AVERROR(ENOMEM);
    kv->present = present;
    for (; kv->nb_blocks < nb_blocks; kv->nb_blocks++) {
        kv->blocks[kv->nb_blocks]  = av_malloc_array(BLOCK_FRAMES, sizeof(double));
        kv->present[kv->nb_blocks] = av_mallocz(BLOCK_FRAMES);
        if (!kv->blocks[kv->nb_blocks] || !kv->present[kv->nb_blocks]) {
            av_freep(&kv->blocks[kv->nb_blocks]);
            av_freep(&kv->present[kv->nb_blocks]);
            return AVERROR(ENOMEM);
        }
    }
    return 0;
}

int ff_vmaf_collector_write_ranked(FFVmafFeatureCollector *fc, const char *key,
                                   unsigned index, double value, int rank)
{
    unsigned block = index / BLOCK_FRAMES, slot = index % BLOCK_FRAMES;
    KeyValues *kv;
    int idx, ret = 0;

    ff_mutex_lock(&fc->lock);
    idx = find_key(fc, key);
    if (idx < 0)
        idx = add_key(fc, key, (uint64_t)fc->step << 32 | (uint32_t)FFMAX(rank, 0));
    if (idx < 0) {
        ret = idx;
        goto end;
    }
    kv = &fc->keys[idx];
    if (block >= kv->nb_blocks && (ret = grow_blocks(kv, block + 1)) < 0)
        goto end;
    if (kv->present[block][slot]) {
        ret = AVERROR(EINVAL);
        goto end;
    }
    kv->blocks[block][slot]  = value;
    kv->present[block][slot] = 1;
end:
    ff_mutex_unlock(&fc->lock);
    return ret;
}

int ff_vmaf_collector_write(FFVmafFeatureCollector *fc, const char *key,
                            unsigned index, double value)
{
    return ff_vmaf_collector_write_ranked(fc, key, index, value, INT_MAX);
}

static int read_locked(const FFVmafFeatureCollector *fc, int key_idx,
                       unsigned index, double *value)
{
    unsigned block = index / BLOCK_FRAMES, slot = index % BLOCK_FRAMES;
    const KeyValues *kv;

    if (key_idx < 0 || key_idx >= fc->nb_keys)
        return AVERROR(ENOENT);
    kv = &fc->keys[key_idx];
    if (block >= kv->nb_blocks || !kv->present[block][slot])
        return AVERROR(ENOENT);
    *value = kv->blocks[block][slot];
    return 0;
}

int ff_vmaf_collector_read_at(const FFVmafFeatureCollector *fc, int key_idx,
                              unsigned index, double *value)
{
    int ret;
    ff_mutex_lock((AVMutex *)&fc->lock);
    ret = read_locked(fc, key_idx, index, value);
    ff_mutex_unlock((AVMutex *)&fc->lock);
    return ret;
}

int ff_vmaf_collector_read(const FFVmafFeatureCollector *fc, const char *key,
                           unsigned index, double *value)
{
    int ret;
    /* One lock for both: a key created meanwhile would move the others. */
    ff_mutex_lock((AVMutex *)&fc->lock);
    ret = read_locked(fc, find_key(fc, key), index, value);
    ff_mutex_unlock((AVMutex *)&fc->lock);
    return ret;
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
        key = fc->keys[i].key;
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
