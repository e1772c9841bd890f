/* Filecoin's parameter file names and paths (filecoin_params.h).
 *
 * The identifier formats are the Rust format! strings of RFP@87348a7, with
 * "{{" written as "{"; where Rust prints numbers with {} they are decimal:
 *   StackedDrg   storage-proofs-porep stacked/vanilla/params.rs PublicParams,
 *                around graph.rs StackedGraph's id, around drgraph.rs
 *                BucketGraph's identifier;
 *   FallbackPoSt storage-proofs-post fallback/vanilla.rs PublicParams;
 *   SnapDeals    storage-proofs-update vanilla.rs PublicParams (the
 *                Poseidon variant reuses it: poseidon/compound.rs).
 * The public parameters per size are filecoin-proofs parameters.rs:
 * setup_params (PoRep), winning_post_setup_params (66 challenges of one
 * sector become 66 sectors of one challenge), window_post_setup_params. */
#include "cuzk/filecoin_params.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_update.h"
#include "fil_internal.h"

#define VALID_KINDS "porep, winning-post, window-post, snap-deals, snap-deals-poseidon"

/* cache_prefix() of each kind's compound proof, before the tree: the tree
 * follows, and StackedCompound appends its piece hasher G (Sha256Hasher). */
static const char *const PREFIX[FIL_CIRCUIT_COUNT] = {
    "stacked-proof-of-replication", "proof-of-spacetime-fallback", "proof-of-spacetime-fallback",
    "empty-sector-update", "empty-sector-update-poseidon"};

/* filecoin-hashers Hasher::name() */
static const char *hasher_name(fil_hasher h)
{
    return h == FIL_HASHER_SHA256 ? "sha256_hasher" : "poseidon_hasher";
}

/* snprintf into out, CUZK_ERR_ARG when it does not fit. */
static cuzk_status put(char *out, size_t cap, cuzk_error_t *err, const char *what, const char *fmt,
                       ...) __attribute__((format(printf, 5, 6)));

static cuzk_status put(char *out, size_t cap, cuzk_error_t *err, const char *what, const char *fmt,
                       ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    if (n < 0)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "%s: formatting failed", what);
    if ((size_t)n >= cap)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: buffer of %zu bytes, %d needed", what, cap,
                              n + 1);
    return CUZK_OK;
}

/* MerkleTreeWrapper::display(): "merkletree-<hasher>-<base>-<sub>-<top>". */
static cuzk_status tree_display(char *out, size_t cap, const fil_tree_shape_t *t)
{
    return put(out, cap, NULL, "tree", "merkletree-%s-%u-%u-%u", hasher_name(t->hasher),
               t->base_arity, t->sub_arity, t->top_arity);
}

/* The seal proof whose public parameters name the PoRep file: the
 * interactive one under 1.0 / 1.1, the non-interactive one under 1.2
 * (as fil_circuit_synth_blank builds it). The synthetic proofs have the
 * interactive numbers, and get_porep_non_interactive_partitions was chosen
 * so that NI-PoRep keeps them too (constants.rs: "to re-use the files"). */
static cuzk_status porep_proof(const fil_seal_info_t **out, uint64_t sector_size,
                               fil_api_version api, cuzk_error_t *err)
{
    fil_seal_proof p = FIL_SEAL_COUNT;
    if (api == FIL_API_1_2) {
        for (int i = 0; i < FIL_SEAL_COUNT; i++) {
            const fil_seal_info_t *r = fil_seal_info((fil_seal_proof)i);
            if (r->sector_size == sector_size && r->kind == FIL_POREP_NON_INTERACTIVE)
                p = (fil_seal_proof)i;
        }
    } else if (fil_seal_from_size(&p, sector_size, api, NULL) != CUZK_OK) {
        p = FIL_SEAL_COUNT;
    }
    if (p == FIL_SEAL_COUNT)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "porep: sector size %llu bytes has no registered seal proof (2KiB, "
                              "8MiB, 512MiB, 32GiB, 64GiB)",
                              (unsigned long long)sector_size);
    *out = fil_seal_info(p);
    return CUZK_OK;
}

static cuzk_status porep_identifier(char *out, size_t cap, uint64_t sector_size,
                                    fil_api_version api, const char *tree, cuzk_error_t *err)
{
    const fil_seal_info_t *s = NULL;
    cuzk_status st = porep_proof(&s, sector_size, api, err);
    if (st != CUZK_OK)
        return st;
    /* The graph's hasher is Tree::Hasher (StackedBucketGraph<Tree::Hasher>);
     * max_count is num_challenges_per_partition. */
    return put(out, cap, err, "fil_params_identifier",
               "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{"
               "expansion_degree: %u base_graph: drgraph::BucketGraph{size: %llu; degree: %u; "
               "hasher: %s} }, challenges: LayerChallenges { layers: %u, max_count: %u }, "
               "tree: %s }",
               FIL_EXP_DEGREE, (unsigned long long)s->nodes, FIL_DRG_DEGREE,
               hasher_name(FIL_HASHER_POSEIDON), s->layers, s->challenges_per_partition, tree);
}

static cuzk_status post_identifier(char *out, size_t cap, fil_circuit_kind kind,
                                   uint64_t sector_size, cuzk_error_t *err)
{
    unsigned challenges = 1, sectors = 66; /* WINNING_POST_CHALLENGE_COUNT / SECTOR_COUNT */
    if (kind == FIL_CIRCUIT_WINDOW_POST) {
        challenges = 10; /* WINDOW_POST_CHALLENGE_COUNT */
        cuzk_status st = fil_window_post_sectors(&sectors, sector_size, err);
        if (st != CUZK_OK)
            return st;
    }
    return put(out, cap, err, "fil_params_identifier",
               "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, "
               "sector_count: %u}",
               (unsigned long long)sector_size, challenges, sectors);
}

static cuzk_status update_identifier(char *out, size_t cap, fil_circuit_kind kind,
                                     uint64_t sector_size, cuzk_error_t *err)
{
    /* from_sector_size panics outside ALLOWED_SECTOR_SIZES; the shape
     * table is the one place that knows them. */
    fil_update_shape_t shape;
    fil_update_kind uk = kind == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
    if (fil_update_shape_init(&shape, uk, sector_size / FIL_NODE_SIZE, NULL) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "%s: sector size %llu bytes is not allowed (2KiB, 4KiB, 16KiB, "
                              "32KiB, 8MiB, 16MiB, 512MiB, 32GiB, 64GiB)",
                              fil_circuit_kind_str(kind), (unsigned long long)sector_size);
    return put(out, cap, err, "fil_params_identifier",
               "empty_sector_update::PublicParams{ sector_nodes: %llu }",
               (unsigned long long)shape.nodes);
}

/* The identifier into id and the cache prefix into prefix. */
static cuzk_status describe(char *id, size_t id_cap, char *prefix, size_t prefix_cap,
                            fil_circuit_kind kind, uint64_t sector_size, fil_api_version api,
                            cuzk_error_t *err)
{
    if ((unsigned)kind >= FIL_CIRCUIT_COUNT)
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown circuit kind %d (" VALID_KINDS ")",
                              (int)kind);
    if ((unsigned)api > FIL_API_1_2)
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown API version %d (1.0, 1.1, 1.2)",
                              (int)api);
    fil_tree_shape_t shape;
    char tree[64];
    cuzk_status st = fil_sector_tree(&shape, sector_size, err);
    if (st != CUZK_OK)
        return st;
    if ((st = tree_display(tree, sizeof tree, &shape)) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "fil_params: tree name too long");
    switch (kind) {
    case FIL_CIRCUIT_POREP: st = porep_identifier(id, id_cap, sector_size, api, tree, err); break;
    case FIL_CIRCUIT_WINNING_POST:
    case FIL_CIRCUIT_WINDOW_POST: st = post_identifier(id, id_cap, kind, sector_size, err); break;
    default: st = update_identifier(id, id_cap, kind, sector_size, err); break;
    }
    if (st != CUZK_OK || !prefix)
        return st;
    if (kind == FIL_CIRCUIT_POREP)
        return put(prefix, prefix_cap, err, "fil_params_stem", "%s-%s-%s", PREFIX[kind], tree,
                   hasher_name(FIL_HASHER_SHA256));
    return put(prefix, prefix_cap, err, "fil_params_stem", "%s-%s", PREFIX[kind], tree);
}

cuzk_status fil_params_identifier(char *out, size_t cap, fil_circuit_kind kind,
                                  uint64_t sector_size, fil_api_version api, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_params_identifier: NULL output");
    return describe(out, cap, NULL, 0, kind, sector_size, api, err);
}

cuzk_status fil_params_stem(char *out, size_t cap, fil_circuit_kind kind, uint64_t sector_size,
                            fil_api_version api, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_params_stem: NULL output");
    char id[FIL_PARAMS_ID_MAX], prefix[FIL_PARAMS_STEM_MAX];
    cuzk_status st = describe(id, sizeof id, prefix, sizeof prefix, kind, sector_size, api, err);
    if (st != CUZK_OK)
        return st;
    uint8_t h[32];
    const void *parts[1] = {id};
    size_t lens[1] = {strlen(id)};
    if ((st = fil_sha256_parts(h, parts, lens, 1, err)) != CUZK_OK)
        return st;
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", h[i]);
    /* parameter_cache.rs parameter_cache_params_path: "v{VERSION}-{id}" */
    return put(out, cap, err, "fil_params_stem", "v%u-%s-%s", FIL_PARAMS_VERSION, prefix, hex);
}

const char *fil_params_dir_default(void)
{
    /* Settings read FIL_PROOFS_* from the environment (settings.rs PREFIX). */
    const char *d = getenv("FIL_PROOFS_PARAMETER_CACHE");
    return d && *d ? d : FIL_PARAMS_DIR_FALLBACK;
}

/* Why "<dir>/<name>" cannot be used, into err: why, the name, the folder,
 * detail, the way out. The name comes before the folder, as a long folder
 * may be cut off at CUZK_ERRMSG_MAX. */
static cuzk_status unusable(const char *path, size_t name_at, const char *why, const char *detail,
                            cuzk_error_t *err)
{
    int dir_len = (int)(name_at > 1 ? name_at - 1 : name_at); /* without its last '/' */
    return cuzk_error_set(err, CUZK_ERR_IO,
                          "%s %s in %.*s%s; set --params-dir or FIL_PROOFS_PARAMETER_CACHE", why,
                          path + name_at, dir_len, path, detail);
}

cuzk_status fil_params_path(char *out, size_t cap, const char *dir, const char *stem,
                            const char *ext, int must_exist, cuzk_error_t *err)
{
    if (!out || !stem || !ext)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_params_path: NULL argument");
    if (!*stem || strchr(stem, '/'))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "fil_params_path: stem '%s' must be a file name (no '/')", stem);
    if (!*ext || *ext == '.' || strchr(ext, '/'))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "fil_params_path: ext '%s' must be params, vk or meta (no dot)", ext);
    if (!dir)
        dir = fil_params_dir_default();
    if (!*dir)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_params_path: empty folder");
    size_t dl = strlen(dir);
    const char *sep = dir[dl - 1] == '/' ? "" : "/";
    cuzk_status st = put(out, cap, err, "fil_params_path", "%s%s%s.%s", dir, sep, stem, ext);
    if (st != CUZK_OK || !must_exist)
        return st;
    size_t name_at = dl + strlen(sep);
    int fd = open(out, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block */
    if (fd < 0 && errno == ENOENT)
        return unusable(out, name_at, "missing", "", err);
    if (fd < 0) {
        char detail[96];
        snprintf(detail, sizeof detail, " (%s)", strerror(errno));
        return unusable(out, name_at, "cannot read", detail, err);
    }
    struct stat sb;
    int regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    close(fd);
    return regular ? CUZK_OK : unusable(out, name_at, "not a regular file:", "", err);
}
