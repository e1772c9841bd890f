/* Job priorities shared by the engine's queues and the VRAM ledger.
 *
 * Higher values are served first. The mapping to proof kinds follows the
 * predecessor's lesson (DESIGN.md 2): WinningPoSt is deadline-critical,
 * WindowPoSt has a deadline of minutes, PoRep C2 is throughput work,
 * SnapDeals (a sector update that can wait) and background jobs are LOW.
 * Thread safety: constants and a pure function only. */
#ifndef CUZK_PRIORITY_H
#define CUZK_PRIORITY_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cuzk_priority {
    CUZK_PRIO_LOW = 0,      /* SnapDeals, background, rehearsal */
    CUZK_PRIO_NORMAL = 1,   /* PoRep C2, snarkjs circuits */
    CUZK_PRIO_HIGH = 2,     /* WindowPoSt */
    CUZK_PRIO_CRITICAL = 3, /* WinningPoSt */
} cuzk_priority;

#define CUZK_PRIO_COUNT 4

/* A short fixed name ("high"); "invalid" outside the enum. Never NULL. */
static inline const char *cuzk_priority_str(int p)
{
    static const char *const names[CUZK_PRIO_COUNT] = {"low", "normal", "high", "critical"};
    return p >= 0 && p < CUZK_PRIO_COUNT ? names[p] : "invalid";
}

#ifdef __cplusplus
}
#endif
#endif
