/* Smooth Jazz lexer (see sj_lex.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sj_lex.h"

typedef struct lexer {
    const char *src;
    size_t len, pos;
    unsigned line, col;
    sj_tokens *out;
    sj_error *err;
} lexer;

static int fail(lexer *lx, unsigned line, unsigned col, const char *fmt, ...) {
    va_list ap;
    lx->err->line = line;
    lx->err->col = col;
    va_start(ap, fmt);
    vsnprintf(lx->err->message, sizeof lx->err->message, fmt, ap);
    va_end(ap);
    return 0;
}

static int peek(const lexer *lx, size_t ahead) {
    return lx->pos + ahead < lx->len ? (unsigned char)lx->src[lx->pos + ahead] : -1;
}

static void advance(lexer *lx) {
    if (lx->src[lx->pos] == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    lx->pos++;
}

static int pool_put(lexer *lx, const char *bytes, size_t n) {
    sj_tokens *t = lx->out;
    if (t->pool_len + n > t->pool_cap) {
        size_t cap = t->pool_cap ? t->pool_cap : 256u;
        char *p;
        while (cap < t->pool_len + n) cap *= 2u;
        p = (char *)realloc(t->pool, cap);
        if (!p) return fail(lx, lx->line, lx->col, "out of memory");
        t->pool = p;
        t->pool_cap = cap;
    }
    memcpy(t->pool + t->pool_len, bytes, n);
    t->pool_len += n;
    return 1;
}

size_t sj_utf8_encode(uint32_t cp, char out[4]) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Appends a \u escape's code unit as UTF-8. */
static int pool_utf8(lexer *lx, uint32_t cp) {
    char b[4];
    return pool_put(lx, b, sj_utf8_encode(cp, b));
}

static int hex_digit(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int is_word_char(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static sj_token *push(lexer *lx, int kind, size_t start, unsigned line, unsigned col) {
    sj_tokens *t = lx->out;
    sj_token *tok;
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2u : 256u;
        sj_token *items = (sj_token *)realloc(t->items, cap * sizeof *items);
        if (!items) {
            fail(lx, line, col, "out of memory");
            return NULL;
        }
        t->items = items;
        t->cap = cap;
    }
    tok = &t->items[t->count++];
    memset(tok, 0, sizeof *tok);
    tok->kind = kind;
    tok->at = lx->src + start;
    tok->line = line;
    tok->col = col;
    return tok;
}

/* "..." with \\ \" \' \n \t \r \0 \xHH \uHHHH escapes, on one line. */
static int lex_string(lexer *lx) {
    size_t start = lx->pos;
    unsigned line = lx->line, col = lx->col;
    size_t at = lx->out->pool_len;
    sj_token *tok;
    advance(lx);
    for (;;) {
        int c = peek(lx, 0);
        if (c < 0 || c == '\n') return fail(lx, line, col, "unterminated string (a string ends with \" on the same line)");
        if (c == '"') break;
        if (c == '\\') {
            unsigned eline = lx->line, ecol = lx->col;
            int e = peek(lx, 1);
            char ch = 0;
            advance(lx);
            if (e < 0 || e == '\n') return fail(lx, line, col, "unterminated string (a string ends with \" on the same line)");
            advance(lx);
            switch (e) {
            case '\\': ch = '\\'; break;
            case '"': ch = '"'; break;
            case '\'': ch = '\''; break;
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case '0': ch = '\0'; break;
            case 'x':
            case 'u': {
                int digits = e == 'x' ? 2 : 4, k;
                uint32_t v = 0;
                for (k = 0; k < digits; k++) {
                    int h = hex_digit(peek(lx, 0));
                    if (h < 0)
                        return fail(lx, eline, ecol, "bad escape: \\%c needs %d hex digits", e, digits);
                    v = v * 16u + (uint32_t)h;
                    advance(lx);
                }
                if (e == 'x') {
                    ch = (char)v;
                    if (!pool_put(lx, &ch, 1)) return 0;
                } else if (!pool_utf8(lx, v)) {
                    return 0;
                }
                continue;
            }
            default:
                return fail(lx, eline, ecol, "unknown escape '\\%c' (use \\\\ \\\" \\n \\t \\r \\0 \\xHH or \\uHHHH)", e);
            }
            if (!pool_put(lx, &ch, 1)) return 0;
            continue;
        }
        {
            char ch = (char)c;
            if (!pool_put(lx, &ch, 1)) return 0;
        }
        advance(lx);
    }
    advance(lx);
    tok = push(lx, SJ_STRING, start, line, col);
    if (!tok) return 0;
    tok->len = lx->pos - start;
    tok->str_at = at;
    tok->str_len = lx->out->pool_len - at;
    return 1;
}

/* [-] (0x hex | digits [. digits] [e [+-] digits] | . digits [e [+-] digits]) */
static int lex_number(lexer *lx) {
    size_t start = lx->pos, digits_at;
    unsigned line = lx->line, col = lx->col;
    sj_token *tok;
    int negative = 0, is_hex = 0, is_float = 0, overflow = 0;
    uint64_t v = 0;
    char buf[64];
    if (peek(lx, 0) == '-') {
        negative = 1;
        advance(lx);
        if ((peek(lx, 0) < '0' || peek(lx, 0) > '9') && !(peek(lx, 0) == '.' && peek(lx, 1) >= '0' && peek(lx, 1) <= '9'))
            return fail(lx, line, col, "bad number: '-' must be followed by digits");
    }
    if (peek(lx, 0) == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X')) {
        is_hex = 1;
        advance(lx);
        advance(lx);
        digits_at = lx->pos;
        while (hex_digit(peek(lx, 0)) >= 0) {
            if (v >> 60) overflow = 1;
            v = v * 16u + (uint64_t)hex_digit(peek(lx, 0));
            advance(lx);
        }
        if (lx->pos == digits_at) return fail(lx, line, col, "bad number: '0x' must be followed by hex digits");
    } else {
        while (peek(lx, 0) >= '0' && peek(lx, 0) <= '9') {
            uint64_t d = (uint64_t)(peek(lx, 0) - '0');
            if (v > (UINT64_MAX - d) / 10u) overflow = 1;
            v = v * 10u + d;
            advance(lx);
        }
        /* 12.5 is a fraction; 12.0x10 is two names joined by '.' (Assign Actor) */
        if (peek(lx, 0) == '.' && peek(lx, 1) >= '0' && peek(lx, 1) <= '9' &&
            !(peek(lx, 1) == '0' && (peek(lx, 2) == 'x' || peek(lx, 2) == 'X'))) {
            is_float = 1;
            advance(lx);
            while (peek(lx, 0) >= '0' && peek(lx, 0) <= '9') advance(lx);
        }
        if (peek(lx, 0) == 'e' || peek(lx, 0) == 'E') {
            size_t k = 1;
            if (peek(lx, 1) == '+' || peek(lx, 1) == '-') k = 2;
            if (peek(lx, k) < '0' || peek(lx, k) > '9') return fail(lx, line, col, "bad number: exponent needs digits");
            is_float = 1;
            while (k--) advance(lx);
            while (peek(lx, 0) >= '0' && peek(lx, 0) <= '9') advance(lx);
        }
    }
    if (is_word_char(peek(lx, 0)) || lx->pos == start + (size_t)negative) /* no digits: never an empty token */
        return fail(lx, line, col, "bad number '%.*s'", (int)(lx->pos - start + 1), lx->src + start);
    if (overflow && !is_float) return fail(lx, line, col, "number '%.*s' is too large", (int)(lx->pos - start), lx->src + start);
    tok = push(lx, SJ_NUMBER, start, line, col);
    if (!tok) return 0;
    tok->len = lx->pos - start;
    tok->negative = negative;
    tok->is_hex = is_hex;
    tok->is_float = is_float;
    tok->value = v;
    if (tok->len < sizeof buf && !is_hex) {
        memcpy(buf, tok->at, tok->len);
        buf[tok->len] = '\0';
        tok->real = strtof(buf, NULL);
    } else {
        tok->real = negative ? -(float)v : (float)v;
    }
    return 1;
}

/* A number written from its point (".2", as the page's weights are):
 * '.' and a digit where a token starts, after a space or '{' ',' ':' '='
 * (not the '.' of names joined like 12.0x10). */
static int fraction_start(const lexer *lx) {
    int before = lx->pos ? (unsigned char)lx->src[lx->pos - 1u] : ' ';
    return peek(lx, 0) == '.' && peek(lx, 1) >= '0' && peek(lx, 1) <= '9' &&
           !(peek(lx, 1) == '0' && (peek(lx, 2) == 'x' || peek(lx, 2) == 'X')) &&
           (before == ' ' || before == '\t' || before == '\r' || before == '\n' || (before && strchr("{,:=", before) != NULL));
}

int sj_lex(const char *text, size_t len, sj_tokens *out, sj_error *err) {
    lexer lx;
    memset(out, 0, sizeof *out);
    lx.src = text;
    lx.len = len;
    lx.pos = 0;
    lx.line = lx.col = 1;
    lx.out = out;
    lx.err = err;
    /* a UTF-8 byte-order mark, as Windows editors write: not part of the text */
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
        lx.pos = 3;
    for (;;) {
        int c = peek(&lx, 0);
        if (c < 0) break;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            advance(&lx);
        } else if (c == '/' && peek(&lx, 1) == '/') {
            while (peek(&lx, 0) >= 0 && peek(&lx, 0) != '\n') advance(&lx);
        } else if (c == '/' && peek(&lx, 1) == '*') {
            unsigned line = lx.line, col = lx.col;
            advance(&lx);
            advance(&lx);
            while (!(peek(&lx, 0) == '*' && peek(&lx, 1) == '/')) {
                if (peek(&lx, 0) < 0) return fail(&lx, line, col, "unterminated comment (a /* comment needs a closing */)");
                advance(&lx);
            }
            advance(&lx);
            advance(&lx);
        } else if (c == '"') {
            if (!lex_string(&lx)) return 0;
        } else if ((c >= '0' && c <= '9') || c == '-' || fraction_start(&lx)) {
            if (!lex_number(&lx)) return 0;
        } else if (is_word_char(c)) {
            size_t start = lx.pos;
            unsigned line = lx.line, col = lx.col;
            sj_token *tok;
            while (is_word_char(peek(&lx, 0))) advance(&lx);
            tok = push(&lx, SJ_WORD, start, line, col);
            if (!tok) return 0;
            tok->len = lx.pos - start;
        } else if (strchr("{},.:=*", c) != NULL && c != 0) {
            sj_token *tok = push(&lx, SJ_PUNCT, lx.pos, lx.line, lx.col);
            if (!tok) return 0;
            tok->len = 1;
            advance(&lx);
        } else if (c >= 0x20 && c < 0x7F) {
            return fail(&lx, lx.line, lx.col, "unexpected character '%c'", c);
        } else if (c == 0xE2 && peek(&lx, 1) == 0x80 && peek(&lx, 2) >= 0x98 && peek(&lx, 2) <= 0x9D &&
                   peek(&lx, 2) != 0x9A && peek(&lx, 2) != 0x9B) { /* a word processor's quotes */
            return fail(&lx, lx.line, lx.col, "curly quote %.3s (U+20%02X): use a straight \" quote", lx.src + lx.pos,
                        (unsigned)(peek(&lx, 2) - 0x80));
        } else {
            return fail(&lx, lx.line, lx.col, "unexpected byte 0x%02X outside a string", (unsigned)c);
        }
    }
    {
        sj_token *tok = push(&lx, SJ_EOF, lx.pos, lx.line, lx.col);
        if (!tok) return 0;
    }
    return 1;
}

void sj_tokens_free(sj_tokens *t) {
    free(t->items);
    free(t->pool);
    memset(t, 0, sizeof *t);
}

void sj_error_print(FILE *out, const char *file, const char *text, size_t len, const sj_error *err) {
    size_t start = 0, end, i;
    unsigned line = 1;
    fprintf(out, "%s:%u:%u: error: %s\n", file, err->line, err->col, err->message);
    if (err->line == 0) return;
    for (i = 0; i < len && line < err->line; i++)
        if (text[i] == '\n') {
            line++;
            start = i + 1;
        }
    for (end = start; end < len && text[end] != '\n' && text[end] != '\r'; end++) {
    }
    fprintf(out, "  %.*s\n  ", (int)(end - start), text + start);
    for (i = 0; i + 1 < err->col && start + i < end; i++) fputc(text[start + i] == '\t' ? '\t' : ' ', out);
    fputs("^\n", out);
}
