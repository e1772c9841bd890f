/* cuzk status codes and error messages.
 *
 * Rules for every public cuzk function:
 *  - outputs come first, const inputs after, sizes explicit;
 *  - a function that can fail returns cuzk_status; when its cuzk_error_t *err
 *    argument is non-NULL the message says what was wrong (a file and what was
 *    expected, where known); err may be NULL;
 *  - the library never exits or aborts on bad input.
 * Thread safety: functions without a handle argument are reentrant. */
#ifndef CUZK_STATUS_H
#define CUZK_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cuzk_status {
    CUZK_OK = 0,
    CUZK_ERR_ARG,             /* an argument broke the function's contract */
    CUZK_ERR_LENGTH,          /* input of the wrong length */
    CUZK_ERR_FLAGS,           /* encoding flag bits that are not allowed */
    CUZK_ERR_NONCANONICAL,    /* a field element >= its modulus */
    CUZK_ERR_NOT_ON_CURVE,    /* coordinates that do not satisfy the curve */
    CUZK_ERR_NOT_IN_SUBGROUP, /* a curve point outside the order-r subgroup */
    CUZK_ERR_PARSE,           /* text that is not what was expected */
    CUZK_ERR_IO,              /* a file could not be read or written */
    CUZK_ERR_FORMAT,          /* a file that does not follow its format */
    CUZK_ERR_NOMEM,           /* allocation failed */
    CUZK_ERR_UNSUPPORTED,     /* valid, but not something cuzk does */
    CUZK_ERR_INTERNAL,        /* a broken invariant: a bug */
    CUZK_ERR_CUDA,            /* a CUDA runtime call or kernel launch failed */
    CUZK_ERR_NO_DEVICE,       /* GPU work asked for where there is no GPU */
    CUZK_ERR_TIMEOUT,         /* a wait reached its deadline */
    CUZK_ERR_CANCELLED,       /* a wait was cancelled */
    CUZK_ERR_BUSY,            /* not possible now without waiting; may succeed later */
    CUZK_ERR_CAPACITY,        /* more than a budget can ever grant */
    CUZK_ERR_INVALID          /* well-formed input that is not a valid proof */
} cuzk_status;

/* The last code: readers of stored codes (the journal) accept 0..this. */
#define CUZK_ERR_LAST CUZK_ERR_INVALID

#define CUZK_ERRMSG_MAX 256

typedef struct cuzk_error {
    cuzk_status code;
    char msg[CUZK_ERRMSG_MAX];
} cuzk_error_t;

/* A short fixed name for a status ("not on curve"). Never NULL. */
const char *cuzk_status_str(cuzk_status s);

/* Records code and a printf-style message into err (when err is non-NULL) and
 * returns code, so that callers can write `return cuzk_error_set(...)`. */
cuzk_status cuzk_error_set(cuzk_error_t *err, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Invariants inside a layer (never argument checks: those return a status
 * at the API edge). Debug builds (CUZK_DEBUG, the sanitizer build) check
 * them and abort with the expression and its place, so a broken invariant
 * stops the tests at its cause; release builds compile them out (the
 * expression is still type-checked, never evaluated). */
#ifdef CUZK_DEBUG
#define CUZK_ASSERT(cond) ((cond) ? (void)0 : cuzk_assert_fail(#cond, __FILE__, __LINE__))
#else
#define CUZK_ASSERT(cond) ((void)sizeof(!(cond)))
#endif
void cuzk_assert_fail(const char *expr, const char *file, int line) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif
#endif
