/* The registered seal proofs (filecoin_proofs.h): one table row per
 * RegisteredSealProof of rust-filecoin-proofs-api src/registry.rs. */
#include "cuzk/filecoin_proofs.h"

#include <stdio.h>
#include <string.h>

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* Layers (constants.rs LAYERS): 2 below 32 GiB, 11 at 32 and 64 GiB.
 * Partitions: POREP_PARTITIONS (1, or 10 at 32/64 GiB) for interactive and
 * synthetic PoRep; get_porep_non_interactive_partitions (13, or 126) for
 * NI-PoRep. Challenges per partition: parameters.rs select_challenges,
 * div_ceil(minimum, partitions) with minimum 2 / 176 (interactive and
 * synthetic) or 26 / 2253 (NI): 2 / 18 in every case. */
#define ROW(p, nm, size, v, k, big, ni)                                                            \
    {                                                                                              \
        p, nm, size, (size) / FIL_NODE_SIZE, v, k, (big) ? 11u : 2u,                               \
            (ni) ? ((big) ? 126u : 13u) : ((big) ? 10u : 1u), (big) ? 18u : 2u                     \
    }

static const fil_seal_info_t SEAL[FIL_SEAL_COUNT] = {
    ROW(FIL_SEAL_2K_V1, "StackedDrg2KiBV1", 2 * KIB, FIL_API_1_0, FIL_POREP_INTERACTIVE, 0, 0),
    ROW(FIL_SEAL_8M_V1, "StackedDrg8MiBV1", 8 * MIB, FIL_API_1_0, FIL_POREP_INTERACTIVE, 0, 0),
    ROW(FIL_SEAL_512M_V1, "StackedDrg512MiBV1", 512 * MIB, FIL_API_1_0, FIL_POREP_INTERACTIVE, 0,
        0),
    ROW(FIL_SEAL_32G_V1, "StackedDrg32GiBV1", 32 * GIB, FIL_API_1_0, FIL_POREP_INTERACTIVE, 1, 0),
    ROW(FIL_SEAL_64G_V1, "StackedDrg64GiBV1", 64 * GIB, FIL_API_1_0, FIL_POREP_INTERACTIVE, 1, 0),
    ROW(FIL_SEAL_2K_V1_1, "StackedDrg2KiBV1_1", 2 * KIB, FIL_API_1_1, FIL_POREP_INTERACTIVE, 0, 0),
    ROW(FIL_SEAL_8M_V1_1, "StackedDrg8MiBV1_1", 8 * MIB, FIL_API_1_1, FIL_POREP_INTERACTIVE, 0, 0),
    ROW(FIL_SEAL_512M_V1_1, "StackedDrg512MiBV1_1", 512 * MIB, FIL_API_1_1, FIL_POREP_INTERACTIVE,
        0, 0),
    ROW(FIL_SEAL_32G_V1_1, "StackedDrg32GiBV1_1", 32 * GIB, FIL_API_1_1, FIL_POREP_INTERACTIVE, 1,
        0),
    ROW(FIL_SEAL_64G_V1_1, "StackedDrg64GiBV1_1", 64 * GIB, FIL_API_1_1, FIL_POREP_INTERACTIVE, 1,
        0),
    /* The synthetic proofs are API 1.2 although their names say 1_1
     * (registry.rs: "the published proof name has the incorrect version"). */
    ROW(FIL_SEAL_2K_V1_1_SYNTH, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 2 * KIB, FIL_API_1_2,
        FIL_POREP_SYNTHETIC, 0, 0),
    ROW(FIL_SEAL_8M_V1_1_SYNTH, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", 8 * MIB, FIL_API_1_2,
        FIL_POREP_SYNTHETIC, 0, 0),
    ROW(FIL_SEAL_512M_V1_1_SYNTH, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 512 * MIB,
        FIL_API_1_2, FIL_POREP_SYNTHETIC, 0, 0),
    ROW(FIL_SEAL_32G_V1_1_SYNTH, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", 32 * GIB, FIL_API_1_2,
        FIL_POREP_SYNTHETIC, 1, 0),
    ROW(FIL_SEAL_64G_V1_1_SYNTH, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", 64 * GIB, FIL_API_1_2,
        FIL_POREP_SYNTHETIC, 1, 0),
    ROW(FIL_SEAL_2K_V1_2_NI, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 2 * KIB, FIL_API_1_2,
        FIL_POREP_NON_INTERACTIVE, 0, 1),
    ROW(FIL_SEAL_8M_V1_2_NI, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", 8 * MIB, FIL_API_1_2,
        FIL_POREP_NON_INTERACTIVE, 0, 1),
    ROW(FIL_SEAL_512M_V1_2_NI, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", 512 * MIB,
        FIL_API_1_2, FIL_POREP_NON_INTERACTIVE, 0, 1),
    ROW(FIL_SEAL_32G_V1_2_NI, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 32 * GIB, FIL_API_1_2,
        FIL_POREP_NON_INTERACTIVE, 1, 1),
    ROW(FIL_SEAL_64G_V1_2_NI, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 64 * GIB, FIL_API_1_2,
        FIL_POREP_NON_INTERACTIVE, 1, 1),
};

const fil_seal_info_t *fil_seal_info(fil_seal_proof p)
{
    if ((unsigned)p >= FIL_SEAL_COUNT)
        return NULL;
    return &SEAL[p];
}

cuzk_status fil_seal_from_name(fil_seal_proof *out, const char *name, cuzk_error_t *err)
{
    if (!out || !name)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_seal_from_name: NULL argument");
    for (unsigned i = 0; i < FIL_SEAL_COUNT; i++)
        if (strcmp(SEAL[i].name, name) == 0) {
            *out = SEAL[i].proof;
            return CUZK_OK;
        }
    return cuzk_error_set(err, CUZK_ERR_ARG,
                          "unknown registered seal proof '%s' (StackedDrg{2KiB,8MiB,512MiB,"
                          "32GiB,64GiB}V1, ...V1_1, ...V1_1_Feat_SyntheticPoRep, "
                          "...V1_2_Feat_NonInteractivePoRep)",
                          name);
}

cuzk_status fil_seal_from_size(fil_seal_proof *out, uint64_t sector_size, fil_api_version api,
                               cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_seal_from_size: NULL argument");
    if (api != FIL_API_1_0 && api != FIL_API_1_1)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "no interactive seal proof has API version %d (1.0 or 1.1)",
                              (int)api);
    for (unsigned i = 0; i < FIL_SEAL_COUNT; i++)
        if (SEAL[i].sector_size == sector_size && SEAL[i].api == api &&
            SEAL[i].kind == FIL_POREP_INTERACTIVE) {
            *out = SEAL[i].proof;
            return CUZK_OK;
        }
    return cuzk_error_set(err, CUZK_ERR_ARG,
                          "sector size %llu is not a published size (2KiB, 8MiB, 512MiB, 32GiB, "
                          "64GiB)",
                          (unsigned long long)sector_size);
}

cuzk_status fil_porep_id(uint8_t out[32], fil_seal_proof p, cuzk_error_t *err)
{
    if (!out || !fil_seal_info(p))
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_porep_id: unknown seal proof %d", (int)p);
    memset(out, 0, 32);
    uint64_t id = (uint64_t)p;
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(id >> (8 * i));
    /* bytes 8..15: the nonce, 0 for every proof (registry.rs nonce()) */
    return CUZK_OK;
}

static const struct {
    const char *name;
    uint64_t bytes;
} SIZES[] = {
    {"2KiB", 2 * KIB},   {"8MiB", 8 * MIB},   {"512MiB", 512 * MIB},
    {"32GiB", 32 * GIB}, {"64GiB", 64 * GIB},
};

cuzk_status fil_sector_size_parse(uint64_t *out, const char *s, cuzk_error_t *err)
{
    if (!out || !s)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_sector_size_parse: NULL argument");
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++)
        if (strcmp(SIZES[i].name, s) == 0) {
            *out = SIZES[i].bytes;
            return CUZK_OK;
        }
    return cuzk_error_set(err, CUZK_ERR_ARG,
                          "unknown sector size '%s' (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)", s);
}

const char *fil_sector_size_str(uint64_t sector_size)
{
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++)
        if (SIZES[i].bytes == sector_size)
            return SIZES[i].name;
    return NULL;
}

cuzk_status fil_api_version_parse(fil_api_version *out, const char *s, cuzk_error_t *err)
{
    if (!out || !s)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_api_version_parse: NULL argument");
    static const char *const names[3][2] = {{"1.0", "1.0.0"}, {"1.1", "1.1.0"}, {"1.2", "1.2.0"}};
    for (int v = 0; v < 3; v++)
        if (strcmp(s, names[v][0]) == 0 || strcmp(s, names[v][1]) == 0) {
            *out = (fil_api_version)v;
            return CUZK_OK;
        }
    return cuzk_error_set(err, CUZK_ERR_ARG, "unknown API version '%s' (1.0, 1.1, 1.2)", s);
}

const char *fil_api_version_str(fil_api_version v)
{
    switch (v) {
    case FIL_API_1_0: return "1.0.0";
    case FIL_API_1_1: return "1.1.0";
    case FIL_API_1_2: return "1.2.0";
    }
    return "unknown";
}
