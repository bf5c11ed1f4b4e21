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

/* CIEDE2000 (ciede_dsp.c is the C reference).
 *
 * vmaf_ciede_de_*: one thread per pixel converts the reference and the
 * distorted colours to Lab and computes their Delta E 2000 with the same
 * operations, types and order as the C code. Every +, -, *, / and sqrt is
 * IEEE-exact here too; the libm calls are not the host's:
 *  - powf(C', 7) is x^7 rounded exactly (ciede_pow7.h), then corrected
 *    where the host's powf rounds otherwise (the twin's table of them);
 *  - pow, atan2, sin, cos and exp (double) are the device's, a few ulps
 *    from the host's, and every value the C code makes of them is rounded
 *    to float (or compared) before it goes on. Each such rounding is
 *    checked: when the double lies within a bound of the function's error
 *    of a float boundary, the host's value could round the other way, and
 *    the pixel is left to the host (a record of its colours; the host runs
 *    the C code on them). Elsewhere Delta E is the CPU's, bit for bit.
 *
 * vmaf_ciede_rows: per row, the double sum of its values (any order), the
 * lowest bit any of them holds, and how many the host must see; with them
 * the host adds a row at once where that gives the CPU's sequential sum
 * exactly (ciede_gpu.c), and value by value elsewhere. */

#include "../../gpu/gpu_compat.h"
#include "ciede_gpu.h"
#include "ciede_pow7.h"

#define CIEDE_BLOCK_X 32
#define CIEDE_BLOCK_Y 8

/* Relative bound of the difference between a value made from the device's
 * libm and the host's, before its rounding to float: the device's pow,
 * sin, cos and atan2 are within 2 ulps (exp 1), glibc's within 1, and the
 * few operations after them add a few more; 2^-46 is some 40 times that. */
#define CIEDE_REL 1.4210854715202004e-14

#define CIEDE_PI     3.14159265358979323846
#define CIEDE_TWO_PI (2 * CIEDE_PI)
#define CIEDE_POW25_7 6103515625.0

struct CiedeLab {
    float l, a, b;
};

/* v rounded to float, and *uncertain set unless every value within d of v
 * rounds the same (rounding is monotonic, d is far above v's own ulp). */
__device__ static inline float ciede_f(double v, double d, int *uncertain)
{
    const float f = (float)v;
    if ((float)(v - d) != f || (float)(v + d) != f)
        *uncertain = 1;
    return f;
}

/* t > lim, and *uncertain set when t is within d of lim. */
__device__ static inline int ciede_gt(double t, double lim, double d, int *uncertain)
{
    if (fabs(t - lim) <= d)
        *uncertain = 1;
    return t > lim;
}

/* Math functions are called on doubles only: C++ would pick the float
 * overloads (sinf, sqrtf...) where C promotes to double. The libm results
 * are rounded with ciede_f(); *u collects the uncertainty. */
__device__ static inline double ciede_linearize(double c)
{
    if (c > 10.0 / 255.0)
        return pow((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

/* t within dt of the value the host computes (its pow's share). */
__device__ static inline float ciede_lab_f(double t, double dt, int *u)
{
    double v;

    if (ciede_gt(t, 216.0 / 24389.0, dt, u)) {
        v = pow(t, 1.0 / 3.0);
        return ciede_f(v, v * (dt / (3 * t) + CIEDE_REL), u);
    }
    v = (24389.0 / 27.0 * t + 16.0) * (1.0 / 116.0);
    return ciede_f(v, (24389.0 / 27.0 / 116.0) * dt + fabs(v) * CIEDE_REL, u);
}

__device__ static inline CiedeLab ciede_yuv_to_lab(double y_off, double y_mul,
                                                   double c_off, double c_mul,
                                                   int y_, int u_, int v_, int *u)
{
    double y = ((double)y_ - y_off) * y_mul;
    double cu = ((double)u_ - c_off) * c_mul;
    double cv = ((double)v_ - c_off) * c_mul;
    double r = ciede_linearize(y + 1.28033 * cv);
    double g = ciede_linearize(y - 0.21482 * cu - 0.38059 * cv);
    double b = ciede_linearize(y + 2.12798 * cu);
    double x  = r * 0.4124564390896921   + g * 0.357576077643909 +
                b * 0.18043748326639894;
    double yy = r * 0.21267285140562248  + g * 0.715152155287818 +
                b * 0.07217499330655958;
    double z  = r * 0.019333895582329317 + g * 0.119192025881303 +
                b * 0.9503040785363677;
    /* Each sum's difference from the host's: its terms' (r, g and b off
     * by CIEDE_REL at most), bounded by the sum of their magnitudes. */
    double ar = fabs(r), ag = fabs(g), ab = fabs(b);
    double dx = (ar * 0.4124564390896921   + ag * 0.357576077643909 +
                 ab * 0.18043748326639894) * CIEDE_REL;
    double dy = (ar * 0.21267285140562248  + ag * 0.715152155287818 +
                 ab * 0.07217499330655958) * CIEDE_REL;
    double dz = (ar * 0.019333895582329317 + ag * 0.119192025881303 +
                 ab * 0.9503040785363677) * CIEDE_REL;
    float fx = ciede_lab_f(x * (1.0 / 0.95047), dx * (1.0 / 0.95047), u);
    float fy = ciede_lab_f(yy, dy, u);
    float fz = ciede_lab_f(z * (1.0 / 1.08883), dz * (1.0 / 1.08883), u);
    CiedeLab lab;

    lab.l = (float)(116.0 * fy - 16.0);
    lab.a = (float)(500.0 * ((double)fx - fy));
    lab.b = (float)(200.0 * ((double)fy - fz));
    return lab;
}

__device__ static inline float ciede_hue(float b, float a, int *u)
{
    float h;
    double v;

    if (b == 0.0f && a == 0.0f)
        return 0.0f;
    v = atan2((double)b, (double)a);
    h = ciede_f(v, fabs(v) * CIEDE_REL, u);
    if (h < 0.0f)
        h = (float)(h + CIEDE_TWO_PI);
    return h;
}

__device__ static inline float ciede_delta_e(const CiedeLab p1, const CiedeLab p2,
                                             const FFCiedePowfTable &tab, int *u)
{
    float dl = p2.l - p1.l;
    float lbar = (p1.l + p2.l) / 2;
    float c1 = (float)sqrt((double)p1.a * p1.a + (double)p1.b * p1.b);
    float c2 = (float)sqrt((double)p2.a * p2.a + (double)p2.b * p2.b);
    float cbar = (c1 + c2) / 2;
    double cbar7 = pow((double)cbar, 7.0);
    /* g is within CIEDE_REL of the host's (the root is at most 1). */
    double g = 1.0 - sqrt(cbar7 / (cbar7 + CIEDE_POW25_7));
    double v1 = p1.a + (p1.a / 2) * g, v2 = p2.a + (p2.a / 2) * g;
    float a1p = ciede_f(v1, (fabsf(p1.a) + fabs(v1)) * CIEDE_REL, u);
    float a2p = ciede_f(v2, (fabsf(p2.a) + fabs(v2)) * CIEDE_REL, u);
    float c1p = (float)sqrt((double)a1p * a1p + (double)p1.b * p1.b);
    float c2p = (float)sqrt((double)a2p * a2p + (double)p2.b * p2.b);
    float cbarp = (c1p + c2p) / 2;
    float dcp = c2p - c1p;
    float t = lbar - 50;
    double t2 = (double)t * t;
    float sl = (float)(1.0 + 0.015 * t2 / sqrt(20.0 + t2));
    float sc = (float)(1.0 + 0.045 * cbarp);
    float h1p = ciede_hue(p1.b, a1p, u), h2p = ciede_hue(p2.b, a2p, u);
    float hdiff = h1p - h2p, hsum = h1p + h2p;
    float dhp, dHp, hbarp, tt, sh, deg, ang, cbarp7, p, rt, l, c, h;
    double v;

    if (c1 == 0.0f || c2 == 0.0f) {
        dhp = 0.0f;
    } else {
        float d = h2p - h1p;
        if ((double)fabsf(hdiff) <= CIEDE_PI)
            dhp = d;
        else if (h2p <= h1p)
            dhp = (float)(d + CIEDE_TWO_PI);
        else
            dhp = (float)(d - CIEDE_TWO_PI);
    }
    v   = 2.0 * sqrt((double)(c1p * c2p)) * sin((double)(dhp / 2));
    dHp = ciede_f(v, fabs(v) * CIEDE_REL, u);
    if ((double)fabsf(hdiff) > CIEDE_PI)
        hbarp = (float)((hsum + CIEDE_TWO_PI) / 2);
    else
        hbarp = hsum / 2;

    /* Four cosines of weights summing to under 1: within 2 CIEDE_REL. */
    v  = 1.0 - 0.17 * cos(hbarp - CIEDE_PI / 6) + 0.24 * cos(2.0 * hbarp) +
         0.32 * cos(3.0 * hbarp + CIEDE_PI / 30) -
         0.20 * cos(4.0 * hbarp - 7 * CIEDE_PI / 20);
    tt = ciede_f(v, 2 * CIEDE_REL, u);
    sh = (float)(1.0 + (0.015 * cbarp) * tt);

    deg    = (float)(((float)(hbarp * (180.0 / CIEDE_PI)) - 275.0) * (1.0 / 25.0));
    v      = 60.0 * exp(-(double)(deg * deg));
    ang    = (float)((double)ciede_f(v, v * CIEDE_REL, u) * (CIEDE_PI / 180.0));
    cbarp7 = ff_ciede_powf7(cbarp, &tab, u);
    p      = cbarp7 / (cbarp7 + 6103515648.0f);
    v      = -2.0 * sqrt((double)p) * sin((double)ang);
    rt     = ciede_f(v, fabs(v) * CIEDE_REL, u);

    l = dl  / (0.65f * sl);
    c = dcp / (1.0f * sc);
    h = dHp / (4.0f * sh);
    return (float)sqrt((double)l * l + (double)c * c + (double)h * h +
                       (double)(rt * c * h));
}

template <typename T>
__device__ static inline void ciede_de(const uint8_t *ry, const uint8_t *ru, const uint8_t *rv,
                                       const uint8_t *dy, const uint8_t *du, const uint8_t *dv,
                                       int pitch, int cpitch, int w, int h, int ss_x, int ss_y,
                                       double y_off, double y_mul, double c_off, double c_mul,
                                       const FFCiedePowfTable &tab, float *de,
                                       unsigned *nb_records, CiedeRecord *records)
{
    const int j = blockIdx.x * CIEDE_BLOCK_X + threadIdx.x;
    const int i = blockIdx.y * CIEDE_BLOCK_Y + threadIdx.y;
    size_t lo, co;
    int yr, ur, vr, yd, ud, vd, u = 0;
    float e;

    if (j >= w || i >= h)
        return;
    /* Chroma of (i, j) is at (i >> ss_y, j >> ss_x), as in ciede.c. */
    lo = (size_t)i * pitch + (size_t)j * sizeof(T);
    co = (size_t)(i >> ss_y) * cpitch + (size_t)(j >> ss_x) * sizeof(T);
    yr = *(const T *)(ry + lo);
    ur = *(const T *)(ru + co);
    vr = *(const T *)(rv + co);
    yd = *(const T *)(dy + lo);
    ud = *(const T *)(du + co);
    vd = *(const T *)(dv + co);
    /* Equal colours add exactly +0, as the CPU's skipped pixels do. */
    if (yr == yd && ur == ud && vr == vd) {
        de[(size_t)i * w + j] = 0.0f;
        return;
    }
    e = ciede_delta_e(ciede_yuv_to_lab(y_off, y_mul, c_off, c_mul, yr, ur, vr, &u),
                      ciede_yuv_to_lab(y_off, y_mul, c_off, c_mul, yd, ud, vd, &u), tab, &u);
    if (u) {
        /* The left neighbour of the same colours is as uncertain: the host
         * takes its value. Otherwise a record (a flat picture makes one a
         * row). */
        const size_t lo1 = lo - sizeof(T), co1 = (size_t)(i >> ss_y) * cpitch +
                                                 (size_t)((j - 1) >> ss_x) * sizeof(T);
        if (j > 0 && *(const T *)(ry + lo1) == yr && *(const T *)(dy + lo1) == yd &&
            *(const T *)(ru + co1) == ur && *(const T *)(rv + co1) == vr &&
            *(const T *)(du + co1) == ud && *(const T *)(dv + co1) == vd) {
            e = __uint_as_float(CIEDE_MARK_LEFT);
        } else {
            const unsigned k = atomicAdd(nb_records, 1u);
            if (k < CIEDE_MAX_RECORDS) {
                CiedeRecord r;
                r.index = (uint32_t)i * w + j;
                r.c[0] = yr; r.c[1] = ur; r.c[2] = vr;
                r.c[3] = yd; r.c[4] = ud; r.c[5] = vd;
                records[k] = r;
            }
            e = __uint_as_float(CIEDE_MARK_RECORD);
        }
    }
    de[(size_t)i * w + j] = e;
}

#define CIEDE_DE_KERNEL(name, T)                                                          \
GPU_KERNEL void __launch_bounds__(CIEDE_BLOCK_X * CIEDE_BLOCK_Y)                          \
name(const uint8_t *ry, const uint8_t *ru, const uint8_t *rv,                             \
     const uint8_t *dy, const uint8_t *du, const uint8_t *dv,                             \
     int pitch, int cpitch, int w, int h, int ss_x, int ss_y,                             \
     double y_off, double y_mul, double c_off, double c_mul,                              \
     const uint32_t *tab_m, const uint32_t *tab_away, int tab_n, int tab_words,           \
     float *de, unsigned *nb_records, CiedeRecord *records)                               \
{                                                                                         \
    FFCiedePowfTable tab;                                                                 \
    tab.m = tab_m; tab.away = tab_away; tab.n = tab_n; tab.words = tab_words;             \
    ciede_de<T>(ry, ru, rv, dy, du, dv, pitch, cpitch, w, h, ss_x, ss_y,                  \
                y_off, y_mul, c_off, c_mul, tab, de, nb_records, records);               \
}

CIEDE_DE_KERNEL(vmaf_ciede_de_8,  uint8_t)
CIEDE_DE_KERNEL(vmaf_ciede_de_16, uint16_t)

/* Row blockIdx.x of de: its sum, lowest bit and special values. */
GPU_KERNEL void __launch_bounds__(CIEDE_ROWS_THREADS)
vmaf_ciede_rows(const float *de, int w, CiedeRow *rows)
{
    __shared__ double ps[CIEDE_ROWS_THREADS / 32];
    __shared__ int pl[CIEDE_ROWS_THREADS / 32], pn[CIEDE_ROWS_THREADS / 32];
    const int tid = threadIdx.x;
    double s = 0.0;
    int lsb = 0x7fffffff, special = 0;

    de += (size_t)blockIdx.x * w;
    for (int j = tid; j < w; j += CIEDE_ROWS_THREADS) {
        const uint32_t b = __float_as_uint(de[j]);
        const uint32_t ex = (b >> 23) & 0xff, m = b & 0x7fffff;
        int l;

        if ((b << 1) == 0)          /* +0 and -0 add nothing to a sum >= 0 */
            continue;
        if (ex == 0xff || (b >> 31)) {
            special++;
            continue;
        }
        l = ex ? (int)ex - 150 + __ffs(m | 0x800000) - 1 : -149 + __ffs(m) - 1;
        lsb = l < lsb ? l : lsb;
        s += de[j];
    }
    for (int d = 16; d > 0; d >>= 1) {
        const double os = GPU_SHFL_DOWN32(s, d);
        const int ol = GPU_SHFL_DOWN32(lsb, d), on = GPU_SHFL_DOWN32(special, d);
        s += os;
        lsb = ol < lsb ? ol : lsb;
        special += on;
    }
    if ((tid & 31) == 0) {
        ps[tid >> 5] = s;
        pl[tid >> 5] = lsb;
        pn[tid >> 5] = special;
    }
    __syncthreads();
    if (tid == 0) {
        for (int k = 1; k < CIEDE_ROWS_THREADS / 32; k++) {
            s += ps[k];
            lsb = pl[k] < lsb ? pl[k] : lsb;
            special += pn[k];
        }
        rows[blockIdx.x].sum     = s;
        rows[blockIdx.x].lsb     = lsb;
        rows[blockIdx.x].special = special;
    }
}
