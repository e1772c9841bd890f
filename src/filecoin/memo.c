/* The sizes memo (fil_internal.h fil_memo_get). */
#include <string.h>

#include "fil_internal.h"

cuzk_status fil_memo_get(fil_memo_t *m, void *value, const void *key, cuzk_error_t *err)
{
    if (m->key_size + m->value_size > FIL_MEMO_BYTES)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "memo: %zu + %zu bytes per entry",
                              m->key_size, m->value_size);
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&m->mu);
    unsigned i = 0;
    while (i < m->n && !m->same(m->slot[i], key))
        i++;
    if (i < m->n) {
        memcpy(value, m->slot[i] + m->key_size, m->value_size);
    } else if ((st = m->measure(value, key, err)) == CUZK_OK) {
        i = m->n < FIL_MEMO_SLOTS ? m->n++ : m->next++ % FIL_MEMO_SLOTS;
        memcpy(m->slot[i], key, m->key_size);
        memcpy(m->slot[i] + m->key_size, value, m->value_size);
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}
