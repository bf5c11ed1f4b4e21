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

/*
 * checkasm for the engine's dsp functions, in the manner of FFmpeg's
 * tests/checkasm: every SIMD version against the C version on random and
 * extreme inputs, bit-exact; --bench times a call of each.
 *
 * A test file provides checkasm_check_<dsp>(), listed in checkasm.c. For
 * each function it builds the C context and the one of every CPU tier
 * (checkasm_init_tier()), skips the tiers whose pointer is the C one, and
 * reports one result per function and tier with checkasm_report().
 */

#ifndef TESTS_CHECKASM_CHECKASM_H
#define TESTS_CHECKASM_CHECKASM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct CheckasmTier {
    const char *name;   ///< "c", "avx2", "avx512"
    int cpu_flags;      ///< what av_force_cpu_flags() is given for it
} CheckasmTier;

/** The tiers this CPU runs, C first. */
extern const CheckasmTier *checkasm_tiers[];
extern int checkasm_nb_tiers;

/**
 * Make av_get_cpu_flags() return the flags of tier t (0 = C only), for
 * the dsp init that follows; checkasm_init_tier(-1) restores the CPU's.
 */
void checkasm_init_tier(int t);

/** malloc(), or the program ends with "out of memory". */
void *checkasm_malloc(size_t n);

/**
 * Whether tier t's version fn of a function is its own (not the C one c_fn
 * the tier fell back to): only those are checked against C.
 */
static inline int checkasm_tier_differs(int t, const void *c_fn, const void *fn)
{
    return t > 0 && fn != c_fn;
}

/** Uniform 32-bit random numbers from the --seed given (or a fixed one). */
uint32_t checkasm_rand(void);
/** In [0, n). */
static inline int checkasm_rand_int(int n) { return (int)(checkasm_rand() % (unsigned)n); }

/**
 * A random misaligned start offset in bytes for samples of `bytes` bytes:
 * 1..31 for bytes, 2..30 (even) for 16-bit samples.
 */
static inline size_t checkasm_misalign(int bytes)
{
    return bytes == 1 ? 1 + checkasm_rand_int(31) : 2 * (1 + checkasm_rand_int(15));
}

/** Fill n bytes / 16-bit samples (of depth bits) with random values. */
void checkasm_fill8(uint8_t *buf, size_t n);
void checkasm_fill16(uint16_t *buf, size_t n, int bits);

/** Store v as sample i of a row of bytes-byte (1 or 2) samples. */
static inline void checkasm_put_sample(uint8_t *row, size_t i, int bytes, unsigned v)
{
    if (bytes == 1)
        row[i] = v;
    else
        ((uint16_t *)row)[i] = v;
}

/** The first of n elements of size bytes where a and b differ, or n. */
size_t checkasm_first_diff(const void *a, const void *b, size_t n, size_t size);

/**
 * The widths every test covers: 1..64, then odd and large ones.
 * checkasm_widths[] ends with 0.
 */
extern const int checkasm_widths[];

/** Whether --bench was given. */
extern int checkasm_bench;

/** Count one failure and print it: "FAIL <dsp> <tier> <function>: <why>". */
void checkasm_fail(const char *dsp, const char *tier, const char *func,
                   const char *fmt, ...);
/**
 * The result of one function on one tier: PASS unless checkasm_fail()
 * was called for it since the last report.
 */
void checkasm_report(const char *dsp, const char *tier, const char *func,
                     int nb_cases);

/**
 * Float outputs of the C version and of the tier's, n floats each: set to
 * a pattern no kernel writes before each case (checkasm_out_reset()) and
 * compared whole, bit for bit, after it (checkasm_out_check()), so that a
 * write past an output counts as much as a wrong value in it.
 */
typedef struct CheckasmOut {
    float *c, *a;
    size_t n;
    uint32_t pattern;   ///< the bits of every float after a reset
} CheckasmOut;

void checkasm_out_alloc(CheckasmOut *o, size_t n, uint32_t pattern);
void checkasm_out_free(CheckasmOut *o);
void checkasm_out_reset(const CheckasmOut *o);
/**
 * Whether the tier's outputs differ from C's. If they do, the case fails
 * with the text of fmt and where the first float that differs is: the
 * outputs taken as rows of stride floats, its row and its column less off
 * (where the function's output starts in its row).
 */
int checkasm_out_check(const CheckasmOut *o, const char *dsp, const char *tier,
                       const char *func, size_t stride, int off, const char *fmt, ...);
int checkasm_out_vcheck(const CheckasmOut *o, const char *dsp, const char *tier,
                        const char *func, size_t stride, int off, const char *fmt,
                        va_list ap);

/** Nanoseconds of the monotonic clock. */
int64_t checkasm_now_ns(void);
/**
 * For --bench: one line of the table, the time per call of the C version
 * and of this tier's.
 */
void checkasm_bench_report(const char *dsp, const char *func, const char *what,
                           const char *tier, double ns_per_call, double c_ns_per_call);

/**
 * Time a statement: runs it until about 20 ms have passed, and sets ns to
 * the time per run.
 */
#define CHECKASM_TIME(ns, stmt) do {                                    \
        int64_t t0_ = checkasm_now_ns(), t1_;                           \
        long n_ = 0;                                                    \
        do {                                                            \
            for (int i_ = 0; i_ < 4; i_++) { stmt; }                    \
            n_ += 4;                                                    \
            t1_ = checkasm_now_ns();                                    \
        } while (t1_ - t0_ < 20000000);                                 \
        (ns) = (double)(t1_ - t0_) / n_;                                \
    } while (0)

void checkasm_check_vif(void);
void checkasm_check_adm(void);
void checkasm_check_motion(void);
void checkasm_check_ssim(void);
void checkasm_check_cambi(void);
void checkasm_check_float(void);
void checkasm_check_psnr_hvs(void);
void checkasm_check_ciede(void);
void checkasm_check_speed(void);
void checkasm_check_picture(void);

#endif /* TESTS_CHECKASM_CHECKASM_H */
