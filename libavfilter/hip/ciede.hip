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
 * IEEE-exact here too, but pow, atan2, sin, cos and exp are the device's
 * double-precision functions, not glibc's: Delta E may differ from the
 * CPU's in its last bits, so ciede2000 is a documented difference.
 *
 * vmaf_ciede_rows: one thread per row adds the row's values in order into
 * a double; the host adds the rows in order. */

#include "gpu_compat.h"

#define CIEDE_BLOCK_X 32
#define CIEDE_BLOCK_Y 8
#define CIEDE_ROWS_THREADS 64

#define CIEDE_PI     3.14159265358979323846
#define CIEDE_TWO_PI (2 * CIEDE_PI)
#define CIEDE_POW25_7 6103515625.0

struct CiedeLab {
    float l, a, b;
};

/* Math functions are called on doubles only: C++ would pick the float
 * overloads (sinf, sqrtf...) where C promotes to double. */
__device__ static inline double ciede_linearize(double c)
{
    if (c > 10.0 / 255.0)
        return pow((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

__device__ static inline float ciede_lab_f(double t)
{
    if (t > 216.0 / 24389.0)
        return (float)pow(t, 1.0 / 3.0);
    return (float)((24389.0 / 27.0 * t + 16.0) * (1.0 / 116.0));
}

__device__ static inline CiedeLab ciede_yuv_to_lab(double y_off, double y_mul,
                                                   double c_off, double c_mul,
                                                   int y_, int u_, int v_)
{
    double y = ((double)y_ - y_off) * y_mul;
    double u = ((double)u_ - c_off) * c_mul;
    double v = ((double)v_ - c_off) * c_mul;
    double r = ciede_linearize(y + 1.28033 * v);
    double g = ciede_linearize(y - 0.21482 * u - 0.38059 * v);
    double b = ciede_linearize(y + 2.12798 * u);
    double x  = r * 0.4124564390896921   + g * 0.357576077643909 +
                b * 0.18043748326639894;
    double yy = r * 0.21267285140562248  + g * 0.715152155287818 +
                b * 0.07217499330655958;
    double z  = r * 0.019333895582329317 + g * 0.119192025881303 +
                b * 0.9503040785363677;
    float fx = ciede_lab_f(x * (1.0 / 0.95047));
    float fy = ciede_lab_f(yy);
    float fz = ciede_lab_f(z * (1.0 / 1.08883));
    CiedeLab lab;

    lab.l = (float)(116.0 * fy - 16.0);
    lab.a = (float)(500.0 * ((double)fx - fy));
    lab.b = (float)(200.0 * ((double)fy - fz));
    return lab;
}

__device__ static inline float ciede_hue(float b, float a)
{
    float h;
    if (b == 0.0f && a == 0.0f)
        return 0.0f;
    h = (float)atan2((double)b, (double)a);
    if (h < 0.0f)
        h = (float)(h + CIEDE_TWO_PI);
    return h;
}

__device__ static inline float ciede_delta_e(const CiedeLab p1, const CiedeLab p2)
{
    float dl = p2.l - p1.l;
    float lbar = (p1.l + p2.l) / 2;
    float c1 = (float)sqrt((double)p1.a * p1.a + (double)p1.b * p1.b);
    float c2 = (float)sqrt((double)p2.a * p2.a + (double)p2.b * p2.b);
    float cbar = (c1 + c2) / 2;
    double cbar7 = pow((double)cbar, 7.0);
    double g = 1.0 - sqrt(cbar7 / (cbar7 + CIEDE_POW25_7));
    float a1p = (float)(p1.a + (p1.a / 2) * g);
    float a2p = (float)(p2.a + (p2.a / 2) * g);
    float c1p = (float)sqrt((double)a1p * a1p + (double)p1.b * p1.b);
    float c2p = (float)sqrt((double)a2p * a2p + (double)p2.b * p2.b);
    float cbarp = (c1p + c2p) / 2;
    float dcp = c2p - c1p;
    float t = lbar - 50;
    double t2 = (double)t * t;
    float sl = (float)(1.0 + 0.015 * t2 / sqrt(20.0 + t2));
    float sc = (float)(1.0 + 0.045 * cbarp);
    float h1p = ciede_hue(p1.b, a1p), h2p = ciede_hue(p2.b, a2p);
    float hdiff = h1p - h2p, hsum = h1p + h2p;
    float dhp, dHp, hbarp, tt, sh, deg, ang, cbarp7, p, rt, l, c, h;

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
    dHp = (float)(2.0 * sqrt((double)(c1p * c2p)) * sin((double)(dhp / 2)));
    if ((double)fabsf(hdiff) > CIEDE_PI)
        hbarp = (float)((hsum + CIEDE_TWO_PI) / 2);
    else
        hbarp = hsum / 2;

    tt = (float)(1.0 - 0.17 * cos(hbarp - CIEDE_PI / 6) + 0.24 * cos(2.0 * hbarp) +
                 0.32 * cos(3.0 * hbarp + CIEDE_PI / 30) -
                 0.20 * cos(4.0 * hbarp - 7 * CIEDE_PI / 20));
    sh = (float)(1.0 + (0.015 * cbarp) * tt);

    deg    = (float)(((float)(hbarp * (180.0 / CIEDE_PI)) - 275.0) * (1.0 / 25.0));
    ang    = (float)((double)(float)(60.0 * exp(-(double)(deg * deg))) *
                     (CIEDE_PI / 180.0));
    /* powf(cbarp, 7): the double power rounded once to float. */
    cbarp7 = (float)pow((double)cbarp, 7.0);
    p      = cbarp7 / (cbarp7 + 6103515648.0f);
    rt     = (float)(-2.0 * sqrt((double)p) * sin((double)ang));

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
                                       float *de)
{
    const int j = blockIdx.x * CIEDE_BLOCK_X + threadIdx.x;
    const int i = blockIdx.y * CIEDE_BLOCK_Y + threadIdx.y;
    size_t lo, co;
    int yr, ur, vr, yd, ud, vd;

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
    de[(size_t)i * w + j] =
        ciede_delta_e(ciede_yuv_to_lab(y_off, y_mul, c_off, c_mul, yr, ur, vr),
                      ciede_yuv_to_lab(y_off, y_mul, c_off, c_mul, yd, ud, vd));
}

GPU_KERNEL void __launch_bounds__(CIEDE_BLOCK_X * CIEDE_BLOCK_Y)
vmaf_ciede_de_8(const uint8_t *ry, const uint8_t *ru, const uint8_t *rv,
                const uint8_t *dy, const uint8_t *du, const uint8_t *dv,
                int pitch, int cpitch, int w, int h, int ss_x, int ss_y,
                double y_off, double y_mul, double c_off, double c_mul, float *de)
{
    ciede_de<uint8_t>(ry, ru, rv, dy, du, dv, pitch, cpitch, w, h, ss_x, ss_y,
                      y_off, y_mul, c_off, c_mul, de);
}

GPU_KERNEL void __launch_bounds__(CIEDE_BLOCK_X * CIEDE_BLOCK_Y)
vmaf_ciede_de_16(const uint8_t *ry, const uint8_t *ru, const uint8_t *rv,
                 const uint8_t *dy, const uint8_t *du, const uint8_t *dv,
                 int pitch, int cpitch, int w, int h, int ss_x, int ss_y,
                 double y_off, double y_mul, double c_off, double c_mul, float *de)
{
    ciede_de<uint16_t>(ry, ru, rv, dy, du, dv, pitch, cpitch, w, h, ss_x, ss_y,
                       y_off, y_mul, c_off, c_mul, de);
}

/* Row i's Delta E values, left to right, into a double. */
GPU_KERNEL void __launch_bounds__(CIEDE_ROWS_THREADS)
vmaf_ciede_rows(const float *de, int w, int h, double *rows)
{
    const int i = blockIdx.x * CIEDE_ROWS_THREADS + threadIdx.x;
    double s = 0.0;

    if (i >= h)
        return;
    de += (size_t)i * w;
    for (int j = 0; j < w; j++)
        s += de[j];
    rows[i] = s;
}
