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
 * The choice of an AMD code object (amd_code.h).
 *
 * A clang offload bundle: the 24 bytes "__CLANG_OFFLOAD_BUNDLE__", the
 * number of entries (64-bit, little-endian), then for each its offset and
 * size in the bundle and the length of its ID (64-bit each), and the ID:
 * "hipv4-amdgcn-amd-amdhsa--gfx1201" (code object v4 and later; "hip-"
 * IDs are v2 and v3's, whose features read otherwise), "host-x86_64-..."
 * for the empty host entry.
 */

#include <string.h>

#include "libavutil/error.h"
#include "libavutil/macros.h"

#include "amd_code.h"

#define BUNDLE_MAGIC     "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_LEN 24
#define MAX_ENTRIES      4096
#define MAX_ID           1024

static uint64_t rl64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The target of a HIP bundle ID: what follows the triple, from "gfx". */
static const char *id_target(const uint8_t *id, size_t len, size_t *target_len)
{
    static const char prefix[] = "hipv4-amdgcn-amd-amdhsa-";
    size_t n = sizeof(prefix) - 1;

    if (len <= n || memcmp(id, prefix, n))
        return NULL;
    for (size_t i = n; i + 3 < len; i++)
        if (!memcmp(id + i, "gfx", 3)) {
            *target_len = len - i;
            return (const char *)id + i;
        }
    return NULL;
}

int ff_gpu_amd_codes(const uint8_t *b, size_t size, FFGpuAmdCode *codes, int max)
{
    uint64_t nb_entries;
    size_t pos = BUNDLE_MAGIC_LEN + 8;
    int nb = 0;

    if (!b || (size && size < pos) || memcmp(b, BUNDLE_MAGIC, BUNDLE_MAGIC_LEN))
        return AVERROR_INVALIDDATA;
    nb_entries = rl64(b + BUNDLE_MAGIC_LEN);
    if (nb_entries > MAX_ENTRIES)
        return AVERROR_INVALIDDATA;
    for (uint64_t e = 0; e < nb_entries; e++) {
        uint64_t offset, len, id_len;
        size_t target_len;
        const char *target;

        if (size && size - pos < 24)
            return AVERROR_INVALIDDATA;
        offset = rl64(b + pos);
        len    = rl64(b + pos + 8);
        id_len = rl64(b + pos + 16);
        pos   += 24;
        if (id_len > MAX_ID || (size && (size - pos < id_len || offset > size || len > size - offset)))
            return AVERROR_INVALIDDATA;
        target = id_target(b + pos, id_len, &target_len);
        if (target && len >= 4 && !memcmp(b + offset, "\x7f" "ELF", 4) && nb < max) {
            codes[nb].image = b + offset;
            codes[nb].size  = len;
            target_len = FFMIN(target_len, sizeof(codes[nb].target) - 1);
            memcpy(codes[nb].target, target, target_len);
            codes[nb].target[target_len] = 0;
            nb++;
        }
        pos += id_len;
    }
    return nb;
}

/* The processor of a target ID: its length, up to the features. */
static size_t processor_len(const char *target)
{
    return strcspn(target, ":");
}

const char *ff_gpu_amd_generic(const char *arch)
{
    /* LLVM's generic processors and their members (AMDGPUUsage): a prefix
     * and the length of the names it covers. */
    static const struct { const char *prefix; size_t len; const char *generic; } families[] = {
        { "gfx900", 6, "gfx9-generic"    }, { "gfx902", 6, "gfx9-generic" },
        { "gfx904", 6, "gfx9-generic"    }, { "gfx906", 6, "gfx9-generic" },
        { "gfx909", 6, "gfx9-generic"    }, { "gfx90c", 6, "gfx9-generic" },
        { "gfx94",  6, "gfx9-4-generic"  }, { "gfx950", 6, "gfx9-4-generic" },
        { "gfx101", 7, "gfx10-1-generic" }, { "gfx103", 7, "gfx10-3-generic" },
        { "gfx110", 7, "gfx11-generic"   }, { "gfx115", 7, "gfx11-generic" },
        { "gfx120", 7, "gfx12-generic"   },
    };
    size_t len;

    if (!arch)
        return NULL;
    len = processor_len(arch);
    for (int i = 0; i < FF_ARRAY_ELEMS(families); i++)
        if (len == families[i].len && !strncmp(arch, families[i].prefix, strlen(families[i].prefix)))
            return families[i].generic;
    return NULL;
}

/* Whether feature (name and sign, len bytes) is among arch's. */
static int has_feature(const char *arch, const char *feature, size_t len)
{
    for (const char *f = strchr(arch, ':'); f; f = strchr(f + 1, ':'))
        if (strcspn(f + 1, ":") == len && !memcmp(f + 1, feature, len))
            return 1;
    return 0;
}

/* -1 when the code's features do not fit the device's, else how many it
 * names (the more, the closer the fit). */
static int features_fit(const char *target, const char *arch)
{
    int n = 0;
    for (const char *f = strchr(target, ':'); f; f = strchr(f + 1, ':'), n++)
        if (!has_feature(arch, f + 1, strcspn(f + 1, ":")))
            return -1;
    return n;
}

static int pick_processor(const FFGpuAmdCode *codes, int nb, const char *processor,
                          size_t len, const char *arch)
{
    int best = -1, best_fit = -1;
    for (int i = 0; i < nb; i++) {
        int fit;
        if (processor_len(codes[i].target) != len || strncmp(codes[i].target, processor, len))
            continue;
        fit = features_fit(codes[i].target, arch);
        if (fit > best_fit) {
            best     = i;
            best_fit = fit;
        }
    }
    return best;
}

int ff_gpu_amd_pick(const FFGpuAmdCode *codes, int nb, const char *arch)
{
    const char *generic = ff_gpu_amd_generic(arch);
    int i;

    if (!arch || strncmp(arch, "gfx", 3))
        return -1;
    i = pick_processor(codes, nb, arch, processor_len(arch), arch);
    if (i < 0 && generic)
        i = pick_processor(codes, nb, generic, strlen(generic), arch);
    return i;
}

static int arch_char(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == ':' || c == '+' || c == '-';
}

int ff_gpu_amd_arch_in(const uint8_t *props, size_t size, char *arch, size_t arch_size)
{
    for (size_t i = 0; i + 4 < size; i++) {
        size_t n = 0;
        if ((i && props[i - 1]) || memcmp(props + i, "gfx", 3) || props[i + 3] < '0' || props[i + 3] > '9')
            continue;
        while (i + n < size && n < arch_size && arch_char(props[i + n]))
            n++;
        if (i + n < size && !props[i + n] && n < arch_size) {
            memcpy(arch, props + i, n);
            arch[n] = 0;
            return 0;
        }
    }
    return AVERROR(ENOENT);
}
