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
 * One scale of the integer ADM as a streaming pass over its band rows:
 * the shared body of adm.c's scale 0 (int16 bands, int32 CSF sums) and
 * scales 1..3 (int32 bands, int64 CSF sums), included once for each. It
 * is a .h rather than a _template.c because every .c file of vmaf/ is
 * built as an object of its own (vmaf/Makefile, tools/dev-engine.sh).
 *
 * Row y of the bands is made from input rows 2y-1 .. 2y+2; decouple and
 * CSF follow on the rows the 3x3 masking reads; the masked sums of row
 * y - 1 come last, once rows y - 2 .. y of the masker are in the ring of
 * three slots (ADMRows, adm.c).
 *
 * The including file defines ADMRows, ADMSource, the ROW_ and SLOT_ row
 * indices, row_at(), slot_row() and dwt_row(), and, before including it:
 * - BAND_T: the band sample type; CSF_T: the type of the CSF sums;
 * - FUNC(name): the name of this instantiation's version of name;
 * - PAD_ROW: ff_vmaf_adm_pad_row16() or ff_vmaf_adm_pad_row32();
 * - DECOUPLE, HSUM3: the FFVmafADMDSPContext members for these types;
 * - CSF_WRITES_BANDS: 1 where the masked bands are the CSF-weighted
 *   decoupled ones, which the CSF step writes to the slots; 0 where they
 *   are the decoupled bands themselves (decoupled into the slots);
 * - the steps whose kernels take different arguments, with these
 *   signatures (sc is the scale):
 *   - FUNC(adm_dwt_vert)(dsp, sc, lo, hi, src[4], w, bpc): vertical DWT
 *     of the input rows src (ADMSource's data, bpc at scale 0);
 *   - FUNC(adm_dwt_horiz)(dsp, sc, lo, hi, in, bw): horizontal DWT;
 *   - FUNC(adm_csf)(s, dsp, sc, dst[3], flt, ctr, src[3], n): the CSF sums
 *     of a masker src, and with CSF_WRITES_BANDS its weighted bands dst;
 *   - FUNC(adm_den_row)(s, dsp, sc, o, n): one row's denominator term,
 *     rounded and shifted as it is added;
 *   - FUNC(adm_cm_row)(s, dsp, sc, sum, x, hs, flt, ctr, n): the masked
 *     cube sums of one row.
 * They are all #undef'd at the end, so that the next instantiation can
 * define them again.
 *
 * It gives FUNC(adm_scale)().
 */

/*
 * CSF of one masker (the decoupled r or a), reduced to what the threshold
 * of the other pass needs: the filtered sums' 3-column box sums hs, the
 * centre terms ctr, and the filtered sums themselves, which hold the
 * masker's border columns.
 */
static av_always_inline void FUNC(adm_masker_row)(const ADMContext *s,
                                                  const FFVmafADMDSPContext *dsp,
                                                  const ADMRows *rows, int sc,
                                                  int y, BAND_T *const dst[3],
                                                  const BAND_T *const src[3],
                                                  int k_flt, int k_ctr, int k_hs)
{
    const ADMScaleGeom *g = &s->g[sc];
    const int bw = g->bw, c0 = g->cl;
    CSF_T *flt = (CSF_T *)slot_row(rows, y, k_flt) + 1;
    CSF_T *ctr = slot_row(rows, y, k_ctr);

    FUNC(adm_csf)(s, dsp, sc, dst, flt + c0, ctr + c0, src, g->cr - c0);
    /* 3x3 neighbourhood borders: reflect-101 on the left, replicate on
     * the right. */
    if (g->il == 0)
        flt[-1] = flt[1];
    if (g->ir == bw)
        flt[bw] = flt[bw - 1];
    dsp->HSUM3((CSF_T *)slot_row(rows, y, k_hs) + g->il, flt + g->il,
               g->ir - g->il);
}

/*
 * Masked sums of the bands in slots k_x.. of row i, against the masker
 * whose rows i - 1 .. i + 1 are ready: reflect-101 at the top, replicate
 * at the bottom. Each row's sum is rounded and shifted, then added to acc.
 */
static av_always_inline void FUNC(adm_masked_row)(const ADMContext *s,
                                                  const FFVmafADMDSPContext *dsp,
                                                  const ADMRows *rows, int sc,
                                                  int i, int k_x, int k_flt,
                                                  int k_ctr, int k_hs,
                                                  int64_t acc[3])
{
    const ADMScaleGeom *g = &s->g[sc];
    const int ip = i > 0 ? i - 1 : 1, in = i + 1 < g->bh ? i + 1 : i;
    const int c0 = g->il;
    const int64_t rnd = g->num_e > 0 ? 1LL << (g->num_e - 1) : 0;
    const CSF_T *const hs[3] = {
        (const CSF_T *)slot_row(rows, ip, k_hs) + c0,
        (const CSF_T *)slot_row(rows, i,  k_hs) + c0,
        (const CSF_T *)slot_row(rows, in, k_hs) + c0,
    };
    const BAND_T *x[3];
    int64_t sum[3];

    for (int b = 0; b < 3; b++)
        x[b] = (const BAND_T *)slot_row(rows, i, k_x + b) + c0;
    FUNC(adm_cm_row)(s, dsp, sc, sum, x, hs,
                     (const CSF_T *)slot_row(rows, i, k_flt) + 1 + c0,
                     (const CSF_T *)slot_row(rows, i, k_ctr) + c0,
                     g->ir - g->il);
    for (int b = 0; b < 3; b++)
        acc[b] += (sum[b] + rnd) >> g->num_e;
}

/*
 * Scale sc from its DWT input src (reference, distorted). band_a receives
 * the LO/LO bands, the next scale's input; NULL: kept in scratch rows only.
 * With bands_only, only band_a is produced, as libvmaf does for
 * adm_skip_scale0. The totals are added into sums, zeroed by the caller.
 */
static void FUNC(adm_scale)(const ADMContext *s, const FFVmafADMDSPContext *dsp,
                            const ADMRows *rows, int sc,
                            const ADMSource src[2], BAND_T *const band_a[2],
                            int bands_only, ADMScaleSums *sums)
{
    const ADMScaleGeom *g = &s->g[sc];
    const int bw = g->bw, bh = g->bh;
    BAND_T *lo[2], *hi[2], *band[2][3];

    for (int p = 0; p < 2; p++) {
        lo[p] = (BAND_T *)row_at(rows, ROW_LO + p) + 1;
        hi[p] = (BAND_T *)row_at(rows, ROW_HI + p) + 1;
        for (int b = 0; b < 3; b++)
            band[p][b] = row_at(rows, ROW_BAND + 3 * p + b);
    }

    for (int y = 0; y <= bh; y++) {
        for (int p = 0; p < 2 && y < bh; p++) {
            BAND_T *out_a = band_a[p] ? band_a[p] + (ptrdiff_t)y * bw
                                      : row_at(rows, ROW_BAND_A + p);
            const void *in[4];

            for (int k = 0; k < 4; k++)
                in[k] = src[p].data +
                        dwt_row(2 * y - 1 + k, g->h) * src[p].linesize;
            FUNC(adm_dwt_vert)(dsp, sc, lo[p], hi[p], in, g->w, src[p].bpc);
            PAD_ROW(lo[p], g->w);
            PAD_ROW(hi[p], g->w);
            /* LO vertically: band_a (LO) and band_v (HI) horizontally;
             * HI vertically: band_h and band_d. */
            FUNC(adm_dwt_horiz)(dsp, sc, out_a, band[p][1], lo[p], bw);
            FUNC(adm_dwt_horiz)(dsp, sc, band[p][0], band[p][2], hi[p], bw);
        }
        if (bands_only)
            continue;

        /* Every row range below ends at bh at the latest. */
        if (y >= g->ct && y < g->cb) {
            BAND_T *r[3], *a[3], *xr[3], *xa[3];
            const BAND_T *o[3], *t[3], *cr[3], *ca[3];
            const int c0 = g->cl;

            for (int b = 0; b < 3; b++) {
                xr[b] = (BAND_T *)slot_row(rows, y, SLOT_SR + b) + c0;
                xa[b] = (BAND_T *)slot_row(rows, y, SLOT_SA + b) + c0;
                r[b]  = CSF_WRITES_BANDS ?
                        (BAND_T *)row_at(rows, ROW_DECOUPLE + b) + c0 : xr[b];
                a[b]  = CSF_WRITES_BANDS ?
                        (BAND_T *)row_at(rows, ROW_DECOUPLE + 3 + b) + c0 : xa[b];
                cr[b] = r[b];
                ca[b] = a[b];
                o[b]  = band[0][b] + c0;
                t[b]  = band[1][b] + c0;
            }
            dsp->DECOUPLE(r, a, o, t, g->cr - c0, s->enhn_gain_limit,
                          s->div_lut);
            /* The numerator's masker is a, AIM's is r. */
            FUNC(adm_masker_row)(s, dsp, rows, sc, y, xa, ca,
                                 SLOT_FLT_A, SLOT_CTR_A, SLOT_HS_A);
            FUNC(adm_masker_row)(s, dsp, rows, sc, y, xr, cr,
                                 SLOT_FLT_R, SLOT_CTR_R, SLOT_HS_R);
        }
        if (y >= g->it && y < g->ib)
            for (int b = 0; b < 3; b++)
                sums->den[b] += FUNC(adm_den_row)(s, dsp, sc, band[0][b] + g->il,
                                                  g->ir - g->il);

        if (y - 1 >= g->it && y - 1 < g->ib) {
            FUNC(adm_masked_row)(s, dsp, rows, sc, y - 1, SLOT_SR,
                                 SLOT_FLT_A, SLOT_CTR_A, SLOT_HS_A, sums->num);
            if (!s->skip_aim)
                FUNC(adm_masked_row)(s, dsp, rows, sc, y - 1, SLOT_SA,
                                     SLOT_FLT_R, SLOT_CTR_R, SLOT_HS_R,
                                     sums->aim);
        }
    }
}

#undef BAND_T
#undef CSF_T
#undef FUNC
#undef PAD_ROW
#undef DECOUPLE
#undef HSUM3
#undef CSF_WRITES_BANDS
