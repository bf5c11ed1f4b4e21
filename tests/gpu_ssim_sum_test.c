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
 * The SSIM family's exact sums on the GPU (ssim.hip's prefix, rows and scan
 * kernels over ssim_sum.h) against the host's sequential double sum, in the
 * manner of checkasm: terms made to be hard rather than pictures. S that
 * crosses a binade at every term, up and down; S passing through 0; sums
 * that are ties at every term; terms of every magnitude (models out of
 * reach, subnormal S); NaN and infinities; crossings at row ends; sizes
 * around the scan's serial start and its window; and approximate row sums
 * that are exact, slightly off, zero or garbage (they are only guesses: the
 * sums must not depend on them). A real-sized layout of MS-SSIM's five
 * scales checks the kernels' job indexing. Every sum must have the host's
 * bits (NaN: be NaN).
 *
 * On the host first, everywhere: ssim_sum.h's rounding against floor and
 * fraction, and its models against the sequential sum.
 *
 * Usage: gpu_ssim_sum_test [seed]
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/features/gpu/ssim_sum.h"
#include "libavfilter/vmaf/gpu/code_object.h"
#include "libavfilter/vmaf/gpu/gpu_runtime.h"

extern const FFVmafGpuCode ff_vmaf_gpu_code_ssim;

/* Block sizes of the sum kernels (ssim.hip, as ssim_gpu.c launches them). */
#define PREFIX_THREADS 1024
#define ROWS_THREADS   128
#define SCAN_THREADS   1024

enum Terms { T_SSIM, T_SIGNS, T_HOVER, T_HOVER_SMALL, T_ZERO_RETURNS, T_WIDE, T_TINY,
             T_ONES, T_TIES, T_NAN, T_INF, T_INF_BOTH, NB_TERMS };
static const char *const terms_name[NB_TERMS] = {
    "ssim-like", "signs", "hover 1024", "hover 256", "returns to 0", "wide range",
    "tiny", "ones", "ties", "NaN", "+inf", "+inf and -inf",
};

enum Approx { A_EXACT, A_OFF, A_ZERO, A_GARBAGE, NB_APPROX };
static const char *const approx_name[NB_APPROX] = { "exact", "off", "zero", "garbage" };

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Uniform in [0, 1). */
static double uni(void)
{
    return (rng() >> 11) * (1.0 / 9007199254740992.0);
}

static void make_terms(double *t, size_t n, enum Terms kind)
{
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case T_SSIM:       t[i] = 0.55 + 0.45 * uni();                          break;
        case T_SIGNS:      t[i] = 2.0 * uni() - 1.0;                            break;
        /* S = 1023.5, then 1024.5, 1023.5, ...: a crossing at every term. */
        case T_HOVER:      t[i] = !i ? 1023.5 : (i & 1) ? 1.0 : -1.0;           break;
        case T_HOVER_SMALL: t[i] = !i ? 255.75 : (i & 1) ? 0.5 : -0.5;          break;
        /* Pairs that bring S back to exactly 0 (no binade to model). */
        case T_ZERO_RETURNS: t[i] = (i & 1) ? -t[i - 1] : ldexp(1.0 + uni(), (int)(rng() % 40) - 20); break;
        /* Magnitudes 2^-60..2^60 of both signs: terms far too large for
         * S's unit (models out of reach) and far too small to move it. */
        case T_WIDE:       t[i] = ldexp(uni() + 0.5, (int)(rng() % 121) - 60) * (rng() & 1 ? 1 : -1); break;
        /* S in subnormal and tiny binades, which get no model. */
        case T_TINY:       t[i] = ldexp(uni(), -1000 - (int)(rng() % 60));       break;
        /* S reaches each power of two exactly, some at the end of a row. */
        case T_ONES:       t[i] = 1.0;                                          break;
        /* S near 2^40 (a unit u of 2^-12), terms odd multiples of u / 2:
         * every sum is a tie, rounded to even. */
        case T_TIES:       t[i] = !i ? 0x1.0004p40 : ldexp(2.0 * (rng() % 4096) + 1, -13) * (rng() % 3 ? 1 : -1); break;
        default:           t[i] = 0.5 + 0.5 * uni();                            break;
        }
    }
    if (kind == T_NAN)
        t[rng() % n] = NAN;
    if (kind == T_INF || kind == T_INF_BOTH)
        t[rng() % n] = INFINITY;
    if (kind == T_INF_BOTH)
        t[rng() % n] = -INFINITY;
}

typedef struct Case {
    int nb_scales, nb_sums;
    int ow[FF_SSIM_SUM_SCALES], oh[FF_SSIM_SUM_SCALES];
    enum Terms terms;
    enum Approx approx;
} Case;

typedef struct Gpu {
    FFGpu *g;
    FFGpuFunction prefix, rows, scan;
} Gpu;

/* The host's sum, in the CPU's order. */
static double host_sum(const double *t, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += t[i];
    return s;
}

static int same(double a, double b)
{
    FFSsimSumBits x = { .d = a }, y = { .d = b };
    return (isnan(a) && isnan(b)) || x.i == y.i;
}

/* Run one case: 1 passed, 0 failed, < 0 on a GPU error. */
static int run_case(Gpu *gpu, const Case *c)
{
    FFSsimSumLayout L = { .nb_scales = c->nb_scales, .nb_sums = c->nb_sums };
    double *terms[FF_SSIM_SUM_SCALES] = { NULL }, *approx = NULL;
    double want[FF_SSIM_SUM_SCALES * 4], got[FF_SSIM_SUM_SCALES * 4];
    FFGpuPtr dev[FF_SSIM_SUM_SCALES][4] = { { 0 } }, out = 0;
    int jobs = c->nb_scales * c->nb_sums, total_rows = 0, ok = 1, ret = 0;

    for (int i = 0; i < c->nb_scales; i++) {
        const int ow = c->ow[i], oh = c->oh[i], ncx = (ow + FF_SSIM_SUM_CHUNK - 1) / FF_SSIM_SUM_CHUNK;
        const size_t n = (size_t)ow * oh;

        L.ow[i]  = ow;
        L.oh[i]  = oh;
        L.ncx[i] = ncx;
        total_rows += c->nb_sums * oh;
        if (!(terms[i] = av_malloc_array(c->nb_sums * n, sizeof(double))) ||
            !(approx = av_realloc_f(approx, (size_t)c->nb_sums * oh * ncx, sizeof(double)))) {
            ret = -1;
            goto end;
        }
        for (int m = 0; m < c->nb_sums; m++) {
            const double *t = terms[i] + m * n;
            make_terms(terms[i] + m * n, n, c->terms);
            want[i * c->nb_sums + m] = host_sum(t, n);
            for (int y = 0; y < oh; y++) {
                for (int cx = 0; cx < ncx; cx++) {
                    double *a = &approx[((size_t)m * oh + y) * ncx + cx], r = 0.0;
                    for (int x = cx * FF_SSIM_SUM_CHUNK; x < FFMIN(ow, (cx + 1) * FF_SSIM_SUM_CHUNK); x++)
                        r += t[(size_t)y * ow + x];
                    switch (c->approx) {
                    case A_EXACT:   *a = r;                                          break;
                    case A_OFF:     *a = r * (1.0 + ldexp(uni() - 0.5, -18));        break;
                    case A_ZERO:    *a = 0.0;                                        break;
                    case A_GARBAGE: *a = ldexp(uni() - 0.5, (int)(rng() % 64) - 32); break;
                    default:        break;
                    }
                }
            }
        }
        if (ff_gpu_malloc(gpu->g, &dev[i][0], c->nb_sums * n * sizeof(double)) < 0 ||
            ff_gpu_malloc(gpu->g, &dev[i][1], (size_t)c->nb_sums * oh * ncx * sizeof(double)) < 0 ||
            ff_gpu_malloc(gpu->g, &dev[i][2], (size_t)c->nb_sums * oh * sizeof(double)) < 0 ||
            ff_gpu_malloc(gpu->g, &dev[i][3], (size_t)c->nb_sums * oh * sizeof(FFSsimModel)) < 0 ||
            ff_gpu_upload(gpu->g, dev[i][0], terms[i], c->nb_sums * n * sizeof(double), NULL) < 0 ||
            ff_gpu_upload(gpu->g, dev[i][1], approx, (size_t)c->nb_sums * oh * ncx * sizeof(double),
                          NULL) < 0 ||
            /* The host's buffers are filled again for the next scale. */
            ff_gpu_stream_sync(gpu->g, NULL) < 0) {
            ret = -1;
            goto end;
        }
        L.terms[i]  = dev[i][0];
        L.approx[i] = dev[i][1];
        L.start[i]  = dev[i][2];
        L.rows[i]   = dev[i][3];
    }
    {
        void *largs[] = { &L };
        void *sargs[] = { &L, &out };
        if (ff_gpu_malloc(gpu->g, &out, jobs * sizeof(double)) < 0 ||
            ff_gpu_launch(gpu->g, gpu->prefix, "vmaf_ssim_prefix", jobs, 1, PREFIX_THREADS, 1,
                          NULL, largs) < 0 ||
            ff_gpu_launch(gpu->g, gpu->rows, "vmaf_ssim_rows", total_rows, 1, ROWS_THREADS, 1,
                          NULL, largs) < 0 ||
            ff_gpu_launch(gpu->g, gpu->scan, "vmaf_ssim_scan", jobs, 1, SCAN_THREADS, 1,
                          NULL, sargs) < 0 ||
            ff_gpu_download(gpu->g, got, out, jobs * sizeof(double), NULL) < 0 ||
            ff_gpu_stream_sync(gpu->g, NULL) < 0) {
            ret = -1;
            goto end;
        }
    }
    for (int j = 0; j < jobs; j++) {
        if (!same(want[j], got[j])) {
            printf("FAIL %s, approximate sums %s, scale %d (%dx%d) sum %d: GPU %.17g, host %.17g\n",
                   terms_name[c->terms], approx_name[c->approx], j / c->nb_sums,
                   c->ow[j / c->nb_sums], c->oh[j / c->nb_sums], j % c->nb_sums, got[j], want[j]);
            ok = 0;
        }
    }
    if (ok) {
        printf("PASS %s, approximate sums %s, %d scale(s) from %dx%d, %d sum(s): %.17g",
               terms_name[c->terms], approx_name[c->approx], c->nb_scales, c->ow[0], c->oh[0],
               c->nb_sums, want[0]);
        printf("%s\n", jobs > 1 ? " ..." : "");
    }
    ret = ok;
end:
    for (int i = 0; i < c->nb_scales; i++) {
        av_freep(&terms[i]);
        for (int k = 0; k < 4; k++)
            ff_gpu_free(gpu->g, &dev[i][k]);
    }
    ff_gpu_free(gpu->g, &out);
    av_freep(&approx);
    return ret;
}

/* One scale of ow x oh positions: counts the case, < 0 on a GPU error. */
static int run_scale(Gpu *gpu, int ow, int oh, int nb_sums, enum Terms terms,
                     enum Approx approx, int *passed, int *failed)
{
    const Case c = { .nb_scales = 1, .nb_sums = nb_sums, .ow = { ow }, .oh = { oh },
                     .terms = terms, .approx = approx };
    const int ret = run_case(gpu, &c);

    if (ret > 0)
        (*passed)++;
    else if (!ret)
        (*failed)++;
    return ret;
}

/* ---- on the host: ssim_sum.h's rounding and models, which the kernels use ---- */

/* x / u rounded for each parity of a, by floor and fraction: the reference. */
static int round_ref(double x, double inv, int64_t r[2])
{
    const double t = x * inv, fq = floor(t), f = t - fq;
    int64_t q;

    if (!(fabs(t) < 9007199254740992.0))
        return 0;
    q    = (int64_t)fq;
    r[0] = q + (f > 0.5 || (f == 0.5 && (q & 1)));
    r[1] = q + (f > 0.5 || (f == 0.5 && !(q & 1)));
    return 1;
}

/* A term for S in the binade of exponent e: of many magnitudes, or a tie. */
static double some_term(int e)
{
    switch (rng() % 4) {
    case 0:  return ldexp(2.0 * (double)(rng() % (1 << 20)) + 1, e - 53) * (rng() & 1 ? 1 : -1);
    case 1:  return ldexp(uni(), e - (int)(rng() % 60)) * (rng() & 1 ? 1 : -1);
    case 2:  return ldexp((double)(rng() % 8), e - 53 + (int)(rng() % 4));
    default: return ldexp(uni() - 0.5, e - 1 - (int)(rng() % 4));
    }
}

/*
 * ff_ssim_sum_round() against the reference at ties, near 2^51 and 2^53
 * and elsewhere; then models of runs of terms, built term by term and in
 * two composed parts: applied at S, a model must say it fits exactly when
 * every partial sum of the sequential double sum stays strictly inside
 * S's binade with S's sign, and then give that sum's bits.
 */
static void host_checks(int *passed, int *failed)
{
    int bad_round = 0, bad_model = 0, fitting = 0;
    const int nb_round = 200000, nb_models = 20000;

    for (int i = 0; i < nb_round; i++) {
        const int e = (int)(rng() % 200) - 100;
        const double inv = ldexp(1.0, 52 - e);
        int64_t r[2] = { 0 }, w[2] = { 0 };
        double x = some_term(e);
        int a, b;

        if (i % 5 == 0) /* t next to 2^51 and 2^53, in halves */
            x = ldexp((i % 3 ? 2251799813685248.0 : 9007199254740992.0) +
                      ((double)(rng() % 9) - 4) / 2, e - 52) * (rng() & 1 ? 1 : -1);
        a = ff_ssim_sum_round(x, inv, r);
        b = round_ref(x, inv, w);
        if (a != b || (a && (r[0] != w[0] || r[1] != w[1]))) {
            if (bad_round++ < 3)
                printf("FAIL ff_ssim_sum_round(%a, 2^%d): %d %" PRId64 " %" PRId64 ", want %d %" PRId64
                       " %" PRId64 "\n", x, 52 - e, a, r[0], r[1], b, w[0], w[1]);
        }
    }
    for (int i = 0; i < nb_models; i++) {
        const int e = (int)(rng() % 200) - 100, n = 1 + (int)(rng() % 40), cut = (int)(rng() % (n + 1));
        const double u = ldexp(1.0, e - 52), inv = ldexp(1.0, 52 - e);
        const int key = e + 1024;
        double t[40], s = ldexp(1.0 + uni(), e) * (rng() & 1 ? 1 : -1), seq;
        FFSsimModel whole, part;
        int64_t a = (int64_t)(s * inv);
        int inside = 1, fits, neg = s < 0;

        for (int k = 0; k < n; k++)
            t[k] = rng() % 8 ? some_term(e - (int)(rng() % 8)) : some_term(e + 1);
        if (i % 4 == 0) {
            /* At an edge of the binade, by steps of u / 2: partial sums on it. */
            const double edge = i % 8 ? ldexp(1.0, e) + (double)(1 + rng() % 8) * u
                                      : ldexp(2.0, e) - (double)(1 + rng() % 8) * u;
            s = neg ? -edge : edge;
            for (int k = 0; k < n; k++)
                t[k] = ((double)(rng() % 9) - 4) * 0.5 * u;
            a = (int64_t)(s * inv);
        }
        seq = s;
        for (int k = 0; k < n; k++) {
            seq += t[k];
            inside &= (neg ? -seq : seq) > ldexp(1.0, e) && (neg ? -seq : seq) < ldexp(1.0, e + 1);
        }
        ff_ssim_sum_empty(&whole, key);
        ff_ssim_sum_empty(&part, key);
        for (int k = 0; k < n; k++)
            ff_ssim_sum_push(&whole, t[k], inv);
        {
            FFSsimModel head, tail;
            ff_ssim_sum_empty(&head, key);
            ff_ssim_sum_empty(&tail, key);
            for (int k = 0; k < cut; k++)
                ff_ssim_sum_push(&head, t[k], inv);
            for (int k = cut; k < n; k++)
                ff_ssim_sum_push(&tail, t[k], inv);
            part = head;
            ff_ssim_sum_compose(&part, &tail);
        }
        fits = ff_ssim_sum_fits(&whole, a, neg);
        fitting += fits;
        if (fits != inside || ff_ssim_sum_fits(&part, a, neg) != fits ||
            (fits && ((double)ff_ssim_sum_add(a, FF_SSIM_SUM_SEL(whole.q, a & 1)) * u != seq ||
                      memcmp(whole.q, part.q, sizeof(whole.q)) ||
                      memcmp(whole.mn, part.mn, sizeof(whole.mn)) ||
                      memcmp(whole.mx, part.mx, sizeof(whole.mx))))) {
            if (bad_model++ < 3)
                printf("FAIL model of %d terms at S = %a (cut at %d): fits %d, inside %d\n",
                       n, s, cut, fits, inside);
        }
    }
    if (bad_round)
        (*failed)++;
    else
        (*passed)++;
    printf("%s ff_ssim_sum_round: %d arguments, %d differ from floor and fraction\n",
           bad_round ? "FAIL" : "PASS", nb_round, bad_round);
    if (bad_model)
        (*failed)++;
    else
        (*passed)++;
    printf("%s models: %d runs of terms (%d fit), %d wrong\n",
           bad_model ? "FAIL" : "PASS", nb_models, fitting, bad_model);
}

int main(int argc, char **argv)
{
    /* (ow, oh) of one scale: the 1080p and 4K window positions, sizes
     * around the serial start (1,024 and 2,048 terms) and the scan's
     * window (1,024 rows), single rows and columns. */
    static const int sizes[][2] = {
        { 1910, 1070 }, { 470, 260 }, { 64, 64 }, { 100, 40 }, { 1, 3000 }, { 3000, 1 },
        { 32, 32 }, { 32, 64 }, { 1023, 2 }, { 7, 293 }, { 33, 1500 }, { 1, 1 },
    };
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
    int passed = 0, failed = 0, ret;
    FFGpuModule mod;
    Gpu gpu = { NULL };
    Case c;

    rng_state = seed ? seed : 1;
    host_checks(&passed, &failed);
    if (ff_gpu_open(&gpu.g, 0, NULL) < 0 || ff_gpu_platform(gpu.g) == FF_GPU_PLATFORM_SIMULATED) {
        printf("SKIP the kernels: no GPU answers\n%d passed, %d failed\n", passed, failed);
        ff_gpu_close(&gpu.g);
        return failed ? 1 : 0;
    }
    if (ff_gpu_enter(gpu.g) < 0 ||
        ff_gpu_module_load(gpu.g, &mod, "ssim", ff_vmaf_gpu_code_ssim.amd,
                           ff_vmaf_gpu_code_ssim.nv) < 0 ||
        ff_gpu_function(gpu.g, mod, "vmaf_ssim_prefix", &gpu.prefix) < 0 ||
        ff_gpu_function(gpu.g, mod, "vmaf_ssim_rows", &gpu.rows) < 0 ||
        ff_gpu_function(gpu.g, mod, "vmaf_ssim_scan", &gpu.scan) < 0) {
        printf("FAIL: the sum kernels do not load\n%d passed, %d failed\n", passed, failed + 1);
        return 1;
    }
    printf("GPU: %s (%s), seed %" PRIu64 "\n", ff_gpu_device_name(gpu.g),
           ff_gpu_platform_name(gpu.g), seed);

    /* Every kind of terms at every size, the approximate sums exact; the
     * slow kinds (a round or a term at a time) at the small sizes only. */
    for (int k = 0; k < NB_TERMS; k++) {
        for (int z = 0; z < FF_ARRAY_ELEMS(sizes); z++) {
            const int slow = k == T_HOVER || k == T_HOVER_SMALL || k == T_ZERO_RETURNS ||
                             k == T_TINY || k == T_WIDE;
            if (slow && (size_t)sizes[z][0] * sizes[z][1] > 20000)
                continue;
            if (run_scale(&gpu, sizes[z][0], sizes[z][1], 1 + (z & 1), k, A_EXACT,
                          &passed, &failed) < 0)
                goto gpu_error;
        }
    }
    /* Approximate sums that mislead, on the kinds that are fast. */
    for (int a = A_OFF; a < NB_APPROX; a++) {
        for (int k = T_SSIM; k <= T_SIGNS; k++) {
            for (int z = 0; z < 4; z++) {
                if (run_scale(&gpu, sizes[z][0], sizes[z][1], 2, k, a, &passed, &failed) < 0)
                    goto gpu_error;
            }
        }
    }
    /* MS-SSIM's five scales of a 1080p picture, three sums each, and a 4K
     * float_ssim-sized single scale of four. */
    {
        static const int ms[5][2] = { { 1910, 1070 }, { 950, 530 }, { 470, 260 }, { 230, 125 }, { 110, 57 } };
        for (int a = A_EXACT; a <= A_OFF; a++) {
            memset(&c, 0, sizeof(c));
            c.nb_scales = 5;
            c.nb_sums   = 3;
            for (int i = 0; i < 5; i++) {
                c.ow[i] = ms[i][0];
                c.oh[i] = ms[i][1];
            }
            c.terms  = T_SSIM;
            c.approx = a;
            if ((ret = run_case(&gpu, &c)) < 0)
                goto gpu_error;
            ret ? passed++ : failed++;
        }
        if (run_scale(&gpu, 3830, 2150, 4, T_SSIM, A_EXACT, &passed, &failed) < 0)
            goto gpu_error;
    }
    ff_gpu_module_unload(gpu.g, mod);
    ff_gpu_leave(gpu.g);
    ff_gpu_close(&gpu.g);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;

gpu_error:
    printf("FAIL: a GPU call failed\n%d passed, %d failed\n", passed, failed + 1);
    return 1;
}
