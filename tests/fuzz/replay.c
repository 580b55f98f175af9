/* Runs a fuzz target's function on every file of the folders (or files) given: the seed corpora
 * and the crashers once found stay regression tests in every build, with or without clang's
 * libFuzzer (which, when present, links its own main instead of this one). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed);

/* libFuzzer's byte mutator, which replay has not got: one byte changed, deterministically */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max)
{
    (void)max;
    if (size) data[size / 2] ^= 0x5a;
    return size;
}

/* each input also after MUTATIONS of the target's structure-aware mutations (seeds 1, 2, ...):
 * the crafted-file classes the mutators make are replayed in every build */
enum { MUTATIONS = 64, MUTATED_MAX = 1 << 20 };

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "%s: cannot open\n", path); return -1; }
    size_t cap = 1 << 16, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *q = realloc(buf, cap *= 2);
            if (!q) { free(buf); buf = NULL; }
            buf = q;
        }
    }
    fclose(f);
    if (!buf) { fprintf(stderr, "%s: out of memory\n", path); return -1; }
    LLVMFuzzerTestOneInput(buf, n);
    uint8_t *m = n <= MUTATED_MAX ? malloc(MUTATED_MAX) : NULL;
    for (unsigned k = 1; m && k <= MUTATIONS; k++) {
        memcpy(m, buf, n);
        size_t len = LLVMFuzzerCustomMutator(m, n, MUTATED_MAX, k);
        LLVMFuzzerTestOneInput(m, len);
    }
    free(m);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { fprintf(stderr, "%s: missing\n", argv[i]); bad = 1; continue; }
        if (!S_ISDIR(st.st_mode)) { bad |= run_file(argv[i]) != 0; files++; continue; }
        DIR *d = opendir(argv[i]);
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
            bad |= run_file(path) != 0;
            files++;
        }
        if (d) closedir(d);
    }
    printf("%s: %d inputs replayed\n", argv[0], files);
    return bad || files == 0;
}
