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
 * The model reader: the input is a model file. It is loaded from memory
 * (not NUL-terminated, so a read past the end is caught); a model that
 * loads is described, asked for its inputs and outputs and made to
 * predict, then loaded again from a file through the engine's model option
 * ("path=...") and run on two 32x32 frames.
 */

#include <math.h>
#include <unistd.h>

#include "libavutil/mem.h"
#include "libavfilter/vmaf/model.h"

#include "fuzz_frames.h"

static char path[64];

static void remove_model(void)
{
    unlink(path);
}

static void write_model(const uint8_t *data, size_t size)
{
    FILE *f;
    if (!path[0]) {
        int fd;
        strcpy(path, "/tmp/vmaf-model-fuzz-XXXXXX");
        if ((fd = mkstemp(path)) < 0)
            abort();
        close(fd);
        atexit(remove_model);
    }
    if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size || fclose(f))
        abort();
}

static void run_engine(const uint8_t *data, size_t size)
{
    FFVmafGeometry geo = { 32, 32, 8, 1, 1 };
    FFVmafEngine *e = NULL;
    FuzzBytes b = { data, size, 0 };
    char opt[128];

    write_model(data, size);
    snprintf(opt, sizeof(opt), "path=%s:name=fuzz", path);
    if (ff_vmaf_engine_alloc(&e, NULL) < 0)
        abort();
    ff_vmaf_engine_set_backend(e, FF_VMAF_BACKEND_CPU, 0);
    if (ff_vmaf_engine_parse_models(e, opt) >= 0 &&
        ff_vmaf_engine_configure(e, &geo, 1, 1) >= 0)
        fuzz_run_frames(e, &geo, 2, &b, 1);
    ff_vmaf_engine_free(&e);
    if (e)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The size picks the configuration, so the bytes stay a plain file. */
    FFVmafModelConfig cfg = { size & 4 ? "m" : NULL, size & 1, !!(size & 2) };
    FFVmafModel *m = NULL;
    double in[64], out[512];
    int nb_in, nb_out;

    fuzz_init_log();
    if (ff_vmaf_model_load_buffer(&m, (const char *)data, size, &cfg, "fuzz", NULL) < 0) {
        if (m)
            abort();
        return 0;
    }
    if (!m)
        abort();
    ff_vmaf_model_describe(m, NULL, AV_LOG_INFO);
    nb_in  = ff_vmaf_model_nb_inputs(m);
    nb_out = ff_vmaf_model_nb_outputs(m);
    if (nb_in < 0 || nb_out < 1 || !ff_vmaf_model_name(m))
        abort();
    for (int j = 0; j < nb_in; j++) {
        const FFVmafModelInput *mi = ff_vmaf_model_input(m, j);
        if (strlen(mi->feature) + strlen(mi->extractor) + strlen(mi->opts) > 1 << 20)
            abort();
    }
    for (int k = 0; k < nb_out; k++)
        if (!ff_vmaf_model_output_key(m, k))
            abort();
    if (nb_in <= 64 && nb_out <= 512) {
        static const double values[] = { 0.0, 0.5, 1.0, -1.0, 1e300, NAN, INFINITY };
        for (int v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
            for (int j = 0; j < nb_in; j++)
                in[j] = values[v];
            ff_vmaf_model_predict(m, in, nb_in, out);
        }
    }
    ff_vmaf_model_free(&m);
    if (m)
        abort();
    run_engine(data, size);
    return 0;
}
