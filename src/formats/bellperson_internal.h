/* Helpers shared by the bellperson format readers (not public API). */
#ifndef CUZK_FORMATS_BELLPERSON_INTERNAL_H
#define CUZK_FORMATS_BELLPERSON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/g1.h"
#include "cuzk/status.h"

/* Maps a whole file read-only. An empty file gives *map = NULL, *len = 0
 * and CUZK_OK. Release with bellperson_file_unmap. */
cuzk_status bellperson_file_map(void **map, size_t *len, const char *path, cuzk_error_t *err);
void bellperson_file_unmap(void *map, size_t len);

/* Checks n uncompressed points (G1: 96 bytes, G2: 192) at data on up to
 * `threads` threads, decoding G1 points into out when out is non-NULL.
 * A point is bad when it does not decode with the subgroup check, or is
 * infinity while allow_inf is 0. *first_bad gets the index of the first bad
 * point, or n when all are good. Returns CUZK_ERR_NOMEM only. */
cuzk_status bellperson_points_scan(uint64_t *first_bad, g1_affine_t *out, const uint8_t *data,
                                   uint64_t n, int g2, int allow_inf, int threads);

#endif
