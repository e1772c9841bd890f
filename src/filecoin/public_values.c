/* The public values of a Filecoin proof as JSON (filecoin_public.h). */
#include "cuzk/filecoin_public.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cuzk/filecoin_challenges.h"
#include "cuzk/filecoin_update.h"

/* The 32-byte members, in the order they are written. */
static const struct {
    const char *name;
    unsigned bit;
    size_t off;
} BYTES[] = {
    {"prover_id", FIL_PUB_PROVER_ID, offsetof(fil_public_t, prover_id)},
    {"ticket", FIL_PUB_TICKET, offsetof(fil_public_t, ticket)},
    {"seed", FIL_PUB_SEED, offsetof(fil_public_t, seed)},
    {"randomness", FIL_PUB_RANDOMNESS, offsetof(fil_public_t, randomness)},
    {"replica_id", FIL_PUB_REPLICA_ID, offsetof(fil_public_t, replica_id)},
    {"comm_d", FIL_PUB_COMM_D, offsetof(fil_public_t, comm_d)},
    {"comm_r", FIL_PUB_COMM_R, offsetof(fil_public_t, comm_r)},
    {"comm_r_old", FIL_PUB_COMM_R_OLD, offsetof(fil_public_t, comm_r_old)},
    {"comm_d_new", FIL_PUB_COMM_D_NEW, offsetof(fil_public_t, comm_d_new)},
    {"comm_r_new", FIL_PUB_COMM_R_NEW, offsetof(fil_public_t, comm_r_new)},
};
#define N_BYTES (sizeof BYTES / sizeof BYTES[0])

static int is_post(fil_circuit_kind k)
{
    return k == FIL_CIRCUIT_WINNING_POST || k == FIL_CIRCUIT_WINDOW_POST;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

cuzk_status fil_hex32_parse(uint8_t out[32], const char *s, const char *what, cuzk_error_t *err)
{
    if (strlen(s) != 64)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s must be 64 hex digits", what);
    for (int i = 0; i < 32; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s has a non-hex character at %d", what,
                                  hi < 0 ? 2 * i : 2 * i + 1);
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return CUZK_OK;
}

static cuzk_status hex32(uint8_t out[32], const cJSON *v, const char *name, cuzk_error_t *err)
{
    if (!cJSON_IsString(v))
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "public values: \"%s\" must be a string of 64 hex digits", name);
    char what[96];
    snprintf(what, sizeof what, "public values: \"%s\"", name);
    return fil_hex32_parse(out, v->valuestring, what, err);
}

/* A non-negative integer that a double holds exactly (JSON numbers are
 * doubles in cJSON: ids up to 2^53). */
static cuzk_status uint_of(uint64_t *out, const cJSON *v, const char *name, uint64_t max,
                           cuzk_error_t *err)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 9007199254740992.0 ||
        v->valuedouble != (double)(uint64_t)v->valuedouble)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "public values: \"%s\" must be a whole number in [0, 2^53]", name);
    *out = (uint64_t)v->valuedouble;
    if (*out > max)
        return cuzk_error_set(err, CUZK_ERR_ARG, "public values: \"%s\" %llu is above %llu", name,
                              (unsigned long long)*out, (unsigned long long)max);
    return CUZK_OK;
}

static cuzk_status sectors_of(fil_public_t *p, const cJSON *v, cuzk_error_t *err)
{
    if (!cJSON_IsArray(v))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "public values: \"sectors\" must be an array");
    int n = cJSON_GetArraySize(v);
    if (n <= 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "public values: \"sectors\" is empty");
    p->sectors = calloc((size_t)n, sizeof *p->sectors);
    if (!p->sectors)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "public values: no memory for %d sectors", n);
    p->n_sectors = (size_t)n;
    int i = 0;
    for (const cJSON *s = v->child; s; s = s->next, i++) {
        char name[48];
        snprintf(name, sizeof name, "sectors[%d]", i);
        if (!cJSON_IsObject(s) || cJSON_GetArraySize(s) != 2)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "public values: %s must be {\"id\": N, \"comm_r\": HEX}", name);
        snprintf(name, sizeof name, "sectors[%d].id", i);
        cuzk_status st = uint_of(&p->sectors[i].id, cJSON_GetObjectItemCaseSensitive(s, "id"), name,
                                 UINT64_MAX, err);
        snprintf(name, sizeof name, "sectors[%d].comm_r", i);
        if (st == CUZK_OK)
            st = hex32(p->sectors[i].comm_r, cJSON_GetObjectItemCaseSensitive(s, "comm_r"), name,
                       err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status member(fil_public_t *p, const cJSON *m, cuzk_error_t *err)
{
    const char *k = m->string;
    uint64_t u;
    cuzk_status st;
    for (size_t i = 0; i < N_BYTES; i++)
        if (!strcmp(k, BYTES[i].name)) {
            p->have |= BYTES[i].bit;
            return hex32((uint8_t *)p + BYTES[i].off, m, k, err);
        }
    if (!strcmp(k, "kind")) {
        if (!cJSON_IsString(m))
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "public values: \"kind\" must be a string");
        if ((st = fil_circuit_kind_parse(&p->kind, m->valuestring, err)) != CUZK_OK)
            return CUZK_ERR_FORMAT;
        return CUZK_OK;
    }
    if (!strcmp(k, "sector_size")) {
        if ((st = uint_of(&u, m, k, UINT64_MAX, err)) != CUZK_OK)
            return st;
        fil_tree_shape_t t;
        if (fil_sector_tree(&t, u, err) != CUZK_OK)
            return CUZK_ERR_ARG;
        p->sector_size = u;
        return CUZK_OK;
    }
    if (!strcmp(k, "api")) {
        if (!cJSON_IsString(m))
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "public values: \"api\" must be a string");
        return fil_api_version_parse(&p->api, m->valuestring, err);
    }
    if (!strcmp(k, "registered_proof")) {
        if (!cJSON_IsString(m))
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "public values: \"registered_proof\" must be a string");
        p->have |= FIL_PUB_REGISTERED_PROOF;
        return fil_seal_from_name(&p->seal, m->valuestring, err);
    }
    if (!strcmp(k, "miner_id") || !strcmp(k, "sector_id")) {
        p->have |= k[0] == 'm' ? FIL_PUB_MINER_ID : FIL_PUB_SECTOR_ID;
        return uint_of(k[0] == 'm' ? &p->miner_id : &p->sector_id, m, k, UINT64_MAX, err);
    }
    if (!strcmp(k, "partition") || !strcmp(k, "h")) {
        int part = k[0] == 'p';
        if ((st = uint_of(&u, m, k, part ? 1u << 20 : 64, err)) != CUZK_OK)
            return st;
        p->have |= part ? FIL_PUB_PARTITION : FIL_PUB_H;
        *(part ? &p->partition : &p->h) = (unsigned)u;
        return CUZK_OK;
    }
    if (!strcmp(k, "sectors")) {
        p->have |= FIL_PUB_SECTORS;
        return sectors_of(p, m, err);
    }
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "public values: unknown member \"%s\"", k);
}

static cuzk_status need(const fil_public_t *p, unsigned bits, cuzk_error_t *err)
{
    static const char *const NAMES[] = {
        "miner_id",   "sector_id",  "partition", "prover_id",       "ticket",     "seed",
        "randomness", "replica_id", "comm_d",    "comm_r",          "comm_r_old", "comm_d_new",
        "comm_r_new", "h",          "sectors",   "registered_proof"};
    for (unsigned i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if ((bits & (1u << i)) && !(p->have & (1u << i)))
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "public values: a %s proof needs \"%s\"",
                                  fil_circuit_kind_str(p->kind), NAMES[i]);
    return CUZK_OK;
}

cuzk_status fil_public_check(const fil_public_t *p, cuzk_error_t *err)
{
    fil_tree_shape_t t;
    if (p->kind < 0 || p->kind >= FIL_CIRCUIT_COUNT)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "public values: no \"kind\"");
    if (fil_sector_tree(&t, p->sector_size, err) != CUZK_OK)
        return CUZK_ERR_FORMAT;
    /* a seal proof's name means nothing to the other kinds, and their
     * values would not carry it back (fil_public_write) */
    if (p->kind != FIL_CIRCUIT_POREP && (p->have & FIL_PUB_REGISTERED_PROOF))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "public values: \"registered_proof\" (a seal proof) belongs to "
                              "porep, not %s",
                              fil_circuit_kind_str(p->kind));
    cuzk_status st;
    if (p->kind == FIL_CIRCUIT_POREP) {
        if ((st = need(p,
                       FIL_PUB_REGISTERED_PROOF | FIL_PUB_REPLICA_ID | FIL_PUB_COMM_D |
                           FIL_PUB_COMM_R | FIL_PUB_SEED,
                       err)) != CUZK_OK)
            return st;
        const fil_seal_info_t *info = fil_seal_info(p->seal);
        if (info->sector_size != p->sector_size)
            return cuzk_error_set(
                err, CUZK_ERR_ARG, "public values: %s is a %llu-byte sector, not %llu", info->name,
                (unsigned long long)info->sector_size, (unsigned long long)p->sector_size);
        if ((p->have & FIL_PUB_PARTITION) && p->partition >= info->partitions)
            return cuzk_error_set(err, CUZK_ERR_ARG, "public values: partition %u of %u",
                                  p->partition, info->partitions);
        unsigned all = FIL_PUB_MINER_ID | FIL_PUB_SECTOR_ID | FIL_PUB_TICKET;
        if ((p->have & all) == all) { /* replica_id must be this sector's */
            uint8_t prover[32], porep_id[32], rid[32];
            if (p->have & FIL_PUB_PROVER_ID)
                memcpy(prover, p->prover_id, 32);
            else
                fil_prover_id(prover, p->miner_id);
            if ((st = fil_porep_id(porep_id, p->seal, err)) != CUZK_OK ||
                (st = fil_replica_id(rid, prover, p->sector_id, p->ticket, p->comm_d, porep_id,
                                     err)) != CUZK_OK)
                return st;
            if (memcmp(rid, p->replica_id, 32))
                return cuzk_error_set(err, CUZK_ERR_ARG,
                                      "public values: replica_id is not the one of miner %llu, "
                                      "sector %llu, this ticket and comm_d",
                                      (unsigned long long)p->miner_id,
                                      (unsigned long long)p->sector_id);
        }
        return CUZK_OK;
    }
    if (is_post(p->kind)) {
        if ((st = need(p, FIL_PUB_RANDOMNESS | FIL_PUB_SECTORS, err)) != CUZK_OK)
            return st;
        if (p->kind == FIL_CIRCUIT_WINNING_POST && p->n_sectors != 1)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "public values: a winning-post proof has one sector, not %zu",
                                  p->n_sectors);
        fil_post_params_t pp;
        if ((st = fil_post_params(&pp, p->kind, p->sector_size, p->api, err)) != CUZK_OK)
            return st;
        if ((p->have & FIL_PUB_PARTITION) && p->n_sectors > pp.sector_count)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "public values: one partition holds at most %u sectors, not %zu",
                                  pp.sector_count, p->n_sectors);
        return CUZK_OK;
    }
    if ((st = need(p, FIL_PUB_COMM_R_OLD | FIL_PUB_COMM_D_NEW | FIL_PUB_COMM_R_NEW | FIL_PUB_H,
                   err)) != CUZK_OK)
        return st;
    fil_update_shape_t sh;
    fil_update_kind uk = p->kind == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
    if ((st = fil_update_shape_init(&sh, uk, p->sector_size / FIL_NODE_SIZE, err)) != CUZK_OK)
        return st;
    if ((p->have & FIL_PUB_PARTITION) && p->partition >= sh.partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "public values: partition %u of %u", p->partition,
                              sh.partitions);
    return CUZK_OK;
}

cuzk_status fil_public_parse(fil_public_t *out, const uint8_t *json, size_t n, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->kind = FIL_CIRCUIT_COUNT;
    out->api = FIL_API_1_1;
    cJSON *root = cJSON_ParseWithLength((const char *)json, n);
    if (!root || !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "public values: not a JSON object");
    }
    cuzk_status st = CUZK_OK;
    for (const cJSON *m = root->child; m && st == CUZK_OK; m = m->next) {
        for (const cJSON *e = root->child; e != m && st == CUZK_OK; e = e->next)
            if (!strcmp(e->string, m->string))
                st = cuzk_error_set(err, CUZK_ERR_FORMAT, "public values: \"%s\" twice", m->string);
        if (st == CUZK_OK)
            st = member(out, m, err);
    }
    cJSON_Delete(root);
    if (st == CUZK_OK)
        st = fil_public_check(out, err);
    if (st != CUZK_OK)
        fil_public_free(out);
    return st;
}

void fil_public_free(fil_public_t *p)
{
    free(p->sectors);
    p->sectors = NULL;
    p->n_sectors = 0;
}

static void put_hex(char *dst, const uint8_t b[32])
{
    for (int i = 0; i < 32; i++)
        sprintf(dst + 2 * i, "%02x", b[i]);
}

cuzk_status fil_public_write(char **out, const fil_public_t *p, cuzk_error_t *err)
{
    *out = NULL;
    cuzk_status st = fil_public_check(p, err);
    if (st != CUZK_OK)
        return st;
    cJSON *o = cJSON_CreateObject();
    int ok = o != NULL;
    char hex[65];
    ok = ok && cJSON_AddStringToObject(o, "kind", fil_circuit_kind_str(p->kind));
    ok = ok && cJSON_AddNumberToObject(o, "sector_size", (double)p->sector_size);
    ok = ok && cJSON_AddStringToObject(o, "api", fil_api_version_str(p->api));
    if (ok && p->kind == FIL_CIRCUIT_POREP)
        ok = cJSON_AddStringToObject(o, "registered_proof", fil_seal_info(p->seal)->name) != NULL;
    if (ok && (p->have & FIL_PUB_MINER_ID))
        ok = cJSON_AddNumberToObject(o, "miner_id", (double)p->miner_id) != NULL;
    if (ok && (p->have & FIL_PUB_SECTOR_ID))
        ok = cJSON_AddNumberToObject(o, "sector_id", (double)p->sector_id) != NULL;
    if (ok && (p->have & FIL_PUB_PARTITION))
        ok = cJSON_AddNumberToObject(o, "partition", p->partition) != NULL;
    for (size_t i = 0; ok && i < N_BYTES; i++)
        if (p->have & BYTES[i].bit) {
            put_hex(hex, (const uint8_t *)p + BYTES[i].off);
            ok = cJSON_AddStringToObject(o, BYTES[i].name, hex) != NULL;
        }
    if (ok && (p->have & FIL_PUB_H))
        ok = cJSON_AddNumberToObject(o, "h", p->h) != NULL;
    if (ok && (p->have & FIL_PUB_SECTORS)) {
        cJSON *arr = cJSON_AddArrayToObject(o, "sectors");
        ok = arr != NULL;
        for (size_t i = 0; ok && i < p->n_sectors; i++) {
            cJSON *s = cJSON_CreateObject();
            ok = s && cJSON_AddItemToArray(arr, s);
            put_hex(hex, p->sectors[i].comm_r);
            ok = ok && cJSON_AddNumberToObject(s, "id", (double)p->sectors[i].id) &&
                 cJSON_AddStringToObject(s, "comm_r", hex);
        }
    }
    char *txt = ok ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    if (!txt)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "public values: no memory for the JSON");
    *out = txt; /* cJSON allocates with malloc unless its hooks are changed */
    return CUZK_OK;
}

void fil_prover_id(uint8_t out[32], uint64_t miner_id)
{
    memset(out, 0, 32);
    int i = 0;
    do {
        uint8_t b = miner_id & 0x7f;
        miner_id >>= 7;
        out[i++] = (uint8_t)(b | (miner_id ? 0x80 : 0));
    } while (miner_id);
}

unsigned fil_public_partitions(const fil_public_t *p)
{
    if (p->have & FIL_PUB_PARTITION)
        return 1;
    if (p->kind == FIL_CIRCUIT_POREP) {
        const fil_seal_info_t *info = fil_seal_info(p->seal);
        return info ? info->partitions : 0;
    }
    if (p->kind == FIL_CIRCUIT_WINDOW_POST) {
        fil_post_params_t pp;
        if (fil_post_params(&pp, p->kind, p->sector_size, p->api, NULL) != CUZK_OK)
            return 0;
        return fil_post_partitions(&pp, p->n_sectors);
    }
    if (p->kind == FIL_CIRCUIT_SNAP_DEALS || p->kind == FIL_CIRCUIT_SNAP_DEALS_POSEIDON) {
        fil_update_shape_t sh;
        fil_update_kind uk =
            p->kind == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
        if (fil_update_shape_init(&sh, uk, p->sector_size / FIL_NODE_SIZE, NULL) != CUZK_OK)
            return 0;
        return sh.partitions;
    }
    return 1;
}

cuzk_status fil_public_inputs(fr_t *out, size_t cap, size_t *n, const fil_public_t *p, unsigned i,
                              cuzk_error_t *err)
{
    cuzk_status st = fil_public_check(p, err);
    if (st != CUZK_OK)
        return st;
    if (i >= fil_public_partitions(p))
        return cuzk_error_set(err, CUZK_ERR_ARG, "partition %u of %u", i, fil_public_partitions(p));
    unsigned k = (p->have & FIL_PUB_PARTITION) ? p->partition : i;
    if (p->kind == FIL_CIRCUIT_POREP)
        return fil_porep_inputs(out, cap, n, p->seal, p->replica_id, p->comm_d, p->comm_r, p->seed,
                                k, err);
    if (is_post(p->kind)) {
        fil_post_params_t pp;
        if ((st = fil_post_params(&pp, p->kind, p->sector_size, p->api, err)) != CUZK_OK)
            return st;
        if (p->kind == FIL_CIRCUIT_WINNING_POST) {
            fil_post_pub_sector_t list[66];
            if (pp.sector_count > 66)
                return cuzk_error_set(err, CUZK_ERR_INTERNAL, "winning post: %u sectors",
                                      pp.sector_count);
            fil_post_winning_sectors(list, &pp, &p->sectors[0]);
            return fil_post_inputs(out, cap, n, &pp, p->randomness, list, pp.sector_count, 0, err);
        }
        if (p->have & FIL_PUB_PARTITION)
            return fil_post_partition_inputs(out, cap, n, &pp, p->randomness, p->sectors,
                                             p->n_sectors, k, err);
        return fil_post_inputs(out, cap, n, &pp, p->randomness, p->sectors, p->n_sectors, k, err);
    }
    fil_update_shape_t sh;
    fil_update_kind uk = p->kind == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
    fr_t r_old, d_new, r_new;
    if ((st = fil_update_shape_init(&sh, uk, p->sector_size / FIL_NODE_SIZE, err)) != CUZK_OK)
        return st;
    if (cap < 4)
        return cuzk_error_set(err, CUZK_ERR_ARG, "snap-deals: 4 inputs do not fit in %zu", cap);
    if (fr_from_le(&r_old, p->comm_r_old) != CUZK_OK ||
        fr_from_le(&d_new, p->comm_d_new) != CUZK_OK ||
        fr_from_le(&r_new, p->comm_r_new) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                              "snap-deals: a commitment is not a field element");
    if ((st = fil_update_public_inputs(out, &sh, k, p->h, &r_old, &d_new, &r_new, err)) == CUZK_OK)
        *n = 4;
    return st;
}
