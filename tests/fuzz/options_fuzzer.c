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
 * The option strings: the input is the filter's model option, a newline,
 * then its feature option (no newline: a feature option alone). Both are
 * parsed on a fresh engine, which is configured for 24x16 8-bit 4:2:0 and
 * given one frame.
 */

#include "fuzz_frames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FFVmafGeometry geo = { 24, 16, 8, 1, 1 };
    FFVmafEngine *e = NULL;
    FuzzBytes b = { data, size, 0 };
    const uint8_t *nl = memchr(data, '\n', size);
    char *models, *features;
    int ret;

    fuzz_init_log();
    /* No file names: an option may name one (path=), which could block. */
    if (memchr(data, '/', size))
        return 0;
    if (!(models = malloc(size + 1)))
        abort();
    memcpy(models, data, size);
    models[size] = 0;
    if (nl) {
        models[nl - data] = 0;
        features = models + (nl - data) + 1;
    } else {
        features = models;
        models   = models + size;   /* "" */
    }
    if (ff_vmaf_engine_alloc(&e, NULL) < 0)
        abort();
    ff_vmaf_engine_set_backend(e, FF_VMAF_BACKEND_CPU, 0);
    if ((ret = ff_vmaf_engine_parse_models(e, models)) >= 0 &&
        (ret = ff_vmaf_engine_parse_features(e, features)) >= 0 &&
        (ret = ff_vmaf_engine_configure(e, &geo, 1, 1)) >= 0)
        fuzz_run_frames(e, &geo, 1, &b, 1);
    ff_vmaf_engine_free(&e);
    free(nl ? models : features);
    return 0;
}
