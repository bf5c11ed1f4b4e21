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

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libavutil/cpu.h"

#include "checkasm.h"

int checkasm_bench;

static const struct {
    const char *name;
    void (*check)(void);
} dsps[] = {
    { "vif",    checkasm_check_vif    },
    { "adm",    checkasm_check_adm    },
    { "motion", checkasm_check_motion },
    { "ssim",   checkasm_check_ssim   },
    { "cambi",  checkasm_check_cambi  },
    { "float",  checkasm_check_float  },
    { "psnr_hvs", checkasm_check_psnr_hvs },
    { "ciede",  checkasm_check_ciede  },
    { "speed",  checkasm_check_speed  },
    { "picture", checkasm_check_picture },
};

static CheckasmTier tier_c      = { "c", 0 };
static CheckasmTier tier_avx2   = { "avx2" };
static CheckasmTier tier_avx512 = { "avx512" };
const CheckasmTier *checkasm_tiers[3];
int checkasm_nb_tiers;

static int nb_passed, nb_failed, cur_failed;
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

const int checkasm_widths[] = {
     1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,
    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
    33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
    49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,
    65, 95, 127, 129, 255, 333, 576, 719, 1023, 1920, 0
};

void *checkasm_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

uint32_t checkasm_rand(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

void checkasm_fill8(uint8_t *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = checkasm_rand();
}

void checkasm_fill16(uint16_t *buf, size_t n, int bits)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = checkasm_rand() & ((1u << bits) - 1);
}

size_t checkasm_first_diff(const void *a, const void *b, size_t n, size_t size)
{
    const uint8_t *pa = a, *pb = b;
    size_t i = 0;

    /* most calls find nothing: one memcmp() for those */
    if (!memcmp(a, b, n * size))
        return n;
    while (i < n && !memcmp(pa + i * size, pb + i * size, size))
        i++;
    return i;
}

void checkasm_out_alloc(CheckasmOut *o, size_t n, uint32_t pattern)
{
    o->c       = checkasm_malloc(n * sizeof(float));
    o->a       = checkasm_malloc(n * sizeof(float));
    o->n       = n;
    o->pattern = pattern;
}

void checkasm_out_free(CheckasmOut *o)
{
    free(o->c);
    free(o->a);
    o->c = o->a = NULL;
}

void checkasm_out_reset(const CheckasmOut *o)
{
    for (size_t i = 0; i < o->n; i++) {
        memcpy(o->c + i, &o->pattern, sizeof(float));
        memcpy(o->a + i, &o->pattern, sizeof(float));
    }
}

int checkasm_out_vcheck(const CheckasmOut *o, const char *dsp, const char *tier,
                        const char *func, size_t stride, int off, const char *fmt,
                        va_list ap)
{
    size_t i = checkasm_first_diff(o->c, o->a, o->n, sizeof(float));
    char what[256];

    if (i == o->n)
        return 0;
    vsnprintf(what, sizeof(what), fmt, ap);
    checkasm_fail(dsp, tier, func, "%s: row %zu [%d] = %.9g (%a), C %.9g (%a)",
                  what, i / stride, (int)(i % stride) - off,
                  o->a[i], o->a[i], o->c[i], o->c[i]);
    return 1;
}

int checkasm_out_check(const CheckasmOut *o, const char *dsp, const char *tier,
                       const char *func, size_t stride, int off, const char *fmt, ...)
{
    va_list ap;
    int ret;

    va_start(ap, fmt);
    ret = checkasm_out_vcheck(o, dsp, tier, func, stride, off, fmt, ap);
    va_end(ap);
    return ret;
}

void checkasm_init_tier(int t)
{
    av_force_cpu_flags(t < 0 ? -1 : checkasm_tiers[t]->cpu_flags);
}

void checkasm_fail(const char *dsp, const char *tier, const char *func,
                   const char *fmt, ...)
{
    va_list ap;
    /* The first few cases of a function say enough. */
    if (cur_failed++ < 3) {
        printf("FAIL %s %s %s: ", dsp, tier, func);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
}

void checkasm_report(const char *dsp, const char *tier, const char *func,
                     int nb_cases)
{
    if (cur_failed) {
        printf("FAIL %s %s %s: %d of %d cases differ from C\n",
               dsp, tier, func, cur_failed, nb_cases);
        nb_failed++;
    } else {
        printf("PASS %s %s %s (%d cases, bit-exact with C)\n", dsp, tier, func, nb_cases);
        nb_passed++;
    }
    cur_failed = 0;
}

int64_t checkasm_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void checkasm_bench_report(const char *dsp, const char *func, const char *what,
                           const char *tier, double ns, double c_ns)
{
    printf("BENCH %-7s %-26s %-16s %-7s %12.1f ns %7.2fx\n",
           dsp, func, what, tier, ns, c_ns / ns);
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    int cpu = av_get_cpu_flags();

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bench"))
            checkasm_bench = 1;
        else if (!strncmp(argv[i], "--seed=", 7))
            rng_state = strtoull(argv[i] + 7, NULL, 0) | 1;
        else if (!strncmp(argv[i], "--test=", 7))
            only = argv[i] + 7;
        else {
            fprintf(stderr, "usage: %s [--bench] [--seed=N] [--test=<dsp>]\ndsps:", argv[0]);
            for (size_t j = 0; j < sizeof(dsps) / sizeof(dsps[0]); j++)
                fprintf(stderr, " %s", dsps[j].name);
            fprintf(stderr, "\n");
            return 2;
        }
    }
    printf("seed: 0x%016" PRIx64 "\n", rng_state);

    checkasm_tiers[checkasm_nb_tiers++] = &tier_c;
    if (cpu & AV_CPU_FLAG_AVX2) {
        tier_avx2.cpu_flags = cpu & ~(AV_CPU_FLAG_AVX512 | AV_CPU_FLAG_AVX512ICL);
        checkasm_tiers[checkasm_nb_tiers++] = &tier_avx2;
    } else {
        printf("skipped: avx2 (this CPU has no AVX2)\n");
    }
    if (cpu & AV_CPU_FLAG_AVX512) {
        tier_avx512.cpu_flags = cpu;
        checkasm_tiers[checkasm_nb_tiers++] = &tier_avx512;
    } else {
        printf("skipped: avx512 (this CPU has no AVX-512)\n");
    }
    if (checkasm_bench)
        printf("BENCH %-7s %-26s %-16s %-7s %15s %8s\n",
               "dsp", "function", "case", "tier", "time/call", "vs C");

    for (size_t i = 0; i < sizeof(dsps) / sizeof(dsps[0]); i++) {
        if (only && strcmp(only, dsps[i].name))
            continue;
        dsps[i].check();
        checkasm_init_tier(-1);
    }
    printf("%d passed, %d failed\n", nb_passed, nb_failed);
    return nb_failed != 0;
}
