/* Smooth Jazz lexer: the whole text becomes an array of tokens up front
 * (words, strings, numbers, punctuation), comments dropped, each token with
 * its line and column.  No global state. */
#ifndef PLUMBOB_SJ_LEX_H
#define PLUMBOB_SJ_LEX_H
#include "smooth_jazz.h"

enum { SJ_EOF, SJ_WORD, SJ_STRING, SJ_NUMBER, SJ_PUNCT };

typedef struct sj_token {
    int kind;
    const char *at;      /* the token's text in the source */
    size_t len;
    unsigned line, col;
    /* SJ_STRING: the decoded bytes (UTF-8; \u escapes encoded as UTF-8) */
    size_t str_at, str_len; /* in sj_tokens.pool */
    /* SJ_NUMBER */
    int negative, is_hex, is_float;
    uint64_t value;      /* magnitude of an integer */
    float real;          /* the value as a float (any number) */
} sj_token;

typedef struct sj_tokens {
    sj_token *items;
    size_t count, cap;
    char *pool;          /* decoded string bytes */
    size_t pool_len, pool_cap;
} sj_tokens;

/* Splits text[0..len) into tokens, ending with one SJ_EOF token.  Returns 1,
 * or 0 with *err at the offending place (unterminated string or comment,
 * bad escape, bad number, stray character, out of memory). */
int sj_lex(const char *text, size_t len, sj_tokens *out, sj_error *err);
void sj_tokens_free(sj_tokens *t);

#endif
