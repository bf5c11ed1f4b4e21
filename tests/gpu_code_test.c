/*
 * The GPU code the build embedded, and the choice of AMD code object.
 *
 * Every kernel the host looks up by name is in every code object of every
 * kernels file: each cubin and the PTX of the NVIDIA fatbin (nvcc), each
 * target's code object of the AMD offload bundle (clang). Both keep the
 * names of extern "C" kernels as plain strings (symbol tables, PTX), so a
 * missing or mangled name shows here, on a machine without a GPU. The
 * targets are those configure promised, no more and no fewer; each AMD
 * code object is an ELF of its target's machine, in code object v4 (which
 * every ROCm from 5.0 on loads).
 *
 * Then the runtime's choice of AMD code object (amd_code.h) for device
 * names, over a bundle made here (on any build) and over the embedded ones
 * (a gfx1201 device runs the gfx1201 code of each).
 *
 * Usage: gpu_code_test [nv[=sm_75,...,compute_120]] [amd[=gfx900,...]]
 *   nv, amd: that vendor's code objects must exist; with a list, with
 *   exactly those targets.
 */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/macros.h"

#include "libavfilter/vmaf/gpu/amd_code.h"
#include "libavfilter/vmaf/gpu/code_object.h"

static int passed, failed;

static void check(int ok, const char *fmt, ...)
{
    va_list va;
    printf("%s ", ok ? "PASS" : "FAIL");
    va_start(va, fmt);
    vprintf(fmt, va);
    va_end(va);
    printf("\n");
    ok ? passed++ : failed++;
}

static int contains(const unsigned char *image, size_t len, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i + n <= len; i++)
        if (image[i] == (unsigned char)name[0] && !memcmp(image + i, name, n) &&
            (i + n == len || image[i + n] == 0 || image[i + n] == '\n' ||
             image[i + n] == '(' || image[i + n] == ' ' || image[i + n] == '.'))
            return 1;
    return 0;
}

/* Whether name is in the comma-separated list. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strcspn(p, ",") == n && !memcmp(p, name, n))
            return 1;
    return 0;
}

static uint32_t rl32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rl64(const uint8_t *p) { return rl32(p) | (uint64_t)rl32(p + 4) << 32; }

/* ---- NVIDIA: a fatbin is a 16-byte header (magic 0xBA55ED50, version,
 * header size, size of what follows), then entries: kind (1 PTX, 2 ELF)
 * at 0, the entry's header size at 4, its payload's size at 8, the
 * compute capability (major * 10 + minor) at 28. ---- */

typedef struct NvEntry {
    char name[32];                      ///< sm_90 (a cubin), compute_120 (PTX)
    const uint8_t *payload;
    size_t size;
} NvEntry;

static int nv_entries(const uint8_t *fb, size_t len, NvEntry *e, int max)
{
    size_t pos, end;
    int nb = 0;

    if (len < 16 || rl32(fb) != 0xBA55ED50)
        return -1;
    pos = fb[6] | fb[7] << 8;
    end = FFMIN(len, pos + rl64(fb + 8));
    while (pos + 32 <= end && nb < max) {
        unsigned kind = fb[pos] | fb[pos + 1] << 8;
        size_t hsize = rl32(fb + pos + 4), size = rl64(fb + pos + 8);
        if (hsize < 32 || hsize > end - pos || size > end - pos - hsize)
            return -1;
        snprintf(e[nb].name, sizeof(e[nb].name), "%s_%u", kind == 1 ? "compute" : "sm",
                 (unsigned)rl32(fb + pos + 28));
        e[nb].payload = fb + pos + hsize;
        e[nb].size    = size;
        nb++;
        pos += hsize + size;
    }
    return nb;
}

/* The kernels of code missing from image, as a list, or "" when none. */
static const char *missing(const FFVmafGpuCode *code, const uint8_t *image, size_t size)
{
    static char list[1024];
    int n = 0;

    list[0] = 0;
    for (int k = 0; code->kernels[k]; k++)
        if (!contains(image, size, code->kernels[k]))
            n += snprintf(list + n, sizeof(list) - FFMIN(n, sizeof(list)), " %s", code->kernels[k]);
    return list;
}

static int nb_kernels(const FFVmafGpuCode *code)
{
    int k = 0;
    while (code->kernels[k])
        k++;
    return k;
}

/* Every entry of expect (a list) among the nb names of have. */
static void check_promised(const char *what, const char *expect, const char *const *have, int nb)
{
    int all = 1;
    for (const char *p = expect; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        int found = 0;
        for (int i = 0; i < nb; i++)
            found |= strlen(have[i]) == strcspn(p, ",") && !memcmp(have[i], p, strlen(have[i]));
        if (!found)
            check(0, "%s lacks %.*s", what, (int)strcspn(p, ","), p);
        all &= found;
    }
    for (int i = 0; i < nb; i++)
        if (expect && !listed(expect, have[i])) {
            check(0, "%s has %s, which configure did not promise", what, have[i]);
            all = 0;
        }
    if (expect && all)
        check(1, "%s has the %d target%s configure promised", what, nb, nb > 1 ? "s" : "");
}

static void check_nv(const FFVmafGpuCode *code, const char *expect)
{
    NvEntry e[64];
    const char *names[64];
    char what[64];
    int nb = nv_entries(code->nv, *code->nv_len, e, 64);

    snprintf(what, sizeof(what), "%s: the NVIDIA fatbin", code->name);
    if (nb <= 0) {
        check(0, "%s cannot be read", what);
        return;
    }
    for (int i = 0; i < nb; i++) {
        const char *m = missing(code, e[i].payload, e[i].size);
        names[i] = e[i].name;
        /* PTX may be stored compressed: its names are then not looked for. */
        if (e[i].name[0] == 'c' && !contains(e[i].payload, e[i].size, ".version"))
            check(1, "%s's %s (compressed PTX)", what, e[i].name);
        else
            check(!*m, "%s's %s has its %d kernels%s%s", what, e[i].name, nb_kernels(code),
                  *m ? "; missing:" : "", m);
    }
    check_promised(what, expect, names, nb);
}

/* ---- AMD ---- */

/* EF_AMDGPU_MACH of each target (LLVM's ELF.h). */
static const struct { const char *target; unsigned mach; } machs[] = {
    { "gfx900",  0x2c }, { "gfx902",  0x2d }, { "gfx904",  0x2e }, { "gfx906",  0x2f },
    { "gfx908",  0x30 }, { "gfx909",  0x31 }, { "gfx90c",  0x32 }, { "gfx90a",  0x3f },
    { "gfx940",  0x40 }, { "gfx941",  0x4b }, { "gfx942",  0x4c }, { "gfx950",  0x4f },
    { "gfx1010", 0x33 }, { "gfx1011", 0x34 }, { "gfx1012", 0x35 }, { "gfx1013", 0x42 },
    { "gfx1030", 0x36 }, { "gfx1031", 0x37 }, { "gfx1032", 0x38 }, { "gfx1033", 0x39 },
    { "gfx1034", 0x3e }, { "gfx1035", 0x3d }, { "gfx1036", 0x45 },
    { "gfx1100", 0x41 }, { "gfx1101", 0x46 }, { "gfx1102", 0x47 }, { "gfx1103", 0x44 },
    { "gfx1150", 0x43 }, { "gfx1151", 0x4a }, { "gfx1152", 0x55 },
    { "gfx1200", 0x48 }, { "gfx1201", 0x4e },
    { "gfx9-generic", 0x51 }, { "gfx10-1-generic", 0x52 }, { "gfx10-3-generic", 0x53 },
    { "gfx11-generic", 0x54 }, { "gfx12-generic", 0x59 },
};

static int mach_of(const char *target)
{
    size_t n = strcspn(target, ":");
    for (int i = 0; i < FF_ARRAY_ELEMS(machs); i++)
        if (strlen(machs[i].target) == n && !memcmp(machs[i].target, target, n))
            return machs[i].mach;
    return -1;
}

static void check_amd(const FFVmafGpuCode *code, const char *expect)
{
    FFGpuAmdCode c[FF_GPU_AMD_MAX_CODES];
    const char *names[FF_GPU_AMD_MAX_CODES];
    char what[64];
    int nb = ff_gpu_amd_codes(code->amd, *code->amd_len, c, FF_ARRAY_ELEMS(c));

    snprintf(what, sizeof(what), "%s: the AMD bundle", code->name);
    if (nb <= 0) {
        check(0, "%s has no code object it can read", what);
        return;
    }
    for (int i = 0; i < nb; i++) {
        const uint8_t *elf = c[i].image;
        const char *m = missing(code, c[i].image, c[i].size);
        int k = ff_gpu_amd_pick(c, nb, c[i].target);

        names[i] = c[i].target;
        /* ELFCLASS64, ELFOSABI_AMDGPU_HSA, ELFABIVERSION_AMDGPU_HSA_V4, the
         * target's machine; a device of that target runs it; every kernel. */
        check(c[i].size > 0x34 && elf[4] == 2 && elf[7] == 64 && elf[8] == 2 &&
              (int)(rl32(elf + 0x30) & 0xff) == mach_of(c[i].target) && k == i && !*m,
              "%s's %s: an ELF for that machine, code object v4, the one a %s device runs, "
              "with its %d kernels%s%s", what, c[i].target, c[i].target, nb_kernels(code),
              *m ? "; missing:" : "", m);
    }
    check_promised(what, expect, names, nb);
}

/* ---- the choice, over a bundle made here ---- */

static size_t put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = v >> 8 * i;
    return 8;
}

/* A bundle of these IDs, each entry an ELF header's magic and its index. */
static size_t make_bundle(uint8_t *b, const char *const *ids, int nb)
{
    size_t pos = 24, data;

    memcpy(b, "__CLANG_OFFLOAD_BUNDLE__", 24);
    pos += put64(b + pos, nb);
    data = pos;
    for (int i = 0; i < nb; i++)
        data += 24 + strlen(ids[i]);
    for (int i = 0; i < nb; i++) {
        int host = !strncmp(ids[i], "host-", 5);
        pos += put64(b + pos, data);
        pos += put64(b + pos, host ? 0 : 8);
        pos += put64(b + pos, strlen(ids[i]));
        memcpy(b + pos, ids[i], strlen(ids[i]));
        pos += strlen(ids[i]);
        if (!host) {
            memcpy(b + data, "\x7f" "ELF", 4);
            b[data + 4] = i;
            b[data + 5] = b[data + 6] = b[data + 7] = 0;
            data += 8;
        }
    }
    return data;
}

static void check_choice(void)
{
    static const char *const ids[] = {
        "host-x86_64-unknown-linux--",
        "hipv4-amdgcn-amd-amdhsa--gfx906",
        "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+",
        "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-",
        "hipv4-amdgcn-amd-amdhsa--gfx90a",
        "hip-amdgcn-amd-amdhsa-gfx1030",              /* code object v2/v3: not used */
        "hipv4-amdgcn-amd-amdhsa--gfx1100",
        "hipv4-amdgcn-amd-amdhsa--gfx11-generic",
        "hipv4-amdgcn-amd-amdhsa--gfx1201",
        "hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
    };
    static const struct { const char *arch, *picks; } cases[] = {
        { "gfx1201",                "gfx1201"         },
        { "gfx1100",                "gfx1100"         },
        { "gfx1102",                "gfx11-generic"   },  /* RDNA3 without code of its own */
        { "gfx1151",                "gfx11-generic"   },  /* RDNA3.5: the same family */
        { "gfx90a:sramecc+:xnack+", "gfx90a:xnack+"   },
        { "gfx90a:sramecc+:xnack-", "gfx90a:xnack-"   },
        { "gfx90a",                 "gfx90a"          },  /* unstated xnack: the code for any */
        { "gfx906:sramecc-:xnack-", "gfx906"          },
        { "gfx942:sramecc+:xnack-", "gfx942:sramecc+:xnack-" },
        { "gfx942:sramecc-:xnack-", NULL              },  /* the only gfx942 code needs sramecc */
        { "gfx1030",                NULL              },  /* only a v2/v3 entry */
        { "gfx1200",                NULL              },  /* no gfx12-generic in this bundle */
        { "gfx908:xnack-",          NULL              },  /* no family */
        { "sm_90",                  NULL              },
        { "",                       NULL              },
    };
    static const struct { const char *arch, *generic; } families[] = {
        { "gfx906:xnack-", "gfx9-generic"    }, { "gfx90c",  "gfx9-generic"    },
        { "gfx908",        NULL              }, { "gfx90a",  NULL              },
        { "gfx942",        "gfx9-4-generic"  }, { "gfx1012", "gfx10-1-generic" },
        { "gfx1036",       "gfx10-3-generic" }, { "gfx1103", "gfx11-generic"   },
        { "gfx1151",       "gfx11-generic"   }, { "gfx1201", "gfx12-generic"   },
        { "gfx1250",       NULL              }, { "gfx11",   NULL              },
    };
    uint8_t b[2048];
    FFGpuAmdCode c[16];
    size_t size = make_bundle(b, ids, FF_ARRAY_ELEMS(ids));
    int nb = ff_gpu_amd_codes(b, size, c, 16), ok = nb == 8;

    for (int i = 0; ok && i < nb; i++)
        ok = c[i].size == 8 && c[i].image[4] == (i < 4 ? i + 1 : i + 2);
    check(ok, "choice: a bundle's 8 code objects read, the host's and a v2/v3 one left");
    check(ff_gpu_amd_codes(b, size, c, 16) == ff_gpu_amd_codes(b, 0, c, 16),
          "choice: an embedded bundle (size not given) reads the same");
    check(ff_gpu_amd_codes(b, size - 9, c, 16) < 0 && ff_gpu_amd_codes(b, 40, c, 16) < 0 &&
          ff_gpu_amd_codes((const uint8_t *)"CCOB", 4, c, 16) < 0,
          "choice: a cut or compressed bundle is no bundle it reads");
    nb = ff_gpu_amd_codes(b, size, c, 16);
    for (int i = 0; i < FF_ARRAY_ELEMS(cases); i++) {
        int k = ff_gpu_amd_pick(c, nb, cases[i].arch);
        const char *got = k >= 0 ? c[k].target : NULL;
        check(cases[i].picks ? got && !strcmp(got, cases[i].picks) : !got,
              "choice: a '%s' device runs %s (%s)", cases[i].arch,
              cases[i].picks ? cases[i].picks : "none", got ? got : "none");
    }
    for (int i = 0; i < FF_ARRAY_ELEMS(families); i++) {
        const char *g = ff_gpu_amd_generic(families[i].arch);
        check(families[i].generic ? g && !strcmp(g, families[i].generic) : !g,
              "choice: %s's family: %s (%s)", families[i].arch,
              families[i].generic ? families[i].generic : "none", g ? g : "none");
    }
}

/* The architecture in hipGetDeviceProperties' structure, of either layout:
 * ROCm 5's (name[256], ..., int gcnArch, char gcnArchName[256]) and one
 * where a field before it is not zero. */
static void check_arch_in(void)
{
    static uint8_t props[2048];
    char arch[64] = "";
    int ret;

    memset(props, 0, sizeof(props));
    strcpy((char *)props, "AMD Radeon RX 9070 XT (gfx1201 inside)");
    props[600] = 0xb1, props[601] = 0x04;                   /* gcnArch 1201 */
    strcpy((char *)props + 604, "gfx1201");
    ret = ff_gpu_amd_arch_in(props, sizeof(props), arch, sizeof(arch));
    check(ret == 0 && !strcmp(arch, "gfx1201"), "choice: the architecture of a ROCm 5 "
          "structure: %s (%s)", "gfx1201", arch);

    memset(props, 0, sizeof(props));
    strcpy((char *)props, "AMD Instinct MI210");
    memset(props + 1000, 0xff, 8);
    strcpy((char *)props + 1008, "gfx90a:sramecc+:xnack-");
    props[1007] = 0;
    ret = ff_gpu_amd_arch_in(props, sizeof(props), arch, sizeof(arch));
    check(ret == 0 && !strcmp(arch, "gfx90a:sramecc+:xnack-"), "choice: with its features: %s (%s)",
          "gfx90a:sramecc+:xnack-", arch);

    memset(props, 0, sizeof(props));
    strcpy((char *)props, "no architecture here");
    strcpy((char *)props + 300, "xgfx1100");
    memcpy(props + sizeof(props) - 7, "gfx1100", 7);        /* not terminated */
    check(ff_gpu_amd_arch_in(props, sizeof(props), arch, sizeof(arch)) < 0,
          "choice: none found where there is none");
}

int main(int argc, char **argv)
{
    const char *nv_list = NULL, *amd_list = NULL;
    int need_nv = 0, need_amd = 0;

    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "nv", 2) && (!argv[i][2] || argv[i][2] == '=')) {
            need_nv = 1;
            nv_list = argv[i][2] ? argv[i] + 3 : NULL;
        } else if (!strncmp(argv[i], "amd", 3) && (!argv[i][3] || argv[i][3] == '=')) {
            need_amd = 1;
            amd_list = argv[i][3] ? argv[i] + 4 : NULL;
        } else {
            fprintf(stderr, "usage: gpu_code_test [nv[=sm_75,...]] [amd[=gfx900,...]]\n");
            return 2;
        }
    }
    for (int c = 0; ff_vmaf_gpu_codes[c]; c++) {
        const FFVmafGpuCode *code = ff_vmaf_gpu_codes[c];
        if (code->nv)
            check_nv(code, nv_list);
        else if (need_nv)
            check(0, "%s: no NVIDIA fatbin embedded", code->name);
        if (code->amd)
            check_amd(code, amd_list);
        else if (need_amd)
            check(0, "%s: no AMD bundle embedded", code->name);
    }
    check_choice();
    check_arch_in();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
