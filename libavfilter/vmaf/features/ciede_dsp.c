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

#include <math.h>
#include <string.h>

#include "config.h"

#include "libavutil/attributes.h"
#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/mathematics.h"
#include "libavutil/mem.h"

#include "ciede_dsp.h"

#define TWO_PI (2 * M_PI)
/* 25^7: exact as a double, rounded up to 6103515648 as a float. */
#define POW25_7 6103515625.0

void ff_vmaf_ciede_scale_init(FFVmafCiedeScale *sc, int bpc)
{
    double s = 1 << (bpc - 8);

    sc->y_off = 16.0 * s;
    sc->y_mul = 1.0 / (219.0 * s);
    sc->c_off = 128.0 * s;
    sc->c_mul = 1.0 / (224.0 * s);
}

/* sRGB-style linearisation, with libvmaf's threshold of 10/255 (not
 * 0.04045); negative values take the linear branch. */
static inline double linearize(double c)
{
    if (c > 10.0 / 255.0)
        return pow((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

/* CIELAB companding, rounded to float as libvmaf stores it. */
static inline float lab_f(double t)
{
    if (t > 216.0 / 24389.0)
        return (float)pow(t, 1.0 / 3.0);
    return (float)((24389.0 / 27.0 * t + 16.0) * (1.0 / 116.0));
}

FFVmafLab ff_vmaf_ciede_yuv_to_lab(const FFVmafCiedeScale *sc,
                                   int y_, int u_, int v_)
{
    double y = ((double)y_ - sc->y_off) * sc->y_mul;
    double u = ((double)u_ - sc->c_off) * sc->c_mul;
    double v = ((double)v_ - sc->c_off) * sc->c_mul;
    /* BT.709 YCbCr to R'G'B', then to linear RGB and CIE XYZ (D65). */
    double r = linearize(y + 1.28033 * v);
    double g = linearize(y - 0.21482 * u - 0.38059 * v);
    double b = linearize(y + 2.12798 * u);
    double x  = r * 0.4124564390896921   + g * 0.357576077643909 +
                b * 0.18043748326639894;
    double yy = r * 0.21267285140562248  + g * 0.715152155287818 +
                b * 0.07217499330655958;
    double z  = r * 0.019333895582329317 + g * 0.119192025881303 +
                b * 0.9503040785363677;
    float fx = lab_f(x * (1.0 / 0.95047));
    float fy = lab_f(yy);
    float fz = lab_f(z * (1.0 / 1.08883));
    FFVmafLab lab;

    lab.l = (float)(116.0 * fy - 16.0);
    lab.a = (float)(500.0 * ((double)fx - fy));
    lab.b = (float)(200.0 * ((double)fy - fz));
    return lab;
}

/* Hue angle in [0, 2 pi), 0 for a neutral colour. */
static inline float hue(float b, float a)
{
    float h;
    if (b == 0.0f && a == 0.0f)
        return 0.0f;
    h = (float)atan2(b, a);
    if (h < 0.0f)
        h = (float)(h + TWO_PI);
    return h;
}

float ff_vmaf_ciede_delta_e(const FFVmafLab *p1, const FFVmafLab *p2)
{
    float dl = p2->l - p1->l;
    float lbar = (p1->l + p2->l) / 2;
    float c1 = (float)sqrt((double)p1->a * p1->a + (double)p1->b * p1->b);
    float c2 = (float)sqrt((double)p2->a * p2->a + (double)p2->b * p2->b);
    float cbar = (c1 + c2) / 2;
    double cbar7 = pow(cbar, 7);
    /* Chroma-dependent stretch of the a axis, kept in double. */
    double g = 1.0 - sqrt(cbar7 / (cbar7 + POW25_7));
    float a1p = (float)(p1->a + (p1->a / 2) * g);
    float a2p = (float)(p2->a + (p2->a / 2) * g);
    float c1p = (float)sqrt((double)a1p * a1p + (double)p1->b * p1->b);
    float c2p = (float)sqrt((double)a2p * a2p + (double)p2->b * p2->b);
    float cbarp = (c1p + c2p) / 2;
    float dcp = c2p - c1p;
    float t = lbar - 50;
    double t2 = (double)t * t;
    float sl = (float)(1.0 + 0.015 * t2 / sqrt(20.0 + t2));
    float sc = (float)(1.0 + 0.045 * cbarp);
    float h1p = hue(p1->b, a1p), h2p = hue(p2->b, a2p);
    float hdiff = h1p - h2p, hsum = h1p + h2p;
    float dhp, dHp, hbarp, tt, sh, deg, ang, cbarp7, p, rt, l, c, h;

    /* The zero test uses the unprimed chromas, as libvmaf does. */
    if (c1 == 0.0f || c2 == 0.0f) {
        dhp = 0.0f;
    } else {
        float d = h2p - h1p;
        if (fabs(hdiff) <= M_PI)
            dhp = d;
        else if (h2p <= h1p)
            dhp = (float)(d + TWO_PI);
        else
            dhp = (float)(d - TWO_PI);
    }
    dHp = (float)(2.0 * sqrt((double)(c1p * c2p)) * sin(dhp / 2));
    /* libvmaf always adds 2 pi here, never subtracts it. */
    if (fabs(hdiff) > M_PI)
        hbarp = (float)((hsum + TWO_PI) / 2);
    else
        hbarp = hsum / 2;

    tt = (float)(1.0 - 0.17 * cos(hbarp - M_PI / 6) + 0.24 * cos(2.0 * hbarp) +
                 0.32 * cos(3.0 * hbarp + M_PI / 30) -
                 0.20 * cos(4.0 * hbarp - 7 * M_PI / 20));
    sh = (float)(1.0 + (0.015 * cbarp) * tt);

    /* Rotation term for blue hues. */
    deg    = (float)(((float)(hbarp * (180.0 / M_PI)) - 275.0) * (1.0 / 25.0));
    ang    = (float)((double)(float)(60.0 * exp(-(double)(deg * deg))) *
                     (M_PI / 180.0));
    cbarp7 = powf(cbarp, 7);
    p      = cbarp7 / (cbarp7 + 6103515648.0f);
    rt     = (float)(-2.0 * sqrt(p) * sin(ang));

    l = dl  / (0.65f * sl);
    c = dcp / (1.0f * sc);
    h = dHp / (4.0f * sh);
    return (float)sqrt((double)l * l + (double)c * c + (double)h * h +
                       (double)(rt * c * h));
}

int ff_vmaf_ciede_cache_alloc(FFVmafCiedeCache *c, int64_t nb_pixels)
{
    /* About one entry per pixel, bounded so that the tables stay near the
     * size of a core's L2 cache: beyond that, misses cost more than the
     * rare extra hits save. */
    int bits = av_log2((unsigned)av_clip64(nb_pixels, 1, 1 << 30)) + 1;

    memset(c, 0, sizeof(*c));
    c->de_bits  = av_clip(bits, 8, 15);
    c->lab_bits = av_clip(bits, 8, 15);
    c->de  = av_malloc_array((size_t)1 << c->de_bits,  sizeof(*c->de));
    c->lab = av_malloc_array((size_t)1 << c->lab_bits, sizeof(*c->lab));
    if (!c->de || !c->lab) {
        ff_vmaf_ciede_cache_free(c);
        return AVERROR(ENOMEM);
    }
    for (size_t i = 0; i < (size_t)1 << c->de_bits; i++)
        c->de[i].ref = c->de[i].dis = UINT64_MAX;
    for (size_t i = 0; i < (size_t)1 << c->lab_bits; i++)
        c->lab[i].key = UINT64_MAX;
    c->use_lab = c->use_de = 1;
    c->last_key[0] = c->last_key[1] = UINT64_MAX;
    return 0;
}

void ff_vmaf_ciede_cache_free(FFVmafCiedeCache *c)
{
    av_freep(&c->de);
    av_freep(&c->lab);
}

static inline uint64_t colour_key(unsigned y, unsigned u, unsigned v)
{
    return (uint64_t)y << 32 | (uint64_t)u << 16 | v;
}

/* Fibonacci hashing: the top bits of a multiplication mix every key bit. */
static inline size_t hash_bits(uint64_t k, int bits)
{
    return (size_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits));
}

static inline FFVmafLab key_to_lab(const FFVmafCiedeScale *sc, uint64_t key)
{
    return ff_vmaf_ciede_yuv_to_lab(sc, key >> 32, key >> 16 & 0xFFFF,
                                    key & 0xFFFF);
}

/* Lab of colour key in picture pic (0: reference, 1: distorted). */
static inline FFVmafLab cached_lab(FFVmafCiedeCache *c,
                                   const FFVmafCiedeScale *sc,
                                   int pic, uint64_t key)
{
    FFVmafLab lab;

    if (key == c->last_key[pic])
        return c->last_lab[pic];
    if (c->use_lab) {
        FFVmafCiedeCacheLab *e = &c->lab[hash_bits(key, c->lab_bits)];
        c->lab_lookups++;
        if (e->key == key) {
            c->lab_hits++;
        } else {
            e->key = key;
            e->lab = key_to_lab(sc, key);
        }
        lab = e->lab;
    } else {
        lab = key_to_lab(sc, key);
    }
    c->last_key[pic] = key;
    c->last_lab[pic] = lab;
    return lab;
}

static inline float pixel_delta_e(FFVmafCiedeCache *c,
                                  const FFVmafCiedeScale *sc,
                                  uint64_t kr, uint64_t kd)
{
    FFVmafCiedeCacheDE *e = NULL;
    FFVmafLab lr, ld;

    if (c->use_de) {
        uint64_t pair = kr ^ (kd * UINT64_C(0xD6E8FEB86659FD93));
        e = &c->de[hash_bits(pair, c->de_bits)];
        c->de_lookups++;
        if (e->ref == kr && e->dis == kd) {
            c->de_hits++;
            return e->de;
        }
    }
    lr = cached_lab(c, sc, 0, kr);
    ld = cached_lab(c, sc, 1, kd);
    if (!e)
        return ff_vmaf_ciede_delta_e(&lr, &ld);
    e->ref = kr;
    e->dis = kd;
    e->de  = ff_vmaf_ciede_delta_e(&lr, &ld);
    return e->de;
}

/* Drop a table that answers fewer than 1 lookup in 16. */
static inline int still_useful(unsigned lookups, unsigned hits)
{
    return lookups < 4096 || hits >= lookups / 16;
}

#define CIEDE_ROW(type)                                                        \
    do {                                                                       \
        const type *ry = (const type *)ref[0], *ru = (const type *)ref[1];     \
        const type *rv = (const type *)ref[2], *dy = (const type *)dis[0];     \
        const type *du = (const type *)dis[1], *dv = (const type *)dis[2];     \
        for (int j = 0; j < w; j++) {                                          \
            int k = j >> ss_x;                                                 \
            uint64_t kr = colour_key(ry[j], ru[k], rv[k]);                     \
            uint64_t kd = colour_key(dy[j], du[k], dv[k]);                     \
            /* Equal colours give exactly +0, which leaves sum unchanged. */   \
            if (kr != kd)                                                      \
                sum += pixel_delta_e(cache, sc, kr, kd);                       \
        }                                                                      \
    } while (0)

/* Tables that stopped paying are dropped at the end of a row. */
static inline void update_cache(FFVmafCiedeCache *cache)
{
    cache->use_de  &= still_useful(cache->de_lookups,  cache->de_hits);
    cache->use_lab &= still_useful(cache->lab_lookups, cache->lab_hits);
}

static double row_8_c(double sum, const FFVmafCiedeScale *sc,
                      FFVmafCiedeCache *cache,
                      const uint8_t *const ref[3], const uint8_t *const dis[3],
                      int w, int ss_x, int bpc)
{
    CIEDE_ROW(uint8_t);
    update_cache(cache);
    return sum;
}

static double row_16_c(double sum, const FFVmafCiedeScale *sc,
                       FFVmafCiedeCache *cache,
                       const uint8_t *const ref[3], const uint8_t *const dis[3],
                       int w, int ss_x, int bpc)
{
    CIEDE_ROW(uint16_t);
    update_cache(cache);
    return sum;
}

double ff_vmaf_ciede_row(double sum, const FFVmafCiedeScale *sc,
                         FFVmafCiedeCache *cache,
                         const uint8_t *const ref[3],
                         const uint8_t *const dis[3],
                         int w, int ss_x, int bpc)
{
    return (bpc == 8 ? row_8_c : row_16_c)(sum, sc, cache, ref, dis, w, ss_x, bpc);
}

av_cold void ff_vmaf_ciede_dsp_init(FFVmafCiedeDSPContext *c, int bpc)
{
    c->row = bpc == 8 ? row_8_c : row_16_c;
#if ARCH_X86_64
    ff_vmaf_ciede_dsp_init_x86(c, bpc);
#endif
}
