/* A small program for zlib 1.3.1: compresses and decompresses a file
 * through the zlib API (deflate/inflate on memory, and gzip files through
 * gzwrite/gzread); pointee's real-program smoke test analyses zlib with
 * this `main`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"

static unsigned char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *bigger = realloc(buf, cap *= 2);
            if (bigger == NULL)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static int round_trip(const unsigned char *data, size_t len) {
    uLong bound = deflateBound(NULL, len);
    unsigned char *packed = malloc(bound), *unpacked = malloc(len + 1);
    if (packed == NULL || unpacked == NULL)
        return 1;
    z_stream s;
    memset(&s, 0, sizeof s);
    if (deflateInit(&s, Z_BEST_COMPRESSION) != Z_OK)
        return 1;
    s.next_in = (Bytef *)data;
    s.avail_in = (uInt)len;
    s.next_out = packed;
    s.avail_out = (uInt)bound;
    if (deflate(&s, Z_FINISH) != Z_STREAM_END)
        return 1;
    uLong packed_len = s.total_out;
    deflateEnd(&s);
    memset(&s, 0, sizeof s);
    if (inflateInit(&s) != Z_OK)
        return 1;
    s.next_in = packed;
    s.avail_in = (uInt)packed_len;
    s.next_out = unpacked;
    s.avail_out = (uInt)len + 1;
    if (inflate(&s, Z_FINISH) != Z_STREAM_END || s.total_out != len)
        return 1;
    inflateEnd(&s);
    int differ = memcmp(data, unpacked, len) != 0;
    free(packed);
    free(unpacked);
    return differ;
}

static int gzip_round_trip(const unsigned char *data, size_t len, const char *path) {
    gzFile out = gzopen(path, "wb9");
    if (out == NULL || gzwrite(out, data, (unsigned)len) != (int)len || gzclose(out) != Z_OK)
        return 1;
    gzFile in = gzopen(path, "rb");
    unsigned char *back = malloc(len + 1);
    if (in == NULL || back == NULL)
        return 1;
    int n = gzread(in, back, (unsigned)len + 1);
    gzclose(in);
    int differ = n != (int)len || memcmp(data, back, len) != 0;
    free(back);
    remove(path);
    return differ;
}

int main(int argc, char **argv) {
    static const char sample[] = "pointee pointee pointee: what pointers point to";
    size_t len = sizeof sample - 1;
    unsigned char *data = argc > 1 ? read_all(argv[1], &len) : NULL;
    const unsigned char *in = data != NULL ? data : (const unsigned char *)sample;
    int bad = round_trip(in, len) || gzip_round_trip(in, len, "pointee-zlib-test.gz");
    free(data);
    puts(bad ? "mismatch" : "ok");
    return bad;
}
