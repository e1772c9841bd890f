/* The container shared by circom/snarkjs binary files (.r1cs, .wtns, .zkey),
 * internal to the formats layer.
 *
 * Layout (all integers little-endian, iden3 binfileutils):
 *   magic[4] | u32 version | u32 n_sections |
 *   n_sections x ( u32 id | u64 size | body[size] )
 * Sections may come in any order (circom writes r1cs sections 2,1,3), so they
 * are always found through the table. Opening checks that every section lies
 * inside the file, with 64-bit arithmetic, and that the last one ends exactly
 * at the end of the file.
 *
 * Files are mapped read-only (mmap), never copied: a .zkey can be tens of
 * GiB. Bodies are byte pointers with no alignment; read integers with
 * binfile_u32 / binfile_u64 (memcpy-free byte assembly), never by casting.
 * A file truncated by another process while mapped raises SIGBUS, as with
 * every mmap reader; cuzk does not guard against that.
 *
 * Thread safety: a binfile_t is immutable after opening; readers may share
 * it. */
#ifndef CUZK_FORMATS_BINFILE_H
#define CUZK_FORMATS_BINFILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#define BINFILE_NAME_MAX 96

typedef struct binfile_section {
    uint32_t id;
    uint64_t offset; /* of the body, from the start of the file */
    uint64_t size;
} binfile_section_t;

typedef struct binfile {
    const uint8_t *data; /* the whole file */
    uint64_t size;
    void *map; /* non-NULL when we own an mmap of map_len bytes */
    size_t map_len;
    uint32_t version;
    uint32_t n_sections;
    binfile_section_t *sections; /* in file order, owned */
    char name[BINFILE_NAME_MAX]; /* for messages: the path (tail) or a label */
} binfile_t;

typedef enum binfile_need {
    BINFILE_REQUIRED = 0, /* missing: CUZK_ERR_FORMAT */
    BINFILE_OPTIONAL = 1  /* missing: CUZK_OK with *body = NULL, *size = 0 */
} binfile_need;

/* Maps path read-only and checks its magic and section table.
 * Returns: CUZK_ERR_IO (cannot open/stat/map, not a regular file),
 * CUZK_ERR_FORMAT (empty, wrong magic, section table out of bounds).
 * On failure *bf is left closed (binfile_close is harmless). */
cuzk_status binfile_open(binfile_t *bf, const char *path, const char magic[4], cuzk_error_t *err);
/* The same over a caller-owned buffer, which must outlive *bf. name labels
 * messages (NULL: "<buffer>"). */
cuzk_status binfile_open_mem(binfile_t *bf, const uint8_t *data, size_t size, const char *name,
                             const char magic[4], cuzk_error_t *err);
void binfile_close(binfile_t *bf);

/* Finds the one section with this id. what names it in messages ("header").
 * Two sections with the same id: CUZK_ERR_FORMAT (every section cuzk reads
 * must be unique). */
cuzk_status binfile_section(const binfile_t *bf, uint32_t id, const char *what, binfile_need need,
                            const uint8_t **body, uint64_t *size, cuzk_error_t *err);
/* Number of sections with this id. */
uint32_t binfile_count(const binfile_t *bf, uint32_t id);

static inline uint32_t binfile_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t binfile_u64(const uint8_t *p)
{
    return (uint64_t)binfile_u32(p) | (uint64_t)binfile_u32(p + 4) << 32;
}

/* 1 when the n8-byte little-endian integer at p equals the modulus given as
 * little-endian 64-bit limbs (n8 = 8 * n_limbs). */
int binfile_is_modulus(const uint8_t *p, const uint64_t *limbs, size_t n_limbs);
/* A name for a well-known prime written in n8 bytes at p ("BN254 r"), or
 * NULL: turns "wrong prime" into an actionable message. */
const char *binfile_prime_name(const uint8_t *p, uint32_t n8);

/* The header of the r1cs and wtns formats: section sec_id must be exactly
 * want_size bytes and start with u32 n8 = 32 and the prime r (BLS12-381's
 * scalar field); *body points at it. hint is appended to the messages
 * about another field (e.g. how to recompile). */
cuzk_status binfile_fr_header(const uint8_t **body, const binfile_t *bf, uint32_t sec_id,
                              uint64_t want_size, const char *hint, cuzk_error_t *err);

#endif
