/* snarkjs JSON files (see include/cuzk/snarkjs_json.h).
 *
 * Reading goes through cJSON. Writing builds a cJSON tree and prints it with
 * print_js below, which reproduces JavaScript's JSON.stringify(v, null, 1)
 * (snarkjs's layout); cJSON's own printer indents with tabs. */
#include "cuzk/snarkjs_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "cuzk/decimal.h"
#include "cuzk/pairing.h"

#define JSON_FILE_MAX (1ull << 30) /* a vk with millions of IC points fits */

/* An integer |d| <= 2^53 - 1 (math.h is avoided: its FP_ZERO_ELEM clashes with
 * fp.h's). NaN fails the range test. */
static int is_safe_integer(double d)
{
    if (!(d >= -9007199254740991.0 && d <= 9007199254740991.0))
        return 0;
    return (double)(long long)d == d;
}

/* ---- reading ---------------------------------------------------------- */

static cuzk_status read_text(char **out, size_t *len, const char *path, cuzk_error_t *err)
{
    *out = NULL;
    *len = 0;
    if (!path)
        return cuzk_error_set(err, CUZK_ERR_ARG, "NULL path");
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < 0 ||
        (unsigned long long)sb.st_size > JSON_FILE_MAX) {
        fclose(f);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: not a regular file of at most %llu bytes",
                              path, JSON_FILE_MAX);
    }
    size_t n = (size_t)sb.st_size;
    char *buf = malloc(n + 1);
    if (!buf) {
        fclose(f);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %zu bytes", path, n);
    }
    size_t got = fread(buf, 1, n, f);
    int bad = ferror(f);
    fclose(f);
    if (got != n || bad) {
        free(buf);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: short read", path);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return CUZK_OK;
}

static cuzk_status parse_json(cJSON **root, const char *json, size_t len, const char *name,
                              int want_type, cuzk_error_t *err)
{
    *root = NULL;
    if (!json && len)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL text", name);
    cJSON *r = cJSON_ParseWithLength(json ? json : "", len);
    if (!r)
        return cuzk_error_set(err, CUZK_ERR_PARSE, "%s: not valid JSON", name);
    if (!(r->type & want_type)) {
        cJSON_Delete(r);
        return cuzk_error_set(err, CUZK_ERR_PARSE, "%s: top level is not a JSON %s", name,
                              want_type == cJSON_Object ? "object" : "array");
    }
    *root = r;
    return CUZK_OK;
}

/* Fills s[0..k) from an array of exactly k strings; 0 if the shape differs. */
static int string_array(const char *s[], const cJSON *a, int k)
{
    if (!cJSON_IsArray(a))
        return 0;
    int n = 0;
    for (const cJSON *c = a->child; c; c = c->next) {
        if (n == k || !cJSON_IsString(c) || !c->valuestring)
            return 0;
        s[n++] = c->valuestring;
    }
    return n == k;
}

static cuzk_status read_g1(g1_affine_t *out, const cJSON *v, const char *name, const char *field,
                           cuzk_error_t *err)
{
    const char *s[3];
    if (!v)
        return cuzk_error_set(err, CUZK_ERR_PARSE, "%s: %s is missing", name, field);
    if (!string_array(s, v, 3))
        return cuzk_error_set(err, CUZK_ERR_PARSE,
                              "%s: %s is not a G1 point [\"x\", \"y\", \"z\"] of decimal strings",
                              name, field);
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = g1_from_dec(out, s, POINT_CHECK_SUBGROUP, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "%s: %s: %s", name, field, e.msg);
    return CUZK_OK;
}

static cuzk_status read_g2(g2_affine_t *out, const cJSON *v, const char *name, const char *field,
                           cuzk_error_t *err)
{
    const char *s[3][2];
    if (!v)
        return cuzk_error_set(err, CUZK_ERR_PARSE, "%s: %s is missing", name, field);
    int ok = cJSON_IsArray(v) && cJSON_GetArraySize(v) == 3;
    const cJSON *c = ok ? v->child : NULL;
    for (int i = 0; ok && i < 3; i++, c = c->next)
        ok = string_array(s[i], c, 2);
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_PARSE,
                              "%s: %s is not a G2 point [[\"x0\",\"x1\"], [\"y0\",\"y1\"], "
                              "[\"z0\",\"z1\"]] of decimal strings",
                              name, field);
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = g2_from_dec(out, (const char *const(*)[2])s, POINT_CHECK_SUBGROUP, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "%s: %s: %s", name, field, e.msg);
    return CUZK_OK;
}

/* "protocol" / "curve": must equal want when present (or always, if required). */
static cuzk_status check_tag(const cJSON *root, const char *key, const char *want, int required,
                             const char *name, cuzk_error_t *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!v) {
        if (required)
            return cuzk_error_set(err, CUZK_ERR_PARSE, "%s: \"%s\" is missing", name, key);
        return CUZK_OK;
    }
    if (!cJSON_IsString(v) || !v->valuestring)
        return cuzk_error_set(err, CUZK_ERR_PARSE, "%s: \"%s\" is not a string", name, key);
    if (strcmp(v->valuestring, want) != 0)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s: %s is \"%.40s\", expected \"%s\"",
                              name, key, v->valuestring, want);
    return CUZK_OK;
}

cuzk_status snarkjs_proof_parse(groth16_proof_t *out, const char *json, size_t len,
                                const char *name, cuzk_error_t *err)
{
    if (!name)
        name = "proof.json";
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL output", name);
    cJSON *root;
    cuzk_status st = parse_json(&root, json, len, name, cJSON_Object, err);
    if (st != CUZK_OK)
        return st;
    groth16_proof_t p;
    if (!(st = check_tag(root, "protocol", "groth16", 0, name, err)) &&
        !(st = check_tag(root, "curve", "bls12381", 0, name, err)) &&
        !(st = read_g1(&p.a, cJSON_GetObjectItemCaseSensitive(root, "pi_a"), name, "pi_a", err)) &&
        !(st = read_g2(&p.b, cJSON_GetObjectItemCaseSensitive(root, "pi_b"), name, "pi_b", err)) &&
        !(st = read_g1(&p.c, cJSON_GetObjectItemCaseSensitive(root, "pi_c"), name, "pi_c", err)))
        *out = p;
    cJSON_Delete(root);
    return st;
}

cuzk_status snarkjs_public_parse(fr_t **out, size_t *n, const char *json, size_t len,
                                 const char *name, cuzk_error_t *err)
{
    if (!name)
        name = "public.json";
    if (!out || !n)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL output", name);
    *out = NULL;
    *n = 0;
    cJSON *root;
    cuzk_status st = parse_json(&root, json, len, name, cJSON_Array, err);
    if (st != CUZK_OK)
        return st;
    size_t cnt = 0;
    for (const cJSON *c = root->child; c; c = c->next)
        cnt++;
    fr_t *v = cnt ? malloc(cnt * sizeof *v) : NULL;
    if (cnt && !v) {
        cJSON_Delete(root);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %zu values", name, cnt);
    }
    size_t i = 0;
    for (const cJSON *c = root->child; c && st == CUZK_OK; c = c->next, i++) {
        if (!cJSON_IsString(c) || !c->valuestring) {
            st = cuzk_error_set(err, CUZK_ERR_PARSE, "%s: value %zu is not a decimal string", name,
                                i);
            break;
        }
        cuzk_error_t e = {CUZK_OK, ""};
        if ((st = fr_from_dec(&v[i], c->valuestring, strlen(c->valuestring), &e)) != CUZK_OK)
            cuzk_error_set(err, st, "%s: value %zu: %s", name, i, e.msg);
    }
    cJSON_Delete(root);
    if (st != CUZK_OK) {
        free(v);
        return st;
    }
    *out = v;
    *n = cnt;
    return CUZK_OK;
}

static cuzk_status read_fp12(fp12_t *out, const cJSON *v, const char *name, cuzk_error_t *err)
{
    const char *field = "vk_alphabeta_12";
    fp6_t *c6[2] = {&out->c0, &out->c1};
    int ok = cJSON_IsArray(v) && cJSON_GetArraySize(v) == 2;
    const cJSON *a = ok ? v->child : NULL;
    for (int i = 0; ok && i < 2; i++, a = a->next) {
        fp2_t *c2[3] = {&c6[i]->c0, &c6[i]->c1, &c6[i]->c2};
        ok = cJSON_IsArray(a) && cJSON_GetArraySize(a) == 3;
        const cJSON *b = ok ? a->child : NULL;
        for (int j = 0; ok && j < 3; j++, b = b->next) {
            const char *s[2];
            ok = string_array(s, b, 2);
            for (int k = 0; ok && k < 2; k++) {
                cuzk_error_t e = {CUZK_OK, ""};
                fp_t *dst = k ? &c2[j]->c1 : &c2[j]->c0;
                cuzk_status st = fp_from_dec(dst, s[k], strlen(s[k]), &e);
                if (st != CUZK_OK)
                    return cuzk_error_set(err, st, "%s: %s[%d][%d][%d]: %s", name, field, i, j, k,
                                          e.msg);
            }
        }
    }
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_PARSE,
                              "%s: %s is not an Fp12 [[[c,c] x 3] x 2] of decimal strings", name,
                              field);
    return CUZK_OK;
}

static cuzk_status read_ic(groth16_vk_t *vk, const cJSON *root, const char *name, cuzk_error_t *err)
{
    const cJSON *ic = cJSON_GetObjectItemCaseSensitive(root, "IC");
    const cJSON *np = cJSON_GetObjectItemCaseSensitive(root, "nPublic");
    if (!ic || !cJSON_IsArray(ic) || !ic->child)
        return cuzk_error_set(err, CUZK_ERR_PARSE, "%s: IC is missing or not a non-empty array",
                              name);
    size_t n = 0;
    for (const cJSON *c = ic->child; c; c = c->next)
        n++;
    if (!np || !cJSON_IsNumber(np))
        return cuzk_error_set(err, CUZK_ERR_PARSE, "%s: nPublic is missing or not a number", name);
    double d = np->valuedouble;
    if (!(is_safe_integer(d) && d >= 0 && d <= 4294967295.0) || (size_t)d + 1 != n)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: nPublic = %.17g but IC has %zu points",
                              name, d, n);
    vk->ic = malloc(n * sizeof *vk->ic);
    if (!vk->ic)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %zu IC points", name, n);
    vk->n_ic = n;
    size_t i = 0;
    for (const cJSON *c = ic->child; c; c = c->next, i++) {
        char field[32];
        snprintf(field, sizeof field, "IC[%zu]", i);
        cuzk_status st = read_g1(&vk->ic[i], c, name, field, err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status vk_parse_root(groth16_vk_t *vk, const cJSON *root, const char *name,
                                 cuzk_error_t *err)
{
    cuzk_status st;
#define GET(k) cJSON_GetObjectItemCaseSensitive(root, k)
    if ((st = check_tag(root, "protocol", "groth16", 1, name, err)) ||
        (st = check_tag(root, "curve", "bls12381", 1, name, err)) ||
        (st = read_g1(&vk->alpha_g1, GET("vk_alpha_1"), name, "vk_alpha_1", err)) ||
        (st = read_g2(&vk->beta_g2, GET("vk_beta_2"), name, "vk_beta_2", err)) ||
        (st = read_g2(&vk->gamma_g2, GET("vk_gamma_2"), name, "vk_gamma_2", err)) ||
        (st = read_g2(&vk->delta_g2, GET("vk_delta_2"), name, "vk_delta_2", err)) ||
        (st = read_ic(vk, root, name, err)))
        return st;
    const cJSON *ab = GET("vk_alphabeta_12");
#undef GET
    if (ab) {
        fp12_t got, want;
        if ((st = read_fp12(&got, ab, name, err)) != CUZK_OK)
            return st;
        pairing_compute(&want, &vk->alpha_g1, &vk->beta_g2);
        if (!fp12_equal(&got, &want))
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "%s: vk_alphabeta_12 is not e(vk_alpha_1, vk_beta_2)", name);
    }
    return CUZK_OK;
}

cuzk_status snarkjs_vk_parse(groth16_vk_t *out, const char *json, size_t len, const char *name,
                             cuzk_error_t *err)
{
    if (!name)
        name = "verification_key.json";
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL output", name);
    memset(out, 0, sizeof *out);
    cJSON *root;
    cuzk_status st = parse_json(&root, json, len, name, cJSON_Object, err);
    if (st != CUZK_OK)
        return st;
    groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    g1_affine_set_inf(&vk.beta_g1);
    g1_affine_set_inf(&vk.delta_g1);
    st = vk_parse_root(&vk, root, name, err);
    cJSON_Delete(root);
    if (st != CUZK_OK) {
        free(vk.ic);
        return st;
    }
    *out = vk;
    return CUZK_OK;
}

cuzk_status snarkjs_proof_read(groth16_proof_t *out, const char *path, cuzk_error_t *err)
{
    char *text;
    size_t len;
    cuzk_status st = read_text(&text, &len, path, err);
    if (st != CUZK_OK)
        return st;
    st = snarkjs_proof_parse(out, text, len, path, err);
    free(text);
    return st;
}

cuzk_status snarkjs_public_read(fr_t **out, size_t *n, const char *path, cuzk_error_t *err)
{
    char *text;
    size_t len;
    cuzk_status st = read_text(&text, &len, path, err);
    if (st != CUZK_OK)
        return st;
    st = snarkjs_public_parse(out, n, text, len, path, err);
    free(text);
    return st;
}

cuzk_status snarkjs_vk_read(groth16_vk_t *out, const char *path, cuzk_error_t *err)
{
    char *text;
    size_t len;
    cuzk_status st = read_text(&text, &len, path, err);
    if (st != CUZK_OK)
        return st;
    st = snarkjs_vk_parse(out, text, len, path, err);
    free(text);
    return st;
}

/* ---- writing ---------------------------------------------------------- */

typedef struct strbuf {
    char *p;
    size_t len, cap;
    int oom;
} strbuf_t;

static void sb_put(strbuf_t *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->cap - b->len <= n) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap - b->len <= n)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_str(strbuf_t *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

static void sb_indent(strbuf_t *b, int depth)
{
    for (int i = 0; i < depth; i++)
        sb_put(b, " ", 1);
}

/* JSON.stringify's string quoting. */
static void print_js_string(strbuf_t *b, const char *s)
{
    sb_put(b, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];
        switch (c) {
        case '"': sb_str(b, "\\\""); break;
        case '\\': sb_str(b, "\\\\"); break;
        case '\b': sb_str(b, "\\b"); break;
        case '\f': sb_str(b, "\\f"); break;
        case '\n': sb_str(b, "\\n"); break;
        case '\r': sb_str(b, "\\r"); break;
        case '\t': sb_str(b, "\\t"); break;
        default:
            if (c < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", c);
                sb_str(b, esc);
            } else {
                sb_put(b, s, 1);
            }
        }
    }
    sb_put(b, "\"", 1);
}

/* JSON.stringify(v, null, 1) for the value kinds the writers build: strings,
 * integral numbers, arrays and objects. Returns 0 for anything else. */
static int print_js(strbuf_t *b, const cJSON *v, int depth)
{
    if (cJSON_IsString(v)) {
        print_js_string(b, v->valuestring);
        return 1;
    }
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (!is_safe_integer(d))
            return 0;
        char num[32];
        snprintf(num, sizeof num, "%lld", (long long)d);
        sb_str(b, num);
        return 1;
    }
    int obj = cJSON_IsObject(v);
    if (!obj && !cJSON_IsArray(v))
        return 0;
    if (!v->child) {
        sb_str(b, obj ? "{}" : "[]");
        return 1;
    }
    sb_str(b, obj ? "{\n" : "[\n");
    for (const cJSON *c = v->child; c; c = c->next) {
        sb_indent(b, depth + 1);
        if (obj) {
            print_js_string(b, c->string);
            sb_str(b, ": ");
        }
        if (!print_js(b, c, depth + 1))
            return 0;
        sb_str(b, c->next ? ",\n" : "\n");
    }
    sb_indent(b, depth);
    sb_str(b, obj ? "}" : "]");
    return 1;
}

/* Prints root (then deletes it) into *out. A NULL root means a failed build. */
static cuzk_status finish(char **out, size_t *len, cJSON *root, int ok, const char *what,
                          cuzk_error_t *err)
{
    strbuf_t b = {0};
    if (!root || !ok) {
        cJSON_Delete(root);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory to build the JSON", what);
    }
    int printed = print_js(&b, root, 0);
    cJSON_Delete(root);
    if (b.oom || !printed || !b.p) {
        free(b.p);
        return cuzk_error_set(err, printed ? CUZK_ERR_NOMEM : CUZK_ERR_INTERNAL,
                              "%s: cannot print the JSON", what);
    }
    *out = b.p;
    if (len)
        *len = b.len;
    return CUZK_OK;
}

static cJSON *g1_json(const g1_affine_t *p)
{
    char d[3][FP_DEC_MAX];
    g1_to_dec(d, p);
    const char *s[3] = {d[0], d[1], d[2]};
    return cJSON_CreateStringArray(s, 3);
}

static cJSON *pair_json(const char *a, const char *b)
{
    const char *s[2] = {a, b};
    return cJSON_CreateStringArray(s, 2);
}

static cJSON *g2_json(const g2_affine_t *p)
{
    char d[3][2][FP_DEC_MAX];
    g2_to_dec(d, p);
    cJSON *a = cJSON_CreateArray();
    int ok = a != NULL;
    for (int i = 0; ok && i < 3; i++)
        ok = cJSON_AddItemToArray(a, pair_json(d[i][0], d[i][1]));
    if (!ok) {
        cJSON_Delete(a);
        return NULL;
    }
    return a;
}

static cJSON *fp2_json(const fp2_t *x)
{
    char a[FP_DEC_MAX], b[FP_DEC_MAX];
    fp_to_dec(a, &x->c0);
    fp_to_dec(b, &x->c1);
    return pair_json(a, b);
}

static cJSON *fp12_json(const fp12_t *x)
{
    const fp6_t *c6[2] = {&x->c0, &x->c1};
    cJSON *a = cJSON_CreateArray();
    int ok = a != NULL;
    for (int i = 0; ok && i < 2; i++) {
        cJSON *b = cJSON_CreateArray();
        ok = cJSON_AddItemToArray(a, b);
        const fp2_t *c2[3] = {&c6[i]->c0, &c6[i]->c1, &c6[i]->c2};
        for (int j = 0; ok && j < 3; j++)
            ok = cJSON_AddItemToArray(b, fp2_json(c2[j]));
    }
    if (!ok) {
        cJSON_Delete(a);
        return NULL;
    }
    return a;
}

/* cJSON_AddItemToObjectCS keeps the literal key (no copy, no failure). */
#define ADD(obj, key, item) (ok = ok && cJSON_AddItemToObjectCS(obj, key, item))

cuzk_status snarkjs_proof_format(char **out, size_t *len, const groth16_proof_t *proof,
                                 cuzk_error_t *err)
{
    if (!out || !proof)
        return cuzk_error_set(err, CUZK_ERR_ARG, "snarkjs_proof_format: NULL argument");
    *out = NULL;
    cJSON *root = cJSON_CreateObject();
    int ok = root != NULL;
    ADD(root, "pi_a", g1_json(&proof->a));
    ADD(root, "pi_b", g2_json(&proof->b));
    ADD(root, "pi_c", g1_json(&proof->c));
    ADD(root, "protocol", cJSON_CreateString("groth16"));
    ADD(root, "curve", cJSON_CreateString("bls12381"));
    return finish(out, len, root, ok, "proof.json", err);
}

cuzk_status snarkjs_public_format(char **out, size_t *len, const fr_t *values, size_t n,
                                  cuzk_error_t *err)
{
    if (!out || (!values && n))
        return cuzk_error_set(err, CUZK_ERR_ARG, "snarkjs_public_format: NULL argument");
    *out = NULL;
    cJSON *root = cJSON_CreateArray();
    int ok = root != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        char d[FR_DEC_MAX];
        fr_to_dec(d, &values[i]);
        ok = cJSON_AddItemToArray(root, cJSON_CreateString(d));
    }
    return finish(out, len, root, ok, "public.json", err);
}

cuzk_status snarkjs_vk_format(char **out, size_t *len, const groth16_vk_t *vk, cuzk_error_t *err)
{
    if (!out || !vk || (!vk->ic && vk->n_ic) || vk->n_ic < 1 || vk->n_ic - 1 > 4294967295.0)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "snarkjs_vk_format: NULL argument or no IC points");
    *out = NULL;
    fp12_t ab;
    pairing_compute(&ab, &vk->alpha_g1, &vk->beta_g2);
    cJSON *root = cJSON_CreateObject();
    int ok = root != NULL;
    ADD(root, "protocol", cJSON_CreateString("groth16"));
    ADD(root, "curve", cJSON_CreateString("bls12381"));
    ADD(root, "nPublic", cJSON_CreateNumber((double)(vk->n_ic - 1)));
    ADD(root, "vk_alpha_1", g1_json(&vk->alpha_g1));
    ADD(root, "vk_beta_2", g2_json(&vk->beta_g2));
    ADD(root, "vk_gamma_2", g2_json(&vk->gamma_g2));
    ADD(root, "vk_delta_2", g2_json(&vk->delta_g2));
    ADD(root, "vk_alphabeta_12", fp12_json(&ab));
    cJSON *ic = cJSON_CreateArray();
    ADD(root, "IC", ic);
    for (size_t i = 0; ok && i < vk->n_ic; i++)
        ok = cJSON_AddItemToArray(ic, g1_json(&vk->ic[i]));
    return finish(out, len, root, ok, "verification_key.json", err);
}

#undef ADD

static cuzk_status write_text(const char *path, char *text, size_t len, cuzk_status st,
                              cuzk_error_t *err)
{
    if (st != CUZK_OK)
        return st;
    if (!path) {
        free(text);
        return cuzk_error_set(err, CUZK_ERR_ARG, "NULL path");
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(text);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    }
    size_t put = fwrite(text, 1, len, f);
    free(text);
    int bad = put != len || ferror(f);
    if (fclose(f) != 0 || bad)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: write failed", path);
    return CUZK_OK;
}

cuzk_status snarkjs_proof_write(const char *path, const groth16_proof_t *proof, cuzk_error_t *err)
{
    char *text = NULL;
    size_t len = 0;
    cuzk_status st = snarkjs_proof_format(&text, &len, proof, err);
    return write_text(path, text, len, st, err);
}

cuzk_status snarkjs_public_write(const char *path, const fr_t *values, size_t n, cuzk_error_t *err)
{
    char *text = NULL;
    size_t len = 0;
    cuzk_status st = snarkjs_public_format(&text, &len, values, n, err);
    return write_text(path, text, len, st, err);
}

cuzk_status snarkjs_vk_write(const char *path, const groth16_vk_t *vk, cuzk_error_t *err)
{
    char *text = NULL;
    size_t len = 0;
    cuzk_status st = snarkjs_vk_format(&text, &len, vk, err);
    return write_text(path, text, len, st, err);
}
