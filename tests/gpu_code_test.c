/*
 * Every kernel the host looks up by name is in every code object the build
 * embedded: the NVIDIA fatbin (nvcc) and the AMD offload bundle (hipcc) of
 * each kernels file. Both keep the names of extern "C" kernels as plain
 * strings (symbol tables, PTX), so a missing or mangled name shows here,
 * on a machine without a GPU. Also checks that configure's choice of
 * device compilers is reflected in what was embedded.
 *
 * Usage: gpu_code_test [nv|amd]...   (the code objects that must exist)
 */

#include <stdio.h>
#include <string.h>

#include "libavfilter/vmaf/gpu/code_object.h"

static int contains(const unsigned char *image, unsigned len, const char *name)
{
    size_t n = strlen(name);
    for (unsigned i = 0; i + n <= len; i++)
        if (image[i] == (unsigned char)name[0] && !memcmp(image + i, name, n) &&
            (i + n == len || image[i + n] == 0 || image[i + n] == '\n' ||
             image[i + n] == '(' || image[i + n] == ' ' || image[i + n] == '.'))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int need_nv = 0, need_amd = 0, passed = 0, failed = 0;

    for (int i = 1; i < argc; i++) {
        need_nv  |= !strcmp(argv[i], "nv");
        need_amd |= !strcmp(argv[i], "amd");
    }
    for (int c = 0; ff_vmaf_gpu_codes[c]; c++) {
        const FFVmafGpuCode *code = ff_vmaf_gpu_codes[c];
        const struct {
            const char *what;
            const unsigned char *image;
            const unsigned *len;
            int needed;
        } objs[2] = {
            { "NVIDIA fatbin", code->nv,  code->nv_len,  need_nv  },
            { "AMD bundle",    code->amd, code->amd_len, need_amd },
        };
        for (int o = 0; o < 2; o++) {
            if (!objs[o].image) {
                if (objs[o].needed) {
                    printf("FAIL %s: no %s embedded\n", code->name, objs[o].what);
                    failed++;
                }
                continue;
            }
            for (int k = 0; code->kernels[k]; k++) {
                if (contains(objs[o].image, *objs[o].len, code->kernels[k])) {
                    printf("PASS %s: %s in the %s (%u bytes)\n", code->name,
                           code->kernels[k], objs[o].what, *objs[o].len);
                    passed++;
                } else {
                    printf("FAIL %s: %s missing from the %s\n", code->name,
                           code->kernels[k], objs[o].what);
                    failed++;
                }
            }
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
