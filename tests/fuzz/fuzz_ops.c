/* fuzz_ops: drive the public op API with byte strings.
 *
 * Each input is read as a little program: make tensors of odd shapes and
 * dtypes, call ops on them with arbitrary dims, indices and sizes, run
 * backward, write in place. Any op may fail with an error value; none may
 * crash, trip a sanitizer, or leak: after each input all engine memory must
 * be back in the pool. Built two ways: with libFuzzer (`make fuzz`), and
 * with tests/fuzz/fuzz_driver.c, which replays a fixed set of generated
 * inputs in `make test`. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_mem.h"
#include "nn_ops.h"

#define SLOTS 6

typedef struct reader {
    const uint8_t *p;
    size_t n, i;
} reader;

static int byte(reader *r) {
    return r->i < r->n ? r->p[r->i++] : 0;
}
static int64_t small(reader *r) { /* -3..12, mostly small sizes and dims */
    return (int64_t)(byte(r) % 16) - 3;
}

static void put(nn_tensor **slot, nn_tensor *t) {
    if (!t) return;
    nn_tensor_release(*slot);
    *slot = t;
}

static nn_tensor *make(nn_ctx *ctx, reader *r) {
    int64_t shape[NN_MAX_DIMS + 1];
    int nd = byte(r) % 5;
    for (int i = 0; i < nd; i++) shape[i] = byte(r) % 5;
    if (byte(r) == 255) shape[0] = INT64_MAX / 3; /* absurd size: must be an error */
    switch (byte(r) % 5) {
    case 0: return nn_randn(ctx, NN_FLOAT32, nd, shape);
    case 1: return nn_randn(ctx, NN_FLOAT64, nd, shape);
    case 2: return nn_randint(ctx, -2, 6, nd, shape);
    case 3: return nn_full(ctx, NN_BOOL, nd, shape, byte(r) & 1);
    default: {
        nn_tensor *t = nn_randn(ctx, NN_FLOAT32, nd, shape);
        if (t && nn_tensor_numel(t) > 0) nn_tensor_set_flat(t, 0, (byte(r) & 1) ? NAN : INFINITY);
        return t;
    }
    }
}

static void step(nn_ctx *ctx, reader *r, nn_tensor **s) {
    nn_tensor *a = s[byte(r) % SLOTS], *b = s[byte(r) % SLOTS], *c = s[byte(r) % SLOTS];
    nn_tensor **dst = &s[byte(r) % SLOTS];
    int op = byte(r) % 16;
    if (op != 0 && (!a || !b || !c)) op = 0;
    int64_t d = small(r), e = small(r);
    switch (op) {
    case 0: put(dst, make(ctx, r)); break;
    case 1: {
        nn_tensor *(*bin[])(nn_ctx *, nn_tensor *, nn_tensor *) = {
            nn_add, nn_sub, nn_mul, nn_div,         nn_pow,        nn_maximum, nn_minimum,
            nn_eq,  nn_lt,  nn_ge,  nn_logical_and, nn_logical_or, nn_matmul};
        put(dst, bin[byte(r) % 13](ctx, a, b));
        break;
    }
    case 2: {
        nn_tensor *(*un[])(nn_ctx *, nn_tensor *) = {
            nn_neg,   nn_exp,      nn_log,        nn_log1p,   nn_sqrt,   nn_rsqrt,       nn_abs,
            nn_sign,  nn_relu,     nn_tanh,       nn_sigmoid, nn_silu,   nn_logical_not, nn_isnan,
            nn_isinf, nn_isfinite, nn_contiguous, nn_max_all, nn_min_all};
        put(dst, un[byte(r) % 19](ctx, a));
        break;
    }
    case 3: {
        int64_t dims[2] = {d, e};
        int nd = byte(r) % 3;
        bool keep = byte(r) & 1;
        switch (byte(r) % 8) {
        case 0: put(dst, nn_sum(ctx, a, dims, nd, keep)); break;
        case 1: put(dst, nn_mean(ctx, a, dims, nd, keep)); break;
        case 2: put(dst, nn_var(ctx, a, dims, nd, byte(r) % 2, keep)); break;
        case 3: put(dst, nn_std(ctx, a, dims, nd, byte(r) % 2, keep)); break;
        case 4: put(dst, nn_logsumexp(ctx, a, dims, nd, keep)); break;
        case 5: put(dst, nn_norm(ctx, a, (byte(r) & 1) ? 2.0 : INFINITY, dims, nd, keep)); break;
        case 6: {
            nn_tensor *idx = NULL;
            put(dst, nn_max_dim(ctx, a, d, keep, &idx));
            nn_tensor_release(idx);
            break;
        }
        default: put(dst, nn_argmax(ctx, a, d, byte(r) & 1, keep)); break;
        }
        break;
    }
    case 4: put(dst, nn_linear(ctx, a, b, (byte(r) & 1) ? c : NULL)); break;
    case 5: {
        int64_t shape[4] = {small(r), small(r), small(r), small(r)};
        int nd = byte(r) % 5;
        put(dst, (byte(r) & 1) ? nn_reshape(ctx, a, nd, shape) : nn_view(ctx, a, nd, shape));
        break;
    }
    case 6:
        switch (byte(r) % 6) {
        case 0: put(dst, nn_transpose(ctx, a, d, e)); break;
        case 1: put(dst, nn_squeeze(ctx, a, (byte(r) & 1) ? NN_ALL_DIMS : d)); break;
        case 2: put(dst, nn_unsqueeze(ctx, a, d)); break;
        case 3: {
            int64_t shape[3] = {small(r), small(r), small(r)};
            put(dst, nn_expand(ctx, a, byte(r) % 4, shape));
            break;
        }
        case 4: {
            int64_t order[4] = {small(r), small(r), small(r), small(r)};
            if (a->ndim <= 4) put(dst, nn_permute(ctx, a, order));
            break;
        }
        default: put(dst, nn_flatten(ctx, a, d, e)); break;
        }
        break;
    case 7:
        switch (byte(r) % 4) {
        case 0: put(dst, nn_slice(ctx, a, d, small(r), small(r), small(r))); break;
        case 1: put(dst, nn_select(ctx, a, d, small(r))); break;
        case 2: put(dst, nn_index(ctx, a, d, &b, 1)); break;
        default: put(dst, nn_masked_select(ctx, a, b)); break;
        }
        break;
    case 8: {
        nn_tensor *ts[3] = {a, b, c}, *out[4] = {0};
        int n = 0;
        switch (byte(r) % 4) {
        case 0: put(dst, nn_cat(ctx, ts, 1 + byte(r) % 3, d)); break;
        case 1: put(dst, nn_stack(ctx, ts, 1 + byte(r) % 3, d)); break;
        case 2: nn_split(ctx, a, small(r), d, out, 4, &n); break;
        default: nn_chunk(ctx, a, small(r), d, out, 4, &n); break;
        }
        for (int i = 0; i < 4; i++) nn_tensor_release(out[i]);
        break;
    }
    case 9:
        switch (byte(r) % 10) {
        case 0: put(dst, nn_softmax(ctx, a, d)); break;
        case 1: put(dst, nn_log_softmax(ctx, a, d)); break;
        case 2:
            put(dst, nn_cross_entropy(ctx, a, b, small(r), (byte(r) % 4) * 0.1,
                                      (nn_reduction)(byte(r) % 3)));
            break;
        case 3: put(dst, nn_nll_loss(ctx, a, b, small(r), (nn_reduction)(byte(r) % 3))); break;
        case 4: put(dst, nn_mse_loss(ctx, a, b, (nn_reduction)(byte(r) % 3))); break;
        case 5:
            put(dst, nn_binary_cross_entropy_with_logits(ctx, a, b, (nn_reduction)(byte(r) % 3)));
            break;
        case 6: put(dst, nn_embedding(ctx, a, b)); break;
        case 7:
            put(dst, nn_layer_norm(ctx, a, 1 + byte(r) % 2, (byte(r) & 1) ? b : NULL, NULL, 1e-5));
            break;
        case 8: put(dst, nn_dropout(ctx, a, (byte(r) % 5) * 0.3, byte(r) & 1)); break;
        default: put(dst, nn_scaled_dot_product_attention(ctx, a, b, c, byte(r) & 1, 0)); break;
        }
        break;
    case 10: nn_backward(ctx, a, (byte(r) & 1) ? b : NULL, byte(r) & 1); break;
    case 11: nn_tensor_requires_grad_(ctx, a, byte(r) & 1); break;
    case 12:
        switch (byte(r) % 5) {
        case 0: nn_tensor_fill_(ctx, a, NAN); break;
        case 1: nn_tensor_copy_(ctx, a, b); break;
        case 2: nn_index_put_(ctx, a, d, &b, 1, c); break;
        case 3: nn_masked_fill_(ctx, a, b, c); break;
        default: nn_tensor_clamp_(ctx, a, -1, 1); break;
        }
        break;
    case 13: nn_ctx_set_grad(ctx, byte(r) & 1); break;
    case 14: put(dst, nn_where(ctx, a, b, c)); break;
    default: put(dst, nn_to(ctx, a, (nn_dtype)(byte(r) % 4))); break;
    }
    nn_ctx_clear_error(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* A small cap makes absurd requests hit it quickly. */
    size_t baseline = fuzz_mem_begin(256u << 20);
    nn_ctx *ctx = nn_ctx_new(size);
    nn_tensor *slots[SLOTS] = {0};
    reader r = {data, size, 0};
    for (int k = 0; k < 64 && r.i < r.n; k++) step(ctx, &r, slots);
    for (int i = 0; i < SLOTS; i++) nn_tensor_release(slots[i]);
    nn_ctx_free(ctx);
    fuzz_mem_end(baseline, "fuzz_ops");
    return 0;
}
