/* The VRAM admission protocol of src/engine/vram_ledger.c, in Promela.
 *
 * One ledger of CAP units. A key of KEY0 units is reserved at load time and
 * stays; a residency process loads and evicts a second key of KEY1 units
 * (ledger_reserve_persistent: never waits, refused unless it fits now,
 * outranks every waiter and leaves every waiter able to fit), and may keep
 * it for good. Four workers repeatedly admit stages, work and release:
 *   w0  LOW,    one stage of 2; may give up waiting once (timeout/cancel);
 *   w1  NORMAL, a stage of 3, released, then a second stage of 3;
 *   w2  HIGH,   the same;
 *   w3  LOW,    one stage of 2;
 * w1 and w2 together need more than the 4 units the key leaves (the
 * predecessor's scenario: each releases its stage before admitting the
 * next), and w0 + w3 fill those 4 units between them. A "tryer"
 * is a stream of CRITICAL ledger_try_admit calls of 1 unit; a clock ages
 * every waiter one level (the aging period). Failed tries and loads are not
 * steps (they change nothing), so a state where nothing can move is a
 * deadlock.
 *
 * The ledger's mutex is modelled by d_step: each ledger call is one atomic
 * step, and a waiter blocks on its own condition (st[i] == HELD), which
 * only dispatch() sets (the direct hand-over of the C code).
 * Abstractions: time is the clock's ticks, and all waiters age together
 * (the C code ages each from its own arrival: the same order up to when
 * the rises happen); a deadline or a cancel is w0 leaving the queue at any
 * moment while it waits, once (a waiter free to leave forever would, under
 * weak fairness, be made to leave and its starvation could not be seen);
 * sizes are small units instead of bytes.
 *
 * Checked by tests/spin_ledger.sh:
 *   safety   no invalid end state (no deadlock), assertions: reserved <=
 *            CAP, persistent <= reserved, every waiter fits CAP - persistent;
 *   liveness ltl "live" under weak fairness: every waiting worker is
 *            eventually admitted; and no non-progress cycle (workers
 *            admitted infinitely often);
 *   controls each variant below must FAIL, to show the checks can fail:
 *            -DNO_AGING (strict priority: LOW starves, liveness fails),
 *            -DBACKFILL (grant any waiter that fits: a big head starves,
 *            liveness fails), -DHOLD_AND_WAIT (w1 and w2 admit their
 *            second stage before releasing the first, as the predecessor's
 *            two locks did: deadlock, an invalid end state). */

#define CAP  5
#define KEY0 1
#define KEY1 2
#define NW   4

#define IDLE 0
#define WAIT 1
#define HELD 2

#define LOW    0
#define NORMAL 1
#define HIGH   2
#define CRIT   3

byte reserved = KEY0;   /* stages + persistent, as ledger_t.reserved */
byte persistent = KEY0;
byte st[NW];            /* IDLE, WAIT or HELD */
byte want[NW];          /* units asked while waiting */
byte eff[NW];           /* effective priority while waiting */
byte q[NW];             /* waiting workers in arrival order */
byte qlen;
byte loaded;            /* KEY1: 0 not held, 1 resident, 2 demoted (leaving) */

hidden byte h, j, pos;  /* d_step scratch, not part of the state */

#define W(i) (st[i] == WAIT)
#define AT_LEAST(i, p) (W(i) && eff[i] >= p)
#define NONE_AT_LEAST(p) (!AT_LEAST(0, p) && !AT_LEAST(1, p) && !AT_LEAST(2, p) && !AT_LEAST(3, p))
#define FITS(i, room) (!W(i) || want[i] <= room)
#define ALL_FIT(room) (FITS(0, room) && FITS(1, room) && FITS(2, room) && FITS(3, room))
#define AGABLE ((W(0) && eff[0] < CRIT) || (W(1) && eff[1] < CRIT) || (W(2) && eff[2] < CRIT) || \
                (W(3) && eff[3] < CRIT))

/* h = position in q of the first waiter in service order (highest eff,
 * then arrival), or, with BACKFILL, of the first that fits. */
inline find_head() {
    h = NW; j = 0;
    do
    :: j < qlen ->
        if
#ifdef BACKFILL
        :: want[q[j]] <= CAP - reserved && (h == NW || eff[q[j]] > eff[q[h]]) -> h = j
#else
        :: h == NW || eff[q[j]] > eff[q[h]] -> h = j
#endif
        :: else -> skip
        fi;
        j++
    :: else -> break
    od
}

inline unqueue(p) {
    j = p;
    do
    :: j + 1 < qlen -> q[j] = q[j + 1]; j++
    :: else -> break
    od;
    qlen--;
    q[qlen] = 0
}

/* Grants the head while it fits. */
inline dispatch() {
    do
    :: qlen == 0 -> break
    :: qlen > 0 ->
        find_head();
        if
        :: h < NW && want[q[h]] <= CAP - reserved ->
            reserved = reserved + want[q[h]];
            st[q[h]] = HELD;
            eff[q[h]] = 0;
            want[q[h]] = 0;
            unqueue(h)
        :: else -> break
        fi
    od;
    h = 0; j = 0
}

/* ledger_admit: refuse at once what can never fit, else queue and wait. */
inline admit(id, k, p) {
    d_step {
        if
        :: k > CAP - persistent -> ok = 0
        :: else ->
            ok = 1;
            want[id] = k; eff[id] = p; st[id] = WAIT;
            q[qlen] = id; qlen++;
            dispatch()
        fi
    };
    if
    :: ok ->
        if
        :: st[id] == HELD
        :: may_leave && st[id] == WAIT ->   /* deadline or cancel */
            d_step {
                if
                :: st[id] == WAIT ->
                    pos = 0;
                    do
                    :: q[pos] != id -> pos++
                    :: else -> break
                    od;
                    unqueue(pos);
                    st[id] = IDLE; eff[id] = 0; want[id] = 0;
#ifndef LEAVE_NO_DISPATCH
                    dispatch();
#endif
                    ok = 0; may_leave = 0; pos = 0
                :: else -> skip   /* granted first: the grant stands */
                fi
            }
        fi
    :: else -> skip
    fi
}

inline release(id, k) {
    d_step { reserved = reserved - k; st[id] = IDLE; dispatch() }
}

proctype worker(byte id; byte p; byte s1; byte s2; bit leaver) {
    bit ok, may_leave = leaver;
    do
    :: admit(id, s1, p);
       if
       :: ok ->
progress_1:
           if
           :: s2 > 0 ->
#ifndef HOLD_AND_WAIT
               release(id, s1);
#endif
               do   /* the second stage */
               :: admit(id, s2, p);
                  if
                  :: ok -> break
                  :: else -> skip   /* refused or gave up: it holds nothing; retry */
                  fi
               od;
#ifdef HOLD_AND_WAIT
               release(id, s1);
#endif
progress_2:    release(id, s2)
           :: else -> release(id, s1)
           fi
       :: else -> skip
       fi
    od
}

/* CRITICAL ledger_try_admit of 1 unit: granted only when it fits now and
 * no waiter is CRITICAL (a try never overtakes its own level). */
active proctype tryer() {
end_t:
    do
    :: d_step { NONE_AT_LEAST(CRIT) && 1 <= CAP - reserved -> reserved++ };
       d_step { reserved--; dispatch() }
    od
}

/* Time: every waiter gains a level per aging period. */
#ifndef NO_AGING
active proctype clock() {
end_c:
    do
    :: d_step {
           AGABLE ->
           j = 0;
           do
           :: j < NW -> if :: W(j) && eff[j] < CRIT -> eff[j]++ :: else -> skip fi; j++
           :: else -> break
           od;
           dispatch()
       }
    od
}
#endif

/* ledger_reserve_persistent of KEY1 at NORMAL, and ledger_release on
 * eviction, directly or after ledger_demote (an evicted key whose holders
 * have yet to drop it: loaded 2); it may also keep the key for good. */
active proctype residency() {
end_r:
    do
    :: d_step {
           loaded == 0 && KEY1 <= CAP - reserved && NONE_AT_LEAST(NORMAL) &&
           ALL_FIT(CAP - persistent - KEY1) ->
           reserved = reserved + KEY1; persistent = persistent + KEY1; loaded = 1
       }
    :: d_step { loaded == 1 -> reserved = reserved - KEY1; persistent = persistent - KEY1;
                loaded = 0; dispatch() }
    :: d_step { loaded == 1 -> persistent = persistent - KEY1; loaded = 2 }
    :: d_step { loaded == 2 -> reserved = reserved - KEY1; loaded = 0; dispatch() }
    :: loaded == 1 -> break
    od
}

active proctype monitor() {
end_m:
    atomic {
        !(reserved <= CAP && persistent <= reserved && ALL_FIT(CAP - persistent)) ->
        assert(false)
    }
}

init {
    atomic {
        run worker(0, LOW, 2, 0, 1);
        run worker(1, NORMAL, 3, 3, 0);
        run worker(2, HIGH, 3, 3, 0);
        run worker(3, LOW, 2, 0, 0)
    }
}

#ifndef NOLTL
ltl live {
    [] ((st[0] == WAIT -> <> (st[0] == HELD)) &&
        (st[1] == WAIT -> <> (st[1] == HELD)) &&
        (st[2] == WAIT -> <> (st[2] == HELD)) &&
        (st[3] == WAIT -> <> (st[3] == HELD)))
}
#endif
