# vmaf_hip: per-frame metadata of testsrc2 against a blurred copy of itself.
# The engine is bit-exact, so every printed digit must match: the relative
# fuzz is 1e-15 (refcmp-metadata.awk would turn a fuzz of 0 into 0.1).

VMAF_HIP_REFCMP_DEPS = VMAF_HIP_FILTER TESTSRC2_FILTER AVGBLUR_FILTER SPLIT_FILTER \
                       FORMAT_FILTER METADATA_FILTER LAVFI_INDEV NULL_MUXER \
                       WRAPPED_AVFRAME_ENCODER

FATE_VMAF_HIP-$(call ALLYES, $(VMAF_HIP_REFCMP_DEPS)) += fate-vmaf-hip-psnr-yuv420p
fate-vmaf-hip-psnr-yuv420p: CMD = refcmp_metadata "vmaf_hip=model=:feature=name=psnr" yuv420p 1e-15

FATE_VMAF_HIP-$(call ALLYES, $(VMAF_HIP_REFCMP_DEPS)) += fate-vmaf-hip-psnr-yuv444p10le
fate-vmaf-hip-psnr-yuv444p10le: CMD = refcmp_metadata "vmaf_hip=model=:feature=name=psnr" yuv444p10le 1e-15

FATE_VMAF_HIP-$(call ALLYES, $(VMAF_HIP_REFCMP_DEPS)) += fate-vmaf-hip-psnr-yuv422p12le
fate-vmaf-hip-psnr-yuv422p12le: CMD = refcmp_metadata "vmaf_hip=model=:feature=name=psnr\\\:enable_mse=true" yuv422p12le 1e-15

# VMAF with the default model (vmaf_v0.6.1), every feature it uses attached.
FATE_VMAF_HIP-$(call ALLYES, $(VMAF_HIP_REFCMP_DEPS)) += fate-vmaf-hip-vmaf-yuv420p
fate-vmaf-hip-vmaf-yuv420p: CMD = refcmp_metadata vmaf_hip yuv420p 1e-15

FATE_VMAF_HIP-$(call ALLYES, $(VMAF_HIP_REFCMP_DEPS)) += fate-vmaf-hip-vmaf-yuv420p10le
fate-vmaf-hip-vmaf-yuv420p10le: CMD = refcmp_metadata vmaf_hip yuv420p10le 1e-15

FATE_VMAF_HIP-$(call ALLYES, $(VMAF_HIP_REFCMP_DEPS)) += fate-vmaf-hip-neg-yuv444p
fate-vmaf-hip-neg-yuv444p: CMD = refcmp_metadata "vmaf_hip=model=version=vmaf_v0.6.1neg" yuv444p 1e-15

FATE_VMAF_HIP-$(call ALLYES, $(VMAF_HIP_REFCMP_DEPS)) += fate-vmaf-hip-subsample-yuv422p
fate-vmaf-hip-subsample-yuv422p: CMD = refcmp_metadata "vmaf_hip=n_subsample=2:n_threads=2" yuv422p 1e-15

FATE_FFMPEG += $(FATE_VMAF_HIP-yes)
fate-vmaf-hip: $(FATE_VMAF_HIP-yes)
