/* The Filecoin options of the daemon client commands (`cuzk submit`,
 * `cuzk bench single|batch|stress`): a request filled from the public
 * values `cuzk filecoin gen-vanilla` writes (filecoin_public.h), the way
 * Curio fills it (curio lib/ffi/cuzk_funcs.go; the numbers are
 * go-state-types' RegisteredSealProof, RegisteredPoStProof and
 * RegisteredUpdateProof, as daemon_filecoin.c reads them).
 *
 * Rules: outputs first; messages name the option ("--public: ...") and go
 * to stderr as "cuzk <cmd>: ..."; not thread safe (one per command). */
#ifndef CUZK_CLIENT_FILECOIN_H
#define CUZK_CLIENT_FILECOIN_H

#include <stdint.h>

#include "client_util.h"
#include "cuzk/filecoin_public.h"

/* The options as given. */
typedef struct client_fil_opts {
    const char *public_path; /* --public; NULL: not given */
    int have_rp, have_part;  /* --registered-proof, --partition given */
    uint64_t registered_proof;
    unsigned partition;
} client_fil_opts_t;

/* The usage lines of the options above. */
extern const char CLIENT_FIL_USAGE[];

/* When argv[*i] is --public, --registered-proof or --partition, takes it
 * and its value (advancing *i) and returns 1; --vanilla FILE: sets *file
 * to FILE and returns 2 (the caller adds it to its files); 0: not one of
 * them; -1: a value missing or malformed (message printed). */
int client_fil_take(client_fil_opts_t *o, const char **file, const char *cmd, int argc, char **argv,
                    int *i);

/* What a Filecoin request carries besides its vanilla proofs. */
typedef struct client_fil {
    fil_public_t pub;
    Cuzk__V1__ProofKind kind;
    uint64_t registered_proof;
    unsigned partition;
} client_fil_t;

/* Works out the request's Filecoin fields. Without o->public_path: a
 * GROTH16_CIRCUIT request (out->kind stays GROTH16_CIRCUIT), or an error
 * when job->kind is a Filecoin kind or a Filecoin option was given. With
 * it: loads the public values; job->kind (when not GROTH16_CIRCUIT) must
 * match the file's and is set to it; registered_proof is o's, else the one
 * of the kind, sector size and API; the WindowPoSt partition o's, else the
 * file's "partition", else 0. Returns CUZK_OK; CUZK_ERR_IO,
 * CUZK_ERR_FORMAT, CUZK_ERR_ARG with err naming the option or member.
 * out must be freed with client_fil_free. */
cuzk_status client_fil_load(client_fil_t *out, client_job_t *job, const client_fil_opts_t *o,
                            cuzk_error_t *err);
void client_fil_free(client_fil_t *f); /* accepts a zeroed f */

/* The registered proof number Curio sends for p's kind, sector size and
 * API. CUZK_ERR_ARG when there is none (a size Filecoin does not have,
 * the Poseidon SnapDeals variant). */
cuzk_status client_fil_registered_proof(uint64_t *out, const fil_public_t *p, cuzk_error_t *err);

/* Sets the Filecoin fields of *req (already filled by
 * client_request_fill) from f; req points into f afterwards. */
void client_fil_fill(Cuzk__V1__SubmitProofRequest *req, client_fil_t *f);

#endif
