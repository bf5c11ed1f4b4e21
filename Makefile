# vmaf_hip: build FFmpeg with the vmaf_hip filter, test it, benchmark it.
#
#   make                 fetch FFmpeg, overlay the project, build build/ffmpeg
#                        (and build/vmaf-merge, which merges chunks of a run)
#   make check           every test; the last line reads "N passed, N failed"
#   make tests           the test programs only (build/tests; make check builds them)
#   make sanitized       the engine with ASan and UBSan, its tests and ffmpeg (build/asan)
#   make fuzzers         the libFuzzer targets of tests/fuzz (build/fuzz; needs clang-14)
#   make demo            score a built-in test pattern against a blurred copy
#   make bench           frames per second at 576x324, 1080p and 4K
#   make patches         the project as a git format-patch series against the
#                        FFmpeg source the build uses (PATCHES=<dir>)
#   make dist            build/dist/vmaf-hip-<version>-linux-x86_64.tar.xz, relocatable
#   make deb             build/dist/vmaf-hip_<version>+deb<N>_amd64.deb, for this Debian
#   make dist-check      both, unpacked and installed in minimal Debian 12 and 13 roots
#
# Overrides: FFMPEG_VERSION=9.0.2|8.1.2, FFMPEG_TARBALL=<file.tar.xz>,
# FFMPEG_SRC=<tree> (never modified: it is copied), FFMPEG_CONFIGURE_EXTRA=...,
# LGPL=1 (no GPL libraries), SMALL=1 (a minimal ffmpeg for quick iterations),
# JOBS=<n>. All but JOBS are remembered in $(BUILD)/config.vars: a later
# plain `make` keeps them; give one again (VAR= to clear it) to change it.

TOP     := $(CURDIR)
BUILD   ?= $(TOP)/build
CACHE   := $(TOP)/.cache
SRCTREE := $(BUILD)/src
OBJDIR  := $(BUILD)/obj
export TMPDIR := $(BUILD)/tmp

REMEMBERED := FFMPEG_VERSION FFMPEG_TARBALL FFMPEG_SRC FFMPEG_CONFIGURE_EXTRA LGPL SMALL
-include $(BUILD)/config.vars

FFMPEG_VERSION ?= 9.0.2
FFMPEG_TARBALL ?=
FFMPEG_SRC     ?=
FFMPEG_CONFIGURE_EXTRA ?=
LGPL  ?=
SMALL ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# Write the effective values back when they differ from the file's.
define remember_line
$(1) := $(value $(1))

endef
REMEMBER_TEXT := $(foreach v,$(REMEMBERED),$(call remember_line,$(v)))
ifneq ($(MAKECMDGOALS),clean)
ifneq ($(strip $(REMEMBER_TEXT)),$(strip $(file < $(BUILD)/config.vars)))
$(shell mkdir -p $(BUILD))
$(file > $(BUILD)/config.vars,$(REMEMBER_TEXT))
endif
endif

# The Debian packages of the build (installed once when run as root; the
# command to run is named otherwise).
ifeq ($(filter clean,$(MAKECMDGOALS)),)
DEPS_FAILED := $(shell sh tools/deps.sh $(BUILD)/deps-ok "$(LGPL)" "$(SMALL)" >&2 || echo yes)
ifneq ($(DEPS_FAILED),)
$(error The build's packages are missing (see above))
endif
endif

# ffnvcodec headers new enough for this FFmpeg: the system's, or built from
# Debian's source package into $(BUILD)/ffnvcodec.
ifeq ($(SMALL)$(filter clean,$(MAKECMDGOALS)),)
NVCODEC := $(shell sh tools/fetch-ffnvcodec.sh $(CACHE) $(BUILD)/ffnvcodec)
ifneq ($(filter-out system,$(NVCODEC)),)
export PKG_CONFIG_PATH := $(NVCODEC)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
endif
endif

# The complete FFmpeg (its own defaults: every native decoder, demuxer,
# muxer, parser, protocol and filter), plus the Debian libraries the
# encoder-tuning workflows need. libx264 and libx265 make the binary GPL;
# LGPL=1 leaves them out. NVIDIA hardware decoding (NVDEC, CUDA frames)
# needs only the ffnvcodec headers; nothing proprietary is linked.
FULL_FLAGS = \
    --disable-doc --disable-debug \
    --enable-libdav1d --enable-libvpx --enable-libaom --enable-libsvtav1 \
    $(if $(LGPL),,--enable-gpl --enable-libx264 --enable-libx265) \
    $(if $(NVCODEC),--enable-ffnvcodec --enable-cuda --enable-nvdec --enable-cuvid)

# What the filter, the demo and the tests need; everything else stays off
# so a build takes minutes.
SMALL_FLAGS = \
    --disable-everything --disable-doc --disable-autodetect --disable-network \
    --disable-debug --enable-indev=lavfi \
    --enable-protocol=file,pipe,fd \
    --enable-demuxer=rawvideo,yuv4mpegpipe,image2 \
    --enable-decoder=rawvideo,wrapped_avframe \
    --enable-encoder=rawvideo,wrapped_avframe,pcm_s16le \
    --enable-muxer=null,rawvideo,framecrc,framemd5,md5,crc,yuv4mpegpipe \
    --enable-filter=vmaf_hip,vmaf_hip_libvmaf,avgblur,noise,testsrc,testsrc2,color,nullsrc,format,scale,metadata,null,split,trim,setpts,showinfo,psnr,ssim,vmafmotion,crop,movie

CONFIGURE_FLAGS = \
    $(if $(SMALL),$(SMALL_FLAGS),$(FULL_FLAGS)) \
    $(if $(shell command -v nasm 2>/dev/null),,--disable-x86asm) \
    --enable-hip $(HIP_FLAGS) \
    $(FFMPEG_CONFIGURE_EXTRA)

# GPU kernels are built for every device compiler found: clang++-19 (AMD,
# with Debian's ROCm device libraries and HIP headers) and nvcc (NVIDIA,
# also looked for in /usr/local/cuda). Neither is needed: the filter then
# runs on the CPU only. The build ends with a line that says which code it
# embedded ("GPU code: AMD gfx900,...; NVIDIA sm_75,..."), or why none.
NVCC_PATH := $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
HIP_FLAGS = $(if $(NVCC_PATH),--hip-nvcc=$(NVCC_PATH))

all: $(BUILD)/ffmpeg $(BUILD)/ffprobe

# ---- FFmpeg source: tarball from Debian's archive, a given tarball or tree ----

ifneq ($(FFMPEG_SRC),)
SOURCE_ID := tree:$(abspath $(FFMPEG_SRC))
else ifneq ($(FFMPEG_TARBALL),)
SOURCE_ID := tarball:$(abspath $(FFMPEG_TARBALL))
else
SOURCE_ID := debian:$(FFMPEG_VERSION)
endif

# Rebuild the tree from scratch when the source, configure.patch or the
# overlay script change.
$(BUILD)/source-id: FORCE
	@mkdir -p $(BUILD) $(TMPDIR)
	@echo '$(SOURCE_ID)' | cmp -s - $@ || echo '$(SOURCE_ID)' > $@

# A new source drops the objects too; a changed patch or overlay keeps them:
# tar restores the sources' own times, so only what the patch touched (and
# what includes it) is rebuilt.
$(SRCTREE)/.patched: $(BUILD)/source-id configure.patch tools/overlay.sh
	cmp -s $(BUILD)/source-id $(SRCTREE)/.source-id 2>/dev/null || rm -rf $(OBJDIR)
	rm -rf $(SRCTREE)
ifneq ($(FFMPEG_SRC),)
	@test -f $(FFMPEG_SRC)/configure || { echo "FFMPEG_SRC=$(FFMPEG_SRC) is not an FFmpeg tree" >&2; exit 1; }
	mkdir -p $(SRCTREE)
	cd $(FFMPEG_SRC) && tar cf - --exclude=.git . | (cd $(SRCTREE) && tar xf -)
else ifneq ($(FFMPEG_TARBALL),)
	mkdir -p $(SRCTREE)
	tar xf $(FFMPEG_TARBALL) -C $(SRCTREE) --strip-components=1
else
	sh tools/fetch-ffmpeg.sh $(FFMPEG_VERSION) $(CACHE)
	mkdir -p $(SRCTREE)
	tar xf $(CACHE)/ffmpeg_$(FFMPEG_VERSION).orig.tar.xz -C $(SRCTREE) --strip-components=1
endif
	sh tools/overlay.sh patch $(SRCTREE)
	cp $(BUILD)/source-id $(SRCTREE)/.source-id
	touch $@

# Reconfigure when the configure flags change.
$(BUILD)/configure-flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CONFIGURE_FLAGS)' | cmp -s - $@ || echo '$(CONFIGURE_FLAGS)' > $@

# ffbuild/config.mak is what FFmpeg's configure writes on every run. A
# changed list of the build's packages (tools/deps.sh rewrites its stamp)
# configures again: configure finds some libraries by itself.
$(OBJDIR)/ffbuild/config.mak: $(SRCTREE)/.patched $(BUILD)/configure-flags $(BUILD)/deps-ok
	mkdir -p $(OBJDIR)
	@echo "configure $(strip $(CONFIGURE_FLAGS))"
	cd $(OBJDIR) && $(SRCTREE)/configure $(CONFIGURE_FLAGS) > configure.log 2>&1 || \
	    { tail -30 $(OBJDIR)/configure.log; exit 1; }

$(BUILD)/ffmpeg $(BUILD)/ffprobe: build-ffmpeg
	@:

# The overlay runs on every build; it only touches files that changed.
build-ffmpeg: $(OBJDIR)/ffbuild/config.mak
	@sh tools/overlay.sh sync $(SRCTREE)
	$(MAKE) -C $(OBJDIR) -j$(JOBS) ffmpeg ffprobe
	@ln -sf obj/ffmpeg $(BUILD)/ffmpeg
	@ln -sf obj/ffprobe $(BUILD)/ffprobe
	@sed -n 's/^VMAF_HIP_GPU_CODE=/GPU code: /p' $(OBJDIR)/ffbuild/config.mak

# ---- test programs: $(BUILD)/tests/<name>, run by tests/run.sh ----
#
# The unit tests (tests/<name>_test.c with tests/clips.c), engine_bench and
# checkasm (tests/checkasm/*.c) are linked against the engine's objects as
# FFmpeg built them and libavutil.a; range_clip stands alone; lifecycle_test
# links FFmpeg's static libraries (built only where there are some). A
# program is built again when its sources, a header they include, an object
# or archive it links, or its command line changed; one that does not build
# is removed, so run.sh reports it. `make tests` builds FFmpeg first, then
# these in a make of their own, which sees the objects that build made.

TESTS_DIR    := $(BUILD)/tests
TEST_CFLAGS  := -std=c11 -O2 -ffp-contract=off -I$(TOP) -I$(OBJDIR) -I$(SRCTREE)
TEST_LIBS    := -lm -pthread -ldl
# The engine's objects are those of the synced tree's sources (.c, and the
# code objects of each .hip) that FFmpeg built: an object left behind by a
# source since removed or moved is not linked.
ENGINE_DIRS  := vmaf vmaf/x86 vmaf/gpu vmaf/features vmaf/features/x86 vmaf/features/gpu
ENGINE_SRCS  := $(wildcard $(foreach d,$(ENGINE_DIRS),$(SRCTREE)/libavfilter/$(d)/*.c \
                                                      $(SRCTREE)/libavfilter/$(d)/*.hip))
ENGINE_OBJS  := $(sort $(wildcard $(patsubst $(SRCTREE)/%.c,$(OBJDIR)/%.o,$(filter %.c,$(ENGINE_SRCS))) \
                                  $(foreach e,fatbin hsaco,\
                                      $(patsubst $(SRCTREE)/%.hip,$(OBJDIR)/%.$(e).o,$(filter %.hip,$(ENGINE_SRCS))))))
LIBAVUTIL    := $(OBJDIR)/libavutil/libavutil.a
UNIT_TESTS   := $(filter-out lifecycle_test,$(patsubst $(TOP)/tests/%.c,%,$(wildcard $(TOP)/tests/*_test.c)))
CHECKASM_SRC := $(wildcard $(TOP)/tests/checkasm/*.c)
LC_LIBNAMES  := avfilter avformat avcodec swresample swscale avutil
LC_ARCHIVES  := $(wildcard $(foreach l,$(LC_LIBNAMES),$(OBJDIR)/lib$(l)/lib$(l).a))
FFCONFIG_MAK := $(OBJDIR)/ffbuild/config.mak
TEST_PROGRAMS := $(addprefix $(TESTS_DIR)/,$(UNIT_TESTS) engine_bench checkasm range_clip \
                 $(if $(filter %/libavfilter.a,$(LC_ARCHIVES)),lifecycle_test))
Q := $(if $(filter 1,$(V)),,@)

tests: all
	@$(MAKE) --no-print-directory -j$(JOBS) test-programs

test-programs: $(TEST_PROGRAMS)

# What every program's command line is made of: a change relinks them all.
$(TESTS_DIR)/link-line: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(TEST_CFLAGS) $(TEST_LIBS) $(ENGINE_OBJS) $(CHECKASM_SRC) $(LC_ARCHIVES)' | \
	    cmp -s - $@ || echo '$(CC) $(TEST_CFLAGS) $(TEST_LIBS) $(ENGINE_OBJS) $(CHECKASM_SRC) $(LC_ARCHIVES)' > $@

# $(call test_cc,flags,sources,link arguments): compile and link $@ in one
# command, after writing the headers the sources include to $@.d (written
# whole or not at all).
define test_cc
@rm -f $@
@printf 'CC\t%s\n' $@
$(Q)$(CC) $(1) -MM -MP -MT $@ $(2) > $@.d.tmp && mv $@.d.tmp $@.d
$(Q)$(CC) $(1) $(2) $(3) -o $@
endef

$(UNIT_TESTS:%=$(TESTS_DIR)/%): $(TESTS_DIR)/%: $(TOP)/tests/%.c $(TOP)/tests/clips.c $(ENGINE_OBJS) \
        $(LIBAVUTIL) $(TESTS_DIR)/link-line
	$(call test_cc,$(TEST_CFLAGS),$< $(TOP)/tests/clips.c,$(ENGINE_OBJS) $(LIBAVUTIL) $(TEST_LIBS))

$(TESTS_DIR)/engine_bench: $(TOP)/tests/engine_bench.c $(ENGINE_OBJS) $(LIBAVUTIL) $(TESTS_DIR)/link-line
	$(call test_cc,$(TEST_CFLAGS),$<,$(ENGINE_OBJS) $(LIBAVUTIL) $(TEST_LIBS))

$(TESTS_DIR)/checkasm: $(CHECKASM_SRC) $(ENGINE_OBJS) $(LIBAVUTIL) $(TESTS_DIR)/link-line
	$(call test_cc,$(TEST_CFLAGS),$(CHECKASM_SRC),$(ENGINE_OBJS) $(LIBAVUTIL) $(TEST_LIBS))

$(TESTS_DIR)/range_clip: $(TOP)/tests/range_clip.c $(TESTS_DIR)/link-line
	$(call test_cc,-std=c11 -O2,$<,)

# The libraries this configuration builds, in linking order, then the
# external libraries configure found for each of them; a change relinks.
LC_LINK = $(shell libs=; extra=; \
    for l in $(LC_LIBNAMES); do \
        u=$$(echo $$l | tr a-z A-Z); \
        grep -q "^CONFIG_$$u=yes" $(FFCONFIG_MAK) || continue; \
        libs="$$libs $(OBJDIR)/lib$$l/lib$$l.a"; \
        extra="$$extra $$(sed -n "s/^EXTRALIBS-$$l=//p" $(FFCONFIG_MAK))"; \
    done; \
    echo $$libs $$extra $$(sed -n 's/^EXTRALIBS=//p' $(FFCONFIG_MAK)))

$(TESTS_DIR)/lifecycle-link: FORCE
	@mkdir -p $(@D)
	@echo '$(LC_LINK)' | cmp -s - $@ || echo '$(LC_LINK)' > $@

$(TESTS_DIR)/lifecycle_test: $(TOP)/tests/lifecycle_test.c $(LC_ARCHIVES) $(TESTS_DIR)/lifecycle-link \
        $(TESTS_DIR)/link-line
	$(call test_cc,-std=c11 -O2 -I$(OBJDIR) -I$(SRCTREE),$<,$(LC_LINK) $(TEST_LIBS))

-include $(wildcard $(TESTS_DIR)/*.d)

# ---- the engine instrumented: sanitized programs and fuzz targets ----
#
# The engine's sources compiled again, each variant into a folder of its
# own (only what changed: -MMD dependencies, and a change of flags rebuilds
# all), and the programs tests/sanitizers.sh and tests/fuzz/run.sh run
# linked against them, with the GPU code objects (data) and libavutil.a.
#   sanitized: FFmpeg's compiler and flags, -O1 and ASan + UBSan; the unit
#              tests of SAN_UNITS and ffmpeg itself (FFmpeg's own link
#              command, the sanitized objects and the filter's first).
#   fuzzers:   clang with libFuzzer, ASan and UBSan; tests/fuzz/*_fuzzer.c.
#              Without such a clang, nothing but build/fuzz/none saying
#              why (tests/fuzz/run.sh then skips).

FF_CONF       = $(shell sed -n 's/^$(1)=//p' $(FFCONFIG_MAK))
ENGINE_C_SRCS = $(filter %.c,$(ENGINE_SRCS))
GPU_CODE_OBJS = $(filter %.fatbin.o %.hsaco.o,$(ENGINE_OBJS))
SAN_DIR      := $(BUILD)/asan
SAN_FLAGS    := -fsanitize=address,undefined -fno-sanitize-recover=all -g -O1 -fno-omit-frame-pointer
SAN_CC        = $(call FF_CONF,CC)
SAN_CFLAGS    = -I$(OBJDIR) -I$(SRCTREE) -DHAVE_AV_CONFIG_H \
                $(subst $$(SRC_PATH),$(SRCTREE),$(call FF_CONF,CPPFLAGS)) \
                $(filter-out -O% -fomit-frame-pointer,$(call FF_CONF,CFLAGS)) -ffp-contract=off $(SAN_FLAGS)
SAN_OBJS      = $(patsubst $(SRCTREE)/libavfilter/%.c,$(SAN_DIR)/obj/%.o,$(ENGINE_C_SRCS))
SAN_UNITS    := range_test log_format_test vmaf_reference_test
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_CC      ?= $(firstword $(foreach c,clang-14 clang,$(shell command -v $(c) 2>/dev/null)))
FUZZ_CFLAGS  := -D_ISOC11_SOURCE -D_FILE_OFFSET_BITS=64 -D_LARGEFILE_SOURCE -D_POSIX_C_SOURCE=200112 \
                -D_XOPEN_SOURCE=600 -I$(TOP) -I$(OBJDIR) -I$(SRCTREE) -I$(SRCTREE)/compat/stdbit \
                -std=c11 -g -O1 -fno-omit-frame-pointer -ffp-contract=off -fno-sanitize-recover=all
FUZZ_SAN     := address,undefined
FUZZ_OBJS     = $(patsubst $(SRCTREE)/libavfilter/%.c,$(FUZZ_DIR)/obj/%.o,$(ENGINE_C_SRCS))
FUZZ_TARGETS := model_fuzzer options_fuzzer engine_fuzzer
FUZZ_OK       = $(shell echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }' | \
                  $(FUZZ_CC) -x c -fsanitize=fuzzer - -o /dev/null >/dev/null 2>&1 && echo yes)

# $(call flags_file,file,flags): file holds flags; rewritten when they change.
define flags_file
@mkdir -p $(@D)
@echo '$(2)' | cmp -s - $(1) || echo '$(2)' > $(1)
endef

sanitized: $(SAN_UNITS:%=$(SAN_DIR)/%) $(SAN_DIR)/ffmpeg

$(SAN_DIR)/flags: FORCE
	$(call flags_file,$@,$(SAN_CC) $(SAN_CFLAGS))

# An object compiled again removes the programs first: one that fails to
# compile then leaves none behind to pass for the new sources.
$(SAN_DIR)/obj/%.o: $(SRCTREE)/libavfilter/%.c $(SAN_DIR)/flags
	@rm -f $(SAN_UNITS:%=$(SAN_DIR)/%) $(SAN_DIR)/ffmpeg
	@mkdir -p $(@D)
	@printf 'CC\t%s\n' $@
	$(Q)$(SAN_CC) $(SAN_CFLAGS) -MMD -MP -c $< -o $@

$(SAN_UNITS:%=$(SAN_DIR)/%): $(SAN_DIR)/%: $(TOP)/tests/%.c $(TOP)/tests/clips.c $(SAN_OBJS) $(LIBAVUTIL)
	@rm -f $@
	@printf 'LD\t%s\n' $@
	$(Q)$(SAN_CC) -std=c11 $(SAN_FLAGS) -ffp-contract=off -I$(TOP) -I$(OBJDIR) -I$(SRCTREE) \
	    $< $(TOP)/tests/clips.c $(SAN_OBJS) $(GPU_CODE_OBJS) $(LIBAVUTIL) $(TEST_LIBS) -o $@

# FFmpeg's own link command for ffmpeg_g, with the sanitized objects first:
# the archive's copies of them are then not pulled in.
$(SAN_DIR)/ffmpeg: $(SAN_OBJS) $(SAN_DIR)/obj/vf_vmaf_hip.o $(OBJDIR)/ffmpeg_g
	@rm -f $@
	@printf 'LD\t%s\n' $@
	$(Q)link=$$(cd $(OBJDIR) && $(MAKE) --no-print-directory -n -B V=1 ffmpeg_g 2>/dev/null | \
	          grep -m1 -e ' -o ffmpeg_g '); \
	    [ -n "$$link" ] || { echo "no link command for ffmpeg_g in $(OBJDIR)" >&2; exit 1; }; \
	    cd $(OBJDIR) && eval "$$(printf '%s\n' "$$link" | sed 's| -o ffmpeg_g | $(SAN_FLAGS) -o $@.tmp \
	        $(SAN_DIR)/obj/vf_vmaf_hip.o $(SAN_OBJS) $(GPU_CODE_OBJS) |')" && mv $@.tmp $@

# The probe for libFuzzer runs only here, not at every make; without it,
# $(FUZZ_DIR)/none says why, for tests/fuzz/run.sh to skip.
fuzzers:
	@mkdir -p $(FUZZ_DIR)
	@if [ "$(FUZZ_OK)" = yes ]; then \
	    rm -f $(FUZZ_DIR)/none; \
	    $(MAKE) --no-print-directory $(FUZZ_TARGETS:%=$(FUZZ_DIR)/%); \
	else \
	    echo "no clang with libFuzzer (clang-14 and libclang-rt-14-dev)" > $(FUZZ_DIR)/none; \
	    echo "fuzzers: none built: $$(cat $(FUZZ_DIR)/none)"; \
	fi

$(FUZZ_DIR)/flags: FORCE
	$(call flags_file,$@,$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN))

$(FUZZ_DIR)/obj/%.o: $(SRCTREE)/libavfilter/%.c $(FUZZ_DIR)/flags
	@rm -f $(FUZZ_TARGETS:%=$(FUZZ_DIR)/%)
	@mkdir -p $(@D)
	@printf 'CC\t%s\n' $@
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -DHAVE_AV_CONFIG_H -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -MMD -MP -c $< -o $@

$(FUZZ_TARGETS:%=$(FUZZ_DIR)/%): $(FUZZ_DIR)/%: $(TOP)/tests/fuzz/%.c $(FUZZ_OBJS) $(LIBAVUTIL)
	@rm -f $@
	@printf 'LD\t%s\n' $@
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -MMD -MP $< $(FUZZ_OBJS) $(GPU_CODE_OBJS) \
	    $(LIBAVUTIL) $(TEST_LIBS) -o $@

-include $(wildcard $(SAN_DIR)/*.d $(SAN_DIR)/obj/*.d $(SAN_DIR)/obj/*/*.d $(SAN_DIR)/obj/*/*/*.d \
                    $(FUZZ_DIR)/*.d $(FUZZ_DIR)/obj/*.d $(FUZZ_DIR)/obj/*/*.d $(FUZZ_DIR)/obj/*/*/*.d)

# ---- vmaf-merge: the log of a run scored in chunks (log_fmt=chunk) ----
#
# Linked with the engine's objects, as the test programs are: the merged
# log is written and pooled by the very code that writes a single run's.

MERGE_SRCS := $(wildcard $(TOP)/tools/merge/*.c)

all: vmaf-merge
vmaf-merge: build-ffmpeg
	@$(MAKE) --no-print-directory $(BUILD)/vmaf-merge

$(BUILD)/vmaf-merge: $(MERGE_SRCS) $(ENGINE_OBJS) $(LIBAVUTIL) $(TESTS_DIR)/link-line
	$(call test_cc,$(TEST_CFLAGS),$(MERGE_SRCS),$(ENGINE_OBJS) $(LIBAVUTIL) $(TEST_LIBS))

-include $(BUILD)/vmaf-merge.d
.PHONY: vmaf-merge

# ---- tests, demo, benchmark ----

# The test programs first; one that does not build is a FAIL of run.sh.
check: all
	-@$(MAKE) --no-print-directory -k -j$(JOBS) test-programs $(if $(filter 0,$(SANITIZERS)),,sanitized) fuzzers
	@BUILD='$(BUILD)' sh tests/run.sh

demo: all
	$(BUILD)/ffmpeg -hide_banner -nostats -f lavfi -i testsrc2=size=1280x720:rate=25:duration=2 \
	    -f lavfi -i testsrc2=size=1280x720:rate=25:duration=2 \
	    -lavfi "[0:v]avgblur=2,noise=alls=6:allf=t[dis];[dis][1:v]vmaf_hip,metadata=mode=print:key=lavfi.vmaf.score" \
	    -f null -

bench: all
	@bash tools/bench.sh

# ---- the patch series: the filter carried into an FFmpeg tree with git am ----
#
# The overlay's own result on the same source as the build (tarball or tree),
# committed piece by piece by tools/patch-series.sh and written with
# git format-patch; applied to that release it gives $(SRCTREE) byte for
# byte (tests/patches.sh checks it in make check).

PATCHES ?= $(BUILD)/patches
ifneq ($(FFMPEG_SRC),)
PRISTINE := $(FFMPEG_SRC)
else ifneq ($(FFMPEG_TARBALL),)
PRISTINE := $(FFMPEG_TARBALL)
else
PRISTINE := $(CACHE)/ffmpeg_$(FFMPEG_VERSION).orig.tar.xz
endif

patches:
	@mkdir -p $(TMPDIR)
ifeq ($(FFMPEG_SRC)$(FFMPEG_TARBALL),)
	@sh tools/fetch-ffmpeg.sh $(FFMPEG_VERSION) $(CACHE)
endif
	@sh tools/patch-series.sh $(PRISTINE) $(PATCHES)

# ---- the archive and the Debian package (tools/dist.sh), checked on clean
# Debian roots (tests/dist.sh; the roots are kept in .cache/roots) ----

DIST_DIR := $(BUILD)/dist

dist: all
	@sh tools/dist.sh archive $(BUILD) $(DIST_DIR)

deb: all
	@sh tools/dist.sh deb $(BUILD) $(DIST_DIR)

dist-check: dist deb
	@sh tests/dist.sh $(BUILD) $(DIST_DIR)/$$(sh tools/dist.sh name archive) \
	    $(DIST_DIR)/$$(sh tools/dist.sh name deb)

clean:
	rm -rf $(BUILD)

.PHONY: all build-ffmpeg tests test-programs check demo bench patches dist deb dist-check sanitized fuzzers clean FORCE
FORCE:
