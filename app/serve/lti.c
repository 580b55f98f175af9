/* lti: warpscope serve as an LTI 1.3 Advantage tool (lti.h).
 *
 * The JOSE work is cjose's (Debian's libcjose, on OpenSSL): a JWK imported from the platform's
 * keyset as it comes, a compact JWS parsed and its RS256 signature verified, and the tool's own
 * JWTs signed. libjwt 1.10 (Debian 12's) takes a key only as PEM and knows no JWK, so a keyset
 * would be turned into PEM here by hand; cjose takes the JWKS's keys whole. The claims are read
 * with cJSON; HTTP to the platform (its keyset, its token endpoint, AGS) is libcurl's.
 *
 * What a launch must pass, in order: the state cookie given at /lti/login; the id_token's header
 * (RS256, a kid); its signature against the platform's key of that kid (the keyset fetched and
 * kept an hour, bounded in size and time; a kid not in it fetches it once more); iss, aud, azp,
 * exp, iat, the LTI version, the deployment id; then its nonce, spent in the class record (so
 * that servers sharing one record agree). The role is read from the verified roles claim only. */
#define _GNU_SOURCE
#include "app/serve/lti.h"

#include <cjose/cjose.h>
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/learn/exercise.h"
#include "app/learn/lesson.h"

/* The limits, each with why. */
enum {
    LTI_CONFIG_MAX = 64 << 10,  /* bytes of the registration file */
    LTI_FETCH_MAX = 256 << 10,  /* bytes of an answer from the platform (a keyset of a few keys is ~2 kB) */
    LTI_FETCH_S = 10,           /* seconds an exchange with the platform may take */
    LTI_JWKS_KEEP_S = 3600,     /* the platform's keyset is kept an hour */
    LTI_JWKS_AGAIN_MS = 1000,   /* an unknown kid fetches the keyset again, at most once a second */
    LTI_SKEW_S = 60,            /* clocks of the platform and the tool may differ this much */
    LTI_IAT_OLDEST_S = 3600,    /* an id_token issued longer ago is refused, whatever its exp */
    LTI_NONCE_MS = 600 * 1000,  /* from /lti/login to the launch: ten minutes */
    LTI_TICKET_MS = 1800 * 1000, /* a Deep Linking choice: half an hour */
    LTI_DEPLOYMENTS = 32,
    LTI_SCORE_TRIES = 16,       /* a score the platform refuses this often (about a day, doubling) is dropped */
    LTI_SCORE_WAIT_MAX_S = 3600,
};

static const char CLAIM[] = "https://purl.imsglobal.org/spec/lti/claim/";
static const char AGS_CLAIM[] = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint";
static const char DL_CLAIM[] = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings";
static const char AGS_SCORE[] = "https://purl.imsglobal.org/spec/lti-ags/scope/score";

/* The roles that make a launch the teacher's (LIS v2 vocabulary, as LTI 1.3 requires them: full URIs). */
static const char *const teacher_roles[] = {
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator",
    "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator",
    "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator",
};

/* The tables of the tool, beside the record's (record.h). */
static const char *const lti_schema[] = {
    "CREATE TABLE IF NOT EXISTS lti_nonces (nonce TEXT PRIMARY KEY, state TEXT NOT NULL, expires_ms BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS lti_users (class BIGINT NOT NULL, iss TEXT NOT NULL, sub TEXT NOT NULL, name TEXT NOT NULL,"
    " PRIMARY KEY (class, iss, sub))",
    "CREATE TABLE IF NOT EXISTS lti_links (class BIGINT NOT NULL, student TEXT NOT NULL, exercise TEXT NOT NULL, sub TEXT NOT NULL,"
    " lineitem TEXT NOT NULL, PRIMARY KEY (class, student, exercise))",
    "CREATE TABLE IF NOT EXISTS lti_scores (class BIGINT NOT NULL, student TEXT NOT NULL, exercise TEXT NOT NULL, met INTEGER NOT NULL,"
    " goals INTEGER NOT NULL, at_ms BIGINT NOT NULL, due_ms BIGINT NOT NULL, tries INTEGER NOT NULL, PRIMARY KEY (class, student, exercise))",
    "CREATE TABLE IF NOT EXISTS lti_tickets (ticket TEXT PRIMARY KEY, return_url TEXT NOT NULL, data TEXT, deployment TEXT NOT NULL,"
    " expires_ms BIGINT NOT NULL)",
};

struct lti {
    char tool_url[512], issuer[512], client_id[256], auth_url[1024], keyset_url[1024], token_url[1024];
    char deployments[LTI_DEPLOYMENTS][256];
    size_t ndeploy;
    cjose_jwk_t *key; /* the tool's own, private */
    char kid[80];
    char *jwks;       /* the tool's keyset (public) */
    char where[700];
    serve_ctx *s;
    /* the platform's keyset */
    pthread_mutex_t mu;
    char *platform_jwks;
    int64_t fetched_ms;
    /* the scores' worker */
    pthread_t worker;
    pthread_mutex_t wmu;
    pthread_cond_t wcv;
    int stop, started, kicked;
    char access[4096];
    int64_t access_until_ms;
};

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void num_text(char *buf, size_t len, int64_t v) { snprintf(buf, len, "%" PRId64, v); }

/* ---- the class record: one statement, its first row's columns copied ---- */

typedef struct row_copy {
    char *col[8];
    int rows, ncol;
} row_copy;

static int take_row(void *ud, int ncol, const char *const *col)
{
    row_copy *c = ud;
    if (c->rows++) return 0;
    c->ncol = ncol < 8 ? ncol : 8;
    for (int i = 0; i < c->ncol; i++) c->col[i] = col[i] ? strdup(col[i]) : NULL;
    return 0;
}

static void row_free(row_copy *c)
{
    for (int i = 0; i < 8; i++) free(c->col[i]);
    memset(c, 0, sizeof *c);
}

static int sql(serve_ctx *s, const char *q, int n, const char *const *p, row_copy *out, char *err, size_t errlen)
{
    return s->rec->ops->sql(s->rec, q, n, p, out ? take_row : NULL, out, err, errlen);
}

/* ---- text ---- */

/* text for HTML (an element's text or an attribute's value) */
static char *html(const char *in)
{
    size_t n = 0;
    for (const char *c = in; *c; c++) n += strchr("<>&\"'", *c) ? 6 : 1;
    char *out = malloc(n + 1), *o = out;
    if (!out) return NULL;
    for (const char *c = in; *c; c++) {
        const char *e = *c == '<' ? "&lt;" : *c == '>' ? "&gt;" : *c == '&' ? "&amp;" : *c == '"' ? "&quot;" : *c == '\'' ? "&#39;" : NULL;
        if (e) o = stpcpy(o, e);
        else *o++ = *c;
    }
    *o = 0;
    return out;
}

/* a value for a URL's query or a form body */
static char *url_escape(const char *in)
{
    char *e = curl_easy_escape(NULL, in, 0);
    char *out = e ? strdup(e) : NULL;
    curl_free(e);
    return out;
}

/* The idx-th value of name in a form body (application/x-www-form-urlencoded), decoded; NULL when absent. */
static char *form_value(const char *body, const char *name, int idx)
{
    size_t nl = strlen(name);
    for (const char *p = body; p && *p;) {
        size_t len = strcspn(p, "&");
        const char *eq = memchr(p, '=', len);
        if (eq && (size_t)(eq - p) == nl && memcmp(p, name, nl) == 0 && idx-- == 0) {
            size_t vl = len - nl - 1;
            char *raw = strndup(eq + 1, vl);
            if (!raw) return NULL;
            for (char *c = raw; *c; c++)
                if (*c == '+') *c = ' ';
            int outlen = 0;
            char *d = curl_easy_unescape(NULL, raw, 0, &outlen);
            free(raw);
            char *out = d && (size_t)outlen == strlen(d) ? strdup(d) : NULL; /* a NUL inside a value: refused */
            curl_free(d);
            return out;
        }
        p += len + (p[len] == '&');
    }
    return NULL;
}

/* a field of a request: the form body's, else the address's query */
static char *field(const serve_request *q, const char *name)
{
    char *v = q->len ? form_value(q->body, name, 0) : NULL;
    if (!v && q->arg) {
        const char *a = q->arg(q->conn, name);
        if (a) v = strdup(a);
    }
    return v;
}

/* ---- answers ---- */

/* A page of the tool's: a title and a paragraph (already HTML), and a script when given. */
static void page(serve_reply *r, unsigned status, const char *title, const char *body_html, const char *attrs, const char *script)
{
    char *t = html(title);
    char *text = NULL;
    if (asprintf(&text,
                 "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">"
                 "<title>warpscope: %s</title><style>body{font:18px/1.5 system-ui,sans-serif;max-width:44em;margin:2em auto;padding:0 1em}"
                 "h1::first-letter,#why::first-letter{text-transform:uppercase}label{display:block;margin:.3em 0}button{font:inherit;padding:.4em 1.2em}</style></head>\n<body%s>\n<h1>%s</h1>\n%s\n%s%s%s</body></html>\n",
                 t ? t : "", attrs ? attrs : "", t ? t : "", body_html, script ? "<script>" : "", script ? script : "", script ? "</script>\n" : "") < 0)
        text = NULL;
    free(t);
    r->status = text ? status : 500;
    r->type = "text/html; charset=utf-8";
    r->body = text;
    r->len = text ? strlen(text) : 0;
}

/* A launch refused: one line saying why, and nothing made. */
static void refuse(serve_reply *r, unsigned status, const char *why)
{
    char *w = html(why), *b = NULL;
    if (asprintf(&b, "<p id=\"why\">%s.</p>\n<p>Nothing was signed in. Open the activity again from your course; if this stays, tell your teacher what it says.</p>",
                 w ? w : "") < 0)
        b = NULL;
    page(r, status, "this launch was refused", b ? b : "", NULL, NULL);
    free(w);
    free(b);
}

/* a cookie of the tool: Secure where the tool is reached by https (or behind a proxy that says so) */
static void cookie(lti *t, const serve_request *q, serve_reply *r, const char *name, const char *value, const char *attrs)
{
    const char *proto = q->header ? q->header(q->conn, "X-Forwarded-Proto") : NULL;
    int secure = strncmp(t->tool_url, "https://", 8) == 0 || (proto && strcmp(proto, "https") == 0);
    snprintf(r->cookie, sizeof r->cookie, "%s=%s; %s%s", name, value, attrs, secure && !strstr(attrs, "Secure") ? "; Secure" : "");
}

/* ---- HTTP to the platform (libcurl) ---- */

typedef struct grown {
    char *p;
    size_t n;
} grown;

static size_t on_data(char *d, size_t size, size_t nmemb, void *ud)
{
    grown *g = ud;
    size_t k = size * nmemb;
    if (g->n + k > LTI_FETCH_MAX) return 0; /* past the bound: the transfer fails */
    char *p = realloc(g->p, g->n + k + 1);
    if (!p) return 0;
    memcpy(p + g->n, d, k);
    g->p = p;
    g->n += k;
    p[g->n] = 0;
    return k;
}

static int on_progress(void *ud, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
    (void)a, (void)b, (void)c, (void)d;
    lti *t = ud;
    return t->stop || *t->s->stop; /* the server stopping ends the exchange */
}

/* One exchange: GET (body NULL) or POST. 0 with the status and the answer (malloc'd), or -1 with err. */
static int http(lti *t, const char *url, const char *type, const char *body, const char *bearer, long *status, char **out, char *err,
                size_t errlen)
{
    CURL *c = curl_easy_init();
    if (!c) { snprintf(err, errlen, "libcurl could not start"); return -1; }
    grown g = {0};
    struct curl_slist *h = NULL;
    char line[4200];
    if (type) { snprintf(line, sizeof line, "Content-Type: %s", type); h = curl_slist_append(h, line); }
    if (bearer) { snprintf(line, sizeof line, "Authorization: Bearer %s", bearer); h = curl_slist_append(h, line); }
    h = curl_slist_append(h, "Accept: application/json");
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)LTI_FETCH_S);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 5L);
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE, (long)LTI_FETCH_MAX);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &g);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, t);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "warpscope-lti");
    if (body) curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    CURLcode rc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    if (rc != CURLE_OK) {
        snprintf(err, errlen, "%s: %s", url, rc == CURLE_WRITE_ERROR ? "the answer is over its bound (256 kB)" : curl_easy_strerror(rc));
        free(g.p);
        return -1;
    }
    *out = g.p ? g.p : strdup("");
    return 0;
}

/* ---- keys ---- */

/* The platform's key of this kid, from its keyset (kept LTI_JWKS_KEEP_S; fetched again once for a
 * kid it lacks). NULL with why. */
static cjose_jwk_t *key_in(const char *jwks, const char *kid)
{
    cJSON *o = cJSON_Parse(jwks);
    cJSON *keys = cJSON_GetObjectItemCaseSensitive(o, "keys"), *k;
    cjose_jwk_t *found = NULL;
    cJSON_ArrayForEach(k, keys)
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(k, "kid"), *kty = cJSON_GetObjectItemCaseSensitive(k, "kty"),
                    *use = cJSON_GetObjectItemCaseSensitive(k, "use");
        if (!cJSON_IsString(id) || strcmp(id->valuestring, kid) || !cJSON_IsString(kty) || strcmp(kty->valuestring, "RSA")) continue;
        if (use && (!cJSON_IsString(use) || strcmp(use->valuestring, "sig"))) continue;
        char *one = cJSON_PrintUnformatted(k);
        cjose_err e;
        if (one) found = cjose_jwk_import(one, strlen(one), &e);
        free(one);
        break;
    }
    cJSON_Delete(o);
    return found;
}

static int jwks_fetch(lti *t, char *why, size_t whylen)
{
    long status = 0;
    char *text = NULL, err[600];
    t->fetched_ms = wall_ms();
    if (http(t, t->keyset_url, NULL, NULL, NULL, &status, &text, err, sizeof err)) {
        snprintf(why, whylen, "the platform's keyset could not be fetched (%s)", err);
        return -1;
    }
    cJSON *o = cJSON_Parse(text);
    int ok = status == 200 && cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(o, "keys"));
    cJSON_Delete(o);
    if (!ok) {
        snprintf(why, whylen, "the platform's keyset (%.300s) answered %ld without a JSON {\"keys\": [...]}", t->keyset_url, status);
        free(text);
        return -1;
    }
    free(t->platform_jwks);
    t->platform_jwks = text;
    return 0;
}

static cjose_jwk_t *platform_key(lti *t, const char *kid, char *why, size_t whylen)
{
    pthread_mutex_lock(&t->mu);
    cjose_jwk_t *k = NULL;
    int64_t now = wall_ms();
    int fresh = 0;
    if (!t->platform_jwks || now - t->fetched_ms > (int64_t)LTI_JWKS_KEEP_S * 1000) {
        if (jwks_fetch(t, why, whylen)) goto done;
        fresh = 1;
    }
    k = key_in(t->platform_jwks, kid);
    if (!k && !fresh && now - t->fetched_ms >= LTI_JWKS_AGAIN_MS) { /* the platform may have turned its key: asked once more */
        if (jwks_fetch(t, why, whylen)) goto done;
        k = key_in(t->platform_jwks, kid);
    }
    if (!k) snprintf(why, whylen, "the id_token is signed with a key the platform's keyset does not hold (kid \"%.80s\")", kid);
done:
    pthread_mutex_unlock(&t->mu);
    return k;
}

/* A JWT signed by the tool's key (RS256), in compact form (malloc'd), or NULL. */
static char *sign(lti *t, cJSON *claims)
{
    char *text = cJSON_PrintUnformatted(claims);
    cjose_err e;
    cjose_header_t *h = cjose_header_new(&e);
    char *out = NULL;
    if (text && h && cjose_header_set(h, CJOSE_HDR_ALG, CJOSE_HDR_ALG_RS256, &e) && cjose_header_set(h, CJOSE_HDR_KID, t->kid, &e) &&
        cjose_header_set(h, "typ", "JWT", &e)) {
        cjose_jws_t *jws = cjose_jws_sign(t->key, h, (const uint8_t *)text, strlen(text), &e);
        const char *compact = NULL;
        if (jws && cjose_jws_export(jws, &compact, &e)) out = strdup(compact);
        cjose_jws_release(jws);
    }
    cjose_header_release(h);
    free(text);
    return out;
}

/* an RSA private key in PEM (openssl genpkey) as a JWK, through OpenSSL's own reading */
static cjose_jwk_t *pem_key(const char *text, char *err, size_t errlen)
{
    BIO *b = BIO_new_mem_buf(text, -1);
    EVP_PKEY *pk = b ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) : NULL;
    BIO_free(b);
    if (!pk || !EVP_PKEY_is_a(pk, "RSA")) {
        snprintf(err, errlen, "not an RSA private key in PEM");
        EVP_PKEY_free(pk);
        return NULL;
    }
    static const char *const names[8] = {OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_D, OSSL_PKEY_PARAM_RSA_FACTOR1,
                                         OSSL_PKEY_PARAM_RSA_FACTOR2, OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
                                         OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
    uint8_t *bytes[8] = {0};
    size_t lens[8] = {0};
    int ok = 1;
    for (int i = 0; i < 8 && ok; i++) {
        BIGNUM *bn = NULL;
        ok = EVP_PKEY_get_bn_param(pk, names[i], &bn) == 1 && (bytes[i] = malloc((size_t)BN_num_bytes(bn) + 1)) != NULL;
        if (ok) lens[i] = (size_t)BN_bn2bin(bn, bytes[i]);
        BN_clear_free(bn);
    }
    EVP_PKEY_free(pk);
    cjose_jwk_t *k = NULL;
    if (ok) {
        cjose_jwk_rsa_keyspec spec = {bytes[0], lens[0], bytes[1], lens[1], bytes[2], lens[2], bytes[3], lens[3],
                                      bytes[4], lens[4], bytes[5], lens[5], bytes[6], lens[6], bytes[7], lens[7]};
        cjose_err e;
        if (!(k = cjose_jwk_create_RSA_spec(&spec, &e))) snprintf(err, errlen, "the key: %s", e.message);
    } else snprintf(err, errlen, "the RSA key lacks its private parts");
    for (int i = 0; i < 8; i++) {
        if (bytes[i]) OPENSSL_cleanse(bytes[i], lens[i]);
        free(bytes[i]);
    }
    return k;
}

static char *read_small(const char *path, size_t max, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
        snprintf(err, errlen, "%s: %s", path, fd < 0 ? strerror(errno) : "not a plain file of at most 64 kB");
        if (fd >= 0) close(fd);
        return NULL;
    }
    char *text = calloc(1, (size_t)st.st_size + 1);
    ssize_t got = text ? read(fd, text, (size_t)st.st_size) : -1;
    close(fd);
    if (got != st.st_size) {
        snprintf(err, errlen, "%s: cannot read it", path);
        free(text);
        return NULL;
    }
    return text;
}

/* The tool's key: the file given (a JWK with its private parts, or PEM), else STATE/lti-key.json,
 * made once (2048-bit RSA, 0600, ours, no link). */
static int tool_key(lti *t, const char *key_path, const char *state_dir, char *err, size_t errlen)
{
    char path[4200], e2[600];
    cjose_err e;
    if (key_path) snprintf(path, sizeof path, "%s", key_path);
    else if (state_dir) snprintf(path, sizeof path, "%s/lti-key.json", state_dir);
    else {
        snprintf(err, errlen, "--lti with --db needs --lti-key FILE: the tool's key, the same for every server of the class");
        return -1;
    }
    struct stat st;
    if (!key_path && lstat(path, &st) && errno == ENOENT) { /* made once: written whole, then linked in place (a second server's stays) */
        cjose_jwk_t *k = cjose_jwk_create_RSA_random(2048, NULL, 0, &e);
        char *json = k ? cjose_jwk_to_json(k, true, &e) : NULL;
        cjose_jwk_release(k);
        char tmp[4300];
        snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
        int fd = json ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
        int ok = fd >= 0 && write(fd, json, strlen(json)) == (ssize_t)strlen(json) && fsync(fd) == 0;
        if (fd >= 0) close(fd);
        if (json) OPENSSL_cleanse(json, strlen(json));
        free(json);
        if (!ok || (link(tmp, path) && errno != EEXIST)) {
            snprintf(err, errlen, "%s: cannot write the tool's key: %s", path, strerror(errno));
            unlink(tmp);
            return -1;
        }
        unlink(tmp);
    }
    if (lstat(path, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
        snprintf(err, errlen, "%s: the tool's private key must be a plain file of this user's, 0600 (chmod 600 %s)", path, path);
        return -1;
    }
    char *text = read_small(path, LTI_CONFIG_MAX, e2, sizeof e2);
    if (!text) { snprintf(err, errlen, "%s", e2); return -1; }
    if (text[strspn(text, " \t\r\n")] == '{') {
        t->key = cjose_jwk_import(text, strlen(text), &e);
        if (!t->key) snprintf(e2, sizeof e2, "not a JWK: %s", e.message);
    } else t->key = pem_key(text, e2, sizeof e2);
    OPENSSL_cleanse(text, strlen(text));
    free(text);
    if (!t->key || cjose_jwk_get_kty(t->key, &e) != CJOSE_JWK_KTY_RSA) {
        snprintf(err, errlen, "%s: the tool's key: %s", path, t->key ? "not an RSA key" : e2);
        return -1;
    }
    /* its kid: kept when it has one, else named by its public part */
    const char *kid = cjose_jwk_get_kid(t->key, &e);
    char *pub = cjose_jwk_to_json(t->key, false, &e);
    if (!pub) { snprintf(err, errlen, "%s: the tool's key cannot be written as a JWK", path); return -1; }
    if (kid && *kid && strlen(kid) < sizeof t->kid) snprintf(t->kid, sizeof t->kid, "%s", kid);
    else {
        snprintf(t->kid, sizeof t->kid, "ws-%016llx", (unsigned long long)serve_fnv1a(SERVE_FNV_BASIS, pub, strlen(pub)));
        cjose_jwk_set_kid(t->key, t->kid, strlen(t->kid), &e);
        free(pub);
        pub = cjose_jwk_to_json(t->key, false, &e);
    }
    cJSON *one = cJSON_Parse(pub), *set = cJSON_CreateObject(), *keys = cJSON_AddArrayToObject(set, "keys");
    free(pub);
    cJSON_AddStringToObject(one, "alg", "RS256");
    cJSON_AddStringToObject(one, "use", "sig");
    cJSON_AddItemToArray(keys, one);
    t->jwks = cJSON_PrintUnformatted(set);
    cJSON_Delete(set);
    return t->jwks ? 0 : -1;
}

/* ---- the registration ---- */

static int config_text(const cJSON *o, const char *name, char *out, size_t len, int url, const char *file, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsString(v) || !*v->valuestring || strlen(v->valuestring) >= len) {
        snprintf(err, errlen, "%s: \"%s\" must be a text of 1 to %zu characters", file, name, len - 1);
        return -1;
    }
    if (url && strncmp(v->valuestring, "https://", 8) && strncmp(v->valuestring, "http://", 7)) {
        snprintf(err, errlen, "%s: \"%s\" must be an http:// or https:// address, got \"%.200s\"", file, name, v->valuestring);
        return -1;
    }
    snprintf(out, len, "%s", v->valuestring);
    return 0;
}

static void *scores_worker(void *ud);

lti *lti_open(const char *config_path, const char *key_path, const char *state_dir, serve_ctx *s, char *err, size_t errlen)
{
    char e2[600];
    char *text = read_small(config_path, LTI_CONFIG_MAX, e2, sizeof e2);
    if (!text) { snprintf(err, errlen, "--lti %s", e2); return NULL; }
    const char *end = NULL;
    cJSON *o = cJSON_ParseWithOpts(text, &end, 1);
    if (!cJSON_IsObject(o)) {
        long line = 1;
        for (const char *c = text; end && c < end; c++) line += *c == '\n';
        snprintf(err, errlen, "--lti %s:%ld: not a JSON object (docs/lti.md shows one)", config_path, line);
        cJSON_Delete(o);
        free(text);
        return NULL;
    }
    free(text);
    static const char *const fields[] = {"tool_url", "issuer", "client_id", "auth_login_url", "keyset_url", "token_url", "deployment_ids"};
    const cJSON *f;
    cJSON_ArrayForEach(f, o)
    {
        size_t i = 0;
        while (i < sizeof fields / sizeof fields[0] && strcmp(fields[i], f->string)) i++;
        if (i == sizeof fields / sizeof fields[0]) {
            snprintf(err, errlen, "--lti %s: \"%.80s\" is no field of a registration (tool_url, issuer, client_id, auth_login_url, keyset_url, token_url, deployment_ids)",
                     config_path, f->string);
            cJSON_Delete(o);
            return NULL;
        }
    }
    lti *t = calloc(1, sizeof *t);
    if (!t) { cJSON_Delete(o); snprintf(err, errlen, "out of memory"); return NULL; }
    t->s = s;
    const cJSON *deps = cJSON_GetObjectItemCaseSensitive(o, "deployment_ids"), *d;
    int bad = config_text(o, "tool_url", t->tool_url, sizeof t->tool_url, 1, config_path, err, errlen) ||
              config_text(o, "issuer", t->issuer, sizeof t->issuer, 0, config_path, err, errlen) ||
              config_text(o, "client_id", t->client_id, sizeof t->client_id, 0, config_path, err, errlen) ||
              config_text(o, "auth_login_url", t->auth_url, sizeof t->auth_url, 1, config_path, err, errlen) ||
              config_text(o, "keyset_url", t->keyset_url, sizeof t->keyset_url, 1, config_path, err, errlen) ||
              config_text(o, "token_url", t->token_url, sizeof t->token_url, 1, config_path, err, errlen);
    if (!bad && (!cJSON_IsArray(deps) || !cJSON_GetArraySize(deps) || cJSON_GetArraySize(deps) > LTI_DEPLOYMENTS)) {
        snprintf(err, errlen, "--lti %s: \"deployment_ids\" must be a list of 1 to %d texts (the platform shows each)", config_path, LTI_DEPLOYMENTS);
        bad = 1;
    }
    if (!bad) cJSON_ArrayForEach(d, deps)
        {
            if (!cJSON_IsString(d) || !*d->valuestring || strlen(d->valuestring) >= sizeof t->deployments[0]) {
                snprintf(err, errlen, "--lti %s: \"deployment_ids\": each is a text of 1 to 255 characters", config_path);
                bad = 1;
                break;
            }
            snprintf(t->deployments[t->ndeploy++], sizeof t->deployments[0], "%s", d->valuestring);
        }
    cJSON_Delete(o);
    size_t n = strlen(t->tool_url);
    while (n && t->tool_url[n - 1] == '/') t->tool_url[--n] = 0; /* the launch is TOOL_URL/lti/launch */
    if (bad || tool_key(t, key_path, state_dir, err, errlen)) {
        if (t->key) cjose_jwk_release(t->key);
        free(t->jwks);
        free(t);
        return NULL;
    }
    for (size_t i = 0; i < sizeof lti_schema / sizeof lti_schema[0]; i++)
        if (sql(s, lti_schema[i], 0, NULL, NULL, e2, sizeof e2)) {
            snprintf(err, errlen, "the class record: %s", e2);
            cjose_jwk_release(t->key);
            free(t->jwks);
            free(t);
            return NULL;
        }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    pthread_mutex_init(&t->mu, NULL);
    pthread_mutex_init(&t->wmu, NULL);
    pthread_cond_init(&t->wcv, NULL);
    t->started = pthread_create(&t->worker, NULL, scores_worker, t) == 0;
    snprintf(t->where, sizeof t->where, "LTI 1.3 tool of %.200s (client %.100s): %.200s/lti/login, key %.60s", t->issuer, t->client_id, t->tool_url, t->kid);
    return t;
}

const char *lti_describe(const lti *t) { return t->where; }

void lti_close(lti *t)
{
    if (!t) return;
    pthread_mutex_lock(&t->wmu);
    t->stop = 1;
    pthread_cond_broadcast(&t->wcv);
    pthread_mutex_unlock(&t->wmu);
    if (t->started) pthread_join(t->worker, NULL);
    cjose_jwk_release(t->key);
    free(t->jwks);
    free(t->platform_jwks);
    pthread_mutex_destroy(&t->mu);
    pthread_mutex_destroy(&t->wmu);
    pthread_cond_destroy(&t->wcv);
    free(t);
    curl_global_cleanup();
}

/* ---- login initiation ---- */

void lti_login(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    lti *t = s->lti;
    if (!t) { reply_error(r, 404, "this server is no LTI tool (warpscope serve --lti FILE)"); return; }
    char *iss = field(q, "iss"), *hint = field(q, "login_hint"), *target = field(q, "target_link_uri"), *msg = field(q, "lti_message_hint"),
         *client = field(q, "client_id");
    char why[600] = "";
    if (!iss || strcmp(iss, t->issuer)) snprintf(why, sizeof why, "the login names the issuer \"%.200s\", and this tool is registered with %.200s", iss ? iss : "", t->issuer);
    else if (client && strcmp(client, t->client_id)) snprintf(why, sizeof why, "the login names the client id \"%.100s\", and this tool's is %.100s", client, t->client_id);
    else if (!hint || !*hint) snprintf(why, sizeof why, "the login has no login_hint");
    char state[SERVE_SESSION_HEX + 1], nonce[SERVE_SESSION_HEX + 1], expires[24], now[24], err[600];
    serve_secret(state);
    serve_secret(nonce);
    num_text(now, sizeof now, wall_ms());
    num_text(expires, sizeof expires, wall_ms() + LTI_NONCE_MS);
    const char *p[3] = {nonce, state, expires};
    const char *pn[1] = {now};
    if (!why[0] && (sql(s, "DELETE FROM lti_nonces WHERE expires_ms < ?1", 1, pn, NULL, err, sizeof err) ||
                    sql(s, "INSERT INTO lti_nonces (nonce, state, expires_ms) VALUES (?1, ?2, ?3)", 3, p, NULL, err, sizeof err)))
        snprintf(why, sizeof why, "the class record could not be written (%.400s)", err);
    char *location = NULL;
    if (!why[0]) {
        char launch[600];
        snprintf(launch, sizeof launch, "%s/lti/launch", t->tool_url);
        char *e_client = url_escape(t->client_id), *e_launch = url_escape(launch), *e_hint = url_escape(hint), *e_msg = msg ? url_escape(msg) : NULL;
        if (asprintf(&location, "%s%sscope=openid&response_type=id_token&response_mode=form_post&prompt=none&client_id=%s&redirect_uri=%s"
                                "&login_hint=%s&state=%s&nonce=%s%s%s",
                     t->auth_url, strchr(t->auth_url, '?') ? "&" : "?", e_client ? e_client : "", e_launch ? e_launch : "", e_hint ? e_hint : "", state,
                     nonce, e_msg ? "&lti_message_hint=" : "", e_msg ? e_msg : "") < 0)
            location = NULL;
        free(e_client), free(e_launch), free(e_hint), free(e_msg);
    }
    free(iss), free(hint), free(target), free(msg), free(client);
    if (why[0] || !location) { refuse(r, why[0] ? 400 : 500, why[0] ? why : "out of memory"); free(location); return; }
    /* to the platform's authorization, with the state in a cookie the launch (a POST from the platform's site) brings back */
    r->status = 302;
    r->type = "text/plain; charset=utf-8";
    r->body = location;
    r->len = strlen(location);
    r->header = "Location";
    r->value = location; /* the header is copied when the answer is made; the body is freed after */
    cookie(t, q, r, "ws_lti_state", state, "Path=/lti/; HttpOnly; Secure; SameSite=None; Max-Age=600");
}

/* ---- the launch ---- */

static const cJSON *claim(const cJSON *c, const char *name)
{
    char full[200];
    snprintf(full, sizeof full, "%s%s", CLAIM, name);
    return cJSON_GetObjectItemCaseSensitive(c, full);
}

static const char *claim_text(const cJSON *c, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The id_token's claims when its signature and claims hold (the nonce apart), else NULL with why. */
static cJSON *verified(lti *t, const char *id_token, char *why, size_t whylen)
{
    cjose_err e;
    cjose_jws_t *jws = id_token ? cjose_jws_import(id_token, strlen(id_token), &e) : NULL;
    if (!jws) { snprintf(why, whylen, "the launch carries no id_token that reads as a compact JWS (three base64url parts)"); return NULL; }
    cjose_header_t *h = cjose_jws_get_protected(jws);
    const char *alg = h ? cjose_header_get(h, CJOSE_HDR_ALG, &e) : NULL, *kid = h ? cjose_header_get(h, CJOSE_HDR_KID, &e) : NULL;
    cJSON *c = NULL;
    cjose_jwk_t *k = NULL;
    if (!alg || strcmp(alg, CJOSE_HDR_ALG_RS256)) snprintf(why, whylen, "the id_token is signed with \"%.40s\", and LTI 1.3 takes RS256 only", alg ? alg : "nothing");
    else if (!kid || !*kid) snprintf(why, whylen, "the id_token's header names no key (kid)");
    else if (!(k = platform_key(t, kid, why, whylen))) {
    } else if (!cjose_jws_verify(jws, k, &e)) snprintf(why, whylen, "the id_token's signature does not verify against the platform's key \"%.80s\"", kid);
    else {
        uint8_t *plain = NULL;
        size_t plen = 0;
        if (!cjose_jws_get_plaintext(jws, &plain, &plen, &e) || !(c = cJSON_ParseWithLength((const char *)plain, plen)) || !cJSON_IsObject(c)) {
            snprintf(why, whylen, "the id_token's claims are not a JSON object");
            cJSON_Delete(c);
            c = NULL;
        }
    }
    if (k) cjose_jwk_release(k);
    cjose_jws_release(jws);
    if (!c) return NULL;
    /* the claims, as the LTI 1.3 core specification's launch validation lists them */
    const cJSON *aud = cJSON_GetObjectItemCaseSensitive(c, "aud"), *a, *exp = cJSON_GetObjectItemCaseSensitive(c, "exp"),
                *iat = cJSON_GetObjectItemCaseSensitive(c, "iat");
    const char *iss = claim_text(c, "iss"), *azp = claim_text(c, "azp"), *sub = claim_text(c, "sub");
    const cJSON *dep = claim(c, "deployment_id"), *ver = claim(c, "version");
    int audn = 0, ours = 0;
    if (cJSON_IsString(aud)) audn = 1, ours = strcmp(aud->valuestring, t->client_id) == 0;
    else if (cJSON_IsArray(aud)) cJSON_ArrayForEach(a, aud) audn++, ours |= cJSON_IsString(a) && strcmp(a->valuestring, t->client_id) == 0;
    double now = (double)wall_ms() / 1000;
    int known = 0;
    for (size_t i = 0; cJSON_IsString(dep) && i < t->ndeploy; i++) known |= strcmp(dep->valuestring, t->deployments[i]) == 0;
    if (!iss || strcmp(iss, t->issuer)) snprintf(why, whylen, "the id_token's issuer \"%.200s\" is not this tool's platform (%.200s)", iss ? iss : "", t->issuer);
    else if (!ours) snprintf(why, whylen, "the id_token's audience is not this tool (client id %.100s)", t->client_id);
    else if ((audn > 1 || azp) && (!azp || strcmp(azp, t->client_id))) snprintf(why, whylen, "the id_token's authorized party (azp) is not this tool");
    else if (!cJSON_IsNumber(exp) || exp->valuedouble + LTI_SKEW_S < now) snprintf(why, whylen, "the id_token has expired");
    else if (!cJSON_IsNumber(iat) || iat->valuedouble > now + LTI_SKEW_S || iat->valuedouble < now - LTI_IAT_OLDEST_S)
        snprintf(why, whylen, "the id_token's issue time (iat) is not within the last hour");
    else if (!sub || !*sub || strlen(sub) > 255) snprintf(why, whylen, "the id_token names no user (sub)");
    else if (!cJSON_IsString(ver) || strcmp(ver->valuestring, "1.3.0")) snprintf(why, whylen, "the launch is not LTI 1.3.0");
    else if (!known) snprintf(why, whylen, "the launch's deployment \"%.100s\" is not one this tool is registered for", cJSON_IsString(dep) ? dep->valuestring : "");
    else return c;
    cJSON_Delete(c);
    return NULL;
}

/* the nonce spent, once, in the class record: 0, or -1 with why (unknown, spent, expired) */
static int nonce_spend(serve_ctx *s, const char *nonce, const char *state, char *why, size_t whylen)
{
    char now[24], err[600];
    num_text(now, sizeof now, wall_ms());
    const char *p[3] = {nonce, state, now};
    row_copy got = {0};
    if (sql(s, "DELETE FROM lti_nonces WHERE nonce = ?1 AND state = ?2 AND expires_ms >= ?3 RETURNING nonce", 3, p, &got, err, sizeof err)) {
        snprintf(why, whylen, "the class record could not be read (%.400s)", err);
        return -1;
    }
    int ok = got.rows == 1;
    row_free(&got);
    if (!ok) snprintf(why, whylen, "this launch's nonce is not one this tool gave for this login, or it was used already (a launch is taken once)");
    return ok ? 0 : -1;
}

static int is_teacher(const cJSON *c)
{
    const cJSON *roles = claim(c, "roles"), *role;
    cJSON_ArrayForEach(role, roles)
    {
        for (size_t i = 0; cJSON_IsString(role) && i < sizeof teacher_roles / sizeof teacher_roles[0]; i++)
            if (strcmp(role->valuestring, teacher_roles[i]) == 0) return 1;
    }
    return 0;
}

/* the student's name in the class: the launch's name, at most SERVE_NAME_CHARS characters, no control characters */
static void display_name(const cJSON *c, char *out, size_t len)
{
    const char *name = claim_text(c, "name"), *given = claim_text(c, "given_name"), *family = claim_text(c, "family_name");
    char raw[1024];
    if (name && *name) snprintf(raw, sizeof raw, "%s", name);
    else if (given || family) snprintf(raw, sizeof raw, "%s%s%s", given ? given : "", given && family ? " " : "", family ? family : "");
    else snprintf(raw, sizeof raw, "student %016llx", (unsigned long long)serve_fnv1a(SERVE_FNV_BASIS, claim_text(c, "sub"), strlen(claim_text(c, "sub"))));
    size_t o = 0, chars = 0;
    for (const unsigned char *p = (const unsigned char *)raw; *p && chars < SERVE_NAME_CHARS && o + 5 < len;) {
        size_t k = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
        size_t have = strnlen((const char *)p, k ? k : 1);
        if (!k || have < k) { p++; continue; } /* a broken byte: left out */
        if (k == 1 && (*p < 0x20 || *p == 0x7f)) { p++; continue; }
        memcpy(out + o, p, k);
        o += k, p += k, chars++;
    }
    while (o && out[o - 1] == ' ') o--;
    out[o] = 0;
    if (!o) snprintf(out, len, "student");
}

typedef struct join_ud {
    const char *iss, *sub, *name, *session;
    int64_t class_id;
    char got[4 * SERVE_NAME_CHARS + 16];
} join_ud;

/* The launch's student in the open class: their name (kept per platform user, made unique in the
 * class), a new session each launch (the last one given stands). 0, RECORD_NO_CLASS or RECORD_CLASS_FULL. */
static int join_txn(record *rec, void *ud, char *err, size_t errlen)
{
    join_ud *j = ud;
    row_copy c = {0};
    if (rec->ops->sql(rec, "SELECT id FROM lab_classes WHERE state = 'open' ORDER BY id DESC", 0, NULL, take_row, &c, err, errlen)) return -1;
    if (!c.rows) return RECORD_NO_CLASS;
    char ids[24], now[24];
    snprintf(ids, sizeof ids, "%s", c.col[0]);
    j->class_id = strtoll(ids, NULL, 10);
    row_free(&c);
    num_text(now, sizeof now, wall_ms());
    const char *pu[3] = {ids, j->iss, j->sub};
    if (rec->ops->sql(rec, "SELECT name FROM lti_users WHERE class = ?1 AND iss = ?2 AND sub = ?3", 3, pu, take_row, &c, err, errlen)) return -1;
    if (c.rows) snprintf(j->got, sizeof j->got, "%s", c.col[0]);
    row_free(&c);
    if (!j->got[0]) { /* new in this class: the name, or the name (2), (3) ... when another holds it */
        row_copy n = {0};
        if (rec->ops->sql(rec, "SELECT COUNT(*) FROM lab_students WHERE class = ?1", 1, pu, take_row, &n, err, errlen)) return -1;
        int64_t students = n.col[0] ? strtoll(n.col[0], NULL, 10) : 0;
        row_free(&n);
        if (students >= RECORD_STUDENTS_PER_CLASS) return RECORD_CLASS_FULL;
        for (int k = 1; k < 1000 && !j->got[0]; k++) {
            char cand[sizeof j->got];
            if (k == 1) snprintf(cand, sizeof cand, "%s", j->name);
            else snprintf(cand, sizeof cand, "%s (%d)", j->name, k);
            const char *pc[2] = {ids, cand};
            if (rec->ops->sql(rec, "SELECT name FROM lab_students WHERE class = ?1 AND name = ?2 UNION SELECT name FROM lti_users WHERE class = ?1 AND name = ?2",
                              2, pc, take_row, &n, err, errlen))
                return -1;
            if (!n.rows) snprintf(j->got, sizeof j->got, "%s", cand);
            row_free(&n);
        }
        if (!j->got[0]) return RECORD_CLASS_FULL;
        const char *pi[4] = {ids, j->iss, j->sub, j->got};
        if (rec->ops->sql(rec, "INSERT INTO lti_users (class, iss, sub, name) VALUES (?1, ?2, ?3, ?4)", 4, pi, NULL, NULL, err, errlen)) return -1;
    }
    const char *ps[4] = {ids, j->got, j->session, now};
    if (rec->ops->sql(rec, "DELETE FROM lab_students WHERE class = ?1 AND name = ?2", 2, ps, NULL, NULL, err, errlen) ||
        rec->ops->sql(rec, "INSERT INTO lab_students (class, name, session, joined_ms) VALUES (?1, ?2, ?3, ?4)", 4, ps, NULL, NULL, err, errlen))
        return -1;
    return 0;
}

/* the exercise a link names: its custom parameter "exercise", else ?exercise= of its target (an id or a number) */
static long link_exercise(serve_ctx *s, const cJSON *c)
{
    const cJSON *custom = claim(c, "custom"), *x = cJSON_GetObjectItemCaseSensitive(custom, "exercise");
    char name[128] = "";
    if (cJSON_IsString(x)) snprintf(name, sizeof name, "%s", x->valuestring);
    else if (cJSON_IsNumber(x)) snprintf(name, sizeof name, "%d", (int)x->valuedouble);
    else {
        const cJSON *target = claim(c, "target_link_uri");
        const char *e = cJSON_IsString(target) ? strstr(target->valuestring, "exercise=") : NULL;
        if (e) snprintf(name, sizeof name, "%.*s", (int)strcspn(e + 9, "&#"), e + 9);
    }
    if (!name[0]) return -1;
    char err[4096];
    return lesson_match(s->ex_files, s->nex, name, "exercise", err, sizeof err);
}

static void launch_student(serve_ctx *s, const serve_request *q, serve_reply *r, const cJSON *c)
{
    lti *t = s->lti;
    char name[4 * SERVE_NAME_CHARS + 1], secret[SERVE_SESSION_HEX + 1], err[600];
    display_name(c, name, sizeof name);
    serve_secret(secret);
    join_ud j = {claim_text(c, "iss"), claim_text(c, "sub"), name, secret, 0, ""};
    int rc = s->rec->ops->txn(s->rec, join_txn, &j, err, sizeof err);
    if (rc == RECORD_NO_CLASS) { refuse(r, 409, "no class is open on warpscope at the moment: your teacher opens one (an instructor's launch opens the class page)"); return; }
    if (rc == RECORD_CLASS_FULL) { refuse(r, 403, "the class is full"); return; }
    if (rc) { char w[700]; snprintf(w, sizeof w, "the class record could not be written (%.500s)", err); refuse(r, 503, w); return; }
    /* the link's exercise, and where its score goes (AGS: the link's line item, when the platform gives one) */
    long x = link_exercise(s, c);
    const lesson *l = x < 0 ? NULL : &s->ex[x].l;
    const cJSON *ags = cJSON_GetObjectItemCaseSensitive(c, AGS_CLAIM), *scope = cJSON_GetObjectItemCaseSensitive(ags, "scope"), *sc;
    const char *lineitem = claim_text(ags, "lineitem");
    int may_score = 0;
    cJSON_ArrayForEach(sc, scope) may_score |= cJSON_IsString(sc) && strcmp(sc->valuestring, AGS_SCORE) == 0;
    if (l && lineitem && may_score && strlen(lineitem) < 2000) {
        char ids[24];
        num_text(ids, sizeof ids, j.class_id);
        const char *p[5] = {ids, j.got, l->id, claim_text(c, "sub"), lineitem};
        if (sql(s, "INSERT INTO lti_links (class, student, exercise, sub, lineitem) VALUES (?1, ?2, ?3, ?4, ?5)"
                   " ON CONFLICT (class, student, exercise) DO UPDATE SET sub = excluded.sub, lineitem = excluded.lineitem",
                5, p, NULL, err, sizeof err))
            fprintf(stderr, "warpscope: serve: LTI: the line item of %s for a student was not kept: %s\n", l->id, err);
    }
    char go[200] = "/?editor=1";
    if (l) { /* the page names an exercise by its file: 02-v1-padding */
        const char *base = strrchr(s->ex[x].path, '/');
        base = base ? base + 1 : s->ex[x].path;
        snprintf(go, sizeof go, "/?editor=1&exercise=%.*s", (int)strcspn(base, "."), base);
    }
    /* the page knows the student by name (its storage, as a join leaves it), then opens the exercise */
    char *hn = html(j.got), *hg = html(go), *attrs = NULL, *body = NULL;
    if (asprintf(&attrs, " data-name=\"%s\" data-go=\"%s\"", hn ? hn : "", hg ? hg : "") < 0) attrs = NULL;
    if (asprintf(&body, "<p>You are <b>%s</b> in this class.</p>\n<p><a href=\"%s\">Open %s</a></p>", hn ? hn : "", hg ? hg : "/",
                 l ? "the exercise" : "warpscope") < 0)
        body = NULL;
    page(r, 200, "signed in from your course", body ? body : "", attrs,
         "try{localStorage.setItem('warpscope-editor:student',document.body.dataset.name);"
         "localStorage.setItem('warpscope-editor:joined',document.body.dataset.name)}catch(e){}location.replace(document.body.dataset.go)");
    free(hn), free(hg), free(attrs), free(body);
    cookie(t, q, r, "ws_session", secret, "Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000");
}

static int teacher_sign_in(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    char secret[SERVE_SESSION_HEX + 1], err[600];
    serve_secret(secret);
    if (record_teacher_add(s->rec, secret, wall_ms(), err, sizeof err)) {
        char w[700];
        snprintf(w, sizeof w, "the class record could not be written (%.500s)", err);
        refuse(r, 503, w);
        return -1;
    }
    cookie(s->lti, q, r, "ws_teacher", secret, "Path=/; HttpOnly; SameSite=Strict; Max-Age=43200");
    return 0;
}

/* the Deep Linking launch: the teacher chooses exercises (a ticket kept for the answer) */
static void launch_deep_link(serve_ctx *s, const serve_request *q, serve_reply *r, const cJSON *c)
{
    const cJSON *dl = cJSON_GetObjectItemCaseSensitive(c, DL_CLAIM), *data = cJSON_GetObjectItemCaseSensitive(dl, "data");
    const char *ret = claim_text(dl, "deep_link_return_url");
    if (!ret || (strncmp(ret, "https://", 8) && strncmp(ret, "http://", 7)) || strlen(ret) > 2000) {
        refuse(r, 400, "the Deep Linking request names no return address (deep_link_return_url)");
        return;
    }
    char ticket[SERVE_SESSION_HEX + 1], expires[24], err[600];
    serve_secret(ticket);
    num_text(expires, sizeof expires, wall_ms() + LTI_TICKET_MS);
    const char *p[5] = {ticket, ret, cJSON_IsString(data) ? data->valuestring : NULL, claim(c, "deployment_id")->valuestring, expires};
    char now[24];
    num_text(now, sizeof now, wall_ms());
    const char *pn[1] = {now};
    if (sql(s, "DELETE FROM lti_tickets WHERE expires_ms < ?1", 1, pn, NULL, err, sizeof err) || sql(s, "INSERT INTO lti_tickets (ticket, return_url, data, deployment, expires_ms) VALUES (?1, ?2, ?3, ?4, ?5)", 5, p, NULL, err, sizeof err)) {
        char w[700];
        snprintf(w, sizeof w, "the class record could not be written (%.500s)", err);
        refuse(r, 503, w);
        return;
    }
    if (teacher_sign_in(s, q, r)) return;
    const char *locale = claim_text(c, "locale");
    int zh = locale && strncmp(locale, "zh", 2) == 0;
    size_t cap = 4096 + s->nex * 1024, o = 0;
    char *b = malloc(cap);
    if (!b) { refuse(r, 500, "out of memory"); return; }
    o += (size_t)snprintf(b + o, cap - o, "<form method=\"post\" action=\"/lti/deeplink\">\n<input type=\"hidden\" name=\"ticket\" value=\"%s\">\n"
                                           "<p>The exercises to place in your course (each a gradebook item of its goals):</p>\n", ticket);
    for (size_t i = 0; i < s->nex && o < cap - 1200; i++) {
        const lesson *l = &s->ex[i].l;
        const char *title = l->title.s[zh && l->title.s[LESSON_ZH] ? LESSON_ZH : LESSON_EN];
        char *ht = html(title ? title : l->id), *hi = html(l->id);
        o += (size_t)snprintf(b + o, cap - o, "<label><input type=\"checkbox\" name=\"exercise\" value=\"%s\"> %s (%zu goals)</label>\n", hi ? hi : "",
                              ht ? ht : "", l->exercise ? exercise_goal_count(l->exercise) : 0);
        free(ht), free(hi);
    }
    snprintf(b + o, cap - o, "<p><button type=\"submit\">Place in the course</button></p>\n</form>");
    page(r, 200, "choose exercises", b, NULL, NULL);
    free(b);
}

void lti_launch(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    lti *t = s->lti;
    if (!t) { reply_error(r, 404, "this server is no LTI tool (warpscope serve --lti FILE)"); return; }
    char *id_token = form_value(q->body, "id_token", 0), *state = form_value(q->body, "state", 0), *error = form_value(q->body, "error", 0);
    const char *kept = MHD_lookup_connection_value(q->conn, MHD_COOKIE_KIND, "ws_lti_state");
    char why[700] = "";
    cJSON *c = NULL;
    if (error) snprintf(why, sizeof why, "the platform answered the login with \"%.100s\"", error);
    else if (!state || !kept || strlen(state) != SERVE_SESSION_HEX || strcmp(state, kept))
        snprintf(why, sizeof why, "this launch's state is not the one this browser was given when it began (a launch from another browser, or its cookie refused)");
    else if (!(c = verified(t, id_token, why, sizeof why))) {
    } else {
        const char *nonce = claim_text(c, "nonce");
        if (!nonce) snprintf(why, sizeof why, "the id_token has no nonce");
        else nonce_spend(s, nonce, state, why, sizeof why);
    }
    free(id_token), free(state), free(error);
    if (why[0]) { refuse(r, 401, why); cJSON_Delete(c); return; }
    const cJSON *type = claim(c, "message_type");
    const char *kind = cJSON_IsString(type) ? type->valuestring : "";
    if (strcmp(kind, "LtiDeepLinkingRequest") == 0) {
        if (!is_teacher(c)) refuse(r, 403, "placing exercises in a course (Deep Linking) is the teacher's");
        else launch_deep_link(s, q, r, c);
    } else if (strcmp(kind, "LtiResourceLinkRequest")) {
        snprintf(why, sizeof why, "the launch's message type \"%.60s\" is not one this tool takes", kind);
        refuse(r, 400, why);
    } else if (is_teacher(c)) {
        if (!teacher_sign_in(s, q, r)) page(r, 200, "signed in as the teacher", "<p><a href=\"/class\">Open the class</a></p>", NULL, "location.replace('/class')");
    } else launch_student(s, q, r, c);
    cJSON_Delete(c);
}

void lti_jwks(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    (void)q;
    if (!s->lti) { reply_error(r, 404, "this server is no LTI tool (warpscope serve --lti FILE)"); return; }
    r->status = 200;
    r->type = "application/json";
    r->body = strdup(s->lti->jwks);
    r->len = r->body ? strlen(r->body) : 0;
}

/* ---- Deep Linking's answer ---- */

void lti_deeplink(serve_ctx *s, const serve_request *q, serve_reply *r)
{
    lti *t = s->lti;
    if (!t) { reply_error(r, 404, "this server is no LTI tool (warpscope serve --lti FILE)"); return; }
    char *ticket = form_value(q->body, "ticket", 0), now[24], err[600];
    num_text(now, sizeof now, wall_ms());
    const char *p[2] = {ticket ? ticket : "", now};
    row_copy got = {0};
    if (!ticket || sql(s, "DELETE FROM lti_tickets WHERE ticket = ?1 AND expires_ms >= ?2 RETURNING return_url, data, deployment", 2, p, &got, err, sizeof err) ||
        got.rows != 1 || !got.col[0] || !got.col[2]) {
        free(ticket);
        row_free(&got);
        refuse(r, 403, "this choice of exercises is not one the tool offered, or it was sent already: open the exercise picker again from the course");
        return;
    }
    free(ticket);
    cJSON *claims = cJSON_CreateObject(), *items = cJSON_CreateArray();
    char jti[SERVE_SESSION_HEX + 1], full[200];
    serve_secret(jti);
    double at = (double)(wall_ms() / 1000);
    cJSON_AddStringToObject(claims, "iss", t->client_id);
    cJSON_AddStringToObject(claims, "aud", t->issuer);
    cJSON_AddNumberToObject(claims, "iat", at);
    cJSON_AddNumberToObject(claims, "exp", at + 600);
    cJSON_AddStringToObject(claims, "nonce", jti);
    snprintf(full, sizeof full, "%s%s", CLAIM, "message_type");
    cJSON_AddStringToObject(claims, full, "LtiDeepLinkingResponse");
    snprintf(full, sizeof full, "%s%s", CLAIM, "version");
    cJSON_AddStringToObject(claims, full, "1.3.0");
    snprintf(full, sizeof full, "%s%s", CLAIM, "deployment_id");
    cJSON_AddStringToObject(claims, full, got.col[2]);
    if (got.col[1]) cJSON_AddStringToObject(claims, "https://purl.imsglobal.org/spec/lti-dl/claim/data", got.col[1]);
    char launch[600];
    snprintf(launch, sizeof launch, "%s/lti/launch", t->tool_url);
    for (int k = 0;; k++) {
        char *id = form_value(q->body, "exercise", k);
        if (!id) break;
        for (size_t i = 0; i < s->nex; i++) {
            const lesson *l = &s->ex[i].l;
            if (strcmp(l->id, id) || !l->exercise) continue;
            cJSON *it = cJSON_CreateObject(), *custom = cJSON_CreateObject(), *li = cJSON_CreateObject();
            const char *title = l->title.s[LESSON_EN] ? l->title.s[LESSON_EN] : l->id;
            cJSON_AddStringToObject(it, "type", "ltiResourceLink");
            cJSON_AddStringToObject(it, "title", title);
            cJSON_AddStringToObject(it, "url", launch);
            cJSON_AddStringToObject(custom, "exercise", l->id);
            cJSON_AddItemToObject(it, "custom", custom);
            cJSON_AddNumberToObject(li, "scoreMaximum", (double)exercise_goal_count(l->exercise));
            cJSON_AddStringToObject(li, "label", title);
            cJSON_AddStringToObject(li, "resourceId", l->id);
            cJSON_AddStringToObject(li, "tag", "warpscope");
            cJSON_AddItemToObject(it, "lineItem", li);
            cJSON_AddItemToArray(items, it);
        }
        free(id);
    }
    cJSON_AddItemToObject(claims, "https://purl.imsglobal.org/spec/lti-dl/claim/content_items", items);
    char *jwt = sign(t, claims);
    cJSON_Delete(claims);
    char *ret = html(got.col[0]), *body = NULL;
    row_free(&got);
    if (!jwt || asprintf(&body, "<form method=\"post\" action=\"%s\"><input type=\"hidden\" name=\"JWT\" value=\"%s\">"
                                "<p><button type=\"submit\">Back to the course</button></p></form>", ret ? ret : "", jwt) < 0)
        body = NULL;
    if (body) page(r, 200, "placing the exercises", body, NULL, "document.forms[0].submit()");
    else refuse(r, 500, "the answer could not be signed");
    free(body), free(ret), free(jwt);
}

/* ---- Assignment and Grade Services: the scores' queue ---- */

void lti_score(serve_ctx *s, int64_t class_id, const char *student, const char *exercise, int met, int goals, int64_t at_ms)
{
    lti *t = s->lti;
    if (!t) return;
    char ids[24], m[16], g[16], at[24], err[600];
    num_text(ids, sizeof ids, class_id);
    snprintf(m, sizeof m, "%d", met);
    snprintf(g, sizeof g, "%d", goals);
    num_text(at, sizeof at, at_ms);
    const char *p[6] = {ids, student, exercise, m, g, at};
    if (sql(s, "INSERT INTO lti_scores (class, student, exercise, met, goals, at_ms, due_ms, tries)"
               " SELECT class, student, exercise, CAST(?4 AS INTEGER), CAST(?5 AS INTEGER), CAST(?6 AS BIGINT), 0, 0 FROM lti_links"
               " WHERE class = CAST(?1 AS BIGINT) AND student = ?2 AND exercise = ?3"
               " ON CONFLICT (class, student, exercise) DO UPDATE SET met = excluded.met, goals = excluded.goals, at_ms = excluded.at_ms, due_ms = 0, tries = 0",
            6, p, NULL, err, sizeof err)) {
        fprintf(stderr, "warpscope: serve: LTI: a score of %s was not queued: %s\n", exercise, err);
        return;
    }
    pthread_mutex_lock(&t->wmu);
    t->kicked = 1;
    pthread_cond_signal(&t->wcv);
    pthread_mutex_unlock(&t->wmu);
}

/* An access token for AGS: the client-credentials grant with the tool's signed JWT. 0, or -1 with err. */
static int access_token(lti *t, char *err, size_t errlen)
{
    if (t->access[0] && wall_ms() < t->access_until_ms) return 0;
    cJSON *a = cJSON_CreateObject();
    char jti[SERVE_SESSION_HEX + 1];
    serve_secret(jti);
    double at = (double)(wall_ms() / 1000);
    cJSON_AddStringToObject(a, "iss", t->client_id);
    cJSON_AddStringToObject(a, "sub", t->client_id);
    cJSON_AddStringToObject(a, "aud", t->token_url);
    cJSON_AddNumberToObject(a, "iat", at);
    cJSON_AddNumberToObject(a, "exp", at + 300);
    cJSON_AddStringToObject(a, "jti", jti);
    char *jwt = sign(t, a);
    cJSON_Delete(a);
    char *ej = jwt ? url_escape(jwt) : NULL, *es = url_escape(AGS_SCORE), *body = NULL, *answer = NULL;
    free(jwt);
    if (!ej || !es || asprintf(&body, "grant_type=client_credentials&client_assertion_type=urn%%3Aietf%%3Aparams%%3Aoauth%%3Aclient-assertion-type%%3Ajwt-bearer"
                                      "&client_assertion=%s&scope=%s", ej, es) < 0) {
        free(ej), free(es);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    free(ej), free(es);
    long status = 0;
    int rc = http(t, t->token_url, "application/x-www-form-urlencoded", body, NULL, &status, &answer, err, errlen);
    free(body);
    if (rc) return -1;
    cJSON *o = cJSON_Parse(answer);
    const char *tok = claim_text(o, "access_token");
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(o, "expires_in");
    if (status == 200 && tok && strlen(tok) < sizeof t->access) {
        snprintf(t->access, sizeof t->access, "%s", tok);
        t->access_until_ms = wall_ms() + (int64_t)((cJSON_IsNumber(ex) ? ex->valuedouble : 3600) - 60) * 1000;
    } else snprintf(err, errlen, "the platform's token endpoint answered %ld: %.300s", status, answer);
    cJSON_Delete(o);
    free(answer);
    return t->access[0] && status == 200 ? 0 : -1;
}

typedef struct due {
    char *cls, *student, *exercise, *met, *goals, *at, *tries;
} due;

typedef struct due_list {
    due *d;
    size_t n, cap;
} due_list;

static int take_due(void *ud, int ncol, const char *const *col)
{
    due_list *l = ud;
    if (ncol < 7) return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        due *d = realloc(l->d, cap * sizeof *d);
        if (!d) return 1;
        l->d = d, l->cap = cap;
    }
    due *x = &l->d[l->n++];
    char **f[7] = {&x->cls, &x->student, &x->exercise, &x->met, &x->goals, &x->at, &x->tries};
    for (int i = 0; i < 7; i++) *f[i] = strdup(col[i] ? col[i] : "");
    return 0;
}

/* one score to the platform: 0 sent, -1 not (err) */
static int score_send(lti *t, const due *d, char *err, size_t errlen)
{
    const char *p[3] = {d->cls, d->student, d->exercise};
    row_copy link = {0};
    if (sql(t->s, "SELECT sub, lineitem FROM lti_links WHERE class = CAST(?1 AS BIGINT) AND student = ?2 AND exercise = ?3", 3, p, &link, err, errlen)) return -1;
    if (!link.rows || !link.col[0] || !link.col[1]) { row_free(&link); return 0; } /* no link any more: nothing to send */
    int rc = access_token(t, err, errlen);
    char *url = NULL, *body = NULL, *answer = NULL;
    if (!rc) {
        const char *lineitem = link.col[1];
        size_t path = strcspn(lineitem, "?");
        if (asprintf(&url, "%.*s/scores%s", (int)path, lineitem, lineitem + path) < 0) url = NULL;
        cJSON *o = cJSON_CreateObject();
        time_t at = (time_t)(strtoll(d->at, NULL, 10) / 1000);
        struct tm tm;
        char stamp[40];
        gmtime_r(&at, &tm);
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
        cJSON_AddStringToObject(o, "userId", link.col[0]);
        cJSON_AddNumberToObject(o, "scoreGiven", atof(d->met));
        cJSON_AddNumberToObject(o, "scoreMaximum", atof(d->goals));
        cJSON_AddStringToObject(o, "activityProgress", "Completed");
        cJSON_AddStringToObject(o, "gradingProgress", "FullyGraded");
        cJSON_AddStringToObject(o, "timestamp", stamp);
        body = cJSON_PrintUnformatted(o);
        cJSON_Delete(o);
        long status = 0;
        rc = url && body ? http(t, url, "application/vnd.ims.lis.v1.score+json", body, t->access, &status, &answer, err, errlen) : -1;
        if (!rc && (status < 200 || status > 299)) {
            snprintf(err, errlen, "%s answered %ld: %.300s", url, status, answer ? answer : "");
            if (status == 401) t->access[0] = 0; /* a token refused: a new one next time */
            rc = -1;
        }
    }
    free(url), free(body), free(answer);
    row_free(&link);
    return rc;
}

static void *scores_worker(void *ud)
{
    lti *t = ud;
    for (;;) {
        pthread_mutex_lock(&t->wmu);
        if (!t->kicked && !t->stop) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += 2;
            pthread_cond_timedwait(&t->wcv, &t->wmu, &until);
        }
        int stop = t->stop;
        t->kicked = 0;
        pthread_mutex_unlock(&t->wmu);
        if (stop || *t->s->stop) break;
        /* the scores due, taken for a minute (another server of the record leaves them meanwhile) */
        char now[24], lease[24], err[600];
        num_text(now, sizeof now, wall_ms());
        num_text(lease, sizeof lease, wall_ms() + 60000);
        const char *p[2] = {lease, now};
        due_list l = {0};
        if (t->s->rec->ops->sql(t->s->rec, "UPDATE lti_scores SET due_ms = CAST(?1 AS BIGINT) WHERE due_ms <= CAST(?2 AS BIGINT)"
                                           " RETURNING class, student, exercise, met, goals, at_ms, tries",
                                2, p, take_due, &l, err, sizeof err))
            fprintf(stderr, "warpscope: serve: LTI: the scores' queue could not be read: %s\n", err);
        for (size_t i = 0; i < l.n; i++) {
            due *d = &l.d[i];
            const char *pk[4] = {d->cls, d->student, d->exercise, d->at};
            if (score_send(t, d, err, sizeof err) == 0) {
                sql(t->s, "DELETE FROM lti_scores WHERE class = CAST(?1 AS BIGINT) AND student = ?2 AND exercise = ?3 AND at_ms = CAST(?4 AS BIGINT)", 4, pk, NULL,
                    err, sizeof err);
            } else {
                int tries = atoi(d->tries) + 1;
                int wait_s = tries >= 12 ? LTI_SCORE_WAIT_MAX_S : 1 << tries;
                if (wait_s > LTI_SCORE_WAIT_MAX_S) wait_s = LTI_SCORE_WAIT_MAX_S;
                fprintf(stderr, "warpscope: serve: LTI: a score of %s not taken by the platform (try %d%s): %s\n", d->exercise, tries,
                        tries >= LTI_SCORE_TRIES ? ", dropped" : "", err);
                char tr[16], due_at[24];
                snprintf(tr, sizeof tr, "%d", tries);
                num_text(due_at, sizeof due_at, wall_ms() + (int64_t)wait_s * 1000);
                const char *pu[6] = {d->cls, d->student, d->exercise, d->at, tr, due_at};
                sql(t->s, tries >= LTI_SCORE_TRIES ?
                    "DELETE FROM lti_scores WHERE class = CAST(?1 AS BIGINT) AND student = ?2 AND exercise = ?3 AND at_ms = CAST(?4 AS BIGINT)"
                    " AND CAST(?5 AS INTEGER) > 0 AND CAST(?6 AS BIGINT) > 0" :
                    "UPDATE lti_scores SET tries = CAST(?5 AS INTEGER), due_ms = CAST(?6 AS BIGINT) WHERE class = CAST(?1 AS BIGINT) AND student = ?2"
                    " AND exercise = ?3 AND at_ms = CAST(?4 AS BIGINT)",
                    6, pu, NULL, err, sizeof err);
            }
            free(d->cls), free(d->student), free(d->exercise), free(d->met), free(d->goals), free(d->at), free(d->tries);
        }
        free(l.d);
    }
    return NULL;
}

/* A student the teacher removed: the platform's user no longer holds the name (a later launch of
 * theirs is a new student, named afresh), and nothing of theirs is left to send. */
static int forget_txn(record *rec, void *ud, char *err, size_t errlen)
{
    const char *const *p = ud;
    return rec->ops->sql(rec, "DELETE FROM lti_users WHERE class = ?1 AND name = ?2", 2, p, NULL, NULL, err, errlen) ||
                   rec->ops->sql(rec, "DELETE FROM lti_links WHERE class = ?1 AND student = ?2", 2, p, NULL, NULL, err, errlen) ||
                   rec->ops->sql(rec, "DELETE FROM lti_scores WHERE class = ?1 AND student = ?2", 2, p, NULL, NULL, err, errlen)
               ? -1
               : 0;
}

int lti_forget(serve_ctx *s, int64_t class_id, const char *student, char *err, size_t errlen)
{
    if (!s->lti) return 0; /* its tables are made by an LTI tool */
    char ids[24];
    num_text(ids, sizeof ids, class_id);
    const char *p[2] = {ids, student};
    return s->rec->ops->txn(s->rec, forget_txn, (void *)p, err, errlen);
}
