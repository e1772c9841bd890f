/* Commands of the cuzk CLI. Each returns the process exit code:
 * 0 success, 1 a check or verification failed, 2 usage or bad input. */
#ifndef CUZK_CLI_H
#define CUZK_CLI_H

#include <stddef.h>

#include "cuzk/fr.h"

int cmd_demo(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_setup(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_export_vkey(int argc, char **argv);
int cmd_gen_circuit(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
/* cmd_filecoin.c: Filecoin's circuits (info, circuit). */
int cmd_filecoin(int argc, char **argv);
/* cmd_filecoin_prove.c: `cuzk filecoin setup|prove|verify`; argv[0] is the
 * subcommand. */
int cmd_filecoin_prove(int argc, char **argv);
/* cmd_filecoin_gen.c: `cuzk filecoin gen-vanilla`; argv[0] is the subcommand. */
int cmd_filecoin_gen(int argc, char **argv);
/* The proving daemon (cmd_daemon.c): serves until SIGINT/SIGTERM; exit 0
 * after a signal, 2 for usage, a bad config or a start-up failure. */
int cmd_daemon(int argc, char **argv);
/* Daemon clients (cmd_client.c): cuzk.v1 calls to a running daemon;
 * exit 1 when a job failed, 2 on usage, bad input or an unreachable daemon. */
int cmd_submit(int argc, char **argv);
int cmd_await(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_cancel(int argc, char **argv);
int cmd_preload(int argc, char **argv);
int cmd_evict(int argc, char **argv);

/* `cuzk bench <what>` subcommands, one file each (bench_<what>.c); argv[0]
 * is <what>. */
int bench_field(int argc, char **argv);
int bench_ntt(int argc, char **argv);
int bench_msm(int argc, char **argv);
int bench_prove(int argc, char **argv);
int bench_engine(int argc, char **argv);
int bench_porep(int argc, char **argv);
/* The real Filecoin circuits on sealed inputs through the engine
 * (bench_filecoin.c). */
int bench_filecoin(int argc, char **argv);
/* `cuzk bench single|batch|stress` against a running daemon (bench_client.c). */
int bench_client(int argc, char **argv);
/* The demo's PoRep-shaped job through the engine (demo_porep.c): 1 when it
 * proved and verified. */
int demo_porep(void);
/* The CUDA variants (bench_cuda.c): `cuzk bench ntt|msm --device cuda`. */
int bench_cuda_ntt(int argc, char **argv);
int bench_cuda_msm(int argc, char **argv);
int bench_cuda_field(int argc, char **argv);
int bench_pack(int argc, char **argv);
/* --scalars' value v for the CPU and GPU MSM benches (bench_msm.c):
 * "random" (0, 0), "witness" (45, 45) or "zero-one:Z,O" (decimal
 * percentages of zeros and ones, Z + O <= 100; the rest random). Out: the
 * mix and its name for the output (label_len >= SCALARS_LABEL). Returns
 * NULL, or why v is not a mix (a static string). */
#define SCALARS_LABEL 24 /* "zero-one:100,0" and its NUL fit */
const char *bench_scalars_parse(unsigned *zero_pct, unsigned *one_pct, char *label,
                                size_t label_len, const char *v);
/* n scalars of that mix (bench_msm.c): s_i = 0 with probability
 * zero_pct %, 1 with one_pct %, else uniform; NULL without memory. */
fr_t *bench_scalars_make(size_t n, unsigned zero_pct, unsigned one_pct, uint64_t seed);

#endif
