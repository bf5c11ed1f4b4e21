/*
 * The clip pairs of the test data and a raw YUV frame loader, shared by the
 * tests that run the engine on them.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/mem.h"

#include "clips.h"

const ClipPair clip_pairs[] = {
    { "src01_576x324_3f_8bit",  "src01_hrc00_576x324_3f.yuv", "src01_hrc01_576x324_3f.yuv", 576, 324, 8, 1, 8, 3 },
    /* The 10- and 12-bit clips are the 8-bit content shifted left
     * (testdata README), so they are generated when only the 8-bit
     * pair is at hand. */
    { "src01_576x324_3f_10bit", "src01_hrc00_576x324_3f.yuv", "src01_hrc01_576x324_3f.yuv", 576, 324, 10, 1, 8, 3 },
    { "src01_576x324_3f_12bit", "src01_hrc00_576x324_3f.yuv", "src01_hrc01_576x324_3f.yuv", 576, 324, 12, 1, 8, 3 },
    { "src01_576x324_3f_8bit_identity", "src01_hrc00_576x324_3f.yuv", "src01_hrc00_576x324_3f.yuv", 576, 324, 8, 1, 8, 3 },
    { "src01_576x324_3f_10bit_identity", "src01_hrc00_576x324_3f.yuv", "src01_hrc00_576x324_3f.yuv", 576, 324, 10, 1, 8, 3 },
    { "sparks_480x270_5f_10bit", "sparks_ref_480x270.yuv42010le.yuv", "sparks_dis_480x270.yuv42010le.yuv", 480, 270, 10, 1, 10, 5 },
    { "src01_160x90_48f_8bit", "src01_hrc00_160x90_48f.yuv", "src01_hrc01_160x90_48f.yuv", 160, 90, 8, 1, 8, 48 },
    { "archer_1920x1080_1f_8bit", "archer_ref_frm20.yuv", "archer_dis_frm20.yuv", 1920, 1080, 8, 1, 8, 1 },
    { "dark_scene_1920x1080_1f_8bit", "dark_scene_1920x1080_420p_ref.yuv", "dark_scene_1920x1080_420p_dis.yuv", 1920, 1080, 8, 1, 8, 1 },
    { "hall_352x288_1f_8bit", "hall_cif_frm_0_frm_0.yuv", "hall_plr10_3693_frm_0_frm_0.yuv", 352, 288, 8, 1, 8, 1 },
    { "akiyo_multiply_352x288_1f_8bit", "refp_akiyo_cif_identity_352x288.yuv", "disp_akiyo_cif_multiply_352x288.yuv", 352, 288, 8, 1, 8, 1 },
    { "test_image_100007_481x321_444_1f_8bit", "test_image_100007_481x321_444.yuv", "test_image_100007_noisy_481x321_444.yuv", 481, 321, 8, 0, 8, 1 },
    /* CAMBI is no-reference: libvmaf's cambi_*.json runs use the clip as both inputs. */
    { "cambi_KristenAndSara_1280x720_1f_8bit", "KristenAndSara_1280x720_8bit_processed.yuv", "KristenAndSara_1280x720_8bit_processed.yuv", 1280, 720, 8, 1, 8, 1 },
    { "cambi_KristenAndSara_1280x720_1f_8bit_enc960x540", "KristenAndSara_1280x720_8bit_processed.yuv", "KristenAndSara_1280x720_8bit_processed.yuv", 1280, 720, 8, 1, 8, 1 },
    { "cambi_blue_sky_640x360_3f_8bit", "blue_sky_360p_60f.yuv", "blue_sky_360p_60f.yuv", 640, 360, 8, 1, 8, 3 },
    { "cambi_src01_hrc00_576x324_3f_10bit", "src01_hrc00_576x324.yuv420p10le.yuv", "src01_hrc00_576x324.yuv420p10le.yuv", 576, 324, 10, 1, 10, 3 },
};

const int nb_clip_pairs = sizeof(clip_pairs) / sizeof(clip_pairs[0]);

/* Load frame n of a raw planar file into a w x h picture at p->bpc. */
int clip_load_frame(FFVmafPicture *pic, uint8_t **planes, const ClipPair *p,
                      const char *path, int n)
{
    int cw = p->ss ? (p->w + 1) >> 1 : p->w, ch = p->ss ? (p->h + 1) >> 1 : p->h;
    int fbytes = p->file_bpc > 8 ? 2 : 1, bytes = p->bpc > 8 ? 2 : 1;
    size_t plane_w[3] = { p->w, cw, cw }, plane_h[3] = { p->h, ch, ch };
    size_t frame_size = ((size_t)p->w * p->h + 2 * (size_t)cw * ch) * fbytes;
    FILE *f = fopen(path, "rb");
    uint8_t *raw;
    size_t off = 0;

    if (!f)
        return AVERROR(ENOENT);
    raw = malloc(frame_size);
    if (!raw || fseek(f, (long)(frame_size * n), SEEK_SET) ||
        fread(raw, 1, frame_size, f) != frame_size) {
        free(raw);
        fclose(f);
        return AVERROR(EIO);
    }
    fclose(f);

    /* Planar host samples, nothing else set. */
    memset(pic, 0, sizeof(*pic));
    pic->bpc = p->bpc;
    for (int i = 0; i < 3; i++) {
        size_t count = plane_w[i] * plane_h[i];
        av_freep(&planes[i]);
        planes[i] = av_malloc(count * bytes);
        for (size_t k = 0; k < count; k++) {
            unsigned v = fbytes == 2 ? raw[off + 2 * k] | raw[off + 2 * k + 1] << 8
                                     : raw[off + k];
            v <<= p->bpc - p->file_bpc;
            if (bytes == 2)
                ((uint16_t *)planes[i])[k] = v;
            else
                planes[i][k] = v;
        }
        off += count * fbytes;
        pic->data[i]     = planes[i];
        pic->linesize[i] = plane_w[i] * bytes;
        /* libvmaf's chroma planes are rounded down: the top-left block. */
        pic->w[i] = i ? p->w >> p->ss : p->w;
        pic->h[i] = i ? p->h >> p->ss : p->h;
    }
    free(raw);
    return 0;
}

