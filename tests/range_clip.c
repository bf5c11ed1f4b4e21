/*
 * A raw yuv420p10le clip for tests/range.sh: a gradient with noise, the
 * same for any machine. "over" puts samples above 1023 (up to 65535) at
 * every ninth position and in a block of each plane, which no decoder
 * writes but a raw file or a mislabelled format can hold; "clamped" puts
 * 1023 there instead.
 *
 * Usage: range_clip <width> <height> <frames> <seed> plain|over|clamped > clip.yuv
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int w, h, frames, over, clamped;
    uint32_t state;

    if (argc != 6) {
        fprintf(stderr, "usage: %s <width> <height> <frames> <seed> plain|over|clamped\n", argv[0]);
        return 2;
    }
    w       = atoi(argv[1]);
    h       = atoi(argv[2]);
    frames  = atoi(argv[3]);
    state   = 2654435761u * (uint32_t)atoi(argv[4]) + 1;
    over    = !strcmp(argv[5], "over");
    clamped = !strcmp(argv[5], "clamped");
    if (w < 2 || h < 2 || frames < 1 || (!over && !clamped && strcmp(argv[5], "plain")))
        return 2;

    for (int n = 0; n < frames; n++) {
        for (int p = 0; p < 3; p++) {
            int pw = p ? (w + 1) / 2 : w, ph = p ? (h + 1) / 2 : h;
            for (int y = 0; y < ph; y++) {
                for (int x = 0; x < pw; x++) {
                    unsigned v = (unsigned)((x * 5 + y * 3 + n * 11) * 1024 / (4 * (pw + ph) + 64));
                    int spike = (x + y * pw) % 9 == 0 ||
                                (x >= pw / 3 && x < pw / 2 && y >= ph / 3 && y < ph / 2);
                    /* xorshift32 */
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    v = (v + state % 33 > 16 ? v + state % 33 - 16 : 0);
                    v = v > 1023 ? 1023 : v;
                    if (spike && over)
                        v = 1024 + state % 64512;
                    else if (spike && clamped)
                        v = 1023;
                    putchar(v & 0xff);
                    putchar(v >> 8);
                }
            }
        }
    }
    return fflush(stdout) ? 1 : 0;
}
