#include "nn_state.h"

#include <stdlib.h>
#include <string.h>

void nn_state_init(nn_state *s) {
    memset(s, 0, sizeof *s);
}

void nn_state_free(nn_state *s) {
    if (!s) return;
    for (int i = 0; i < s->n; i++) nn_tensor_release(s->entries[i].tensor);
    free(s->entries);
    memset(s, 0, sizeof *s);
}

nn_tensor *nn_state_get(const nn_state *s, const char *name) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->entries[i].name, name) == 0) return s->entries[i].tensor;
    return NULL;
}

nn_status nn_state_reserve(nn_ctx *ctx, nn_state *s, int n) {
    if (n <= s->cap) return NN_OK;
    nn_state_entry *grown = realloc(s->entries, sizeof *grown * (size_t)n);
    if (!grown) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory for the tensor list");
    s->entries = grown;
    s->cap = n;
    return NN_OK;
}

nn_status nn_state_add_unique(nn_ctx *ctx, nn_state *s, const char *name, nn_tensor *t) {
    if (strlen(name) >= NN_STATE_NAME_MAX)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "name '%.40s...' is longer than %d bytes",
                            name, NN_STATE_NAME_MAX - 1);
    if (s->n == s->cap && nn_state_reserve(ctx, s, s->cap ? s->cap * 2 : 16)) return ctx->err.code;
    nn_state_entry *e = &s->entries[s->n++];
    strcpy(e->name, name);
    e->tensor = nn_tensor_retain(t);
    return NN_OK;
}

nn_status nn_state_add(nn_ctx *ctx, nn_state *s, const char *name, nn_tensor *t) {
    if (nn_state_get(s, name))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "'%s' appears twice", name);
    return nn_state_add_unique(ctx, s, name, t);
}
