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
 * The engine on small frames: the first 6 bytes choose the geometry, the
 * storage of each input, the features, a model and the threads; the rest
 * fills the pixels (cycled), with samples beyond the depth unless asked not
 * to. 1 to 3 pairs are pushed, then flushed, pooled and logged.
 *
 *   0: width - 1 (mod 64)       1: height - 1 (mod 64)
 *   2: bits 0-1 depth (8, 10, 12, 16), 2-3 subsampling (4:4:4, 4:2:2,
 *      4:2:0, 4:4:0), 4-5 frames, 6 samples kept within the depth,
 *      7 a second thread
 *   3, 4: one bit per extractor    5: bits 0-1 model (none, vmaf_v0.6.1,
 *      vmaf_float_v0.6.1, vmaf_b_v0.6.3), 2 psnr_hvs/speed_temporal,
 *      3-4 reference storage, 5-6 distorted storage (planar, UV, VU, P010-
 *      like high-bit-packed planar; UV and VU at 10 and 12 bits are
 *      high-bit-packed too when bit 6 is set), 7 n_subsample 2
 */

#include "libavutil/avstring.h"

#include "fuzz_frames.h"

static const char *const extractors[] = {
    "psnr", "motion", "vif", "adm", "cambi", "float_ssim", "float_ms_ssim",
    "ciede", "float_psnr", "float_ansnr", "float_moment", "float_motion",
    "float_vif", "float_adm", "speed_chroma", "psnr_hvs", /* 16 */
};

static const char *const models[] = {
    "", "version=vmaf_v0.6.1", "version=vmaf_float_v0.6.1", "version=vmaf_b_v0.6.3",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int depths[] = { 8, 10, 12, 16 };
    FFVmafGeometry geo = { 0 };
    FFVmafEngine *e = NULL;
    FuzzBytes b;
    char features[512] = "";
    unsigned mask;
    int nb_frames, clamp, threads;

    if (size < 6)
        return 0;
    fuzz_init_log();
    geo.width  = 1 + data[0] % 64;
    geo.height = 1 + data[1] % 64;
    geo.bpc    = depths[data[2] & 3];
    geo.ss_x   = ((data[2] >> 2) & 3) == 1 || ((data[2] >> 2) & 3) == 2;
    geo.ss_y   = ((data[2] >> 2) & 3) >= 2;
    nb_frames  = 1 + ((data[2] >> 4) & 3) % 3;
    clamp      = data[2] >> 6 & 1;
    threads    = 1 + (data[2] >> 7);
    for (int w = 0; w < 2; w++) {
        int s = (data[5] >> (3 + 2 * w)) & 3;
        geo.chroma_layout[w] = s == 1 ? FF_VMAF_CHROMA_UV : s == 2 ? FF_VMAF_CHROMA_VU :
                               FF_VMAF_CHROMA_PLANAR;
        /* Interleaved 10- and 12-bit chroma is high-bit-packed (P010) with
         * samples within the depth, else not shifted (which the engine
         * refuses). */
        geo.sample_shift[w]  = (s == 3 || (s && clamp && geo.bpc != 16)) && geo.bpc > 8 ?
                               16 - geo.bpc : 0;
    }
    mask = data[3] | data[4] << 8;
    for (int i = 0; i < 16; i++)
        if (mask >> i & 1)
            av_strlcatf(features, sizeof(features), "%sname=%s", *features ? "|" : "",
                        i == 15 && data[5] & 4 ? "speed_temporal" : extractors[i]);

    if (ff_vmaf_engine_alloc(&e, NULL) < 0)
        abort();
    ff_vmaf_engine_set_backend(e, FF_VMAF_BACKEND_CPU, 0);
    b = (FuzzBytes){ data + 6, size - 6, 0 };
    if (ff_vmaf_engine_parse_models(e, models[data[5] & 3]) >= 0 &&
        ff_vmaf_engine_parse_features(e, features) >= 0 &&
        ff_vmaf_engine_configure(e, &geo, threads, 1 + (data[5] >> 7)) >= 0)
        fuzz_run_frames(e, &geo, nb_frames, &b, clamp);
    ff_vmaf_engine_free(&e);
    return 0;
}
