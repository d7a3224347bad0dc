/* Building a jazz model in hosted code (the demo and the Smooth Jazz
 * compiler): records are added by name (the compiler then sets hashes
 * directly), lists are copied into blocks the builder owns, and jazz_build_finish lays out the chunk table the way
 * the game's files do (machine, actors, parameters, states, graphs, nodes)
 * and fills each graph's node list from what its roots reach. */
#ifndef PLUMBOB_JAZZ_BUILD_H
#define PLUMBOB_JAZZ_BUILD_H
#include "plumbob.h"

typedef struct jazz_build {
    plumbob_jazz jazz;         /* valid after jazz_build_finish */
    plumbob_jazz_actor *actors;
    plumbob_jazz_param *params;
    plumbob_jazz_state *states;
    plumbob_jazz_graph *graphs;
    plumbob_jazz_node *nodes;
    plumbob_jazz_chunk *chunks;
    uint32_t actor_count, param_count, state_count, node_count;
    uint64_t instance;         /* the resource's instance: FNV-64 of the name */
    void **blocks;             /* every list copy, freed together */
    size_t block_count;
    int failed;                /* an allocation failed; finish reports it */
} jazz_build;

/* Starts a machine called `name` (its instance is the FNV-64 of the name). */
void jazz_build_init(jazz_build *b, const char *name);
uint32_t jazz_build_actor(jazz_build *b, const char *name);
uint32_t jazz_build_param(jazz_build *b, const char *name, const char *default_value);
/* A state with its (empty) decision graph; returns the state index. */
uint32_t jazz_build_state(jazz_build *b, const char *name, uint32_t flags);
void jazz_build_transitions(jazz_build *b, uint32_t state, uint32_t count, const uint32_t *to);
void jazz_build_roots(jazz_build *b, uint32_t state, uint32_t count, const uint32_t *roots);
/* A node of `kind` with the game's version and fillers, zeroed otherwise;
 * returns its index.  Pointers into b->nodes last until the next call. */
uint32_t jazz_build_node(jazz_build *b, uint32_t kind);
/* A play of the clip called `clip` (key by the clip-name rule) for `actor`. */
uint32_t jazz_build_play(jazz_build *b, const char *clip, uint32_t actor);
/* `bytes` zeroed bytes owned by the builder (NULL when out of memory). */
void *jazz_build_block(jazz_build *b, size_t bytes);
/* The S_SM animation list: a copy of items[0..count).  Returns 0 when out of memory. */
int jazz_build_animations(jazz_build *b, uint32_t count, const plumbob_jazz_animation *items);
/* A copy of items[0..count) owned by the builder. */
const uint32_t *jazz_build_list(jazz_build *b, uint32_t count, const uint32_t *items);
plumbob_jazz_branch *jazz_build_branches(jazz_build *b, uint32_t node, uint32_t count);
/* Lays out the chunks; returns 0 when an allocation failed. */
int jazz_build_finish(jazz_build *b);
void jazz_build_free(jazz_build *b);

#endif
