/* The CLI's reproducible test inputs: labelled draws from a seed, shared
 * by `cuzk filecoin gen-vanilla` and `cuzk bench filecoin`, so that one
 * seed gives both the same sectors, tickets and data. */
#ifndef CUZK_CLI_DRAW_H
#define CUZK_CLI_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

/* New data nodes of a sparse (32/64 GiB) SnapDeals update. */
#define CLI_SNAP_SPARSE_NODES 1024u

/* SHA-256("cuzk gen-vanilla " || label (64 bytes at most) || seed u64 LE
 * || i u64 LE) with the top two bits of byte 31 cleared: 32 bytes that
 * are an Fr and fr32 data. */
void cli_draw32(uint8_t out[32], uint64_t seed, const char *label, uint64_t i);

/* CLI_SNAP_SPARSE_NODES distinct nodes below `nodes` (> the count), sorted:
 * draw "new data node" k taken mod nodes, repeats dropped and drawn again;
 * and each node's value, draw "new data" at the node (as a small sector's
 * node i). idx and val hold CLI_SNAP_SPARSE_NODES each. Returns CUZK_OK
 * or CUZK_ERR_ARG (nodes too small). */
cuzk_status cli_draw_snap_data(uint64_t *idx, fr_t *val, uint64_t nodes, uint64_t seed,
                               cuzk_error_t *err);

#endif
