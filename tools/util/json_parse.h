/* A small JSON reader (hosted, malloc): a tree for checking files the tool
 * wrote, such as glTF.  Strict RFC 8259 grammar, nesting at most 64 deep. */
#ifndef PLUMBOB_JSON_PARSE_H
#define PLUMBOB_JSON_PARSE_H

#include <stddef.h>

typedef enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

typedef struct json_value {
    json_kind kind;
    double number;            /* JSON_NUMBER; JSON_BOOL: 0 or 1 */
    char *str;                /* JSON_STRING: decoded UTF-8, NUL-terminated */
    size_t len;
    struct json_value *items; /* array items, or object member values */
    char **keys;              /* object member names (decoded) */
    size_t count;
} json_value;

#define JSON_MAX_DEPTH 64

/* Parses text[0..len) (one value, whitespace around it allowed).  On error
 * returns 0 and writes "byte N: what" into why. */
int json_parse(const char *text, size_t len, json_value *out, char *why, size_t why_cap);
/* Member `key` of an object, or NULL (also when v is not an object). */
const json_value *json_get(const json_value *v, const char *key);
void json_free(json_value *v);

#endif
