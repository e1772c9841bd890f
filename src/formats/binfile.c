/* The iden3 binary container (see binfile.h). */
#include "formats/binfile.h"

#include "cuzk/fr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define BINFILE_HEAD 12 /* magic, version, n_sections */
#define SECTION_HEAD 12 /* id, size */

static void set_name(binfile_t *bf, const char *name)
{
    size_t n = strlen(name);
    if (n < sizeof bf->name) {
        memcpy(bf->name, name, n + 1);
        return;
    }
    /* Keep the tail: the file name is the informative part of a long path. */
    size_t keep = sizeof bf->name - 4;
    memcpy(bf->name, "...", 3);
    memcpy(bf->name + 3, name + n - keep, keep + 1);
}

static void print_magic(char out[17], const char m[4])
{
    /* Printable bytes as they are, others as \xNN. */
    size_t k = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)m[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out[k++] = (char)c;
        } else {
            static const char hex[] = "0123456789abcdef";
            out[k++] = '\\';
            out[k++] = 'x';
            out[k++] = hex[c >> 4];
            out[k++] = hex[c & 15];
        }
    }
    out[k] = '\0';
}

static cuzk_status parse_table(binfile_t *bf, const char magic[4], cuzk_error_t *err)
{
    if (bf->size == 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: empty file", bf->name);
    if (bf->size < BINFILE_HEAD)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: %llu bytes, shorter than the 12-byte file header", bf->name,
                              (unsigned long long)bf->size);
    if (memcmp(bf->data, magic, 4) != 0) {
        char got[17], want[17];
        print_magic(got, (const char *)bf->data);
        print_magic(want, magic);
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: magic is \"%s\", expected \"%s\"",
                              bf->name, got, want);
    }
    bf->version = binfile_u32(bf->data + 4);
    uint32_t n = binfile_u32(bf->data + 8);
    /* Every section needs at least its 12-byte head: this bounds the table
     * allocation by the file size. */
    if ((uint64_t)n > (bf->size - BINFILE_HEAD) / SECTION_HEAD)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: %u sections announced, but only %llu bytes follow the header",
                              bf->name, n, (unsigned long long)(bf->size - BINFILE_HEAD));
    bf->sections = malloc((n ? n : 1) * sizeof *bf->sections);
    if (!bf->sections)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %u section entries", bf->name,
                              n);
    bf->n_sections = n;
    uint64_t pos = BINFILE_HEAD;
    for (uint32_t i = 0; i < n; i++) {
        if (bf->size - pos < SECTION_HEAD)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "%s: section %u of %u: header at offset %llu runs past the end "
                                  "of the file (%llu bytes)",
                                  bf->name, i, n, (unsigned long long)pos,
                                  (unsigned long long)bf->size);
        uint32_t id = binfile_u32(bf->data + pos);
        uint64_t size = binfile_u64(bf->data + pos + 4);
        pos += SECTION_HEAD;
        if (size > bf->size - pos)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "%s: section %u (id %u) at offset %llu claims %llu bytes, but "
                                  "only %llu remain in the file",
                                  bf->name, i, id, (unsigned long long)pos,
                                  (unsigned long long)size, (unsigned long long)(bf->size - pos));
        bf->sections[i] = (binfile_section_t){id, pos, size};
        pos += size;
    }
    if (pos != bf->size)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: %llu trailing bytes after the last of %u sections", bf->name,
                              (unsigned long long)(bf->size - pos), n);
    return CUZK_OK;
}

cuzk_status binfile_open_mem(binfile_t *bf, const uint8_t *data, size_t size, const char *name,
                             const char magic[4], cuzk_error_t *err)
{
    if (!bf)
        return cuzk_error_set(err, CUZK_ERR_ARG, "binfile_open_mem: NULL handle");
    memset(bf, 0, sizeof *bf);
    set_name(bf, name ? name : "<buffer>");
    if (!data && size)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL data", bf->name);
    if (!magic)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL magic", bf->name);
    bf->data = data;
    bf->size = size;
    cuzk_status st = parse_table(bf, magic, err);
    if (st != CUZK_OK)
        binfile_close(bf);
    return st;
}

cuzk_status binfile_open(binfile_t *bf, const char *path, const char magic[4], cuzk_error_t *err)
{
    if (!bf)
        return cuzk_error_set(err, CUZK_ERR_ARG, "binfile_open: NULL handle");
    memset(bf, 0, sizeof *bf);
    if (!path)
        return cuzk_error_set(err, CUZK_ERR_ARG, "binfile_open: NULL path");
    if (!magic)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL magic", path);
    set_name(bf, path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot open: %s", bf->name, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot stat: %s", bf->name, strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: not a regular file", bf->name);
    }
    if (sb.st_size < 0 || (uint64_t)sb.st_size > SIZE_MAX) {
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: file too large to map", bf->name);
    }
    bf->size = (uint64_t)sb.st_size;
    if (bf->size > 0) {
        void *m = mmap(NULL, (size_t)bf->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            close(fd);
            return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot map %llu bytes: %s", bf->name,
                                  (unsigned long long)bf->size, strerror(e));
        }
        bf->map = m;
        bf->map_len = (size_t)bf->size;
        bf->data = m;
    }
    close(fd); /* the mapping keeps the file */
    cuzk_status st = parse_table(bf, magic, err);
    if (st != CUZK_OK)
        binfile_close(bf);
    return st;
}

void binfile_close(binfile_t *bf)
{
    if (!bf)
        return;
    if (bf->map)
        munmap(bf->map, bf->map_len);
    free(bf->sections);
    bf->map = NULL;
    bf->map_len = 0;
    bf->sections = NULL;
    bf->n_sections = 0;
    bf->data = NULL;
    bf->size = 0;
}

uint32_t binfile_count(const binfile_t *bf, uint32_t id)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < bf->n_sections; i++)
        c += bf->sections[i].id == id;
    return c;
}

cuzk_status binfile_section(const binfile_t *bf, uint32_t id, const char *what, binfile_need need,
                            const uint8_t **body, uint64_t *size, cuzk_error_t *err)
{
    const binfile_section_t *found = NULL;
    *body = NULL;
    *size = 0;
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        if (bf->sections[i].id != id)
            continue;
        if (found)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "%s: section %u (%s) appears more than once", bf->name, id, what);
        found = &bf->sections[i];
    }
    if (!found) {
        if (need == BINFILE_OPTIONAL)
            return CUZK_OK;
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: section %u (%s) is missing", bf->name, id,
                              what);
    }
    *body = bf->data + found->offset;
    *size = found->size;
    return CUZK_OK;
}

int binfile_is_modulus(const uint8_t *p, const uint64_t *limbs, size_t n_limbs)
{
    for (size_t i = 0; i < n_limbs; i++)
        if (binfile_u64(p + 8 * i) != limbs[i])
            return 0;
    return 1;
}

/* Primes circom can compile for (-p), big-endian hex. */
static const struct {
    const char *name;
    const char *hex;
} known_primes[] = {
    {"BN254 r (circom's default bn128)",
     "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"},
    {"BN254 q (= Grumpkin r)", "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"},
    {"BLS12-381 q (the base field, not the scalar field)",
     "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffff"
     "aaab"},
    {"BLS12-377 r", "12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001"},
    {"Pallas p", "40000000000000000000000000000000224698fc094cf91b992d30ed00000001"},
    {"Vesta p", "40000000000000000000000000000000224698fc0994a8dd8c46eb2100000001"},
    {"secp256k1 p", "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f"},
    {"Goldilocks", "ffffffff00000001"},
};

const char *binfile_prime_name(const uint8_t *p, uint32_t n8)
{
    static const char hex[] = "0123456789abcdef";
    char be[2 * 64 + 1];
    if (n8 == 0 || n8 > 64)
        return NULL;
    /* Big-endian hex without leading zeros. */
    size_t k = 0;
    for (uint32_t i = n8; i-- > 0;) {
        be[k++] = hex[p[i] >> 4];
        be[k++] = hex[p[i] & 15];
    }
    be[k] = '\0';
    const char *s = be;
    while (*s == '0' && s[1])
        s++;
    for (size_t i = 0; i < sizeof known_primes / sizeof known_primes[0]; i++)
        if (strcmp(s, known_primes[i].hex) == 0)
            return known_primes[i].name;
    return NULL;
}

cuzk_status binfile_fr_header(const uint8_t **body, const binfile_t *bf, uint32_t sec_id,
                              uint64_t want_size, const char *hint, cuzk_error_t *err)
{
    const uint8_t *h;
    uint64_t size;
    cuzk_status st = binfile_section(bf, sec_id, "header", BINFILE_REQUIRED, &h, &size, err);
    if (st != CUZK_OK)
        return st;
    if (size < 4)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: header section is %llu bytes, too short",
                              bf->name, (unsigned long long)size);
    uint32_t n8 = binfile_u32(h);
    if (n8 != FR_BYTES) {
        const char *known = (size >= 4 + (uint64_t)n8) ? binfile_prime_name(h + 4, n8) : NULL;
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "%s: field element size n8 = %u (prime: %s), but cuzk needs the "
                              "BLS12-381 scalar field (n8 = 32)%s",
                              bf->name, n8, known ? known : "unknown", hint);
    }
    if (size != want_size)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: header section is %llu bytes, expected %llu", bf->name,
                              (unsigned long long)size, (unsigned long long)want_size);
    if (!binfile_is_modulus(h + 4, FR_MODULUS, FR_LIMBS)) {
        const char *known = binfile_prime_name(h + 4, n8);
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "%s: prime is %s, but cuzk needs the BLS12-381 scalar field r%s",
                              bf->name, known ? known : "not a known one", hint);
    }
    *body = h;
    return CUZK_OK;
}
