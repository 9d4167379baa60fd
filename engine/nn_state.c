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

nn_status nn_state_add(nn_ctx *ctx, nn_state *s, const char *name, nn_tensor *t) {
    if (strlen(name) >= NN_STATE_NAME_MAX)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "name '%.40s...' is longer than %d bytes",
                            name, NN_STATE_NAME_MAX - 1);
    if (nn_state_get(s, name))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "'%s' appears twice", name);
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        nn_state_entry *grown = realloc(s->entries, sizeof *grown * (size_t)cap);
        if (!grown) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory");
        s->entries = grown;
        s->cap = cap;
    }
    nn_state_entry *e = &s->entries[s->n++];
    strcpy(e->name, name);
    e->tensor = nn_tensor_retain(t);
    return NN_OK;
}
